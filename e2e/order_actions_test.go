package e2e

import (
	"context"
	"net/http"
	"regexp"
	"testing"

	"github.com/playwright-community/playwright-go"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// placePhysical places an order of the ceramic mug (physical goods, with an address) through
// the domain, paid at the sandbox when pay.
func (a *testApp) placePhysical(t *testing.T, pay bool) *checkout.Order {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), actionTimeout)
	defer cancel()
	svc := a.app.Service()
	c, err := svc.AddToCart(ctx, "", "caneca-de-ceramica", 1)
	if err != nil {
		t.Fatal(err)
	}
	o, err := svc.PlaceOrder(ctx, checkout.PlaceOrderInput{Source: c.ID, RequestKey: checkout.NewRequestKey(c, 0), Lang: "pt-BR",
		Customer: checkout.Customer{Name: "Maria da Silva", Document: "52998224725", Email: "maria@example.com.br", Phone: "11987654321"},
		Address: &checkout.Address{ZipCode: "01310-100", Street: "Avenida Paulista", Number: "1000", Neighborhood: "Bela Vista",
			City: "São Paulo", State: "SP"}})
	if err != nil {
		t.Fatal(err)
	}
	if o = a.withPIXCode(t, ctx, o); pay {
		a.payAtSandbox(t, o)
	}
	return o
}

// payAtSandbox pays the order's current QR code at the sandbox and lets the checkout read it.
func (a *testApp) payAtSandbox(t *testing.T, o *checkout.Order) *checkout.Order {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), actionTimeout)
	defer cancel()
	if err := a.gateway(t).Do(ctx, http.MethodPost, "/sandbox/deposits/"+o.CurrentAttempt().TransactionID+"/pay", nil, nil); err != nil {
		t.Fatal(err)
	}
	res, err := a.app.Service().RefreshFromGateway(ctx, o.ID)
	if err != nil {
		t.Fatalf("reading the payment: %v", err)
	}
	return res
}

// ship ships the order open on its dashboard page through the form: the carrier by its label
// and the tracking code, then waits for the notice.
func (d dashboard) ship(carrier, code string) {
	s := d.s
	s.t.Helper()
	_, err := d.testID("carrier-select").SelectOption(playwright.SelectOptionValues{Labels: &[]string{carrier}})
	s.check(err, "carrier")
	s.check(d.testID("ship-form").Locator(`[name="trackingCode"]`).Fill(code), "tracking code")
	s.check(d.testID("ship").Click(), "ship")
	s.check(s.expect.Locator(d.testID("notice")).ToHaveText("Pedido marcado como enviado."), "shipped notice")
}

