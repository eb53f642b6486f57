package web_test

import (
	"context"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/pixcheckout/pixcheckout/checkout/merchant"
	"github.com/pixcheckout/pixcheckout/checkout/sqlite"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
)

// Test users of the dashboard.
const (
	dashEmail    = "ana@loja.example"
	dashPassword = "senha-do-painel-1"
)

// dashEnv is the dashboard's part of a test env: accounts on the env's SQLite store (cheap
// argon2id parameters), and the real gateway client recorded and, on demand, failing.
type dashEnv struct {
	accounts *merchant.Accounts
	settings *merchant.SettingsManager
	gateway  *recordingGateway
	sb       *sandbox.Sandbox
}

func newDashEnv(t testing.TB, store *sqlite.Store, c *gatewayclient.Client, sb *sandbox.Sandbox) *dashEnv {
	t.Helper()
	h := merchant.NewHasher(merchant.Argon2Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}, 2)
	acc := merchant.NewAccounts(store, store, merchant.AccountsOptions{Hasher: h, Clock: sb.Now})
	if _, err := acc.AddUser(context.Background(), dashEmail, dashPassword); err != nil {
		t.Fatal(err)
	}
	return &dashEnv{accounts: acc, gateway: &recordingGateway{c: c}, sb: sb,
		settings: merchant.NewSettingsManager(store, merchant.SettingsConfig{}, sb.Now)}
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
	res, _ := b.post("/dashboard/login", url.Values{"email": {dashEmail}, "password": {dashPassword}})
	if loc := b.e.location(res); loc != "/dashboard" {
		b.e.t.Fatalf("sign-in went to %q", loc)
	}
	return b.csrf()
}

// csrf reads the session's token from the sign-out form of a dashboard page.
func (b *browser) csrf() string {
	b.e.t.Helper()
	res, doc := b.get("/dashboard/deposits?perPage=1")
	if res.StatusCode != http.StatusOK {
		b.e.t.Fatalf("deposits page: %d", res.StatusCode)
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
