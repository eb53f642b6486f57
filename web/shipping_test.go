package web_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// withShipping sets the merchant's shipping settings.
func withShipping(sh checkout.Shipping) func(*envOptions) {
	return func(o *envOptions) { o.shipping = &sh }
}

// shippingOf reads the shipping line (and the delivery estimate) a page shows.
func shippingOf(doc *goquery.Document) (amount, estimate string) {
	return strings.TrimSpace(doc.Find(testid("shipping")).First().Text()),
		strings.TrimSpace(doc.Find(testid("delivery-estimate")).First().Text())
}

// A physical order shows its shipping as a line of its own, with the delivery estimate, in
// every summary (cart, form, PIX page, receipt); the gateway's deposit is the items plus the
// shipping; the API's order says both. A digital cart has no shipping line.
func TestShippingInEverySummary(t *testing.T) {
	e := newEnv(t, withShipping(checkout.Shipping{FlatRate: 1500, FreeAbove: 20000, DeliveryDays: 5}))
	cart := e.newCart("caneca-de-ceramica", "1") // R$ 59,00
	_, doc := e.get(cart)
	if a, d := shippingOf(doc); a != "R$ 15,00" || !strings.Contains(d, "5 dias úteis") {
		t.Errorf("cart: shipping %q, estimate %q", a, d)
	}
	if total := strings.TrimSpace(doc.Find(testid("cart-total")).Text()); total != "R$ 74,00" {
		t.Errorf("cart total %q, want items and shipping", total)
	}
	_, doc = e.get(cart + "/checkout")
	if a, _ := shippingOf(doc); a != "R$ 15,00" || !strings.Contains(doc.Find(testid("place-order")).Text(), "74,00") {
		t.Errorf("form: shipping %q, button %q", a, doc.Find(testid("place-order")).Text())
	}
	res, _ := e.post(cart+"/checkout", customer(requestKey(t, doc)))
	pay := e.location(res)
	_, doc = e.get(pay)
	if a, d := shippingOf(doc); a != "R$ 15,00" || d == "" || strings.TrimSpace(doc.Find(testid("amount")).Text()) != "R$ 74,00" {
		t.Errorf("PIX page: shipping %q, estimate %q, amount %q", a, d, doc.Find(testid("amount")).Text())
	}
	id := orderID(pay)
	o, err := e.svc.Order(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	dep, err := e.client.GetDeposit(t.Context(), o.CurrentAttempt().TransactionID)
	if err != nil || dep.Amount != 7400 {
		t.Fatalf("the gateway's deposit: %+v, %v; want 7400 cents", dep, err)
	}
	e.post(pay+"/sandbox-pay", nil)
	e.waitStatus(id, checkout.StatusPaid)
	_, doc = e.get(orderPath(pay) + "/paid")
	receipt := doc.Find(testid("order-summary"))
	if a, _ := shippingOf(doc); a != "R$ 15,00" || !strings.Contains(receipt.Text(), "Caneca") || !strings.Contains(receipt.Text(), "R$ 59,00") {
		t.Errorf("receipt: shipping %q, summary %q", a, receipt.Text())
	}
	api := e.api("GET", "/api/v1/orders/"+id, nil)
	if api.json["amount"] != float64(7400) || api.json["shipping"] != float64(1500) || api.json["deliveryDays"] != float64(5) {
		t.Errorf("the API's order: %s", api.body)
	}

	// Free above 200,00; and a digital cart ships nothing.
	_, doc = e.get(e.newCart("caneca-de-ceramica", "4"))
	if a, _ := shippingOf(doc); a != "Grátis" {
		t.Errorf("free above: shipping %q", a)
	}
	_, doc = e.get(e.newCart("ebook-receitas-do-cerrado", "1"))
	if n := doc.Find(testid("shipping")).Length(); n != 0 {
		t.Errorf("a digital cart shows %d shipping lines", n)
	}
}

// The API may set a session's shipping: its amount includes it, and its order pays it; a
// digital session cannot ship, and an amount past the cap is refused, naming the field.
func TestAPISessionShipping(t *testing.T) {
	e := newEnv(t, withShipping(checkout.Shipping{FlatRate: 1500, DeliveryDays: 3}))
	body := sessionBody() // 2 × 29,90 + 59,90, a PHYSICAL item among them
	body["shipping"] = 990
	res := e.api("POST", "/api/v1/checkout-sessions", body)
	if res.status != http.StatusCreated || res.json["amount"] != float64(2*2990+5990+990) || res.json["shipping"] != float64(990) ||
		res.json["deliveryDays"] != float64(3) {
		t.Fatalf("session with shipping: %d %s", res.status, res.body)
	}
	// Without it, the settings' flat rate.
	delete(body, "shipping")
	if res := e.api("POST", "/api/v1/checkout-sessions", body); res.json["shipping"] != float64(1500) {
		t.Errorf("session without shipping: %s", res.body)
	}
	digital := sessionBody()
	digital["items"] = []any{map[string]any{"productId": "ebook-receitas-do-cerrado", "quantity": 1}}
	for name, c := range map[string]struct {
		body     map[string]any
		shipping any
	}{
		"digital":      {digital, 500},
		"over the cap": {sessionBody(), int64(gatewayclient.MaxAmount) + 1},
		"negative":     {sessionBody(), -1},
		"a fraction":   {sessionBody(), 9.5},
	} {
		c.body["shipping"] = c.shipping
		res := e.api("POST", "/api/v1/checkout-sessions", c.body)
		if res.status != http.StatusUnprocessableEntity || !strings.Contains(string(res.body), `"shipping"`) {
			t.Errorf("%s: %d %s", name, res.status, res.body)
		}
	}
	// Items and shipping together past the cap: refused on the items' total, which says so.
	over := sessionBody()
	over["shipping"] = int64(gatewayclient.MaxAmount)
	if res := e.api("POST", "/api/v1/checkout-sessions", over); res.status != http.StatusUnprocessableEntity ||
		!strings.Contains(string(res.body), "shipping") {
		t.Errorf("items and shipping past the cap: %d %s", res.status, res.body)
	}
}
