package checkout

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// ReconcilerOptions configures a Reconciler. Zero fields take the documented defaults.
type ReconcilerOptions struct {
	Interval time.Duration // time between passes (default 5s)
	// LateInterval is the time between two scans of the late-payment window (default 1 minute).
	LateInterval    time.Duration
	Concurrency     int           // single gateway calls in flight at most (default 4)
	WatchExpiredFor time.Duration // how long expired and failed orders are watched for late payments (default 24h)
	MaxBackoff      time.Duration // longest wait after repeated errors for one order (default 5m)
	Skew            time.Duration // how far the gateway's clock may be from ours (default 5m)
	PerPage         int           // deposits asked per list page (default 100)
	// Lease, when set, lets only one of the processes sharing the store reconcile: a pass is
	// made only while this process holds it.
	Lease Lease
	// GatewayUp, when set, tells whether the gateway is believed to work (the program's
	// monitor of every call, which probes it while idle). While it says no, passes make no
	// gateway call at all: the outage is waited out, not hammered by every open order. When it
	// works again, the orders' backoffs, earned during the outage, are cleared, so that every
	// pending order is completed at the next pass.
	GatewayUp func() bool
	// GatewayFailing, when set, returns a channel closed when the gateway fails (at once while
	// it fails): a pass under way stops its calls then, instead of waiting out their timeouts.
	GatewayFailing func() <-chan struct{}
	Clock          func() time.Time // default time.Now
	Logger         *slog.Logger     // default slog.Default()
}

