package checkout_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/sqlite"
)

// TestRetention: carts unchanged past their retention and webhook ids past theirs are deleted,
// in as many batches as it takes; recent ones stay.
func TestRetention(t *testing.T) {
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
	r := checkout.NewRetention(store, checkout.RetentionOptions{Batch: 3, Pause: time.Millisecond, Clock: func() time.Time { return now }})
	carts, hooks, err := r.RunOnce(ctx)
	if err != nil {
		t.Fatal(err)
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
	if c, h, err := r.RunOnce(ctx); err != nil || c != 0 || h != 0 {
		t.Errorf("second sweep: %d carts, %d ids, %v", c, h, err)
	}
}
