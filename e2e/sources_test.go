package e2e

import (
	"net/http"
	"testing"

	"github.com/playwright-community/playwright-go"

	"github.com/pixcheckout/pixcheckout/web/apijson"
)

// Every checkout source shows the one customer form: typing a CEP fills the address in on the
// shop's cart, a checkout session with a physical item and a payment link that asks for an
// address alike (the form's behaviour itself: TestCEPLookupFillsTheAddress).
func TestCEPAutofillOnEverySource(t *testing.T) {
	t.Parallel()
	a, s := setup(t, appOptions{env: map[string]string{"CHECKOUT_MERCHANT_API_KEY": testAPIKey}}, playwright.BrowserNewContextOptions{})
	site := newMerchantSite(t, a)
	var sess apijson.CheckoutSession
	if st := site.api("POST", "/checkout-sessions", map[string]any{
		"items":        []any{map[string]any{"title": "Vaso de barro", "unitPrice": 8900, "type": "PHYSICAL"}},
		"externalCode": "pedido-cep", "customer": map[string]any{"name": "Maria da Silva"},
	}, &sess); st != http.StatusCreated {
		t.Fatalf("creating the session: %d", st)
	}
	if st := site.api("POST", "/payment-links", map[string]any{"title": "Cesta da horta", "amount": 4500,
		"description": "Entregue em casa", "slug": "cesta-cep", "requireAddress": true}, nil); st != http.StatusCreated {
		t.Fatalf("creating the link: %d", st)
	}
	for _, c := range []struct {
		source string
		open   func() customerForm
	}{
		{"shop", func() customerForm { s.open(a.url + "/"); return shopIn(s).catalogue().add(physicalProduct).checkout() }},
		{"session", func() customerForm { s.open(sess.URL); return customerForm{shopIn(s)} }},
		{"link", func() customerForm { s.open(a.url + "/l/cesta-cep"); return customerForm{shopIn(s)} }},
	} {
		form := c.open()
		s.check(form.field("zip_code").PressSequentially("01310100"), c.source+": type the CEP")
		for name, want := range map[string]string{"street": "Avenida Paulista", "neighborhood": "Bela Vista", "city": "São Paulo", "state": "SP"} {
			s.check(s.expect.Locator(form.field(name)).ToHaveValue(want), c.source+": "+name+" filled from the CEP")
		}
	}
}
