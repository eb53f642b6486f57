package dashboard_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/pquerna/otp/totp"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/apikeys"
	"github.com/pixcheckout/pixcheckout/checkout/audit"
	"github.com/pixcheckout/pixcheckout/checkout/brand"
	"github.com/pixcheckout/pixcheckout/checkout/cep"
	"github.com/pixcheckout/pixcheckout/checkout/charges"
	"github.com/pixcheckout/pixcheckout/checkout/exports"
	"github.com/pixcheckout/pixcheckout/checkout/mail"
	"github.com/pixcheckout/pixcheckout/checkout/mail/shopper"
	"github.com/pixcheckout/pixcheckout/checkout/notify"
	"github.com/pixcheckout/pixcheckout/checkout/pos"
	"github.com/pixcheckout/pixcheckout/checkout/sealed"
	"github.com/pixcheckout/pixcheckout/checkout/settings"
	"github.com/pixcheckout/pixcheckout/checkout/sqlite"
	"github.com/pixcheckout/pixcheckout/checkout/sqlite/sqlitetest"
	"github.com/pixcheckout/pixcheckout/checkout/subscriptions"
	"github.com/pixcheckout/pixcheckout/checkout/team"
	"github.com/pixcheckout/pixcheckout/checkout/team/teamtest"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/outbox"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox/sandboxtest"
	"github.com/pixcheckout/pixcheckout/static"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/views/email"
	"github.com/pixcheckout/pixcheckout/web"
	"github.com/pixcheckout/pixcheckout/web/alerts"
	"github.com/pixcheckout/pixcheckout/web/apijson"
	"github.com/pixcheckout/pixcheckout/web/apitest"
	"github.com/pixcheckout/pixcheckout/web/dashboard"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// env is the whole checkout as the program wires it, the dashboard mounted in the shop's
// server (its middleware: request ids, security headers, cross-origin protection), on a real
// SQLite store and the real sandbox gateway, both in-process.
type env struct {
	t      testing.TB
	srv    *httptest.Server
	web    *web.Server
	svc    *checkout.Service
	sb     *sandbox.Sandbox
	client *gatewayclient.Client
	dash   *dashEnv
	board  *dashboard.Dashboard
	// charges are the charges with due dates, on the sandbox's clock.
	charges *charges.Manager
	// subscriptions are the recurring charges, issuing through charges.
	subscriptions *subscriptions.Manager
	keys          *apikeys.Keys
	http          *http.Client
	outbox        *outbox.Outbox // the merchant notifications, delivered when a test says so (DeliverDue)
	// The e-mails: no SMTP server, so that a pass (mailOutbox.DeliverDue) keeps them unsent.
	mailOutbox *outbox.Outbox
	mailLog    *mail.Log
	mailStore  mail.Store
	pos        *pos.Manager
	displays   *pos.Displays // the customers' displays of the point of sale
	composer   *mail.Composer
	// exports are the dashboard's background exports; stopExports ends their workers' life
	// (the server's shutdown).
	exports     *exports.Manager
	stopExports context.CancelFunc
	dbFile      string         // the SQLite file, whose secrets are sealed
	brand       *brand.Manager // the store's face (name, CNPJ, address) as the pages show it
}

type envOptions struct {
	frameAncestors []string // of the shopper pages
	publicURL      string
	// sandboxDir, when set, is the sandbox's data dir (kept between runs, so that a benchmark
	// can reuse what it seeded); otherwise a temporary one.
	sandboxDir string
	// rawGateway gives the dashboard the gateway client itself, not the recording wrapper (for
	// benchmarks: the wrapper keeps every filter it is given).
	rawGateway bool
	// sandbox, when set, changes the sandbox's options (its clock, its rate limit).
	sandbox func(*sandbox.Options)
	// trustedProxies are the reverse proxies whose forwarding headers the server believes.
	trustedProxies respond.Proxies
	// merchant is the configuration's notification URL and secret.
	merchant settings.Config
	// exportThreshold is the most rows an export streams (0: the dashboard's default).
	exportThreshold int
	// exportBytesCap is the bytes all exports may keep (0: the dashboard's default).
	exportBytesCap int64
}

