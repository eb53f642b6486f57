package e2e

import (
	"context"
	"testing"

	"github.com/playwright-community/playwright-go"
)

// TestHardBrandColours: whatever brand colour a merchant picks — white, yellow, light grey,
// black, pure red, each as brand and accent — the catalogue, the PIX page and the paid page
// (with a note whose address is a link) pass axe-core's WCAG A and AA rules in the light and
// in the dark colour scheme. The widths alternate between a phone's and a wide screen's, so
// that both are covered. One app: the colour is saved through its store manager between rounds.
func TestHardBrandColours(t *testing.T) {
	t.Parallel()
	a, s := setup(t, appOptions{}, playwright.BrowserNewContextOptions{Viewport: &playwright.Size{Width: 390, Height: 844}})

	// An order left to pay (its PIX page) and one paid (its receipt), drawn again each round.
	s.open(a.url + "/")
	pix := shopIn(s).catalogue().add(digitalProduct).checkout()
	pix.fillCustomer(validCustomer())
	pixURL := pix.placeOrder().s.page.URL()
	s.open(a.url + "/")
	paying := shopIn(s).catalogue().add(digitalProduct).checkout()
	paying.fillCustomer(validCustomer())
	paid := paying.placeOrder()
	s.check(paid.payButton().Click(), "sandbox-pay")
	paid.waitPaid()
	paidURL := s.page.URL()

	ctx := context.Background()
	widths := []int{390, 1280}
	for i, colour := range []string{"#ffffff", "#ffff00", "#d3d3d3", "#000000", "#ff0000"} {
		p, err := a.app.Brand().Get(ctx)
		s.check(err, "the store's face")
		p.BrandColor, p.AccentColor = colour, colour
		p.Note = "Trocas em 7 dias: https://loja.example/trocas\nDúvidas? Escreva-nos."
		p.Thanks = "Obrigado por comprar conosco!"
		_, _, err = a.app.Brand().Save(ctx, p)
		s.check(err, "save "+colour)
		w := widths[i%2]
		s.check(s.page.SetViewportSize(w, 900), "width")
		for _, scheme := range []*playwright.ColorScheme{playwright.ColorSchemeLight, playwright.ColorSchemeDark} {
			s.check(s.page.EmulateMedia(playwright.PageEmulateMediaOptions{ColorScheme: scheme}), "colour scheme")
			where := colour + " " + itoa(w) + " " + string(*scheme)
			for _, page := range []struct{ name, url, testid string }{
				{"catalogue", a.url + "/", "product-card"},
				{"PIX page", pixURL, "pix-code"},
				{"paid page", paidURL, "store-thanks"},
			} {
				s.open(page.url)
				s.check(s.expect.Locator(s.page.GetByTestId(page.testid).First()).ToBeVisible(), where+": "+page.name)
				s.a11y(s.page, where+": "+page.name)
			}
		}
	}
}
