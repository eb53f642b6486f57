package web_test

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/apikeys"
	"github.com/pixcheckout/pixcheckout/checkout/audit"
	"github.com/pixcheckout/pixcheckout/checkout/brand"
	"github.com/pixcheckout/pixcheckout/checkout/cep"
	"github.com/pixcheckout/pixcheckout/checkout/charges"
	"github.com/pixcheckout/pixcheckout/checkout/notify"
	"github.com/pixcheckout/pixcheckout/checkout/sqlite"
	"github.com/pixcheckout/pixcheckout/checkout/sqlite/sqlitetest"
	"github.com/pixcheckout/pixcheckout/checkout/subscriptions"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/outbox"
	"github.com/pixcheckout/pixcheckout/gatewayclient/ratelimit"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox/sandboxtest"
	"github.com/pixcheckout/pixcheckout/static"
	"github.com/pixcheckout/pixcheckout/web"
	"github.com/pixcheckout/pixcheckout/web/apijson"
	"github.com/pixcheckout/pixcheckout/web/apitest"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// testWebhookSecret signs the sandbox's webhooks in these tests.
const testWebhookSecret = "whsec_dGVzdC13ZWJob29rLXNlY3JldC0zMi1ieXRlcy1sb25nISE="

// countingGateway is the real gateway client, counting calls, with an injectable failure of
// CreateTransaction.
type countingGateway struct {
	c          *gatewayclient.Client
	creates    atomic.Int64
	gets       atomic.Int64
	mu         sync.Mutex
	failCreate error
	failGet    error
	// When set, GetDeposit signals entered and waits for release.
	entered, release chan struct{}
}

func (g *countingGateway) CreateTransaction(ctx context.Context, req gatewayclient.CreateTransactionRequest) (*gatewayclient.Transaction, error) {
	g.creates.Add(1)
	g.mu.Lock()
	err := g.failCreate
	g.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return g.c.CreateTransaction(ctx, req)
}

func (g *countingGateway) GetDeposit(ctx context.Context, id string) (*gatewayclient.Deposit, error) {
	g.gets.Add(1)
	g.mu.Lock()
	entered, release, fail := g.entered, g.release, g.failGet
	g.mu.Unlock()
	if fail != nil {
		return nil, fail
	}
	if entered != nil {
		entered <- struct{}{}
		<-release
	}
	return g.c.GetDeposit(ctx, id)
}

func (g *countingGateway) ListDeposits(ctx context.Context, f gatewayclient.DepositFilter) (*gatewayclient.Page[gatewayclient.Deposit], error) {
	return g.c.ListDeposits(ctx, f)
}

// payer pays through the sandbox control endpoint, as cmd/checkout does.
type payer struct{ c *gatewayclient.Client }

func (p payer) Pay(ctx context.Context, id string) error {
	return p.c.Do(ctx, http.MethodPost, "/sandbox/deposits/"+url.PathEscape(id)+"/pay", nil, nil)
}

// env is a checkout on a real SQLite store and the real sandbox gateway, both in-process.
type env struct {
	t      testing.TB
	srv    *httptest.Server
	web    *web.Server
	svc    *checkout.Service
	store  *sqlite.Store
	sb     *sandbox.Sandbox
	sbURL  string
	client *gatewayclient.Client
	gw     *countingGateway
	http   *http.Client
	logs   *syncBuffer // the web server's logs
	keys   *apikeys.Keys
	audit  *audit.Log     // the data subjects' requests made through the API
	brand  *brand.Manager // the store's face
	// charges are the charges with a due date, on the store and the sandbox's clock.
	charges *charges.Manager
	// subscriptions are the recurring charges, issuing through charges.
	subscriptions *subscriptions.Manager
}

// syncBuffer is a bytes.Buffer safe for concurrent writers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

