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
)

// RetentionOptions configures a Retention. Zero fields take the documented defaults.
type RetentionOptions struct {
	Carts      time.Duration    // how long an unchanged cart is kept (DefaultCartRetention)
	WebhookIDs time.Duration    // how long a webhook id is kept (DefaultWebhookIDRetention)
	Interval   time.Duration    // time between sweeps (default 10 minutes)
	Batch      int              // rows deleted per statement (default 500)
	Pause      time.Duration    // rest between two batches, so shoppers' writes go first (default 20 ms)
	Clock      func() time.Time // default time.Now
	Logger     *slog.Logger     // default slog.Default()
}

// Retention deletes abandoned carts and old webhook ids in small batches, so that the database
// does not grow with every visit and no sweep holds a shopper up. Several processes may run one
// on the same database: batches skip rows another is deleting.
type Retention struct {
	store Store
	opts  RetentionOptions
}

// NewRetention returns a Retention of store.
func NewRetention(store Store, opts RetentionOptions) *Retention {
	if opts.Carts <= 0 {
		opts.Carts = DefaultCartRetention
	}
	if opts.WebhookIDs <= 0 {
		opts.WebhookIDs = DefaultWebhookIDRetention
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
	return &Retention{store: store, opts: opts}
}

// Run sweeps every Interval until ctx is done.
func (r *Retention) Run(ctx context.Context) {
	t := time.NewTicker(r.opts.Interval)
	defer t.Stop()
	for {
		carts, hooks, err := r.RunOnce(ctx)
		switch {
		case err != nil && ctx.Err() == nil:
			r.opts.Logger.WarnContext(ctx, "retention sweep", "err", err)
		case carts+hooks > 0:
			r.opts.Logger.InfoContext(ctx, "retention sweep", "carts", carts, "webhookIds", hooks)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// RunOnce deletes, batch after batch, the carts and the webhook ids past their retention, and
// returns how many of each it deleted.
func (r *Retention) RunOnce(ctx context.Context) (carts, webhookIDs int, err error) {
	now := r.opts.Clock()
	carts, cerr := r.sweep(ctx, func(ctx context.Context) (int, error) {
		return r.store.PruneCarts(ctx, now.Add(-r.opts.Carts), r.opts.Batch)
	})
	webhookIDs, werr := r.sweep(ctx, func(ctx context.Context) (int, error) {
		return r.store.PruneWebhooks(ctx, now.Add(-r.opts.WebhookIDs), r.opts.Batch)
	})
	if cerr != nil {
		cerr = fmt.Errorf("checkout: pruning carts: %w", cerr)
	}
	if werr != nil {
		werr = fmt.Errorf("checkout: pruning webhook ids: %w", werr)
	}
	return carts, webhookIDs, errors.Join(cerr, werr)
}

// sweep runs batch until one deletes less than a full batch, resting between batches.
func (r *Retention) sweep(ctx context.Context, batch func(context.Context) (int, error)) (int, error) {
	total := 0
	for {
		n, err := batch(ctx)
		total += n
		if err != nil || n < r.opts.Batch {
			return total, err
		}
		select {
		case <-ctx.Done():
			return total, ctx.Err()
		case <-time.After(r.opts.Pause):
		}
	}
}
