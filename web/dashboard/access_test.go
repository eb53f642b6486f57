package dashboard_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/pixcheckout/pixcheckout/web/dashboard"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// TestDashboardClosedWithoutSession: every dashboard URL sends a browser to the sign-in page
// (with the page it wanted) and answers anything else 401 in the JSON error shape; unknown
// dashboard paths too, so that a stranger learns nothing of the routes.
func TestDashboardClosedWithoutSession(t *testing.T) {
	e := newEnv(t)
	b := e.browser()
	for _, path := range []string{"/dashboard", "/dashboard/", "/dashboard/deposits?status=PAID", "/dashboard/deposits.csv",
		"/dashboard/deposits/3f1c8a52-7d4e-4b6a-9c2f-1e5d7a9b0c3d", "/dashboard/withdrawals", "/dashboard/no-such-page"} {
		res := b.do(http.MethodGet, path, nil)
		res.Body.Close()
		loc, _ := url.Parse(res.Header.Get("Location"))
		if res.StatusCode != http.StatusSeeOther || loc.Path != "/dashboard/login" || loc.Query().Get("next") != path {
			t.Errorf("GET %s as a browser: %d to %q; want 303 to the sign-in page with next", path, res.StatusCode, res.Header.Get("Location"))
		}
		res = e.do(http.MethodGet, path, nil, "Accept", "application/json")
		var body respond.ErrorBody
		err := json.NewDecoder(res.Body).Decode(&body)
		res.Body.Close()
		if res.StatusCode != http.StatusUnauthorized || err != nil || body.Error.Code != "unauthorized" {
			t.Errorf("GET %s as an API client: %d %+v %v; want 401 unauthorized", path, res.StatusCode, body, err)
		}
	}
	// The gateway was never asked anything.
	if n := len(e.dash.gateway.depositCalls()); n != 0 {
		t.Errorf("%d gateway calls without a session", n)
	}
}

// TestDashboardHeaders: dashboard pages are never framed or cached, whatever the shopper
// pages allow.
func TestDashboardHeaders(t *testing.T) {
	e := newEnv(t, func(o *envOptions) { o.frameAncestors = []string{"https://merchant.example"} })
	b := e.browser()
	res, _ := b.get("/dashboard/login")
	check := func(res *http.Response, what string) {
		t.Helper()
		csp := res.Header.Get("Content-Security-Policy")
		if !strings.Contains(csp, "frame-ancestors 'none'") || strings.Contains(csp, "merchant.example") {
			t.Errorf("%s: CSP %q", what, csp)
		}
		if res.Header.Get("X-Frame-Options") != "DENY" || res.Header.Get("Cache-Control") != "no-store" {
			t.Errorf("%s: X-Frame-Options %q, Cache-Control %q", what, res.Header.Get("X-Frame-Options"), res.Header.Get("Cache-Control"))
		}
	}
	check(res, "sign-in page")
	b.login()
	res, _ = b.get("/dashboard/deposits")
	check(res, "deposits page")
	res, _ = b.get("/dashboard/nothing-here")
	if res.StatusCode != http.StatusNotFound {
		t.Errorf("unknown dashboard page: %d", res.StatusCode)
	}
	check(res, "not-found page")
	// The shopper pages keep their own framing rule.
	res, _ = e.get("/")
	if !strings.Contains(res.Header.Get("Content-Security-Policy"), "https://merchant.example") {
		t.Errorf("shop CSP %q lost the merchant origin", res.Header.Get("Content-Security-Policy"))
	}
}

