// Package sqlite is the checkout's store on SQLite, through the pure-Go driver
// modernc.org/sqlite: WAL journal, foreign keys, and the migrations of migrations/ embedded in
// the binary and applied at Open. The statements are checkout/sqlstore's, shared with the
// PostgreSQL store (the driver binds $1, $2, … by number, as PostgreSQL does); this package
// opens the file, runs database/sql under sqlstore.DB, and says where SQLite differs.
//
// Writes go through a pool of one connection whose transactions begin IMMEDIATE, so that a
// read-modify-write never meets a lock upgrade failure; reads use a separate pool and read
// transactions, so that an order and its attempts are always read from one snapshot.
package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"

	_ "modernc.org/sqlite" // the "sqlite" database/sql driver

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/sqlstore"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Store is the SQLite implementation of checkout.Store.
type Store struct {
	*sqlstore.Store
	w *sql.DB // writes: one connection, IMMEDIATE transactions
	r *sql.DB // reads: several connections, query only
}

var _ checkout.Store = (*Store)(nil)

// readers is the number of read connections.
const readers = 4

// options are the settings tests change.
type options struct {
	busyTimeout int                           // milliseconds
	wrap        func(sqlstore.DB) sqlstore.DB // sees every statement, when set
}

// Open opens (creating it and its folder when missing) the database file at path and applies
// the migrations not applied yet.
func Open(ctx context.Context, path string) (*Store, error) {
	return open(ctx, path, options{busyTimeout: 5000})
}

func open(ctx context.Context, path string, o options) (*Store, error) {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o750); err != nil {
			return nil, fmt.Errorf("sqlite: creating %s: %w", dir, err)
		}
	}
	dsn := func(pragmas ...string) string {
		q := url.Values{}
		q.Add("_pragma", "busy_timeout("+strconv.Itoa(o.busyTimeout)+")")
		q.Add("_pragma", "foreign_keys(1)")
		for _, p := range pragmas {
			q.Add("_pragma", p)
		}
		return "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode()
	}
	w, err := sql.Open("sqlite", dsn("journal_mode(WAL)", "synchronous(NORMAL)")+"&_txlock=immediate")
	if err != nil {
		return nil, fmt.Errorf("sqlite: opening %s: %w", path, err)
	}
	w.SetMaxOpenConns(1)
	w.SetConnMaxIdleTime(0)
	if err := sqlstore.Migrate(ctx, dialect(), database{w: w}, migrations); err != nil {
		w.Close()
		return nil, err
	}
	r, err := sql.Open("sqlite", dsn("journal_mode(WAL)", "synchronous(NORMAL)", "query_only(1)"))
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("sqlite: opening %s: %w", path, err)
	}
	r.SetMaxOpenConns(readers)
	var db sqlstore.DB = database{w: w, r: r}
	if o.wrap != nil {
		db = o.wrap(db)
	}
	return &Store{Store: sqlstore.New(dialect(), db), w: w, r: r}, nil
}

// Close closes the database.
func (s *Store) Close() error {
	return errors.Join(s.r.Close(), s.w.Close())
}

// dialect is where SQLite's SQL differs from the shared text.
func dialect() sqlstore.Dialect {
	return sqlstore.Dialect{
		Name:         "sqlite",
		CollateBytes: "COLLATE BINARY",
		OneOf:        oneOf,
		List:         list,
		EmptyJSON:    "", // the violations column is TEXT NOT NULL
	}
}

// oneOf is "column IN the list", the list passed as one JSON array (list): one parameter
// whatever its length, where SQLite limits the number of parameters.
func oneOf(column, param string) string {
	return column + " IN (SELECT value FROM json_each(" + param + "))"
}

func list(values []string) any {
	b, _ := json.Marshal(values) // a []string always encodes
	return string(b)
}

// database runs the shared statements through database/sql: reads on the read pool, writes on
// the writer.
type database struct {
	w, r *sql.DB
}

func (d database) Read(ctx context.Context, s sqlstore.Stmt) error  { return run(ctx, d.r, s) }
func (d database) Write(ctx context.Context, s sqlstore.Stmt) error { return run(ctx, d.w, s) }

// ReadTx runs fn in a read transaction: every statement of fn sees one snapshot.
func (d database) ReadTx(ctx context.Context, fn func(sqlstore.Runner) error) error {
	tx, err := d.r.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	return fn(runner{tx})
}

// WriteTx runs fn in an IMMEDIATE transaction on the writer, committed when fn returns nil.
func (d database) WriteTx(ctx context.Context, fn func(sqlstore.Runner) error) error {
	tx, err := d.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	if err := fn(runner{tx}); err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// runner runs statements one after the other in a transaction.
type runner struct{ tx *sql.Tx }

func (r runner) Run(ctx context.Context, stmts ...sqlstore.Stmt) error {
	for _, s := range stmts {
		if err := run(ctx, r.tx, s); err != nil {
			return err
		}
	}
	return nil
}

// querier is what a *sql.DB and a *sql.Tx have in common.
type querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

func run(ctx context.Context, q querier, s sqlstore.Stmt) error {
	if s.Rows != nil {
		rows, err := q.QueryContext(ctx, s.SQL, s.Args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		if err := s.Rows(rows); err != nil {
			return err
		}
		if err := rows.Err(); err != nil {
			return err
		}
		return rows.Close()
	}
	res, err := q.ExecContext(ctx, s.SQL, s.Args...)
	if err != nil || s.Affected == nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	return s.Affected(n)
}
