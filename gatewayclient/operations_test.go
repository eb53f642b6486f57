package gatewayclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestCreateTransactionSendsTheRequest(t *testing.T) {
	var sent map[string]any
	g := newTestGateway(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/transaction" {
			t.Errorf("request %s %s", r.Method, r.URL.Path)
		}
		if ct := r.Header.Get("Content-Type"); ct != "application/json" {
			t.Errorf("Content-Type = %q", ct)
		}
		if ua := r.Header.Get("User-Agent"); ua != "shop/2.0" {
			t.Errorf("User-Agent = %q", ua)
		}
		if auth := r.Header.Get("Authorization"); auth != "Bearer tok-1" {
			t.Errorf("Authorization = %q", auth)
		}
		b, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(b, &sent); err != nil {
			t.Errorf("body %s: %v", b, err)
		}
		writeJSON(w, 201, transactionJSON)
	})
	req := fullRequest()
	tx, err := g.client(WithUserAgent("shop/2.0")).CreateTransaction(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	want := &Transaction{ID: testDepositID, ExternalCode: "order-000123", Amount: 15050, Type: TransactionTypeTransaction,
		Status: DepositPixQRCodeGenerated, PixResponse: &PixResponse{URI: "00020101021226...6304ABCD",
			QRCodeBase64: "iVBORw0KGgo=", ExpirationDate: time.Date(2026, 3, 14, 15, 39, 26, 0, time.UTC)}}
	if !reflect.DeepEqual(tx, want) {
		t.Errorf("transaction = %+v, want %+v", tx, want)
	}
	// Defaults are sent explicitly; the caller's request is left as it was.
	items := sent["items"].([]any)
	if q := items[1].(map[string]any)["quantity"]; q != 1.0 {
		t.Errorf("items[1].quantity = %v, want 1", q)
	}
	if s := sent["pix"].(map[string]any)["expirationSeconds"]; s != 1800.0 {
		t.Errorf("pix.expirationSeconds = %v, want 1800", s)
	}
	if req.Items[1].Quantity != nil || req.Pix.ExpirationSeconds != nil {
		t.Error("CreateTransaction changed the caller's request")
	}
	for field, want := range map[string]any{"amount": 15050.0, "paymentMethod": "PIX", "idempotencyKey": "idem-key-0001",
		"isInfoProduct": false, "webhookUrl": "https://shop.example.com/hooks/pix?src=gw"} {
		if sent[field] != want {
			t.Errorf("%s = %v, want %v", field, sent[field], want)
		}
	}
	if b := sent["customer"].(map[string]any)["birthdate"]; b != "1990-05-17" {
		t.Errorf("customer.birthdate = %v", b)
	}
}

func TestCreateTransactionRefusesInvalidRequests(t *testing.T) {
	g := newTestGateway(t, func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, transactionJSON) })
	c := g.client()
	noKey := fullRequest()
	noKey.IdempotencyKey = ""
	blankKey := fullRequest()
	blankKey.IdempotencyKey = "          "
	bad := fullRequest()
	bad.Amount = 0
	bad.Items[0].UnitPrice = -1
	for name, tc := range map[string]struct {
		req    CreateTransactionRequest
		fields []string
	}{
		"no idempotency key":    {noKey, []string{"idempotencyKey"}},
		"blank idempotency key": {blankKey, []string{"idempotencyKey"}},
		"several violations":    {bad, []string{"amount", "items[0].unitPrice"}},
	} {
		_, err := c.CreateTransaction(context.Background(), tc.req)
		var ve *ValidationError
		if !errors.As(err, &ve) || !errors.Is(err, ErrValidation) {
			t.Fatalf("%s: err = %v; want a *ValidationError", name, err)
		}
		for _, f := range tc.fields {
			if len(ve.For(f)) == 0 {
				t.Errorf("%s: no violation for %s in %v", name, f, ve)
			}
		}
	}
	if g.tokenRequests.Load() != 0 || g.apiRequests.Load() != 0 {
		t.Errorf("invalid requests were sent: %d token, %d API", g.tokenRequests.Load(), g.apiRequests.Load())
	}
}

