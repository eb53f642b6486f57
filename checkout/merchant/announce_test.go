package merchant_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/merchant"
)

// sessionsOf is a SessionReader holding a few sessions, or failing.
type sessionsOf struct {
	byID map[string]*checkout.Session
	err  error
}

func (s sessionsOf) Session(_ context.Context, id string) (*checkout.Session, error) {
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
	a := &merchant.Announcer{
		Sessions: sessionsOf{byID: map[string]*checkout.Session{"sess1": {ID: "sess1", Metadata: map[string]string{"cliente": "42"}}}},
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
			Type      string         `json:"type"`
			Timestamp time.Time      `json:"timestamp"`
			Data      merchant.Order `json:"data"`
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
