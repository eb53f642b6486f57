package e2e

import (
	"html/template"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/playwright-community/playwright-go"
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