func TestGetDeposit(t *testing.T) {
	var rawPath string
	g := newTestGateway(t, func(w http.ResponseWriter, r *http.Request) {
		rawPath = r.URL.EscapedPath()
		// Every nullable field null, unknown fields present.
		writeJSON(w, 200, `{"id":"`+testDepositID+`","acquirerCode":null,"acquirer":"ACQ","amount":1000,
		"paymentMethod":"PIX","webhookUrl":null,"externalCode":null,"paymentReceipt":null,"refundReceipt":null,
		"createdAt":"2026-03-14T15:09:26.123Z","status":"PAID","statusHistory":[{"status":"PIX_QRCODE_GENERATED",
		"date":"2026-03-14T15:09:26.123Z","durationInMilliseconds":4000,"extra":true},{"status":"PAID","date":"2026-03-14T15:09:30.123Z","durationInMilliseconds":0}],
		"updatedAt":"2026-03-14T15:09:30.123Z","amountPaid":null,"paymentDate":null,"refundDate":null,"refundAmount":null,
		"pixResponse":null,"errorMessage":null,"errorMessageRefund":null,"endToEnd":null,"endToEndRefund":null,
		"payer":{"type":"PF","name":"Maria","document":"***.982.247-**","bankAccount":{"type":"CHECKING","digit":"1","ispb":"00000000"},
		"pix":{"key":"maria@example.com","type":"EMAIL"},"newField":1},"receiver":null,"feeAmount":null,
		"depositOrigin":"QRCODE","brandNewField":{"nested":[1,2,3]}}`)
	})
	d, err := g.client().GetDeposit(context.Background(), testDepositID)
	if err != nil {
		t.Fatal(err)
	}
	if rawPath != "/deposit/"+testDepositID {
		t.Errorf("path = %q", rawPath)
	}
	if d.Status != DepositPaid || d.Amount != 1000 || d.AmountPaid != nil || d.ErrorMessage != "" || !d.PaymentDate.IsZero() ||
		d.PixResponse != nil || d.Receiver != nil || d.Payer == nil || d.Payer.Pix.Type != PixKeyEmail || len(d.StatusHistory) != 2 ||
		d.StatusHistory[0].DurationInMilliseconds != 4000 || !d.CreatedAt.Equal(time.Date(2026, 3, 14, 15, 9, 26, 123e6, time.UTC)) {
		t.Errorf("deposit decoded as %+v", d)
	}
}

func TestGetDepositRefusesIDsThatAreNotUUIDs(t *testing.T) {
	g := newTestGateway(t, func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, `{}`) })
	c := g.client()
	for _, id := range []string{"", "../auth/token", "a/b", testDepositID + "/x", testDepositID + "?x=1", "%2e%2e", "not-a-uuid"} {
		_, err := c.GetDeposit(context.Background(), id)
		var ve *ValidationError
		if !errors.As(err, &ve) || len(ve.For("id")) != 1 {
			t.Errorf("GetDeposit(%q): err = %v; want a violation of id", id, err)
		}
	}
	if n := g.apiRequests.Load() + g.tokenRequests.Load(); n != 0 {
		t.Errorf("%d requests were made", n)
	}
}

func TestGetDepositNotFound(t *testing.T) {
	g := newTestGateway(t, func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 404, `{"statusCode":404,"message":"Deposit not found","error":"Not Found"}`)
	})
	_, err := g.client().GetDeposit(context.Background(), testDepositID)
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("err = %v; want ErrNotFound", err)
	}
}

