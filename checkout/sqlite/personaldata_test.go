package sqlite_test

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/storetest"
)

// TestAnonymisedRowsHoldNoPersonalData reads the database's own rows after an order is
// anonymised: its row, its row of the search index (FTS5), its attempt's transaction request
// its notification's body in the delivery log and its receipt e-mail in the outbox hold none of the shopper's name, e-mail,
// phone, address or full document, and the index finds nothing by them; the amount and the
// end-to-end id are still there. The bytes of checkout.db and its WAL hold none of them either:
// the orders are in the file's pages before the erasure and more than one, so that it frees
// space there, which without secure_delete keeps its old contents (this test fails with it off).
func TestAnonymisedRowsHoldNoPersonalData(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "checkout.db")
	s := open(t, path)
	defer s.Close()
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	// A few of the same shopper's orders: with one, the erasure rewrites its rows where they
	// are and the scan finds nothing even without secure_delete.
	const orders = 3
	var o *checkout.Order
	for i := range orders {
		o = storetest.NewOrder("raw-" + checkout.NewID())
		o.CreatedAt, o.UpdatedAt = now.Add(-400*24*time.Hour), now.Add(-400*24*time.Hour)
		o.Attempts[0].Request = []byte(`{"amount":11880,"paymentMethod":"PIX","idempotencyKey":"` + o.Attempts[0].IdempotencyKey +
			`","customer":{"name":"Maria da Silva","document":"52998224725","email":"maria@example.com.br","mobilePhone":"11987654321","ip":"203.0.113.7"},` +
			`"address":{"zipCode":"01310100","street":"Avenida Paulista","number":"1000"}}`)
		if _, _, err := s.CreateOrder(ctx, o); err != nil {
			t.Fatal(err)
		}
		o.Status, o.PaidAt = checkout.StatusPaid, o.UpdatedAt
		tx, e2e := "tx-raw", "E12345678202611251200abcdefghijk" // the last order's, checked below
		if i < orders-1 {
			tx, e2e = fmt.Sprintf("tx-raw-%d", i), fmt.Sprintf("E12345678202611251200abcdefg%04d", i)
		}
		o.Attempts[0].State, o.Attempts[0].TransactionID, o.Attempts[0].EndToEnd = checkout.AttemptPaid, tx, e2e
		o.History = append(o.History, checkout.StatusChange{From: checkout.StatusPending, To: checkout.StatusPaid, At: o.UpdatedAt,
			Reason: checkout.Reason{Code: checkout.ReasonDeposit}})
		body := fmt.Sprintf(`{"type":"order.paid","timestamp":"2025-10-21T12:00:00.000Z","data":{"id":%q,"amount":11880,`+
			`"customer":{"name":"Maria da Silva","document":"52998224725","email":"maria@example.com.br","phone":"+5511987654321",`+
			`"address":{"street":"Avenida Paulista","zipCode":"01310-100"}}}}`, o.ID)
		// The receipt e-mail, a copy of the shopper's data through and through.
		receipt := `{"to":"maria@example.com.br","toName":"Maria da Silva","subject":"Pagamento confirmado","lang":"pt-BR",` +
			`"html":"<p>Maria da Silva, Avenida Paulista 1000, 01310-100, (11) 98765-4321, 529.982.247-25</p>",` +
			`"text":"Maria da Silva, 52998224725, 11987654321"}`
		if err := s.UpdateOrder(ctx, o, checkout.OutboxMessage{ID: fmt.Sprintf("msg_raw_%d", i), OrderID: o.ID, Type: "order.paid", Payload: []byte(body),
			CreatedAt: o.UpdatedAt}, checkout.OutboxMessage{ID: fmt.Sprintf("order.paid.%d@loja.example", i), OrderID: o.ID,
			Channel: checkout.ChannelMail, To: "maria@example.com.br", Type: "order.paid", Payload: []byte(receipt),
			CreatedAt: o.UpdatedAt}); err != nil {
			t.Fatal(err)
		}
	}
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows := func(q string, args ...any) string {
		t.Helper()
		rs, err := db.Query(q, args...)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		defer rs.Close()
		cols, _ := rs.Columns()
		var all strings.Builder
		for rs.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rs.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			for _, v := range vals {
				fmt.Fprintf(&all, "%s|", v)
			}
			all.WriteString("\n")
		}
		return all.String()
	}
	// A data subject's search and export find the receipt beside the notification.
	if ns, err := s.OrderNotifications(ctx, []string{o.ID}); err != nil || len(ns) != 2 ||
		!strings.Contains(string(ns[1].Body), "Pagamento confirmado") {
		t.Fatalf("the order's notifications and e-mails: %v %d", err, len(ns))
	}
	const match = `SELECT rowid FROM order_search_text WHERE order_search_text MATCH $1`
	const terms = `"Silva" OR "maria@exa" OR "9982247"`
	if rows(match, terms) == "" {
		t.Fatal("the search index does not find the order before: the check below would prove nothing")
	}
	// Into the file before the erasure, as a day's checkpoints put every order: the erasure then
	// frees space in the file's own pages, which only secure_delete overwrites (erased in the
	// WAL alone, the old versions would vanish with it, secure_delete or not).
	rw, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer rw.Close()
	if _, err := rw.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		t.Fatal(err)
	}
	if file, err := os.ReadFile(path); err != nil || !bytes.Contains(file, []byte("maria@example.com.br")) {
		t.Fatalf("checkout.db does not hold the shopper before the erasure (%v): the scan below would prove nothing", err)
	}
	key, err := checkout.LoadPersonalDataKey(ctx, s, now)
	if err != nil {
		t.Fatal(err)
	}
	h, err := checkout.NewPersonalDataHasher(key)
	if err != nil {
		t.Fatal(err)
	}
	if ids, err := s.AnonymiseDue(ctx, now.Add(-365*24*time.Hour), now, 2*orders, h); err != nil || len(ids) != orders {
		t.Fatalf("AnonymiseDue = %d orders, %v; want %d", len(ids), err, orders)
	}

	// The file and its WAL, byte for byte: secure_delete zeroes freed pages, the checkpoint
	// empties the WAL.
	var file []byte
	for _, p := range []string{path, path + "-wal"} {
		b, err := os.ReadFile(p)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			t.Fatal(err)
		}
		file = append(file, b...)
	}
	for _, p := range []string{"Maria da Silva", "maria@example.com.br", "52998224725", "11987654321"} {
		if n := bytes.Count(file, []byte(p)); n > 0 {
			t.Errorf("checkout.db and its WAL hold %q %d times after the erasure", p, n)
		}
	}

	raw := rows(`SELECT * FROM orders WHERE id = $1`, o.ID) +
		rows(`SELECT * FROM order_search_text WHERE rowid = (SELECT id FROM order_search WHERE order_id = $1)`, o.ID) +
		rows(`SELECT * FROM attempts WHERE order_id = $1`, o.ID) +
		rows(`SELECT * FROM webhook_deliveries WHERE record_id = $1`, o.ID)
	for _, p := range []string{"Maria", "Silva", "maria@", "52998224725", "987654321", "Paulista", "01310", "203.0.113.7"} {
		if strings.Contains(raw, p) {
			t.Errorf("the anonymised order's rows still hold %q:\n%s", p, raw)
		}
	}
	for _, kept := range []string{"11880", "E12345678202611251200abcdefghijk", "tx-raw", "***.982.247-**"} {
		if !strings.Contains(raw, kept) {
			t.Errorf("the anonymised order's rows lost %q:\n%s", kept, raw)
		}
	}
	if found := rows(match, terms); found != "" {
		t.Errorf("the search index still finds the anonymised order by its shopper's data: %s", found)
	}
}