func newEnv(t testing.TB, mods ...func(*envOptions)) *env {
	t.Helper()
	o := envOptions{publicURL: "http://localhost:8080"}
	for _, m := range mods {
		m(&o)
	}
	ctx := context.Background()
	if o.sandboxDir == "" {
		o.sandboxDir = t.TempDir()
	}
	sbOpts := sandbox.Options{DataDir: o.sandboxDir, Clients: []sandbox.ClientConfig{{ID: "checkout", Secret: "checkout-secret"}}}
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
	// The secrets are sealed, as the program seals them.
	sealKeys, err := sealed.ParseKeys(sealed.NewKey())
	if err != nil {
		t.Fatal(err)
	}
	store.UseKeys(sealKeys)
	if err := checkout.SeedDemoCatalogue(ctx, store); err != nil {
		t.Fatal(err)
	}
	// The checkout's clock is the sandbox's, so that the exports' end is the sandbox's time.
	log := slog.New(slog.DiscardHandler)
	personalKey, err := checkout.LoadPersonalDataKey(ctx, store, sb.Now())
	if err != nil {
		t.Fatal(err)
	}
	dash := newDashEnv(t, store, client, sb, o.merchant)
	chargeManager := charges.NewManager(store, dash.audit, sb.Now)
	subs := subscriptions.NewManager(store, chargeManager, dash.audit, sb.Now)
	svc := checkout.NewService(store, client, checkout.ServiceOptions{MerchantName: "Loja Teste", Clock: sb.Now, Logger: log,
		CEP: cep.Sample(), Announcer: &notify.Announcer{Order: apijson.OrderEvent, Sessions: store},
		Shipping: settings.NewManager(store, settings.Config{}, sb.Now).Shipping, PersonalDataKey: personalKey,
		PersonalDataHolders: []checkout.PersonalDataHolder{chargeManager, subs}, Charges: chargeManager})
	keys := apikeys.NewKeys(store, apikeys.Options{Clock: sb.Now})
	notifications, err := store.Outbox(outbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	deliveries := notify.NewDeliveryLog(notifications)
	mailSender, err := mail.NewSender(mail.SenderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	mailOutbox, err := store.Outbox(mail.OutboxOptions(mailSender, nil, 0, nil))
	if err != nil {
		t.Fatal(err)
	}
	mailLog, composer := mail.NewLog(mailOutbox, store), &mail.Composer{PublicURL: o.publicURL}
	assets := static.New()
	brands := brand.NewManager(store, brand.Profile{Name: svc.MerchantName()}, sb.Now)
	site := &respond.Site{Log: log, Brand: brands, Assets: assets, Sandbox: true}
	// The shopper's receipt e-mail, as the program makes it, for the point of sale's "send".
	receipts := &shopper.Announcer{Composer: composer, Store: email.Frame{StoreName: svc.MerchantName(), PublicURL: o.publicURL}}
	var gw dashboard.Gateway = dash.gateway
	if o.rawGateway {
		gw = client
	}
	exports := exports.NewManager(store, sb.Now)
	exportsCtx, stopExports := context.WithCancel(ctx)
	prefs := team.NewAlerts(store, sb.Now)
	alerter := alerts.New(alerts.Options{Prefs: prefs, Composer: composer, Outbox: mailLog, Reports: svc, StoreName: "Loja Teste", Clock: sb.Now})
	posManager := pos.NewManager(store, sb.Now)
	displays := pos.NewDisplays(store, posManager, sb.Now)
	d, err := dashboard.New(dashboard.Options{Site: site, Service: svc, Accounts: dash.accounts, Gateway: gw, Charges: chargeManager,
		Subscriptions: subs,
		Settings:      dash.settings, Keys: keys, Notifications: deliveries, Audit: dash.audit, Sessions: store.SignInTokens(), PublicURL: o.publicURL,
		SecretKeys: sealKeys, Exports: exports, ExportThreshold: o.exportThreshold, ExportBytesCap: o.exportBytesCap, Context: exportsCtx,
		DataDir: t.TempDir(), Mail: mailLog, MailComposer: composer, Alerts: prefs, ExportReady: alerter.ExportReady,
		POS: posManager, Displays: displays, ReceiptMail: receipts.Receipt})
	if err != nil {
		t.Fatal(err)
	}
	ws, err := web.New(web.Options{Site: site, Service: svc, Store: store, Assets: assets, Sandbox: payer{client}, Displays: displays,
		FrameAncestors: o.frameAncestors, PublicURL: o.publicURL, Heartbeat: time.Hour, APIKeys: keys,
		Notifications: deliveries, Dashboard: d, TrustedProxies: o.trustedProxies})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(ws.Handler())
	t.Cleanup(func() {
		stopExports()
		_ = ws.Shutdown(context.Background())
		srv.Close()
		sbSrv.Close()
		_ = sb.Close()
		_ = store.Close()
	})
	return &env{t: t, srv: srv, web: ws, svc: svc, sb: sb, client: client, dash: dash, board: d, charges: chargeManager, subscriptions: subs, pos: posManager, displays: displays, keys: keys, outbox: notifications, exports: exports, stopExports: stopExports,
		dbFile: dbFile, mailOutbox: mailOutbox, mailLog: mailLog, composer: composer, mailStore: store, brand: brands,
		http: &http.Client{
			// Every exchange with the merchant API is held to openapi.json.
			Transport:     apitest.Transport(t, nil),
			Timeout:       30 * time.Second,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		}}
}

// at runs the environment on a manual clock stopped at the latest hh:mm UTC before now. At
// 02:30Z it is still the evening before in São Paulo (23:30), the day the product reads dates
// in: a test that took its dates in UTC would fail there every night, so the tests that send a
// date run at that hour and at 03:30Z (00:30 there, both calendars on the same day).
func at(hhmm string) func(*envOptions) { return withClock(sandbox.NewManualClock(latestUTC(hhmm))) }

// withClock runs the environment (checkout and sandbox) on clock.
func withClock(clock sandbox.Clock) func(*envOptions) {
	return func(o *envOptions) {
		o.sandbox = func(so *sandbox.Options) { so.Clock = clock }
	}
}

// latestUTC is the latest time of day hhmm (UTC) not after now.
func latestUTC(hhmm string) time.Time {
	clock, err := time.Parse("15:04", hhmm)
	if err != nil {
		panic(err)
	}
	now := time.Now().UTC()
	t := time.Date(now.Year(), now.Month(), now.Day(), clock.Hour(), clock.Minute(), 0, 0, time.UTC)
	if t.After(now) {
		t = t.AddDate(0, 0, -1)
	}
	return t
}

// saoPauloDay is t's calendar day as the dashboard reads dates typed in it: in São Paulo.
func saoPauloDay(t time.Time) string { return t.In(views.SaoPaulo()).Format(time.DateOnly) }

// payer pays through the sandbox control endpoint, as cmd/checkout does.
type payer struct{ c *gatewayclient.Client }

func (p payer) Pay(ctx context.Context, id string) error {
	return p.c.Do(ctx, http.MethodPost, "/sandbox/deposits/"+url.PathEscape(id)+"/pay", nil, nil)
}

// do sends a request to the checkout, without cookies; header pairs are added.
func (e *env) do(method, path string, form url.Values, header ...string) *http.Response {
	e.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, e.srv.URL+path, body)
	if err != nil {
		e.t.Fatal(err)
	}
	if form != nil {
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
	return res.Header.Get("Location")
}

// newCart adds products (id, quantity pairs) to a new cart through the shop and returns the
// cart's path.
func (e *env) newCart(items ...string) string {
	e.t.Helper()
	cart := e.location(e.do(http.MethodPost, "/cart", url.Values{"product_id": {items[0]}, "quantity": {items[1]}}))
	for i := 2; i+1 < len(items); i += 2 {
		e.location(e.do(http.MethodPost, cart+"/items", url.Values{"product_id": {items[i]}, "quantity": {items[i+1]}}))
	}
	return cart
}

// placeOrder buys a digital product through the shop's pages, as Maria da Silva, and returns
// the order's PIX page path.
func (e *env) placeOrder() string {
	e.t.Helper()
	cart := e.newCart("ebook-receitas-do-cerrado", "1")
	_, doc := e.get(cart + "/checkout")
	key, _ := doc.Find(`input[name="request_key"]`).Attr("value")
	return e.location(e.do(http.MethodPost, cart+"/checkout", url.Values{
		"request_key": {key}, "name": {"Maria da Silva"}, "document": {"529.982.247-25"},
		"email": {"maria@example.com.br"}, "phone": {"(11) 98765-4321"},
	}))
}

// sale places a keypad sale of R$ 12,34 at the first terminal by the cashier, and returns its id.
func (e *env) sale(cashier string) string {
	e.t.Helper()
	o, err := e.svc.PlaceOrder(context.Background(), checkout.PlaceOrderInput{Channel: checkout.ChannelPOS, RequestKey: checkout.NewID(),
		Sale: &checkout.Sale{Terminal: pos.FirstTerminal, Cashier: cashier, Amount: 1234}})
	if err != nil {
		e.t.Fatal(err)
	}
	return o.ID
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

// Test users of the dashboard.
const (
	dashEmail    = "ana@loja.example"
	dashPassword = "senha-do-painel-1"
)

// dashEnv is the dashboard's part of a test env: accounts on the env's SQLite store (cheap
// argon2id parameters), and the real gateway client recorded and, on demand, failing.
type dashEnv struct {
	accounts *team.Accounts
	audit    *audit.Log
	settings *settings.Manager
	gateway  *recordingGateway
	sb       *sandbox.Sandbox
}

func newDashEnv(t testing.TB, store *sqlite.Store, c *gatewayclient.Client, sb *sandbox.Sandbox, cfg settings.Config) *dashEnv {
	t.Helper()
	h := teamtest.Hasher()
	acc := team.NewAccounts(store, store, team.AccountsOptions{Hasher: h, Clock: sb.Now, Invitations: store, Sessions: store, TOTP: store, PasswordResets: store})
	if _, err := acc.AddUser(context.Background(), dashEmail, dashPassword, team.RoleOwner); err != nil {
		t.Fatal(err)
	}
	return &dashEnv{accounts: acc, gateway: &recordingGateway{c: c}, sb: sb, audit: audit.New(store, 0, sb.Now),
		settings: settings.NewManager(store, cfg, sb.Now)}
}

// recordingGateway is the real client, recording the filters it is given; fail, when set,
// answers the list calls after failAfter successful ones.
type recordingGateway struct {
	c           *gatewayclient.Client
	mu          sync.Mutex
	deposits    []gatewayclient.DepositFilter
	withdrawals []gatewayclient.WithdrawalFilter
	gets        []string
	fail        error
	failAfter   int
	// hold, when set, is called before each deposit list call with the number of that call
	// (from 1).
	hold func(call int)
}

func (g *recordingGateway) failing(err error, after int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.fail, g.failAfter = err, after
}

// failNow returns the error to answer, if any, counting a call.
func (g *recordingGateway) failNow() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.fail == nil {
		return nil
	}
	if g.failAfter > 0 {
		g.failAfter--
		return nil
	}
	return g.fail
}

func (g *recordingGateway) ListDeposits(ctx context.Context, f gatewayclient.DepositFilter) (*gatewayclient.Page[gatewayclient.Deposit], error) {
	g.mu.Lock()
	g.deposits = append(g.deposits, f)
	hold, call := g.hold, len(g.deposits)
	g.mu.Unlock()
	if hold != nil {
		hold(call)
	}
	if err := g.failNow(); err != nil {
		return nil, err
	}
	return g.c.ListDeposits(ctx, f)
}

func (g *recordingGateway) GetDeposit(ctx context.Context, id string) (*gatewayclient.Deposit, error) {
	g.mu.Lock()
	g.gets = append(g.gets, id)
	g.mu.Unlock()
	return g.c.GetDeposit(ctx, id)
}

func (g *recordingGateway) ListWithdrawals(ctx context.Context, f gatewayclient.WithdrawalFilter) (*gatewayclient.Page[gatewayclient.Withdrawal], error) {
	g.mu.Lock()
	g.withdrawals = append(g.withdrawals, f)
	g.mu.Unlock()
	if err := g.failNow(); err != nil {
		return nil, err
	}
	return g.c.ListWithdrawals(ctx, f)
}

// depositCalls returns the deposit filters received so far.
func (g *recordingGateway) depositCalls() []gatewayclient.DepositFilter {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]gatewayclient.DepositFilter(nil), g.deposits...)
}

