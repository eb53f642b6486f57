package sandbox

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
)

// browser is an HTTP client with cookies that does not follow redirects.
func browser(t *testing.T) *http.Client {
	t.Helper()
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// page fetches a console page in English (the tests read its words) and parses it.
func page(t *testing.T, c *http.Client, u string) (int, *goquery.Document) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept-Language", "en")
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	doc, err := goquery.NewDocumentFromReader(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, doc
}

func TestConsole(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	tok := e.token()
	tx := e.createTx(tok, "console-01", 12345)
	// Mounted under a prefix, as the checkout does: every link and redirect must be relative.
	mux := http.NewServeMux()
	mux.Handle("/sandbox/gateway/", http.StripPrefix("/sandbox/gateway", e.sb))
	mounted := httptest.NewServer(mux)
	defer mounted.Close()
	base := mounted.URL + "/sandbox/gateway/sandbox/"
	c := browser(t)

	// /sandbox redirects to /sandbox/ with a relative Location (the sandbox may be mounted
	// under a prefix).
	res0, err := c.Get(mounted.URL + "/sandbox/gateway/sandbox")
	if err != nil {
		t.Fatal(err)
	}
	res0.Body.Close()
	if res0.StatusCode != http.StatusMovedPermanently || res0.Header.Get("Location") != "sandbox/" {
		t.Fatalf("/sandbox: %d %q", res0.StatusCode, res0.Header.Get("Location"))
	}
	// Signed out: the sign-in form only.
	st, doc := page(t, c, base)
	if st != 200 || doc.Find(`[data-testid="console-login"]`).Length() != 1 || doc.Find(`[data-testid="sandbox-deposit-row"]`).Length() != 0 {
		t.Fatalf("signed-out console: %d", st)
	}
	res, err := c.PostForm(base+"login", url.Values{"client_id": {testClientID}, "client_secret": {"wrong"}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 401 {
		t.Fatalf("wrong secret: %d", res.StatusCode)
	}
	res, err = c.PostForm(base+"login", url.Values{"client_id": {testClientID}, "client_secret": {testSecret}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	sc := res.Header.Get("Set-Cookie")
	if res.StatusCode != 303 || !strings.Contains(sc, "HttpOnly") || !strings.Contains(sc, "SameSite=Strict") {
		t.Fatalf("login: %d %q", res.StatusCode, sc)
	}
	if loc, _ := res.Location(); loc.String() != base {
		t.Fatalf("login redirects to %v, want %s", loc, base)
	}

	// Signed in: the deposit with its buttons.
	st, doc = page(t, c, base)
	row := doc.Find(`[data-testid="sandbox-deposit-row"]`)
	if st != 200 || row.Length() != 1 || !strings.Contains(row.Text(), tx.ID) || !strings.Contains(row.Text(), "R$ 123,45") {
		t.Fatalf("console: %d rows %d %q", st, row.Length(), row.Text())
	}
	action, ok := row.Find(`form button:contains("pay")`).Parent().Attr("action")
	if !ok {
		t.Fatal("no pay button")
	}
	if row.Find(`button:contains("refund")`).Length() != 0 {
		t.Fatal("refund offered before payment")
	}
	// The button's form posts to a relative URL; same-origin POST is accepted.
	payURL, _ := url.Parse(base)
	payURL, _ = payURL.Parse(action)
	res, err = c.PostForm(payURL.String(), nil)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if loc, _ := res.Location(); res.StatusCode != 303 || loc.String() != base {
		t.Fatalf("pay: %d to %v", res.StatusCode, loc)
	}
	_, doc = page(t, c, base)
	row = doc.Find(`[data-testid="sandbox-deposit-row"]`)
	if !strings.Contains(row.Find(".status").Text(), "PAID") || row.Find(`button:contains("refund")`).Length() != 1 ||
		!strings.Contains(row.Find(".hooks").Text(), "none") {
		t.Fatalf("after pay: %q", row.Text())
	}

	// A cross-site form post is refused (CSRF), and nothing changes.
	req, _ := http.NewRequest("POST", base+"console/deposits/"+tx.ID+"/refund", nil)
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	res, err = c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusForbidden {
		t.Fatalf("cross-site post: %d", res.StatusCode)
	}
	// A refused transition shows the reason on the console.
	res, err = c.PostForm(base+"console/deposits/"+tx.ID+"/expire", nil)
	if err != nil {
		t.Fatal(err)
	}
	doc, _ = goquery.NewDocumentFromReader(res.Body)
	res.Body.Close()
	if res.StatusCode != 409 || !strings.Contains(doc.Find(`[data-testid="console-error"]`).Text(), "cannot move deposit from PAID") {
		t.Fatalf("refused expire: %d %q", res.StatusCode, doc.Find(`[data-testid="console-error"]`).Text())
	}
	// Withdrawal creation and clock advance through their forms.
	for path, form := range map[string]url.Values{"console/withdrawals": {"amount": {"2500"}}, "console/clock": {"seconds": {"60"}}} {
		res, err = c.PostForm(base+path, form)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if loc, _ := res.Location(); res.StatusCode != 303 || loc.String() != base {
			t.Fatalf("%s: %d to %v", path, res.StatusCode, loc)
		}
	}
	// An overflowing count of seconds is refused, and the clock stays put.
	res, err = c.PostForm(base+"console/clock", url.Values{"seconds": {"18446744075"}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 422 {
		t.Fatalf("console clock with an overflowing count: %d", res.StatusCode)
	}
	_, doc = page(t, c, base)
	if doc.Find(`[data-testid="sandbox-withdrawal-row"]`).Length() != 1 || !strings.Contains(doc.Find(`[data-testid="console-now"]`).Text(), "12:01:00") {
		t.Fatal("withdrawal or clock not shown")
	}
	// A bearer token opens the console too; a client without sandbox:control cannot.
	st, _, body := e.do("GET", "/sandbox/", tok, nil)
	if st != 200 || !strings.Contains(string(body), tx.ID) {
		t.Fatalf("console with bearer: %d", st)
	}
	st, _, body = e.do("GET", "/sandbox/", e.token(ScopeDepositsRead), nil)
	if st != 200 || strings.Contains(string(body), tx.ID) {
		t.Fatalf("console with a token lacking sandbox:control showed data: %d", st)
	}
	// Sign out.
	res, err = c.PostForm(base+"logout", nil)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if _, doc = page(t, c, base); doc.Find(`[data-testid="console-login"]`).Length() != 1 {
		t.Fatal("still signed in after sign-out")
	}
}

func TestFormatBRL(t *testing.T) {
	t.Parallel()
	for c, want := range map[int64]string{0: "R$ 0,00", 5: "R$ 0,05", 12345: "R$ 123,45", 123456789: "R$ 1.234.567,89", 100000: "R$ 1.000,00"} {
		if got := formatBRL(centsOf(c)); got != want {
			t.Errorf("formatBRL(%d) = %q, want %q", c, got, want)
		}
	}
}

// TestConsoleLoginThrottled checks that failed console sign-ins are limited per remote
// address and per client: past the burst, even the right secret gets a 429 with Retry-After
// (the secret is not checked), until the sandbox clock has refilled the bucket.
func TestConsoleLoginThrottled(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *Options) {
		o.Clients = append(o.Clients, ClientConfig{ID: "other-client", Secret: "other-secret-123"})
		o.LoginRateLimit = RateLimit{Requests: 1, Period: time.Minute, Burst: 3}
	})
	login := func(addr, id, secret string) *httptest.ResponseRecorder {
		t.Helper()
		r := httptest.NewRequest("POST", "/sandbox/login", strings.NewReader(url.Values{"client_id": {id}, "client_secret": {secret}, "lang": {"en"}}.Encode()))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		r.RemoteAddr = addr
		w := httptest.NewRecorder()
		e.sb.ServeHTTP(w, r)
		return w
	}
	const a, b, c = "198.51.100.7:40000", "198.51.100.8:40001", "203.0.113.9:50000"
	// Three wrong secrets from address a (each new port is the same address).
	for i := range 3 {
		if w := login(fmt.Sprintf("198.51.100.7:%d", 40000+i), testClientID, "wrong"); w.Code != http.StatusUnauthorized {
			t.Fatalf("failure %d: %d", i+1, w.Code)
		}
	}
	// Address a is blocked, even with the right secret; so is the client from address b.
	for _, try := range []struct{ addr, id, secret string }{{a, testClientID, testSecret}, {a, "other-client", "other-secret-123"}, {b, testClientID, testSecret}} {
		w := login(try.addr, try.id, try.secret)
		if w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") != "60" || w.Header().Get("Set-Cookie") != "" ||
			!strings.Contains(w.Body.String(), "Too many failed sign-ins") {
			t.Fatalf("%s as %s after 3 failures: %d Retry-After %q %q", try.addr, try.id, w.Code, w.Header().Get("Retry-After"), w.Body.String())
		}
	}
	// Another client from another address is not affected; successful sign-ins cost nothing.
	for range 5 {
		if w := login(c, "other-client", "other-secret-123"); w.Code != http.StatusSeeOther {
			t.Fatalf("other client from another address: %d", w.Code)
		}
	}
	// Unknown client ids count against the address only.
	for range 3 {
		login(c, "nobody-at-all", "guess")
	}
	if w := login(c, "other-client", "other-secret-123"); w.Code != http.StatusTooManyRequests {
		t.Fatalf("address c after 3 failures: %d", w.Code)
	}
	if w := login(b, "other-client", "other-secret-123"); w.Code != http.StatusSeeOther {
		t.Fatalf("other client from address b: %d", w.Code)
	}
	// A minute later one more attempt is allowed.
	e.clock.Advance(time.Minute)
	if w := login(a, testClientID, testSecret); w.Code != http.StatusSeeOther {
		t.Fatalf("after a minute: %d", w.Code)
	}
}

// TestConsoleShowsEveryDeliveryAttempt checks that the console lists a record's webhook
// deliveries with each attempt (time, HTTP status or error) and when the next one is due,
// and offers the pay and expire buttons on a deposit awaiting payment.
func TestConsoleShowsEveryDeliveryAttempt(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			http.Error(w, "receiver down", http.StatusInternalServerError)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	defer recv.Close()
	e := newEnv(t, func(o *Options) {
		o.WebhookForwardTo = recv.URL + "/hooks"
		o.WebhookBaseDelay, o.WebhookMaxDelay = time.Second, 2*time.Second
	})
	tok := e.token()
	tx := e.createTx(tok, "console-hooks-1", 4200)
	ctx := context.Background()
	rowOf := func() *goquery.Selection {
		t.Helper()
		st, _, b := e.do("GET", "/sandbox/?lang=en", tok, nil)
		doc, err := goquery.NewDocumentFromReader(bytes.NewReader(b))
		if st != 200 || err != nil {
			t.Fatalf("console: %d %v", st, err)
		}
		row := doc.Find(`[data-testid="sandbox-deposit-row"]`)
		if row.Length() != 1 || !strings.Contains(row.Text(), tx.ID) {
			t.Fatalf("deposit row: %q", row.Text())
		}
		return row
	}
	row := rowOf()
	for _, label := range []string{"pay", "expire", "fail"} {
		if row.Find(`button:contains("`+label+`")`).Length() != 1 {
			t.Errorf("no %s button on a deposit awaiting payment", label)
		}
	}
	if n := row.Find(`[data-testid="sandbox-delivery"]`).Length(); n != 1 || row.Find(`[data-testid="sandbox-attempt"]`).Length() != 0 {
		t.Fatalf("before any attempt: %d deliveries, %q", n, row.Find(".hooks").Text())
	}
	// First attempt: the receiver answers 500.
	if _, err := e.sb.hooks.ob.DeliverDue(ctx); err != nil {
		t.Fatal(err)
	}
	row = rowOf()
	d := row.Find(`[data-testid="sandbox-delivery"]`)
	attempts := d.Find(`[data-testid="sandbox-attempt"]`)
	if attempts.Length() != 1 || !strings.Contains(attempts.Text(), "HTTP 500") || !strings.Contains(attempts.Text(), "2026-") ||
		!strings.Contains(d.Text(), "pending") || !strings.Contains(d.Text(), "next at") || !strings.Contains(d.Text(), "deposit.pix_qrcode_generated") {
		t.Fatalf("after a failed attempt: %q", d.Text())
	}
	// The retry is due within the maximum delay; the receiver now takes it.
	e.clock.Advance(2 * time.Second)
	if _, err := e.sb.hooks.ob.DeliverDue(ctx); err != nil {
		t.Fatal(err)
	}
	d = rowOf().Find(`[data-testid="sandbox-delivery"]`)
	attempts = d.Find(`[data-testid="sandbox-attempt"]`)
	if attempts.Length() != 2 || !strings.Contains(attempts.Eq(1).Text(), "HTTP 204") || !strings.Contains(attempts.Eq(1).Text(), "delivered") ||
		!strings.Contains(d.Text(), "delivered, 2 attempt(s)") || strings.Contains(d.Text(), "next at") {
		t.Fatalf("after the retry: %q", d.Text())
	}
}

// TestConsoleStyleSheet checks that the console is styled by a style sheet of its own origin,
// which its Content-Security-Policy allows (no inline styles at all, so no 'unsafe-inline'),
// and that a page answered at a deeper path (a refused control) resolves its links, forms and
// style sheet against the console's directory.
func TestConsoleStyleSheet(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	tok := e.token()
	tx := e.createTx(tok, "console-css-1", 500)
	mux := http.NewServeMux()
	mux.Handle("/sandbox/gateway/", http.StripPrefix("/sandbox/gateway", e.sb))
	mounted := httptest.NewServer(mux)
	defer mounted.Close()
	base := mounted.URL + "/sandbox/gateway/sandbox/"
	c := browser(t)
	res, err := c.PostForm(base+"login", url.Values{"client_id": {testClientID}, "client_secret": {testSecret}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()

	check := func(pageURL string, res *http.Response) *goquery.Document {
		t.Helper()
		defer res.Body.Close()
		if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "style-src 'self'") || strings.Contains(csp, "unsafe-inline") {
			t.Fatalf("%s: CSP %q", pageURL, csp)
		}
		doc, err := goquery.NewDocumentFromReader(res.Body)
		if err != nil {
			t.Fatal(err)
		}
		html, _ := doc.Html()
		if doc.Find("style").Length() != 0 || doc.Find("[style]").Length() != 0 || strings.Contains(html, "consoleCSS") {
			t.Fatalf("%s: inline styles, which the CSP refuses", pageURL)
		}
		href, ok := doc.Find(`link[rel="stylesheet"]`).Attr("href")
		if !ok {
			t.Fatalf("%s: no style sheet", pageURL)
		}
		// Resolve as a browser does: against <base href> when there is one.
		u, _ := url.Parse(pageURL)
		if b, ok := doc.Find("base").Attr("href"); ok {
			u, _ = u.Parse(b)
		}
		css, _ := u.Parse(href)
		if css.String() != base+consoleCSSPath {
			t.Fatalf("%s: style sheet at %s, want %s", pageURL, css, base+consoleCSSPath)
		}
		cr, err := c.Get(css.String())
		if err != nil {
			t.Fatal(err)
		}
		body := new(bytes.Buffer)
		_, _ = body.ReadFrom(cr.Body)
		cr.Body.Close()
		if cr.StatusCode != 200 || !strings.HasPrefix(cr.Header.Get("Content-Type"), "text/css") ||
			!strings.Contains(cr.Header.Get("Cache-Control"), "immutable") || !strings.Contains(body.String(), "@media (max-width:") {
			t.Fatalf("style sheet: %d %q %q", cr.StatusCode, cr.Header.Get("Content-Type"), cr.Header.Get("Cache-Control"))
		}
		// Every form posts inside the console.
		doc.Find("form").Each(func(_ int, f *goquery.Selection) {
			action, _ := f.Attr("action")
			if a, _ := u.Parse(action); !strings.HasPrefix(a.String(), base) {
				t.Errorf("%s: form posts to %s, outside the console", pageURL, a)
			}
		})
		return doc
	}
	r0, err := c.Get(base)
	if err != nil {
		t.Fatal(err)
	}
	if doc := check(base, r0); doc.Find(`td[data-label="Id"]`).Length() != 1 {
		t.Fatal("cells lack the labels the narrow layout shows")
	}
	refused := base + "console/deposits/" + tx.ID + "/refund"
	r1, err := c.PostForm(refused, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r1.StatusCode != http.StatusConflict {
		t.Fatalf("refund before payment: %d", r1.StatusCode)
	}
	check(refused, r1)
	// Signed out, the sign-in page is styled too.
	r2, err := http.Get(base)
	if err != nil {
		t.Fatal(err)
	}
	check(base, r2)
}
