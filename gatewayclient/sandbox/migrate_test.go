package sandbox

import (
	"context"
	"database/sql"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	gc "github.com/pixcheckout/pixcheckout/gatewayclient"
)

// The schema of a data dir made before the migrations were numbered, as the code of that
// time applied it at every start: a list of idempotent statements, verbatim. (An older data
// dir, from before the amount index's _v3, is handled as well: see TestOpenAdoptsOlderDataDir.)
var unnumberedSchema = []string{
	`CREATE TABLE IF NOT EXISTS settings (
		key   TEXT PRIMARY KEY,
		value TEXT NOT NULL
	) WITHOUT ROWID`,
	`CREATE TABLE IF NOT EXISTS deposits (
		id            TEXT PRIMARY KEY,
		client_id     TEXT NOT NULL,
		status        TEXT NOT NULL,
		amount        INTEGER NOT NULL,
		origin        TEXT NOT NULL,
		created_at    INTEGER NOT NULL,
		expires_at    INTEGER NOT NULL DEFAULT 0,
		external_code TEXT,
		doc           TEXT NOT NULL
	)`,
	`CREATE INDEX IF NOT EXISTS deposits_client_created ON deposits (client_id, created_at, id, status, origin, amount)`,
	`CREATE INDEX IF NOT EXISTS deposits_client_status_created ON deposits (client_id, status, created_at, id, origin, amount)`,
	`CREATE INDEX IF NOT EXISTS deposits_client_amount_v3 ON deposits (client_id, amount, created_at, id, status, origin)`,
	`DROP INDEX IF EXISTS deposits_client_amount`,
	`DROP INDEX IF EXISTS deposits_client_amount_v2`,
	`DROP TABLE IF EXISTS deposit_counts`,
	`DROP TABLE IF EXISTS deposit_day_counts`,
	`CREATE TABLE IF NOT EXISTS deposit_counts_v3 (
		client_id TEXT NOT NULL,
		day       INTEGER NOT NULL,
		status    TEXT NOT NULL,
		origin    TEXT NOT NULL,
		bucket    INTEGER NOT NULL,
		n         INTEGER NOT NULL,
		PRIMARY KEY (client_id, day, status, origin, bucket)
	) WITHOUT ROWID`,
	`CREATE TABLE IF NOT EXISTS deposit_day_counts_v3 (
		client_id TEXT NOT NULL,
		day       INTEGER NOT NULL,
		status    TEXT NOT NULL,
		origin    TEXT NOT NULL,
		n         INTEGER NOT NULL,
		PRIMARY KEY (client_id, day, status, origin)
	) WITHOUT ROWID`,
	`CREATE TABLE IF NOT EXISTS deposit_bucket_counts_v3 (
		client_id TEXT NOT NULL,
		bucket    INTEGER NOT NULL,
		status    TEXT NOT NULL,
		origin    TEXT NOT NULL,
		n         INTEGER NOT NULL,
		PRIMARY KEY (client_id, bucket, status, origin)
	) WITHOUT ROWID`,
	`CREATE TABLE IF NOT EXISTS withdrawals (
		id               TEXT PRIMARY KEY,
		client_id        TEXT NOT NULL,
		status           TEXT NOT NULL,
		amount           INTEGER NOT NULL,
		created_at       INTEGER NOT NULL,
		external_code    TEXT,
		end_to_end       TEXT,
		end_to_end_refund TEXT,
		pix_key          TEXT,
		doc              TEXT NOT NULL
	)`,
	`CREATE INDEX IF NOT EXISTS withdrawals_client_created ON withdrawals (client_id, created_at, id, status, amount)`,
	`CREATE INDEX IF NOT EXISTS withdrawals_client_status_created ON withdrawals (client_id, status, created_at, id)`,
	`CREATE INDEX IF NOT EXISTS withdrawals_external_code ON withdrawals (client_id, external_code)`,
	`CREATE INDEX IF NOT EXISTS withdrawals_end_to_end ON withdrawals (client_id, end_to_end)`,
	`CREATE INDEX IF NOT EXISTS withdrawals_end_to_end_refund ON withdrawals (client_id, end_to_end_refund)`,
	`CREATE INDEX IF NOT EXISTS withdrawals_pix_key ON withdrawals (client_id, pix_key)`,
	`CREATE TABLE IF NOT EXISTS idempotency (
		client_id   TEXT NOT NULL,
		key         TEXT NOT NULL,
		body_hash   TEXT NOT NULL,
		status_code INTEGER NOT NULL,
		response    BLOB NOT NULL,
		created_at  INTEGER NOT NULL,
		PRIMARY KEY (client_id, key)
	) WITHOUT ROWID`,
}

