package e2e

import (
	"regexp"
	"testing"
)

// On a 390×844 phone the PIX page shows the amount, the countdown and the copy button above the
// fold (the QR code follows: a shopper cannot scan their own screen); the copy button itself
// turns to "Copiado ✓" for a moment; at 1280 px the QR code leads, beside the rest.
func TestPixPageOnAPhone(t *testing.T) {
	t.Parallel()
	opts := phone()
	opts.Permissions = []string{"clipboard-read", "clipboard-write"}
	a, s := setup(t, appOptions{}, opts)
	clock := s.page.Clock()
	s.check(clock.Install(), "install the page's clock")
	s.open(a.url + "/")
	form := shopIn(s).catalogue().add(digitalProduct).checkout()
	form.fillCustomer(validCustomer())
	pix := form.placeOrder()
	// The fold is the phone's only while the page is no wider than the phone.
	s.noHorizontalScroll(s.page, "PIX")
	s.check(s.expect.Locator(pix.testID("copy-code")).ToHaveText("Copiar código Pix"), "the copy button")
	for _, id := range []string{"amount", "countdown", "copy-code"} {
		box, err := pix.testID(id).BoundingBox()
		s.check(err, id+" box")
		if box == nil || box.Y < 0 || box.Y+box.Height > 844 {
			t.Errorf("%s is not above the fold at 390×844: %+v", id, box)
		}
	}
	qr, err := pix.qr().BoundingBox()
	s.check(err, "QR box")
	copyBox, err := pix.testID("copy-code").BoundingBox()
	s.check(err, "copy box")
	if qr.Y < copyBox.Y {
		t.Errorf("the QR code (y=%.0f) comes before the copy button (y=%.0f) on a phone", qr.Y, copyBox.Y)
	}
	s.check(s.expect.Locator(pix.testID("valid-until")).ToHaveText(regexp.MustCompile(`^\d{2}:\d{2}$`)), "valid until hh:mm")
	s.shot("pix-390")
	s.a11y(s.page, "PIX page on a phone")

	s.check(pix.testID("copy-code").Tap(), "tap copy")
	s.check(s.expect.Locator(pix.testID("copy-code")).ToHaveText("Copiado ✓"), "the button says copied")
	s.shot("pix-copied")
	s.check(clock.FastForward(3000), "three seconds on the page's clock")
	s.check(s.expect.Locator(pix.testID("copy-code")).ToHaveText("Copiar código Pix"), "and then is ready again")

	// The same page on a wide screen: the QR code leads (left of the amount).
	wide := s.newPage()
	s.check(wide.SetViewportSize(1280, 800), "wide viewport")
	s.openIn(wide, s.page.URL())
	q, err := wide.GetByTestId("pix-qr").BoundingBox()
	s.check(err, "wide QR box")
	amt, err := wide.GetByTestId("amount").BoundingBox()
	s.check(err, "wide amount box")
	if q.X+q.Width > amt.X {
		t.Errorf("at 1280 px the QR code (x=%.0f..%.0f) does not lead the amount (x=%.0f)", q.X, q.X+q.Width, amt.X)
	}
	s.shotOf(wide, "pix-1280")
}
