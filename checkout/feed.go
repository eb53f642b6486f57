package checkout

import (
	"context"
	"fmt"
	"sync"
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
// already holds that version (it made the change) or holds no snapshot of the order (the next
// read fills it); the subscribers are told in the latter case, and they read it.
func (s *Service) changedTo(ctx context.Context, id string, version int) error {
	if s.own.passOver(id, version) {
		return nil // this process is writing that version: it replaces the snapshot and tells
	}
	held := s.snaps.get(id, s.now(), 0)
	switch {
	case held != nil && held.Version >= version:
		return nil
	case held == nil:
		s.events.publish(OrderEvent{OrderID: id})
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
			s.events.publish(OrderEvent{OrderID: o.ID, Status: o.Status, At: o.UpdatedAt})
		}
	}
	return nil
}

// ownWrites are the versions of orders this process is writing. The database announces a
// change at its commit, before the writer has had time to replace its snapshot (under load a
// third of the orders were read again right after their own update): the feed passes over a
// change to a version being written here, and the writer, should its write fail after all,
// reads the order again if such a change was passed over meanwhile (another process's).
type ownWrites struct {
	mu sync.Mutex
	m  map[ownWrite]*ownWriting
}

// ownWrite is an order's version being written.
type ownWrite struct {
	id      string
	version int
}

// ownWriting counts the writers of one version (goroutines racing on one order, one of which
// will win) and records whether a change to it was passed over.
type ownWriting struct {
	writers int
	heard   bool
}

func newOwnWrites() *ownWrites { return &ownWrites{m: map[ownWrite]*ownWriting{}} }

// begin notes that this process is about to store version of order id.
func (w *ownWrites) begin(id string, version int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	k := ownWrite{id, version}
	if w.m[k] == nil {
		w.m[k] = &ownWriting{}
	}
	w.m[k].writers++
}

// end notes that the write begun with begin is over, and reports whether a change to that
// version was passed over meanwhile.
func (w *ownWrites) end(id string, version int) (heard bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	k := ownWrite{id, version}
	e := w.m[k]
	if e == nil {
		return false
	}
	e.writers--
	if e.writers == 0 {
		delete(w.m, k)
	}
	return e.heard
}

// passOver reports whether version of order id is being written here, noting that a change
// to it was heard.
func (w *ownWrites) passOver(id string, version int) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	e := w.m[ownWrite{id, version}]
	if e == nil {
		return false
	}
	e.heard = true
	return true
}