// The outbox's schema of that time, verbatim.
var unnumberedOutboxSchema = []string{
	`CREATE TABLE IF NOT EXISTS webhook_deliveries (
		id               INTEGER PRIMARY KEY AUTOINCREMENT,
		message_id       TEXT    NOT NULL,
		client_id        TEXT    NOT NULL,
		secret           TEXT    NOT NULL,
		url              TEXT    NOT NULL,
		forward          INTEGER NOT NULL,
		type             TEXT    NOT NULL,
		record_kind      TEXT    NOT NULL,
		record_id        TEXT    NOT NULL,
		body             BLOB    NOT NULL,
		status           TEXT    NOT NULL,
		attempts         INTEGER NOT NULL DEFAULT 0,
		next_attempt_at  INTEGER NOT NULL,
		lease_until      INTEGER NOT NULL DEFAULT 0,
		last_error       TEXT    NOT NULL DEFAULT '',
		last_status_code INTEGER NOT NULL DEFAULT 0,
		created_at       INTEGER NOT NULL,
		updated_at       INTEGER NOT NULL,
		UNIQUE (message_id, url)
	)`,
	`CREATE INDEX IF NOT EXISTS webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`,
	`CREATE INDEX IF NOT EXISTS webhook_deliveries_record ON webhook_deliveries (record_id, id)`,
	`CREATE TABLE IF NOT EXISTS webhook_attempts (
		delivery_id INTEGER NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
		n           INTEGER NOT NULL,
		at          INTEGER NOT NULL,
		status_code INTEGER NOT NULL,
		error       TEXT    NOT NULL,
		duration_ns INTEGER NOT NULL,
		PRIMARY KEY (delivery_id, n)
	) WITHOUT ROWID`,
}