type envOptions struct {
	webhookSecret  string // "" : unsigned webhooks accepted
	frameAncestors []string
	publicURL      string
	noSandboxPay   bool
	heartbeat      time.Duration
	workers, queue int
	recheck        time.Duration
	serviceLogs    bool   // the domain logs into env.logs too (by default they are discarded)
	newCartBurst   int    // 0: the default
	trustedProxies string // CIDRs whose forwarding headers are believed
	// maxStreams, maxStreamsPerOrder, maxStreamsPerClient: the SSE caps (0: the defaults).
	maxStreams, maxStreamsPerOrder, maxStreamsPerClient int
	// qrImage: the domain draws each attempt's QR image once, as the app wires it (otherwise
	// the QR route draws it, as for attempts stored before images were drawn).
	qrImage bool
	// sandbox, when set, changes the sandbox's options (its clock, its rate limit).
	sandbox func(*sandbox.Options)
	// shipping, when set, is the merchant's shipping settings (none by default).
	shipping *checkout.Shipping
	// fetchImage, when set, fetches the pictures sessions' items name (imageUrl).
	fetchImage func(ctx context.Context, url string) (io.ReadCloser, error)
	// mailsShopper, when set, says which shopper e-mails go (web.Options.MailsShopper).
	mailsShopper func(ctx context.Context, kind string) bool
}

