package web_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
)

// TestAPISubscriptions: a subscription made through the API answers its schedule and next due
// date; the same Idempotency-Key and body give it again; bad input names each field at once;
// the issuer makes its first charge ten days ahead, listed by the charges' API; pause, resume
// and cancel answer it as it became, and 409 when its status does not allow them; the list
// pages by cursor and filters by status. Every answer is held to openapi.json.
func TestAPISubscriptions(t *testing.T) {
	clock := sandbox.NewManualClock(spAt(1, 9, 0, 0))
	e := newEnv(t, func(o *envOptions) { o.sandbox = func(so *sandbox.Options) { so.Clock = clock } })
	body := map[string]any{"customer": map[string]any{"name": "Maria da Silva", "document": "529.982.247-25",
		"email": "maria@example.com", "phone": "(11) 98765-4321"}, "amount": 12345, "description": "Mensalidade",
		"dayOfMonth": 31, "startDate": "2026-03-01", "count": 3, "externalCode": "ALUNO-7", "fineBps": 200,
		"discount": map[string]any{"bps": 1000, "daysBefore": 5}}
	res := e.api(http.MethodPost, "/api/v1/subscriptions", body, "Idempotency-Key", "aluno-7")
	if res.status != http.StatusCreated || res.json["status"] != "active" || res.json["nextDueDate"] != "2026-03-31" ||
		res.json["issued"] != float64(0) {
		t.Fatalf("create: %d %s", res.status, res.body)
	}
	id, _ := res.json["id"].(string)
	if res.header.Get("Location") != "/api/v1/subscriptions/"+id {
		t.Errorf("Location %q", res.header.Get("Location"))
	}
	if again := e.api(http.MethodPost, "/api/v1/subscriptions", body, "Idempotency-Key", "aluno-7"); again.status != http.StatusOK ||
		again.json["id"] != id || again.header.Get("Idempotent-Replayed") != "true" {
		t.Errorf("replay: %d %v", again.status, again.json["id"])
	}
	bad := map[string]any{"customer": map[string]any{"name": "Maria", "document": "111.111.111-11", "email": "maria@example.com"},
		"amount": 0, "description": "Aula", "dayOfMonth": 10, "everyWeeks": 2, "startDate": "2026-02-30",
		"discount": map[string]any{"bps": 1000}}
	res = e.api(http.MethodPost, "/api/v1/subscriptions", bad)
	for _, want := range []string{"amount min", "startDate format", "everyWeeks duplicate", "customer.document document",
		"discount.daysBefore required"} {
		if res.status != http.StatusUnprocessableEntity || !slices.Contains(res.fields(), want) {
			t.Errorf("bad subscription: %d %v; want %q", res.status, res.fields(), want)
		}
	}

	e.advanceTo(spAt(21, 0, 0, 0)) // ten days before 31 March, at São Paulo midnight
	if n, err := e.subscriptions.Issue(t.Context()); n != 1 || err != nil {
		t.Fatalf("issued %d, %v", n, err)
	}
	issued := e.api(http.MethodGet, "/api/v1/charges", nil)
	if list, _ := issued.json["data"].([]any); len(list) != 1 || list[0].(map[string]any)["dueDate"] != "2026-03-31" ||
		list[0].(map[string]any)["externalCode"] != "ALUNO-7/2026-03-31" {
		t.Fatalf("charges after the issue: %s", issued.body)
	}
	got := e.api(http.MethodGet, "/api/v1/subscriptions/"+id, nil)
	if got.status != http.StatusOK || got.json["nextDueDate"] != "2026-04-30" || got.json["issued"] != float64(1) {
		t.Fatalf("get: %d %s", got.status, got.body)
	}
	for _, step := range []struct {
		verb   string
		status int
		state  string
	}{{"resume", http.StatusConflict, ""}, {"pause", http.StatusOK, "paused"}, {"pause", http.StatusConflict, ""},
		{"resume", http.StatusOK, "active"}, {"cancel", http.StatusOK, "canceled"}, {"cancel", http.StatusConflict, ""}} {
		r := e.api(http.MethodPost, "/api/v1/subscriptions/"+id+"/"+step.verb, nil)
		if r.status != step.status || (step.state != "" && r.json["status"] != step.state) {
			t.Errorf("%s: %d %s", step.verb, r.status, r.body)
		}
	}
	if missing := e.api(http.MethodGet, "/api/v1/subscriptions/missing", nil); missing.status != http.StatusNotFound {
		t.Errorf("a missing subscription: %d", missing.status)
	}

	var ids []string
	for range 2 {
		e.advanceTo(e.sb.Now().Add(time.Second))
		r := e.api(http.MethodPost, "/api/v1/subscriptions", map[string]any{"customer": body["customer"], "amount": 5000,
			"description": "Aula semanal", "everyWeeks": 1, "startDate": "2026-04-01"})
		ids = append(ids, r.json["id"].(string))
	}
	var seen []string
	for path := "/api/v1/subscriptions?perPage=2"; ; {
		page := e.api(http.MethodGet, path, nil)
		for _, s := range page.json["data"].([]any) {
			seen = append(seen, s.(map[string]any)["id"].(string))
		}
		next, _ := page.json["nextCursor"].(string)
		if next == "" {
			break
		}
		path = "/api/v1/subscriptions?perPage=2&cursor=" + next
	}
	if !slices.Equal(seen, []string{ids[1], ids[0], id}) {
		t.Errorf("pages %v, want %v", seen, []string{ids[1], ids[0], id})
	}
	canceled := e.api(http.MethodGet, "/api/v1/subscriptions?status=canceled", nil)
	if list, _ := canceled.json["data"].([]any); len(list) != 1 || list[0].(map[string]any)["id"] != id {
		t.Errorf("canceled subscriptions: %s", canceled.body)
	}
	if wrong := e.api(http.MethodGet, "/api/v1/subscriptions?status=late", nil); wrong.status != http.StatusUnprocessableEntity ||
		!strings.Contains(string(wrong.body), "status[0]") {
		t.Errorf("an unknown status: %d %s", wrong.status, wrong.body)
	}
}
