package gatewayclient_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// fakeGateway starts a tiny stand-in for the gateway so that the examples run: it issues a
// token, creates a transaction (and a deposit with the same id), and lists and fetches
// deposits. Real programs point New at the gateway's URL instead.
func fakeGateway() *httptest.Server {
	const id = "5b3c7d2e-1f4a-4b6c-8d9e-0a1b2c3d4e5f"
	created := time.Date(2026, 3, 14, 15, 9, 26, 0, time.UTC)
	deposit := gatewayclient.Deposit{
		ID: id, Acquirer: "SANDBOX", Amount: 2990, PaymentMethod: gatewayclient.PaymentMethodPIX,
		ExternalCode: "order-1001", CreatedAt: created, UpdatedAt: created,
		Status:        gatewayclient.DepositPixQRCodeGenerated,
		DepositOrigin: gatewayclient.OriginQRCode,
		StatusHistory: []gatewayclient.StatusHistory{{Status: string(gatewayclient.DepositPixQRCodeGenerated), Date: created}},
		PixResponse: &gatewayclient.PixResponse{URI: "00020101021226880014br.gov.bcb.pix...6304B14F",
			QRCodeBase64: "iVBORw0KGgo=", ExpirationDate: created.Add(30 * time.Minute)},
	}
	reply := func(w http.ResponseWriter, status int, v any) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(v)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/auth/token", func(w http.ResponseWriter, r *http.Request) {
		if r.FormValue("client_id") != "my-client" || r.FormValue("client_secret") != "my-secret" {
			reply(w, http.StatusUnauthorized, map[string]any{"statusCode": 401, "message": "Invalid credentials"})
			return
		}
		reply(w, http.StatusOK, map[string]any{"access_token": "example-token", "expires_in_sec": 3600, "token_type": "Bearer"})
	})
	authorized := func(h http.HandlerFunc) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("Authorization") != "Bearer example-token" {
				reply(w, http.StatusUnauthorized, map[string]any{"statusCode": 401, "message": "Unauthorized"})
				return
			}
			h(w, r)
		}
	}
	mux.HandleFunc("POST /v1/transaction", authorized(func(w http.ResponseWriter, r *http.Request) {
		reply(w, http.StatusCreated, gatewayclient.Transaction{ID: id, ExternalCode: deposit.ExternalCode,
			Amount: deposit.Amount, Type: gatewayclient.TransactionTypeTransaction, Status: deposit.Status,
			PixResponse: deposit.PixResponse})
	}))
	mux.HandleFunc("GET /v1/deposit/{id}", authorized(func(w http.ResponseWriter, r *http.Request) {
		if r.PathValue("id") != id {
			reply(w, http.StatusNotFound, map[string]any{"statusCode": 404, "message": "Deposit not found"})
			return
		}
		reply(w, http.StatusOK, deposit)
	}))
	mux.HandleFunc("GET /v1/deposit", authorized(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		fmt.Printf("gateway got: status=%s depositOrigin=%s minAmount=%s page=%s\n",
			strings.Join(q["status"], ","), strings.Join(q["depositOrigin"], ","), q.Get("minAmount"), q.Get("page"))
		reply(w, http.StatusOK, gatewayclient.Page[gatewayclient.Deposit]{Total: 1, TotalPages: 1, CurrentPage: 1,
			PerPage: 20, Data: []gatewayclient.Deposit{deposit}})
	}))
	mux.HandleFunc("GET /v1/withdrawal", authorized(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		fmt.Printf("gateway got: status=%s pixKey=%s minAmount=%s\n",
			strings.Join(q["status"], ","), q.Get("pixKey"), q.Get("minAmount"))
		reply(w, http.StatusOK, gatewayclient.Page[gatewayclient.Withdrawal]{Total: 1, TotalPages: 1, CurrentPage: 1,
			PerPage: 20, Data: []gatewayclient.Withdrawal{{
				ID: "9b2f6c1e-8a4d-4c2e-9b7a-1d2e3f4a5b6c", Acquirer: "SANDBOX", Amount: 15000,
				Method: gatewayclient.PaymentMethodPIX, Status: gatewayclient.WithdrawalProcessed,
				AmountWithdrawn: gatewayclient.Ptr[gatewayclient.Cents](15000), CreatedAt: created, UpdatedAt: created,
				PixKey: &gatewayclient.PixKey{Key: "+5511987654321", Type: gatewayclient.PixKeyPhone},
			}}})
	}))
	return httptest.NewServer(mux)
}

