package e2e

import (
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/playwright-community/playwright-go"

	"github.com/pixcheckout/pixcheckout/gatewayclient/brcode"
)

// A digital purchase from the catalogue to paid. sandbox-pay is clicked on the PIX page itself:
// its script posts it in the background, and the same page turns to paid through its live status,
// with no reload and no form submission.
func TestDigitalPurchaseTurnsPaidWithoutReload(t *testing.T) {
	t.Parallel()
	a, s := setup(t, appOptions{}, playwright.BrowserNewContextOptions{})
	s.open(a.url + "/")
	h := shopIn(s)

	cat := h.catalogue()
	s.a11y(s.page, "catalogue")
	s.shot("catalogue")

	cart := cat.add(digitalProduct)
	s.check(s.expect.Locator(cart.lines()).ToHaveCount(1), "one cart-line")
	s.check(s.expect.Locator(cart.total()).ToHaveText(regexp.MustCompile(`R\$\s*29,90`)), "cart-total R$ 29,90")
	s.a11y(s.page, "cart")
	s.shot("cart")

	form := cart.checkout()
	s.check(s.expect.Locator(form.addressBlock()).ToHaveCount(0), "no address block for a digital product")
	for _, name := range addressFields {
		s.check(s.expect.Locator(form.field(name)).ToHaveCount(0), "no "+name+" input for a digital product")
	}
	s.a11y(s.page, "customer form")
	s.shot("customer-form")

	form.fillCustomer(validCustomer())
	s.shot("customer-form-filled")
	pix := form.placeOrder()
	s.check(s.expect.Locator(pix.countdown()).ToBeVisible(), "countdown visible")
	s.check(s.expect.Locator(pix.status()).ToHaveAttribute("aria-live", "polite"), "order-status is a polite live region")
	s.check(s.expect.Locator(pix.status()).ToHaveAttribute("data-status", "awaiting_payment"), "order awaiting payment")
	s.check(s.expect.Locator(pix.qr()).ToHaveAttribute("alt", regexp.MustCompile(`\S`)), "pix-qr has an alt text")
	s.a11y(s.page, "PIX")
	s.shot("pix")
	pixURL := s.page.URL()

	navs := watchNavigations(s.page)
	var (
		mu       sync.Mutex
		payPosts []string // "resourceType accept" of each POST to sandbox-pay
	)
	s.page.OnRequest(func(r playwright.Request) {
		if u, _, _ := strings.Cut(r.URL(), "?"); r.Method() == "POST" && strings.HasSuffix(u, "/sandbox-pay") {
			mu.Lock()
			payPosts = append(payPosts, r.ResourceType()+" "+r.Headers()["accept"])
			mu.Unlock()
		}
	})
	watchStatus(s)

	s.check(pix.payButton().Click(), "click sandbox-pay in the same tab")
	pix.waitPaid()
	s.check(s.expect.Page(s.page).ToHaveURL(regexp.MustCompile(`/pay/[^/]+/paid`)), "paid URL")
	s.a11y(s.page, "paid")
	s.shot("paid")

	log := assertTurnedPaidInPlace(s, navs, pixURL)
	// While the payment was in flight the button was disabled and the live status said so.
	busy := slices.ContainsFunc(log, func(e statusEntry) bool {
		return e.Status == "awaiting_payment" && e.Disabled && strings.Contains(e.Text, "Pagamento simulado")
	})
	if !busy {
		t.Errorf("the status never announced the simulated payment with the button disabled (status log %+v)", log)
	}
	mu.Lock()
	posts := slices.Clone(payPosts)
	mu.Unlock()
	if len(posts) != 1 || !strings.HasPrefix(posts[0], "fetch ") || !strings.Contains(posts[0], "application/json") {
		t.Errorf("sandbox-pay requests %q; want one script fetch asking for JSON", posts)
	}

	deps := a.deposits(t)
	if len(deps) != 1 {
		t.Fatalf("sandbox holds %d deposits, want 1", len(deps))
	}
	if deps[0].Amount != digitalPrice || deps[0].Status != "PAID" {
		t.Errorf("deposit: amount %d status %s, want %d PAID", deps[0].Amount, deps[0].Status, digitalPrice)
	}
}

