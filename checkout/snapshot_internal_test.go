package checkout

import (
	"fmt"
	"testing"
	"time"
)

// The bound holds whatever is put: never more than max snapshots, and the most recent ones
// (read or written) stay.
func TestSnapshotsBounded(t *testing.T) {
	t.Parallel()
	c := newSnapshots(100)
	now := time.Now()
	for i := range 10_000 {
		c.put(&Order{ID: fmt.Sprint(i)}, now)
		if i%7 == 0 {
			c.get("0", now, 0) // read often: kept
		}
		if n := c.len(); n > 100 {
			t.Fatalf("%d snapshots held after %d puts, want at most 100", n, i+1)
		}
	}
	for _, id := range []string{"0", "9999", "9990"} {
		if c.get(id, now, 0) == nil {
			t.Errorf("snapshot %s dropped", id)
		}
	}
	if c.get("5", now, 0) != nil {
		t.Error("an old snapshot nobody read is still held")
	}
}

// A fill read from the store before a write is not kept: it may be older than what was
// written. A newer version held is never replaced by an older one.
func TestSnapshotsFillNeverRegresses(t *testing.T) {
	t.Parallel()
	c := newSnapshots(100)
	now := time.Now()
	gen := c.generation()
	c.put(&Order{ID: "a", Version: 2, Status: StatusPaid}, now)
	if got := c.fill(&Order{ID: "a", Version: 1, Status: StatusAwaitingPayment}, gen, now); got.Version != 2 {
		t.Errorf("fill of v1 over v2 returned v%d", got.Version)
	}
	if got := c.get("a", now, 0); got.Version != 2 {
		t.Errorf("held v%d, want v2", got.Version)
	}

	// "b" was written (and its snapshot dropped by the bound, say) while a reader read v1.
	gen = c.generation()
	c.put(&Order{ID: "other"}, now)
	c.fill(&Order{ID: "b", Version: 1}, gen, now)
	if c.get("b", now, 0) != nil {
		t.Error("a fill that raced a write was kept")
	}
	c.fill(&Order{ID: "b", Version: 1}, c.generation(), now)
	if c.get("b", now, 0) == nil {
		t.Error("a fill with no write since was not kept")
	}
	c.put(&Order{ID: "b", Version: 0}, now)
	if got := c.get("b", now, 0); got.Version != 1 {
		t.Errorf("a put of an older version replaced v1: v%d", got.Version)
	}
}

// Snapshots share nothing the writer may change.
func TestSnapshotOfCopies(t *testing.T) {
	t.Parallel()
	o := &Order{ID: "a", Lines: []OrderLine{{Title: "x"}}, History: []StatusChange{{Reason: Note("r")}},
		Attempts: []Attempt{{Request: []byte("{}"), BRCode: "code"}}, Address: &Address{City: "São Paulo"}}
	s := snapshotOf(o)
	o.Lines[0].Title, o.History[0].Reason, o.Attempts[0].BRCode, o.Address.City = "y", Note("s"), "other", "Rio"
	if s.Lines[0].Title != "x" || s.History[0].Reason != Note("r") || s.Attempts[0].BRCode != "code" || s.Address.City != "São Paulo" {
		t.Errorf("snapshot changed with its order: %+v", s)
	}
	if s.Attempts[0].Request != nil || o.Attempts[0].Request == nil {
		t.Error("the snapshot keeps the request, or the order lost it")
	}
}

// TestSnapshotsByTransaction: the order of a transaction is found while its snapshot is held,
// in either generation, and forgotten with it.
func TestSnapshotsByTransaction(t *testing.T) {
	t.Parallel()
	c := newSnapshots(4) // two a generation
	now := time.Now()
	order := func(id string) *Order {
		return &Order{ID: id, Version: 1, Attempts: []Attempt{{N: 1, TransactionID: "tx-" + id}}}
	}
	c.put(order("a"), now)
	c.put(order("b"), now)
	if o := c.byTransaction("tx-a"); o == nil || o.ID != "a" {
		t.Fatalf("tx-a: %v", o)
	}
	c.put(order("c"), now) // a and b move to the previous generation
	if o := c.byTransaction("tx-b"); o == nil || o.ID != "b" {
		t.Fatalf("tx-b in the previous generation: %v", o)
	}
	c.put(order("d"), now)
	c.put(order("e"), now) // the generation of a and b is dropped
	if o := c.byTransaction("tx-a"); o != nil {
		t.Errorf("tx-a found after its snapshot was dropped: %v", o.ID)
	}
	if c.byTransaction("tx-unknown") != nil {
		t.Error("an unknown transaction was found")
	}
}
