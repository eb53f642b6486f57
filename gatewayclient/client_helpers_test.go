package gatewayclient

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/gatewayclient/contracttest"
)

// Test credentials. The secret has characters that form encoding changes, so that tests catch
// both the raw and the encoded form leaking.
const (
	testClientID     = "client-123"
	testClientSecret = "s3cr3t+p@ss/w=rd&x"
)

// fakeClock is a Clock whose time moves only when told (Advance) or when slept on; it
// records every wait.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	sleeps []time.Duration
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2026, 3, 14, 15, 9, 26, 0, time.UTC)}
}

func (f *fakeClock) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

func (f *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sleeps = append(f.sleeps, d)
	f.now = f.now.Add(d)
	return nil
}

func (f *fakeClock) Advance(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.now = f.now.Add(d)
}

func (f *fakeClock) Sleeps() []time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]time.Duration(nil), f.sleeps...)
}

// testGateway is an httptest server with a token endpoint and an API handler. The token
// endpoint checks the credentials and answers tokenAnswer (default: "tok-<n>", one hour);
// every other path goes to api after the bearer token is checked to be one it issued.
type testGateway struct {
	t   testing.TB
	srv *httptest.Server

	tokenRequests atomic.Int64
	apiRequests   atomic.Int64

	mu          sync.Mutex
	tokenAnswer func(n int64) (status int, body string)
	api         http.HandlerFunc
}

func newTestGateway(t testing.TB, api http.HandlerFunc) *testGateway {
	t.Helper()
	g := &testGateway{t: t, api: api}
	g.srv = httptest.NewServer(http.HandlerFunc(g.serve))
	t.Cleanup(g.srv.Close)
	return g
}

// setTokenAnswer replaces the answer of the token endpoint.
func (g *testGateway) setTokenAnswer(f func(n int64) (int, string)) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.tokenAnswer = f
}

func (g *testGateway) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/auth/token" {
		n := g.tokenRequests.Add(1)
		if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/x-www-form-urlencoded" {
			http.Error(w, "bad token request", http.StatusBadRequest)
			return
		}
		if err := r.ParseForm(); err != nil || r.PostForm.Get("client_id") != testClientID ||
			r.PostForm.Get("client_secret") != testClientSecret || r.PostForm.Get("grant_type") != "client_credentials" {
			http.Error(w, `{"statusCode":401,"message":"Invalid credentials"}`, http.StatusUnauthorized)
			return
		}
		g.mu.Lock()
		answer := g.tokenAnswer
		g.mu.Unlock()
		status, body := http.StatusOK, fmt.Sprintf(`{"access_token":"tok-%d","expires_in_sec":3600,"token_type":"Bearer"}`, n)
		if answer != nil {
			status, body = answer(n)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
		return
	}
	g.apiRequests.Add(1)
	if !strings.HasPrefix(r.Header.Get("Authorization"), "Bearer ") {
		http.Error(w, `{"statusCode":401,"message":"no token"}`, http.StatusUnauthorized)
		return
	}
	if g.api == nil {
		http.NotFound(w, r)
		return
	}
	g.api(w, r)
}

// client makes a client of g with a fake clock (unless opts set another) and no jitter
// surprises: waits are the cap of each backoff step.
func (g *testGateway) client(opts ...Option) *Client {
	g.t.Helper()
	all := append([]Option{
		// Every request the client sends is held to the contract (gatewayclient/openapi.json);
		// the fake gateway answers as each test needs.
		WithHTTPClient(&http.Client{Transport: contracttest.Transport(g.t, NewTransport(), g.srv.URL, contracttest.Requests)}),
		WithClock(newFakeClock()),
		WithRetryPolicy(RetryPolicy{Jitter: func(max time.Duration) time.Duration { return max }}),
	}, opts...)
	c, err := New(g.srv.URL, testClientID, testClientSecret, all...)
	if err != nil {
		g.t.Fatalf("New: %v", err)
	}
	return c
}

// writeJSON answers status with a JSON body.
func writeJSON(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(body))
}

// Fixtures.
const (
	testDepositID = "3f2b6c1e-8a4d-4c2e-9b7a-1d2e3f4a5b6c"
	testCPF       = "529.982.247-25"
	testCNPJ      = "11.222.333/0001-81"
)

// fullRequest sets every field of a transaction request, validly.
func fullRequest() CreateTransactionRequest {
	return CreateTransactionRequest{
		Amount:         15050,
		PaymentMethod:  PaymentMethodPIX,
		WebhookURL:     "https://shop.example.com/hooks/pix?src=gw",
		ExternalCode:   "order-000123",
		IdempotencyKey: "idem-key-0001",
		Customer: &Customer{
			IP: "203.0.113.7", Name: "Maria da Silva", Document: testCPF, Email: "maria@example.com",
			Landline: "(11) 3456-7890", MobilePhone: "(11) 91234-5678", Birthdate: Date{1990, time.May, 17},
		},
		Seller:        &Seller{Name: "Loja Exemplo", Document: testCNPJ},
		IsInfoProduct: Ptr(false),
		Address: &Address{ZipCode: "01310-100", Complement: "Apto 12", Number: "1578", Street: "Avenida Paulista",
			Neighborhood: "Bela Vista", City: "São Paulo", State: "SP", Country: "Brasil"},
		Items: []Item{
			{Title: "Camiseta", Description: "Camiseta de algodão", UnitPrice: 5000, Quantity: Ptr(2)},
			{Title: "Adesivo", UnitPrice: 5050},
		},
		Metadata: map[string]any{"channel": "web"},
		Pix:      &PixRequest{},
	}
}

// transactionJSON is a creation answer with an unknown field.
const transactionJSON = `{"id":"` + testDepositID + `","externalCode":"order-000123","amount":15050,
"type":"TRANSACTION","status":"PIX_QRCODE_GENERATED","somethingNew":{"x":1},
"pixResponse":{"uri":"00020101021226...6304ABCD","qrCodeBase64":"iVBORw0KGgo=","expirationDate":"2026-03-14T15:39:26.000Z"}}`
