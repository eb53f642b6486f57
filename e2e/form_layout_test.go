package e2e

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"sync/atomic"
	"testing"

	"github.com/playwright-community/playwright-go"
)

// phone is a 390×844 touch screen.
func phone() playwright.BrowserNewContextOptions {
	return playwright.BrowserNewContextOptions{
		Viewport:          &playwright.Size{Width: 390, Height: 844},
		DeviceScaleFactor: playwright.Float(2),
		IsMobile:          playwright.Bool(true),
		HasTouch:          playwright.Bool(true),
	}
}

// On a phone, typing a CEP fills the street, neighbourhood, city and state in (the embedded
// sandbox's built-in table), says so in a live region and moves on to the number; an unknown CEP
// leaves the fields to the shopper, saying so right under the CEP, above a link to the
// Correios' search for shoppers who do not know theirs.
func TestCEPLookupFillsTheAddress(t *testing.T) {
	t.Parallel()
	a, s := setup(t, appOptions{}, phone())
	s.open(a.url + "/")
	form := shopIn(s).catalogue().add(physicalProduct).checkout()
	s.check(form.field("zip_code").PressSequentially("01310100"), "type the CEP")
	for name, want := range map[string]string{"street": "Avenida Paulista", "neighborhood": "Bela Vista", "city": "São Paulo", "state": "SP"} {
		s.check(s.expect.Locator(form.field(name)).ToHaveValue(want), name+" filled from the CEP")
	}
	s.check(s.expect.Locator(form.testID("cep-status")).ToHaveText("Endereço preenchido pelo CEP. Confira e informe o número."), "status says so")
	s.check(s.expect.Locator(form.field("number")).ToBeFocused(), "focus on the number")
	s.shot("cep-filled")

	// What the shopper typed is never overwritten by a later lookup; what the lookup wrote is.
	s.check(form.field("street").Fill("Rua que eu digitei"), "type a street")
	// A lookup that answers after the shopper went on to another field leaves the focus there:
	// what they type next must not land in the number.
	release := make(chan struct{})
	held := regexp.MustCompile(`20040020$`)
	s.check(s.page.Route(held, func(r playwright.Route) {
		go func() { <-release; _ = r.Continue() }()
	}), "hold the lookup")
	s.check(form.field("zip_code").Fill(""), "clear the CEP")
	s.check(form.field("zip_code").PressSequentially("20040020"), "another CEP")
	s.check(form.field("complement").Focus(), "on to the complement while the lookup runs")
	close(release)
	s.check(s.expect.Locator(form.field("city")).ToHaveValue("Rio de Janeiro"), "city replaced")
	s.check(s.expect.Locator(form.field("street")).ToHaveValue("Rua que eu digitei"), "typed street kept")
	s.check(s.expect.Locator(form.field("complement")).ToBeFocused(), "the focus left where the shopper went")
	s.check(s.page.Unroute(held), "release the route")

	s.check(form.field("zip_code").Fill(""), "clear the CEP")
	s.check(form.field("zip_code").PressSequentially("12345678"), "unknown CEP")
	s.check(s.expect.Locator(form.testID("cep-status")).ToHaveText("Não encontramos esse CEP: preencha o endereço."), "unknown CEP said")
	// Said where the shopper looks, right under the CEP, with the way to find one.
	zip, err := form.field("zip_code").BoundingBox()
	s.check(err, "CEP box")
	status, err := form.testID("cep-status").BoundingBox()
	s.check(err, "status box")
	if gap := status.Y - (zip.Y + zip.Height); gap < 0 || gap > 24 || status.X+status.Width <= zip.X || status.X >= zip.X+zip.Width {
		t.Errorf("the CEP's status at (%.0f,%.0f) is not right under the CEP field (%.0f,%.0f %.0fx%.0f)", status.X, status.Y, zip.X, zip.Y, zip.Width, zip.Height)
	}
	finder := form.testID("cep-finder")
	s.check(s.expect.Locator(finder).ToHaveAttribute("href", "https://buscacepinter.correios.com.br/app/endereco/index.php"), "the Correios' CEP search")
	s.check(s.expect.Locator(finder).ToHaveAttribute("target", "_blank"), "in a new tab (a frame cannot show it, and the form stays)")
	s.check(s.expect.Locator(finder).ToHaveAccessibleName("Não sabe o CEP? Consulte nos Correios (abre em nova aba)"), "the link says where it goes")
	s.tappable(finder, "the Correios' CEP search")
	link, err := finder.BoundingBox()
	s.check(err, "link box")
	number, err := form.field("number").BoundingBox()
	s.check(err, "number box")
	if link.Y < status.Y+status.Height || link.Y+link.Height > number.Y {
		t.Errorf("the link to the Correios (y=%.0f) is not between the status (y=%.0f) and the number (y=%.0f)", link.Y, status.Y, number.Y)
	}
	s.a11y(s.page, "customer form with the CEP's status")
	s.shot("cep-unknown")

	form.fillCustomer(validCustomer())
	s.check(form.field("zip_code").Fill("01310-100"), "CEP")
	s.check(form.field("number").Fill("1578"), "number")
	form.placeOrder()
}

