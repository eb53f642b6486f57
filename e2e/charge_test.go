package e2e

import (
	"context"
	"regexp"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"

	"github.com/pixcheckout/pixcheckout/checkout/charges"
)

// TestChargePaidFromItsPage: the customer opens a charge's page, sees what it asks today,
// pays it with the sandbox from its usual PIX page and sees the receipt; the charge's page then
// leads to that receipt. The shop's clock stands at noon in São Paulo, whatever the hour.
func TestChargePaidFromItsPage(t *testing.T) {
	t.Parallel()
	a, s := setup(t, appOptions{}, playwright.BrowserNewContextOptions{})
	today := a.noonTomorrow()
	c, err := a.app.Charges().Create(context.Background(), "ana@loja.example", "", charges.Input{
		Customer:    charges.Customer{Name: "Maria da Silva", Document: "529.982.247-25", Email: "maria@example.com"},
		Description: "Mensalidade da escola",
		Terms: charges.Terms{Amount: 45000, Due: charges.AddDays(today, 10), FineBps: 200, InterestBpsPerMonth: 100,
			Discount: charges.Discount{Bps: 500, Until: charges.AddDays(today, 5)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	s.open(a.url + "/c/" + c.ID)
	h := shopIn(s)
	s.check(s.expect.Locator(h.testID("charge-description")).ToHaveText("Mensalidade da escola"), "what is billed")
	s.check(s.expect.Locator(h.testID("charge-discount")).ToContainText("22,50"), "the discount")
	s.check(s.expect.Locator(h.testID("charge-balance")).ToContainText("427,50"), "the amount due today")
	s.a11y(s.page, "charge page")
	s.shot("charge-page")
	s.check(h.testID("charge-pay").Click(), "pay with PIX")
	pix := pixPage{h}
	pix.waitActive()
	s.check(pix.payButton().Click(), "pay in the sandbox")
	pix.waitPaid()
	s.shot("charge-paid")
	// The order is paid, and the page says so, the moment its transaction commits; its charge
	// counts the payment in the next one (checkout's settleCharge), a moment later.
	got, err := a.app.Charges().Charge(context.Background(), c.ID)
	for deadline := time.Now().Add(expectTimeout); err == nil && got.Status != charges.StatusPaid && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
		got, err = a.app.Charges().Charge(context.Background(), c.ID)
	}
	if err != nil || got.Status != charges.StatusPaid || got.Paid != 42750 {
		t.Fatalf("the charge after its payment: %+v, %v", got, err)
	}
	s.open(a.url + "/c/" + c.ID)
	s.check(s.expect.Page(s.page).ToHaveURL(regexp.MustCompile(`/pay/[^/]+/paid$`)), "the charge's page leads to the receipt")
	pix.waitPaid()
}
