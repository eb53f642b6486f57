package storetest

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/sqlstore"
)

// stmtRecorder is a sqlstore.DB that keeps the statements run through it (QueryCounter counts
// them, RunIndexUse explains them).
type stmtRecorder struct {
	sqlstore.DB
	mu    sync.Mutex
	stmts []sqlstore.Stmt
}

func (r *stmtRecorder) keep(ss ...sqlstore.Stmt) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stmts = append(r.stmts, ss...)
}

func (r *stmtRecorder) Read(ctx context.Context, s sqlstore.Stmt) error {
	r.keep(s)
	return r.DB.Read(ctx, s)
}

func (r *stmtRecorder) Write(ctx context.Context, s sqlstore.Stmt) error {
	r.keep(s)
	return r.DB.Write(ctx, s)
}

func (r *stmtRecorder) ReadTx(ctx context.Context, fn func(sqlstore.Runner) error) error {
	return r.DB.ReadTx(ctx, func(tx sqlstore.Runner) error { return fn(recordingRunner{tx, r}) })
}

func (r *stmtRecorder) WriteTx(ctx context.Context, fn func(sqlstore.Runner) error) error {
	return r.DB.WriteTx(ctx, func(tx sqlstore.Runner) error { return fn(recordingRunner{tx, r}) })
}

type recordingRunner struct {
	sqlstore.Runner
	r *stmtRecorder
}

func (rr recordingRunner) Run(ctx context.Context, stmts ...sqlstore.Stmt) error {
	rr.r.keep(stmts...)
	return rr.Runner.Run(ctx, stmts...)
}

// The stores both implement these.
type indexedStore interface {
	checkout.Store
	checkout.PersonalDataStore
	PruneCheckoutSessions(ctx context.Context, expiredBefore time.Time, limit int) (int, error)
}