// Reconciler follows payments without relying on webhooks, at a cost that follows what
// changed rather than how many orders are open:
//
//   - Each pass lists the deposits paid among those created since the oldest QR code that may
//     still be open (GET /deposit by status and date range, newest first, page after page),
//     and applies those it does not know yet: one call per pass, plus one per page of
//     payments. A deposit applied once is remembered (in memory, per process) and skipped.
//   - Every LateInterval the same list covers the rest of the late-payment window
//     (WatchExpiredFor), so that a QR code paid after it expired or was replaced still makes
//     its order paid.
//   - Single calls remain where the list cannot answer: an order whose QR code is due to
//     expire has its deposit read once before it is expired (a payment at the last second, or
//     a deposit the gateway failed, is applied instead), and an order whose attempt is pending
//     (the gateway's answer was lost) is completed with EnsurePayment. An order whose calls
//     fail waits before its next check, doubling each time.
//
// No pass reads every open order from the store: the due expiries and pending attempts are
// found through the store's indexes.
type Reconciler struct {
	svc   *Service
	store Store
	opts  ReconcilerOptions

	mu       sync.Mutex
	backoff  map[string]backoffState // by order id (single calls) or deposit id (applying a listed deposit)
	known    map[string]time.Time    // deposits applied, by id, with their creation time
	lastLate time.Time               // the last scan of the late-payment window
	// gatewayDown: the last pass found the gateway failing (GatewayUp) and made no call.
	gatewayDown bool
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
	if opts.LateInterval <= 0 {
		opts.LateInterval = time.Minute
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
	if opts.Skew <= 0 {
		opts.Skew = 5 * time.Minute
	}
	if opts.PerPage <= 0 {
		opts.PerPage = 100
	}
	if opts.Clock == nil {
		opts.Clock = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	return &Reconciler{svc: s, store: store, opts: opts, backoff: map[string]backoffState{}, known: map[string]time.Time{}}
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
// the returned error reports a failure to list orders or deposits.
func (r *Reconciler) RunOnce(ctx context.Context) (err error) {
	result := PassSkipped
	var found atomic.Int64
	if obs := r.svc.observer; obs != nil {
		defer func() {
			if result == PassOK && err != nil {
				result = PassError
			}
			obs.ReconcilePass(int(found.Load()), result, err)
		}()
	}
	if r.opts.Lease != nil && !r.opts.Lease.Held(ctx) {
		result = PassStandby
		return nil // another process reconciles
	}
	if !r.gatewayUp() {
		return nil
	}
	result = PassOK
	if r.opts.GatewayFailing != nil {
		failing := r.opts.GatewayFailing()
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(ctx)
		defer cancel()
		stopped := make(chan struct{})
		defer close(stopped)
		go func() {
			select {
			case <-failing:
				cancel()
			case <-stopped:
			}
		}()
		defer func() {
			if ctx.Err() != nil && isClosed(failing) {
				// Not a failure of the pass: the gateway failed under it, which its state says.
				r.opts.Logger.InfoContext(ctx, "reconciliation pass stopped: the gateway fails")
				err, result = nil, PassSkipped
			}
		}()
	}
	return r.sweep(ctx, r.opts.Clock(), &found)
}

// gatewayUp reports whether a pass may call the gateway: yes without GatewayUp, else as it
// says. When the gateway is back, the orders in backoff are tried at once.
func (r *Reconciler) gatewayUp() bool {
	if r.opts.GatewayUp == nil {
		return true
	}
	up := r.opts.GatewayUp()
	r.mu.Lock()
	defer r.mu.Unlock()
	if up && r.gatewayDown {
		clear(r.backoff)
	}
	r.gatewayDown = !up
	return up
}

// sweep is a pass's work at now, found counting the deposits it read.
func (r *Reconciler) sweep(ctx context.Context, now time.Time, found *atomic.Int64) error {
	var errs []error
	// Attempts the gateway never answered: completed with their idempotency key.
	pending, err := r.store.Orders(ctx, OrderFilter{Statuses: []OrderStatus{StatusPending}})
	errs = append(errs, err)
	// An expired or failed order whose renewal is pending is completed like an open one.
	renewing, err := r.store.Orders(ctx, OrderFilter{Statuses: []OrderStatus{StatusExpired, StatusFailed}, PendingAttempt: true})
	errs = append(errs, err)
	r.each(ctx, now, append(pending, renewing...), r.svc.ensure)

	// Payments of the QR codes that may still be open: created at most one QR lifetime ago.
	open := time.Duration(r.svc.expiration) * time.Second
	errs = append(errs, r.scan(ctx, now, now.Add(-open-r.opts.Skew), now.Add(r.opts.Skew), found))
	// The rest of the late-payment window, less often.
	if r.lateDue(now) {
		err := r.scan(ctx, now, now.Add(-r.opts.WatchExpiredFor-open-r.opts.Skew), now.Add(-open), found)
		if err == nil {
			r.mu.Lock()
			r.lastLate = now
			r.mu.Unlock()
		}
		errs = append(errs, err)
	}

	// QR codes whose time is over: their deposit is read once, then they expire.
	due, err := r.store.Orders(ctx, OrderFilter{Statuses: []OrderStatus{StatusAwaitingPayment}, ExpiresBefore: now})
	errs = append(errs, err)
	r.each(ctx, now, due, r.svc.expireChecked)

	r.forget(now)
	return errors.Join(errs...)
}

// isClosed reports whether ch is closed.
func isClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// lateDue reports whether the late-payment window is to be scanned at now.
func (r *Reconciler) lateDue(now time.Time) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.lastLate.IsZero() || now.Sub(r.lastLate) >= r.opts.LateInterval || now.Before(r.lastLate)
}

// depositsPaid are the deposit states listed: a payment, whatever happened to it since.
var depositsPaid = []gatewayclient.DepositStatus{gatewayclient.DepositPaid}

// scan lists the deposits paid among those created from start to end and applies those not
// applied before, counting in found those that changed their order.
func (r *Reconciler) scan(ctx context.Context, now, start, end time.Time, found *atomic.Int64) error {
	f := gatewayclient.DepositFilter{StartDate: start, EndDate: end, Status: depositsPaid,
		DepositOrigin: []gatewayclient.DepositOrigin{gatewayclient.OriginQRCode}, PerPage: r.opts.PerPage}
	var todo []gatewayclient.Deposit
	for d, err := range (gatewayPages{r.svc.gw}).AllDeposits(ctx, f) {
		if err != nil {
			return fmt.Errorf("checkout: listing paid deposits: %w", err)
		}
		if r.isKnown(d.ID) || !r.due(d.ID, now) {
			continue
		}
		todo = append(todo, d)
	}
	for i := range todo {
		d := &todo[i]
		o, changed, err := r.svc.ApplyDeposit(ctx, d)
		if err == nil && changed {
			found.Add(1)
		}
		switch {
		case errors.Is(err, ErrNotFound):
			r.remember(d) // not an order of this checkout
		case err != nil:
			r.record(d.ID, now, err)
			if ctx.Err() == nil {
				r.opts.Logger.WarnContext(ctx, "applying a paid deposit", "deposit", d.ID, "err", err)
			}
		case o.AttemptByTransaction(d.ID) != nil:
			// Applied (or already known to the order): the same record changes nothing again.
			// An attempt not stored yet (its answer was lost) is applied once EnsurePayment
			// stored it.
			r.record(d.ID, now, nil)
			r.remember(d)
		}
	}
	return nil
}

// AllDeposits walks the deposits matching f page after page, as gatewayclient.Client's own
// AllDeposits does, over any Gateway.
func (g gatewayPages) AllDeposits(ctx context.Context, f gatewayclient.DepositFilter) iter.Seq2[gatewayclient.Deposit, error] {
	return func(yield func(gatewayclient.Deposit, error) bool) {
		for page := 1; ; page++ {
			f.Page = page
			p, err := g.ListDeposits(ctx, f)
			if err != nil {
				yield(gatewayclient.Deposit{}, err)
				return
			}
			for _, d := range p.Data {
				if !yield(d, nil) {
					return
				}
			}
			if len(p.Data) == 0 || page >= p.TotalPages {
				return
			}
		}
	}
}

// gatewayPages walks the pages of a Gateway's lists.
type gatewayPages struct{ Gateway }

// isKnown reports whether the deposit id was applied before.
func (r *Reconciler) isKnown(id string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, ok := r.known[id]
	return ok
}

// remember records that d was applied.
func (r *Reconciler) remember(d *gatewayclient.Deposit) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.known[d.ID] = d.CreatedAt
}

// forget drops what concerns deposits older than the late-payment window, so memory follows
// the window, not the history.
func (r *Reconciler) forget(now time.Time) {
	horizon := now.Add(-r.opts.WatchExpiredFor - time.Duration(r.svc.expiration)*time.Second - 2*r.opts.Skew)
	r.mu.Lock()
	defer r.mu.Unlock()
	for id, created := range r.known {
		if created.Before(horizon) {
			delete(r.known, id)
		}
	}
	for id, b := range r.backoff {
		if now.Sub(b.next) > r.opts.WatchExpiredFor {
			delete(r.backoff, id)
		}
	}
}

// each runs fn on the orders not in backoff, Concurrency at a time.
func (r *Reconciler) each(ctx context.Context, now time.Time, orders []*Order, fn func(context.Context, string) (*Order, error)) {
	sem := make(chan struct{}, r.opts.Concurrency)
	var wg sync.WaitGroup
	seen := map[string]bool{}
	for _, o := range orders {
		if r.opts.GatewayUp != nil && !r.opts.GatewayUp() {
			break // the gateway began failing during the pass: the rest wait for it
		}
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

// due reports whether the order (or deposit) is not waiting out a backoff at now.
func (r *Reconciler) due(id string, now time.Time) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	b, ok := r.backoff[id]
	return !ok || !now.Before(b.next)
}

// record updates a backoff after a check: cleared on success, doubled on failure.
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
