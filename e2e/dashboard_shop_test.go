package e2e

import (
	"regexp"
	"testing"

	"github.com/playwright-community/playwright-go"
)

// TestDashboardShop: the overview's figures and chart, the order list and an order's page, and
// a product made in the dashboard that the shop sells at once; every page accessible, at 1280
// and at 390 px.
func TestDashboardShop(t *testing.T) {
	t.Parallel()
	a, s := setup(t, appOptions{}, playwright.BrowserNewContextOptions{})
	a.addMerchant(t)
	paid := a.placeOrder(t, true)
	a.placeOrder(t, false)
	d := dashboardOf(s, a)
	d.login(merchantEmail, merchantPassword)

	s.open(a.url + "/dashboard")
	s.check(s.expect.Locator(d.testID("paid-today").GetByTestId("figure-value")).ToHaveText("R$ 29,90"), "paid today")
	s.check(s.expect.Locator(d.testID("awaiting").GetByTestId("figure-value")).ToHaveText("1"), "awaiting payment")
	s.check(s.expect.Locator(d.testID("conversion").GetByTestId("figure-value")).ToHaveText("50,0 %"), "conversion")
	s.check(s.expect.Locator(s.page.Locator(`[data-testid="chart"] rect.bar`)).ToHaveCount(30), "30 bars")
	s.a11y(s.page, "overview")
	s.shot("overview")

	// The order list, searched by the customer's CPF as typed, then the paid order's page.
	s.open(a.url + "/dashboard/orders")
	d.fill("q", "529.982.247-25")
	d.tick("status", "paid")
	d.submitFilter()
	if got := d.rowIDs("order-row"); len(got) != 1 || got[0] != paid.ID {
		t.Fatalf("orders %v, want [%s]", got, paid.ID)
	}
	s.a11y(s.page, "orders")
	s.shot("orders")
	s.check(s.page.Locator(`[data-testid="order-row"] a`).First().Click(), "open the order")
	s.check(s.expect.Locator(d.testID("order-status")).ToHaveText("Pagamento confirmado"), "the order's state")
	s.check(s.expect.Locator(d.testID("attempt")).ToHaveCount(1), "its attempt")
	s.a11y(s.page, "order")
	s.shot("order")
	// The document masked; the owner shows it in full, for that answer only.
	s.check(s.expect.Locator(d.testID("customer")).ToContainText("***.982.247-**"), "the document masked")
	s.check(d.testID("show-personal").Click(), "show the document in full")
	s.check(s.expect.Locator(d.testID("customer")).ToContainText("529.982.247-25"), "the document in full")
	s.check(s.expect.Locator(d.testID("personal-shown")).ToBeVisible(), "said shown in full")
	s.a11y(s.page, "order shown in full")

	// A new product, then the shop sells it.
	s.open(a.url + "/dashboard/products")
	form := d.testID("product-form")
	s.check(form.Locator(`[name="title"]`).Fill("Caderno pautado"), "title")
	s.check(form.Locator(`[name="unit_price"]`).Fill("24,5"), "price")
	s.check(d.testID("product-submit").Click(), "add the product")
	s.check(s.expect.Locator(d.testID("notice")).ToBeVisible(), "notice")
	s.check(s.expect.Locator(s.page.Locator(`[data-testid="product-row"][data-id="caderno-pautado"]`)).ToContainText("R$ 24,50"), "the new row")
	s.a11y(s.page, "products")
	s.shot("products")
	// Its edit page is headed by the form's title.
	s.check(s.page.Locator(`[data-testid="product-row"][data-id="caderno-pautado"] a`).First().Click(), "edit the new product")
	s.check(s.expect.Locator(s.page.Locator("h1")).ToHaveText(regexp.MustCompile(`Caderno pautado`)), "the edit page's h1")
	s.a11y(s.page, "product edit")
	s.shot("product-edit")
	s.open(a.url + "/")
	s.check(s.expect.Locator(s.page.GetByTestId("product-card").Filter(playwright.LocatorFilterOptions{HasText: "Caderno pautado"})).ToHaveCount(1), "in the shop")

	// Settings: an API key made in the page is shown once.
	s.open(a.url + "/dashboard/settings")
	s.check(d.testID("new-key-form").Locator(`[name="name"]`).Fill("site"), "key name")
	s.check(d.testID("create-key").Click(), "create a key")
	s.check(s.expect.Locator(d.testID("new-key-value")).ToHaveValue(regexp.MustCompile(`^pxk_`)), "the new key")
	s.a11y(s.page, "settings")
	s.shot("settings")

	// The same pages at 390 px.
	s.check(s.page.SetViewportSize(390, 844), "390 px")
	for _, p := range []string{"/dashboard", "/dashboard/orders", "/dashboard/orders/" + paid.ID, "/dashboard/products", "/dashboard/settings"} {
		s.open(a.url + p)
		s.noHorizontalScroll(s.page, p)
		s.a11y(s.page, p+" at 390 px")
	}
	s.open(a.url + "/dashboard")
	s.shot("overview-390")
	s.check(s.expect.Page(s.page).ToHaveURL(regexp.MustCompile(`/dashboard$`)), "overview")
}
