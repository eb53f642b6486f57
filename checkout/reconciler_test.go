package checkout_test

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
)

func (e *env) reconciler(opts checkout.ReconcilerOptions) *checkout.Reconciler {
	if opts.Clock == nil {
		opts.Clock = e.sb.Now
	}
	opts.Logger = slog.New(slog.DiscardHandler)
	return checkout.NewReconciler(e.svc, e.store, opts)
}

func (e *env) runOnce(r *checkout.Reconciler) {
	e.t.Helper()
	if err := r.RunOnce(e.ctx); err != nil {
		e.t.Fatalf("RunOnce: %v", err)
	}
}

// TestReconcilerSeesPayment: with no webhook at all, one pass sees a payment.
func TestReconcilerSeesPayment(t *testing.T) {
	e := newEnv(t)
	r := e.reconciler(checkout.ReconcilerOptions{})
	o := e.place()
	other := e.place()
	e.runOnce(r)
	if st := e.order(o.ID).Status; st != checkout.StatusAwaitingPayment {
		t.Fatalf("unpaid order after a pass: %s", st)
	}
	e.control(o.CurrentAttempt().TransactionID, sandbox.ActionPay)
	e.runOnce(r)
	if got := e.order(o.ID); got.Status != checkout.StatusPaid || got.LatePayment {
		t.Errorf("after a pass: %s late %v, want paid on time", got.Status, got.LatePayment)
	}
	if st := e.order(other.ID).Status; st != checkout.StatusAwaitingPayment {
		t.Errorf("the other order moved to %s", st)
	}
}

// TestReconcilerExpiryAndLatePayment: the sandbox clock passes the QR's expiry; a pass expires
// the order; a later payment of the expired QR is seen by the next pass and flagged.
func TestReconcilerExpiryAndLatePayment(t *testing.T) {
	e := newEnv(t)
	r := e.reconciler(checkout.ReconcilerOptions{})
	o := e.place()
	e.advance(30*time.Minute + time.Second)
	e.runOnce(r)
	got := e.order(o.ID)
	if got.Status != checkout.StatusExpired || got.CurrentAttempt().State != checkout.AttemptExpired {
		t.Fatalf("after expiry: %s, attempt %s", got.Status, got.CurrentAttempt().State)
	}
	e.control(o.CurrentAttempt().TransactionID, sandbox.ActionPay)
	// Just checked: the next check of an expired order waits at least one interval.
	before := e.gw.getCount(o.CurrentAttempt().TransactionID)
	e.runOnce(r)
	if e.gw.getCount(o.CurrentAttempt().TransactionID) != before {
		t.Error("an expired order was checked again within one interval")
	}
	e.advance(5 * time.Second)
	e.runOnce(r)
	if got := e.order(o.ID); got.Status != checkout.StatusPaid || !got.LatePayment {
		t.Errorf("after the late payment: %s late %v", got.Status, got.LatePayment)
	}
}

// TestReconcilerCompletesPendingAttempt: an order whose gateway answer was lost is completed by
// the reconciler with the same key.
func TestReconcilerCompletesPendingAttempt(t *testing.T) {
	e := newEnv(t)
	r := e.reconciler(checkout.ReconcilerOptions{})
	e.gw.set(func(w *wrapGateway) {
		w.afterCreate = func(*gatewayclient.Transaction, error) (*gatewayclient.Transaction, error) { return nil, errCrash }
	})
	c := e.cart(map[checkout.ProductID]int{ebook: 1})
	o, err := e.svc.PlaceOrder(e.ctx, checkout.PlaceOrderInput{CartID: c.ID, RequestKey: checkout.NewID(), Customer: customer()})
	if err != nil || o.Status != checkout.StatusPending {
		t.Fatalf("PlaceOrder: %v, %v", o, err)
	}
	e.gw.set(func(w *wrapGateway) { w.afterCreate = nil })
	e.runOnce(r)
	if got := e.order(o.ID); got.Status != checkout.StatusAwaitingPayment || got.QR() == nil {
		t.Errorf("after a pass: %s", got.Status)
	}
	if n := e.deposits(); n != 1 {
		t.Errorf("sandbox holds %d transactions, want 1", n)
	}
}

