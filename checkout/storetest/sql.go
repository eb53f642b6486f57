package storetest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/merchant"
	"github.com/pixcheckout/pixcheckout/checkout/sqlstore"
	"github.com/pixcheckout/pixcheckout/gatewayclient/outbox"
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
		if err := fn(); err != nil {
			t.Fatal(err)
		}
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
	if err := s.UpdateOrder(ctx, o); err != nil {
		t.Fatal(err)
	}
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
	if err := s.CreateCart(ctx, cart); err != nil {
		t.Fatal(err)
	}
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

// OldDatabase returns the statements that make, on an empty database, the store as it was
// before its notifications moved into the shared outbox: the migrations/*.sql files of the
// package under test numbered below 10, recorded in a schema_migrations of that time (without
// components), a notification pending after one failed attempt, and an order whose history
// reasons and attempt errors are English text (oldReasons). After Open, CheckUpgraded
// checks what became of it.
func OldDatabase(t *testing.T) []string {
	t.Helper()
	names, err := filepath.Glob("migrations/*.sql")
	if err != nil {
		t.Fatal(err)
	}
	stmts := []string{`CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)`}
	for i, name := range names {
		if v := i + 1; v < 10 {
			b, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			stmts = append(stmts, string(b), fmt.Sprintf(`INSERT INTO schema_migrations VALUES (%d, '%s', 1)`, v, filepath.Base(name)))
		}
	}
	stmts = append(stmts, `INSERT INTO orders (id, number, external_code, request_key, status, amount, customer_name,
			customer_document, created_at, updated_at) VALUES ('ord-reasons', 'PX-OLD00002', 'PX-OLD00002', 'rk-reasons',
			'refunding', 2990, 'Maria', '52998224725', 1, 1)`)
	for i, h := range oldReasons {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO order_history (order_id, position, from_status, to_status, at, reason)
			VALUES ('ord-reasons', %d, '', 'paid', %d, '%s')`, i, 1000+i, h.text))
	}
	// Many distinct texts: more than one statement's worth.
	stmts = append(stmts, `INSERT INTO orders (id, number, external_code, request_key, status, amount, customer_name,
			customer_document, created_at, updated_at) VALUES ('ord-renewed', 'PX-OLD00003', 'PX-OLD00003', 'rk-renewed',
			'awaiting_payment', 2990, 'Maria', '52998224725', 1, 1)`)
	values := make([]string, oldRenewals)
	for i := range values {
		values[i] = fmt.Sprintf(`('ord-renewed', %d, 'expired', 'awaiting_payment', %d, 'new qr code (attempt %d)')`, i, 1000+i, i+2)
	}
	stmts = append(stmts, `INSERT INTO order_history (order_id, position, from_status, to_status, at, reason) VALUES `+
		strings.Join(values, ", "))
	for i, a := range oldAttemptErrors {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO attempts (id, order_id, n, idempotency_key, state, error, created_at, updated_at)
			VALUES ('att-old-%d', 'ord-reasons', %d, 'idem-old-reasons-%d', 'failed', '%s', 1, 1)`, i+1, i+1, i+1, a.text))
	}
	return append(stmts,
		`INSERT INTO outbox (id, order_id, type, payload, created_at, status, attempts, next_attempt_at, last_error, last_status_code)
			VALUES ('msg_old', 'ord-old', 'order.paid', '{"type":"order.paid"}', 1000, 'pending', 1, 5000, 'HTTP 500: oops', 500)`,
		`INSERT INTO outbox_attempts (message_id, n, at, url, status_code, error, duration_ms)
			VALUES ('msg_old', 1, 2000, 'https://loja.example.com/hooks', 500, 'HTTP 500: oops', 12)`)
}

// oldReason is a reason stored as English text before codes, and the Reason it becomes.
type oldReason struct {
	text string
	want checkout.Reason
}

