package e2e

import (
	"regexp"
	"strings"
	"testing"

	"github.com/playwright-community/playwright-go"

	"github.com/pixcheckout/pixcheckout/checkout/mail/mailtest"
)

// orderLinkRe finds the link to a shopper's order page in an e-mail.
var orderLinkRe = regexp.MustCompile(`https?://[^\s"<>]+/pay/[A-Za-z0-9_-]+`)

// TestReceiptLinkFollowsTheOrder: the receipt the real SMTP server received leads the shopper,
// through its link, to the order's page under the public URL, which says the payment is
// confirmed; once the merchant ships the order in the dashboard, that page says "Enviado"
// with the tracking code (live, and again when opened from the e-mail anew).
func TestReceiptLinkFollowsTheOrder(t *testing.T) {
	t.Parallel()
	smtp := mailtest.Start(t)
	a, s := setup(t, appOptions{smtp: smtp}, playwright.BrowserNewContextOptions{})
	a.addMerchant(t)
	mug := a.placePhysical(t, true)

	receipt := smtp.Next(t, actionTimeout)
	if len(receipt.To) != 1 || receipt.To[0] != "maria@example.com.br" || !strings.HasPrefix(receipt.Subject, "Recibo do pedido "+mug.Number) {
		t.Fatalf("the first e-mail: to %v, %q; want the receipt of %s", receipt.To, receipt.Subject, mug.Number)
	}
	link := orderLinkRe.FindString(receipt.Text)
	if link != a.url+"/pay/"+mug.ID || !strings.Contains(receipt.HTML, `href="`+link+`"`) {
		t.Fatalf("the receipt's link %q (text), want %s/pay/%s in both parts", link, a.url, mug.ID)
	}

	shopper := newSession(t, playwright.BrowserNewContextOptions{})
	shopper.open(link)
	status := shopper.page.GetByTestId("order-status")
	shopper.check(shopper.expect.Locator(status).ToHaveText("Pagamento confirmado"), "the order page from the receipt")

	d := dashboardOf(s, a)
	d.login(merchantEmail, merchantPassword)
	s.open(a.url + "/dashboard/orders/" + mug.ID)
	d.ship("Correios", "AA123456789BR")

	shopper.check(shopper.expect.Locator(status).ToHaveText("Enviado"), "the order page says shipped")
	shopper.check(shopper.expect.Locator(shopper.page.GetByTestId("tracking-code")).ToHaveText("AA123456789BR"), "the tracking code")
	shopper.open(link)
	shopper.check(shopper.expect.Locator(status).ToHaveText("Enviado"), "the receipt's link opened again")
	shopper.check(shopper.expect.Locator(shopper.page.GetByTestId("tracking-code")).ToHaveText("AA123456789BR"), "the tracking code again")
	shopper.shot("shipped-from-the-receipt")
}
