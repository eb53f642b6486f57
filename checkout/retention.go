package checkout

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"
)

// Default retention: what is kept of what nobody needs any more.
const (
	// DefaultCartRetention: a cart nobody changed for a week is abandoned (an order keeps its
	// own copy of its lines).
	DefaultCartRetention = 7 * 24 * time.Hour
	// DefaultWebhookIDRetention: a webhook id is kept three days to recognise a redelivery,
	// well past the gateway's retry window (the sandbox gives up after about 2.5 hours; a
	// redelivery after the id is forgotten is only applied again, which changes nothing).
	DefaultWebhookIDRetention = 72 * time.Hour
	// DefaultSessionRetention: a checkout session that expired without an order is kept a week
	// after its expiry, so that the merchant can still read it through the API (a session with
	// an order is kept with the order).
	DefaultSessionRetention = 7 * 24 * time.Hour
)

// RetentionOptions configures a Retention. Zero fields take the documented defaults.
type RetentionOptions struct {
	Carts      time.Duration    // how long an unchanged cart is kept (DefaultCartRetention)
	WebhookIDs time.Duration    // how long a webhook id is kept (DefaultWebhookIDRetention)
	Sessions   time.Duration    // how long after its expiry a session without an order is kept (DefaultSessionRetention)
	Interval   time.Duration    // time between sweeps (default 10 minutes)
	Batch      int              // rows deleted per statement (default 500)
	Pause      time.Duration    // rest between two batches, so shoppers' writes go first (default 20 ms)
	Clock      func() time.Time // default time.Now
	Logger     *slog.Logger     // default slog.Default()

	// PersonalData is how long an order keeps its shopper's personal data once in a final state
	// (DefaultPersonalDataRetention); Anonymiser, when set, anonymises them after it (the
	// Service with its PersonalDataKey), at most 50 orders a transaction.
	PersonalData time.Duration
	Anonymiser   Anonymiser

	// Overdue, when set, marks the charges whose due date has passed on the clock's São Paulo
	// day (charges.Manager.MarkOverdue) at each sweep, returning how many it marked: every
	// instance may sweep, since a charge changes status once whoever marks it first.
	Overdue func(ctx context.Context) (int, error)
	// Issue, when set, issues the subscriptions' charges due within their lead days on the
	// clock's São Paulo day (subscriptions.Manager.Issue) at each sweep, before marking charges
	// overdue, returning how many it issued: every instance may sweep, since a period's
	// charge is made once whoever makes it first.
	Issue func(ctx context.Context) (int, error)
}

// Anonymiser anonymises orders whose personal data are past their retention: at most limit
// orders in a final state since before, in one short transaction, returning how many.
// *Service is one.
type Anonymiser interface {
	AnonymiseDue(ctx context.Context, before time.Time, limit int) (int, error)
}

// personalDataBatch bounds the orders anonymised in one transaction: each is a few statements
// (its row, its attempts' requests, its notifications, its session), and the transaction must
// stay short.
const personalDataBatch = 50

// Retention deletes abandoned carts, old webhook ids and long-expired checkout sessions that
// never got an order, in small batches, so that the database
// does not grow with every visit and no sweep holds a shopper up. Several processes may run one
// on the same database: batches skip rows another is deleting.
type Retention struct {
	store    Store
	sessions CheckoutSessionStore
	opts     RetentionOptions
}