// RunIndexUse checks that the statements which run all the time on tables that only grow — a
// cart with its lines (twice an order), orders by checkout session or by merchant reference,
// the sessions' retention, a data subject's orders and the personal data's retention — read them
// through their (partial) indexes rather than scan them,
// in the plan a prepared statement gets (no bound value known to the planner). explain returns
// the plan of a statement with its arguments; fullScan matches, in a plan, a full scan of one
// of those tables. sweeps adds the retention sweep of checkout sessions: on PostgreSQL the plan
// of its anti join on empty tables (a hash join over everything) is not the one a filled,
// analysed table gets, so only SQLite's is checked. (The notifications' claim is the outbox's:
// gatewayclient/outbox checks its plans.) It is long because it lists every statement it checks,
// one after the other.
//
//nolint:gocyclo // one check per listed statement, each a branch of its own (see above)
func RunIndexUse(t *testing.T, open func(t *testing.T, wrap func(sqlstore.DB) sqlstore.DB) checkout.Store,
	explain func(t *testing.T, s sqlstore.Stmt) string, fullScan *regexp.Regexp, sweeps bool) {
	ctx := context.Background()
	rec := &stmtRecorder{}
	s, ok := open(t, func(db sqlstore.DB) sqlstore.DB { rec.DB = db; return rec }).(indexedStore)
	if !ok {
		t.Fatal("the store lacks PruneCheckoutSessions")
	}
	now := time.Now()
	calls := map[string]func() error{
		"orders of a session": func() error {
			_, err := s.Orders(ctx, checkout.OrderFilter{SessionID: "cs_test"})
			return err
		},
		"reading a cart": func() error {
			_, err := s.Cart(ctx, "cart-test")
			if errors.Is(err, checkout.ErrNotFound) {
				err = nil
			}
			return err
		},
		"orders by merchant reference": func() error {
			_, err := s.Orders(ctx, checkout.OrderFilter{MerchantReference: "pedido-42"})
			return err
		},
	}
	// A data subject's request looks their orders up by document or e-mail, in clear or hashed.
	hasher, err := checkout.NewPersonalDataHasher(make([]byte, checkout.PersonalDataKeySize))
	must(t, err)
	for _, typed := range []string{"529.982.247-25", "maria@example.com.br"} {
		subj, err := checkout.ParseSubject(typed)
		must(t, err)
		calls["a data subject's orders by "+typed] = func() error { _, err := s.SubjectOrders(ctx, hasher.Match(subj)); return err }
	}
	// The dashboard counts what needs the merchant's attention on every page: each count and
	// list must go through its partial index, not through an index of a column it also names
	// (every paid order read to find the few unshipped ones).
	wantIndex := map[string]string{}
	if sweeps {
		calls["orders awaiting shipment"] = func() error {
			_, _, err := s.OrderSummaries(ctx, checkout.OrderFilter{Fulfilment: checkout.FulfilmentAwaitingShipment, Limit: 1})
			return err
		}
		calls["orders with a refund due"] = func() error {
			_, _, err := s.OrderSummaries(ctx, checkout.OrderFilter{RefundDue: true, Limit: 1})
			return err
		}
		wantIndex["orders awaiting shipment"], wantIndex["orders with a refund due"] = "orders_awaiting_shipment", "orders_refund_due"
		calls["pruning sessions"] = func() error { _, err := s.PruneCheckoutSessions(ctx, now, 10); return err }
		calls["anonymising personal data"] = func() error { _, err := s.AnonymiseDue(ctx, now, now, 10, hasher); return err }
	}
	for name, call := range calls {
		rec.mu.Lock()
		rec.stmts = nil
		rec.mu.Unlock()
		if err := call(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		rec.mu.Lock()
		stmts := rec.stmts
		rec.mu.Unlock()
		checked := 0
		for _, st := range stmts {
			if idx := wantIndex[name]; idx != "" {
				checked++
				if plan := explain(t, st); !strings.Contains(plan, idx) {
					t.Errorf("%s does not read %s:\n%s\nplan:\n%s", name, idx, st.SQL, plan)
				}
				continue
			}
			if !strings.Contains(st.SQL, "session_id =") && !strings.Contains(st.SQL, "merchant_reference =") &&
				!strings.Contains(st.SQL, "cart_lines") && !strings.Contains(st.SQL, "customer_") {
				continue
			}
			checked++
			if plan := explain(t, st); fullScan.MatchString(plan) {
				t.Errorf("%s scans a whole table:\n%s\nplan:\n%s", name, st.SQL, plan)
			}
		}
		if checked == 0 {
			t.Errorf("%s: no statement of the tables checked was run", name)
		}
	}
}

// RunSortPlans checks that a page of the merchant's order list, in each sort, with a key or
// without, and with one status or none, reads the index that holds the sort's order — no
// sorting of the matches, whatever their number — in the plan a prepared statement gets.
// open and explain are as for RunIndexUse; sorts matches, in a plan, a sort of the rows (a
// step the index should have made needless).
func RunSortPlans(t *testing.T, open func(t *testing.T, wrap func(sqlstore.DB) sqlstore.DB) checkout.Store,
	explain func(t *testing.T, s sqlstore.Stmt) string, sorts *regexp.Regexp) {
	ctx := context.Background()
	rec := &stmtRecorder{}
	s := open(t, func(db sqlstore.DB) sqlstore.DB { rec.DB = db; return rec })
	key := checkout.OrderKey{CreatedAt: time.Now(), Amount: 1990, ID: "ord-key"}
	for _, sort := range checkout.OrderSorts() {
		index := "orders_created_id"
		statusIndex, channelIndex := "orders_status_created", "orders_channel_created"
		if sort.ByAmount() {
			index, statusIndex, channelIndex = "orders_amount_id", "orders_status_amount", "orders_channel_amount"
		}
		for _, tc := range []struct {
			name  string
			f     checkout.OrderFilter
			index string
		}{
			{"first page", checkout.OrderFilter{}, index},
			{"after a key", checkout.OrderFilter{Page: checkout.Cursor{Key: key, Sort: sort}}, index},
			{"before a key", checkout.OrderFilter{Page: checkout.Cursor{Key: key, Sort: sort, Backward: true}}, index},
			{"one status, after a key", checkout.OrderFilter{Statuses: []checkout.OrderStatus{checkout.StatusPaid},
				Page: checkout.Cursor{Key: key, Sort: sort}}, statusIndex},
			{"one channel, after a key", checkout.OrderFilter{Channels: []checkout.Channel{checkout.ChannelCharge},
				Page: checkout.Cursor{Key: key, Sort: sort}}, channelIndex},
		} {
			f := tc.f
			f.Sort, f.Limit = sort, 26
			rec.mu.Lock()
			rec.stmts = nil
			rec.mu.Unlock()
			if _, _, err := s.OrderSummaries(ctx, f); err != nil {
				t.Fatalf("%s, %s: %v", sort, tc.name, err)
			}
			rec.mu.Lock()
			stmts := rec.stmts
			rec.mu.Unlock()
			checked := 0
			for _, st := range stmts {
				if !strings.Contains(st.SQL, "ORDER BY") {
					continue // the capped count
				}
				checked++
				plan := explain(t, st)
				if sorts.MatchString(plan) || !strings.Contains(plan, tc.index) {
					t.Errorf("%s, %s: want the rows in order from %s:\n%s\nplan:\n%s", sort, tc.name, tc.index, st.SQL, plan)
				}
			}
			if checked != 1 {
				t.Errorf("%s, %s: %d statements of the list", sort, tc.name, checked)
			}
		}
	}
}
