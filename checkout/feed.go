package checkout

import (
	"context"
	"fmt"
	"time"
)

// ChangeFeed tells a process of the changes of orders made by other processes sharing its
// store (several instances on one PostgreSQL database). checkout/postgres implements it with
// LISTEN/NOTIFY.
type ChangeFeed interface {
	// Follow calls changed with the id and new version of each order changed, by any process,
	// until ctx ends. When the feed was interrupted (its connection lost, then back), it calls
	// gap with a time before which nothing was missed, so that what changed since is read
	// again. Both are called from Follow's goroutine, one at a time.
	Follow(ctx context.Context, changed func(orderID string, version int), gap func(since time.Time))
}

// Lease decides which of several processes sharing a store does a job meant for one at a
// time (the reconciler): Held reports whether this process holds it now, taking it when it is
// free. A lease whose holder dies moves to another process.
type Lease interface {
	Held(ctx context.Context) bool
}

// Follow keeps the service's snapshots and subscribers in step with the changes other
// processes make, from feed, until ctx ends: a change is read again when this process holds
// an older snapshot of the order, and every change of status reaches the subscribers (the live
// pages' streams). After a gap in the feed, the orders changed since are read again (CatchUp).
func (s *Service) Follow(ctx context.Context, feed ChangeFeed) {
	feed.Follow(ctx, func(id string, version int) {
		if err := s.changedTo(ctx, id, version); err != nil && ctx.Err() == nil {
			s.log.WarnContext(ctx, "reading an order changed elsewhere", "err", err)
		}
	}, func(since time.Time) {
		if err := s.CatchUp(ctx, since); err != nil && ctx.Err() == nil {
			s.log.WarnContext(ctx, "reading the orders changed during a gap of the change feed", "err", err)
		}
	})
}

// changedTo is Changed for a change to a known version: nothing is read when this process
// already holds that version (it made the change, and replaced its snapshot already) or holds
// no snapshot of the order (the next read fills it); the subscribers are told in the latter
// case, and they read it. The database announces a change at its commit, so a change this
// process is writing may be heard of before the writer replaced its snapshot: it is read
// again, and the writer's own event of that version, coming second, is not delivered (broker).
func (s *Service) changedTo(ctx context.Context, id string, version int) error {
	held := s.snaps.get(id, s.now(), 0)
	switch {
	case held != nil && held.Version >= version:
		return nil
	case held == nil:
		s.events.publish(OrderEvent{OrderID: id, Version: version})
		return nil
	}
	return s.Changed(ctx, id)
}

// catchUpSkew is how far before the start of a gap the orders are read again: the times in
// the store come from the clocks of the processes that wrote them.
const catchUpSkew = time.Minute

// CatchUp reads again the orders changed since a moment (less a margin for the clocks of other
// processes): their snapshots are replaced and their subscribers told when their status
// differs, as Changed does for one order.
func (s *Service) CatchUp(ctx context.Context, since time.Time) error {
	changed, err := s.store.Orders(ctx, OrderFilter{Statuses: OrderStatuses(), UpdatedSince: since.Add(-catchUpSkew)})
	if err != nil {
		return fmt.Errorf("checkout: listing the orders changed since %s: %w", since.Format(time.RFC3339), err)
	}
	for _, o := range changed {
		held := s.snaps.get(o.ID, s.now(), 0)
		if held != nil && held.Version >= o.Version {
			continue
		}
		s.remember(o)
		if held == nil || held.Status != o.Status {
			s.events.publish(eventOf(o))
		}
	}
	return nil
}
