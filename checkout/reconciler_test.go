package checkout_test

import (
	"context"
	"errors"
	"log/slog"
	"strings"
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
	t.Parallel()
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

// TestReconcilerCostFollowsChanges: a pass costs one list call however many orders are open,
// plus one per page of new payments; no deposit is read alone while its QR code is valid, and
// a payment applied once is not applied again.
func TestReconcilerCostFollowsChanges(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.reconciler(checkout.ReconcilerOptions{PerPage: 2})
	var orders []*checkout.Order
	for range 7 {
		orders = append(orders, e.place())
	}
	e.runOnce(r) // the first pass scans the late-payment window too
	if n := e.gw.listCount(); n != 2 {
		t.Errorf("first pass: %d list calls, want 2 (open window, late window)", n)
	}
	lists := e.gw.listCount()
	e.runOnce(r)
	if n := e.gw.listCount() - lists; n != 1 {
		t.Errorf("a pass with 7 open orders and no change: %d list calls, want 1", n)
	}
	// Five payments: three pages of two.
	for _, o := range orders[:5] {
		e.control(o.CurrentAttempt().TransactionID, sandbox.ActionPay)
	}
	lists = e.gw.listCount()
	e.runOnce(r)
	if n := e.gw.listCount() - lists; n != 3 {
		t.Errorf("a pass after 5 payments: %d list calls, want 3 pages of 2", n)
	}
	for i, o := range orders {
		want := checkout.StatusAwaitingPayment
		if i < 5 {
			want = checkout.StatusPaid
		}
		if st := e.order(o.ID).Status; st != want {
			t.Errorf("order %d: %s, want %s", i, st, want)
		}
		if known := r.Known(o.CurrentAttempt().TransactionID); known != (i < 5) {
			t.Errorf("order %d: deposit remembered as applied: %v", i, known)
		}
	}
	if n := e.gw.getTotal(); n != 0 {
		t.Errorf("%d single deposit reads, want none", n)
	}
}

// TestReconcilerRemembersForeignDeposits: a payment the checkout did not ask for (another
// integration of the merchant) is looked up once, then skipped.
func TestReconcilerRemembersForeignDeposits(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.reconciler(checkout.ReconcilerOptions{})
	exp := 600
	tx, err := e.client.CreateTransaction(e.ctx, gatewayclient.CreateTransactionRequest{Amount: 1500,
		PaymentMethod: gatewayclient.PaymentMethodPIX, IdempotencyKey: checkout.NewID(),
		Pix: &gatewayclient.PixRequest{ExpirationSeconds: &exp}})
	if err != nil {
		t.Fatal(err)
	}
	e.control(tx.ID, sandbox.ActionPay)
	e.runOnce(r)
	if !r.Known(tx.ID) {
		t.Error("a foreign payment is not remembered: every pass would look it up")
	}
}

// TestReconcilerExpiryAndLatePayment: the sandbox clock passes the QR's expiry; a pass reads
// the deposit once and expires the order; a later payment of the expired QR is seen by the
// next scan of the late-payment window, which runs every LateInterval, and flagged.
func TestReconcilerExpiryAndLatePayment(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.reconciler(checkout.ReconcilerOptions{LateInterval: time.Minute})
	o := e.place()
	tx := o.CurrentAttempt().TransactionID
	e.advance(30*time.Minute + time.Second)
	e.runOnce(r)
	got := e.order(o.ID)
	if got.Status != checkout.StatusExpired || got.CurrentAttempt().State != checkout.AttemptExpired {
		t.Fatalf("after expiry: %s, attempt %s", got.Status, got.CurrentAttempt().State)
	}
	if n := e.gw.getCount(tx); n != 1 {
		t.Errorf("deposit read %d times at its expiry, want once", n)
	}
	// Past the open window (one QR lifetime and the clock skew), only the late scan sees it.
	e.advance(10 * time.Minute)
	e.runOnce(r)
	e.control(tx, sandbox.ActionPay)
	lists := e.gw.listCount()
	e.runOnce(r)
	if n := e.gw.listCount() - lists; n != 1 {
		t.Errorf("%d list calls within LateInterval of the last late scan, want 1 (the open window)", n)
	}
	if st := e.order(o.ID).Status; st != checkout.StatusExpired {
		t.Fatalf("paid before the late scan: %s", st)
	}
	e.advance(time.Minute)
	e.runOnce(r)
	if got := e.order(o.ID); got.Status != checkout.StatusPaid || !got.LatePayment {
		t.Errorf("after the late payment: %s late %v", got.Status, got.LatePayment)
	}
	if n := e.gw.getCount(tx); n != 1 {
		t.Errorf("deposit read alone %d times, want only at its expiry", n)
	}
}

// TestReconcilerPaymentAtExpiry: a QR code paid just before its time ran out is paid, not
// expired, even when the list has not shown the payment.
func TestReconcilerPaymentAtExpiry(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.reconciler(checkout.ReconcilerOptions{})
	o := e.place()
	e.control(o.CurrentAttempt().TransactionID, sandbox.ActionPay)
	e.advance(30*time.Minute + time.Second)
	e.gw.set(func(w *wrapGateway) {
		w.beforeList = func(gatewayclient.DepositFilter) error { return errors.New("list unavailable") }
	})
	if err := r.RunOnce(e.ctx); err == nil {
		t.Error("a pass whose list failed reports no error")
	}
	if got := e.order(o.ID); got.Status != checkout.StatusPaid || got.LatePayment {
		t.Errorf("paid at the last second: %s late %v, want paid on time", got.Status, got.LatePayment)
	}
}

// TestReconcilerPaidWhileAnswerLost: the gateway's answer was lost and the QR code paid
// meanwhile (the shopper had it from a retry elsewhere): one pass stores the answer, then
// applies the listed payment.
func TestReconcilerPaidWhileAnswerLost(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.reconciler(checkout.ReconcilerOptions{})
	e.gw.set(func(w *wrapGateway) {
		w.afterCreate = func(*gatewayclient.Transaction, error) (*gatewayclient.Transaction, error) { return nil, errCrash }
	})
	c := e.cart(map[checkout.ProductID]int{ebook: 1})
	o, err := e.svc.PlaceOrder(e.ctx, checkout.PlaceOrderInput{Source: c.ID, RequestKey: checkout.NewID(), Customer: customer()})
	if err != nil || o.Status != checkout.StatusPending {
		t.Fatalf("PlaceOrder: %v, %v", o, err)
	}
	e.gw.set(func(w *wrapGateway) { w.afterCreate = nil })
	page, err := e.client.ListDeposits(e.ctx, gatewayclient.DepositFilter{})
	if err != nil || len(page.Data) != 1 {
		t.Fatalf("deposits: %v, %v", page, err)
	}
	e.control(page.Data[0].ID, sandbox.ActionPay)
	e.runOnce(r)
	if got := e.order(o.ID); got.Status != checkout.StatusPaid {
		t.Errorf("after a pass: %s, want paid", got.Status)
	}
}

// TestReconcilerCompletesPendingAttempt: an order whose gateway answer was lost is completed by
// the reconciler with the same key.
func TestReconcilerCompletesPendingAttempt(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.reconciler(checkout.ReconcilerOptions{})
	e.gw.set(func(w *wrapGateway) {
		w.afterCreate = func(*gatewayclient.Transaction, error) (*gatewayclient.Transaction, error) { return nil, errCrash }
	})
	c := e.cart(map[checkout.ProductID]int{ebook: 1})
	o, err := e.svc.PlaceOrder(e.ctx, checkout.PlaceOrderInput{Source: c.ID, RequestKey: checkout.NewID(), Customer: customer()})
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

// TestReconcilerBackoff: an order whose pending attempt cannot be completed waits longer and
// longer between tries, while the other orders are completed at once.
func TestReconcilerBackoff(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	var mu sync.Mutex
	now := time.Date(2026, 3, 14, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	const interval = 5 * time.Second
	r := e.reconciler(checkout.ReconcilerOptions{Interval: interval, Clock: clock, MaxBackoff: 20 * time.Second})

	// Both orders are placed while the gateway's answers are lost: both attempts are pending.
	e.gw.set(func(w *wrapGateway) {
		w.afterCreate = func(*gatewayclient.Transaction, error) (*gatewayclient.Transaction, error) { return nil, errCrash }
	})
	place := func() *checkout.Order {
		c := e.cart(map[checkout.ProductID]int{ebook: 1})
		o, err := e.svc.PlaceOrder(e.ctx, checkout.PlaceOrderInput{Source: c.ID, RequestKey: checkout.NewID(), Customer: customer()})
		if err != nil || o.Status != checkout.StatusPending {
			t.Fatalf("PlaceOrder: %v, %v", o, err)
		}
		return o
	}
	bad, good := place(), place()
	var triesMu sync.Mutex
	tries := 0
	e.gw.set(func(w *wrapGateway) {
		w.afterCreate = nil
		w.createErr = func(req gatewayclient.CreateTransactionRequest) error {
			if req.ExternalCode != bad.ExternalCode {
				return nil
			}
			triesMu.Lock()
			defer triesMu.Unlock()
			tries++
			return errCrash
		}
	})
	badTries := func() int { triesMu.Lock(); defer triesMu.Unlock(); return tries }
	t0 := clock()
	pass := func(wantTries, wantFailures int, wantNext time.Time) {
		t.Helper()
		_ = r.RunOnce(e.ctx)
		if got := badTries(); got != wantTries {
			t.Errorf("failing order tried %d times, want %d", got, wantTries)
		}
		next, failures := r.Backoff(bad.ID)
		if failures != wantFailures || !next.Equal(wantNext) {
			t.Errorf("backoff = %d failures, next %v; want %d, %v", failures, next.Sub(t0), wantFailures, wantNext.Sub(t0))
		}
	}
	pass(1, 1, t0.Add(interval)) // fails: wait one interval
	if st := e.order(good.ID).Status; st != checkout.StatusAwaitingPayment {
		t.Errorf("the healthy order is %s after a pass, want awaiting_payment", st)
	}
	pass(1, 1, t0.Add(interval))    // same instant: skipped
	advance(interval)               // t0+5s
	pass(2, 2, t0.Add(3*interval))  // fails again: wait two intervals
	advance(interval)               // t0+10s
	pass(2, 2, t0.Add(3*interval))  // still waiting
	advance(interval)               // t0+15s
	pass(3, 3, t0.Add(7*interval))  // 4 intervals = 20s, the cap
	advance(4 * interval)           // t0+35s
	pass(4, 4, t0.Add(11*interval)) // capped at 20s
	e.gw.set(func(w *wrapGateway) { w.createErr = nil })
	advance(4 * interval)
	pass(4, 0, time.Time{}) // recovered: backoff cleared
	if st := e.order(bad.ID).Status; st != checkout.StatusAwaitingPayment {
		t.Errorf("the recovered order is %s, want awaiting_payment", st)
	}
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

// TestReconcilerBoundedConcurrency: no more than Concurrency single gateway calls are in
// flight (here the reads of nine deposits whose QR codes expire).
func TestReconcilerBoundedConcurrency(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for range 9 {
		e.place()
	}
	e.advance(31 * time.Minute)
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
	t.Parallel()
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
	t.Parallel()
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

// heldLease is a Lease held or not, as a test sets it.
type heldLease struct{ held bool }

func (l *heldLease) Held(context.Context) bool { return l.held }

// TestReconcilerOnlyWithTheLease: an instance that does not hold the lease makes no pass, and
// says it is on standby (not skipped: an alert on skipped passes is about the gateway).
func TestReconcilerOnlyWithTheLease(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var passes []string
	obs := &recordingObserver{pass: func(_ int, result checkout.PassResult, _ error) {
		mu.Lock()
		defer mu.Unlock()
		passes = append(passes, string(result))
	}}
	e := newEnv(t, func(o *envOptions) { o.serviceOptions = func(so *checkout.ServiceOptions) { so.Observer = obs } })
	defer func() {
		mu.Lock()
		defer mu.Unlock()
		if got := strings.Join(passes, ","); got != "standby,ok" {
			t.Errorf("passes %s, want standby,ok", got)
		}
	}()
	lease := &heldLease{}
	r := e.reconciler(checkout.ReconcilerOptions{Lease: lease})
	o := e.place()
	e.control(o.CurrentAttempt().TransactionID, sandbox.ActionPay)
	e.runOnce(r)
	if n := e.gw.listCount(); n != 0 || e.order(o.ID).Status != checkout.StatusAwaitingPayment {
		t.Fatalf("without the lease: %d list calls, order %s", n, e.order(o.ID).Status)
	}
	lease.held = true
	e.runOnce(r)
	if st := e.order(o.ID).Status; st != checkout.StatusPaid {
		t.Errorf("with the lease: %s, want paid", st)
	}
}

// TestReconcilerWaitsOutAGatewayOutage: while the gateway is known to fail (GatewayUp) a pass
// makes no gateway call at all; a pass under way stops when the gateway begins failing
// (GatewayFailing); when it works again, the backoffs earned during the outage are cleared and
// the next pass completes every pending order.
func TestReconcilerWaitsOutAGatewayOutage(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	var mu sync.Mutex
	up := true
	failing := make(chan struct{})
	setUp := func(v bool) {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case up && !v:
			close(failing)
		case !up && v:
			failing = make(chan struct{})
		}
		up = v
	}
	var passes []string
	obs := &recordingObserver{pass: func(found int, result checkout.PassResult, err error) {
		mu.Lock()
		defer mu.Unlock()
		passes = append(passes, string(result))
	}}
	e.svc = checkout.NewService(e.store, e.gw, checkout.ServiceOptions{Clock: e.sb.Now, Observer: obs,
		GatewayUp: func() bool { mu.Lock(); defer mu.Unlock(); return up }})
	r := e.reconciler(checkout.ReconcilerOptions{
		GatewayUp:      func() bool { mu.Lock(); defer mu.Unlock(); return up },
		GatewayFailing: func() <-chan struct{} { mu.Lock(); defer mu.Unlock(); return failing },
	})

	// Two orders whose gateway answers were lost: pending.
	e.gw.set(func(w *wrapGateway) {
		w.afterCreate = func(*gatewayclient.Transaction, error) (*gatewayclient.Transaction, error) { return nil, errCrash }
	})
	var orders []*checkout.Order
	for range 2 {
		c := e.cart(map[checkout.ProductID]int{ebook: 1})
		o, err := e.svc.PlaceOrder(e.ctx, checkout.PlaceOrderInput{Source: c.ID, RequestKey: checkout.NewID(), Customer: customer()})
		if err != nil || o.Status != checkout.StatusPending {
			t.Fatalf("PlaceOrder: %v, %v", o, err)
		}
		orders = append(orders, o)
	}
	// The gateway begins failing during a pass, at its first call: the pass stops there.
	var calls sync.Mutex
	creates := 0
	e.gw.set(func(w *wrapGateway) {
		w.afterCreate = nil
		w.createErr = func(gatewayclient.CreateTransactionRequest) error {
			calls.Lock()
			creates++
			calls.Unlock()
			setUp(false)
			return errCrash
		}
	})
	if err := r.RunOnce(e.ctx); err != nil {
		t.Fatalf("a pass the gateway failed under: %v, want no error (the gateway's state says it)", err)
	}
	calls.Lock()
	during := creates
	calls.Unlock()
	for range 3 {
		if err := r.RunOnce(e.ctx); err != nil {
			t.Fatal(err)
		}
	}
	calls.Lock()
	if creates != during {
		t.Errorf("%d transactions attempted while the gateway failed, want none", creates-during)
	}
	calls.Unlock()
	// Back: every pending order completes at the next pass, whatever its backoff.
	e.gw.set(func(w *wrapGateway) { w.createErr = nil })
	setUp(true)
	e.runOnce(r)
	for _, o := range orders {
		if st := e.order(o.ID).Status; st != checkout.StatusAwaitingPayment {
			t.Errorf("order %s is %s after the gateway came back, want awaiting_payment", o.Number, st)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	want := "skipped,skipped,skipped,skipped,ok"
	if got := strings.Join(passes, ","); got != want {
		t.Errorf("passes %s, want %s", got, want)
	}
}

// recordingObserver records what a test looks at.
type recordingObserver struct {
	pass func(found int, result checkout.PassResult, err error)
}

func (o *recordingObserver) Placement(time.Duration, checkout.Channel, string, bool) {}
func (o *recordingObserver) StatusChanged(_, _ checkout.OrderStatus)                 {}
func (o *recordingObserver) ReconcilePass(found int, result checkout.PassResult, err error) {
	o.pass(found, result, err)
}
