package notify_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/notify"
)

// orderData stands for the order as the merchant API shows it (the program wires
// web/apijson.OrderEvent, which checkout may not import; cmd/checkout/app's tests check the
// notifications it makes): the few fields these tests read back, the customer empty without
// personal.
func orderData(o *checkout.Order, sess *checkout.CheckoutSession, personal bool) any {
	d := testOrder{ID: o.ID, ExternalCode: o.MerchantReference, Status: string(o.Status), Customer: map[string]string{}}
	if sess != nil {
		d.Metadata = sess.Metadata
	}
	if personal {
		c := o.Customer
		d.Customer = map[string]string{"name": c.Name, "document": c.Document, "email": c.Email, "phone": c.Phone}
		if a := o.Address; a != nil {
			d.Customer["street"], d.Customer["zipCode"] = a.Street, a.ZipCode
		}
	}
	return d
}

// testOrder is orderData's shape.
type testOrder struct {
	ID           string            `json:"id"`
	ExternalCode string            `json:"externalCode"`
	Status       string            `json:"status"`
	Metadata     map[string]string `json:"metadata,omitempty"`
	Customer     map[string]string `json:"customer"`
}

// sessionsOf is a SessionReader holding a few sessions, or failing.
type sessionsOf struct {
	byID map[string]*checkout.CheckoutSession
	err  error
}

func (s sessionsOf) CheckoutSession(_ context.Context, id string) (*checkout.CheckoutSession, error) {
	if s.err != nil {
		return nil, s.err
	}
	if sess, ok := s.byID[id]; ok {
		return sess, nil
	}
	return nil, checkout.ErrNotFound
}

// TestAnnouncer: one notification per change of state (notes are not changes), each typed by
// the state entered, timestamped by the change, carrying the order and its session's metadata,
// due at once on the announcer's clock.
func TestAnnouncer(t *testing.T) {
	ctx := context.Background()
	changed := time.Date(2026, 3, 14, 12, 0, 0, 0, time.UTC)
	real := changed.Add(-40 * time.Minute) // the shop's clock runs ahead (an advanced sandbox)
	a := &notify.Announcer{
		Order:    orderData,
		Sessions: sessionsOf{byID: map[string]*checkout.CheckoutSession{"sess1": {ID: "sess1", Metadata: map[string]string{"cliente": "42"}}}},
		Clock:    func() time.Time { return real },
	}
	o := paidOrder(changed)
	changes := []checkout.StatusChange{
		{From: checkout.StatusAwaitingPayment, To: checkout.StatusExpired, At: changed.Add(-time.Second)},
		{From: checkout.StatusExpired, To: checkout.StatusExpired, At: changed, Reason: checkout.Note("a note")},
		{From: checkout.StatusExpired, To: checkout.StatusPaid, At: changed},
	}
	out, err := a.Announce(ctx, o, changes)
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	for _, m := range out {
		types = append(types, m.Type)
		var body struct {
			Type      string    `json:"type"`
			Timestamp time.Time `json:"timestamp"`
			Data      testOrder `json:"data"`
		}
		if err := json.Unmarshal(m.Payload, &body); err != nil {
			t.Fatalf("payload: %v", err)
		}
		if body.Type != m.Type || body.Data.ID != o.ID || body.Data.Status != "paid" || body.Data.Metadata["cliente"] != "42" ||
			m.OrderID != o.ID || !m.CreatedAt.Equal(real) || m.ID == "" {
			t.Errorf("message %+v with body %+v", m, body)
		}
	}
	if want := []string{"order.expired", "order.paid"}; !reflect.DeepEqual(types, want) {
		t.Errorf("types = %v, want %v", types, want)
	}
	if out[0].ID == out[1].ID {
		t.Error("two messages share an id")
	}
	// A session that cannot be read aborts the update (to be retried), rather than send a
	// notification without its metadata.
	a.Sessions = sessionsOf{err: errors.New("database down")}
	if _, err := a.Announce(ctx, o, changes); err == nil {
		t.Error("Announce without its session's metadata succeeded")
	}
	// A cart's order has no session to read.
	cart := paidOrder(changed)
	cart.SessionID = ""
	if out, err := a.Announce(ctx, cart, changes[2:]); err != nil || len(out) != 1 {
		t.Errorf("a cart's order: %v, %v", out, err)
	}
}

// TestAnnouncerPersonalData: the notification carries the shopper's name, document, e-mail,
// phone and address only when PersonalData says so; otherwise its customer is empty. A setting
// that cannot be read aborts the update (retried) rather than send what may be off.
func TestAnnouncerPersonalData(t *testing.T) {
	ctx := context.Background()
	changed := time.Date(2026, 3, 14, 12, 0, 0, 0, time.UTC)
	o := paidOrder(changed)
	o.Customer = checkout.Customer{Name: "Maria da Silva", Document: "52998224725", Email: "maria@example.com", Phone: "11987654321"}
	o.Address = &checkout.Address{ZipCode: "01310100", Street: "Avenida Paulista", Number: "1000", City: "São Paulo", State: "SP"}
	changes := []checkout.StatusChange{{From: checkout.StatusAwaitingPayment, To: checkout.StatusPaid, At: changed}}
	for _, on := range []bool{true, false} {
		a := &notify.Announcer{Order: orderData, PersonalData: func(context.Context) (bool, error) { return on, nil }}
		out, err := a.Announce(ctx, o, changes)
		if err != nil || len(out) != 1 {
			t.Fatalf("Announce: %v, %v", out, err)
		}
		var body struct {
			Data map[string]json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal(out[0].Payload, &body); err != nil {
			t.Fatal(err)
		}
		customer := string(body.Data["customer"])
		for _, v := range []string{"Maria da Silva", "52998224725", "maria@example.com", "11987654321", "Avenida Paulista", "01310100"} {
			if got := strings.Contains(string(out[0].Payload), v); got != on {
				t.Errorf("personal data %v: %q in the payload: %v", on, v, got)
			}
		}
		if !on && customer != "{}" {
			t.Errorf("customer without personal data: %s", customer)
		}
	}
	a := &notify.Announcer{Order: orderData, PersonalData: func(context.Context) (bool, error) { return false, errors.New("database down") }}
	if _, err := a.Announce(ctx, o, changes); err == nil {
		t.Error("Announce without the setting succeeded")
	}
}
