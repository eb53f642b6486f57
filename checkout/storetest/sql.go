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

// RunQueryCounts checks, for a store built on sqlstore, that reading orders costs a number of
// statements that does not grow with the number of orders listed, nor with the attempts and
// history of one order (no N+1). open must return a new, empty store whose DB it passed through
// wrap, and arrange its closing with t.Cleanup.
func RunQueryCounts(t *testing.T, open func(t *testing.T, wrap func(sqlstore.DB) sqlstore.DB) checkout.Store) {
	ctx := context.Background()
	var c *QueryCounter
	s := open(t, func(db sqlstore.DB) sqlstore.DB {
		c = newQueryCounter(db)
		return c
	})
	if c == nil {
		t.Fatal("open did not pass the store's DB through wrap")
	}
	count := func(fn func() error) int64 {
		t.Helper()
		before := c.Statements()
		must(t, fn())
		return c.Statements() - before
	}
	list := func(f checkout.OrderFilter, want int) int64 {
		t.Helper()
		return count(func() error {
			os, err := s.Orders(ctx, f)
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

	first := mustCreate(t, s, NewOrder("key-"+checkout.NewID()))
	one, onePending := list(checkout.OrderFilter{}, 1), list(pending, 1)
	const n = 30
	for range n - 1 {
		mustCreate(t, s, NewOrder("key-"+checkout.NewID()))
	}
	if many := list(checkout.OrderFilter{}, n); many != one {
		t.Errorf("listing %d orders ran %d statements, listing 1 ran %d: the cost grows with the orders", n, many, one)
	}
	if many := list(pending, n); many != onePending {
		t.Errorf("listing %d pending orders ran %d statements, listing 1 ran %d", n, many, onePending)
	}
	page := list(checkout.OrderFilter{Limit: 10, Offset: 5}, 10)
	if page != one {
		t.Errorf("a page of 10 orders ran %d statements, listing 1 ran %d", page, one)
	}

	// One order, then the same with more attempts and history entries.
	read := func() int64 { return count(func() error { _, err := s.Order(ctx, first.ID); return err }) }
	before := read()
	o := mustRead(t, s, first.ID)
	for i := 2; i <= 4; i++ {
		move(o, o.Status, base)
		o.Attempts = append(o.Attempts, checkout.Attempt{ID: checkout.NewID(), OrderID: o.ID, N: i,
			IdempotencyKey: fmt.Sprintf("%s-%d", o.ID, i), State: checkout.AttemptPending, CreatedAt: base, UpdatedAt: base})
	}
	must(t, s.UpdateOrder(ctx, o))
	if after := read(); after != before {
		t.Errorf("reading an order with 4 attempts ran %d statements, with 1 attempt %d", after, before)
	}

	// Writing: a new order is its row and its children's, not read back; an update is its row,
	// its history, attempts and messages, with nothing read first.
	fresh := NewOrder("key-" + checkout.NewID())
	want := int64(1 + len(fresh.Lines) + len(fresh.History) + len(fresh.Attempts))
	if n := count(func() error { _, _, err := s.CreateOrder(ctx, fresh); return err }); n != want {
		t.Errorf("creating an order ran %d statements, want %d (no read back)", n, want)
	}
	move(fresh, checkout.StatusAwaitingPayment, base)
	want = int64(1 + len(fresh.History) + len(fresh.Attempts))
	if n := count(func() error { return s.UpdateOrder(ctx, fresh) }); n != want {
		t.Errorf("updating an order ran %d statements, want %d (nothing read first)", n, want)
	}
	// A cart with its lines and their products is one statement (read twice an order).
	cart := checkout.Cart{ID: checkout.NewID(), CreatedAt: base, UpdatedAt: base}
	must(t, s.CreateCart(ctx, cart))
	if n := count(func() error { _, err := s.Cart(ctx, cart.ID); return err }); n != 1 {
		t.Errorf("reading a cart ran %d statements, want 1", n)
	}
	t.Logf("statements: listing orders %d, a page %d, one order %d", one, page, before)
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
