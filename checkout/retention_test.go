package checkout_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
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
