package e2e

import (
	"context"
	"net/http"
	"regexp"
	"testing"

	"github.com/playwright-community/playwright-go"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// TestPaymentLinkSoldTwiceThenDeactivated: the merchant makes a payment link in the
// dashboard; a shopper, in a browser context of their own, opens its address, types the amount
// and pays it twice (two orders, both tagged with the link, listed on the link's page); the
// merchant deactivates it and the shopper's next visit is refused in words (410).
func TestPaymentLinkSoldTwiceThenDeactivated(t *testing.T) {
	t.Parallel()
	a, s := setup(t, appOptions{}, playwright.BrowserNewContextOptions{})
	a.addMerchant(t)
	d := dashboardOf(s, a)
	d.login(merchantEmail, merchantPassword)

	s.open(a.url + "/dashboard/links")
	form := d.testID("link-form")
	s.check(form.Locator(`[name="title"]`).Fill("Doação para a horta"), "title")
	s.check(d.testID("link-kind-custom").Check(), "a typed amount")
	s.check(form.Locator(`[name="min"]`).Fill("5,00"), "minimum")
	s.check(form.Locator(`[name="max"]`).Fill("5.000,00"), "maximum")
	s.check(form.Locator(`[name="slug"]`).Fill("horta"), "slug")
	s.check(d.testID("link-submit").Click(), "create the link")
	s.check(s.expect.Locator(d.testID("notice")).ToBeVisible(), "created")
	s.check(s.expect.Locator(d.testID("link-url")).ToHaveValue(regexp.MustCompile(`/l/horta$`)), "the link's address")
	linkURL, err := d.testID("link-url").InputValue()
	s.check(err, "read the address")
	dashLink := s.page.URL()
	s.a11y(s.page, "link page")
	s.shot("link-page")

	// The shopper, in a context of their own: two payments of typed amounts.
	shopper := newSession(t, playwright.BrowserNewContextOptions{})
	for i, typed := range []string{"R$ 1.234,56", "12.5"} {
		shopper.open(linkURL)
		h := shopIn(shopper)
		h.visible(h.testID("paylink-amount"), "the amount input")
		shopper.check(h.testID("paylink-amount").Fill(typed), "type the amount")
		shopper.check(h.testID("paylink-continue").Click(), "continue")
		want := []string{"R$ 1.234,56", "R$ 12,50"}[i]
		shopper.check(shopper.expect.Locator(h.testID("order-summary")).ToContainText(want), "the amount shown back")
		if i == 0 {
			shopper.a11y(shopper.page, "link customer form")
			shopper.shot("link-form")
		}
		f := customerForm{h}
		f.fillCustomer(validCustomer())
		pix := f.placeOrder()
		shopper.check(pix.payButton().Click(), "pay in the sandbox")
		pix.waitPaid()
		shopper.shot("paid-" + []string{"1", "2"}[i])
	}

	l, err := a.app.Service().LinkBySlug(context.Background(), "horta")
	if err != nil {
		t.Fatal(err)
	}
	orders, err := a.app.Service().Orders(context.Background(), checkout.OrderFilter{LinkID: l.ID})
	if err != nil || len(orders) != 2 {
		t.Fatalf("orders of the link: %d, %v; want 2", len(orders), err)
	}
	for _, o := range orders {
		if o.Status != checkout.StatusPaid || o.LinkID != l.ID {
			t.Errorf("order %s: %s, link %q", o.Number, o.Status, o.LinkID)
		}
	}

	// The merchant sees both payments, then deactivates the link.
	s.open(dashLink)
	s.check(s.expect.Locator(d.testID("link-order")).ToHaveCount(2), "two payments listed")
	s.check(s.expect.Locator(d.testID("link-payments")).ToContainText("1.247,06"), "their total")
	s.check(d.testID("link-deactivate").Click(), "deactivate")
	s.check(s.expect.Locator(d.testID("link-status")).ToHaveText("Desativado"), "deactivated")

	// A third visit is refused, in words.
	resp, err := shopper.page.Goto(linkURL)
	shopper.check(err, "open the deactivated link")
	if resp.Status() != http.StatusGone {
		t.Errorf("the deactivated link answers %d, want 410", resp.Status())
	}
	h := shopIn(shopper)
	shopper.check(shopper.expect.Locator(h.testID("paylink-closed")).ToContainText("desativado"), "says it was deactivated")
	shopper.check(shopper.expect.Locator(h.testID("paylink-amount")).ToHaveCount(0), "no amount to type")
	shopper.a11y(shopper.page, "closed link")
	shopper.shot("closed")

	// The merchant's pages at 390 px.
	s.check(s.page.SetViewportSize(390, 844), "390 px")
	for _, p := range []string{"/dashboard/links", dashLink} {
		if p == dashLink {
			s.open(p)
		} else {
			s.open(a.url + p)
		}
		s.noHorizontalScroll(s.page, p)
		s.a11y(s.page, p+" at 390 px")
	}
	s.shot("link-page-390")
}
