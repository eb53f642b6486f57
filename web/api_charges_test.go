package web_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout/apikeys"
	"github.com/pixcheckout/pixcheckout/checkout/charges"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
)

// TestAPICharges: a charge made through the API answers its id, status, amountDue of today and
// the customer's page; the same Idempotency-Key and body give it again, another body is
// refused; bad input names each field at once; GET reads it (what it asks moves with the day);
// the list pages by cursor and filters by status; a charge is canceled once (then 409). Every
// answer is held to openapi.json.
func TestAPICharges(t *testing.T) {
	clock := sandbox.NewManualClock(spAt(1, 9, 0, 0))
	e := newEnv(t, func(o *envOptions) { o.sandbox = func(so *sandbox.Options) { so.Clock = clock } })
	body := map[string]any{"customer": map[string]any{"name": "Maria da Silva", "document": "529.982.247-25",
		"email": "maria@example.com", "phone": "(11) 98765-4321"}, "amount": 12345, "description": "Mensalidade de março",
		"dueDate": "2026-03-10", "externalCode": "ALUNO-7", "fineBps": 200, "interestBpsPerMonth": 100,
		"discount": map[string]any{"bps": 1000, "until": "2026-03-05"}}
	res := e.api(http.MethodPost, "/api/v1/charges", body, "Idempotency-Key", "aluno-7-marco")
	if res.status != http.StatusCreated || res.json["status"] != "open" || res.json["amountDue"] != float64(11110) {
		t.Fatalf("create: %d %s", res.status, res.body)
	}
	id, _ := res.json["id"].(string)
	if u, _ := res.json["url"].(string); !strings.HasPrefix(u, "http") || !strings.HasSuffix(u, "/c/"+id) ||
		res.header.Get("Location") != "/api/v1/charges/"+id {
		t.Errorf("url %q, Location %q", u, res.header.Get("Location"))
	}
	if again := e.api(http.MethodPost, "/api/v1/charges", body, "Idempotency-Key", "aluno-7-marco"); again.status != http.StatusOK ||
		again.json["id"] != id || again.header.Get("Idempotent-Replayed") != "true" {
		t.Errorf("replay: %d %v", again.status, again.json["id"])
	}
	other := map[string]any{}
	for k, v := range body {
		other[k] = v
	}
	other["amount"] = 999
	if reused := e.api(http.MethodPost, "/api/v1/charges", other, "Idempotency-Key", "aluno-7-marco"); reused.status != http.StatusUnprocessableEntity ||
		!strings.Contains(string(reused.body), "idempotency_key_reused") {
		t.Errorf("the key with another body: %d %s", reused.status, reused.body)
	}
	bad := map[string]any{"customer": map[string]any{"name": "Maria", "document": "111.111.111-11", "email": "maria@example.com"},
		"amount": "12", "description": "Aula", "dueDate": "2026-02-30", "fineBps": 300, "discount": map[string]any{"until": "2026-03-05"}}
	res = e.api(http.MethodPost, "/api/v1/charges", bad)
	for _, want := range []string{"amount type", "dueDate format", "fineBps max", "customer.document document", "discount required"} {
		if res.status != http.StatusUnprocessableEntity || !slices.Contains(res.fields(), want) {
			t.Errorf("bad charge: %d %v; want %q", res.status, res.fields(), want)
		}
	}

	e.advanceTo(spAt(11, 9, 0, 0)) // the day after the due date: 2 % fine and a day of interest
	got := e.api(http.MethodGet, "/api/v1/charges/"+id, nil)
	if got.status != http.StatusOK || got.json["amountDue"] != float64(12345+247+4) || got.json["dueDate"] != "2026-03-10" {
		t.Fatalf("get on day 11: %d %s", got.status, got.body)
	}
	if c, _ := got.json["customer"].(map[string]any); c["document"] != "52998224725" {
		t.Errorf("the configured key reads the document %v", c["document"])
	}
	if missing := e.api(http.MethodGet, "/api/v1/charges/missing", nil); missing.status != http.StatusNotFound {
		t.Errorf("a missing charge: %d", missing.status)
	}

	var ids []string
	for range 2 {
		e.advanceTo(e.sb.Now().Add(time.Second))
		r := e.api(http.MethodPost, "/api/v1/charges", map[string]any{"customer": body["customer"], "amount": 5000,
			"description": "Aula avulsa", "dueDate": "2026-03-20"})
		ids = append(ids, r.json["id"].(string))
	}
	canceledNow := e.api(http.MethodPost, "/api/v1/charges/"+ids[0]+"/cancel", nil)
	if canceledNow.status != http.StatusOK || canceledNow.json["status"] != "canceled" || canceledNow.json["amountDue"] != float64(0) {
		t.Fatalf("cancel: %d %s", canceledNow.status, canceledNow.body)
	}
	if again := e.api(http.MethodPost, "/api/v1/charges/"+ids[0]+"/cancel", nil); again.status != http.StatusConflict || again.errorCode() != "conflict" {
		t.Errorf("a second cancel: %d %s", again.status, again.body)
	}
	if missing := e.api(http.MethodPost, "/api/v1/charges/missing/cancel", nil); missing.status != http.StatusNotFound {
		t.Errorf("canceling a missing charge: %d", missing.status)
	}
	var seen []string
	for path := "/api/v1/charges?perPage=2"; ; {
		page := e.api(http.MethodGet, path, nil)
		for _, c := range page.json["data"].([]any) {
			seen = append(seen, c.(map[string]any)["id"].(string))
		}
		next, _ := page.json["nextCursor"].(string)
		if next == "" {
			break
		}
		path = "/api/v1/charges?perPage=2&cursor=" + next
	}
	if !slices.Equal(seen, []string{ids[1], ids[0], id}) {
		t.Errorf("pages %v, want %v", seen, []string{ids[1], ids[0], id})
	}
	canceled := e.api(http.MethodGet, "/api/v1/charges?status=canceled", nil)
	if list, _ := canceled.json["data"].([]any); len(list) != 1 || list[0].(map[string]any)["id"] != ids[0] ||
		list[0].(map[string]any)["amountDue"] != float64(0) {
		t.Errorf("canceled charges: %s", canceled.body)
	}
	if wrong := e.api(http.MethodGet, "/api/v1/charges?status=late", nil); wrong.status != http.StatusUnprocessableEntity {
		t.Errorf("an unknown status: %d", wrong.status)
	}
}

