package web_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"

	"github.com/pixcheckout/pixcheckout/web"
)

func TestSecurityHeaders(t *testing.T) {
	e := newEnv(t)
	res, _ := e.get("/")
	h := res.Header
	csp := h.Get("Content-Security-Policy")
	for _, want := range []string{"default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:",
		"connect-src 'self'", "form-action 'self'", "base-uri 'none'", "object-src 'none'", "frame-ancestors 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP %q lacks %q", csp, want)
		}
	}
	if strings.Contains(csp, "unsafe-inline") {
		t.Errorf("CSP allows inline code: %q", csp)
	}
	checks := map[string]string{
		"X-Content-Type-Options": "nosniff",
		"Referrer-Policy":        "no-referrer",
		"X-Frame-Options":        "DENY",
	}
	for k, want := range checks {
		if got := h.Get(k); got != want {
			t.Errorf("%s: %q, want %q", k, got, want)
		}
	}
	if h.Get("Permissions-Policy") == "" {
		t.Error("no Permissions-Policy")
	}
	if h.Get("Strict-Transport-Security") != "" {
		t.Error("HSTS over plain http")
	}
	if h.Get("X-Request-Id") == "" {
		t.Error("no request id")
	}
	if h.Get("Cache-Control") != "no-store" {
		t.Errorf("pages may be cached: %q", h.Get("Cache-Control"))
	}
	// Every response, errors included.
	res, _ = e.get("/no/such/page")
	if res.StatusCode != http.StatusNotFound || res.Header.Get("Content-Security-Policy") == "" || res.Header.Get("Referrer-Policy") != "no-referrer" {
		t.Errorf("404 page: %d, headers %v", res.StatusCode, res.Header)
	}
}

func TestFrameAncestorsAndHTTPS(t *testing.T) {
	e := newEnv(t, func(o *envOptions) {
		o.frameAncestors = []string{"https://shop.example.com", "http://127.0.0.1:9999"}
		o.publicURL = "https://pay.example.com"
	})
	res, _ := e.post("/cart", url.Values{"product_id": {"ebook-receitas-do-cerrado"}})
	h := res.Header
	if csp := h.Get("Content-Security-Policy"); !strings.HasSuffix(csp, "frame-ancestors 'self' https://shop.example.com http://127.0.0.1:9999") {
		t.Errorf("CSP %q", csp)
	}
	if h.Get("X-Frame-Options") != "" {
		t.Errorf("X-Frame-Options %q would forbid the configured merchants", h.Get("X-Frame-Options"))
	}
	if !strings.Contains(h.Get("Strict-Transport-Security"), "max-age=") {
		t.Errorf("HSTS missing with an https public URL: %q", h.Get("Strict-Transport-Security"))
	}
	for _, c := range res.Cookies() {
		if !c.Secure {
			t.Errorf("cookie %s not Secure with an https public URL", c.Name)
		}
	}
}

func TestCrossOriginPostsRefused(t *testing.T) {
	e := newEnv(t)
	form := url.Values{"product_id": {"ebook-receitas-do-cerrado"}}
	res, _ := e.post("/cart", form, "Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example.com")
	if res.StatusCode != http.StatusForbidden {
		t.Errorf("cross-site POST: %d, want 403", res.StatusCode)
	}
	res, _ = e.post("/cart", form, "Origin", "https://evil.example.com")
	if res.StatusCode != http.StatusForbidden {
		t.Errorf("cross-origin POST without Sec-Fetch-Site: %d, want 403", res.StatusCode)
	}
	res, _ = e.post("/cart", form, "Sec-Fetch-Site", "same-origin", "Origin", e.srv.URL)
	if res.StatusCode != http.StatusSeeOther {
		t.Errorf("same-origin POST: %d, want 303", res.StatusCode)
	}
	// Other unsafe routes are covered too.
	pay := e.placeOrder()
	for _, p := range []string{pay + "/new-qr", pay + "/sandbox-pay"} {
		res, _ := e.post(p, url.Values{}, "Sec-Fetch-Site", "cross-site")
		if res.StatusCode != http.StatusForbidden {
			t.Errorf("cross-site POST %s: %d, want 403", p, res.StatusCode)
		}
	}
	if st := e.status(pay); st["status"] != "awaiting_payment" {
		t.Errorf("a refused cross-site sandbox-pay paid the order: %v", st)
	}
}

