package postgres_test

import (
	"context"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/postgres"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
)

// twoInstances is a sandbox gateway and two checkout services, each on its own store of one
// database, as two instances of the checkout.
type twoInstances struct {
	sb     *sandbox.Sandbox
	stores [2]*postgres.Store
	svcs   [2]*checkout.Service
	dbURL  string
}

func newTwoInstances(t *testing.T) *twoInstances {
	t.Helper()
	ctx := context.Background()
	sb, client := startSandbox(t)
	x := &twoInstances{sb: sb, dbURL: newDatabase(t)}
	for i := range x.svcs {
		x.stores[i] = open(t, x.dbURL)
		x.svcs[i] = checkout.NewService(x.stores[i], client, checkout.ServiceOptions{
			MerchantName: "Loja Teste", Clock: sb.Now, Logger: slog.New(slog.DiscardHandler)})
	}
	if err := checkout.SeedDemoCatalogue(ctx, x.stores[0]); err != nil {
		t.Fatal(err)
	}
	return x
}

// place places an order through instance i.
func (x *twoInstances) place(t *testing.T, i int) *checkout.Order {
	t.Helper()
	ctx := context.Background()
	c, err := x.svcs[i].AddToCart(ctx, "", "ebook-receitas-do-cerrado", 1)
	if err != nil {
		t.Fatal(err)
	}
	o, err := x.svcs[i].PlaceOrder(ctx, checkout.PlaceOrderInput{Source: c.ID, RequestKey: checkout.NewRequestKey(c, 0),
		Customer: checkout.Customer{Name: "Maria da Silva", Document: "529.982.247-25", Email: "maria@example.com.br",
			Phone: "(11) 98765-4321"}})
	if err != nil || o.Status != checkout.StatusAwaitingPayment {
		t.Fatalf("PlaceOrder: %v, %v", o, err)
	}
	return o
}

// pay pays an order at the gateway and has instance i read the payment.
func (x *twoInstances) pay(t *testing.T, i int, o *checkout.Order) {
	t.Helper()
	if _, err := x.sb.ControlDeposit(context.Background(), "checkout-test", o.CurrentAttempt().TransactionID,
		sandbox.ActionPay, sandbox.DepositControl{}); err != nil {
		t.Fatal(err)
	}
	if _, err := x.svcs[i].RefreshFromGateway(context.Background(), o.ID); err != nil {
		t.Fatal(err)
	}
}

// heard collects what a feed reports.
type heard struct {
	mu      sync.Mutex
	changes map[string]int // order id: highest version heard
	gaps    []time.Time
	signal  chan struct{}
}

func (h *heard) changed(id string, version int) {
	h.mu.Lock()
	h.changes[id] = max(h.changes[id], version)
	h.mu.Unlock()
	select {
	case h.signal <- struct{}{}:
	default:
	}
}

func (h *heard) gap(since time.Time) {
	h.mu.Lock()
	h.gaps = append(h.gaps, since)
	h.mu.Unlock()
	select {
	case h.signal <- struct{}{}:
	default:
	}
}

// wait waits, with a generous bound, until cond holds.
func (h *heard) wait(t *testing.T, what string, cond func(h *heard) bool) {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		h.mu.Lock()
		ok := cond(h)
		h.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-h.signal:
		case <-time.After(50 * time.Millisecond):
		case <-deadline:
			t.Fatalf("waited 30 s for %s", what)
		}
	}
}

// terminate ends the database sessions whose current query starts with prefix, as when their
// process dies or the network drops them.
func terminate(t *testing.T, dbURL, prefix string) int {
	t.Helper()
	n := 0
	withConn(t, dbURL, func(ctx context.Context, conn *pgx.Conn) error {
		return conn.QueryRow(ctx, `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
			WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE $1`, prefix+"%").Scan(&n)
	})
	return n
}