// TestDashboardLogin: the sign-in form, the cookie's attributes, a new token at sign-in, the
// same answer for a wrong password and an unknown e-mail, and the way back to the page asked.
func TestDashboardLogin(t *testing.T) {
	e := newEnv(t)
	b := e.browser()
	res, doc := b.get("/dashboard/login?next=%2Fdashboard%2Fwithdrawals")
	form := doc.Find(`form[data-testid="login-form"]`)
	if res.StatusCode != http.StatusOK || form.Length() != 1 || form.AttrOr("method", "") != "post" ||
		form.Find(`input[name="email"]`).Length() != 1 || form.Find(`input[name="password"][type="password"]`).Length() != 1 {
		t.Fatalf("sign-in page %d without the form", res.StatusCode)
	}
	if res.Header.Get("Set-Cookie") != "" {
		t.Errorf("the sign-in page set a cookie before any sign-in: %q", res.Header.Get("Set-Cookie"))
	}
	action := form.AttrOr("action", "")

	var texts []string
	for _, creds := range [][2]string{{dashEmail, "wrong-password"}, {"nobody@loja.example", dashPassword}} {
		res, doc := b.post(action, url.Values{"email": {creds[0]}, "password": {creds[1]}})
		msg := doc.Find(`[data-testid="login-error"]`).Text()
		if res.StatusCode != http.StatusUnauthorized || msg == "" || res.Header.Get("Set-Cookie") != "" {
			t.Errorf("sign-in as %s: %d %q", creds[0], res.StatusCode, msg)
		}
		if v := doc.Find(`input[name="email"]`).AttrOr("value", ""); v != creds[0] {
			t.Errorf("the e-mail typed was not kept: %q", v)
		}
		if doc.Find(`input[name="password"]`).AttrOr("value", "") != "" {
			t.Error("the password was echoed")
		}
		texts = append(texts, msg)
	}
	if texts[0] != texts[1] || texts[0] != "E-mail ou senha incorretos." {
		t.Errorf("messages %q; want one and the same", texts)
	}

	res = b.do(http.MethodPost, action, url.Values{"email": {"  ANA@Loja.Example "}, "password": {dashPassword}})
	res.Body.Close()
	if e.location(res) != "/dashboard/withdrawals" {
		t.Errorf("after sign-in: %q; want the page asked for", res.Header.Get("Location"))
	}
	c := setCookie(t, res, dashboard.Cookie)
	if !c.HttpOnly || c.SameSite != http.SameSiteLaxMode || c.Path != "/dashboard" || c.Secure || c.Value == "" {
		t.Errorf("session cookie %+v", c)
	}
	first := c.Value
	// Signing in again renews the token: the old one is dead.
	res = b.do(http.MethodPost, "/dashboard/login", url.Values{"email": {dashEmail}, "password": {dashPassword}})
	res.Body.Close()
	if second := setCookie(t, res, dashboard.Cookie).Value; second == first || second == "" {
		t.Errorf("the token was not renewed at sign-in")
	}
	old := e.do(http.MethodGet, "/dashboard/deposits", nil, "Accept", "text/html", "Cookie", dashboard.Cookie+"="+first)
	old.Body.Close()
	if old.StatusCode != http.StatusSeeOther {
		t.Errorf("the token from before the second sign-in still works: %d", old.StatusCode)
	}
	// A signed-in user asking for the sign-in page goes to the dashboard.
	res = b.do(http.MethodGet, "/dashboard/login", nil)
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther {
		t.Errorf("sign-in page when signed in: %d", res.StatusCode)
	}
	// Only dashboard paths are followed after sign-in.
	for _, next := range []string{"https://evil.example/", "//evil.example", "/dashboard\\@evil", "/cart/x", "/dashboard/login"} {
		b2 := e.browser()
		res := b2.do(http.MethodPost, "/dashboard/login?next="+url.QueryEscape(next), url.Values{"email": {dashEmail}, "password": {dashPassword}})
		res.Body.Close()
		if loc := e.location(res); loc != "/dashboard" {
			t.Errorf("next=%q led to %q", next, loc)
		}
	}
}

// TestDashboardSecureCookie: under an https public URL the cookie is Secure.
func TestDashboardSecureCookie(t *testing.T) {
	e := newEnv(t, func(o *envOptions) { o.publicURL = "https://shop.example" })
	b := e.browser()
	res := b.do(http.MethodPost, "/dashboard/login", url.Values{"email": {dashEmail}, "password": {dashPassword}})
	res.Body.Close()
	if c := setCookie(t, res, dashboard.Cookie); !c.Secure {
		t.Errorf("cookie %+v is not Secure under https", c)
	}
}

