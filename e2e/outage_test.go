package e2e

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"
)

// While the gateway fails, a shopper placing an order gets an honest page at once — "não foi
// possível gerar o Pix agora", a retry, the order kept — instead of an endless "Gerando o QR
// Code…"; when the gateway comes back, the page turns into the QR page by itself.
func TestHonestPageDuringAGatewayOutage(t *testing.T) {
	t.Parallel()
	a, s := setup(t, appOptions{probe: 200 * time.Millisecond, reconcile: 200 * time.Millisecond},
		playwright.BrowserNewContextOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), actionTimeout)
	defer cancel()
	gw := a.gateway(t)
	if err := gw.Do(ctx, http.MethodPost, "/sandbox/faults", map[string]any{"kind": "unavailable", "count": 10000}, nil); err != nil {
		t.Fatalf("the outage: %v", err)
	}
	for deadline := time.Now().Add(actionTimeout); a.app.GatewayHealth().OK; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the checkout never saw the gateway fail")
		}
	}

	s.open(a.url + "/")
	form := shopIn(s).catalogue().add(digitalProduct).checkout()
	form.fillCustomer(validCustomer())
	form.submit()
	pix := pixPage{form.shop}
	honest := s.page.GetByTestId("qr-unavailable")
	s.check(s.expect.Locator(honest).ToBeVisible(), "the page says the PIX code could not be made")
	s.check(s.expect.Locator(honest).ToContainText("Não foi possível gerar o Pix agora"), "in words")
	s.check(s.expect.Locator(s.page.GetByTestId("retry-pix")).ToBeVisible(), "with a retry")
	s.check(s.expect.Locator(s.page.GetByTestId("qr-pending")).ToHaveCount(0), "not the endless being-generated message")
	s.check(s.expect.Locator(pix.status()).ToHaveAttribute("data-status", "pending"), "the order is kept, pending")
	// Its live status too, once the stream spoke.
	s.check(s.expect.Locator(pix.status()).ToHaveText("Aguardando o sistema de pagamento"), "the status waits for the payment system")
	s.check(s.expect.Locator(pix.code()).ToHaveCount(0), "no code to copy")
	s.a11y(s.page, "PIX unavailable")
	s.shot("pix-unavailable")

	// The gateway comes back: nobody touches the page, it turns into the QR page.
	if err := gw.Do(ctx, http.MethodDelete, "/sandbox/faults", nil, nil); err != nil {
		t.Fatalf("ending the outage: %v", err)
	}
	s.check(s.expect.Locator(pix.qr()).ToBeVisible(playwright.LocatorAssertionsToBeVisibleOptions{Timeout: ms(20 * time.Second)}), "the QR code appears by itself")
	pix.waitActive()
	s.check(s.expect.Locator(honest).ToHaveCount(0), "the honest message is gone")
}
