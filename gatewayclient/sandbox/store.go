package sandbox

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/bits"
	"net/url"
	"path/filepath"

	_ "modernc.org/sqlite" // registers the pure-Go "sqlite" driver
)

// dbFileName is the SQLite file inside Options.DataDir.
const dbFileName = "sandbox.db"

// schema is applied at every start; every statement is idempotent.
//
// Records keep the columns that filters and sorting need, plus the whole record as JSON
// (doc). Times are Unix milliseconds. Lists are newest first with id as the tie-breaker, so
// every index that serves a list ends in (created_at, id).
var schema = []string{
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
	// Newest-first pages for one client, with or without a date range; the extra columns let
	// COUNT(*) and the other filters be answered from the index alone.
	`CREATE INDEX IF NOT EXISTS deposits_client_created ON deposits (client_id, created_at, id, status, origin, amount)`,
	// Status filters: each listed status is a range of this index.
	`CREATE INDEX IF NOT EXISTS deposits_client_status_created ON deposits (client_id, status, created_at, id, origin, amount)`,
	// Amount-range filters (with id, so a page's ids come from the index alone; with status
	// and origin, so counts of an amount range with those filters too).
	`CREATE INDEX IF NOT EXISTS deposits_client_amount_v3 ON deposits (client_id, amount, created_at, id, status, origin)`,
	`DROP INDEX IF EXISTS deposits_client_amount`,
	`DROP INDEX IF EXISTS deposits_client_amount_v2`,
	// Deposits per client, UTC day of creation, status, origin and amount bucket, kept in
	// step with the deposits table: the total of a list is a sum over the whole days and
	// whole amount buckets inside the filter, plus index counts over the partial days and
	// buckets at its edges, instead of a count over up to millions of index entries.
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
	// The same without buckets: far fewer rows to sum when no amount filter is given.
	`CREATE TABLE IF NOT EXISTS deposit_day_counts_v3 (
		client_id TEXT NOT NULL,
		day       INTEGER NOT NULL,
		status    TEXT NOT NULL,
		origin    TEXT NOT NULL,
		n         INTEGER NOT NULL,
		PRIMARY KEY (client_id, day, status, origin)
	) WITHOUT ROWID`,
	// The same per amount bucket over all days: lists with an amount filter and no date
	// bound sum at most buckets × statuses × origins rows here instead of every day's.
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

// openDB opens (creating if needed) the sandbox database in dir and applies the schema.
func openDB(ctx context.Context, dir string) (*sql.DB, error) {
	q := url.Values{}
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", "foreign_keys(1)")
	q.Add("_pragma", "synchronous(NORMAL)")
	// Write transactions take the write lock at BEGIN, so two writers queue on busy_timeout
	// instead of one failing when it upgrades a read snapshot that went stale.
	q.Add("_txlock", "immediate")
	dsn := "file:" + filepath.ToSlash(filepath.Join(dir, dbFileName)) + "?" + q.Encode()
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("sandbox: open database: %w", err)
	}
	for _, stmt := range schema {
		if _, err := db.ExecContext(ctx, stmt); err != nil {
			db.Close()
			return nil, fmt.Errorf("sandbox: apply schema: %w", err)
		}
	}
	return db, nil
}