// The PIX page left open turns to paid when the payment is made elsewhere (the shopper's bank
// app: here the sandbox's own control, as a bank would), pushed over its event stream: no
// reload, and no polling of the status endpoint.
func TestOpenPageTurnsPaidWhenPaidElsewhere(t *testing.T) {
	t.Parallel()
	a, s := setup(t, appOptions{}, playwright.BrowserNewContextOptions{})
	var (
		mu            sync.Mutex
		events, polls int
	)
	s.page.OnRequest(func(r playwright.Request) {
		u, _, _ := strings.Cut(r.URL(), "?")
		mu.Lock()
		defer mu.Unlock()
		switch {
		case strings.HasSuffix(u, "/events"):
			events++
		case strings.HasSuffix(u, "/status"):
			polls++
		}
	})
	pix := orderToPix(s, a.url)
	pix.waitActive()
	pixURL := s.page.URL()
	navs := watchNavigations(s.page)
	watchStatus(s)

	deps := a.deposits(t)
	if len(deps) != 1 {
		t.Fatalf("sandbox holds %d deposits, want 1", len(deps))
	}
	ctx, cancel := context.WithTimeout(context.Background(), actionTimeout)
	defer cancel()
	if err := a.gateway(t).Do(ctx, http.MethodPost, "/sandbox/deposits/"+deps[0].ID+"/pay", nil, nil); err != nil {
		t.Fatalf("paying through the sandbox control: %v", err)
	}
	pix.waitPaid()
	s.shot("paid")
	assertTurnedPaidInPlace(s, navs, pixURL)
	mu.Lock()
	defer mu.Unlock()
	if events == 0 || polls != 0 {
		t.Errorf("%d event-stream and %d status requests: want the event stream alone", events, polls)
	}
}

// When the background request of sandbox-pay fails (here the network refuses every script
// request to it), the script falls back to the plain form submission, which still pays.
func TestSandboxPayFallsBackToFormPost(t *testing.T) {
	t.Parallel()
	a, s := setup(t, appOptions{}, playwright.BrowserNewContextOptions{})
	pix := orderToPix(s, a.url)
	pix.waitActive()
	var aborted atomic.Int32
	s.check(s.page.Route("**/sandbox-pay*", func(r playwright.Route) {
		if r.Request().ResourceType() == "fetch" {
			aborted.Add(1)
			_ = r.Abort()
			return
		}
		_ = r.Continue()
	}), "route sandbox-pay")
	navs := watchNavigations(s.page)

	s.check(pix.payButton().Click(), "click sandbox-pay")
	pix.waitPaid()
	s.shot("paid")
	if n := aborted.Load(); n != 1 {
		t.Errorf("%d script requests to sandbox-pay, want 1", n)
	}
	posted := slices.ContainsFunc(navs.list(), func(n string) bool {
		u, _, _ := strings.Cut(n, "?")
		return strings.HasPrefix(u, "POST ") && strings.HasSuffix(u, "/sandbox-pay")
	})
	if !posted {
		t.Errorf("no form post of sandbox-pay after the failed request: navigations %q", navs.list())
	}
	if deps := a.deposits(t); len(deps) != 1 || deps[0].Status != "PAID" {
		t.Errorf("deposits %+v, want one PAID", deps)
	}
}

// statusEntry is one change of the PIX page's order-status, as watchStatus logs it.
type statusEntry struct {
	Status   string `json:"status"`
	Text     string `json:"text"`
	Marker   int    `json:"marker"`
	Disabled bool   `json:"disabled"`
}

// watchStatus marks the open PIX page's document (window.__noReload = 42) and makes it log each
// change of its order-status to sessionStorage, which survives a navigation of the same tab:
// the status, its text, the marker as this document sees it, and whether sandbox-pay is
// disabled. A reload or a form submission would start a new document without the marker and
// without the observer.
func watchStatus(s *session) {
	s.t.Helper()
	s.eval(s.page, `() => {
		window.__noReload = 42;
		sessionStorage.removeItem("statusLog");
		const el = document.querySelector('[data-testid="order-status"]');
		const pay = document.querySelector('[data-testid="sandbox-pay"]');
		new MutationObserver(() => {
			const log = JSON.parse(sessionStorage.getItem("statusLog") || "[]");
			log.push({status: el.getAttribute("data-status"), text: el.textContent.trim(),
				marker: window.__noReload || 0, disabled: !!(pay && pay.disabled)});
			sessionStorage.setItem("statusLog", JSON.stringify(log));
		}).observe(el, {attributes: true, childList: true, characterData: true, subtree: true});
	}`)
}

