package e2e

import (
	"regexp"
	"testing"

	"github.com/playwright-community/playwright-go"
)

// A browser asking for English gets the pages in English, money in the English format, all
// the way to the PIX page; the language link switches back to Portuguese.
func TestEnglishOnRequest(t *testing.T) {
	t.Parallel()
	a, s := setup(t, appOptions{}, playwright.BrowserNewContextOptions{Locale: playwright.String("en-US")})
	s.open(a.url + "/")
	html := s.page.Locator("html")
	cat := shopIn(s).catalogue()
	s.check(s.expect.Locator(html).ToHaveAttribute("lang", regexp.MustCompile(`^en`)), "html lang en")
	s.check(s.expect.Locator(cat.card(digitalProduct)).ToContainText("R$29.90"), "price in English format")
	s.check(s.expect.Locator(cat.card(digitalProduct).GetByTestId("add-to-cart")).ToHaveText("Add to cart"), "English button")
	s.shot("catalogue-en")

	form := cat.add(digitalProduct).checkout()
	form.fillCustomer(validCustomer())
	pix := form.placeOrder()
	s.check(s.expect.Locator(html).ToHaveAttribute("lang", regexp.MustCompile(`^en`)), "PIX page in English")
	s.check(s.expect.Locator(pix.testID("amount")).ToHaveText("R$29.90"), "amount in English format")
	s.shot("pix-en")

	s.check(s.page.Locator(`a[hreflang="pt-BR"]`).Click(), "switch to Portuguese")
	s.check(s.expect.Locator(html).ToHaveAttribute("lang", "pt-BR"), "html lang pt-BR")
	s.check(s.expect.Locator(pix.testID("amount")).ToHaveText(regexp.MustCompile(`^R\$\s29,90$`)), "amount in Brazilian format")
	s.shot("pix-pt")
}
