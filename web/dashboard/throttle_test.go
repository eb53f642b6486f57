package dashboard_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/pixcheckout/pixcheckout/web/respond"
)

// TestDashboardStrangerCannotLockOutOwner: ten wrong passwords from one address, then the
// owner with the right password from another address signs in; the stranger's address is
// the one kept waiting.
func TestDashboardStrangerCannotLockOutOwner(t *testing.T) {
	e := newEnv(t)
	login := loginFrom(e, "")
	for i := range 10 {
		if rec := login("wrong", "203.0.113.66:40000"); rec.Code != http.StatusUnauthorized {
			t.Fatalf("stranger's failure %d: %d", i+1, rec.Code)
		}
	}
	rec := login(dashPassword, "198.51.100.20:51000")
	if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/dashboard" {
		t.Fatalf("the owner from another address: %d to %q; want signed in", rec.Code, rec.Header().Get("Location"))
	}
	if rec := login(dashPassword, "203.0.113.66:40001"); rec.Code != http.StatusTooManyRequests {
		t.Errorf("the stranger's address with the right password: %d; want 429", rec.Code)
	}
}

// Behind a trusted proxy every attempt comes from the proxy's address: the throttle counts by
// the address the proxy forwards, so the stranger behind it still cannot lock the owner out,
// and a forwarding header from a peer that is not a trusted proxy changes nothing.
func TestDashboardThrottleBehindATrustedProxy(t *testing.T) {
	proxies, err := respond.ParseProxies("10.0.0.0/8")
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, func(o *envOptions) { o.trustedProxies = proxies })
	viaProxy := loginFrom(e, "X-Forwarded-For")
	for i := range 10 {
		if rec := viaProxy("wrong", "203.0.113.66"); rec.Code != http.StatusUnauthorized {
			t.Fatalf("stranger's failure %d: %d", i+1, rec.Code)
		}
	}
	if rec := viaProxy(dashPassword, "198.51.100.20"); rec.Code != http.StatusSeeOther {
		t.Fatalf("the owner behind the same proxy: %d; want signed in", rec.Code)
	}
	if rec := viaProxy(dashPassword, "203.0.113.66"); rec.Code != http.StatusTooManyRequests {
		t.Errorf("the stranger behind the proxy with the right password: %d; want 429", rec.Code)
	}
	// The same header from an untrusted peer: the peer's own address counts, and it has no
	// failures, so the stranger's forwarded address does not keep it out.
	form := url.Values{"email": {dashEmail}, "password": {dashPassword}}
	req := httptest.NewRequest(http.MethodPost, "/dashboard/login", strings.NewReader(form.Encode()))
	req.RemoteAddr = "192.0.2.50:1234"
	req.Header.Set("X-Forwarded-For", "203.0.113.66")
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", "http://"+req.Host)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	rec := httptest.NewRecorder()
	e.web.Handler().ServeHTTP(rec, req)
	if rec.Code != http.StatusSeeOther {
		t.Errorf("an untrusted peer naming the stranger's address: %d; want signed in", rec.Code)
	}
}

// loginFrom returns a sign-in through e's whole server: with header "" from the address given
// as the peer (host:port); otherwise from a trusted proxy (10.0.0.1) forwarding that address in
// header.
func loginFrom(e *env, header string) func(password, from string) *httptest.ResponseRecorder {
	h := e.web.Handler()
	return func(password, from string) *httptest.ResponseRecorder {
		form := url.Values{"email": {dashEmail}, "password": {password}}
		req := httptest.NewRequest(http.MethodPost, "/dashboard/login", strings.NewReader(form.Encode()))
		req.RemoteAddr = from
		if header != "" {
			req.RemoteAddr = "10.0.0.1:44000"
			req.Header.Set(header, from)
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Accept", "text/html")
		req.Header.Set("Origin", "http://"+req.Host)
		req.Header.Set("Sec-Fetch-Site", "same-origin")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
}
