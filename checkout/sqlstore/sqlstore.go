// Package sqlstore is the checkout's store written once for SQL: the statements and the reading
// of rows into products, carts and orders, of both checkout/sqlite and checkout/postgres. A
// dialect package opens its database, applies its migrations (with gatewayclient/sqlmigrate),
// adapts its driver to DB, describes where its SQL differs in a Dialect, and passes both to New.
//
// One text serves both databases: parameters are written $1, $2, … (PostgreSQL's form, which
// the SQLite driver binds by number too), times are BIGINT Unix milliseconds (0: not set),
// money BIGINT cents, booleans Go bools (SQLite keeps them as 0 and 1), and upserts use
// INSERT … ON CONFLICT, which both understand.
//
// A driver may send the statements of one DB Run call together (pgx's pipeline): reading an
// order and its lines, history and attempts, or writing them, costs one round trip to
// PostgreSQL, and reading a page of orders two, whatever the number of orders.
//
// # Lists that stay fast at millions of orders
//
// The merchant's lists page by key (checkout.Cursor: a row value (created_at, id) compared
// through an index in that order), never by OFFSET, which reads every row before the page;
// a status filter reads (status, created_at, id) in order, one page per status merged when
// several are asked; the count of a list stops at checkout.MaxCounted+1; the overview reads
// each figure through the one index that holds it; the search box goes through the dialect's
// text index (Dialect.Search; PostgreSQL's pg_trgm index serves the LIKEs as written), and a
// whole e-mail address through an index on it. Report reads take at most Dialect.ReportReads
// connections at once, so merchants never starve the shop. BenchmarkLists
// (checkout/postgres) measures them at up to 1,000,000 orders.
package sqlstore

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/sealed"
)

// Rows is a result being read: what *sql.Rows and pgx.Rows have in common.
type Rows interface {
	Next() bool
	Scan(dest ...any) error
}

// Stmt is one SQL statement, its arguments, and what to do with its result.
type Stmt struct {
	SQL  string
	Args []any
	// Rows, when set, reads the rows the statement returns; the driver checks their error and
	// closes them afterwards.
	Rows func(Rows) error
	// Affected, when set, is given the number of rows the statement changed.
	Affected func(n int64) error
}

// Runner runs statements in a transaction.
type Runner interface {
	// Run runs stmts in order, each with its callbacks, and stops at the first error, which it
	// returns as is. The statements may travel together, prepared before the first runs: one
	// may read the rows an earlier one of the same call wrote, but not use a value a callback
	// read, nor a table or column an earlier one created.
	Run(ctx context.Context, stmts ...Stmt) error
}

// DB is what a dialect package gives the store: its connections, and transactions on them.
// Errors of the driver are returned as they are; the store wraps them.
type DB interface {
	// Read runs one statement that only reads, outside any transaction.
	Read(ctx context.Context, s Stmt) error
	// Write runs one statement that writes, committed on its own.
	Write(ctx context.Context, s Stmt) error
	// ReadTx runs fn in a read-only transaction whose statements all see one snapshot.
	ReadTx(ctx context.Context, fn func(tx Runner) error) error
	// WriteTx runs fn in a transaction, committed when fn returns nil and rolled back
	// otherwise; fn's error is returned as is.
	WriteTx(ctx context.Context, fn func(tx Runner) error) error
}

// BatchReader is a DB that runs a read-only transaction made of one batch of statements in one
// go (PostgreSQL: its BEGIN, the statements and its end in one round trip).
type BatchReader interface {
	ReadBatch(ctx context.Context, stmts ...Stmt) error
}

// readBatch runs stmts in one read-only transaction: through the DB's ReadBatch when it has one,
// else as the one Run of a ReadTx.
func (s *Store) readBatch(ctx context.Context, stmts ...Stmt) error {
	if b, ok := s.db.(BatchReader); ok {
		return b.ReadBatch(ctx, stmts...)
	}
	return s.db.ReadTx(ctx, func(tx Runner) error { return tx.Run(ctx, stmts...) })
}

// BatchWriter is a DB that runs a write transaction made of one batch of statements in one go
// (PostgreSQL: its BEGIN, the statements and its COMMIT in one round trip). The statements'
// callbacks run once the batch has been answered, when the transaction has already ended: a
// callback's error is returned but cannot roll anything back, so a batch holds only statements
// whose success the database itself decides (a constraint, a foreign key).
type BatchWriter interface {
	WriteBatch(ctx context.Context, stmts ...Stmt) error
}

// writeBatch runs stmts in one write transaction, committed when every statement succeeded:
// through the DB's WriteBatch when it has one, else as the one Run of a WriteTx.
func (s *Store) writeBatch(ctx context.Context, stmts ...Stmt) error {
	if b, ok := s.db.(BatchWriter); ok {
		return b.WriteBatch(ctx, stmts...)
	}
	return s.db.WriteTx(ctx, func(tx Runner) error { return tx.Run(ctx, stmts...) })
}

