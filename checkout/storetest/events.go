package storetest

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// testEvents: a subscriber of an order (a live page's stream) hears each of its changes once,
// in order. On a store with a change feed (PostgreSQL) the service follows it, and each of its
// writes is held until the feed has heard of it: the database announces a commit before the
// writer returns, so the feed's event comes first and the writer's own is the second of the
// same version, which must not reach the subscriber again. A change made by another instance
// reaches the subscriber through the feed alone.
func testEvents(t *testing.T, s checkout.Store) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	feed, following := s.(checkout.ChangeFeed)
	spy := &feedSpy{ChangeFeed: feed, heard: map[string]int{}, poke: make(chan struct{}, 1), listening: make(chan struct{})}
	svc := actionsService(&feedFirst{Store: s, spy: spy, following: following, t: t})
	if following {
		done := make(chan struct{})
		go func() { defer close(done); svc.Follow(ctx, spy) }()
		defer func() { cancel(); <-done }()
		select {
		case <-spy.listening:
		case <-time.After(30 * time.Second):
			t.Fatal("the change feed did not listen within 30 s")
		}
	}

	o := awaitingOrder(t, s, true)
	if following && !spy.await(o.ID, o.Version) {
		t.Fatal("the change feed did not tell of the new order within 30 s")
	}
	events, stop := svc.Subscribe(o.ID)
	defer stop()
	if _, err := svc.Snapshot(ctx, o.ID); err != nil { // as a stream does once subscribed
		t.Fatal(err)
	}
	paid := pay(t, svc, o, 1, o.Amount)
	shipped, _, err := svc.MarkShipped(ctx, o.ID, checkout.ShipInput{Carrier: "Correios", TrackingCode: "AA123456789BR"})
	must(t, err)
	deliverer := svc
	if following {
		deliverer = actionsService(s) // another instance: heard of through the feed only
	}
	delivered, _, err := deliverer.MarkDelivered(ctx, o.ID)
	must(t, err)
	want := []checkout.OrderEvent{eventOf(paid), eventOf(shipped), eventOf(delivered)}

	var got []checkout.OrderEvent
	for len(got) < len(want) {
		select {
		case e := <-events:
			got = append(got, eventOf(&checkout.Order{Version: e.Version, Status: e.Status}))
		case <-time.After(30 * time.Second):
			t.Fatalf("events heard %+v, want %+v: some never came", got, want)
		}
	}
	// Every change was published before its action returned (or heard of, for the other
	// instance's): a duplicate would be waiting now.
	select {
	case e := <-events:
		got = append(got, eventOf(&checkout.Order{Version: e.Version, Status: e.Status}))
	default:
	}
	if !slices.Equal(got, want) {
		t.Errorf("events heard %+v, want %+v (each version once, in order)", got, want)
	}
}

// eventOf is what testEvents compares of an event of o: its version and status.
func eventOf(o *checkout.Order) checkout.OrderEvent {
	return checkout.OrderEvent{Version: o.Version, Status: o.Status}
}

// feedSpy is a change feed noting the changes the service was told of (each once it
// returned), and when it first listens.
type feedSpy struct {
	checkout.ChangeFeed
	mu        sync.Mutex
	heard     map[string]int // the newest version told, by order
	poke      chan struct{}
	listening chan struct{}
	once      sync.Once
}

func (f *feedSpy) Follow(ctx context.Context, changed func(string, int), gap func(time.Time)) {
	f.ChangeFeed.Follow(ctx, func(id string, version int) {
		changed(id, version)
		f.mu.Lock()
		f.heard[id] = max(f.heard[id], version)
		f.mu.Unlock()
		select {
		case f.poke <- struct{}{}:
		default:
		}
	}, func(since time.Time) {
		gap(since)
		f.once.Do(func() { close(f.listening) })
	})
}

// await waits until the service was told of version of order id.
func (f *feedSpy) await(id string, version int) bool {
	timeout := time.After(30 * time.Second)
	for {
		f.mu.Lock()
		done := f.heard[id] >= version
		f.mu.Unlock()
		if done {
			return true
		}
		select {
		case <-f.poke:
		case <-timeout:
			return false
		}
	}
}

// feedFirst is a store whose order updates return once the change feed told the service of
// them (when it follows one).
type feedFirst struct {
	checkout.Store
	spy       *feedSpy
	following bool
	t         *testing.T
}

func (f *feedFirst) UpdateOrder(ctx context.Context, o *checkout.Order, out ...checkout.OutboxMessage) error {
	if err := f.Store.UpdateOrder(ctx, o, out...); err != nil || !f.following {
		return err
	}
	if !f.spy.await(o.ID, o.Version) {
		f.t.Errorf("the change feed did not tell of order %s's version %d within 30 s", o.ID, o.Version)
	}
	return nil
}