func TestListDepositsSendsEveryFilter(t *testing.T) {
	var got url.Values
	var path string
	g := newTestGateway(t, func(w http.ResponseWriter, r *http.Request) {
		got, path = r.URL.Query(), r.URL.Path
		writeJSON(w, 200, `{"total":1,"totalPages":1,"currentPage":2,"perPage":50,"data":[{"id":"`+testDepositID+`","amount":5,"status":"PAID"}]}`)
	})
	f := DepositFilter{
		StartDate:     time.Date(2026, 1, 1, 0, 0, 0, 0, time.FixedZone("BRT", -3*3600)),
		EndDate:       time.Date(2026, 1, 31, 23, 59, 59, 999e6, time.UTC),
		Status:        []DepositStatus{DepositPaid, DepositPending, DepositRefunded},
		MinAmount:     100,
		MaxAmount:     10000000,
		DepositOrigin: []DepositOrigin{OriginPixKey, OriginQRCode},
		Page:          2,
		PerPage:       50,
	}
	p, err := g.client().ListDeposits(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	want := url.Values{
		"startDate":     {"2026-01-01T03:00:00.000Z"},
		"endDate":       {"2026-01-31T23:59:59.999Z"},
		"status":        {"PAID", "PENDING", "REFUNDED"},
		"minAmount":     {"100"},
		"maxAmount":     {"10000000"},
		"depositOrigin": {"PIX_KEY", "QRCODE"},
		"page":          {"2"},
		"perPage":       {"50"},
	}
	if path != "/deposit" || !reflect.DeepEqual(got, want) {
		t.Errorf("GET %s ? %v\nwant /deposit ? %v", path, got, want)
	}
	if p.Total != 1 || p.CurrentPage != 2 || p.PerPage != 50 || len(p.Data) != 1 || p.Data[0].Status != DepositPaid {
		t.Errorf("page = %+v", p)
	}
}

func TestListWithdrawalsSendsEveryFilter(t *testing.T) {
	var got url.Values
	var path string
	g := newTestGateway(t, func(w http.ResponseWriter, r *http.Request) {
		got, path = r.URL.Query(), r.URL.Path
		writeJSON(w, 200, `{"total":0,"totalPages":0,"currentPage":1,"perPage":10,"data":[]}`)
	})
	f := WithdrawalFilter{
		StartDate:      time.Date(2026, 2, 1, 12, 0, 0, 5e6, time.UTC),
		EndDate:        time.Date(2026, 2, 2, 12, 0, 0, 0, time.UTC),
		Status:         []WithdrawalStatus{WithdrawalRejected, WithdrawalProcessed},
		ID:             "9b2f6c1e-8a4d-4c2e-9b7a-1d2e3f4a5b6c",
		PixKey:         "maria@example.com",
		EndToEnd:       "E12345678202602011200abcdefghijk",
		EndToEndRefund: "D12345678202602011200abcdefghijk",
		ExternalCode:   "payout-0001",
		MinAmount:      10,
		MaxAmount:      500000,
		Page:           3,
		PerPage:        10,
	}
	if _, err := g.client(WithPaginationParams("p", "size")).ListWithdrawals(context.Background(), f); err != nil {
		t.Fatal(err)
	}
	want := url.Values{
		"startDate":      {"2026-02-01T12:00:00.005Z"},
		"endDate":        {"2026-02-02T12:00:00.000Z"},
		"status":         {"REJECTED", "PROCESSED"},
		"id":             {"9b2f6c1e-8a4d-4c2e-9b7a-1d2e3f4a5b6c"},
		"pixKey":         {"maria@example.com"},
		"endToEnd":       {"E12345678202602011200abcdefghijk"},
		"endToEndRefund": {"D12345678202602011200abcdefghijk"},
		"externalCode":   {"payout-0001"},
		"minAmount":      {"10"},
		"maxAmount":      {"500000"},
		"p":              {"3"},
		"size":           {"10"},
	}
	if path != "/withdrawal" || !reflect.DeepEqual(got, want) {
		t.Errorf("GET %s ? %v\nwant /withdrawal ? %v", path, got, want)
	}
}

func TestListRefusesInvalidFilters(t *testing.T) {
	g := newTestGateway(t, nil)
	c := g.client()
	_, err := c.ListDeposits(context.Background(), DepositFilter{MinAmount: 5, MaxAmount: 1, Status: []DepositStatus{DepositPaid, DepositPaid}})
	if !errors.Is(err, ErrValidation) {
		t.Errorf("ListDeposits: err = %v; want ErrValidation", err)
	}
	_, err = c.ListWithdrawals(context.Background(), WithdrawalFilter{MinAmount: 5, ID: "nope"})
	if !errors.Is(err, ErrValidation) {
		t.Errorf("ListWithdrawals: err = %v; want ErrValidation", err)
	}
	if n := g.apiRequests.Load() + g.tokenRequests.Load(); n != 0 {
		t.Errorf("%d requests were made", n)
	}
}

// pagedDeposits serves n deposits, perPage a page, and records the pages asked for. A page
// in failOn answers 500 (after retries: MaxAttempts 1 in these tests).
type pagedDeposits struct {
	n, perPage int
	failOn     int
	mu         sync.Mutex
	pages      []int
}

func (p *pagedDeposits) handler(w http.ResponseWriter, r *http.Request) {
	page, _ := strconv.Atoi(r.URL.Query().Get("page"))
	p.mu.Lock()
	p.pages = append(p.pages, page)
	p.mu.Unlock()
	if page == p.failOn {
		writeJSON(w, 500, `{"statusCode":500,"message":"boom"}`)
		return
	}
	total := (p.n + p.perPage - 1) / p.perPage
	var data []string
	for i := (page - 1) * p.perPage; i < min(page*p.perPage, p.n); i++ {
		data = append(data, fmt.Sprintf(`{"id":"00000000-0000-4000-8000-%012d","amount":%d}`, i, i+1))
	}
	writeJSON(w, 200, fmt.Sprintf(`{"total":%d,"totalPages":%d,"currentPage":%d,"perPage":%d,"data":[%s]}`,
		p.n, total, page, p.perPage, strings.Join(data, ",")))
}

func (p *pagedDeposits) asked() []int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.pages)
}

