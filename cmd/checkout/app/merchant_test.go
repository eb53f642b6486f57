package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout/apikeys"
	"github.com/pixcheckout/pixcheckout/checkout/notify"
	"github.com/pixcheckout/pixcheckout/checkout/settings"
	"github.com/pixcheckout/pixcheckout/cmd/checkout/app"
	"github.com/pixcheckout/pixcheckout/gatewayclient/webhook"
	"github.com/pixcheckout/pixcheckout/web/apijson"
)

// testSecret signs the merchant notifications of these tests.
const testSecret = "whsec_dGVzdC1tZXJjaGFudC1ub3RpZmljYXRpb25zLXNlY3JldCE="

// receiver is a merchant's notification endpoint: it fails its first `failures` requests with
// a 503, verifies every request's signature and keeps what it received.
type receiver struct {
	mu       sync.Mutex
	failures int
	got      []received
	arrived  chan struct{}
}

type received struct {
	id, typ string
	status  int // what the receiver answered
	verify  error
	order   apijson.Order
}

func newReceiver(failures int) *receiver {
	return &receiver{failures: failures, arrived: make(chan struct{}, 100)}
}

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	// Standard Webhooks: the signature covers id, timestamp and body, with the whsec_ secret.
	verify := (&webhook.Verifier{Secret: testSecret}).Verify(r.Header, body)
	var ev struct {
		Type string        `json:"type"`
		Data apijson.Order `json:"data"`
	}
	_ = json.Unmarshal(body, &ev)
	rc.mu.Lock()
	status := http.StatusNoContent
	if len(rc.got) < rc.failures {
		status = http.StatusServiceUnavailable
	}
	rc.got = append(rc.got, received{id: r.Header.Get("webhook-id"), typ: ev.Type, status: status, verify: verify, order: ev.Data})
	rc.mu.Unlock()
	w.WriteHeader(status)
	rc.arrived <- struct{}{}
}

// wait waits until n requests arrived and returns them.
func (rc *receiver) wait(t *testing.T, n int) []received {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		rc.mu.Lock()
		got := append([]received(nil), rc.got...)
		rc.mu.Unlock()
		if len(got) >= n {
			return got
		}
		select {
		case <-rc.arrived:
		case <-deadline:
			t.Fatalf("%d notifications arrived, want %d: %+v", len(got), n, got)
		}
	}
}

// api sends a merchant API request with key and decodes the answer's JSON into out.
func (r *running) api(key, method, path string, body any, out any) int {
	r.t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, r.app.URL()+"/api/v1"+path, rd)
	req.Header.Set("Authorization", "Bearer "+key)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := r.http.Do(req)
	if err != nil {
		r.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			r.t.Fatalf("%s %s: %d %s", method, path, res.StatusCode, b)
		}
	}
	return res.StatusCode
}

