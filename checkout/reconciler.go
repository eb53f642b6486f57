package checkout

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"
)

// ReconcilerOptions configures a Reconciler. Zero fields take the documented defaults.
type ReconcilerOptions struct {
	Interval        time.Duration    // time between passes (default 5s)
	Concurrency     int              // gateway calls in flight at most (default 4)
	WatchExpiredFor time.Duration    // how long expired and failed orders are watched for late payments (default 24h)
	MaxBackoff      time.Duration    // longest wait after repeated errors for one order (default 5m)
	Clock           func() time.Time // default time.Now
	Logger          *slog.Logger     // default slog.Default()
}

// Reconciler follows payments without relying on webhooks: each pass re-reads the deposits of
// orders awaiting payment, and of the QR codes a renewal replaced (completing pending attempts
// with EnsurePayment), expires orders whose
// QR code expired, and re-reads recently expired or failed orders for late payments. An order
// whose gateway calls fail waits before its next check, doubling each time (in memory, per
// process).
type Reconciler struct {
	svc   *Service
	store Store
	opts  ReconcilerOptions

	mu        sync.Mutex
	backoff   map[string]backoffState
	lateCheck map[string]time.Time // last late-payment check of an expired or failed order
}

type backoffState struct {
	failures int
	next     time.Time
}

