package checkout_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/sqlite"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
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

// pausingStore holds the first UpdateOrder of one order after it committed, until released:
// the moment a writer has stored an order and not yet replaced its snapshot.
type pausingStore struct {
	*sqlite.Store
	mu        sync.Mutex
	orderID   string
	committed chan struct{}
	release   chan struct{}
}

func (p *pausingStore) UpdateOrder(ctx context.Context, o *checkout.Order, out ...checkout.OutboxMessage) error {
	err := p.Store.UpdateOrder(ctx, o, out...)
	p.mu.Lock()
	pause := err == nil && o.ID == p.orderID
	if pause {
		p.orderID = ""
	}
	p.mu.Unlock()
	if pause {
		close(p.committed)
		<-p.release
	}
	return err
}

// TestShopperSeesWhatIsStoredWhileTheWriterHoldsTheOrder: a shopper's page asked for while
// another request holds the order — it has stored the gateway's answer and not yet replaced
// the order's snapshot — shows the order as stored (awaiting payment with its QR code), not
// the pending snapshot, after waiting ShopperGatewayWait for the order.
func TestShopperSeesWhatIsStoredWhileTheWriterHoldsTheOrder(t *testing.T) {
	t.Parallel()
	ps := &pausingStore{committed: make(chan struct{}), release: make(chan struct{})}
	e := newEnv(t, func(o *envOptions) {
		o.wrapStore = func(s *sqlite.Store) checkout.Store { ps.Store = s; return ps }
	})
	down := errors.New("gateway down")
	e.gw.mu.Lock()
	e.gw.createErr = func(gatewayclient.CreateTransactionRequest) error { return down }
	e.gw.mu.Unlock()
	c := e.cart(map[checkout.ProductID]int{ebook: 1})
	o, err := e.svc.PlaceOrder(e.ctx, checkout.PlaceOrderInput{Source: c.ID, RequestKey: checkout.NewID(), Customer: customer(), Lang: "pt-BR"})
	if err != nil || o.Status != checkout.StatusPending {
		t.Fatalf("PlaceOrder with the gateway down: %v, %v", o, err)
	}
	e.gw.mu.Lock()
	e.gw.createErr = nil
	e.gw.mu.Unlock()

	ps.mu.Lock()
	ps.orderID = o.ID
	ps.mu.Unlock()
	completed := make(chan error, 1)
	go func() { // the first page view completes the attempt, and pauses after storing it
		_, err := e.svc.CurrentOrder(e.ctx, o.ID)
		completed <- err
	}()
	select {
	case <-ps.committed:
	case err := <-completed:
		t.Fatalf("the completion ended without storing the order: %v", err)
	}
	got, err := e.svc.CurrentOrder(e.ctx, o.ID)
	close(ps.release)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != checkout.StatusAwaitingPayment || got.QR() == nil {
		t.Errorf("a page view while the writer holds the order got %s (QR %v), want it as stored: awaiting payment with its QR code",
			got.Status, got.QR() != nil)
	}
	if err := <-completed; err != nil {
		t.Errorf("the completing page view: %v", err)
	}
}
