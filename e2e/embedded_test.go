package e2e

import (
	"context"
	"fmt"
	"html/template"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/web/apijson"
)

// landmarkHost is a merchant's page with landmarks of its own (header, nav, main, footer)
// mounting a session with embed.js; Options are mount's JSON options besides session.
var landmarkHost = template.Must(template.New("landmarks").Parse(`<!DOCTYPE html>
<html lang="pt-BR"><head><meta charset="utf-8"><title>Loja parceira — pagamento</title>
<style>body{margin:0;font:16px system-ui} header,footer{padding:.5rem 1rem;background:#eee} main{padding:0 1rem}</style></head>
<body>
<header><strong>Loja parceira</strong> <nav aria-label="Loja"><a href="/">Início</a> <a href="/cart">Carrinho</a></nav></header>
<main><h1>Pagamento</h1><div id="pix"></div></main>
<footer>Loja parceira, desde 2001</footer>
<script src="{{.Checkout}}/embed.js"></script>
<script>PixCheckout.mount("#pix", Object.assign({session: {{.Session}}}, {{.Options}}));</script>
</body></html>`))

// axeLandmarks runs axe-core's landmark rules on the page and the frames it can reach (axe
// must be loaded in each, and told that frames of another origin may answer), and lists the
// violations.
const axeLandmarks = `async () => {
  axe.configure({ allowedOrigins: ["<unsafe_all_origins>"] });
  const r = await axe.run(document, {
    runOnly: { type: "rule", values: ["landmark-unique", "landmark-no-duplicate-banner",
      "landmark-no-duplicate-contentinfo", "landmark-no-duplicate-main", "landmark-one-main"] },
    resultTypes: ["violations", "passes"], iframes: true,
  });
  return { violations: r.violations.map(v => v.id + ": " + v.nodes.map(n => n.target.join(" ")).join(", ")),
    passes: r.passes.map(p => p.id + ": " + p.nodes.map(n => JSON.stringify(n.target)).join(", ")) };
}`