func Example() {
	gw := fakeGateway()
	defer gw.Close()

	// The base URL includes the gateway's path prefix.
	client, err := gatewayclient.New(gw.URL+"/v1", "my-client", "my-secret",
		gatewayclient.WithTimeout(10*time.Second))
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()

	tx, err := client.CreateTransaction(ctx, gatewayclient.CreateTransactionRequest{
		Amount:         2990, // R$ 29,90 in cents
		PaymentMethod:  gatewayclient.PaymentMethodPIX,
		ExternalCode:   "order-1001",
		IdempotencyKey: "order-1001-attempt-1", // reused as is if the request is retried
		Items:          []gatewayclient.Item{{Title: "E-book", UnitPrice: 2990}},
		Pix:            &gatewayclient.PixRequest{ExpirationSeconds: gatewayclient.Ptr(1800)},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("transaction:", tx.Status, tx.Amount)
	fmt.Println("pay before:", tx.PixResponse.ExpirationDate.Format(time.RFC3339))

	d, err := client.GetDeposit(ctx, tx.ID)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("deposit:", d.Status, d.DepositOrigin)
	// Output:
	// transaction: PIX_QRCODE_GENERATED 2990
	// pay before: 2026-03-14T15:39:26Z
	// deposit: PIX_QRCODE_GENERATED QRCODE
}

func ExampleClient_CreateTransaction() {
	gw := fakeGateway()
	defer gw.Close()
	client, err := gatewayclient.New(gw.URL+"/v1", "my-client", "my-secret")
	if err != nil {
		log.Fatal(err)
	}

	req := gatewayclient.CreateTransactionRequest{
		Amount:         2990,
		PaymentMethod:  gatewayclient.PaymentMethodPIX,
		IdempotencyKey: "order-1001-attempt-1",
		Customer:       &gatewayclient.Customer{Name: "Maria da Silva", Document: "529.982.247-25"},
		Pix:            &gatewayclient.PixRequest{},
	}
	tx, err := client.CreateTransaction(context.Background(), req)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(tx.ID, tx.Status)
	fmt.Println(tx.PixResponse.URI[:14] + "...") // the copy-and-paste code

	// An invalid request is refused before anything is sent, with every violation.
	req.Amount = 0
	req.Customer.Document = "111.111.111-11"
	_, err = client.CreateTransaction(context.Background(), req)
	var ve *gatewayclient.ValidationError
	if errors.As(err, &ve) {
		for _, v := range ve.Violations {
			fmt.Printf("%s (%s)\n", v.Field, v.Code)
		}
	}
	// Output:
	// 5b3c7d2e-1f4a-4b6c-8d9e-0a1b2c3d4e5f PIX_QRCODE_GENERATED
	// 00020101021226...
	// amount (min)
	// customer.document (document)
}

func ExampleClient_GetDeposit() {
	gw := fakeGateway()
	defer gw.Close()
	client, err := gatewayclient.New(gw.URL+"/v1", "my-client", "my-secret")
	if err != nil {
		log.Fatal(err)
	}

	d, err := client.GetDeposit(context.Background(), "5b3c7d2e-1f4a-4b6c-8d9e-0a1b2c3d4e5f")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(d.ExternalCode, d.Status, d.Amount)

	_, err = client.GetDeposit(context.Background(), "00000000-0000-4000-8000-000000000000")
	fmt.Println("unknown id:", errors.Is(err, gatewayclient.ErrNotFound))
	// Output:
	// order-1001 PIX_QRCODE_GENERATED 2990
	// unknown id: true
}

func ExampleClient_ListDeposits() {
	gw := fakeGateway()
	defer gw.Close()
	client, err := gatewayclient.New(gw.URL+"/v1", "my-client", "my-secret")
	if err != nil {
		log.Fatal(err)
	}

	page, err := client.ListDeposits(context.Background(), gatewayclient.DepositFilter{
		StartDate:     time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC),
		Status:        []gatewayclient.DepositStatus{gatewayclient.DepositPixQRCodeGenerated, gatewayclient.DepositPaid},
		DepositOrigin: []gatewayclient.DepositOrigin{gatewayclient.OriginQRCode},
		MinAmount:     1000, // R$ 10,00
		Page:          1,
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("page %d of %d, %d deposits in all\n", page.CurrentPage, page.TotalPages, page.Total)
	for _, d := range page.Data {
		fmt.Println(d.ExternalCode, d.Amount)
	}
	// Output:
	// gateway got: status=PIX_QRCODE_GENERATED,PAID depositOrigin=QRCODE minAmount=1000 page=1
	// page 1 of 1, 1 deposits in all
	// order-1001 2990
}

func ExampleClient_ListWithdrawals() {
	gw := fakeGateway()
	defer gw.Close()
	client, err := gatewayclient.New(gw.URL+"/v1", "my-client", "my-secret")
	if err != nil {
		log.Fatal(err)
	}

	page, err := client.ListWithdrawals(context.Background(), gatewayclient.WithdrawalFilter{
		Status:    []gatewayclient.WithdrawalStatus{gatewayclient.WithdrawalProcessed, gatewayclient.WithdrawalFailed},
		PixKey:    "+5511987654321",
		MinAmount: 10, // the withdrawal filters start at 10 cents
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, w := range page.Data {
		fmt.Println(w.Status, w.Amount, w.PixKey.Type)
	}

	// The filter is checked before sending: every violation at once.
	_, err = client.ListWithdrawals(context.Background(), gatewayclient.WithdrawalFilter{
		ID: "not-a-uuid", MinAmount: 5, Status: []gatewayclient.WithdrawalStatus{"PAID"},
	})
	var ve *gatewayclient.ValidationError
	if errors.As(err, &ve) {
		for _, v := range ve.Violations {
			fmt.Printf("%s (%s)\n", v.Field, v.Code)
		}
	}
	// Output:
	// gateway got: status=PROCESSED,FAILED pixKey=+5511987654321 minAmount=10
	// PROCESSED 15000 PHONE
	// minAmount (min)
	// status[0] (enum)
	// id (uuid)
}

func ExampleClient_AllDeposits() {
	gw := fakeGateway()
	defer gw.Close()
	client, err := gatewayclient.New(gw.URL+"/v1", "my-client", "my-secret")
	if err != nil {
		log.Fatal(err)
	}

	var total gatewayclient.Cents
	for d, err := range client.AllDeposits(context.Background(), gatewayclient.DepositFilter{
		Status: []gatewayclient.DepositStatus{gatewayclient.DepositPixQRCodeGenerated},
	}) {
		if err != nil {
			log.Fatal(err)
		}
		total += d.Amount
	}
	fmt.Println("awaiting payment:", total, "cents")
	// Output:
	// gateway got: status=PIX_QRCODE_GENERATED depositOrigin= minAmount= page=1
	// awaiting payment: 2990 cents
}

func ExampleAPIError() {
	gw := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/auth/token" {
			fmt.Fprint(w, `{"access_token":"example-token","expires_in_sec":600}`)
			return
		}
		w.WriteHeader(http.StatusUnprocessableEntity)
		fmt.Fprint(w, `{"statusCode":422,"error":"Validations","message":["customer.document: CPF not accepted"]}`)
	}))
	defer gw.Close()
	client, err := gatewayclient.New(gw.URL, "my-client", "my-secret")
	if err != nil {
		log.Fatal(err)
	}

	_, err = client.CreateTransaction(context.Background(), gatewayclient.CreateTransactionRequest{
		Amount: 100, PaymentMethod: gatewayclient.PaymentMethodPIX, IdempotencyKey: "order-77-a1",
		Pix: &gatewayclient.PixRequest{},
	})
	var apiErr *gatewayclient.APIError
	if errors.As(err, &apiErr) {
		fmt.Println(apiErr.StatusCode, apiErr.Kind, errors.Is(err, gatewayclient.ErrValidation))
		for _, v := range apiErr.Violations() {
			fmt.Printf("%s: %s\n", v.Field, v.Message) // show it beside the form field
		}
	}
	// Output:
	// 422 Validations true
	// customer.document: CPF not accepted
}