func TestBodyLimit(t *testing.T) {
	e := newEnv(t)
	big := url.Values{"product_id": {"ebook-receitas-do-cerrado"}, "pad": {strings.Repeat("x", 70<<10)}}
	res, _ := e.post("/cart", big)
	if res.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("70 KiB form: %d, want 413", res.StatusCode)
	}
}

func TestHealthAndReadiness(t *testing.T) {
	e := newEnv(t)
	for _, p := range []string{"/healthz", "/readyz"} {
		res := e.do(http.MethodGet, p, nil)
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Errorf("%s: %d", p, res.StatusCode)
		}
	}
	if err := e.store.Close(); err != nil {
		t.Fatal(err)
	}
	res := e.do(http.MethodGet, "/readyz", nil)
	res.Body.Close()
	if res.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("/readyz with the database closed: %d, want 503", res.StatusCode)
	}
	res = e.do(http.MethodGet, "/healthz", nil)
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Errorf("/healthz must stay 200: %d", res.StatusCode)
	}
}

func TestAccessLogHoldsNoCredentials(t *testing.T) {
	e := newEnv(t)
	pay := e.placeOrder()
	// Served in this goroutine, so that its log line is written when ServeHTTP returns.
	req := httptest.NewRequest(http.MethodGet, pay+"?lang=en&token=s3cr3t", nil)
	req.Header.Set("Authorization", "Bearer hunter2")
	e.web.Handler().ServeHTTP(httptest.NewRecorder(), req)
	logs := e.logs.String()
	if !strings.Contains(logs, `"route":"/pay/{orderID}"`) {
		t.Errorf("no access-log line for the PIX page:\n%s", logs)
	}
	// The document whole, masked or not: a bare "529" also turns up in random request ids.
	for _, secret := range []string{orderID(pay), "s3cr3t", "hunter2", "Maria", "529.982.247-25", "52998224725"} {
		if strings.Contains(logs, secret) {
			t.Errorf("the log holds %q:\n%s", secret, logs)
		}
	}
}

// TestEveryUnsafeRouteRefusesCrossSite walks the route table: every route of an unsafe method
// but the webhook receiver (server to server, signed) refuses a cross-site request, and nothing
// changes.
func TestEveryUnsafeRouteRefusesCrossSite(t *testing.T) {
	e := newEnv(t)
	routes, ok := e.web.Handler().(chi.Routes)
	if !ok {
		t.Fatal("the handler is not a chi route table")
	}
	pay := e.placeOrder()
	cart := e.newCart("ebook-receitas-do-cerrado", "1")
	fill := strings.NewReplacer("{orderID}", orderID(pay), "{cartID}", strings.TrimPrefix(cart, "/cart/"), "{productID}", "ebook-receitas-do-cerrado")
	checked := 0
	err := chi.Walk(routes, func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		switch method {
		case http.MethodGet, http.MethodHead, http.MethodOptions:
			return nil
		}
		if route == web.WebhookPath {
			return nil
		}
		if strings.HasPrefix(route, web.APIPrefix+"/") {
			// The merchant API authenticates by a bearer key, never a cookie: a cross-site
			// request carries no credential (TestAPICrossSite checks it gets 401 as JSON).
			return nil
		}
		checked++
		path := fill.Replace(route)
		form := url.Values{"product_id": {"ebook-receitas-do-cerrado"}, "quantity": {"5"}, "action": {"remove"}}
		res := e.do(method, path, strings.NewReader(form.Encode()), "Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example.com")
		res.Body.Close()
		if res.StatusCode != http.StatusForbidden {
			t.Errorf("cross-site %s %s: %d, want 403", method, route, res.StatusCode)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 6 {
		t.Fatalf("only %d unsafe routes found: the walk is broken", checked)
	}
	_, doc := e.get(cart)
	if n := doc.Find(testid("cart-line")).Length(); n != 1 || !strings.Contains(doc.Find(testid("cart-total")).Text(), "29,90") {
		t.Errorf("refused requests changed the cart: %d lines, total %q", n, doc.Find(testid("cart-total")).Text())
	}
	if st := e.status(pay); st["status"] != "awaiting_payment" {
		t.Errorf("refused requests changed the order: %v", st)
	}
}
