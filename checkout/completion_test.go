package checkout_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
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
// itself: a subscriber of a pending order (what its shopper's status stream is), that reads
// the order after subscribing and finds it pending, is sent its awaiting_payment. Exactly one
// gateway transaction is made per attempt: the background completion reuses the attempt's
// idempotency key.
func TestPacedOrdersCompleteInTheBackground(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *envOptions) {
		o.rateLimit = &sandbox.RateLimit{Requests: 4, Period: time.Second, Burst: 2}
	})
	const n = 10
	carts := make([]*checkout.Cart, n)
	for i := range carts {
		carts[i] = e.cart(map[checkout.ProductID]int{ebook: 1})
	}
	orders := make([]*checkout.Order, n)
	var heard atomic.Int32 // pending orders still pending once subscribed to, whose completion was sent
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
			if o.Status == checkout.StatusPending {
				if err := awaitCompletion(e, o.ID, &heard); err != nil {
					t.Errorf("order %s: %v", o.Number, err)
				}
			}
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

	t.Logf("%d of %d pending orders were completed after their subscriber read them pending", heard.Load(), len(pending))
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

// awaitCompletion subscribes to a pending order, as its shopper's status stream does, and waits
// up to 30 s for its awaiting_payment: read at once, or sent to the subscriber (then heard is
// counted) when the order was still pending once subscribed to.
func awaitCompletion(e *env, id string, heard *atomic.Int32) error {
	events, stop := e.svc.Subscribe(id)
	defer stop()
	deadline := time.After(30 * time.Second)
	for sent := false; ; {
		o, err := e.svc.Order(e.ctx, id)
		if err != nil {
			return fmt.Errorf("reading it: %w", err)
		}
		if o.Status == checkout.StatusAwaitingPayment {
			if sent {
				heard.Add(1)
			}
			return nil
		}
		if o.Status != checkout.StatusPending {
			return fmt.Errorf("%s, not completed", o.Status)
		}
		select {
		case ev := <-events:
			sent = sent || ev.Status == checkout.StatusAwaitingPayment
		case <-deadline:
			return errors.New("still pending after 30 s: its completion was never sent to its subscriber")
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
