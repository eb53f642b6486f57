package notify_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout/audit"
	"github.com/pixcheckout/pixcheckout/checkout/charges"
	"github.com/pixcheckout/pixcheckout/checkout/notify"
	"github.com/pixcheckout/pixcheckout/checkout/sqlite"
	"github.com/pixcheckout/pixcheckout/gatewayclient/outbox"
	"github.com/pixcheckout/pixcheckout/web/apijson"
	"github.com/pixcheckout/pixcheckout/web/apitest"
)

// TestChargeNotifications: each change of a charge's status is one signed notification in the
// outbox, written with the change (created, overdue, paid, canceled), whose body is
// openapi.json's ChargeEvent; a partial payment, a second overdue sweep and a refused cancel
// write none.
func TestChargeNotifications(t *testing.T) {
	ctx := context.Background()
	store, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "c.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	ob, err := store.Outbox(outbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	log := notify.NewDeliveryLog(ob)
	var mu sync.Mutex
	now := time.Date(2026, time.March, 1, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	set := func(t time.Time) { mu.Lock(); defer mu.Unlock(); now = t }
	woken := 0
	m := charges.NewManager(store, audit.New(store, time.Hour, clock), clock, charges.WithAnnouncer(&notify.ChargeAnnouncer{
		Charge: apijson.ChargeEvent("https://loja.example/"), Clock: clock, Wake: func() { woken++ }}))
	in := charges.Input{
		Customer:    charges.Customer{Name: "Maria da Silva", Document: "529.982.247-25", Email: "maria@example.com", Phone: "(11) 98765-4321"},
		Description: "Mensalidade de março",
		Terms: charges.Terms{Amount: 12345, Due: charges.Date{Year: 2026, Month: time.March, Day: 10}, FineBps: 200,
			InterestBpsPerMonth: 100, Discount: charges.Discount{Bps: 1000, Until: charges.Date{Year: 2026, Month: time.March, Day: 5}}},
	}
	paid, err := m.Create(ctx, "ana@loja.example", "", in)
	if err != nil {
		t.Fatal(err)
	}
	canceled, err := m.Create(ctx, "ana@loja.example", "", in)
	if err != nil {
		t.Fatal(err)
	}
	set(time.Date(2026, time.March, 11, 3, 0, 0, 0, time.UTC)) // 00:00 of the 11th in São Paulo
	if _, err := m.Pay(ctx, paid.ID, 10000, clock()); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := m.MarkOverdue(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := m.Pay(ctx, paid.ID, 2600, clock()); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Cancel(ctx, "rui@loja.example", "", canceled.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Cancel(ctx, "rui@loja.example", "", canceled.ID); !errors.Is(err, charges.ErrFinal) {
		t.Fatalf("canceled again: %v", err)
	}
	spec, err := apitest.Load()
	if err != nil {
		t.Fatal(err)
	}
	schema := spec.Doc.Components.Schemas["ChargeEvent"].Value
	for id, want := range map[string][]string{
		paid.ID:     {"charge.created", "charge.overdue", "charge.paid"},
		canceled.ID: {"charge.created", "charge.overdue", "charge.canceled"},
	} {
		ns, err := log.List(ctx, notify.NotificationFilter{ChargeID: id})
		if err != nil {
			t.Fatal(err)
		}
		var types []string
		for _, n := range slices.Backward(ns) {
			types = append(types, n.Type)
			var body map[string]any
			if err := json.Unmarshal(n.Payload, &body); err != nil {
				t.Fatal(err)
			}
			if err := schema.VisitJSON(body); err != nil {
				t.Errorf("%s of %s does not follow ChargeEvent: %v", n.Type, id, err)
			}
			data := body["data"].(map[string]any)
			if body["type"] != n.Type || data["id"] != id || data["url"] != "https://loja.example/c/"+id ||
				data["status"] != map[string]string{"charge.created": "open"}[n.Type] && "charge."+data["status"].(string) != n.Type {
				t.Errorf("%s's body: %s", n.Type, n.Payload)
			}
			if n.Type == "charge.overdue" && data["amountDue"] != float64(12596) && data["amountDue"] != float64(2596) {
				// 12345 + 247 of fine + 4 of one day's interest, less what was paid.
				t.Errorf("overdue amountDue %v", data["amountDue"])
			}
		}
		if !slices.Equal(types, want) {
			t.Errorf("notifications of %s: %v, want %v", id, types, want)
		}
	}
	if woken != 6 {
		t.Errorf("the outbox was woken %d times, want once per notification", woken)
	}
}