// TestEmbeddedCheckoutIsThePaymentUIOnly: a session mounted with embed.js on another site's page
// shows only the payment UI: no header, footer or nav inside the frame and exactly one main, on
// the form and on the PIX page, so that axe finds no duplicate landmark on the merchant's page;
// in a 900 px wide frame the QR code is above the fold. mount's lang and summary options reach
// every page of the frame.
func TestEmbeddedCheckoutIsThePaymentUIOnly(t *testing.T) {
	t.Parallel()
	var options atomic.Pointer[string]
	none := "{}"
	options.Store(&none)
	a, s := setup(t, appOptions{host: "localhost", env: map[string]string{"CHECKOUT_MERCHANT_API_KEY": testAPIKey}},
		playwright.BrowserNewContextOptions{Viewport: &playwright.Size{Width: 900, Height: 720}})
	site := newMerchantSite(t, a)
	var sessionURL atomic.Pointer[string]
	host := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_ = landmarkHost.Execute(w, map[string]any{"Checkout": a.url, "Session": *sessionURL.Load(),
			"Options": template.JS(*options.Load())})
	}))
	t.Cleanup(host.Close)
	if !strings.HasPrefix(host.URL, "http://127.0.0.1:") || !strings.HasPrefix(a.url, "http://localhost:") {
		t.Fatalf("the merchant %s and the checkout %s are not on different sites", host.URL, a.url)
	}
	sess := site.createSession(host.URL)
	sessionURL.Store(&sess.URL)

	s.open(host.URL + "/")
	frame := shopInFrame(s, "#pix iframe")
	form := customerForm{frame}
	frame.visible(form.form(), "the session's form in the frame")
	paymentUIOnly := func(where string) {
		t.Helper()
		f := checkoutFrame(t, s, a.url)
		got, err := f.Evaluate(`() => ({
			chrome: document.querySelectorAll("header, footer, nav, [role=banner], [role=contentinfo], [role=navigation]").length,
			main: document.querySelectorAll("main, [role=main]").length,
			langLinks: document.querySelectorAll("a[hreflang]").length,
			summaries: document.querySelectorAll("[data-testid=order-summary]").length,
		})`)
		s.check(err, "landmarks in the frame")
		m := got.(map[string]any)
		if toInt(m["chrome"]) != 0 || toInt(m["main"]) != 1 || toInt(m["langLinks"]) != 0 || toInt(m["summaries"]) != 0 {
			t.Errorf("%s in the frame: %v; want no header/footer/nav, one main, no language links, no summary", where, m)
		}
		// axe, in the merchant's page and the frame, on the merchant's page as a whole.
		_, err = f.Evaluate(suite.axe)
		s.check(err, "axe in the frame")
		_, err = f.Evaluate(`() => axe.configure({ allowedOrigins: ["<unsafe_all_origins>"] })`)
		s.check(err, "axe in the frame answers the merchant's page")
		_, err = s.page.Evaluate(suite.axe)
		s.check(err, "axe in the merchant's page")
		res := s.eval(s.page, axeLandmarks).(map[string]any)
		for _, v := range res["violations"].([]any) {
			t.Errorf("%s: axe on the merchant's page: %v", where, v)
		}
		// The frame's own main was among what landmark-unique checked: axe did reach into it.
		reached := false
		for _, p := range res["passes"].([]any) {
			reached = reached || strings.HasPrefix(p.(string), "landmark-unique:") && strings.Contains(p.(string), `["iframe","#main"]`)
		}
		if !reached {
			t.Errorf("%s: axe's landmark-unique did not check the frame's main: %v", where, res["passes"])
		}
	}
	paymentUIOnly("form")
	s.shot("form-in-frame")

	form.fillCustomer(validCustomer())
	pix := form.placeOrder()
	frame.visible(pix.testID("pix-qr"), "the QR code")
	paymentUIOnly("PIX page")
	// Above the fold: the QR code's bottom within the merchant's window (900×720).
	box, err := pix.testID("pix-qr").BoundingBox()
	s.check(err, "the QR code's box")
	t.Logf("QR code at x=%.0f y=%.0f, %.0f×%.0f px in a 900×720 window", box.X, box.Y, box.Width, box.Height)
	if box.Y+box.Height > 720 || box.Width < 150 {
		t.Errorf("the QR code is not above the fold of a 900 px frame: %+v", box)
	}
	s.shot("pix-in-frame")

	// mount's options: the language and the summary, kept by the frame's pages.
	opts := `{"lang": "en", "summary": true}`
	options.Store(&opts)
	s.open(host.URL + "/")
	frame = shopInFrame(s, "#pix iframe")
	frame.visible(frame.testID("pix-qr"), "the QR code, mounted again")
	s.check(s.expect.Locator(s.page.FrameLocator("#pix iframe").Locator("html")).ToHaveAttribute("lang", "en"), "the frame speaks English")
	s.check(s.expect.Locator(frame.testID("order-summary")).ToBeVisible(), "the summary shown when asked for")
	s.check(s.expect.Locator(frame.root.Locator("header, footer, nav")).ToHaveCount(0), "still no header, footer or nav")
	s.shot("pix-in-frame-en-summary")
}

