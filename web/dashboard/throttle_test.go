package dashboard_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout/team"
	"github.com/pixcheckout/pixcheckout/web/dashboard"
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

// TestDashboardDeviceCookieKeepsOwnerIn: OWASP's device cookies. Strangers guessing the owner's
// password from 20 IPv6 /64 prefixes × 10 reach the account's ceiling of 200 failures: from a
// fresh address, the right password without a device cookie is then refused (429), but the
// owner's browser that signed in before (its device cookie) signs in at once. A forged or
// another account's device cookie is no device. A device cookie that guesses wrong is itself
// stopped after as many failures as a pair, and the per-address limit still holds for it.
func TestDashboardDeviceCookieKeepsOwnerIn(t *testing.T) {
	e := newEnv(t)
	h := e.web.Handler()
	login := func(email, password, from string, cookies ...*http.Cookie) *httptest.ResponseRecorder {
		form := url.Values{"email": {email}, "password": {password}}
		req := httptest.NewRequest(http.MethodPost, "/dashboard/login", strings.NewReader(form.Encode()))
		req.RemoteAddr = from
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", "http://"+req.Host)
		req.Header.Set("Sec-Fetch-Site", "same-origin")
		for _, c := range cookies {
			req.AddCookie(c)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	deviceOf := func(rec *httptest.ResponseRecorder) *http.Cookie {
		for _, c := range rec.Result().Cookies() {
			if c.Name == dashboard.DeviceCookie && c.Value != "" {
				return c
			}
		}
		return nil
	}
	first := login(dashEmail, dashPassword, "198.51.100.7:5000")
	device := deviceOf(first)
	if first.Code != http.StatusSeeOther || device == nil || !device.HttpOnly || device.Path != "/dashboard" {
		t.Fatalf("the owner's first sign-in: %d, device cookie %+v", first.Code, device)
	}
	if strings.Contains(device.Value, dashEmail) {
		t.Errorf("the device cookie shows the e-mail in clear: %q", device.Value)
	}
	// Another user's device cookie does not count for the owner's account.
	if _, err := e.dash.accounts.AddUser(context.Background(), "bia@loja.example", dashPassword, team.RoleViewer); err != nil {
		t.Fatal(err)
	}
	biaDevice := deviceOf(login("bia@loja.example", dashPassword, "198.51.100.8:5000"))
	for p := range 20 {
		for i := range 10 {
			from := fmt.Sprintf("[2001:db8:%x::%x]:40000", p, i+1)
			if rec := login(dashEmail, "wrong", from); rec.Code != http.StatusUnauthorized {
				t.Fatalf("stranger %d's failure %d: %d", p, i+1, rec.Code)
			}
		}
	}
	if rec := login(dashEmail, dashPassword, "192.0.2.30:1"); rec.Code != http.StatusTooManyRequests {
		t.Fatalf("the right password without a device cookie after 200 failures: %d; want 429 (the account's ceiling)", rec.Code)
	}
	forged := &http.Cookie{Name: dashboard.DeviceCookie, Value: "sealed:v1:00000000:" + strings.Repeat("A", 60)}
	for name, c := range map[string]*http.Cookie{"a forged device cookie": forged, "another account's device cookie": biaDevice} {
		if rec := login(dashEmail, dashPassword, "192.0.2.31:1", c); rec.Code != http.StatusTooManyRequests {
			t.Errorf("%s: %d; want 429", name, rec.Code)
		}
	}
	rec := login(dashEmail, dashPassword, "192.0.2.32:1", device)
	if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/dashboard" {
		t.Fatalf("the owner's own browser (device cookie) from a fresh address: %d to %q; want signed in", rec.Code, rec.Header().Get("Location"))
	}
	renewed := deviceOf(rec)
	if renewed == nil || renewed.Value == device.Value {
		t.Error("a sign-in with a device cookie does not leave a fresh one")
	}
	// A stolen device cookie guessing: locked after a pair's allowance, spread over addresses.
	for i := range 10 {
		if rec := login(dashEmail, "wrong", fmt.Sprintf("192.0.2.%d:1", 100+i), renewed); rec.Code != http.StatusUnauthorized {
			t.Fatalf("device failure %d: %d", i+1, rec.Code)
		}
	}
	if rec := login(dashEmail, dashPassword, "192.0.2.120:1", renewed); rec.Code != http.StatusTooManyRequests {
		t.Errorf("a device cookie after 10 wrong passwords: %d; want 429", rec.Code)
	}
}
