package web_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/apikeys"
	"github.com/pixcheckout/pixcheckout/web/apitest"
)

// unmasked are the ways the test shopper's CPF (529.982.247-25) and phone ((11) 98765-4321)
// may be written in full.
var unmasked = []string{"52998224725", "529.982.247-25", "98765-4321", "987654321"}

// TestReadKeyNeverSeesUnmaskedPersonalData walks every GET operation openapi.json describes
// with a read key, over a checkout session, its order and the order's notifications holding a
// known CPF and phone: no answer holds them in full, while a write key reads them (so the walk
// does see the shopper). A new operation is walked without a change here.
func TestReadKeyNeverSeesUnmaskedPersonalData(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	read, _, err := e.keys.Create(ctx, "relatórios", apikeys.ScopeRead, nil)
	if err != nil {
		t.Fatal(err)
	}
	body := sessionBody()
	body["customer"] = map[string]any{"name": "Maria da Silva", "email": "maria@example.com", "document": "529.982.247-25",
		"phone": "(11) 98765-4321"}
	res := e.api("POST", "/api/v1/checkout-sessions", body)
	if res.status != http.StatusCreated {
		t.Fatalf("session: %d %s", res.status, res.body)
	}
	sessionID, _ := res.json["id"].(string)
	o, err := e.svc.PlaceOrder(ctx, checkout.PlaceOrderInput{Channel: checkout.ChannelSession, Source: sessionID, Lang: "pt-BR",
		Customer: checkout.Customer{Name: "Maria da Silva", Email: "maria@example.com", Document: "529.982.247-25", Phone: "(11) 98765-4321"},
		Address:  &checkout.Address{ZipCode: "01310100", Street: "Avenida Paulista", Number: "1000", Neighborhood: "Bela Vista", City: "São Paulo", State: "SP", Country: "Brasil"}})
	if err != nil {
		t.Fatal(err)
	}
	e.waitStatus(o.ID, checkout.StatusAwaitingPayment)
	notes := e.api("GET", "/api/v1/notifications?orderId="+o.ID, nil)
	data, _ := notes.json["data"].([]any)
	if len(data) == 0 {
		t.Fatalf("no notification of the order: %s", notes.body)
	}
	notificationID, _ := data[0].(map[string]any)["id"].(string)
	link := e.api("POST", "/api/v1/payment-links", map[string]any{"title": "Doação", "amount": 1000})
	linkID, _ := link.json["id"].(string)
	charge := e.api("POST", "/api/v1/charges", map[string]any{"customer": body["customer"], "amount": 5000,
		"description": "Mensalidade", "dueDate": "2099-01-10"})
	chargeID, _ := charge.json["id"].(string)
	sub := e.api("POST", "/api/v1/subscriptions", map[string]any{"customer": body["customer"], "amount": 5000,
		"description": "Mensalidade", "dayOfMonth": 10, "startDate": "2099-01-01"})
	subID, _ := sub.json["id"].(string)
	ids := strings.NewReplacer("/charges/{id}", "/charges/"+chargeID, "/subscriptions/{id}", "/subscriptions/"+subID, "/checkout-sessions/{id}", "/checkout-sessions/"+sessionID, "/orders/{id}", "/orders/"+o.ID,
		"/notifications/{id}", "/notifications/"+notificationID, "/payment-links/{id}", "/payment-links/"+linkID)

	spec, err := apitest.Load()
	if err != nil {
		t.Fatal(err)
	}
	walked := 0
	for tmpl, item := range spec.Doc.Paths.Map() {
		if item.Get == nil || (item.Get.Security != nil && len(*item.Get.Security) == 0) {
			continue
		}
		path := "/api/v1" + ids.Replace(tmpl)
		got := e.api("GET", path, nil, "Authorization", "Bearer "+read)
		if got.status != http.StatusOK {
			t.Errorf("GET %s with a read key: %d %s", path, got.status, got.body)
		}
		for _, s := range unmasked {
			if strings.Contains(string(got.body), s) {
				t.Errorf("GET %s with a read key holds %q: %s", path, s, got.body)
			}
		}
		walked++
	}
	if walked < 6 {
		t.Errorf("only %d operations walked", walked)
	}
	for _, path := range []string{"/api/v1/orders/" + o.ID, "/api/v1/checkout-sessions/" + sessionID, "/api/v1/notifications/" + notificationID,
		"/api/v1/charges/" + chargeID, "/api/v1/subscriptions/" + subID} {
		if got := e.api("GET", path, nil); !strings.Contains(string(got.body), "52998224725") {
			t.Errorf("GET %s with a write key does not hold the document: %s", path, got.body)
		}
	}
}