// TestReconcilerBackoff: an order whose deposit cannot be read waits longer and longer between
// checks, while the other orders are checked at every pass.
func TestReconcilerBackoff(t *testing.T) {
	e := newEnv(t)
	var mu sync.Mutex
	now := time.Date(2026, 3, 14, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	const interval = 5 * time.Second
	r := e.reconciler(checkout.ReconcilerOptions{Interval: interval, Clock: clock, MaxBackoff: 20 * time.Second})

	bad, good := e.place(), e.place()
	badTx, goodTx := bad.CurrentAttempt().TransactionID, good.CurrentAttempt().TransactionID
	down := errors.New("deposit unavailable")
	e.gw.set(func(w *wrapGateway) {
		w.beforeGet = func(id string) error {
			if id == badTx {
				return down
			}
			return nil
		}
	})
	t0 := clock()
	pass := func(wantBad, wantGood int, wantFailures int, wantNext time.Time) {
		t.Helper()
		if err := r.RunOnce(e.ctx); err != nil {
			t.Fatalf("RunOnce: %v", err)
		}
		if got := e.gw.getCount(badTx); got != wantBad {
			t.Errorf("failing order checked %d times, want %d", got, wantBad)
		}
		if got := e.gw.getCount(goodTx); got != wantGood {
			t.Errorf("healthy order checked %d times, want %d", got, wantGood)
		}
		next, failures := r.Backoff(bad.ID)
		if failures != wantFailures || !next.Equal(wantNext) {
			t.Errorf("backoff = %d failures, next %v; want %d, %v", failures, next.Sub(t0), wantFailures, wantNext.Sub(t0))
		}
	}
	pass(1, 1, 1, t0.Add(interval))    // fails: wait one interval
	pass(1, 2, 1, t0.Add(interval))    // same instant: skipped
	advance(interval)                  // t0+5s
	pass(2, 3, 2, t0.Add(3*interval))  // fails again: wait two intervals
	advance(interval)                  // t0+10s
	pass(2, 4, 2, t0.Add(3*interval))  // still waiting
	advance(interval)                  // t0+15s
	pass(3, 5, 3, t0.Add(7*interval))  // 4 intervals = 20s, the cap
	advance(4 * interval)              // t0+35s
	pass(4, 6, 4, t0.Add(11*interval)) // capped at 20s
	e.gw.set(func(w *wrapGateway) { w.beforeGet = nil })
	advance(4 * interval)
	pass(5, 7, 0, time.Time{}) // recovered: backoff cleared
}

// concurrencyGate is a Gateway wrapper counting calls in flight. The first calls block until
// `open` of them are in flight at once, so the test sees the limit actually reached.
type concurrencyGate struct {
	checkout.Gateway
	open int

	mu       sync.Mutex
	inflight int
	max      int
	opened   chan struct{}
	once     sync.Once
}

func (g *concurrencyGate) GetDeposit(ctx context.Context, id string) (*gatewayclient.Deposit, error) {
	g.mu.Lock()
	g.inflight++
	g.max = max(g.max, g.inflight)
	reached := g.inflight >= g.open
	g.mu.Unlock()
	if reached {
		g.once.Do(func() { close(g.opened) })
	}
	select {
	case <-g.opened:
	case <-ctx.Done():
	}
	defer func() { g.mu.Lock(); g.inflight--; g.mu.Unlock() }()
	return g.Gateway.GetDeposit(ctx, id)
}

// TestReconcilerBoundedConcurrency: no more than Concurrency gateway calls are in flight.
func TestReconcilerBoundedConcurrency(t *testing.T) {
	e := newEnv(t)
	for range 9 {
		e.place()
	}
	const limit = 3
	gate := &concurrencyGate{Gateway: e.gw, open: limit, opened: make(chan struct{})}
	svc := checkout.NewService(e.store, gate, checkout.ServiceOptions{Clock: e.sb.Now, Logger: slog.New(slog.DiscardHandler)})
	r := checkout.NewReconciler(svc, e.store, checkout.ReconcilerOptions{Concurrency: limit, Clock: e.sb.Now,
		Logger: slog.New(slog.DiscardHandler)})
	if err := r.RunOnce(e.ctx); err != nil {
		t.Fatal(err)
	}
	if gate.max != limit {
		t.Errorf("at most %d calls in flight, want exactly %d", gate.max, limit)
	}
	if n := len(e.gw.gets); n != 9 {
		t.Errorf("%d deposits read, want 9", n)
	}
}

// TestReconcilerRunStops: Run returns when its context ends.
func TestReconcilerRunStops(t *testing.T) {
	e := newEnv(t)
	r := e.reconciler(checkout.ReconcilerOptions{Interval: time.Hour})
	o := e.place()
	e.control(o.CurrentAttempt().TransactionID, sandbox.ActionPay)
	events, stop := e.svc.Subscribe(o.ID)
	defer stop()
	ctx, cancel := context.WithCancel(e.ctx)
	done := make(chan struct{})
	go func() { r.Run(ctx); close(done) }()
	// The first pass runs at once.
	if ev := waitEvent(t, events); ev.Status != checkout.StatusPaid {
		t.Errorf("event %+v", ev)
	}
	cancel()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after cancel")
	}
}

// TestReconcilerSeesPaymentOfReplacedQR: without webhooks, a payment of a QR code replaced by a
// new one (the order awaiting payment on the new one) is seen by the next pass, so the page
// turns paid before the shopper pays the new code too.
func TestReconcilerSeesPaymentOfReplacedQR(t *testing.T) {
	e := newEnv(t)
	r := e.reconciler(checkout.ReconcilerOptions{})
	o := e.place()
	oldTx := o.CurrentAttempt().TransactionID
	// The QR code expires; the shopper asks for a new one, then pays the old one anyway
	// (the gateway accepts a late payment).
	e.advance(31 * time.Minute)
	e.runOnce(r)
	renewed, err := e.svc.RegenerateQR(e.ctx, o.ID)
	if err != nil || renewed.Status != checkout.StatusAwaitingPayment || len(renewed.Attempts) != 2 {
		t.Fatalf("RegenerateQR: %v, %v", renewed, err)
	}
	e.control(oldTx, sandbox.ActionPay)
	e.runOnce(r)
	got := e.order(o.ID)
	if got.Status != checkout.StatusPaid || got.Attempts[0].State != checkout.AttemptPaid || got.QR() != nil {
		t.Fatalf("after a pass: %s, attempts %s/%s; want paid by the first attempt", got.Status, got.Attempts[0].State, got.Attempts[1].State)
	}
	if got.Attempts[1].State != checkout.AttemptSuperseded {
		t.Errorf("the new attempt is %s, want superseded", got.Attempts[1].State)
	}
}
