package postgres_test

import (
	"context"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pixcheckout/pixcheckout/gatewayclient/outbox"
)

// TestClaimMarksDeadEntries: a claim of notifications walks the outbox's index of due first
// attempts in order, which marks the entries of notifications handled since (delivered,
// skipped) as dead, so that the next claims skip them. A bitmap scan leaves them, and every
// claim visited every notification handled since the last vacuum: milliseconds a claim under
// load.
func TestClaimMarksDeadEntries(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dbURL := newDatabase(t)
	s := open(t, dbURL)
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(ctx) })
	// 2,000 notifications handled (skipped) and not vacuumed: their old versions' entries stay
	// in the index of pending notifications.
	for _, q := range []string{
		`ALTER TABLE webhook_deliveries SET (autovacuum_enabled = false)`,
		`INSERT INTO webhook_deliveries (message_id, client_id, secret, url, forward, type, record_kind, record_id, body,
				status, next_attempt_at, created_at, updated_at)
			SELECT 'msg_' || g, '', '', '', FALSE, 'order.paid', 'order', 'order-' || g, repeat('x', 1500), 'pending', 1, 1, 1
			FROM generate_series(1, 2000) g`,
		`UPDATE webhook_deliveries SET status = 'skipped'`,
	} {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	// What any scan of the index for due pending notifications reads now.
	pages := func() int {
		t.Helper()
		rows, err := conn.Query(ctx, `EXPLAIN (ANALYZE, BUFFERS) SELECT id FROM webhook_deliveries
			WHERE status = 'pending' AND attempts = 0 AND next_attempt_at <= $1`, time.Now().UnixMilli())
		if err != nil {
			t.Fatal(err)
		}
		lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range lines {
			if m := regexp.MustCompile(`Buffers: shared hit=(\d+)`).FindStringSubmatch(l); m != nil {
				n, _ := strconv.Atoi(m[1])
				return n
			}
		}
		t.Fatalf("no buffer counts in %q", lines)
		return 0
	}
	if before := pages(); before < 200 {
		t.Fatalf("a scan read %d pages before any claim: the test does not make the entries it needs", before)
	}
	// An entry is marked only once its row is dead to every transaction of the database: while
	// one older than the skipping is open (the autovacuum daemon analysing the tables the
	// migrations just filled, under a loaded test run), a claim marks nothing, and the next does.
	// A claim that never marks them (a bitmap scan) fails after the deadline.
	ob, err := s.Outbox(outbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	after := 0
	for deadline := time.Now().Add(45 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if n, err := ob.DeliverDue(ctx); err != nil || n != 0 {
			t.Fatalf("DeliverDue = %d, %v; want no attempt", n, err)
		}
		if after = pages(); after <= 50 || time.Now().After(deadline) {
			break
		}
	}
	if after > 50 {
		t.Errorf("a scan still reads %d pages after claims for 45 s: the claim did not mark the dead entries", after)
	}
}