// querier is what both *sql.DB and *sql.Tx offer.
type querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// getSetting returns the value stored under key, and whether there was one.
func getSetting(ctx context.Context, q querier, key string) (string, bool, error) {
	var v string
	err := q.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = ?`, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("sandbox: read setting %s: %w", key, err)
	}
	return v, true, nil
}

// putSetting stores value under key, replacing any previous value.
func putSetting(ctx context.Context, q querier, key, value string) error {
	_, err := q.ExecContext(ctx, `INSERT INTO settings (key, value) VALUES (?, ?)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value`, key, value)
	if err != nil {
		return fmt.Errorf("sandbox: write setting %s: %w", key, err)
	}
	return nil
}

// dayMs is one UTC day in Unix milliseconds.
const dayMs = 24 * 60 * 60 * 1000

// bumpCount adds delta to the deposit count of (clientID, day of createdMs, status, origin,
// bucket of amount).
func bumpCount(ctx context.Context, q querier, clientID string, createdMs int64, status, origin string, amount int64, delta int) error {
	_, err := q.ExecContext(ctx, `INSERT INTO deposit_counts_v3 (client_id, day, status, origin, bucket, n) VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (client_id, day, status, origin, bucket) DO UPDATE SET n = n + excluded.n`,
		clientID, floorDiv(createdMs, dayMs), status, origin, amountBucket(amount), delta)
	if err != nil {
		return fmt.Errorf("sandbox: deposit counts: %w", err)
	}
	_, err = q.ExecContext(ctx, `INSERT INTO deposit_day_counts_v3 (client_id, day, status, origin, n) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (client_id, day, status, origin) DO UPDATE SET n = n + excluded.n`,
		clientID, floorDiv(createdMs, dayMs), status, origin, delta)
	if err != nil {
		return fmt.Errorf("sandbox: deposit counts: %w", err)
	}
	_, err = q.ExecContext(ctx, `INSERT INTO deposit_bucket_counts_v3 (client_id, bucket, status, origin, n) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (client_id, bucket, status, origin) DO UPDATE SET n = n + excluded.n`,
		clientID, amountBucket(amount), status, origin, delta)
	if err != nil {
		return fmt.Errorf("sandbox: deposit counts: %w", err)
	}
	return nil
}

// floorDiv is a/b rounded down (b > 0).
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// amountBucket returns the count bucket of an amount (cents ≥ 1): 1, 2 and 3 alone, then
// four buckets per power of two (each about 19% wider than the previous). Bucket numbers grow
// with the amount; 4 to 7 are unused.
func amountBucket(a int64) int64 {
	if a < 4 {
		return max(a, 0)
	}
	l := int64(bits.Len64(uint64(a))) - 1 // a is in [2^l, 2^(l+1))
	return l*4 + (a>>(l-2))&3
}

// bucketRange returns the amounts [lo, hi] of bucket b.
func bucketRange(b int64) (int64, int64) {
	if b < 8 {
		return b, b
	}
	l, sub := b/4, b%4
	return (4 + sub) << (l - 2), (5+sub)<<(l-2) - 1
}

// rebuildCounts recomputes the deposit counts of clientID ("" for every client) from the
// deposits table.
func rebuildCounts(ctx context.Context, q querier, clientID string) error {
	where, args := "", []any{}
	if clientID != "" {
		where, args = ` WHERE client_id = ?`, append(args, clientID)
	}
	for _, table := range []string{"deposit_counts_v3", "deposit_day_counts_v3", "deposit_bucket_counts_v3"} {
		if _, err := q.ExecContext(ctx, `DELETE FROM `+table+where, args...); err != nil {
			return fmt.Errorf("sandbox: rebuild deposit counts: %w", err)
		}
	}
	rows, err := q.QueryContext(ctx, `SELECT client_id, created_at, status, origin, amount FROM deposits`+where, args...)
	if err != nil {
		return fmt.Errorf("sandbox: rebuild deposit counts: %w", err)
	}
	type key struct {
		client, status, origin string
		day, bucket            int64
	}
	counts := map[key]int{}
	for rows.Next() {
		var k key
		var created, amount int64
		if err := rows.Scan(&k.client, &created, &k.status, &k.origin, &amount); err != nil {
			rows.Close()
			return fmt.Errorf("sandbox: rebuild deposit counts: %w", err)
		}
		k.day, k.bucket = floorDiv(created, dayMs), amountBucket(amount)
		counts[k]++
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("sandbox: rebuild deposit counts: %w", err)
	}
	for k, n := range counts {
		if _, err := q.ExecContext(ctx, `INSERT INTO deposit_counts_v3 (client_id, day, status, origin, bucket, n) VALUES (?, ?, ?, ?, ?, ?)`,
			k.client, k.day, k.status, k.origin, k.bucket, n); err != nil {
			return fmt.Errorf("sandbox: rebuild deposit counts: %w", err)
		}
	}
	if _, err := q.ExecContext(ctx, `INSERT INTO deposit_day_counts_v3 (client_id, day, status, origin, n)
		SELECT client_id, day, status, origin, SUM(n) FROM deposit_counts_v3`+where+` GROUP BY 1, 2, 3, 4`, args...); err != nil {
		return fmt.Errorf("sandbox: rebuild deposit counts: %w", err)
	}
	if _, err := q.ExecContext(ctx, `INSERT INTO deposit_bucket_counts_v3 (client_id, bucket, status, origin, n)
		SELECT client_id, bucket, status, origin, SUM(n) FROM deposit_counts_v3`+where+` GROUP BY 1, 2, 3, 4`, args...); err != nil {
		return fmt.Errorf("sandbox: rebuild deposit counts: %w", err)
	}
	return nil
}

// ensureCounts rebuilds the deposit counts when a counts table is empty but deposits exist
// (a data dir from before that table).
func ensureCounts(ctx context.Context, q querier) error {
	var have, need bool
	if err := q.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM deposit_counts_v3) AND EXISTS (SELECT 1 FROM deposit_bucket_counts_v3),
		EXISTS (SELECT 1 FROM deposits)`).Scan(&have, &need); err != nil {
		return fmt.Errorf("sandbox: check deposit counts: %w", err)
	}
	if have || !need {
		return nil
	}
	return rebuildCounts(ctx, q, "")
}

// ensureStats analyzes the deposits table when it has planner statistics (made by ANALYZE
// after a seed) but none for one of its indexes: an index added by a newer schema to a data
// dir analyzed before would otherwise look like the best choice for every query, and newest-
// first pages would sort a million rows.
func ensureStats(ctx context.Context, q querier) error {
	var hasStats bool
	if err := q.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE name = 'sqlite_stat1')`).Scan(&hasStats); err != nil {
		return fmt.Errorf("sandbox: check statistics: %w", err)
	}
	if !hasStats {
		return nil
	}
	var missing bool
	err := q.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM sqlite_stat1 WHERE tbl = 'deposits')
		AND EXISTS (SELECT 1 FROM sqlite_schema s WHERE s.type = 'index' AND s.tbl_name = 'deposits'
			AND NOT EXISTS (SELECT 1 FROM sqlite_stat1 t WHERE t.idx = s.name))`).Scan(&missing)
	if err != nil {
		return fmt.Errorf("sandbox: check statistics: %w", err)
	}
	if !missing {
		return nil
	}
	if _, err := q.ExecContext(ctx, `ANALYZE deposits`); err != nil {
		return fmt.Errorf("sandbox: analyze: %w", err)
	}
	return nil
}