// TestFollowHearsChangesOfOtherInstances: a change committed by one instance is announced to
// another's feed with the order's new version; the first connection reports a gap from when
// Follow began; when the feed's connection is cut, it comes back, reports the gap (from before
// the cut), and hears the next changes.
func TestFollowHearsChangesOfOtherInstances(t *testing.T) {
	t.Parallel()
	x := newTwoInstances(t)
	h := &heard{changes: map[string]int{}, signal: make(chan struct{}, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	started := time.Now()
	go func() { defer close(done); x.stores[1].Follow(ctx, h.changed, h.gap) }()
	defer func() { cancel(); <-done }()

	// The feed listens once its connection is up: wait for it in pg_stat_activity.
	listening := waitListening(t, x.dbURL)
	h.wait(t, "the gap before the first connection", func(h *heard) bool { return len(h.gaps) == 1 })
	o := x.place(t, 0)
	placed, err := x.svcs[0].Order(context.Background(), o.ID)
	if err != nil {
		t.Fatal(err)
	}
	h.wait(t, "the QR code's change", func(h *heard) bool { return h.changes[o.ID] >= placed.Version })

	before := time.Now()
	if n := terminate(t, x.dbURL, "LISTEN"); n != 1 {
		t.Fatalf("%d listening sessions cut, want 1", n)
	}
	waitListeningBut(t, x.dbURL, listening)
	x.pay(t, 0, o)
	paid, err := x.svcs[0].Order(context.Background(), o.ID)
	if err != nil || paid.Status != checkout.StatusPaid {
		t.Fatalf("paid order: %v, %v", paid, err)
	}
	h.wait(t, "the payment after the reconnection", func(h *heard) bool { return h.changes[o.ID] >= paid.Version })
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.gaps) != 2 || h.gaps[0].Before(started) || h.gaps[0].After(before) || h.gaps[1].After(before) {
		t.Errorf("gaps reported %v, want one from Follow's start at %v, then one from before the cut at %v", h.gaps, started, before)
	}
}

// TestFeedStateIsTold: when the feed's connection is cut, OnFeed hears it fail (with the
// error) and listen again, FeedState saying so meanwhile; a feed that never failed says
// nothing.
func TestFeedStateIsTold(t *testing.T) {
	t.Parallel()
	dbURL := newDatabase(t)
	type event struct {
		ok  bool
		err error
	}
	events := make(chan event, 10)
	s, err := postgres.OpenWith(context.Background(), dbURL, postgres.Options{DirectURL: dbURL,
		OnFeed: func(ok bool, err error) { events <- event{ok, err} }})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); s.Follow(ctx, func(string, int) {}, func(time.Time) {}) }()
	defer func() { cancel(); <-done }()
	waitListening(t, dbURL)
	if ok, _, _ := s.FeedState(); !ok || len(events) != 0 {
		t.Fatalf("a listening feed: ok %v, %d events", ok, len(events))
	}
	before := time.Now()
	if n := terminate(t, dbURL, "LISTEN"); n != 1 {
		t.Fatalf("%d listening sessions cut, want 1", n)
	}
	for _, want := range []bool{false, true} {
		select {
		case ev := <-events:
			if ev.ok != want || (!ev.ok && ev.err == nil) {
				t.Fatalf("OnFeed(%v, %v), want ok %v (with the error when failing)", ev.ok, ev.err, want)
			}
			if !ev.ok {
				// Told before it listens again: FeedState says failing, since the cut.
				if ok, since, err := s.FeedState(); ok && since.Before(before) || err == nil && !ok {
					t.Errorf("FeedState while failing: %v %v %v", ok, since, err)
				}
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("OnFeed not told ok=%v within 30 s", want)
		}
	}
	if ok, _, _ := s.FeedState(); !ok {
		t.Error("FeedState after the feed listens again: failing")
	}
}

// waitListening waits until a session of the database listens.
func waitListening(t *testing.T, dbURL string) int {
	t.Helper()
	return waitListeningBut(t, dbURL, 0)
}

