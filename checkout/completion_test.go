package checkout_test

import (
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
)

// TestPacedOrdersCompleteInTheBackground places many orders at once against a gateway that
// accepts 2 transactions at once and 4 a second after that. No PlaceOrder holds its shopper
// for the gateway's Retry-After: each comes back at once, with its QR code or pending (the
// pacing would have held it past ShopperGatewayWait). Then every pending order completes by
// itself, its awaiting_payment published, with exactly one gateway transaction per attempt:
// the background completion reuses the attempt's idempotency key.
func TestPacedOrdersCompleteInTheBackground(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *envOptions) {
		o.rateLimit = &sandbox.RateLimit{Requests: 4, Period: time.Second, Burst: 2}
	})
	published := make(chan checkout.OrderEvent, 100)
	stop := e.svc.Watch(func(ev checkout.OrderEvent) {
		if ev.Status == checkout.StatusAwaitingPayment {
			published <- ev
		}
	})
	defer stop()

	const n = 10
	carts := make([]*checkout.Cart, n)
	for i := range carts {
		carts[i] = e.cart(map[checkout.ProductID]int{ebook: 1})
	}
	orders := make([]*checkout.Order, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			o, err := e.svc.PlaceOrder(e.ctx, checkout.PlaceOrderInput{Source: carts[i].ID, RequestKey: checkout.NewID(),
				Customer: customer(), Lang: "pt-BR"})
			if err != nil {
				t.Errorf("PlaceOrder %d: %v", i, err)
				return
			}
			orders[i] = o
		})
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	pending := map[string]bool{}
	for _, o := range orders {
		switch o.Status {
		case checkout.StatusPending:
			pending[o.ID] = true
		case checkout.StatusAwaitingPayment:
		default:
			t.Fatalf("order %s came back %s", o.Number, o.Status)
		}
	}
	// 10 orders against a burst of 2: most waited for no turn at all.
	if len(pending) < n/2 {
		t.Fatalf("%d of %d orders came back pending; the others would have waited their turn", len(pending), n)
	}

	// Each pending order is completed and its status published, without any request for it.
	deadline := time.After(30 * time.Second)
	for heard := map[string]bool{}; len(heard) < len(pending); {
		select {
		case ev := <-published:
			if pending[ev.OrderID] {
				heard[ev.OrderID] = true
			}
		case <-deadline:
			t.Fatalf("%d of %d pending orders published awaiting_payment in 30 s", len(heard), len(pending))
		}
	}
	keys := map[string]bool{}
	for _, placed := range orders {
		o := e.order(placed.ID)
		if o.Status != checkout.StatusAwaitingPayment || len(o.Attempts) != 1 || o.QR() == nil {
			t.Fatalf("order %s: %s with %d attempts", o.Number, o.Status, len(o.Attempts))
		}
		keys[o.Attempts[0].IdempotencyKey] = true
	}
	if got := e.deposits(); got != n {
		t.Errorf("the gateway made %d transactions for %d attempts", got, n)
	}
	// Every request the gateway received (the refused ones included) carried one of the
	// attempts' keys.
	for _, b := range e.received.all() {
		var req struct {
			IdempotencyKey string `json:"idempotencyKey"`
		}
		if err := json.Unmarshal(b, &req); err != nil || !keys[req.IdempotencyKey] {
			t.Fatalf("a transaction request with key %q (%v), not an attempt's", req.IdempotencyKey, err)
		}
	}
}
