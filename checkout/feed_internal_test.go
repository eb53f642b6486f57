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
// its snapshot: the feed passes over a version this process is writing instead of reading the
// order again, and reads it as before when no write of that version is under way.
func TestFeedPassesOverOwnWrites(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := &feedStore{stored: Order{ID: "a", Version: 2, Status: StatusPaid}}
	s := NewService(st, nil, ServiceOptions{Logger: slog.New(slog.DiscardHandler)})
	s.remember(&Order{ID: "a", Version: 1, Status: StatusAwaitingPayment})

	s.own.begin("a", 2)
	if err := s.changedTo(ctx, "a", 2); err != nil || st.readCount() != 0 {
		t.Fatalf("a change to the version being written here: %v, %d reads; want none", err, st.readCount())
	}
	if !s.own.end("a", 2) {
		t.Error("the write's end did not report the change passed over")
	}
	if s.own.end("a", 2) {
		t.Error("a write ended twice reported a change")
	}
	if err := s.changedTo(ctx, "a", 2); err != nil || st.readCount() != 1 {
		t.Fatalf("a change made elsewhere: %v, %d reads; want 1", err, st.readCount())
	}
	if got := s.snaps.get("a", time.Now(), 0); got == nil || got.Version != 2 {
		t.Errorf("snapshot after the change: %+v, want version 2", got)
	}
}

// When the write the feed's change was passed over for fails (another process wrote that
// version first), the writer reads the order again and its subscribers hear of the change.
func TestFailedOwnWriteReadsThePassedOverChange(t *testing.T) {
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
		if e.Status != StatusPaid {
			t.Errorf("event %+v, want paid", e)
		}
	default:
		t.Fatal("the subscriber never heard of the payment passed over during the failed write")
	}
	if got := s.snaps.get("a", time.Now(), 0); got == nil || got.Status != StatusPaid {
		t.Errorf("snapshot %+v, want paid", got)
	}
}