func newEnv(t testing.TB, mods ...func(*envOptions)) *env {
	t.Helper()
	// No heartbeat noise unless a test asks.
	o := envOptions{webhookSecret: testWebhookSecret, publicURL: "http://localhost:8080", heartbeat: time.Hour}
	for _, m := range mods {
		m(&o)
	}
	ctx := context.Background()
	sbOpts := sandbox.Options{
		DataDir: t.TempDir(),
		Clients: []sandbox.ClientConfig{{ID: "checkout", Secret: "checkout-secret", WebhookSecret: testWebhookSecret}},
	}
	if o.sandbox != nil {
		o.sandbox(&sbOpts)
	}
	sandboxtest.Create(t, sbOpts.DataDir)
	sb, err := sandbox.New(ctx, sbOpts)
	if err != nil {
		t.Fatal(err)
	}
	sbSrv := httptest.NewServer(sb)
	client, err := gatewayclient.New(sbSrv.URL, "checkout", "checkout-secret")
	if err != nil {
		t.Fatal(err)
	}
	dbFile := t.TempDir() + "/checkout.db"
	sqlitetest.Create(t, dbFile)
	store, err := sqlite.Open(ctx, dbFile)
	if err != nil {
		t.Fatal(err)
	}
	if err := checkout.SeedDemoCatalogue(ctx, store); err != nil {
		t.Fatal(err)
	}
	gw := &countingGateway{c: client}
	logs := &syncBuffer{}
	svcLog := slog.New(slog.DiscardHandler)
	if o.serviceLogs {
		svcLog = slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	// The checkout's clock is the sandbox's, so that advancing the sandbox clock expires QR
	// codes on both sides.
	// Sessions, API keys and the notifications' outbox live in the SQLite store, as in the app;
	// notifications are written with every change of an order and listed by the API (their
	// outbox does not run: the tests of package notify and of the app deliver them).
	so := checkout.ServiceOptions{MerchantName: "Loja Teste", Clock: sb.Now, Logger: svcLog,
		CEP: cep.Sample(), Announcer: &notify.Announcer{Order: apijson.OrderEvent, Sessions: store}}
	if so.PersonalDataKey, err = checkout.LoadPersonalDataKey(ctx, store, sb.Now()); err != nil {
		t.Fatal(err)
	}
	if o.qrImage {
		so.QRImage = web.QRImage
	}
	so.FetchImage = o.fetchImage
	if sh := o.shipping; sh != nil {
		so.Shipping = func(context.Context) (checkout.Shipping, error) { return *sh, nil }
	}
	chargeBook := charges.NewManager(store, audit.New(store, 0, sb.Now), sb.Now, charges.WithAnnouncer(&notify.ChargeAnnouncer{
		Charge: apijson.ChargeEvent("https://loja.example/"), Clock: sb.Now}))
	subs := subscriptions.NewManager(store, chargeBook, audit.New(store, 0, sb.Now), sb.Now)
	so.Charges, so.PersonalDataHolders = chargeBook, []checkout.PersonalDataHolder{chargeBook, subs}
	svc := checkout.NewService(store, gw, so)
	keys := apikeys.NewKeys(store, apikeys.Options{ConfiguredKey: testConfiguredKey, Clock: sb.Now})
	notifications, err := store.Outbox(outbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	assets := static.New()
	storeFace := brand.NewManager(store, brand.Profile{Name: svc.MerchantName()}, sb.Now)
	opts := web.Options{
		Site: &respond.Site{Log: slog.New(slog.NewJSONHandler(logs, nil)), Brand: storeFace, Assets: assets,
			Sandbox: !o.noSandboxPay},
		Service:             svc,
		Store:               store,
		Assets:              assets,
		WebhookSecret:       o.webhookSecret,
		Clock:               sb.Now,
		FrameAncestors:      o.frameAncestors,
		PublicURL:           o.publicURL,
		Heartbeat:           o.heartbeat,
		WebhookWorkers:      o.workers,
		Recheck:             o.recheck,
		WebhookQueue:        o.queue,
		APIKeys:             keys,
		Notifications:       notify.NewDeliveryLog(notifications),
		Audit:               audit.New(store, 0, sb.Now),
		MaxStreams:          o.maxStreams,
		MaxStreamsPerOrder:  o.maxStreamsPerOrder,
		MaxStreamsPerClient: o.maxStreamsPerClient,
		MailsShopper:        o.mailsShopper,
		Charges:             chargeBook,
		Subscriptions:       subs,
	}
	if o.trustedProxies != "" {
		p, err := respond.ParseProxies(o.trustedProxies)
		if err != nil {
			t.Fatal(err)
		}
		opts.TrustedProxies = p
	}
	if o.newCartBurst > 0 {
		opts.NewCartLimit = ratelimit.Rate{Requests: o.newCartBurst, Period: time.Duration(o.newCartBurst) * time.Hour, Burst: o.newCartBurst} // no refill within a test
	}
	if !o.noSandboxPay {
		opts.Sandbox = payer{client}
	}
	ws, err := web.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(ws.Handler())
	e := &env{t: t, brand: storeFace, srv: srv, web: ws, svc: svc, store: store, sb: sb, sbURL: sbSrv.URL, client: client, gw: gw, logs: logs,
		keys: keys, audit: opts.Audit, charges: chargeBook, subscriptions: opts.Subscriptions,
		http: &http.Client{
			// Every exchange with the merchant API is held to openapi.json.
			Transport:     apitest.Transport(t, nil),
			Timeout:       30 * time.Second,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		}}
	t.Cleanup(func() {
		_ = ws.Shutdown(context.Background())
		srv.Close()
		sbSrv.Close()
		_ = sb.Close()
		_ = store.Close()
	})
	return e
}

// do sends a request to the checkout; header pairs are added.
func (e *env) do(method, path string, body io.Reader, header ...string) *http.Response {
	e.t.Helper()
	req, err := http.NewRequest(method, e.srv.URL+path, body)
	if err != nil {
		e.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := e.http.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	return res
}

// get fetches a page and parses it.
func (e *env) get(path string, header ...string) (*http.Response, *goquery.Document) {
	e.t.Helper()
	res := e.do(http.MethodGet, path, nil, header...)
	return res, e.parse(res)
}

// post posts a form and parses the answer.
func (e *env) post(path string, form url.Values, header ...string) (*http.Response, *goquery.Document) {
	e.t.Helper()
	res := e.do(http.MethodPost, path, strings.NewReader(form.Encode()), header...)
	return res, e.parse(res)
}

func (e *env) parse(res *http.Response) *goquery.Document {
	e.t.Helper()
	defer res.Body.Close()
	doc, err := goquery.NewDocumentFromReader(res.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	return doc
}

// location returns the path of a 303 answer's Location.
func (e *env) location(res *http.Response) string {
	e.t.Helper()
	if res.StatusCode != http.StatusSeeOther {
		e.t.Fatalf("%s %s: status %d, want 303", res.Request.Method, res.Request.URL.Path, res.StatusCode)
	}
	loc := res.Header.Get("Location")
	if u, err := url.Parse(loc); err == nil && u.Host != "" {
		return u.RequestURI()
	}
	return loc
}

// newCart adds products (id, quantity pairs) to a new cart and returns the cart's path.
func (e *env) newCart(items ...string) string {
	e.t.Helper()
	res, _ := e.post("/cart", url.Values{"product_id": {items[0]}, "quantity": {items[1]}})
	cart := e.location(res)
	for i := 2; i+1 < len(items); i += 2 {
		res, _ := e.post(cart+"/items", url.Values{"product_id": {items[i]}, "quantity": {items[i+1]}})
		e.location(res)
	}
	return cart
}

// requestKey reads the hidden request key of a customer form.
func requestKey(t testing.TB, doc *goquery.Document) string {
	t.Helper()
	k, ok := doc.Find(`input[name="request_key"]`).Attr("value")
	if !ok || k == "" {
		t.Fatal("no request key in the form")
	}
	return k
}

// customer is a valid customer form; address fields included.
func customer(key string) url.Values {
	return url.Values{
		"request_key": {key}, "name": {"Maria da Silva"}, "document": {"529.982.247-25"},
		"email": {"maria@example.com.br"}, "phone": {"(11) 98765-4321"},
		"zip_code": {"01310-100"}, "street": {"Avenida Paulista"}, "number": {"1000"},
		"neighborhood": {"Bela Vista"}, "city": {"São Paulo"}, "state": {"SP"}, "country": {"Brasil"},
	}
}

// placeOrder buys a digital product and returns the order's PIX page path.
func (e *env) placeOrder() string {
	e.t.Helper()
	cart := e.newCart("ebook-receitas-do-cerrado", "1")
	_, doc := e.get(cart + "/checkout")
	res, _ := e.post(cart+"/checkout", customer(requestKey(e.t, doc)))
	return e.location(res)
}

// orderID returns the id of a /pay/{id} path.
func orderID(payPath string) string {
	p := strings.TrimPrefix(payPath, "/pay/")
	if i := strings.IndexAny(p, "/?"); i >= 0 {
		p = p[:i]
	}
	return p
}

// testid selects elements by data-testid.
func testid(id string) string { return `[data-testid="` + id + `"]` }

// sseEvent is one event of a stream.
type sseEvent struct{ name, data string }

// readEvents parses a Server-Sent Events stream into ch until it ends.
func readEvents(r io.Reader, ch chan<- sseEvent) {
	defer close(ch)
	sc := bufio.NewScanner(r)
	var ev sseEvent
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if ev.data != "" || ev.name != "" {
				ch <- ev
			}
			ev = sseEvent{}
		case strings.HasPrefix(line, "event: "):
			ev.name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			ev.data += strings.TrimPrefix(line, "data: ")
		case strings.HasPrefix(line, ":"):
			ch <- sseEvent{name: "comment", data: line}
		}
	}
}

// waitStatus waits (on the domain's events, no sleeping) until the order reaches status.
func (e *env) waitStatus(id string, want checkout.OrderStatus) *checkout.Order {
	e.t.Helper()
	ch, stop := e.svc.Subscribe(id)
	defer stop()
	deadline := time.After(20 * time.Second)
	for {
		o, err := e.svc.Order(context.Background(), id)
		if err != nil {
			e.t.Fatal(err)
		}
		if o.Status == want {
			return o
		}
		select {
		case <-ch:
		case <-deadline:
			e.t.Fatalf("order %s stayed %s, want %s", id, o.Status, want)
		}
	}
}
