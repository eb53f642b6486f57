package e2e

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"

	"github.com/pixcheckout/pixcheckout/checkout/charges"
	"github.com/pixcheckout/pixcheckout/checkout/mail/mailtest"
)

// chargeLinkRe finds the link to a charge's customer page in an e-mail.
var chargeLinkRe = regexp.MustCompile(`https?://[^\s"<>]+/c/[A-Za-z0-9_-]+`)

// TestChargePaidFromItsReminder: the merchant makes a charge in the dashboard; the e-mail of
// its issue reaches the real SMTP server with the charge's link in both parts; the customer
// follows the link, pays with the sandbox from the usual PIX page and sees the receipt. The
// shop's clock stands at noon in São Paulo, whatever the hour.
func TestChargePaidFromItsReminder(t *testing.T) {
	t.Parallel()
	smtp := mailtest.Start(t)
	a, s := setup(t, appOptions{smtp: smtp}, playwright.BrowserNewContextOptions{})
	a.addMerchant(t)
	due := charges.AddDays(a.noonTomorrow(), 10)

	d := dashboardOf(s, a)
	d.login(merchantEmail, merchantPassword)
	s.open(a.url + "/dashboard/charges")
	form := d.testID("charge-form")
	for name, value := range map[string]string{"customer.name": "Maria da Silva", "customer.document": "529.982.247-25",
		"customer.email": "maria@example.com", "description": "Mensalidade da escola", "amount": "450,00", "dueDate": due.String()} {
		s.check(form.Locator(`input[name="`+name+`"]`).Fill(value), "fill "+name)
	}
	s.check(d.testID("charge-submit").Click(), "make the charge")
	s.check(s.expect.Page(s.page).ToHaveURL(regexp.MustCompile(`/dashboard/charges/[A-Za-z0-9_-]+\?done=created$`)), "the charge's page")

	issued := smtp.Next(t, actionTimeout)
	if len(issued.To) != 1 || issued.To[0] != "maria@example.com" || !strings.HasPrefix(issued.Subject, "Cobrança de ") {
		t.Fatalf("the first e-mail: to %v, %q; want the charge's issue", issued.To, issued.Subject)
	}
	link := chargeLinkRe.FindString(issued.Text)
	if !strings.HasPrefix(link, a.url+"/c/") || !strings.Contains(issued.HTML, `href="`+link+`"`) ||
		!strings.Contains(issued.Text, "450,00") {
		t.Fatalf("the issue's e-mail: link %q (want %s/c/… in both parts), text:\n%s", link, a.url, issued.Text)
	}
	id := strings.TrimPrefix(link, a.url+"/c/")

	customer := newSession(t, playwright.BrowserNewContextOptions{})
	customer.open(link)
	h := shopIn(customer)
	customer.check(customer.expect.Locator(h.testID("charge-balance")).ToContainText("450,00"), "the amount due today")
	customer.check(h.testID("charge-pay").Click(), "pay with PIX")
	pix := pixPage{h}
	pix.waitActive()
	customer.check(pix.payButton().Click(), "pay in the sandbox")
	pix.waitPaid()
	customer.shot("charge-paid-from-reminder")
	// The charge counts its order's payment once the order's change is committed: a moment
	// after the receipt may show.
	var got charges.Charge
	var err error
	for end := time.Now().Add(actionTimeout); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if got, err = a.app.Charges().Charge(context.Background(), id); err != nil || got.Status == charges.StatusPaid {
			break
		}
	}
	if err != nil || got.Status != charges.StatusPaid || got.Paid != 45000 {
		t.Fatalf("the charge after its payment: %+v, %v", got, err)
	}
}
