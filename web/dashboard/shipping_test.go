package dashboard_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestDashboardShipping: the shipping settings saved from the settings page (each wrong value
// refused beside its field, what was typed kept) are what the shop charges, and a physical
// order's page in the dashboard shows its shipping.
func TestDashboardShipping(t *testing.T) {
	e, b := signedIn(t)
	tok := b.csrf()
	res, doc := b.post("/dashboard/settings/shipping", url.Values{"csrf_token": {tok}, "flat_rate": {"quinze"},
		"free_above": {"200000,01"}, "delivery_days": {"0"}})
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("invalid shipping: %d", res.StatusCode)
	}
	for _, f := range []string{"flat_rate", "free_above", "delivery_days"} {
		if doc.Find(`[data-testid="field-error"][data-field="`+f+`"]`).Length() != 1 || doc.Find("#sh-"+f).AttrOr("aria-invalid", "") != "true" {
			t.Errorf("no error beside %s", f)
		}
	}
	if doc.Find("#sh-flat_rate").AttrOr("value", "") != "quinze" {
		t.Error("what was typed was lost")
	}
	res = b.do(http.MethodPost, "/dashboard/settings/shipping", url.Values{"csrf_token": {tok}, "flat_rate": {"15,00"},
		"free_above": {"200"}, "delivery_days": {"5"}})
	res.Body.Close()
	if loc := e.location(res); loc != "/dashboard/settings?done=shipping" {
		t.Fatalf("after saving: %q", loc)
	}
	_, doc = b.get("/dashboard/settings")
	if doc.Find("#sh-flat_rate").AttrOr("value", "") != "15,00" || doc.Find("#sh-free_above").AttrOr("value", "") != "200,00" ||
		doc.Find("#sh-delivery_days").AttrOr("value", "") != "5" {
		t.Errorf("saved shipping shown as %q %q %q", doc.Find("#sh-flat_rate").AttrOr("value", ""),
			doc.Find("#sh-free_above").AttrOr("value", ""), doc.Find("#sh-delivery_days").AttrOr("value", ""))
	}

	cart := e.newCart("caneca-de-ceramica", "1")
	_, doc = e.get(cart + "/checkout")
	key, _ := doc.Find(`input[name="request_key"]`).Attr("value")
	pay := e.location(e.do(http.MethodPost, cart+"/checkout", url.Values{
		"request_key": {key}, "name": {"Maria da Silva"}, "document": {"529.982.247-25"},
		"email": {"maria@example.com.br"}, "phone": {"(11) 98765-4321"}, "zip_code": {"01310-100"},
		"street": {"Avenida Paulista"}, "number": {"1000"}, "neighborhood": {"Bela Vista"}, "city": {"São Paulo"}, "state": {"SP"},
	}))
	_, doc = b.get("/dashboard/orders/" + orderID(pay))
	record := doc.Find(testid("record")).Text()
	if !strings.Contains(record, "R$ 74,00") || !strings.Contains(record, "R$ 15,00") || !strings.Contains(record, "5 dias úteis") {
		t.Errorf("the order's record: %q", strings.Join(strings.Fields(record), " "))
	}
}
