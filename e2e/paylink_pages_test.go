package e2e

import (
	"regexp"
	"strings"
	"testing"

	"github.com/playwright-community/playwright-go"
)

// TestPaymentLinkPagesSayWhatIsSold: the new-link form shows only the fields of the kind
// chosen, without JavaScript (CSS alone), and an empty fixed amount is named as such; the
// link's dashboard page shows its QR code and, while the public URL is a loopback address (as
// in tests), warns that phones cannot open it, as the poster does; the fixed link's page shows
// the link's title and the description the merchant typed.
func TestPaymentLinkPagesSayWhatIsSold(t *testing.T) {
	t.Parallel()
	a, s := setup(t, appOptions{}, playwright.BrowserNewContextOptions{JavaScriptEnabled: playwright.Bool(false)})
	a.addMerchant(t)
	d := dashboardOf(s, a)
	d.login(merchantEmail, merchantPassword)

	s.open(a.url + "/dashboard/links")
	form := d.testID("link-form")
	field := func(name string) playwright.Locator { return form.Locator(`[name="` + name + `"]`) }
	shown := func(kind string, visible, hidden []string) {
		t.Helper()
		for _, n := range visible {
			s.check(s.expect.Locator(field(n)).ToBeVisible(), kind+": "+n+" shown")
		}
		for _, n := range hidden {
			s.check(s.expect.Locator(field(n)).ToBeHidden(), kind+": "+n+" hidden")
		}
	}
	shown("fixed (the default)", []string{"amount", "description"}, []string{"min", "max", "product_1", "quantity_1"})
	s.check(d.testID("link-kind-custom").Check(), "a typed amount")
	shown("custom", []string{"min", "max", "description"}, []string{"amount", "product_1"})
	s.check(d.testID("link-kind-items").Check(), "products")
	shown("items", []string{"product_1", "quantity_1", "description"}, []string{"amount", "min"})
	s.check(d.testID("link-kind-fixed").Check(), "a fixed amount")

	s.check(field("title").Fill("Aula individual"), "title")
	s.check(field("description").Fill("Aula individual no estúdio"), "description")
	s.check(d.testID("link-submit").Click(), "create without an amount")
	s.check(s.expect.Locator(form.Locator(`[data-testid=field-error][data-field=amount]`)).ToHaveText("Preencha o valor fixo que o cliente paga."), "the missing amount named")
	s.check(field("amount").Fill("80,00"), "amount")
	s.check(d.testID("link-submit").Click(), "create the link")
	s.check(s.expect.Locator(d.testID("notice")).ToBeVisible(), "created")
	linkURL, err := d.testID("link-url").InputValue()
	s.check(err, "the link's address")
	s.check(s.expect.Locator(d.testID("link-qr")).ToBeVisible(), "the link's QR code on its page")
	s.check(s.expect.Locator(d.testID("link-loopback")).ToContainText("localhost ou 127.0.0.1"), "the loopback warning")
	s.shot("link-page")

	poster := d.testID("poster-link").First()
	href, err := poster.GetAttribute("href")
	s.check(err, "the poster's address")
	res, err := s.page.Request().Get(a.url + href)
	s.check(err, "the poster")
	body, err := res.Text()
	s.check(err, "the poster's SVG")
	if !strings.Contains(body, `data-testid="poster-loopback"`) {
		t.Errorf("the poster does not warn of its loopback address:\n%s", body)
	}

	// The shopper's page of the fixed link says what is sold.
	shopper := newSession(t, playwright.BrowserNewContextOptions{})
	shopper.open(linkURL)
	h := shopIn(shopper)
	shopper.check(shopper.expect.Locator(h.testID("paylink-title")).ToHaveText("Aula individual"), "the link's title")
	shopper.check(shopper.expect.Locator(h.testID("paylink-description")).ToHaveText("Aula individual no estúdio"), "the link's description")
	shopper.check(shopper.expect.Page(shopper.page).ToHaveTitle(regexp.MustCompile(`^Aula individual`)), "the page's title")
	shopper.a11y(shopper.page, "fixed link")
	shopper.shot("fixed-link")

	// axe on the dashboard pages touched, with scripts.
	js := newSession(t, playwright.BrowserNewContextOptions{})
	jd := dashboardOf(js, a)
	jd.login(merchantEmail, merchantPassword)
	js.open(a.url + "/dashboard/links")
	js.a11y(js.page, "links")
	js.check(jd.testID("link-row").First().Locator("a").First().Click(), "open the link")
	js.check(js.expect.Locator(jd.testID("link-qr")).ToBeVisible(), "the QR code")
	js.a11y(js.page, "link")
}
