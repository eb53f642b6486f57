package checkout_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/audit"
	"github.com/pixcheckout/pixcheckout/checkout/charges"
	"github.com/pixcheckout/pixcheckout/checkout/sqlite"
	"github.com/pixcheckout/pixcheckout/checkout/storetest"
)

// TestRetention: carts unchanged past their retention, webhook ids past theirs and checkout
// sessions expired long ago without an order are deleted, in as many batches as it takes;
// recent ones, and sessions with an order, stay.
func TestRetention(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "c.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	old, recent := now.Add(-8*24*time.Hour), now.Add(-time.Hour)
	for i := range 7 {
		for _, at := range []time.Time{old, recent} {
			id := fmt.Sprintf("cart-%d-%d", i, at.Unix())
			if err := store.CreateCart(ctx, checkout.Cart{ID: id, CreatedAt: at, UpdatedAt: at}); err != nil {
				t.Fatal(err)
			}
			if _, err := store.MarkWebhook(ctx, "msg-"+id, at); err != nil {
				t.Fatal(err)
			}
		}
	}
	// Sessions: 7 expired long ago without an order, one expired long ago with its order, 7
	// expired recently.
	var oldSessions, keptSessions []string
	for i := range 15 {
		sess := storetest.NewSession(fmt.Sprintf("key-%d", i))
		sess.CreatedAt, sess.ExpiresAt = old.Add(-time.Hour), old
		if i >= 8 {
			sess.CreatedAt, sess.ExpiresAt = recent.Add(-time.Hour), recent
		}
		if _, _, err := store.CreateCheckoutSession(ctx, sess); err != nil {
			t.Fatal(err)
		}
		switch {
		case i == 7:
			o := storetest.NewOrder("session-order")
			o.SessionID = sess.ID
			if _, _, err := store.CreateOrder(ctx, o); err != nil {
				t.Fatal(err)
			}
			keptSessions = append(keptSessions, sess.ID)
		case i < 7:
			oldSessions = append(oldSessions, sess.ID)
		default:
			keptSessions = append(keptSessions, sess.ID)
		}
	}
	r := checkout.NewRetention(store, store, checkout.RetentionOptions{Batch: 3, Pause: time.Millisecond, Clock: func() time.Time { return now }})
	n, err := r.RunOnce(ctx)
	if err != nil {
		t.Fatal(err)
	}
	carts, hooks := n.Carts, n.WebhookIDs
	if n.Sessions != 7 {
		t.Errorf("%d checkout sessions deleted, want the 7 old ones without an order", n.Sessions)
	}
	for _, id := range oldSessions {
		if _, err := store.CheckoutSession(ctx, id); checkout.ErrorCode(err) != checkout.CodeNotFound {
			t.Errorf("a session expired long ago without an order is still there: %v", err)
		}
	}
	for _, id := range keptSessions {
		if _, err := store.CheckoutSession(ctx, id); err != nil {
			t.Errorf("a recent session, or one with an order, was deleted: %v", err)
		}
	}
	if carts != 7 {
		t.Errorf("%d carts deleted, want the 7 old ones", carts)
	}
	for i := range 7 {
		if _, err := store.Cart(ctx, fmt.Sprintf("cart-%d-%d", i, recent.Unix())); err != nil {
			t.Errorf("a recent cart was deleted: %v", err)
		}
		if _, err := store.Cart(ctx, fmt.Sprintf("cart-%d-%d", i, old.Unix())); checkout.ErrorCode(err) != checkout.CodeNotFound {
			t.Errorf("an old cart is still there: %v", err)
		}
	}
	if hooks != 7 {
		t.Errorf("%d webhook ids deleted, want the 7 old ones", hooks)
	}
	if first, err := store.MarkWebhook(ctx, fmt.Sprintf("msg-cart-0-%d", recent.Unix()), now); err != nil || first {
		t.Errorf("a recent webhook id was forgotten (first %v, %v)", first, err)
	}
	// A second sweep finds nothing left to delete.
	if n, err := r.RunOnce(ctx); err != nil || n != (checkout.Pruned{}) {
		t.Errorf("second sweep: %+v, %v", n, err)
	}
}

// TestRetentionMarksChargesOverdue: the sweep marks a charge overdue from the first instant of
// the day after its due date in São Paulo (03:00 UTC), not at its last second; two instances
// sweeping at once on one database mark it once (one event of its timeline, one audit entry).
func TestRetentionMarksChargesOverdue(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	file := filepath.Join(t.TempDir(), "c.db")
	var instances []*sqlite.Store
	for range 2 {
		store, err := sqlite.Open(ctx, file)
		if err != nil {
			t.Fatal(err)
		}
		defer store.Close()
		instances = append(instances, store)
	}
	// Due on 10 March 2026: its last second in São Paulo is 02:59:59 UTC on the 11th.
	var mu sync.Mutex
	now := time.Date(2026, time.March, 1, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	set := func(t time.Time) { mu.Lock(); defer mu.Unlock(); now = t }
	var sweeps []*checkout.Retention
	for _, s := range instances {
		m := charges.NewManager(s, audit.New(s, 24*time.Hour, clock), clock)
		sweeps = append(sweeps, checkout.NewRetention(s, s, checkout.RetentionOptions{Clock: clock, Overdue: m.MarkOverdue}))
	}
	m := charges.NewManager(instances[0], audit.New(instances[0], 24*time.Hour, clock), clock)
	c, err := m.Create(ctx, "ana@loja.example", "", charges.Input{
		Customer:    charges.Customer{Name: "Maria da Silva", Document: "529.982.247-25", Email: "maria@example.com"},
		Description: "Mensalidade", Terms: charges.Terms{Amount: 10000, Due: charges.Date{Year: 2026, Month: time.March, Day: 10}}})
	if err != nil {
		t.Fatal(err)
	}
	sweepBoth := func() int {
		var wg sync.WaitGroup
		counts := make([]int, len(sweeps))
		for i, r := range sweeps {
			wg.Go(func() {
				n, err := r.RunOnce(ctx)
				if err != nil {
					t.Error(err)
				}
				counts[i] = n.Overdue
			})
		}
		wg.Wait()
		return counts[0] + counts[1]
	}
	set(time.Date(2026, time.March, 11, 2, 59, 59, 0, time.UTC))
	if n := sweepBoth(); n != 0 {
		t.Fatalf("at 23:59:59 of the due date: %d marked", n)
	}
	set(time.Date(2026, time.March, 11, 3, 0, 0, 0, time.UTC))
	if n := sweepBoth(); n != 1 {
		t.Fatalf("at 00:00 of the day after: %d marked, want 1", n)
	}
	if n := sweepBoth(); n != 0 {
		t.Fatalf("again: %d marked", n)
	}
	got, err := m.Charge(ctx, c.ID)
	if err != nil || got.Status != charges.StatusOverdue {
		t.Fatalf("the charge: %+v, %v", got, err)
	}
	if evs, err := m.Timeline(ctx, c.ID); err != nil || len(evs) != 2 {
		t.Fatalf("timeline %+v, %v", evs, err)
	}
	entries, err := instances[0].Entries(ctx, audit.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	overdue := 0
	for _, e := range entries {
		if e.Object == c.ID && e.Action == audit.ChargeOverdue {
			overdue++
		}
	}
	if overdue != 1 {
		t.Fatalf("%d audit entries of the charge overdue", overdue)
	}
}
