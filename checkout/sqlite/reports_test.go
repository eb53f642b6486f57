package sqlite

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/sqlstore"
	"github.com/pixcheckout/pixcheckout/checkout/storetest"
)

// holdingDB is a sqlstore.DB whose report reads (the order summaries' count) hold their
// connection, rows open, until release is closed, telling held when they start.
type holdingDB struct {
	sqlstore.DB
	held    chan struct{}
	release chan struct{}
}

func (h holdingDB) hold(stmts []sqlstore.Stmt) []sqlstore.Stmt {
	out := make([]sqlstore.Stmt, len(stmts))
	for i, st := range stmts {
		if strings.Contains(st.SQL, "AS matches") && st.Rows != nil {
			rows := st.Rows
			st.Rows = func(r sqlstore.Rows) error {
				h.held <- struct{}{}
				<-h.release
				return rows(r)
			}
		}
		out[i] = st
	}
	return out
}

func (h holdingDB) ReadTx(ctx context.Context, fn func(sqlstore.Runner) error) error {
	return h.DB.ReadTx(ctx, func(tx sqlstore.Runner) error { return fn(holdingRunner{tx, h}) })
}

type holdingRunner struct {
	sqlstore.Runner
	h holdingDB
}

func (r holdingRunner) Run(ctx context.Context, stmts ...sqlstore.Stmt) error {
	return r.Runner.Run(ctx, r.h.hold(stmts)...)
}

// TestReportsLeaveReadersForTheShop: four merchants whose order lists hold their read
// connections (as a slow list would) take at most two of the four: the readiness check and a
// shopper's reads are served meanwhile, and the other two lists run once the first are done.
func TestReportsLeaveReadersForTheShop(t *testing.T) {
	ctx := context.Background()
	h := holdingDB{held: make(chan struct{}, 4), release: make(chan struct{})}
	s, err := open(ctx, filepath.Join(t.TempDir(), "checkout.db"), options{busyTimeout: 5000,
		wrap: func(db sqlstore.DB) sqlstore.DB { h.DB = db; return h }})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	o := storetest.NewOrder("key-" + checkout.NewID())
	if _, _, err := s.CreateOrder(ctx, o); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _, err := s.OrderSummaries(ctx, checkout.OrderFilter{Limit: 26})
			errs <- err
		}()
	}
	<-h.held
	<-h.held // two lists hold two connections; the other two wait for a turn
	// A bound, not a wait for something not to happen: with every reader held these would
	// block until it ends.
	shop, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := s.Ping(shop); err != nil {
		t.Errorf("the readiness check while merchants read: %v", err)
	}
	if _, err := s.Order(shop, o.ID); err != nil {
		t.Errorf("a shopper's order while merchants read: %v", err)
	}
	if _, err := s.Products(shop, true); err != nil {
		t.Errorf("the catalogue while merchants read: %v", err)
	}
	if got := len(h.held); got != 0 {
		t.Errorf("%d more lists hold a connection while two do", got)
	}
	close(h.release)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("a list: %v", err)
		}
	}
}