// waitListeningBut waits until a session other than process gone listens, and returns its
// process id: a session ended by pg_terminate_backend stays listed for a moment after, and a
// change committed then would reach no one.
func waitListeningBut(t *testing.T, dbURL string, gone int) int {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		pid := 0
		withConn(t, dbURL, func(ctx context.Context, conn *pgx.Conn) error {
			return conn.QueryRow(ctx, `SELECT coalesce(max(pid), 0) FROM pg_stat_activity
				WHERE datname = current_database() AND query LIKE 'LISTEN%' AND pid <> $1`, gone).Scan(&pid)
		})
		if pid != 0 {
			return pid
		}
		if time.Now().After(deadline) {
			t.Fatal("no session listens after 30 s")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestServiceFollowsAnotherInstance: a service following the feed sees, in its snapshot and
// through its subscribers, a payment applied by another instance; after a gap, CatchUp reads
// what changed meanwhile.
func TestServiceFollowsAnotherInstance(t *testing.T) {
	t.Parallel()
	x := newTwoInstances(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); x.svcs[1].Follow(ctx, x.stores[1]) }()
	defer func() { cancel(); <-done }()
	waitListening(t, x.dbURL)

	o := x.place(t, 0)
	if snap, err := x.svcs[1].Snapshot(ctx, o.ID); err != nil || snap.Status != checkout.StatusAwaitingPayment {
		t.Fatalf("instance B's snapshot: %v, %v", snap, err)
	}
	events, stop := x.svcs[1].Subscribe(o.ID)
	defer stop()
	x.pay(t, 0, o)
	select {
	case <-events:
	case <-time.After(30 * time.Second):
		t.Fatal("instance B's subscriber never heard of the payment made through A")
	}
	if snap, _ := x.svcs[1].Snapshot(ctx, o.ID); snap.Status != checkout.StatusPaid {
		t.Errorf("instance B's snapshot after the event: %s, want paid", snap.Status)
	}

	// A change missed by B (no feed): CatchUp reads it.
	o2 := x.place(t, 0)
	if _, err := x.svcs[1].Snapshot(ctx, o2.ID); err != nil {
		t.Fatal(err)
	}
	cancel()
	<-done
	since := time.Now()
	x.pay(t, 0, o2)
	if snap, _ := x.svcs[1].Snapshot(context.Background(), o2.ID); snap.Status != checkout.StatusAwaitingPayment {
		t.Fatalf("B saw the payment without its feed: %s", snap.Status)
	}
	if err := x.svcs[1].CatchUp(context.Background(), since); err != nil {
		t.Fatal(err)
	}
	if snap, _ := x.svcs[1].Snapshot(context.Background(), o2.ID); snap.Status != checkout.StatusPaid {
		t.Errorf("B's snapshot after CatchUp: %s, want paid", snap.Status)
	}
}

// TestServiceCatchesUpWithChangesBeforeItsFeedListens: an instance that read an order before
// its feed listened (a server answers as soon as it starts, while the feed connects) still
// hears of a change another instance made in between: the first connection's gap is caught up.
func TestServiceCatchesUpWithChangesBeforeItsFeedListens(t *testing.T) {
	t.Parallel()
	x := newTwoInstances(t)
	o := x.place(t, 0)
	if snap, err := x.svcs[1].Snapshot(context.Background(), o.ID); err != nil || snap.Status != checkout.StatusAwaitingPayment {
		t.Fatalf("instance B's snapshot: %v, %v", snap, err)
	}
	events, stop := x.svcs[1].Subscribe(o.ID)
	defer stop()
	x.pay(t, 0, o) // before B's feed listens
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); x.svcs[1].Follow(ctx, x.stores[1]) }()
	defer func() { cancel(); <-done }()
	select {
	case <-events:
	case <-time.After(30 * time.Second):
		t.Fatal("instance B never heard of the payment made through A before its feed listened")
	}
	if snap, _ := x.svcs[1].Snapshot(ctx, o.ID); snap.Status != checkout.StatusPaid {
		t.Errorf("instance B's snapshot: %s, want paid", snap.Status)
	}
}

// TestReconcileLeaseMoves: one instance holds the reconciler's lease at a time; when its
// session ends (the process died), another takes it.
func TestReconcileLeaseMoves(t *testing.T) {
	t.Parallel()
	dbURL := newDatabase(t)
	ctx := context.Background()
	a, b := open(t, dbURL).ReconcileLease(), open(t, dbURL).ReconcileLease()
	defer a.Close()
	defer b.Close()
	if !a.Held(ctx) {
		t.Fatal("the first instance did not take the free lease")
	}
	if b.Held(ctx) {
		t.Fatal("two instances hold the lease")
	}
	if !a.Held(ctx) {
		t.Fatal("the holder lost the lease")
	}
	// The holder's process dies: its session ends.
	n := 0
	withConn(t, dbURL, func(ctx context.Context, conn *pgx.Conn) error {
		return conn.QueryRow(ctx, `SELECT count(pg_terminate_backend(l.pid)) FROM pg_locks l
			JOIN pg_database d ON d.oid = l.database
			WHERE l.locktype = 'advisory' AND l.granted AND d.datname = current_database()`).Scan(&n)
	})
	if n != 1 {
		t.Fatalf("%d holders of the lease cut, want 1", n)
	}
	deadline := time.Now().Add(30 * time.Second)
	for !b.Held(ctx) {
		if time.Now().After(deadline) {
			t.Fatal("the lease never moved to the other instance")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if a.Held(ctx) {
		t.Error("the dead holder's lease is held twice")
	}
}
