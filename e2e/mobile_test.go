package e2e

import (
	"regexp"
	"testing"

	"github.com/playwright-community/playwright-go"
)

// minTarget is the smallest size of a touch target, in CSS pixels (WCAG 2.2, 2.5.8 AA).
const minTarget = 24

// On a 390×844 phone (touch, mobile viewport) every page of the flow, the receipt included, is
// no wider than the screen, and the QR code and the buttons can be reached and tapped.
func TestPhoneViewport(t *testing.T) {
	t.Parallel()
	a, s := setup(t, appOptions{}, playwright.BrowserNewContextOptions{
		Viewport:          &playwright.Size{Width: 390, Height: 844},
		DeviceScaleFactor: playwright.Float(2),
		IsMobile:          playwright.Bool(true),
		HasTouch:          playwright.Bool(true),
	})
	s.open(a.url + "/")
	if w := toInt(s.eval(s.page, `() => window.innerWidth`)); w != 390 {
		t.Fatalf("viewport width %d, want 390 (is the viewport meta tag there?)", w)
	}
	cat := shopIn(s).catalogue()
	s.noHorizontalScroll(s.page, "catalogue")
	s.shot("catalogue")

	add := cat.card(physicalProduct).GetByTestId("add-to-cart")
	s.tappable(add, "add-to-cart")
	s.check(add.Tap(), "tap add-to-cart")
	cart := cartPage{cat.shop}
	s.check(s.expect.Locator(cart.lines()).ToHaveCount(1), "one cart-line")
	s.noHorizontalScroll(s.page, "cart")
	s.shot("cart")

	form := cart.checkout()
	s.noHorizontalScroll(s.page, "customer form")
	s.shot("customer-form")
	form.fillCustomer(validCustomer())
	form.fillAddress(validAddress())
	s.tappable(form.testID("place-order"), "place-order")
	pix := form.placeOrder()
	s.noHorizontalScroll(s.page, "PIX")
	box, err := pix.qr().BoundingBox()
	s.check(err, "QR box")
	if box.X < 0 || box.X+box.Width > 390 || box.Width < 150 {
		t.Errorf("QR at x=%.0f width %.0f: not whole and readable inside 390 px", box.X, box.Width)
	}
	s.check(s.expect.Locator(pix.testID("copy-code")).ToBeVisible(), "copy-code")
	s.tappable(pix.testID("copy-code"), "copy-code")
	s.shot("pix")

	s.tappable(pix.payButton(), "sandbox-pay")
	s.check(pix.payButton().Tap(), "tap sandbox-pay")
	pix.waitPaid()
	// The receipt (the paid page) fits the phone: the payee, its CNPJ and the end-to-end id are
	// long words that must wrap, not push the page wider.
	s.check(s.expect.Page(s.page).ToHaveURL(regexp.MustCompile(`/pay/[^/]+/paid$`)), "the receipt's address")
	s.noHorizontalScroll(s.page, "receipt")
	for _, sel := range []string{`.receipt-facts dd`, `[data-testid="end-to-end"]`} {
		boxes := s.eval(s.page, `(sel) => [...document.querySelectorAll(sel)].map(e => e.getBoundingClientRect().right)`, sel).([]any)
		if len(boxes) == 0 {
			t.Errorf("the receipt has no %s", sel)
		}
		for _, right := range boxes {
			if toFloat(right) > 390 {
				t.Errorf("the receipt's %s ends at x=%v, past the 390 px screen", sel, right)
			}
		}
	}
	s.shot("paid")
}

// tappable fails the test when l is smaller than a touch target.
func (s *session) tappable(l playwright.Locator, what string) {
	s.t.Helper()
	s.check(l.ScrollIntoViewIfNeeded(), "scroll to "+what)
	box, err := l.BoundingBox()
	s.check(err, what+" box")
	if box == nil || box.Width < minTarget || box.Height < minTarget {
		s.t.Errorf("%s is %+v: smaller than a %d px touch target", what, box, minTarget)
	}
}
