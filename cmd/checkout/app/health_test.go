package app_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/cmd/checkout/app"
	"github.com/pixcheckout/pixcheckout/web/dashboard"
)

// readyz reads /readyz: its status and body.
func (r *running) readyz() (int, map[string]string) {
	r.t.Helper()
	res, err := r.http.Get(r.app.URL() + "/readyz")
	if err != nil {
		r.t.Fatal(err)
	}
	defer res.Body.Close()
	var body map[string]string
	if err := json.NewDecoder(res.Body).Decode(&body); err != nil {
		r.t.Fatalf("/readyz body: %v", err)
	}
	return res.StatusCode, body
}

// waitGateway waits until /readyz says the gateway is want ("ok" or "failing"), checking that
// every answer meanwhile is 200: a gateway outage never takes the instance out of the balancer.
func (r *running) waitGateway(want string) map[string]string {
	r.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		status, body := r.readyz()
		if status != http.StatusOK {
			r.t.Fatalf("/readyz answered %d (%v) while the database works", status, body)
		}
		if body["gateway"] == want {
			return body
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("/readyz's gateway stayed %q (%v), want %q", body["gateway"], body, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestGatewayOutageAndBack drives the sandbox's fault controls through an outage and back, of
// both kinds (every request answered 503; every request hanging past its deadline): /readyz
// stays 200 and its gateway field turns failing (with the cause) and back to ok, as
// checkout_gateway_up does; the dashboard shows a banner with the cause meanwhile; a shopper
// ordering during the outage gets, within a bounded time, an honest page instead of an endless
// "being generated", with a retry; shoppers' page views and the reconciler leave the failing
// gateway alone (no thundering herd: no transaction is attempted while it fails); when the
// gateway returns, every order placed during the outage gets its QR code by itself.
func TestGatewayOutageAndBack(t *testing.T) {
	t.Parallel()
	t.Run("5xx", func(t *testing.T) {
		outageAndBack(t, map[string]any{"kind": "unavailable", "count": 10000}, 0, "server_error", "erros internos")
	})
	t.Run("timeouts", func(t *testing.T) {
		// 2 s: far below the fault's minute, and above what the in-process sandbox takes to
		// answer on a loaded machine (at 300 ms the probe failed there before the fault).
		outageAndBack(t, map[string]any{"kind": "latency", "latencyMs": 60000, "count": 10000}, 2*time.Second, "timeout", "não responde a tempo")
	})
}

// outageAndBack is TestGatewayOutageAndBack with the fault given; probeTimeout is how long
// the probe waits (0: the default, 10 s).
func outageAndBack(t *testing.T, fault map[string]any, probeTimeout time.Duration, cause, bannerWords string) {
	var banner strings.Builder
	r := start(t, func(c *app.Config) {
		c.Stdout = &banner
		c.GatewayProbeInterval = 100 * time.Millisecond
		c.GatewayProbeTimeout = probeTimeout
		c.ReconcileInterval = 100 * time.Millisecond
		c.ShopperGatewayTimeout = 500 * time.Millisecond
		c.MetricsAddr = "127.0.0.1:0"
	})
	m := firstPassword.FindStringSubmatch(banner.String())
	if m == nil {
		t.Fatalf("no first user in the banner: %s", banner.String())
	}
	token := r.signIn(m[1], m[2])

	if _, body := r.readyz(); body["gateway"] != "ok" || body["database"] != "ok" {
		t.Fatalf("/readyz at start: %v", body)
	}

	// The outage: every gateway request, the token's included, fails.
	if err := r.app.Gateway().Do(context.Background(), http.MethodPost, "/sandbox/faults", fault, nil); err != nil {
		t.Fatal(err)
	}
	body := r.waitGateway("failing")
	if body["gatewayCause"] != cause || body["gatewaySince"] == "" {
		t.Errorf("/readyz during the outage: %v, want the cause %s and since when", body, cause)
	}
	fams := r.scrape()
	if v := value(fams, "checkout_gateway_up"); v != 0 {
		t.Errorf("checkout_gateway_up %v during the outage, want 0", v)
	}
	req, _ := http.NewRequest(http.MethodGet, r.app.URL()+"/dashboard", nil)
	req.AddCookie(&http.Cookie{Name: dashboard.Cookie, Value: token})
	doc := r.getDoc(req)
	if b := doc.Find(`[data-testid="gateway-failing"]`); b.Length() != 1 || b.AttrOr("data-cause", "") != cause ||
		!strings.Contains(b.Text(), bannerWords) {
		t.Errorf("dashboard banner during the outage: %q", b.Text())
	}

	// Shoppers during the outage: their orders are kept, their pages say so honestly, at once.
	creates := func() float64 {
		n := 0.0
		for _, m := range r.scrape()["checkout_gateway_request_duration_seconds"].GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "operation" && l.GetValue() == "create_transaction" {
					n += float64(m.GetHistogram().GetSampleCount())
				}
			}
		}
		return n
	}
	createsBefore := creates()
	var pays []string
	for range 3 {
		began := time.Now()
		pays = append(pays, r.placeOrder())
		if d := time.Since(began); d > 5*time.Second {
			t.Errorf("placing an order during the outage took %v", d)
		}
	}
	for range 3 { // shoppers reloading their pages
		for _, pay := range pays {
			_, doc := r.get(pay)
			if doc.Find(`[data-testid="qr-unavailable"]`).Length() != 1 || doc.Find(`[data-testid="qr-pending"]`).Length() != 0 {
				t.Errorf("the PIX page during the outage is not the honest one: %q", doc.Find("main").Text())
			}
			if !strings.Contains(doc.Text(), "Não foi possível gerar o Pix agora") {
				t.Errorf("the PIX page does not say the PIX code could not be made")
			}
			if href := doc.Find(`[data-testid="retry-pix"]`).AttrOr("href", ""); href != pay {
				t.Errorf("retry link %q, want the page itself %q", href, pay)
			}
			if status := doc.Find(`[data-testid="order-status"]`).AttrOr("data-status", ""); status != "pending" {
				t.Errorf("status %q during the outage, want pending", status)
			}
		}
	}
	_, en := r.get(pays[0] + "?lang=en")
	if !strings.Contains(en.Text(), "We could not create the PIX code right now") {
		t.Errorf("the English page does not say it: %q", en.Find("main").Text())
	}
	if n := creates() - createsBefore; n != 0 {
		t.Errorf("%v transactions attempted while the gateway was known to fail, want none", n)
	}
	skipped := 0.0
	for _, m := range r.scrape()["checkout_reconciler_passes_total"].GetMetric() {
		for _, l := range m.GetLabel() {
			if l.GetName() == "result" && l.GetValue() == "skipped" {
				skipped += m.GetCounter().GetValue()
			}
		}
	}
	if skipped == 0 {
		t.Errorf("no reconciliation pass was skipped during the outage: %v", r.scrape()["checkout_reconciler_passes_total"])
	}

	// Back: the fault is lifted, the probe sees it, every order completes by itself.
	if err := r.app.Gateway().Do(context.Background(), http.MethodDelete, "/sandbox/faults", nil, nil); err != nil {
		t.Fatal(err)
	}
	r.waitGateway("ok")

	for _, pay := range pays {
		id := strings.TrimPrefix(pay, "/pay/")
		deadline := time.Now().Add(20 * time.Second)
		for {
			o, err := r.app.Service().Order(context.Background(), id)
			if err != nil {
				t.Fatal(err)
			}
			if o.Status == checkout.StatusAwaitingPayment {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("order %s still %s after the gateway came back", o.Number, o.Status)
			}
			time.Sleep(20 * time.Millisecond)
		}
		_, doc := r.get(pay)
		if doc.Find(`[data-testid="pix-code"]`).Text() == "" {
			t.Errorf("no PIX code on %s after the gateway came back", pay)
		}
	}
	if v := value(r.scrape(), "checkout_gateway_up"); v != 1 {
		t.Errorf("checkout_gateway_up %v after the outage, want 1", v)
	}
	if doc := r.getDoc(req); doc.Find(`[data-testid="gateway-failing"]`).Length() != 0 {
		t.Error("the dashboard banner stays after the gateway came back")
	}
}

// getDoc sends req and parses the page.
func (r *running) getDoc(req *http.Request) *goquery.Document {
	r.t.Helper()
	res, err := r.http.Do(req)
	if err != nil {
		r.t.Fatal(err)
	}
	defer res.Body.Close()
	doc, err := goquery.NewDocumentFromReader(res.Body)
	if err != nil {
		r.t.Fatal(err)
	}
	return doc
}
