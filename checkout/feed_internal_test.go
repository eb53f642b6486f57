package checkout

import (
	"context"
	"log/slog"
	"sync"
	"testing"
	"time"
)

// feedStore is a Store holding one order, for the feed's tests: only Order and UpdateOrder are
// implemented (the embedded nil Store panics on anything else).
type feedStore struct {
	Store
	mu       sync.Mutex
	reads    int
	stored   Order
	onUpdate func(o *Order) error
}

func (f *feedStore) Order(_ context.Context, id string) (*Order, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reads++
	if id != f.stored.ID {
		return nil, ErrNotFound
	}
	return snapshotOf(&f.stored), nil
}

func (f *feedStore) UpdateOrder(_ context.Context, o *Order, _ ...OutboxMessage) error {
	return f.onUpdate(o)
}

func (f *feedStore) readCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.reads
}

// The database announces an update at its commit, before the process that made it replaced
// its snapshot: the feed's change is read again and published first, and the writer's own
// event of the same version, coming second, does not reach the subscriber again.
func TestOwnWriteHeardFirstFromTheFeedIsDeliveredOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := &feedStore{stored: Order{ID: "a", Version: 1, Status: StatusAwaitingPayment}}
	s := NewService(st, nil, ServiceOptions{Logger: slog.New(slog.DiscardHandler)})
	s.remember(&Order{ID: "a", Version: 1, Status: StatusAwaitingPayment})
	events, stop := s.Subscribe("a")
	defer stop()
	st.onUpdate = func(o *Order) error {
		o.Version++
		st.mu.Lock()
		st.stored = *snapshotOf(o)
		st.mu.Unlock()
		// Committed: the feed hears of it before UpdateOrder returns to the writer.
		return s.changedTo(ctx, "a", o.Version)
	}
	_, _, err := s.update(ctx, "a", func(o *Order) (bool, error) {
		return o.setStatus(StatusExpired, Note("test"), time.Now()), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if st.readCount() != 2 {
		t.Errorf("%d reads of the order, want 2 (the writer's and the feed's)", st.readCount())
	}
	if e := <-events; e.Version != 2 || e.Status != StatusExpired {
		t.Errorf("event %+v, want version 2, expired", e)
	}
	select {
	case e := <-events:
		t.Errorf("a second event %+v for the one change", e)
	default:
	}
}

// A change another process commits while this one writes the same version is heard of from
// the feed: this process's write conflicts, and its subscribers hear of the other's change.
func TestChangeHeardDuringAConflictingWrite(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := &feedStore{stored: Order{ID: "a", Version: 1, Status: StatusAwaitingPayment}}
	s := NewService(st, nil, ServiceOptions{Logger: slog.New(slog.DiscardHandler)})
	events, stop := s.Subscribe("a")
	defer stop()
	st.onUpdate = func(o *Order) error {
		// Another instance pays the order and commits version 2 first; its announcement
		// arrives while this write of version 2 is under way.
		st.mu.Lock()
		st.stored = Order{ID: "a", Version: 2, Status: StatusPaid}
		st.mu.Unlock()
		if err := s.changedTo(ctx, "a", 2); err != nil {
			t.Error(err)
		}
		return ErrConflict
	}
	_, _, err := s.update(ctx, "a", func(o *Order) (bool, error) {
		return o.setStatus(StatusExpired, Note("test"), time.Now()), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case e := <-events:
		if e.Version != 2 {
			t.Errorf("event %+v, want version 2", e)
		}
	default:
		t.Fatal("the subscriber never heard of the payment made during the failed write")
	}
	if got := s.snaps.get("a", time.Now(), 0); got == nil || got.Status != StatusPaid {
		t.Errorf("snapshot %+v, want paid", got)
	}
}