// NewRetention returns a Retention of store and of its checkout sessions.
func NewRetention(store Store, sessions CheckoutSessionStore, opts RetentionOptions) *Retention {
	if opts.Carts <= 0 {
		opts.Carts = DefaultCartRetention
	}
	if opts.WebhookIDs <= 0 {
		opts.WebhookIDs = DefaultWebhookIDRetention
	}
	if opts.Sessions <= 0 {
		opts.Sessions = DefaultSessionRetention
	}
	if opts.PersonalData <= 0 {
		opts.PersonalData = DefaultPersonalDataRetention
	}
	if opts.Interval <= 0 {
		opts.Interval = 10 * time.Minute
	}
	if opts.Batch <= 0 {
		opts.Batch = 500
	}
	if opts.Pause <= 0 {
		opts.Pause = 20 * time.Millisecond
	}
	if opts.Clock == nil {
		opts.Clock = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	return &Retention{store: store, sessions: sessions, opts: opts}
}

// Run sweeps every Interval until ctx is done.
func (r *Retention) Run(ctx context.Context) {
	t := time.NewTicker(r.opts.Interval)
	defer t.Stop()
	for {
		n, err := r.RunOnce(ctx)
		switch {
		case err != nil && ctx.Err() == nil:
			r.opts.Logger.WarnContext(ctx, "retention sweep", "err", err)
		case n.Carts+n.WebhookIDs+n.Sessions+n.PersonalData+n.Overdue+n.Issued > 0:
			r.opts.Logger.InfoContext(ctx, "retention sweep", "carts", n.Carts, "webhookIds", n.WebhookIDs, "sessions", n.Sessions,
				"anonymisedOrders", n.PersonalData, "overdueCharges", n.Overdue, "issuedCharges", n.Issued)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Pruned counts what a sweep deleted, the orders whose personal data it anonymised, the
// charges it marked overdue and those it issued for subscriptions.
type Pruned struct {
	Carts, WebhookIDs, Sessions int
	PersonalData                int
	Overdue                     int
	Issued                      int
}

// RunOnce deletes, batch after batch, the carts, the webhook ids and the checkout sessions past
// their retention, anonymises the orders whose personal data are past theirs, issues the
// subscriptions' charges, marks the charges past their due date overdue, and returns how many
// of each it did.
func (r *Retention) RunOnce(ctx context.Context) (Pruned, error) {
	now := r.opts.Clock()
	var n Pruned
	var cerr, werr, serr error
	n.Carts, cerr = r.sweep(ctx, func(ctx context.Context) (int, error) {
		return r.store.PruneCarts(ctx, now.Add(-r.opts.Carts), r.opts.Batch)
	})
	n.WebhookIDs, werr = r.sweep(ctx, func(ctx context.Context) (int, error) {
		return r.store.PruneWebhooks(ctx, now.Add(-r.opts.WebhookIDs), r.opts.Batch)
	})
	n.Sessions, serr = r.sweep(ctx, func(ctx context.Context) (int, error) {
		return r.sessions.PruneCheckoutSessions(ctx, now.Add(-r.opts.Sessions), r.opts.Batch)
	})
	var perr error
	if r.opts.Anonymiser != nil {
		batch := min(r.opts.Batch, personalDataBatch)
		n.PersonalData, perr = r.sweepBy(ctx, batch, func(ctx context.Context) (int, error) {
			return r.opts.Anonymiser.AnonymiseDue(ctx, now.Add(-r.opts.PersonalData), batch)
		})
		if perr != nil {
			perr = fmt.Errorf("checkout: anonymising personal data: %w", perr)
		}
	}
	var ierr, oerr error
	if r.opts.Issue != nil {
		if n.Issued, ierr = r.opts.Issue(ctx); ierr != nil {
			ierr = fmt.Errorf("checkout: issuing subscriptions' charges: %w", ierr)
		}
	}
	if r.opts.Overdue != nil {
		if n.Overdue, oerr = r.opts.Overdue(ctx); oerr != nil {
			oerr = fmt.Errorf("checkout: marking charges overdue: %w", oerr)
		}
	}
	if cerr != nil {
		cerr = fmt.Errorf("checkout: pruning carts: %w", cerr)
	}
	if werr != nil {
		werr = fmt.Errorf("checkout: pruning webhook ids: %w", werr)
	}
	if serr != nil {
		serr = fmt.Errorf("checkout: pruning checkout sessions: %w", serr)
	}
	return n, errors.Join(cerr, werr, serr, perr, ierr, oerr)
}

// sweep runs batch until one deletes less than a full batch, resting between batches.
func (r *Retention) sweep(ctx context.Context, batch func(context.Context) (int, error)) (int, error) {
	return r.sweepBy(ctx, r.opts.Batch, batch)
}

// sweepBy runs batch until one does less than size, resting between batches.
func (r *Retention) sweepBy(ctx context.Context, size int, batch func(context.Context) (int, error)) (int, error) {
	total := 0
	for {
		n, err := batch(ctx)
		total += n
		if err != nil || n < size {
			return total, err
		}
		select {
		case <-ctx.Done():
			return total, ctx.Err()
		case <-time.After(r.opts.Pause):
		}
	}
}