// oldDataDir makes a data dir the way the code before numbered migrations did: its schema,
// applied with each statement in turn, and n seeded deposits written straight into it with
// stale counts, statistics, settings, an idempotency key and a webhook delivery.
func oldDataDir(t *testing.T, schema []string, n int) (dir string, ids []string) {
	t.Helper()
	dir = t.TempDir()
	db, err := sql.Open("sqlite", "file:"+filepath.ToSlash(filepath.Join(dir, dbFileName))+"?"+
		url.Values{"_pragma": {"journal_mode(WAL)"}}.Encode())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, stmt := range append(slices.Clone(schema), unnumberedOutboxSchema...) {
		if _, err := db.Exec(stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	old := &Sandbox{merchant: merchant{name: "OLD SANDBOX", city: "SAO PAULO", key: newUUID()}}
	g := &seeder{s: old, seed: 11, now: msTime(testStart)}
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		cols, err := g.deposit(testClientID, i, n)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tx.Exec(`INSERT INTO deposits (id, client_id, status, amount, origin, created_at, expires_at, external_code, doc)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, cols...); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, cols[0].(string))
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	for _, stmt := range []string{
		// Counts that no longer match the deposits: the upgrade must not trust them.
		`INSERT INTO deposit_counts_v3 VALUES ('test-client', 20000, 'PAID', 'QRCODE', 40, 7)`,
		`INSERT INTO settings VALUES ('clock_offset_ms', '3600000')`,
		`INSERT INTO settings VALUES ('webhook_secret:test-client', 'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=')`,
		`INSERT INTO idempotency VALUES ('test-client', 'legacy-key-1', 'hash', 201, '{"id":"legacy"}', 0)`,
		`INSERT INTO webhook_deliveries (message_id, client_id, secret, url, forward, type, record_kind, record_id, body,
			status, attempts, next_attempt_at, created_at, updated_at)
			VALUES ('msg_legacy', 'test-client', 'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=', 'https://hooks.example.com/x', 0,
			'deposit.paid', 'deposit', '` + ids[0] + `', '{}', 'delivered', 1, 0, 0, 0)`,
		`INSERT INTO webhook_attempts VALUES (1, 1, 0, 200, '', 1500000)`,
		`ANALYZE`,
	} {
		if _, err := db.Exec(stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	return dir, ids
}

// TestOpenAdoptsUnnumberedDataDir opens a data dir made by the code before numbered
// migrations: its records, settings, idempotency keys and webhook log are all kept, the
// count tables dropped, the list indexes renamed and analyzed, and both the
// sandbox's and the outbox's migrations are recorded, once.
func TestOpenAdoptsUnnumberedDataDir(t *testing.T) {
	const n = 400
	dir, ids := oldDataDir(t, unnumberedSchema, n)
	e := &env{t: t, dir: dir, clock: NewManualClock(testStart)}
	e.start(nil)
	checkAdopted(t, e, ids)

	migrations := func() []string {
		return queryStrings(t, e.sb.r, `SELECT component || ' ' || version || ' ' || applied_at FROM schema_migrations ORDER BY 1`)
	}
	applied := migrations()
	if len(applied) != 7 {
		t.Fatalf("schema_migrations %v, want outbox 1 to 4, sandbox 1 to 3", applied)
	}
	for _, name := range []string{"deposits_client_created", "deposits_client_amount_v3", "deposit_counts_v3",
		"deposit_day_counts_v3", "deposit_bucket_counts_v3", "deposit_counts", "deposit_counts_by_day", "deposit_counts_by_bucket"} {
		var left bool
		if err := e.sb.r.QueryRow(`SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE name = ?)`, name).Scan(&left); err != nil || left {
			t.Errorf("%s still there (%v)", name, err)
		}
	}
	var stats bool
	if err := e.sb.r.QueryRow(`SELECT EXISTS (SELECT 1 FROM sqlite_stat1 WHERE idx = 'deposits_by_amount')`).Scan(&stats); err != nil || !stats {
		t.Fatalf("no planner statistics for deposits_by_amount after the upgrade (%v)", err)
	}

	// A restart applies nothing again.
	e.stop()
	e.start(nil)
	if again := migrations(); !slices.Equal(again, applied) {
		t.Fatalf("after a restart schema_migrations %v, was %v", again, applied)
	}
	checkAdopted(t, e, ids)
}

// TestOpenAdoptsOlderDataDir opens a data dir of an older shape still (a per-status count
// table, the _v2 amount index and an expiry index without its later name clash).
func TestOpenAdoptsOlderDataDir(t *testing.T) {
	older := append(slices.Clone(unnumberedSchema),
		`CREATE TABLE IF NOT EXISTS deposit_counts (client_id TEXT NOT NULL, status TEXT NOT NULL, origin TEXT NOT NULL,
			n INTEGER NOT NULL, PRIMARY KEY (client_id, status, origin)) WITHOUT ROWID`,
		`CREATE INDEX IF NOT EXISTS deposits_client_amount_v2 ON deposits (client_id, amount, created_at, id)`,
		`CREATE INDEX IF NOT EXISTS deposits_awaiting ON deposits (expires_at) WHERE status = 'PIX_QRCODE_GENERATED'`)
	dir, ids := oldDataDir(t, older, 150)
	e := &env{t: t, dir: dir, clock: NewManualClock(testStart)}
	e.start(nil)
	checkAdopted(t, e, ids)
}

// checkAdopted checks a sandbox opened on an old data dir holding the deposits ids.
func checkAdopted(t *testing.T, e *env, ids []string) {
	t.Helper()
	ctx := context.Background()
	if got, want := e.sb.Now(), testStart.Add(time.Hour); !got.Equal(want) {
		t.Errorf("clock %v, want the stored offset: %v", got, want)
	}
	if c, _ := e.sb.Client(testClientID); c.WebhookSecret != "whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=" {
		t.Errorf("webhook secret %q, want the stored one", c.WebhookSecret)
	}
	st, resp, found, err := lookupIdempotency(ctx, e.sb.r, testClientID, "legacy-key-1", "hash")
	if err != nil || !found || st != 201 || string(resp) != `{"id":"legacy"}` {
		t.Errorf("idempotency key: %d %s %v %v", st, resp, found, err)
	}
	logs, err := e.sb.Deliveries(ctx, ids[0], 10)
	if err != nil || len(logs) != 1 || logs[0].MessageID != "msg_legacy" || len(logs[0].AttemptLog) != 1 {
		t.Errorf("webhook log of %s: %+v %v", ids[0], logs, err)
	}
	c := e.client(gc.WithClock(clientClock{e.sb}))
	p, err := c.ListDeposits(ctx, gc.DepositFilter{PerPage: 100})
	if err != nil || p.Total != len(ids) || len(p.Data) != 100 {
		t.Fatalf("list: %+v %v, want %d deposits", p, err, len(ids))
	}
	d, err := c.GetDeposit(ctx, ids[len(ids)/2])
	if err != nil || d.ID != ids[len(ids)/2] {
		t.Fatalf("get: %v", err)
	}
	// The stale counts are gone with their tables: totals match COUNT(*) whatever the filter.
	now := e.sb.Now()
	for _, f := range []gc.DepositFilter{
		{},
		{Status: []gc.DepositStatus{gc.DepositPaid}},
		{MinAmount: 1000, MaxAmount: 9000},
		{StartDate: now.Add(-40 * 24 * time.Hour), EndDate: now.Add(-3 * 24 * time.Hour), MinAmount: 500},
		{DepositOrigin: []gc.DepositOrigin{gc.OriginPixKey}, MaxAmount: 20000},
	} {
		f.PerPage = 1
		p, err := c.ListDeposits(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		got := p.Total
		w := depositWhere(testClientID, f)
		var want int
		if err := e.sb.r.QueryRow(`SELECT COUNT(*) FROM deposits WHERE `+w.sql(), w.args...).Scan(&want); err != nil {
			t.Fatal(err)
		}
		if got != want {
			b, _ := json.Marshal(f)
			t.Errorf("filter %s: total %d, COUNT(*) %d", b, got, want)
		}
	}
}

// TestDataDirWithURIMetacharacters opens a data dir whose path holds "#" and "?", which an
// unescaped SQLite URI would cut short (opening, and sharing, a file named after the part
// before them).
func TestDataDirWithURIMetacharacters(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a#b?c %41")
	e := &env{t: t, dir: dir, clock: NewManualClock(testStart)}
	e.start(nil)
	e.createTx(e.token(), "uri-chars-1", 100)
	if _, err := os.Stat(filepath.Join(dir, dbFileName)); err != nil {
		t.Fatalf("the database is not in the data dir: %v", err)
	}
	if _, err := os.Stat(filepath.Dir(dir) + "/a"); err == nil {
		t.Fatal("a file named after the path cut at # was made")
	}
}