// oldReasons are history reasons of every form stored before codes (and a note of none).
var oldReasons = []oldReason{
	{"order placed", checkout.Reason{Code: checkout.ReasonOrderPlaced}},
	{"qr code generated", checkout.Reason{Code: checkout.ReasonQRGenerated}},
	{"deposit PIX_QRCODE_GENERATED", checkout.Reason{Code: checkout.ReasonDeposit, DepositStatus: "PIX_QRCODE_GENERATED"}},
	{"qr expired (deposit FAILED: QR code expired: no payment)", checkout.Reason{Code: checkout.ReasonQRExpired,
		DepositStatus: "FAILED", Detail: "QR code expired: no payment"}},
	{"new qr code (attempt 2)", checkout.Reason{Code: checkout.ReasonQRRenewed, Attempt: 2}},
	{"qr expired", checkout.Reason{Code: checkout.ReasonQRExpired}},
	{"new qr code (attempt 3)", checkout.Reason{Code: checkout.ReasonQRRenewed, Attempt: 3}},
	{"late payment (overpaid: 3500 cents paid for 2990)", checkout.Reason{Code: checkout.ReasonLatePayment, Paid: 3500, Amount: 2990}},
	{"deposit PAID", checkout.Reason{Code: checkout.ReasonDeposit, DepositStatus: "PAID"}},
	{"paid twice: refund 2990 cents (deposit 3f1c8a52-7d4e-4b6a-9c2f-1e5d7a9b0c3d)", checkout.Reason{Code: checkout.ReasonPaidTwice,
		Paid: 2990, DepositID: "3f1c8a52-7d4e-4b6a-9c2f-1e5d7a9b0c3d"}},
	{"underpaid: 1000 of 2990 cents paid", checkout.Reason{Code: checkout.ReasonUnderpaid, Paid: 1000, Amount: 2990}},
	{"deposit PROCESSING_REFUND", checkout.Reason{Code: checkout.ReasonDeposit, DepositStatus: "PROCESSING_REFUND"}},
	{"called the shopper; refund agreed", checkout.Note("called the shopper; refund agreed")},
}

// oldRenewals is how many renewals the order ord-renewed of OldDatabase has in its history.
const oldRenewals = 450

// oldAttemptErrors are attempt errors of the forms stored before codes.
var oldAttemptErrors = []oldReason{
	{"gateway refused the transaction: amount: must not be less than 1", checkout.Reason{Code: checkout.ReasonGatewayRefused,
		Detail: "amount: must not be less than 1"}},
	{"the PIX code is for 100 cents, the order for 2990", checkout.Reason{Code: checkout.ReasonBRCodeAmount, Asked: 100, Amount: 2990}},
	{"deposit FAILED", checkout.Reason{Code: checkout.ReasonDeposit, DepositStatus: "FAILED"}},
	{"no answer", checkout.Note("no answer")},
}

// CheckUpgraded checks a store opened on an OldDatabase: every migration recorded once, as the
// checkout's, the old notification in the shared outbox with its attempt, to be retried, and
// the old English reasons and attempt errors turned into codes (a note of no known form kept).
func CheckUpgraded(t *testing.T, s MerchantStores, recorded func() int) {
	t.Helper()
	o, err := s.Order(context.Background(), "ord-reasons")
	if err != nil {
		t.Fatalf("the order with old reasons: %v", err)
	}
	if len(o.History) != len(oldReasons) || len(o.Attempts) != len(oldAttemptErrors) {
		t.Fatalf("the order with old reasons: %d history entries, %d attempts", len(o.History), len(o.Attempts))
	}
	for i, h := range o.History {
		if h.Reason != oldReasons[i].want || h.Reason.String() != oldReasons[i].text {
			t.Errorf("old reason %q became %#v (%q), want %#v", oldReasons[i].text, h.Reason, h.Reason.String(), oldReasons[i].want)
		}
	}
	renewed, err := s.Order(context.Background(), "ord-renewed")
	if err != nil || len(renewed.History) != oldRenewals {
		t.Fatalf("the order renewed %d times: %v", oldRenewals, err)
	}
	for i, h := range renewed.History {
		if want := (checkout.Reason{Code: checkout.ReasonQRRenewed, Attempt: i + 2}); h.Reason != want {
			t.Errorf("renewal %d became %#v", i, h.Reason)
			break
		}
	}
	for i, a := range o.Attempts {
		if a.Error != oldAttemptErrors[i].want {
			t.Errorf("old attempt error %q became %#v, want %#v", oldAttemptErrors[i].text, a.Error, oldAttemptErrors[i].want)
		}
	}
	if n, want := recorded(), MigrationFiles(t); n != want {
		t.Errorf("the checkout's migrations recorded: %d, want %d", n, want)
	}
	ob, err := s.Outbox(outbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	n, as, err := merchant.NewDeliveryLog(ob).Get(context.Background(), "msg_old")
	if err != nil {
		t.Fatalf("the old notification: %v", err)
	}
	if n.OrderID != "ord-old" || n.Type != "order.paid" || string(n.Payload) != `{"type":"order.paid"}` ||
		n.Status != merchant.NotificationPending || n.Attempts != 1 || !n.NextAttemptAt.Equal(time.UnixMilli(5000)) ||
		n.LastStatusCode != 500 || !n.CreatedAt.Equal(time.UnixMilli(1000)) {
		t.Errorf("the old notification after the upgrade: %+v", n)
	}
	want := []merchant.DeliveryAttempt{{NotificationID: "msg_old", N: 1, At: time.UnixMilli(2000).UTC(),
		URL: "https://loja.example.com/hooks", StatusCode: 500, Error: "HTTP 500: oops", Duration: 12 * time.Millisecond}}
	if !reflect.DeepEqual(as, want) {
		t.Errorf("its attempts: %+v, want %+v", as, want)
	}
}