func (g *recordingGateway) withdrawalCalls() []gatewayclient.WithdrawalFilter {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]gatewayclient.WithdrawalFilter(nil), g.withdrawals...)
}

// browser is a client with a cookie jar that navigates like a browser (Accept: text/html) and
// does not follow redirects.
type browser struct {
	e   *env
	jar http.CookieJar
	hc  *http.Client
}

func (e *env) browser() *browser {
	e.t.Helper()
	jar := newJar(e.t)
	return &browser{e: e, jar: jar, hc: &http.Client{Jar: jar, Timeout: e.http.Timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// do sends a request as a browser would (same-origin).
func (b *browser) do(method, path string, form url.Values, header ...string) *http.Response {
	b.e.t.Helper()
	var body *strings.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	var req *http.Request
	var err error
	if body != nil {
		req, err = http.NewRequest(method, b.e.srv.URL+path, body)
	} else {
		req, err = http.NewRequest(method, b.e.srv.URL+path, nil)
	}
	if err != nil {
		b.e.t.Fatal(err)
	}
	req.Header.Set("Accept", "text/html,application/xhtml+xml")
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", b.e.srv.URL)
		req.Header.Set("Sec-Fetch-Site", "same-origin")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := b.hc.Do(req)
	if err != nil {
		b.e.t.Fatal(err)
	}
	return res
}

func (b *browser) get(path string, header ...string) (*http.Response, *goquery.Document) {
	b.e.t.Helper()
	res := b.do(http.MethodGet, path, nil, header...)
	return res, b.e.parse(res)
}

func (b *browser) post(path string, form url.Values, header ...string) (*http.Response, *goquery.Document) {
	b.e.t.Helper()
	res := b.do(http.MethodPost, path, form, header...)
	return res, b.e.parse(res)
}

// login signs in with the test user and returns the CSRF token of the session.
func (b *browser) login() string {
	b.e.t.Helper()
	return b.loginAs(dashEmail, dashPassword)
}

// loginAs signs in as a user and returns the CSRF token of the session.
func (b *browser) loginAs(email, password string) string {
	b.e.t.Helper()
	res, _ := b.post("/dashboard/login", url.Values{"email": {email}, "password": {password}})
	// A cashier's start is the point of sale; everybody else's the overview.
	want := "/dashboard"
	if strings.HasPrefix(email, "cashier@") {
		want = "/dashboard/pos"
	}
	if loc := b.e.location(res); loc != want {
		b.e.t.Fatalf("sign-in went to %q", loc)
	}
	return b.csrf()
}

// csrf reads the session's token from the sign-out form of a dashboard page.
func (b *browser) csrf() string {
	b.e.t.Helper()
	res, doc := b.get("/dashboard/account") // every role's
	if res.StatusCode != http.StatusOK {
		b.e.t.Fatalf("account page: %d", res.StatusCode)
	}
	tok, _ := doc.Find(`form[data-testid="logout-form"] input[name="csrf_token"]`).Attr("value")
	if tok == "" {
		b.e.t.Fatal("no CSRF token in the sign-out form")
	}
	return tok
}

// cookie returns the value of the dashboard's session cookie, or "".
func (b *browser) cookie() string {
	u, _ := url.Parse(b.e.srv.URL + "/dashboard/")
	for _, c := range b.jar.Cookies(u) {
		if c.Name == "checkout_dashboard" {
			return c.Value
		}
	}
	return ""
}

// seed adds deterministic deposits and withdrawals to the sandbox.
func (e *env) seed(deposits, withdrawals int) {
	e.t.Helper()
	body := map[string]int{"deposits": deposits, "withdrawals": withdrawals, "seed": 7}
	if err := e.client.Do(context.Background(), http.MethodPost, "/sandbox/seed", body, nil); err != nil {
		e.t.Fatalf("seeding the sandbox: %v", err)
	}
}

func newJar(t testing.TB) http.CookieJar {
	t.Helper()
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return jar
}

// totpCode is the code an authenticator app shows for secret at t.
func totpCode(t testing.TB, secret string, at time.Time) string {
	t.Helper()
	code, err := totp.GenerateCode(strings.ReplaceAll(strings.TrimSpace(secret), " ", ""), at)
	if err != nil {
		t.Fatalf("a TOTP code of %q: %v", secret, err)
	}
	return code
}

// noClearSecret fails when the database file or its WAL holds secret as it is.
func (e *env) noClearSecret(what, secret string) {
	e.t.Helper()
	for _, p := range []string{e.dbFile, e.dbFile + "-wal"} {
		b, err := os.ReadFile(p)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			e.t.Fatal(err)
		}
		if bytes.Contains(b, []byte(secret)) {
			e.t.Errorf("%s holds %s in clear", p, what)
		}
	}
}