// At 1280 px the order summary stands beside the form (the form on the left); at 390 px it comes
// first, above the form.
func TestOrderSummaryBesideTheFormOnWideScreens(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		opts   playwright.BrowserNewContextOptions
		beside bool
	}{
		{"wide", playwright.BrowserNewContextOptions{Viewport: &playwright.Size{Width: 1280, Height: 800}}, true},
		{"phone", phone(), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a, s := setup(t, appOptions{}, tc.opts)
			s.open(a.url + "/")
			form := shopIn(s).catalogue().add(physicalProduct).checkout()
			f, err := form.form().BoundingBox()
			s.check(err, "form box")
			sum, err := s.page.GetByTestId("order-summary").BoundingBox()
			s.check(err, "summary box")
			beside := sum.X >= f.X+f.Width && sum.Y < f.Y+f.Height
			above := sum.Y+sum.Height <= f.Y
			if tc.beside && !beside {
				t.Errorf("summary at (%.0f,%.0f %.0fx%.0f), form at (%.0f,%.0f %.0fx%.0f): not beside it", sum.X, sum.Y, sum.Width, sum.Height, f.X, f.Y, f.Width, f.Height)
			}
			if !tc.beside && !above {
				t.Errorf("summary at y=%.0f..%.0f, form from y=%.0f: not above it", sum.Y, sum.Y+sum.Height, f.Y)
			}
			s.noHorizontalScroll(s.page, "customer form")
			s.shot("customer-form")
		})
	}
}

// Inside a cross-site iframe, where Chromium blocks autofocus, the error summary of a refused
// form still gets the focus (from script) and is scrolled into view.
func TestErrorSummaryFocusedInCrossSiteIframe(t *testing.T) {
	t.Parallel()
	var checkoutURL atomic.Pointer[string]
	host := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_ = hostPage.Execute(w, *checkoutURL.Load())
	}))
	t.Cleanup(host.Close)
	a, s := setup(t, appOptions{host: "localhost", frameAncestors: []string{host.URL}},
		playwright.BrowserNewContextOptions{Viewport: &playwright.Size{Width: 1280, Height: 1400}})
	checkoutURL.Store(&a.url)
	s.open(host.URL + "/")
	form := shopInFrame(s, "iframe#checkout").catalogue().add(physicalProduct).checkout()
	c := validCustomer()
	c.Document = "529.982.247-26"
	form.fillCustomer(c)
	form.submit()
	s.check(s.expect.Locator(form.errorSummary()).ToBeVisible(), "error summary in the frame")
	frame := checkoutFrame(t, s, a.url)
	s.check(s.expect.Locator(form.errorSummary()).ToBeFocused(), "focus in the frame on the error summary")
	if v, err := frame.Evaluate(`() => { const r = document.querySelector("[data-testid=error-summary]").getBoundingClientRect(); return r.top > -1 && r.top < window.innerHeight; }`); err != nil || v != true {
		t.Errorf("the error summary is not in view in the frame: %v %v", v, err)
	}
	s.shot("frame-error-summary")
}