// Dialect says where a database's SQL or behaviour differs from the text this package writes.
type Dialect struct {
	// Name starts every error message ("sqlite", "postgres").
	Name string
	// RowLocks: the database locks the rows a transaction reads to change (SELECT … FOR UPDATE),
	// as PostgreSQL must for writers running at once. False where a transaction that writes
	// holds the whole database (SQLite's BEGIN IMMEDIATE), which needs no row locks.
	RowLocks bool
	// CollateBytes is the COLLATE clause that orders text by its bytes, the same in every
	// locale (`COLLATE "C"`, `COLLATE BINARY`).
	CollateBytes string
	// OneOf returns the condition "column is one of the strings of the list given as the
	// parameter param", whose value List makes.
	OneOf func(column, param string) string
	List  func(values []string) any
	// EmptyJSON is the value a JSON column holds for nothing: NULL (nil) or "".
	EmptyJSON any
	// Storable reports whether a key from outside (an id in a URL, a webhook id in a header)
	// can be stored at all; one that cannot names nothing. Nil: every string can.
	Storable func(key string) bool
	// StoredKey maps a webhook id to the key that records it, one to one. Nil: the id itself.
	StoredKey func(key string) string
	// Search, when set, returns the condition on orders o that an order holds term (already
	// trimmed) in its searched columns, or its document holds doc (documentChars; "" for
	// none), through the database's text index, its arguments added to p; "" leaves the search
	// to LIKE on each column. Nil: LIKE always (PostgreSQL's trigram index serves it).
	Search func(term, doc string, p *Params) string
	// ReportReads bounds the merchant's report reads (the order lists' pages and counts, the
	// overview) running at once; the others wait for their turn. They share the connections
	// with the shop, and a few merchants opening lists at once must leave connections for the
	// shoppers' reads and the readiness check. 0: no bound.
	ReportReads int
}

// Store implements checkout.Store on a DB.
type Store struct {
	d  Dialect
	db DB
	// The texts of the statements that read whole orders, made once.
	byID, byRequestKey, byExternalCode, byTransaction, listed orderReads
	// reaching: see reachingStatuses.
	reaching map[checkout.OrderStatus][]string
	// reports holds a token per report read running (Dialect.ReportReads); nil: no bound.
	reports chan struct{}
	// keys seal the secrets the store keeps (sealed.go); nil: kept as they are.
	keys *sealed.Keys
}

var _ checkout.Store = (*Store)(nil)

// New returns the store that runs d's SQL on db. db must be migrated.
func New(d Dialect, db DB) *Store {
	return &Store{d: d, db: db,
		byID:           keyedOrderReads("o.id = $1"),
		byRequestKey:   keyedOrderReads("o.request_key = $1"),
		byExternalCode: keyedOrderReads("o.external_code = $1"),
		byTransaction:  keyedOrderReads("o.id = (SELECT order_id FROM attempts WHERE transaction_id = $1)"),
		listed:         newOrderReads("", d.OneOf("order_id", "$1")),
		reaching:       reachingStatuses(),
		reports:        reportSlots(d.ReportReads),
	}
}

func reportSlots(n int) chan struct{} {
	if n <= 0 {
		return nil
	}
	return make(chan struct{}, n)
}

// report runs fn, a report read, once fewer than Dialect.ReportReads others run (or ctx ends).
func (s *Store) report(ctx context.Context, fn func() error) error {
	if s.reports == nil {
		return fn()
	}
	select {
	case s.reports <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-s.reports }()
	return fn()
}

// Ping checks that the database answers a query.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.db.Read(ctx, Stmt{SQL: "SELECT 1", Rows: each(func(Rows) error { return nil })}); err != nil {
		return s.errorf("ping: %w", err)
	}
	return nil
}

// errorf is fmt.Errorf with the dialect's name in front.
func (s *Store) errorf(format string, args ...any) error {
	return fmt.Errorf("%s: "+format, append([]any{s.d.Name}, args...)...)
}

// storable reports whether key can name a stored row (see Dialect.Storable).
func (s *Store) storable(key string) bool {
	return s.d.Storable == nil || s.d.Storable(key)
}

// lockRows returns clause when the database takes row locks, else nothing.
func (s *Store) lockRows(clause string) string {
	if s.d.RowLocks {
		return clause
	}
	return ""
}

// Params collects the arguments of a statement built from optional parts and numbers their
// placeholders in the order they are added.
type Params []any

// Add appends v and returns its placeholder ($1, $2, …).
func (p *Params) Add(v any) string {
	*p = append(*p, v)
	return "$" + strconv.Itoa(len(*p))
}

// each returns a Rows callback that calls fn for every row.
func each(fn func(r Rows) error) func(Rows) error {
	return func(r Rows) error {
		for r.Next() {
			if err := fn(r); err != nil {
				return err
			}
		}
		return nil
	}
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

// nullString stores "" as NULL, for unique columns that may be unset and for text that may be
// absent.
func nullString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
