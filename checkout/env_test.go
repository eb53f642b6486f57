package checkout_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/sqlite"
	"github.com/pixcheckout/pixcheckout/checkout/sqlite/sqlitetest"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox/sandboxtest"
)

const (
	clientID     = "checkout-test"
	clientSecret = "checkout-test-secret"
	validCPF     = "529.982.247-25"
)

// env is a checkout on a SQLite store in a temporary folder, talking over HTTP to a real
// sandbox gateway. The service's clock is the sandbox's, so that advancing the sandbox clock
// moves both.
type env struct {
	t      testing.TB
	ctx    context.Context
	store  *sqlite.Store
	sb     *sandbox.Sandbox
	client *gatewayclient.Client
	gw     *wrapGateway
	svc    *checkout.Service
	// received holds the bodies of the POST /transaction requests the sandbox received.
	received *bodies
}

// bodies records request bodies; safe for concurrent use.
type bodies struct {
	mu   sync.Mutex
	list [][]byte
}

func (b *bodies) all() [][]byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([][]byte(nil), b.list...)
}

// recordTransactions passes every request to next, keeping a copy of each POST /transaction
// body first: what the gateway really receives over HTTP.
func recordTransactions(next http.Handler, into *bodies) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/transaction") {
			b, err := io.ReadAll(r.Body)
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			into.mu.Lock()
			into.list = append(into.list, b)
			into.mu.Unlock()
			r.Body = io.NopCloser(bytes.NewReader(b))
		}
		next.ServeHTTP(w, r)
	})
}

type envOptions struct {
	serviceOptions func(*checkout.ServiceOptions)
	rateLimit      *sandbox.RateLimit // the sandbox's POST /transaction limit; nil: lifted
	clock          sandbox.Clock      // the sandbox's and the service's; nil: the wall clock
	// wrapStore, when set, gives the store the service uses in place of the SQLite store.
	wrapStore func(*sqlite.Store) checkout.Store
}

func newEnv(t testing.TB, opts ...func(*envOptions)) *env {
	t.Helper()
	var eo envOptions
	for _, o := range opts {
		o(&eo)
	}
	ctx := context.Background()
	dir := t.TempDir()
	sqlitetest.Create(t, filepath.Join(dir, "checkout.db"))
	sandboxtest.Create(t, filepath.Join(dir, "sandbox"))
	store, err := sqlite.Open(ctx, filepath.Join(dir, "checkout.db"))
	if err != nil {
		t.Fatalf("sqlite.Open: %v", err)
	}
	t.Cleanup(func() { store.Close() })
	limit := sandbox.RateLimit{Requests: 100000, Burst: 100000}
	if eo.rateLimit != nil {
		limit = *eo.rateLimit
	}
	sb, err := sandbox.New(ctx, sandbox.Options{
		DataDir:   filepath.Join(dir, "sandbox"),
		Clients:   []sandbox.ClientConfig{{ID: clientID, Secret: clientSecret}},
		RateLimit: limit,
		Clock:     eo.clock,
	})
	if err != nil {
		t.Fatalf("sandbox.New: %v", err)
	}
	t.Cleanup(func() { sb.Close() })
	received := &bodies{}
	srv := httptest.NewServer(recordTransactions(sb, received))
	t.Cleanup(srv.Close)
	client, err := gatewayclient.New(srv.URL, clientID, clientSecret)
	if err != nil {
		t.Fatalf("gatewayclient.New: %v", err)
	}
	if err := checkout.SeedDemoCatalogue(ctx, store); err != nil {
		t.Fatalf("seeding: %v", err)
	}
	gw := &wrapGateway{real: client}
	so := checkout.ServiceOptions{
		MerchantName: "Loja Teste",
		Clock:        sb.Now,
		Logger:       slog.New(slog.DiscardHandler),
		QRImage:      fakeQRImage,
	}
	if eo.serviceOptions != nil {
		eo.serviceOptions(&so)
	}
	e := &env{t: t, ctx: ctx, store: store, sb: sb, client: client, gw: gw, received: received}
	var svcStore checkout.Store = store
	if eo.wrapStore != nil {
		svcStore = eo.wrapStore(store)
	}
	e.svc = checkout.NewService(svcStore, gw, so)
	t.Cleanup(e.svc.Close) // before the sandbox and the store close (cleanups run last first)
	return e
}

// cart makes a cart holding the given quantities of demo products.
func (e *env) cart(items map[checkout.ProductID]int) *checkout.Cart {
	e.t.Helper()
	c, err := e.svc.NewCart(e.ctx)
	if err != nil {
		e.t.Fatalf("NewCart: %v", err)
	}
	for id, q := range items {
		if c, err = e.svc.AddToCart(e.ctx, c.ID, id, q); err != nil {
			e.t.Fatalf("AddToCart(%s, %d): %v", id, q, err)
		}
	}
	return c
}

const (
	ebook  = checkout.ProductID("ebook-receitas-do-cerrado") // R$ 29,90, digital
	caneca = checkout.ProductID("caneca-de-ceramica")        // R$ 59,00, physical
)

func customer() checkout.Customer {
	return checkout.Customer{Name: "Maria da Silva", Document: validCPF, Email: "maria@example.com.br", Phone: "(11) 98765-4321"}
}

