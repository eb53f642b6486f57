package sandbox

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/pixcheckout/pixcheckout/gatewayclient/outbox"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sqlmigrate"

	_ "modernc.org/sqlite" // the driver "sqlite"
)

// dbFileName is the SQLite file inside Options.DataDir.
const dbFileName = "sandbox.db"

//go:embed migrations/*.sql
var migrations embed.FS

// defaultBusyTimeout is how long a connection waits for a lock held by another process (a
// backup, an sqlite3 shell). Within the process nothing ever waits on it: all writes go
// through one connection, and readers never block in WAL mode.
const defaultBusyTimeout = 5 * time.Second

// openDB opens (creating if needed) the sandbox database in dir and applies its migrations.
// It returns the writer, a pool of one connection whose transactions take the write lock at
// BEGIN (so writers queue in the pool, never on SQLite's busy handler, and a read-then-write
// never fails to upgrade its lock), and the readers, a pool of query-only connections.
func openDB(ctx context.Context, dir string, busyTimeout time.Duration) (w, r *sql.DB, err error) {
	dsn := func(extra ...string) string {
		q := url.Values{}
		q.Add("_pragma", "journal_mode(WAL)")
		q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeout.Milliseconds()))
		q.Add("_pragma", "foreign_keys(1)")
		q.Add("_pragma", "synchronous(NORMAL)")
		for i := 0; i+1 < len(extra); i += 2 {
			q.Add(extra[i], extra[i+1])
		}
		// The path is escaped: SQLite reads the name as a URI, where "#" or "?" in a folder's
		// name would otherwise cut it short.
		return "file:" + (&url.URL{Path: filepath.ToSlash(filepath.Join(dir, dbFileName))}).EscapedPath() + "?" + q.Encode()
	}
	// The file is made 0600 before SQLite opens it: SQLite gives its -wal and -shm the same mode,
	// so the gateway's copy of shoppers' data is its owner's alone whatever the umask.
	if f, err := os.OpenFile(filepath.Join(dir, dbFileName), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600); err == nil {
		_ = f.Close()
	} else if !errors.Is(err, fs.ErrExist) {
		return nil, nil, fmt.Errorf("sandbox: creating the database: %w", err)
	}
	w, err = sql.Open("sqlite", dsn("_txlock", "immediate"))
	if err != nil {
		return nil, nil, fmt.Errorf("sandbox: open database: %w", err)
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxIdleTime(0)
	w.SetConnMaxLifetime(0)
	if err := migrateDB(ctx, w); err != nil {
		w.Close()
		return nil, nil, err
	}
	r, err = sql.Open("sqlite", dsn("_pragma", "query_only(1)"))
	if err != nil {
		w.Close()
		return nil, nil, fmt.Errorf("sandbox: open database: %w", err)
	}
	r.SetMaxOpenConns(4)
	r.SetMaxIdleConns(4)
	return w, r, nil
}

// plan is the sandbox's migrations, applied before its webhook outbox's.
var plan = sqlmigrate.Plan{Component: "sandbox", FS: migrations, Releases: []sqlmigrate.Release{{Name: "0.1.0", Last: 100}}}

// migrateDB applies the sandbox's migrations and its webhook outbox's.
func migrateDB(ctx context.Context, w *sql.DB) error {
	err := sqlmigrate.Apply(ctx, w, "", plan, outbox.Plan(outbox.SQLite))
	if err != nil {
		return fmt.Errorf("sandbox: %w", err)
	}
	return nil
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

// write runs fn in a transaction of the writer, committed when fn returns nil. Keep fn
// short: every other write waits for it. (Make QR codes and such before.)
func (s *Sandbox) write(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sandbox: begin: %w", err)
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sandbox: commit: %w", err)
	}
	return nil
}