// TestAPIChargeNotifications: a charge's notifications are in the API's delivery log beside the
// orders', each with its chargeId and the charge as its body, filtered by chargeId; masked for
// a read key as an order's. Every answer is held to openapi.json.
func TestAPIChargeNotifications(t *testing.T) {
	e := newEnv(t)
	res := e.api(http.MethodPost, "/api/v1/charges", map[string]any{"customer": map[string]any{"name": "Maria da Silva",
		"document": "529.982.247-25", "email": "maria@example.com"}, "amount": 5000, "description": "Aula avulsa",
		"dueDate": charges.AddDays(e.charges.Today(), 3).String()})
	id, _ := res.json["id"].(string)
	if res.status != http.StatusCreated {
		t.Fatalf("create: %d %s", res.status, res.body)
	}
	if _, err := e.charges.Cancel(t.Context(), "ana@loja.example", "", id); err != nil {
		t.Fatal(err)
	}
	e.placeOrder() // an order's notification beside them
	all := e.api(http.MethodGet, "/api/v1/notifications", nil)
	var got []string
	for _, d := range all.json["data"].([]any) {
		m := d.(map[string]any)
		got = append(got, fmt.Sprint(m["type"], " ", m["chargeId"] == id, " ", m["orderId"] != nil))
	}
	want := []string{"order.awaiting_payment false true", "charge.canceled true false", "charge.created true false"}
	if all.status != http.StatusOK || !slices.Equal(got, want) {
		t.Fatalf("notifications %q, want %q", got, want)
	}
	byCharge := e.api(http.MethodGet, "/api/v1/notifications?chargeId="+id+"&type=charge.created", nil)
	data, _ := byCharge.json["data"].([]any)
	if len(data) != 1 {
		t.Fatalf("by chargeId: %s", byCharge.body)
	}
	if none := e.api(http.MethodGet, "/api/v1/notifications?orderId="+id, nil); len(none.json["data"].([]any)) != 0 {
		t.Errorf("the charge's id as an orderId: %s", none.body)
	}
	nid := data[0].(map[string]any)["id"].(string)
	one := e.api(http.MethodGet, "/api/v1/notifications/"+nid, nil)
	payload, _ := one.json["payload"].(map[string]any)
	charge, _ := payload["data"].(map[string]any)
	if one.status != http.StatusOK || one.json["chargeId"] != id || payload["type"] != "charge.created" || charge["id"] != id ||
		!strings.Contains(string(one.body), "52998224725") {
		t.Fatalf("the notification: %d %s", one.status, one.body)
	}
	key, _, err := e.keys.Create(t.Context(), "read", apikeys.ScopeRead, nil)
	if err != nil {
		t.Fatal(err)
	}
	masked := e.api(http.MethodGet, "/api/v1/notifications/"+nid, nil, "Authorization", "Bearer "+key)
	if strings.Contains(string(masked.body), "529.982.247-25") || strings.Contains(string(masked.body), "52998224725") {
		t.Errorf("a read key reads the document: %s", masked.body)
	}
}