// TestMerchantFlowThroughTheApp: a key made in the store opens the API; a session made through
// it is placed by the shopper and paid at the gateway; the merchant's URL (configured) gets the
// signed notifications in order, the first one only on its third attempt; the delivery log
// says so; a revoked key is refused.
func TestMerchantFlowThroughTheApp(t *testing.T) {
	t.Parallel()
	rc := newReceiver(2)
	hooks := httptest.NewServer(rc)
	defer hooks.Close()
	r := start(t, func(c *app.Config) {
		c.ReconcileInterval = 0 // the sandbox's webhook alone tells the checkout
		c.MerchantWebhookURL, c.MerchantWebhookSecret = hooks.URL+"/pix?token=t0ken", testSecret
		c.NotificationSchedule = []time.Duration{100 * time.Millisecond, 100 * time.Millisecond, time.Hour}
	})
	ctx := context.Background()
	secret, rec, err := r.app.APIKeys().Create(ctx, "loja", apikeys.ScopeWrite, nil)
	if err != nil {
		t.Fatal(err)
	}
	var sess apijson.CheckoutSession
	status := r.api(secret, "POST", "/checkout-sessions", map[string]any{
		"items":       []any{map[string]any{"title": "Curso de fotografia", "unitPrice": 12990, "type": "DIGITAL"}},
		"embedOrigin": "https://loja.example.com", "externalCode": "pedido-42", "metadata": map[string]any{"cliente": "7"},
	}, &sess)
	if status != http.StatusCreated || sess.Status != "open" || sess.Amount != 12990 || !strings.Contains(sess.URL, "/s/"+sess.ID) {
		t.Fatalf("creating a session: %d %+v", status, sess)
	}
	// The shopper submits the session's form; the order is paid at the gateway.
	res := r.post("/s/"+sess.ID, url.Values{"name": {"João Souza"}, "document": {"52998224725"},
		"email": {"joao@example.com"}, "phone": {"11987654321"}})
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("placing the session's order: %d", res.StatusCode)
	}
	pay := res.Header.Get("Location")
	r.payAtGateway(pay)

	got := rc.wait(t, 4) // awaiting_payment: 503, 503, 204; then paid: 204
	var seen []string
	for _, g := range got {
		if g.verify != nil {
			t.Errorf("notification %s does not verify with the secret: %v", g.id, g.verify)
		}
		seen = append(seen, g.typ)
	}
	if strings.Join(seen, ",") != "order.awaiting_payment,order.awaiting_payment,order.awaiting_payment,order.paid" {
		t.Fatalf("notifications arrived as %v", seen)
	}
	if got[0].id != got[2].id || got[2].id == got[3].id || got[2].status != http.StatusNoContent {
		t.Errorf("the retries do not keep their webhook-id, or the third attempt was not accepted: %+v", got)
	}
	paid := got[3].order
	if paid.Status != "paid" || paid.SessionID != sess.ID || paid.ExternalCode != "pedido-42" || paid.AmountPaid != 12990 ||
		paid.Metadata["cliente"] != "7" || paid.DepositID == "" {
		t.Errorf("order.paid carries %+v", paid)
	}

	// The session, as the merchant's server reads it.
	var after apijson.CheckoutSession
	if r.api(secret, "GET", "/checkout-sessions/"+sess.ID, nil, &after); after.Status != "paid" || after.OrderID != paid.ID {
		t.Errorf("session after payment: %+v", after)
	}
	// The delivery log: the first notification delivered at its third attempt, the URL
	// without its query string.
	var one apijson.NotificationDetail
	if st := r.api(secret, "GET", "/notifications/"+got[0].id, nil, &one); st != 200 || one.Status != notify.NotificationDelivered ||
		one.Attempts != 3 || len(one.DeliveryAttempts) != 3 || one.DeliveryAttempts[0].StatusCode != 503 ||
		strings.Contains(one.DeliveryAttempts[2].URL, "t0ken") || one.DeliveryAttempts[2].StatusCode != 204 {
		t.Errorf("delivery log of the first notification: %d %+v", st, one)
	}

	if err := r.app.APIKeys().Revoke(ctx, rec.ID); err != nil {
		t.Fatal(err)
	}
	if st := r.api(secret, "GET", "/checkout-sessions/"+sess.ID, nil, nil); st != http.StatusUnauthorized {
		t.Errorf("a revoked key: %d, want 401", st)
	}
}

// TestSettingsFrameOriginsReachTheCSP: origins saved in the merchant's settings may frame the
// shopper pages at once; never the API.
func TestSettingsFrameOriginsReachTheCSP(t *testing.T) {
	t.Parallel()
	r := start(t, func(c *app.Config) { c.FrameAncestors = []string{"https://config.example.com"} })
	res, _ := r.get("/")
	if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors 'self' https://config.example.com") ||
		strings.Contains(csp, "shop.example.com") {
		t.Fatalf("CSP before the settings: %q", csp)
	}
	if _, err := r.app.MerchantSettings().Update(context.Background(), settings.Input{
		FrameOrigins: []string{"https://shop.example.com"}}); err != nil {
		t.Fatal(err)
	}
	res, _ = r.get("/")
	if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors 'self' https://config.example.com https://shop.example.com") ||
		res.Header.Get("X-Frame-Options") != "" {
		t.Errorf("CSP after the settings: %q (X-Frame-Options %q)", csp, res.Header.Get("X-Frame-Options"))
	}
	res, _ = r.get("/api/v1/openapi.json")
	if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors 'none'") {
		t.Errorf("the API's CSP: %q", csp)
	}
}