// TestDashboardLogout: a POST with the session's token ends the session for good; without the
// token it is refused; a cross-site post is refused before anything.
func TestDashboardLogout(t *testing.T) {
	e := newEnv(t)
	b := e.browser()
	tok := b.login()
	token := b.cookie()
	if res := b.do(http.MethodGet, "/dashboard/logout", nil); res.StatusCode == http.StatusOK {
		t.Error("GET signs out")
	}
	res, _ := b.post("/dashboard/logout", url.Values{})
	if res.StatusCode != http.StatusForbidden {
		t.Errorf("sign-out without the form's token: %d", res.StatusCode)
	}
	res, _ = b.post("/dashboard/logout", url.Values{"csrf_token": {tok}}, "Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example")
	if res.StatusCode != http.StatusForbidden {
		t.Errorf("cross-site sign-out: %d", res.StatusCode)
	}
	res = b.do(http.MethodPost, "/dashboard/logout", url.Values{"csrf_token": {tok}})
	res.Body.Close()
	if loc := e.location(res); loc != "/dashboard/login?signed_out=1" {
		t.Errorf("after sign-out: %q", loc)
	}
	if c := setCookie(t, res, dashboard.Cookie); c.MaxAge >= 0 {
		t.Errorf("the cookie was not cleared: %+v", c)
	}
	old := e.do(http.MethodGet, "/dashboard/deposits", nil, "Accept", "text/html", "Cookie", dashboard.Cookie+"="+token)
	old.Body.Close()
	if old.StatusCode != http.StatusSeeOther {
		t.Errorf("the signed-out token still opens the dashboard: %d", old.StatusCode)
	}
	_, doc := b.get("/dashboard/login?signed_out=1")
	if doc.Find(`[data-testid="login-notice"]`).Text() == "" {
		t.Error("no notice after signing out")
	}
}

// TestDashboardCrossSiteLogin: a cross-site form post to the sign-in is refused.
func TestDashboardCrossSiteLogin(t *testing.T) {
	e := newEnv(t)
	b := e.browser()
	res, _ := b.post("/dashboard/login", url.Values{"email": {dashEmail}, "password": {dashPassword}},
		"Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example")
	if res.StatusCode != http.StatusForbidden {
		t.Errorf("cross-site sign-in: %d", res.StatusCode)
	}
}

// TestDashboardThrottling: after ten failures the sign-in answers 429 with the wait, even with
// the right password, and says so in the page's language.
func TestDashboardThrottling(t *testing.T) {
	e := newEnv(t)
	b := e.browser()
	for i := range 10 {
		res, _ := b.post("/dashboard/login", url.Values{"email": {dashEmail}, "password": {"wrong"}})
		if res.StatusCode != http.StatusUnauthorized {
			t.Fatalf("failure %d: %d", i+1, res.StatusCode)
		}
	}
	res, doc := b.post("/dashboard/login", url.Values{"email": {dashEmail}, "password": {dashPassword}})
	msg := doc.Find(`[data-testid="login-error"]`).Text()
	if res.StatusCode != http.StatusTooManyRequests || res.Header.Get("Retry-After") != "60" ||
		msg != "Muitas tentativas sem sucesso. Tente novamente em 1 min." {
		t.Errorf("11th attempt: %d, Retry-After %q, %q", res.StatusCode, res.Header.Get("Retry-After"), msg)
	}
	if b.cookie() != "" {
		t.Error("a throttled attempt signed in")
	}
	_, doc = b.post("/dashboard/login?lang=en", url.Values{"email": {dashEmail}, "password": {dashPassword}})
	if msg := doc.Find(`[data-testid="login-error"]`).Text(); msg != "Too many failed attempts. Try again in 1 min." {
		t.Errorf("in English: %q", msg)
	}
}

// TestDashboardPasswordResetEndsSessions: a session opened before a password change is over.
func TestDashboardPasswordResetEndsSessions(t *testing.T) {
	e := newEnv(t)
	b := e.browser()
	b.login()
	if err := e.dash.accounts.ResetPassword(context.Background(), dashEmail, "uma-senha-nova-1"); err != nil {
		t.Fatal(err)
	}
	res := b.do(http.MethodGet, "/dashboard/deposits", nil)
	res.Body.Close()
	if loc := res.Header.Get("Location"); res.StatusCode != http.StatusSeeOther || !strings.Contains(loc, "ended=1") {
		t.Errorf("after a password reset: %d %q", res.StatusCode, loc)
	}
}

// setCookie returns the Set-Cookie of name in res.
func setCookie(t *testing.T, res *http.Response, name string) *http.Cookie {
	t.Helper()
	for _, c := range res.Cookies() {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no %s cookie in %q", name, res.Header.Values("Set-Cookie"))
	return nil
}
