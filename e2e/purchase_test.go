package e2e

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/playwright-community/playwright-go"

	"github.com/pixcheckout/pixcheckout/gatewayclient/brcode"
)

// A digital purchase from the catalogue to paid. The PIX page stays open while the payment is
// made from a second tab (as from the shopper's phone, through sandbox-pay); the open page must
// turn to paid by itself, through its live status, with no reload.
func TestDigitalPurchaseTurnsPaidWithoutReload(t *testing.T) {
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

	// From here on, any navigation of this page is recorded; the status element logs its
	// changes to sessionStorage, which survives a navigation of the same tab.
	navs := watchNavigations(s.page)
	s.eval(s.page, `() => {
		window.__marker = 1;
		const el = document.querySelector('[data-testid="order-status"]');
		new MutationObserver(() => {
			const log = JSON.parse(sessionStorage.getItem("statusLog") || "[]");
			log.push(el.getAttribute("data-status"));
			sessionStorage.setItem("statusLog", JSON.stringify(log));
		}).observe(el, {attributes: true, childList: true, characterData: true, subtree: true});
	}`)

	payer := s.newPage()
	s.openIn(payer, pixURL)
	other := pixPage{shopInPage(s, payer)}
	other.waitActive()
	s.shotOf(payer, "second-tab-before-pay")
	s.check(other.payButton().Click(), "click sandbox-pay in the second tab")
	other.waitPaid()

	pix.waitPaid()
	s.check(s.expect.Page(s.page).ToHaveURL(regexp.MustCompile(`/pay/[^/]+/paid`)), "paid URL")
	s.a11y(s.page, "paid")
	s.shot("paid")

	// The open page was never reloaded: either it swapped its content in place (the marker
	// survives), or its script saw "paid" and then went to the receipt, in one navigation.
	got := navs.list()
	switch len(got) {
	case 0:
		if v := s.eval(s.page, `() => window.__marker`); toInt(v) != 1 {
			t.Errorf("the page was replaced without a navigation request: marker %v", v)
		}
	default:
		if len(got) != 1 || !strings.HasPrefix(got[0], "GET ") || !strings.HasSuffix(strings.SplitN(got[0], "?", 2)[0], "/paid") {
			t.Errorf("after the payment the open page navigated %q; want only the script's GET of the paid page (no reload, no form post)", got)
		}
		var log []string
		raw, _ := s.eval(s.page, `() => sessionStorage.getItem("statusLog") || "[]"`).(string)
		if err := json.Unmarshal([]byte(raw), &log); err != nil {
			t.Fatalf("status log %q: %v", raw, err)
		}
		if !slices.Contains(log, "paid") {
			t.Errorf("the PIX page's status never showed paid before leaving (status log %q): the change did not reach the open page", log)
		}
	}
	if n := navs.count("GET "+pixURL, "POST "+pixURL); n != 0 {
		t.Errorf("the PIX page was reloaded %d times", n)
	}

	deps := a.deposits(t)
	if len(deps) != 1 {
		t.Fatalf("sandbox holds %d deposits, want 1", len(deps))
	}
	if deps[0].Amount != digitalPrice || deps[0].Status != "PAID" {
		t.Errorf("deposit: amount %d status %s, want %d PAID", deps[0].Amount, deps[0].Status, digitalPrice)
	}
}

// The QR image decodes to exactly the copy-and-paste code, both as served and as displayed,
// and that code is a BR Code for the order's amount.
func TestQRDecodesToPixCode(t *testing.T) {
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
	shot, err := pix.qr().Screenshot()
	s.check(err, "screenshot of pix-qr")
	shown, err := decodeQR(shot)
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