// TestMerchantWebhookURLNeedsASecret: a configured URL without any secret stops the start,
// naming the variable.
func TestMerchantWebhookURLNeedsASecret(t *testing.T) {
	t.Parallel()
	cfg, err := app.Load(func(string) string { return "" }, []string{"-data-dir", t.TempDir(), "-addr", "127.0.0.1:0",
		"-merchant-webhook-url", "https://hooks.example.com/pix"})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	a, err := app.New(context.Background(), cfg, ln)
	var ce *app.ConfigError
	if !errors.As(err, &ce) || ce.Var != "CHECKOUT_MERCHANT_WEBHOOK_SECRET" {
		if a != nil {
			_ = a.Close()
		}
		t.Fatalf("New = %v, want a ConfigError naming CHECKOUT_MERCHANT_WEBHOOK_SECRET", err)
	}
}

// TestDemoMerchantPage: in sandbox mode a second origin serves the demo merchant page, whose
// server makes a session through the API, framed by that origin, and mounts it with embed.js.
func TestDemoMerchantPage(t *testing.T) {
	t.Parallel()
	var banner strings.Builder
	r := start(t, func(c *app.Config) { c.Stdout = &banner })
	demo := r.app.DemoURL()
	if demo == "" || !strings.Contains(banner.String(), "demo merchant:   "+demo) || !strings.Contains(banner.String(), "/api/v1") {
		t.Fatalf("demo URL %q, banner %q", demo, banner.String())
	}
	u, _ := url.Parse(demo)
	if u.Port() == "" || strings.HasSuffix(r.app.URL(), ":"+u.Port()) {
		t.Fatalf("the demo page %s is not on a port of its own (checkout at %s)", demo, r.app.URL())
	}
	res, err := r.http.Get(demo)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	loc := res.Header.Get("Location")
	if res.StatusCode != http.StatusSeeOther || !strings.HasPrefix(loc, app.DemoPath+"/") {
		t.Fatalf("GET %s: %d %q", demo, res.StatusCode, loc)
	}
	res, err = r.http.Get(u.Scheme + "://" + u.Host + loc)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(res.Body)
	res.Body.Close()
	id := strings.TrimPrefix(strings.SplitN(loc, "?", 2)[0], app.DemoPath+"/")
	html := string(page)
	if res.StatusCode != 200 || !strings.Contains(html, `data-pix-checkout="http://localhost:`) || !strings.Contains(html, "/s/"+id) ||
		!strings.Contains(html, "/embed.js") || !strings.Contains(html, `aria-live="polite"`) {
		t.Fatalf("demo page: %d\n%s", res.StatusCode, html)
	}
	if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-src http://localhost:") {
		t.Errorf("demo page CSP %q", csp)
	}
	// Amounts are written in the page's language: R$ 29,90 in Portuguese, R$29.90 in English.
	for lang, want := range map[string]*regexp.Regexp{
		"pt-BR": regexp.MustCompile(`<strong class="money">R\$ \d{1,3}(\.\d{3})*,\d\d</strong>`),
		"en":    regexp.MustCompile(`<strong class="money">R\$\d{1,3}(,\d{3})*\.\d\d</strong>`),
	} {
		res, err := r.http.Get(u.Scheme + "://" + u.Host + app.DemoPath + "/" + id + "?lang=" + lang)
		if err != nil {
			t.Fatal(err)
		}
		page, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if !want.Match(page) {
			t.Errorf("demo page in %s: no total like %s\n%s", lang, want, page)
		}
	}
	// The session's page may be framed by the demo's origin.
	sres, _ := r.get("/s/" + id)
	if csp := sres.Header.Get("Content-Security-Policy"); sres.StatusCode != 200 || !strings.Contains(csp, "frame-ancestors 'self' http://"+u.Host) {
		t.Errorf("session page: %d, CSP %q", sres.StatusCode, csp)
	}
	// The merchant's server view of the session.
	res, err = r.http.Get(u.Scheme + "://" + u.Host + app.DemoPath + "/" + id + "/server")
	if err != nil {
		t.Fatal(err)
	}
	var view struct {
		Session struct{ Status string } `json:"session"`
	}
	_ = json.NewDecoder(res.Body).Decode(&view)
	res.Body.Close()
	if view.Session.Status != "open" {
		t.Errorf("server view: %+v", view)
	}
}
