package sqlite

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout/storetest"
)

// TestStatementsPreparedOnce: the statements the store runs are prepared once per pool and
// kept; those first met inside a transaction are prepared once it ends (preparing them inside
// would wait forever for the writer's only connection, which the transaction holds).
func TestStatementsPreparedOnce(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "checkout.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	kept := func(p *pool) int {
		p.mu.Lock()
		defer p.mu.Unlock()
		return len(p.stmts)
	}
	o := storetest.NewOrder("key-prepared")
	if _, _, err := s.CreateOrder(ctx, o); err != nil { // a write transaction
		t.Fatal(err)
	}
	if kept(s.w) == 0 {
		t.Fatal("nothing prepared on the writer after a write transaction")
	}
	var read []int
	for range 2 {
		if _, err := s.Order(ctx, o.ID); err != nil {
			t.Fatal(err)
		}
		read = append(read, kept(s.r))
	}
	if read[0] == 0 || read[1] != read[0] {
		t.Errorf("statements kept by the readers after two reads of an order: %v; want some, the same after the second", read)
	}
	writes := kept(s.w)
	cur, err := s.Order(ctx, o.ID)
	if err != nil {
		t.Fatal(err)
	}
	cur.UpdatedAt = cur.UpdatedAt.Add(time.Second)
	for range 2 {
		if err := s.UpdateOrder(ctx, cur); err != nil { // its version follows
			t.Fatal(err)
		}
	}
	if n := kept(s.w); n <= writes {
		t.Errorf("statements kept by the writer: %d after updates, %d before; want the update's added", n, writes)
	}
}