// TestOrderActions: in a real browser, a merchant ships a paid order with its tracking code,
// marks it delivered, cancels an order awaiting payment (the shopper's open PIX page turns to
// canceled), adds an internal note, and records, from the refunds page, the refund of the
// payment that still arrived for the canceled order.
func TestOrderActions(t *testing.T) {
	t.Parallel()
	a, s := setup(t, appOptions{}, playwright.BrowserNewContextOptions{})
	a.addMerchant(t)
	d := dashboardOf(s, a)
	d.login(merchantEmail, merchantPassword)

	// Ship with a tracking code: first a tracking code with a space, refused beside its field.
	// The shopper looks at the receipt meanwhile; it follows the order without a reload.
	mug := a.placePhysical(t, true)
	shopper := newSession(t, playwright.BrowserNewContextOptions{})
	shopper.open(a.url + "/pay/" + mug.ID + "/paid")
	shopper.check(shopper.expect.Locator(shopper.page.GetByTestId("order-status")).ToHaveText("Pagamento confirmado"), "the receipt's stage")
	shopper.eval(shopper.page, `() => { window.__noReload = 42; }`)
	s.open(a.url + "/dashboard/orders/" + mug.ID)
	ship := d.testID("ship-form")
	// The carriers by name, "Outra" with its name typed (shown only when chosen).
	s.check(s.expect.Locator(d.testID("carrier-other")).ToBeHidden(), "no free-text carrier before \"Outra\"")
	_, err := d.testID("carrier-select").SelectOption(playwright.SelectOptionValues{Values: &[]string{"other"}})
	s.check(err, "another carrier")
	s.check(s.expect.Locator(d.testID("carrier-other")).ToBeVisible(), "the free-text carrier")
	_, err = d.testID("carrier-select").SelectOption(playwright.SelectOptionValues{Labels: &[]string{"Correios"}})
	s.check(err, "carrier")
	s.check(ship.Locator(`[name="trackingCode"]`).Fill("AA 123"), "tracking code")
	s.check(d.testID("ship").Click(), "ship")
	s.check(s.expect.Locator(ship.Locator(`[data-field="trackingCode"]`)).ToBeVisible(), "the error beside the tracking code")
	s.a11y(s.page, "order with a refused shipment")
	d.ship("Correios", "AA123456789BR")
	s.check(s.expect.Locator(d.testID("fulfilment")).ToContainText("AA123456789BR"), "the tracking code shown")
	s.check(s.expect.Locator(d.testID("tracking-link")).ToHaveAttribute("href", "https://rastreamento.correios.com.br/app/index.php?objetos=AA123456789BR"),
		"the tracking code linked to the Correios' page")
	s.check(s.expect.Locator(d.testID("order-status")).ToHaveText("Enviado"), "the badge says shipped")
	s.check(s.expect.Locator(s.page.Locator(`[data-testid=history-entry]:has([data-code="order_shipped"]) .state`)).ToHaveText("Enviado"), "the history's shipped chip")
	s.a11y(s.page, "shipped order")
	s.shot("shipped")
	shopper.check(shopper.expect.Locator(shopper.page.GetByTestId("order-status")).ToHaveText("Enviado"), "the shopper's receipt says shipped")
	shopper.check(shopper.expect.Locator(shopper.page.GetByTestId("tracking-code")).ToHaveText("AA123456789BR"), "the shopper sees the tracking code")
	shopper.check(shopper.expect.Locator(shopper.page.GetByTestId("tracking-link")).ToHaveAttribute("href", "https://rastreamento.correios.com.br/app/index.php?objetos=AA123456789BR"),
		"the shopper's tracking link")
	if marker := shopper.eval(shopper.page, `() => String(window.__noReload || 0)`); marker != "42" {
		t.Errorf("the shopper's receipt was reloaded (marker %v)", marker)
	}
	shopper.a11y(shopper.page, "the shopper's shipped order")
	shopper.shot("shipped-shopper")

	// Deliver.
	s.check(d.testID("deliver").Click(), "deliver")
	s.check(s.expect.Locator(d.testID("notice")).ToHaveText("Pedido marcado como entregue."), "delivered notice")
	s.check(s.expect.Locator(s.page.Locator(`[data-code="order_delivered"]`)).ToHaveCount(1), "delivered in the timeline")
	s.check(s.expect.Locator(d.testID("deliver-form")).ToHaveCount(0), "no second delivery")
	s.check(s.expect.Locator(d.testID("order-status")).ToHaveText("Entregue"), "the badge says delivered")
	s.check(s.expect.Locator(s.page.Locator(`[data-testid=history-entry]:has([data-code="order_delivered"]) .state`)).ToHaveText("Entregue"), "the history's delivered chip")
	s.a11y(s.page, "delivered order")
	shopper.check(shopper.expect.Locator(shopper.page.GetByTestId("order-status")).ToHaveText("Entregue"), "the shopper's receipt says delivered")

	// The list: a fulfilment column, and a chip for the orders awaiting shipment.
	other := a.placePhysical(t, true)
	s.open(a.url + "/dashboard/orders")
	s.check(s.expect.Locator(s.page.Locator(`[data-testid=order-row][data-id="`+mug.ID+`"] [data-testid=order-fulfilment]`)).ToHaveText("Entregue"), "delivered in the list")
	s.check(s.expect.Locator(s.page.Locator(`[data-testid=order-row][data-id="`+other.ID+`"] [data-testid=order-fulfilment]`)).ToHaveText("Aguardando envio"), "awaiting in the list")
	s.check(d.testID("fulfilment-chip").Click(), "the awaiting-shipment chip")
	s.check(s.expect.Locator(d.testID("fulfilment-chip")).ToHaveAttribute("aria-current", "true"), "the chip on")
	s.check(s.expect.Locator(d.testID("order-row")).ToHaveCount(1), "only the order awaiting shipment")
	s.check(s.expect.Locator(d.testID("order-row")).ToHaveAttribute("data-id", other.ID), "the order awaiting shipment")
	s.a11y(s.page, "orders awaiting shipment")

	// Cancel an order awaiting payment while its shopper looks at the PIX page.
	waiting := a.placeOrder(t, false)
	shopper.open(a.url + "/pay/" + waiting.ID)
	shopper.check(shopper.expect.Locator(shopper.page.GetByTestId("pix-code")).ToBeVisible(), "the shopper's PIX code")
	s.open(a.url + "/dashboard/orders/" + waiting.ID)
	s.check(d.testID("cancel").Click(), "cancel without confirming")
	s.check(s.expect.Locator(d.testID("cancel-form").Locator(`[data-field="confirm"]`)).ToBeVisible(), "the confirmation asked")
	s.check(d.testID("cancel-confirm").Check(), "confirm")
	s.check(d.testID("cancel").Click(), "cancel")
	s.check(s.expect.Locator(d.testID("order-status")).ToHaveText("Pedido cancelado"), "canceled")
	s.a11y(s.page, "canceled order")
	// The shopper's open page follows; a fresh visit shows the same, no QR code.
	shopper.check(shopper.expect.Locator(shopper.page.GetByTestId("canceled")).ToBeVisible(), "the shopper's page turned canceled")
	shopper.open(a.url + "/pay/" + waiting.ID)
	shopper.check(shopper.expect.Locator(shopper.page.GetByTestId("canceled")).ToBeVisible(), "canceled page")
	shopper.check(shopper.expect.Locator(shopper.page.GetByTestId("pix-qr")).ToHaveCount(0), "no QR code")
	shopper.a11y(shopper.page, "the shopper's canceled page")
	shopper.shot("canceled-shopper")

	// An internal note.
	s.check(d.testID("note-text-input").Fill("Cliente avisou que pagou por engano"), "note")
	s.check(d.testID("add-note").Click(), "add the note")
	s.check(s.expect.Locator(d.testID("note-text")).ToHaveText("Cliente avisou que pagou por engano"), "the note in the timeline")

	// The canceled order's code is paid all the same: a refund due, recorded from the refunds page.
	paid := a.payAtSandbox(t, waiting)
	if paid.Status != checkout.StatusCanceled || paid.RefundDue != paid.Amount {
		t.Fatalf("the late payment: %s, refund due %d", paid.Status, paid.RefundDue)
	}
	// The shopper's open canceled page no longer says not to pay: the shop returns the payment.
	shopper.check(shopper.expect.Locator(shopper.page.GetByTestId("refund-due")).ToContainText("depois que o pedido foi cancelado"), "the shopper told of the return")
	shopper.check(shopper.expect.Locator(shopper.page.GetByTestId("canceled-text")).ToHaveCount(0), "no \"do not pay\" left")
	shopper.a11y(shopper.page, "the shopper's canceled and paid order")
	s.open(a.url + "/dashboard")
	s.check(s.expect.Locator(d.testID("refunds-due").GetByTestId("figure-value")).ToHaveText("R$ 29,90"), "refunds due on the overview")
	s.a11y(s.page, "overview with refunds due")
	s.check(d.testID("refunds-due").Locator("a").First().Click(), "to the refunds page")
	s.check(s.expect.Page(s.page).ToHaveURL(regexp.MustCompile(`/dashboard/refunds$`)), "the refunds page")
	row := s.page.Locator(`[data-testid="refund-due"][data-id="` + waiting.ID + `"]`)
	s.check(s.expect.Locator(row.GetByTestId("payer")).ToBeVisible(), "the payer's PIX data")
	s.a11y(s.page, "refunds page")
	s.shot("refunds")
	s.check(row.Locator(`[name="refundAmount"]`).Fill("29,90"), "amount")
	s.check(row.Locator(`[name="endToEnd"]`).Fill("D00000000202611250000abcdefghijk"), "end-to-end id")
	s.check(row.GetByTestId("record-refund").Click(), "record the refund")
	s.check(s.expect.Locator(d.testID("notice")).ToHaveText("Devolução registrada."), "refund notice")
	s.check(s.expect.Locator(d.testID("refunds-none")).ToBeVisible(), "nothing left to refund")
	s.open(a.url + "/dashboard/orders/" + waiting.ID)
	s.check(s.expect.Locator(d.testID("refund-recorded")).ToHaveCount(1), "the refund on the order")
}
