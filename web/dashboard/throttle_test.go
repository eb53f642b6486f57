package dashboard_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// TestDashboardStrangerCannotLockOutOwner: ten wrong passwords from one address, then the
// owner with the right password from another address signs in; the stranger's address is
// the one kept waiting.
func TestDashboardStrangerCannotLockOutOwner(t *testing.T) {
	e := newEnv(t)
	h := e.web.Handler()
	login := func(password, remote string) *httptest.ResponseRecorder {
		form := url.Values{"email": {dashEmail}, "password": {password}}
		req := httptest.NewRequest(http.MethodPost, "/dashboard/login", strings.NewReader(form.Encode()))
		req.RemoteAddr = remote
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Accept", "text/html")
		req.Header.Set("Origin", "http://"+req.Host)
		req.Header.Set("Sec-Fetch-Site", "same-origin")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
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
