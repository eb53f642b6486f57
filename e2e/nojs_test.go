package e2e

import (
	"context"
	"net/http"
	"regexp"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"
)

// The whole flow with JavaScript off: plain forms and links from the catalogue to the PIX page,
// which says until when its code is valid; paid from outside (the gateway's side), the page
// reaches paid through its "I have paid" button (its <noscript> meta refresh would too, 20 s
// on). A second order shows that the sandbox-pay button is a plain form too.
func TestWholeFlowWithoutJavaScript(t *testing.T) {
	t.Parallel()
	a, s := setup(t, appOptions{reconcile: 500 * time.Millisecond},
		playwright.BrowserNewContextOptions{JavaScriptEnabled: playwright.Bool(false)})
	s.open(a.url + "/")
	cart := shopIn(s).catalogue().add(digitalProduct)
	s.shot("cart")
	form := cart.checkout()
	// No mask runs: the shopper's raw digits go to the server as typed.
	form.fillCustomer(customer{Name: "João Pereira", Document: "52998224725", Email: "joao@example.com", Phone: "11987654321"})
	s.shot("customer-form")
	pix := form.placeOrder()
	s.shot("pix")

	// The page is the server's alone: the copy button (revealed by the script) stays hidden,
	// and the meta refresh inside <noscript> is live.
	s.check(s.expect.Locator(pix.testID("copy-code")).ToBeHidden(), "copy-code hidden without JavaScript")
	s.check(s.expect.Locator(s.page.Locator(`head meta[http-equiv="refresh"]`)).ToHaveCount(1), "meta refresh active")
	s.check(s.expect.Locator(pix.status()).ToHaveAttribute("data-status", "awaiting_payment"), "awaiting payment")
	pixURL := s.page.URL()
	navs := watchNavigations(s.page)

	// The page says until when the code is valid, the gateway's expiration date; the countdown
	// is the script's, hidden without it.
	deps := a.deposits(t)
	if len(deps) != 1 || deps[0].PixResponse == nil {
		t.Fatalf("sandbox holds %d deposits, want 1 with its PIX data", len(deps))
	}
	until, err := pix.testID("valid-until").GetAttribute("datetime")
	s.check(err, "valid-until datetime")
	if at, err := time.Parse(time.RFC3339, until); err != nil || !at.Equal(deps[0].PixResponse.ExpirationDate) {
		t.Errorf("valid until %q, the gateway's expiration is %v (%v)", until, deps[0].PixResponse.ExpirationDate, err)
	}
	s.check(s.expect.Locator(pix.testID("valid-until").Locator("xpath=..")).ToHaveText(regexp.MustCompile(`^\s*Válido até \d{2}:\d{2}, horário de Brasília\s*$`)), "valid until, in Brasília time")
	s.check(s.expect.Locator(pix.countdown()).ToBeHidden(), "countdown hidden without JavaScript")
	if got := pix.codeText(); got != deps[0].PixResponse.URI {
		t.Errorf("pix-code %q, gateway's code %q", got, deps[0].PixResponse.URI)
	}
	ctx, cancel := context.WithTimeout(context.Background(), actionTimeout)
	defer cancel()
	if err := a.gateway(t).Do(ctx, http.MethodPost, "/sandbox/deposits/"+deps[0].ID+"/pay", nil, nil); err != nil {
		t.Fatalf("paying through the sandbox control: %v", err)
	}
	// "I have paid": the page asks the gateway at once instead of waiting for its next reload
	// (every 20 s, long enough to select and copy the code in between).
	s.check(s.expect.Locator(s.page.Locator(`head meta[http-equiv="refresh"]`)).ToHaveAttribute("content", "20"), "refresh every 20 s")
	s.check(pix.testID("check-payment").Click(), "I have paid")
	pix.waitPaid()
	s.check(s.expect.Page(s.page).ToHaveURL(regexp.MustCompile(`/pay/[^/]+/paid`)), "paid URL")
	s.shot("paid")
	if n := navs.count("GET " + pixURL); n < 1 {
		t.Errorf("the page reached paid without going back to the PIX page: navigations %q", navs.list())
	}

	// Second order: sandbox-pay is a plain POST that lands on the paid page.
	s.open(a.url + "/")
	form = shopIn(s).catalogue().add(physicalProduct).checkout()
	form.fillCustomer(customer{Name: "João Pereira", Document: "52998224725", Email: "joao@example.com", Phone: "11987654321"})
	form.fillAddress(address{ZipCode: "70040010", Street: "Esplanada dos Ministérios", Number: "1",
		Neighborhood: "Zona Cívico-Administrativa", City: "Brasília", State: "DF", Country: "Brasil"})
	pix = form.placeOrder()
	s.check(pix.payButton().Click(), "sandbox-pay without JavaScript")
	pix.waitPaid()
	s.shot("paid-by-button")
}