// assertTurnedPaidInPlace checks, once the paid page shows, that the PIX page at pixURL turned
// to paid without a reload: its status showed paid while the marked document was still there,
// and the only navigation since watchStatus was its script's GET of the paid page (no reload, no
// form post). It returns the status log.
func assertTurnedPaidInPlace(s *session, navs *navigations, pixURL string) []statusEntry {
	s.t.Helper()
	var log []statusEntry
	raw, _ := s.eval(s.page, `() => sessionStorage.getItem("statusLog") || "[]"`).(string)
	if err := json.Unmarshal([]byte(raw), &log); err != nil {
		s.t.Fatalf("status log %q: %v", raw, err)
	}
	if !slices.ContainsFunc(log, func(e statusEntry) bool { return e.Status == "paid" && e.Marker == 42 }) {
		s.t.Errorf("the marked PIX page never showed paid before leaving (status log %+v): it was reloaded, or the change did not reach it", log)
	}
	got := navs.list()
	if len(got) != 1 || !strings.HasPrefix(got[0], "GET ") || !strings.HasSuffix(strings.SplitN(got[0], "?", 2)[0], "/paid") {
		s.t.Errorf("after the payment the PIX page navigated %q; want only the script's GET of the paid page (no reload, no form post)", got)
	}
	if n := navs.count("GET "+pixURL, "POST "+pixURL); n != 0 {
		s.t.Errorf("the PIX page was reloaded %d times", n)
	}
	return log
}

// The QR image decodes to exactly the copy-and-paste code, both as served and as displayed,
// and that code is a BR Code for the order's amount.
func TestQRDecodesToPixCode(t *testing.T) {
	t.Parallel()
	a, s := setup(t, appOptions{}, playwright.BrowserNewContextOptions{})
	s.open(a.url + "/")
	form := shopIn(s).catalogue().add(digitalProduct).checkout()
	form.fillCustomer(validCustomer())
	pix := form.placeOrder()
	s.shot("pix")
	code := pix.codeText()

	// The bytes the browser loaded for the img (its src, fetched through the page's context).
	src := s.eval(s.page, `() => document.querySelector('[data-testid="pix-qr"]').currentSrc`).(string)
	resp, err := s.ctx.Request().Get(src)
	s.check(err, "fetch the QR image")
	if resp.Status() != 200 {
		t.Fatalf("QR image %s: HTTP %d", src, resp.Status())
	}
	body, err := resp.Body()
	s.check(err, "QR image body")
	served, err := decodeQR(body)
	if err != nil {
		t.Fatalf("QR image as served: %v", err)
	}
	if served != code {
		t.Errorf("QR image says\n%q\npix-code says\n%q", served, code)
	}

	// What the shopper sees: a screenshot of the img element as laid out on the page.
	var at shownQR
	layout, err := pix.qr().Evaluate(qrLayoutScript, nil)
	s.check(err, "layout of pix-qr")
	raw, _ := json.Marshal(layout)
	s.check(json.Unmarshal(raw, &at), "layout of pix-qr")
	shot, err := pix.qr().Screenshot()
	s.check(err, "screenshot of pix-qr")
	shown, err := decodeShownQR(shot, body, at)
	if err != nil {
		t.Fatalf("QR image as displayed: %v", err)
	}
	if shown != code {
		t.Errorf("displayed QR says %q, pix-code says %q", shown, code)
	}

	p, err := brcode.Decode(code)
	if err != nil {
		t.Fatalf("pix-code is not a valid BR Code: %v", err)
	}
	if p.Amount != digitalPrice {
		t.Errorf("BR Code amount %d, want %d", p.Amount, digitalPrice)
	}
}
