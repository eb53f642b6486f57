package storetest

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/sqlstore"
)

// QueryCounter is a sqlstore.DB that counts the statements run through it.
type QueryCounter struct{ stmtRecorder }

// newQueryCounter counts the statements run through db.
func newQueryCounter(db sqlstore.DB) *QueryCounter {
	return &QueryCounter{stmtRecorder{DB: db}}
}

// Statements returns how many statements have been run.
func (c *QueryCounter) Statements() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return int64(len(c.stmts))
}

// countedStore is a store whose statements are counted.
type countedStore struct {
	s checkout.Store
	c *QueryCounter
}

// count is the statements fn runs.
func (cs *countedStore) count(t *testing.T, fn func() error) int64 {
	t.Helper()
	before := cs.c.Statements()
	must(t, fn())
	return cs.c.Statements() - before
}

// RunQueryCounts checks, for a store built on sqlstore, that reading orders costs a number of
// statements that does not grow with the number of orders listed, nor with the attempts and
// history of one order (no N+1). open must return a new, empty store whose DB it passed through
// wrap, and arrange its closing with t.Cleanup.
func RunQueryCounts(t *testing.T, open func(t *testing.T, wrap func(sqlstore.DB) sqlstore.DB) checkout.Store) {
	cs := &countedStore{}
	cs.s = open(t, func(db sqlstore.DB) sqlstore.DB {
		cs.c = newQueryCounter(db)
		return cs.c
	})
	if cs.c == nil {
		t.Fatal("open did not pass the store's DB through wrap")
	}
	t.Run("Lists", cs.testLists)
	t.Run("OneOrder", cs.testOneOrder)
	t.Run("Writes", cs.testWrites)
}

// testLists: listing orders, filtered or a page, costs as many statements for one as for many.
func (cs *countedStore) testLists(t *testing.T) {
	list := func(f checkout.OrderFilter, want int) int64 {
		t.Helper()
		return cs.count(t, func() error {
			os, err := cs.s.Orders(context.Background(), f)
			if err == nil && len(os) != want {
				err = fmt.Errorf("Orders(%+v) listed %d orders, want %d", f, len(os), want)
			}
			for _, o := range os {
				if err == nil && (len(o.Lines) != 2 || len(o.History) != 1 || len(o.Attempts) != 1) {
					err = fmt.Errorf("order %s listed with %d lines, %d history entries, %d attempts; want 2, 1, 1",
						o.ID, len(o.Lines), len(o.History), len(o.Attempts))
				}
			}
			return err
		})
	}
	pending := checkout.OrderFilter{Statuses: []checkout.OrderStatus{checkout.StatusPending}}
	mustCreate(t, cs.s, NewOrder("key-"+checkout.NewID()))
	one, onePending := list(checkout.OrderFilter{}, 1), list(pending, 1)
	const n = 30
	for range n - 1 {
		mustCreate(t, cs.s, NewOrder("key-"+checkout.NewID()))
	}
	same(t, fmt.Sprintf("statements listing %d orders, as listing 1", n), list(checkout.OrderFilter{}, n), one)
	same(t, fmt.Sprintf("statements listing %d pending orders, as listing 1", n), list(pending, n), onePending)
	page := list(checkout.OrderFilter{Limit: 10, Offset: 5}, 10)
	same(t, "statements listing a page of 10 orders, as listing 1", page, one)
	t.Logf("statements: listing orders %d, a page %d", one, page)
}

// testOneOrder: reading one order costs as many statements with one attempt as with more, and
// more history entries.
func (cs *countedStore) testOneOrder(t *testing.T) {
	o := mustCreate(t, cs.s, NewOrder("key-"+checkout.NewID()))
	read := func() int64 {
		return cs.count(t, func() error { _, err := cs.s.Order(context.Background(), o.ID); return err })
	}
	before := read()
	o = mustRead(t, cs.s, o.ID)
	for i := 2; i <= 4; i++ {
		move(o, o.Status, base)
		o.Attempts = append(o.Attempts, checkout.Attempt{ID: checkout.NewID(), OrderID: o.ID, N: i,
			IdempotencyKey: fmt.Sprintf("%s-%d", o.ID, i), State: checkout.AttemptPending, CreatedAt: base, UpdatedAt: base})
	}
	must(t, cs.s.UpdateOrder(context.Background(), o))
	same(t, "statements reading an order with 4 attempts, as with 1", read(), before)
	t.Logf("statements: one order %d", before)
}

// testWrites: a new order is its row and its children's, not read back; an update is its row,
// its history, attempts and messages, with nothing read first; a cart with its lines and their
// products is one statement (read twice an order).
func (cs *countedStore) testWrites(t *testing.T) {
	ctx := context.Background()
	fresh := NewOrder("key-" + checkout.NewID())
	same(t, "statements creating an order (no read back)", cs.count(t, func() error { return errOf2(cs.s.CreateOrder(ctx, fresh)) }),
		int64(1+len(fresh.Lines)+len(fresh.History)+len(fresh.Attempts)))
	move(fresh, checkout.StatusAwaitingPayment, base)
	same(t, "statements updating an order (nothing read first)", cs.count(t, func() error { return cs.s.UpdateOrder(ctx, fresh) }),
		int64(1+len(fresh.History)+len(fresh.Attempts)))
	cart := checkout.Cart{ID: checkout.NewID(), CreatedAt: base, UpdatedAt: base}
	must(t, cs.s.CreateCart(ctx, cart))
	same(t, "statements reading a cart", cs.count(t, func() error { return errOf(cs.s.Cart(ctx, cart.ID)) }), 1)
}

// MigrationFiles counts the files migrations/*.sql of the package under test (its tests run in
// its folder), for tests checking that each is recorded once in schema_migrations.
func MigrationFiles(t *testing.T) int {
	t.Helper()
	names, err := filepath.Glob("migrations/*.sql")
	if err != nil || len(names) == 0 {
		t.Fatalf("migrations/*.sql: %v, %v", names, err)
	}
	return len(names)
}