// TestEmbeddedCheckoutStaysEmbedded: every page an embedded checkout reaches stays the payment
// UI only, inside a cross-site frame on a page whose session has no successUrl (so embed.js
// never navigates the top window): the PIX page, expired (live and reloaded), a new QR code,
// failed, the retry, paid, and — a second session — canceled by the shop. Each is checked for
// no header, footer or nav in the frame and the embedding kept in the frame's URL.
func TestEmbeddedCheckoutStaysEmbedded(t *testing.T) {
	t.Parallel()
	a, s := setup(t, appOptions{host: "localhost", reconcile: 500 * time.Millisecond,
		env: map[string]string{"CHECKOUT_MERCHANT_API_KEY": testAPIKey}}, playwright.BrowserNewContextOptions{})
	site := newMerchantSite(t, a)
	var (
		hostURL string
		loads   atomic.Int32
	)
	host := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		// A new session at each load, without a successUrl.
		var sess apijson.CheckoutSession
		if st := site.api("POST", "/checkout-sessions", map[string]any{
			"items":        []any{map[string]any{"title": "Aula avulsa", "unitPrice": 4500, "type": "DIGITAL"}},
			"externalCode": fmt.Sprintf("pedido-estados-%d", loads.Add(1)), "embedOrigin": hostURL,
			"customer": map[string]any{"name": "Maria da Silva", "email": "maria@example.com.br"},
		}, &sess); st != http.StatusCreated {
			http.Error(w, "no session", http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_ = landmarkHost.Execute(w, map[string]any{"Checkout": a.url, "Session": sess.URL, "Options": template.JS("{}")})
	}))
	t.Cleanup(host.Close)
	hostURL = host.URL
	if !strings.HasPrefix(host.URL, "http://127.0.0.1:") || !strings.HasPrefix(a.url, "http://localhost:") {
		t.Fatalf("the merchant %s and the checkout %s are not on different sites", host.URL, a.url)
	}
	ctx := context.Background()
	// The frame of the iframe now (Page.Frames may still list the frame of a page left).
	frameNow := func() playwright.Frame {
		t.Helper()
		el, err := s.page.Locator("#pix iframe").ElementHandle()
		s.check(err, "the iframe")
		f, err := el.ContentFrame()
		s.check(err, "the iframe's frame")
		return f
	}
	embeddedOnly := func(state string) {
		t.Helper()
		f := frameNow()
		got, err := f.Evaluate(`() => ({
			chrome: document.querySelectorAll("header, footer, nav, [role=banner], [role=contentinfo], [role=navigation]").length,
			main: document.querySelectorAll("main, [role=main]").length,
			embed: new URL(location.href).searchParams.get("embed") || "",
		})`)
		s.check(err, state+": the frame's landmarks")
		m := got.(map[string]any)
		if toInt(m["chrome"]) != 0 || toInt(m["main"]) != 1 || m["embed"] == "" {
			t.Errorf("%s at %s: %v; want no header/footer/nav, one main, ?embed= kept", state, f.URL(), m)
		}
		s.shot("embedded-" + safeName(state))
	}
	orderOf := func() *checkout.Order {
		t.Helper()
		u, err := url.Parse(frameNow().URL())
		s.check(err, "the frame's URL")
		id := strings.TrimPrefix(u.Path, "/pay/")
		if i := strings.IndexByte(id, '/'); i >= 0 {
			id = id[:i]
		}
		o, err := a.app.Service().Snapshot(ctx, id)
		s.check(err, "the frame's order")
		return o
	}

	s.open(host.URL + "/")
	frame := shopInFrame(s, "#pix iframe")
	form := customerForm{frame}
	frame.visible(form.form(), "the session's form in the frame")
	form.fillCustomer(validCustomer())
	pix := form.placeOrder()
	embeddedOnly("PIX page")

	// Expired, as the open page hears it, then as the page is drawn afresh.
	a.clock.Advance(pix.remaining() + time.Minute)
	s.check(s.expect.Locator(pix.status()).ToHaveAttribute("data-status", "expired"), "status expired")
	embeddedOnly("expired live")
	_, err := frameNow().Evaluate(`() => location.reload()`)
	s.check(err, "reload the frame")
	frame.visible(frame.testID("expired"), "the expired page")
	embeddedOnly("expired page")

	s.check(pix.newQR().GetByRole("button").Click(), "click new-qr")
	pix.waitActive()
	embeddedOnly("new QR")

	// The gateway fails the new code: the page goes to the failed page by itself.
	o := orderOf()
	if err := a.gateway(t).Do(ctx, http.MethodPost, "/sandbox/deposits/"+o.CurrentAttempt().TransactionID+"/fail", nil, nil); err != nil {
		t.Fatalf("failing the deposit: %v", err)
	}
	// Not left to the webhook: the test moved the app's clock, which the webhook's timestamp
	// check does not follow.
	if _, err := a.app.Service().RefreshFromGateway(ctx, o.ID); err != nil {
		t.Fatalf("reading the failed deposit: %v", err)
	}
	frame.visible(frame.testID("failed"), "the failed page")
	embeddedOnly("failed")

	s.check(frame.testID("retry").Click(), "retry")
	pix.waitActive()
	embeddedOnly("retried")

	s.check(pix.payButton().Click(), "sandbox-pay")
	pix.waitPaid()
	embeddedOnly("paid")

	// A second session, canceled by the shop while it awaits payment.
	s.open(host.URL + "/")
	frame = shopInFrame(s, "#pix iframe")
	form = customerForm{frame}
	form.fillCustomer(validCustomer())
	pix = form.placeOrder()
	if _, _, err := a.app.Service().CancelOrder(ctx, orderOf().ID); err != nil {
		t.Fatalf("canceling: %v", err)
	}
	frame.visible(frame.testID("canceled"), "the canceled page")
	embeddedOnly("canceled")
}
