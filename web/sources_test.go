package web_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// TestEveryCheckoutSource: the shop's cart, a checkout session with a physical item and a
// payment link that asks for an address show the one customer form, with the CEP lookup, and
// its submission places an order that knows its channel and keeps the address typed.
func TestEveryCheckoutSource(t *testing.T) {
	e := newEnv(t)
	sess := e.api("POST", "/api/v1/checkout-sessions", map[string]any{
		"items": []any{map[string]any{"title": "Vaso de barro", "unitPrice": 8900, "type": "PHYSICAL"}}, "externalCode": "pedido-fontes"})
	if sess.status != http.StatusCreated {
		t.Fatalf("session: %d %s", sess.status, sess.body)
	}
	sessionID, _ := sess.json["id"].(string)
	if _, _, err := e.svc.CreateLink(t.Context(), checkout.LinkInput{Title: "Cesta da horta", Amount: 4500,
		Description: "Entregue em casa", Slug: "cesta", RequireAddress: true}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		channel checkout.Channel
		form    string
	}{
		{checkout.ChannelShop, e.newCart("caneca-de-ceramica", "1") + "/checkout"},
		{checkout.ChannelSession, "/s/" + sessionID},
		{checkout.ChannelLink, "/l/cesta"},
	} {
		_, doc := e.get(c.form)
		form := doc.Find(`form[data-testid="checkout-form"]`)
		if u, _ := form.Attr("data-cep-url"); u != "/cep/" {
			t.Errorf("%s: the form's lookup URL is %q", c.channel, u)
		}
		key, _ := form.Find(`input[name="request_key"]`).Attr("value")
		res, _ := e.post(c.form, url.Values{"request_key": {key}, "name": {"Maria da Silva"}, "document": {"529.982.247-25"},
			"email": {"maria@example.com.br"}, "phone": {"(11) 98765-4321"}, "zip_code": {"01310-100"},
			"street": {"Avenida Paulista"}, "number": {"1000"}, "neighborhood": {"Bela Vista"}, "city": {"São Paulo"}, "state": {"SP"}})
		o, err := e.svc.Order(t.Context(), orderID(e.location(res)))
		if err != nil || o.Channel != c.channel || o.Address == nil || o.Address.Street != "Avenida Paulista" {
			t.Errorf("%s: the order %+v, %v", c.channel, o, err)
		}
	}
}
