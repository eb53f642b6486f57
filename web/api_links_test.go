package web_test

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestAPIPaymentLinks: a link whose amount the payer types is made through the API, its
// bounds checked (min above max, outside the gateway's, an expiry in the past: 422 naming the
// field); its page takes the formats payers type within the bounds; a payment through it is
// an order tagged with the link, counted in its payments; PATCH {"active": false} closes its
// page (410). Every answer is held to openapi.json.
func TestAPIPaymentLinks(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for name, c := range map[string]struct {
		body  map[string]any
		field string
	}{
		"min above max":   {map[string]any{"title": "Doação", "customAmount": map[string]any{"min": 900, "max": 100}}, "customAmount.min max"},
		"above gateway":   {map[string]any{"title": "Doação", "customAmount": map[string]any{"max": 10000001}}, "customAmount.max max"},
		"expiry past":     {map[string]any{"title": "Doação", "amount": 100, "expiresAt": "2001-01-01T00:00:00Z"}, "expiresAt min"},
		"two kinds":       {map[string]any{"title": "Doação", "amount": 100, "customAmount": map[string]any{}}, "amount required"},
		"unknown field":   {map[string]any{"title": "Doação", "amount": 100, "price": 3}, "price unknown_field"},
		"bad slug":        {map[string]any{"title": "Doação", "amount": 100, "slug": "Não"}, "slug format"},
		"unknown product": {map[string]any{"title": "Doação", "items": []any{map[string]any{"productId": "x", "quantity": 1}}}, "items[0].productId unknown_product"},
	} {
		res := e.api(http.MethodPost, "/api/v1/payment-links", c.body)
		if res.status != http.StatusUnprocessableEntity || !slices.Contains(res.fields(), c.field) {
			t.Errorf("%s: %d %v; want 422 with %q", name, res.status, res.fields(), c.field)
		}
	}

	body := map[string]any{"title": "Doação para a horta", "slug": "horta", "description": "Sementes e ferramentas",
		"customAmount": map[string]any{"min": 500, "max": 500000}}
	res := e.api(http.MethodPost, "/api/v1/payment-links", body, "Idempotency-Key", "horta-1")
	if res.status != http.StatusCreated {
		t.Fatalf("create: %d %s", res.status, res.body)
	}
	id, _ := res.json["id"].(string)
	if u, _ := res.json["url"].(string); !strings.HasPrefix(u, "http") || !strings.HasSuffix(u, "/l/horta") {
		t.Errorf("url = %q, want the absolute address of /l/horta", u)
	}
	if again := e.api(http.MethodPost, "/api/v1/payment-links", body, "Idempotency-Key", "horta-1"); again.status != http.StatusOK ||
		again.json["id"] != id || again.header.Get("Idempotent-Replayed") != "true" {
		t.Errorf("replay: %d %v", again.status, again.json["id"])
	}
	if taken := e.api(http.MethodPost, "/api/v1/payment-links", body); taken.status != http.StatusUnprocessableEntity ||
		!slices.Contains(taken.fields(), "slug taken") {
		t.Errorf("a taken slug: %d %v", taken.status, taken.fields())
	}

	// The payer types the amount, in any usual format, within the bounds.
	for typed, want := range map[string]int{"R$ 1.234,56": http.StatusOK, "1234,56": http.StatusOK, "1234.56": http.StatusOK,
		"4,99": http.StatusUnprocessableEntity, "5.000,01": http.StatusUnprocessableEntity, "doze": http.StatusUnprocessableEntity} {
		if res, _ := e.get("/l/horta?amount=" + url.QueryEscape(typed)); res.StatusCode != want {
			t.Errorf("typed %q: %d, want %d", typed, res.StatusCode, want)
		}
	}
	_, doc := e.get("/l/horta?amount=12,50")
	action, _ := doc.Find(testid("checkout-form")).Attr("action")
	placed, _ := e.post(action, customer(requestKey(t, doc)))
	order := orderID(e.location(placed))
	if o := e.api(http.MethodGet, "/api/v1/orders/"+order, nil); o.json["paymentLinkId"] != id || o.json["amount"] != float64(1250) || o.json["channel"] != "link" {
		t.Errorf("the order: link %v, amount %v, channel %v; want %s, 1250, link", o.json["paymentLinkId"], o.json["amount"], o.json["channel"], id)
	}
	o, err := e.svc.Order(t.Context(), order)
	if err != nil {
		t.Fatal(err)
	}
	if err := (payer{e.client}).Pay(t.Context(), o.CurrentAttempt().TransactionID); err != nil {
		t.Fatal(err)
	}
	if o, err := e.svc.RefreshFromGateway(t.Context(), order); err != nil || o.Status != "paid" {
		t.Fatalf("paying: %v, %v", o, err)
	}
	got := e.api(http.MethodGet, "/api/v1/payment-links/"+id, nil)
	if got.json["payments"] != float64(1) || got.json["received"] != float64(1250) {
		t.Errorf("payments %v, received %v; want 1, 1250", got.json["payments"], got.json["received"])
	}
	if byLink := e.api(http.MethodGet, "/api/v1/orders?paymentLinkId="+id, nil); len(byLink.json["data"].([]any)) != 1 {
		t.Errorf("orders of the link: %s", byLink.body)
	}
	if other := e.api(http.MethodGet, "/api/v1/orders?paymentLinkId=another", nil); len(other.json["data"].([]any)) != 0 {
		t.Errorf("orders of another link: %s", other.body)
	}
	list := e.api(http.MethodGet, "/api/v1/payment-links", nil)
	if data, _ := list.json["data"].([]any); len(data) != 1 {
		t.Errorf("list: %s", list.body)
	}

	// Changed, then deactivated: the page answers 410, in words.
	soon := time.Now().Add(48 * time.Hour).UTC().Format(time.RFC3339)
	if p := e.api(http.MethodPatch, "/api/v1/payment-links/"+id, map[string]any{"title": "Horta comunitária", "expiresAt": soon}); p.status != http.StatusOK ||
		p.json["title"] != "Horta comunitária" || p.json["expiresAt"] == nil {
		t.Errorf("patch: %d %s", p.status, p.body)
	}
	if p := e.api(http.MethodPatch, "/api/v1/payment-links/"+id, map[string]any{"customAmount": map[string]any{"min": 10, "max": 5}}); p.status != http.StatusUnprocessableEntity ||
		!slices.Contains(p.fields(), "customAmount.min max") {
		t.Errorf("an impossible change: %d %v", p.status, p.fields())
	}
	if p := e.api(http.MethodPatch, "/api/v1/payment-links/"+id, map[string]any{"active": false}); p.status != http.StatusOK || p.json["active"] != false {
		t.Errorf("deactivate: %d %s", p.status, p.body)
	}
	if res, _ := e.get("/l/horta"); res.StatusCode != http.StatusGone {
		t.Errorf("the page of a deactivated link: %d, want 410", res.StatusCode)
	}
	if p := e.api(http.MethodPatch, "/api/v1/payment-links/nope", map[string]any{"active": false}); p.status != http.StatusNotFound {
		t.Errorf("patching an unknown link: %d", p.status)
	}
}