// NewReconciler returns a Reconciler of the orders of s, listed from store.
func NewReconciler(s *Service, store Store, opts ReconcilerOptions) *Reconciler {
	if opts.Interval <= 0 {
		opts.Interval = 5 * time.Second
	}
	if opts.Concurrency <= 0 {
		opts.Concurrency = 4
	}
	if opts.WatchExpiredFor <= 0 {
		opts.WatchExpiredFor = 24 * time.Hour
	}
	if opts.MaxBackoff <= 0 {
		opts.MaxBackoff = 5 * time.Minute
	}
	if opts.Clock == nil {
		opts.Clock = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	return &Reconciler{svc: s, store: store, opts: opts, backoff: map[string]backoffState{}, lateCheck: map[string]time.Time{}}
}

// Run makes a pass every Interval until ctx is done.
func (r *Reconciler) Run(ctx context.Context) {
	t := time.NewTicker(r.opts.Interval)
	defer t.Stop()
	for {
		if err := r.RunOnce(ctx); err != nil && ctx.Err() == nil {
			r.opts.Logger.WarnContext(ctx, "reconciliation pass", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// RunOnce makes one pass. Errors of single orders are logged and put the order in backoff;
// the returned error reports a failure to list or expire orders.
func (r *Reconciler) RunOnce(ctx context.Context) error {
	now := r.opts.Clock()
	open, err := r.store.Orders(ctx, OrderFilter{Statuses: []OrderStatus{StatusPending, StatusAwaitingPayment}})
	if err != nil {
		return err
	}
	// An expired or failed order whose renewal is pending is completed like an open one.
	renewing, err := r.store.Orders(ctx, OrderFilter{Statuses: []OrderStatus{StatusExpired, StatusFailed}, PendingAttempt: true})
	if err != nil {
		return err
	}
	r.each(ctx, now, append(open, renewing...), r.refreshOpen)

	_, expErr := r.svc.ExpireDue(ctx)

	since := now.Add(-r.opts.WatchExpiredFor)
	late, err := r.store.Orders(ctx, OrderFilter{Statuses: []OrderStatus{StatusExpired, StatusFailed}, UpdatedSince: since})
	if err != nil {
		return errors.Join(expErr, err)
	}
	r.each(ctx, now, r.lateDue(now, late), r.svc.refreshAll)
	r.forgetSettled(open, late)
	return expErr
}

// each runs fn on the orders not in backoff, Concurrency at a time.
func (r *Reconciler) each(ctx context.Context, now time.Time, orders []*Order, fn func(context.Context, string) (*Order, error)) {
	sem := make(chan struct{}, r.opts.Concurrency)
	var wg sync.WaitGroup
	seen := map[string]bool{}
	for _, o := range orders {
		if seen[o.ID] || !r.due(o.ID, now) {
			continue
		}
		seen[o.ID] = true
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
			wg.Wait()
			return
		}
		wg.Add(1)
		go func(id, number string) {
			defer wg.Done()
			defer func() { <-sem }()
			_, err := fn(ctx, id)
			r.record(id, now, err)
			if err != nil && ctx.Err() == nil {
				// The number, not the id: the id is the shopper's credential.
				r.opts.Logger.WarnContext(ctx, "reconciling order", "number", number, "err", err)
			}
		}(o.ID, o.Number)
	}
	wg.Wait()
}

// refreshOpen is RefreshFromGateway, plus, for an order still awaiting payment on a renewed QR
// code, a read of the QR codes it replaced: a shopper who pays the old one (already scanned on
// the phone) must see the page turn paid without webhooks, rather than pay the new one too.
func (r *Reconciler) refreshOpen(ctx context.Context, id string) (*Order, error) {
	o, err := r.svc.RefreshFromGateway(ctx, id)
	if err != nil || o.Status != StatusAwaitingPayment {
		return o, err
	}
	for i := len(o.Attempts) - 2; i >= 0; i-- {
		a := o.Attempts[i]
		if a.TransactionID == "" || a.State == AttemptFailed && a.BRCode == "" {
			continue // never shown to the shopper: it cannot be paid
		}
		if o, err = r.svc.refreshTransaction(ctx, o, a.TransactionID); err != nil || o.Status == StatusPaid {
			return o, err
		}
	}
	return o, nil
}

// due reports whether the order is not waiting out a backoff at now.
func (r *Reconciler) due(id string, now time.Time) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	b, ok := r.backoff[id]
	return !ok || !now.Before(b.next)
}

// record updates the order's backoff after a check: cleared on success, doubled on failure.
func (r *Reconciler) record(id string, now time.Time, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err == nil {
		delete(r.backoff, id)
		return
	}
	b := r.backoff[id]
	b.failures++
	d := r.opts.Interval
	for i := 1; i < b.failures && d < r.opts.MaxBackoff; i++ {
		d *= 2
	}
	b.next = now.Add(min(d, r.opts.MaxBackoff))
	r.backoff[id] = b
}

// backoffOf returns when the order will next be checked after failures (zero when it is not in
// backoff) and how many checks in a row failed.
func (r *Reconciler) backoffOf(orderID string) (next time.Time, failures int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	b := r.backoff[orderID]
	return b.next, b.failures
}

// lateDue returns the expired or failed orders to check for late payments now. Late payments
// grow rarer as time passes, so an order is checked less often as it ages: at most every
// tenth of the time since it ended, never more often than Interval nor less than every ten
// minutes. This keeps a day of expired orders from costing a gateway call each per pass.
func (r *Reconciler) lateDue(now time.Time, orders []*Order) []*Order {
	r.mu.Lock()
	defer r.mu.Unlock()
	var due []*Order
	for _, o := range orders {
		every := min(max(now.Sub(o.UpdatedAt)/10, r.opts.Interval), 10*time.Minute)
		if last, ok := r.lateCheck[o.ID]; ok && now.Sub(last) < every {
			continue
		}
		r.lateCheck[o.ID] = now
		due = append(due, o)
	}
	return due
}

// forgetSettled drops backoff entries of orders no longer watched, so the map does not grow.
func (r *Reconciler) forgetSettled(lists ...[]*Order) {
	watched := map[string]bool{}
	for _, l := range lists {
		for _, o := range l {
			watched[o.ID] = true
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for id := range r.backoff {
		if !watched[id] {
			delete(r.backoff, id)
		}
	}
	for id := range r.lateCheck {
		if !watched[id] {
			delete(r.lateCheck, id)
		}
	}
}