func address() *checkout.Address {
	return &checkout.Address{ZipCode: "01310-100", Street: "Avenida Paulista", Number: "1000", Complement: "apto 12",
		Neighborhood: "Bela Vista", City: "São Paulo", State: "SP", Country: "Brasil"}
}

// place places a digital order of one e-book and checks it is awaiting payment.
func (e *env) place() *checkout.Order {
	e.t.Helper()
	c := e.cart(map[checkout.ProductID]int{ebook: 1})
	o, err := e.svc.PlaceOrder(e.ctx, checkout.PlaceOrderInput{Source: c.ID, RequestKey: checkout.NewID(), Customer: customer(), Lang: "pt-BR"})
	if err != nil {
		e.t.Fatalf("PlaceOrder: %v", err)
	}
	if o.Status != checkout.StatusAwaitingPayment {
		e.t.Fatalf("placed order status = %s, want awaiting_payment (attempt %+v)", o.Status, o.CurrentAttempt())
	}
	return o
}

// deposits counts the deposits the sandbox holds.
func (e *env) deposits() int {
	e.t.Helper()
	p, err := e.client.ListDeposits(e.ctx, gatewayclient.DepositFilter{})
	if err != nil {
		e.t.Fatalf("ListDeposits: %v", err)
	}
	return p.Total
}

// control applies a sandbox simulation control to a deposit.
func (e *env) control(txID string, action sandbox.DepositAction) {
	e.t.Helper()
	if _, err := e.sb.ControlDeposit(e.ctx, clientID, txID, action, sandbox.DepositControl{}); err != nil {
		e.t.Fatalf("sandbox %s %s: %v", action, txID, err)
	}
}

func (e *env) advance(d time.Duration) {
	e.t.Helper()
	if err := e.sb.AdvanceClock(e.ctx, d); err != nil {
		e.t.Fatalf("AdvanceClock: %v", err)
	}
}

func (e *env) order(id string) *checkout.Order {
	e.t.Helper()
	o, err := e.svc.Order(e.ctx, id)
	if err != nil {
		e.t.Fatalf("Order: %v", err)
	}
	return o
}

// wrapGateway passes calls to the real client, with hooks that tests set to inject faults,
// tamper with answers or count calls.
type wrapGateway struct {
	real checkout.Gateway

	mu sync.Mutex
	// beforeCreate sees each request before it is sent.
	beforeCreate func(req gatewayclient.CreateTransactionRequest)
	// afterCreate may change the real answer or turn it into an error.
	afterCreate func(tx *gatewayclient.Transaction, err error) (*gatewayclient.Transaction, error)
	// beforeGet may fail a GetDeposit before it reaches the gateway.
	beforeGet func(id string) error
	// createErr may fail a CreateTransaction before it reaches the gateway.
	createErr func(req gatewayclient.CreateTransactionRequest) error
	// beforeList may fail a ListDeposits before it reaches the gateway.
	beforeList func(f gatewayclient.DepositFilter) error
	creates    int
	gets       map[string]int
	lists      []gatewayclient.DepositFilter
}

func (w *wrapGateway) CreateTransaction(ctx context.Context, req gatewayclient.CreateTransactionRequest) (*gatewayclient.Transaction, error) {
	w.mu.Lock()
	before, fail := w.beforeCreate, w.createErr
	w.mu.Unlock()
	if before != nil {
		before(req)
	}
	if fail != nil {
		if err := fail(req); err != nil {
			return nil, err
		}
	}
	tx, err := w.real.CreateTransaction(ctx, req)
	w.mu.Lock()
	w.creates++
	hook := w.afterCreate
	w.mu.Unlock()
	if hook != nil {
		return hook(tx, err)
	}
	return tx, err
}

func (w *wrapGateway) GetDeposit(ctx context.Context, id string) (*gatewayclient.Deposit, error) {
	w.mu.Lock()
	if w.gets == nil {
		w.gets = map[string]int{}
	}
	w.gets[id]++
	hook := w.beforeGet
	w.mu.Unlock()
	if hook != nil {
		if err := hook(id); err != nil {
			return nil, err
		}
	}
	return w.real.GetDeposit(ctx, id)
}

func (w *wrapGateway) ListDeposits(ctx context.Context, f gatewayclient.DepositFilter) (*gatewayclient.Page[gatewayclient.Deposit], error) {
	w.mu.Lock()
	w.lists = append(w.lists, f)
	hook := w.beforeList
	w.mu.Unlock()
	if hook != nil {
		if err := hook(f); err != nil {
			return nil, err
		}
	}
	return w.real.ListDeposits(ctx, f)
}

// listCount returns how many list pages were asked for.
func (w *wrapGateway) listCount() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.lists)
}

// getTotal returns how many single deposits were read.
func (w *wrapGateway) getTotal() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := 0
	for _, c := range w.gets {
		n += c
	}
	return n
}

func (w *wrapGateway) set(f func(w *wrapGateway)) {
	w.mu.Lock()
	defer w.mu.Unlock()
	f(w)
}

func (w *wrapGateway) getCount(id string) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.gets[id]
}

func (w *wrapGateway) createCount() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.creates
}

var errCrash = errors.New("process died before storing the answer")

// fakeQRImage stands for the QR drawing (web.QRImage): its "image" names the code it was drawn
// from, so tests see which code an attempt's image shows.
func fakeQRImage(code string) ([]byte, error) { return []byte("\x89PNG " + code), nil }