func TestAllDepositsWalksEveryPage(t *testing.T) {
	p := &pagedDeposits{n: 7, perPage: 3}
	g := newTestGateway(t, p.handler)
	var amounts []Cents
	for d, err := range g.client().AllDeposits(context.Background(), DepositFilter{PerPage: 3}) {
		if err != nil {
			t.Fatal(err)
		}
		amounts = append(amounts, d.Amount)
	}
	if want := []Cents{1, 2, 3, 4, 5, 6, 7}; !slices.Equal(amounts, want) {
		t.Errorf("amounts = %v, want %v", amounts, want)
	}
	if got := p.asked(); !slices.Equal(got, []int{1, 2, 3}) {
		t.Errorf("pages asked = %v, want [1 2 3]", got)
	}

	// From a given page on.
	p2 := &pagedDeposits{n: 7, perPage: 3}
	g2 := newTestGateway(t, p2.handler)
	n := 0
	for _, err := range g2.client().AllDeposits(context.Background(), DepositFilter{Page: 2, PerPage: 3}) {
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n != 4 || !slices.Equal(p2.asked(), []int{2, 3}) {
		t.Errorf("from page 2: %d items, pages %v; want 4 items, pages [2 3]", n, p2.asked())
	}
}

func TestAllDepositsStopsOnError(t *testing.T) {
	p := &pagedDeposits{n: 9, perPage: 3, failOn: 2}
	g := newTestGateway(t, p.handler)
	var items, errs int
	var last error
	for _, err := range g.client(WithRetryPolicy(RetryPolicy{MaxAttempts: 1})).AllDeposits(context.Background(), DepositFilter{}) {
		if err != nil {
			errs++
			last = err
			continue // the iterator must stop by itself
		}
		items++
	}
	var e *APIError
	if items != 3 || errs != 1 || !errors.As(last, &e) || e.StatusCode != 500 {
		t.Errorf("items = %d, errors = %d, last = %v; want 3, 1 and the 500", items, errs, last)
	}
	if got := p.asked(); !slices.Equal(got, []int{1, 2}) {
		t.Errorf("pages asked = %v, want [1 2]", got)
	}
}

func TestAllDepositsStopsOnBreak(t *testing.T) {
	p := &pagedDeposits{n: 9, perPage: 3}
	g := newTestGateway(t, p.handler)
	n := 0
	for _, err := range g.client().AllDeposits(context.Background(), DepositFilter{}) {
		if err != nil {
			t.Fatal(err)
		}
		n++
		if n == 4 {
			break
		}
	}
	if got := p.asked(); !slices.Equal(got, []int{1, 2}) {
		t.Errorf("pages asked = %v, want [1 2]", got)
	}
}

func TestAllDepositsStopsOnCancel(t *testing.T) {
	p := &pagedDeposits{n: 9, perPage: 3}
	g := newTestGateway(t, p.handler)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var items, errs int
	var last error
	for _, err := range g.client().AllDeposits(ctx, DepositFilter{}) {
		if err != nil {
			errs++
			last = err
			continue
		}
		items++
		if items == 2 {
			cancel()
		}
	}
	if items != 2 || errs != 1 || !errors.Is(last, context.Canceled) {
		t.Errorf("items = %d, errors = %d, last = %v; want 2, 1, context.Canceled", items, errs, last)
	}
	if got := p.asked(); !slices.Equal(got, []int{1}) {
		t.Errorf("pages asked = %v, want [1]", got)
	}
}

func TestAllWithdrawals(t *testing.T) {
	g := newTestGateway(t, func(w http.ResponseWriter, r *http.Request) {
		page := r.URL.Query().Get("page")
		if r.URL.Query().Get("status") != "PROCESSED" {
			t.Errorf("filter lost on page %s: %v", page, r.URL.Query())
		}
		writeJSON(w, 200, `{"total":2,"totalPages":2,"currentPage":`+page+`,"perPage":1,"data":[{"id":"w`+page+`","amount":10}]}`)
	})
	var ids []string
	for wd, err := range g.client().AllWithdrawals(context.Background(), WithdrawalFilter{Status: []WithdrawalStatus{WithdrawalProcessed}}) {
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, wd.ID)
	}
	if !slices.Equal(ids, []string{"w1", "w2"}) {
		t.Errorf("ids = %v", ids)
	}
}

