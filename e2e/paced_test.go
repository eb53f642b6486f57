package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"

	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// With the gateway's transaction limit used up, placing an order does not freeze the shopper
// for the 429's Retry-After: the PIX page opens at once saying the QR code is being generated
// (a live status, no code to copy yet, a two-second refresh without JavaScript), and turns into
// the QR page by itself once the checkout's background completion got its turn — with one
// gateway transaction for the order.
func TestQRCodeBeingGeneratedWhileTheGatewayPaces(t *testing.T) {
	t.Parallel()
	a, s := setup(t, appOptions{env: map[string]string{"CHECKOUT_SANDBOX_RATE_LIMIT": "1/4s burst 1"}},
		playwright.BrowserNewContextOptions{})
	s.open(a.url + "/")
	form := shopIn(s).catalogue().add(digitalProduct).checkout()
	form.fillCustomer(validCustomer())

	// The one transaction the gateway grants for the next four seconds goes elsewhere.
	ctx, cancel := context.WithTimeout(context.Background(), actionTimeout)
	defer cancel()
	if _, err := a.gateway(t).CreateTransaction(ctx, gatewayclient.CreateTransactionRequest{Amount: 1990,
		PaymentMethod: gatewayclient.PaymentMethodPIX, IdempotencyKey: "e2e-uses-the-burst", Pix: &gatewayclient.PixRequest{}}); err != nil {
		t.Fatalf("using up the gateway's limit: %v", err)
	}

	start := time.Now()
	form.submit()
	pix := pixPage{form.shop}
	pending := s.page.GetByTestId("qr-pending")
	s.check(s.expect.Locator(pending).ToBeVisible(), "the page says the QR code is being generated")
	s.check(s.expect.Locator(pix.status()).ToHaveAttribute("data-status", "pending"), "order-status pending")
	s.check(s.expect.Locator(pix.status()).ToHaveAttribute("aria-live", "polite"), "order-status is a polite live region")
	s.check(s.expect.Locator(pix.code()).ToHaveCount(0), "no code to copy yet")
	s.check(s.expect.Locator(pix.qr()).ToHaveCount(0), "no QR code yet")
	// With scripts on, a <noscript>'s content is text: the refresh is read from it.
	if got, _ := s.eval(s.page, `() => document.querySelector('head noscript').textContent`).(string); !strings.Contains(got, `http-equiv="refresh" content="2"`) {
		t.Errorf("the no-JavaScript refresh is %q, want every 2 seconds", got)
	}
	if waited := time.Since(start); waited > 3*time.Second {
		t.Logf("the pending page took %v to show (a slow machine?)", waited)
	}
	s.a11y(s.page, "PIX pending")
	s.shot("pix-pending")

	// Nobody touches the page: it turns into the QR code by itself.
	s.check(s.expect.Locator(pix.qr()).ToBeVisible(playwright.LocatorAssertionsToBeVisibleOptions{Timeout: ms(20 * time.Second)}), "the QR code appears by itself")
	pix.waitActive()
	s.check(s.expect.Locator(pix.status()).ToHaveAttribute("data-status", "awaiting_payment"), "order awaiting payment")
	s.check(s.expect.Locator(pending).ToHaveCount(0), "the pending message is gone")
	s.shot("pix-after-pending")

	code := pix.codeText()
	n := 0
	for _, d := range a.deposits(t) {
		if d.PixResponse != nil && d.PixResponse.URI == code {
			n++
		}
	}
	if deps := a.deposits(t); len(deps) != 2 || n != 1 {
		t.Errorf("%d deposits, %d of them the order's; want the one that used up the limit and the order's", len(deps), n)
	}
}
