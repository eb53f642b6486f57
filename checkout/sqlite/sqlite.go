// Package sqlite is the checkout's store on SQLite, through the pure-Go driver
// modernc.org/sqlite: WAL journal, a busy timeout, foreign keys, and migrations embedded in the
// binary and applied at Open, each in its own transaction.
//
// Writes go through a pool of one connection whose transactions begin IMMEDIATE, so that a
// read-modify-write never meets a lock upgrade failure; reads use a separate pool and read
// transactions, so that an order and its attempts are always read from one snapshot.
package sqlite

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
	"sort"
	"strconv"
	"strings"
	"time"

	sqlitedrv "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/pixcheckout/pixcheckout/checkout"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Store is the SQLite implementation of checkout.Store.
type Store struct {
	w *sql.DB // writes: one connection, IMMEDIATE transactions
	r *sql.DB // reads: several connections, query only
}

var _ checkout.Store = (*Store)(nil)

// Open opens (creating it and its folder when missing) the database file at path and applies
// the migrations not applied yet.
func Open(ctx context.Context, path string) (*Store, error) {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o750); err != nil {
			return nil, fmt.Errorf("sqlite: creating %s: %w", dir, err)
		}
	}
	dsn := func(extra string) string {
		q := url.Values{}
		q.Add("_pragma", "busy_timeout(5000)")
		q.Add("_pragma", "journal_mode(WAL)")
		q.Add("_pragma", "foreign_keys(1)")
		q.Add("_pragma", "synchronous(NORMAL)")
		return "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode() + extra
	}
	w, err := sql.Open("sqlite", dsn("&_txlock=immediate"))
	if err != nil {
		return nil, fmt.Errorf("sqlite: opening %s: %w", path, err)
	}
	w.SetMaxOpenConns(1)
	w.SetConnMaxIdleTime(0)
	s := &Store{w: w}
	if err := s.migrate(ctx); err != nil {
		w.Close()
		return nil, err
	}
	r, err := sql.Open("sqlite", dsn("&_pragma=query_only(1)"))
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("sqlite: opening %s: %w", path, err)
	}
	r.SetMaxOpenConns(4)
	s.r = r
	return s, nil
}

// Close closes the database.
func (s *Store) Close() error {
	return errors.Join(s.r.Close(), s.w.Close())
}

// Ping checks that the database answers a query.
func (s *Store) Ping(ctx context.Context) error {
	var one int
	if err := s.r.QueryRowContext(ctx, "SELECT 1").Scan(&one); err != nil {
		return fmt.Errorf("sqlite: ping: %w", err)
	}
	return nil
}

// migrate applies, in order of their number, the embedded migrations not yet recorded in
// schema_migrations, each in a transaction with its record.
func (s *Store) migrate(ctx context.Context) error { return s.migrateFS(ctx, migrations) }

// migrateFS is migrate on the migrations/*.sql files of fsys (tests give their own).
func (s *Store) migrateFS(ctx context.Context, fsys fs.FS) error {
	if _, err := s.w.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)`); err != nil {
		return fmt.Errorf("sqlite: creating schema_migrations: %w", err)
	}
	names, err := fs.Glob(fsys, "migrations/*.sql")
	if err != nil {
		return fmt.Errorf("sqlite: listing migrations: %w", err)
	}
	type mig struct {
		version int
		name    string
	}
	var ms []mig
	for _, n := range names {
		base := filepath.Base(n)
		num, _, ok := strings.Cut(base, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil {
			return fmt.Errorf("sqlite: migration %s is not named NNNN_name.sql", base)
		}
		ms = append(ms, mig{v, n})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].version < ms[j].version })
	for _, m := range ms {
		body, err := fs.ReadFile(fsys, m.name)
		if err != nil {
			return fmt.Errorf("sqlite: reading %s: %w", m.name, err)
		}
		err = s.write(ctx, func(tx *sql.Tx) error {
			var n int
			if err := tx.QueryRowContext(ctx, "SELECT COUNT(*) FROM schema_migrations WHERE version = ?", m.version).Scan(&n); err != nil {
				return err
			}
			if n > 0 {
				return nil
			}
			if _, err := tx.ExecContext(ctx, string(body)); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx, "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
				m.version, filepath.Base(m.name), time.Now().UnixMilli())
			return err
		})
		if err != nil {
			return fmt.Errorf("sqlite: applying migration %s: %w", filepath.Base(m.name), err)
		}
	}
	return nil
}

// write runs fn in a write transaction, committed when fn returns nil.
func (s *Store) write(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite: begin: %w", err)
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sqlite: commit: %w", err)
	}
	return nil
}

// read runs fn in a read transaction: every query of fn sees one snapshot.
func (s *Store) read(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := s.r.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite: begin: %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	return fn(tx)
}

// isUnique reports whether err is a violation of a unique or primary key constraint.
func isUnique(err error) bool {
	var se *sqlitedrv.Error
	if errors.As(err, &se) {
		c := se.Code()
		return c == sqlite3.SQLITE_CONSTRAINT_UNIQUE || c == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY
	}
	return false
}

// ms converts a time to Unix milliseconds; the zero time is 0.
func ms(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

// fromMS converts Unix milliseconds back to a UTC time; 0 is the zero time.
func fromMS(v int64) time.Time {
	if v == 0 {
		return time.Time{}
	}
	return time.UnixMilli(v).UTC()
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// MigrationCount returns how many migrations are recorded as applied.
func (s *Store) MigrationCount(ctx context.Context) (int, error) {
	var n int
	err := s.r.QueryRowContext(ctx, "SELECT COUNT(*) FROM schema_migrations").Scan(&n)
	return n, err
}