func TestDo(t *testing.T) {
	var gotQuery url.Values
	var gotBody string
	g := newTestGateway(t, func(w http.ResponseWriter, r *http.Request) {
		gotQuery = r.URL.Query()
		b, _ := io.ReadAll(r.Body)
		gotBody = string(b)
		if r.Method == http.MethodDelete {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		writeJSON(w, 200, `{"ok":true}`)
	})
	c := g.client()
	var out struct{ OK bool }
	if err := c.Do(context.Background(), "post", "/sandbox/x?mode=paid&mode=fast", map[string]int{"n": 1}, &out); err != nil {
		t.Fatal(err)
	}
	if !out.OK || gotBody != `{"n":1}` || !slices.Equal(gotQuery["mode"], []string{"paid", "fast"}) {
		t.Errorf("out = %+v, body = %q, query = %v", out, gotBody, gotQuery)
	}
	out.OK = false
	if err := c.Do(context.Background(), http.MethodDelete, "/sandbox/x", nil, &out); err != nil || out.OK {
		t.Errorf("DELETE: err = %v, out = %+v (an empty answer leaves out untouched)", err, out)
	}
	if err := c.Do(context.Background(), http.MethodGet, "sandbox/x", nil, nil); err == nil {
		t.Error("a path without a leading slash was accepted")
	}
	if err := c.Do(context.Background(), http.MethodPost, "/x", func() {}, nil); err == nil {
		t.Error("an unencodable body was accepted")
	}
}

func TestResponseBodyLimit(t *testing.T) {
	g := newTestGateway(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"data":"`))
		chunk := make([]byte, 1<<20)
		for i := range chunk {
			chunk[i] = 'a'
		}
		for range 11 {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
		_, _ = w.Write([]byte(`"}`))
	})
	err := g.client().Do(context.Background(), http.MethodGet, "/big", nil, &struct{}{})
	if err == nil {
		t.Fatal("an 11 MiB answer was accepted")
	}
}
