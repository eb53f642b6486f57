// Package sqlite is the checkout's store on SQLite, through the pure-Go driver
// modernc.org/sqlite: WAL journal, foreign keys, and the migrations of migrations/ embedded in
// the binary and applied at Open. The statements are checkout/sqlstore's, shared with the
// PostgreSQL store (the driver binds $1, $2, … by number, as PostgreSQL does); this package
// opens the file, applies the migrations (gatewayclient/sqlmigrate: the outbox's, then its own),
// runs database/sql under sqlstore.DB, and says where SQLite differs.
//
// # Writes that never stall
//
// SQLite lets one connection write at a time; a connection that finds the database locked
// calls its busy handler, which sleeps and retries. No path of this store ever gets there:
//
//   - All writes go through one connection (a pool of one, never closed), whose transactions
//     begin IMMEDIATE: writers queue for that connection in Go, are served in turn, and never
//     meet a lock held by another connection of the process, nor a lock upgrade that fails.
//   - Write transactions are short: their statements and arguments (JSON included) are built
//     before BEGIN, and nothing but SQL runs inside (and UpdateCart's fn, which does no I/O).
//   - Reads use their own pool of connections, opened once the writer has set the WAL journal
//     and applied the migrations, and kept open (no reconnecting under load). In WAL mode a
//     read transaction reads a snapshot and never waits for the writer, nor the writer for it.
//   - Checkpoints are SQLite's automatic ones, run by the writer after a commit in PASSIVE
//     mode, which copies what it can and never waits for a reader (nor calls a busy handler).
//     Nothing runs the RESTART or TRUNCATE checkpoints, which would wait for readers. Readers
//     never write, so never checkpoint; at Close they go first and the writer, the last
//     connection, checkpoints and removes the WAL. The price: while reads follow each other
//     without a gap, a PASSIVE checkpoint cannot rewind the WAL, which grows until the first
//     quiet moment (a few MB in the test below) instead of making anyone wait.
//
// The busy timeout (5 s) stays on every connection for one case only: another process writing
// the same file. A test runs the store with no busy timeout at all under concurrent writes,
// reads and checkpoints, where any wait would be an SQLITE_BUSY error.
//
// # Prepared statements
//
// database/sql hands SQL text to the driver at every run, which SQLite parses and plans again:
// for the store's short statements that cost more than running them (reading an order took
// four times as long). Each pool keeps the statements the store runs prepared, once, by their
// text (database/sql's own *sql.Stmt, which prepares itself on each connection that runs it);
// a transaction uses them through Tx.StmtContext. A text first met inside a transaction runs
// as it is and is prepared when the transaction ends, since preparing waits for a free
// connection, and the writer has only the one the transaction holds.
package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/sqlstore"
	"github.com/pixcheckout/pixcheckout/gatewayclient/outbox"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sqlmigrate"

	_ "modernc.org/sqlite" // the driver "sqlite"
)

//go:embed migrations/*.sql
var migrations embed.FS

// plan is the store's migrations (component "checkout"), applied after the outbox's. Release
// 0.1.0's schema is the baseline, 0100; later migrations are numbered after it, in both
// stores (README.md of cmd/checkout, "Releases and upgrades").
var plan = sqlmigrate.Plan{Component: "checkout", FS: migrations, Releases: []sqlmigrate.Release{{Name: "0.1.0", Last: 100}},
	Steps: map[int]sqlmigrate.Step{120: bumpSchemaVersion}}

// bumpSchemaVersion completes a migration that edited sqlite_schema in place (0120, a widened
// CHECK): SQLite asks for schema_version to be incremented then, so that every connection,
// of this process or another, reloads the schema rather than keep the old constraint.
func bumpSchemaVersion(ctx context.Context, tx *sql.Tx) error {
	var v int64
	if err := tx.QueryRowContext(ctx, "PRAGMA schema_version").Scan(&v); err != nil {
		return fmt.Errorf("reading schema_version: %w", err)
	}
	if _, err := tx.ExecContext(ctx, "PRAGMA schema_version = "+strconv.FormatInt(v+1, 10)); err != nil {
		return fmt.Errorf("bumping schema_version: %w", err)
	}
	return nil
}

// Store is the SQLite implementation of checkout.Store.
type Store struct {
	*sqlstore.Store
	w *pool // writes: one connection, IMMEDIATE transactions
	r *pool // reads: several connections, query only
}

var _ checkout.Store = (*Store)(nil)

// AnonymiseDue is sqlstore's, then a checkpoint that empties the WAL: with secure_delete the
// freed pages are zeroed, and the WAL must not keep the erased values either.
func (s *Store) AnonymiseDue(ctx context.Context, before, at time.Time, limit int, h *checkout.PersonalDataHasher) ([]string, error) {
	ids, err := s.Store.AnonymiseDue(ctx, before, at, limit, h)
	if err == nil && len(ids) > 0 {
		err = s.truncateWAL(ctx)
	}
	return ids, err
}

// AnonymiseOrders is sqlstore's, then a checkpoint that empties the WAL (see AnonymiseDue).
func (s *Store) AnonymiseOrders(ctx context.Context, ids []string, at time.Time, h *checkout.PersonalDataHasher) ([]string, error) {
	done, err := s.Store.AnonymiseOrders(ctx, ids, at, h)
	if err == nil && len(done) > 0 {
		err = s.truncateWAL(ctx)
	}
	return done, err
}

// AnonymiseCharges is sqlstore's, then a checkpoint that empties the WAL (see AnonymiseDue).
func (s *Store) AnonymiseCharges(ctx context.Context, ids []string, at time.Time, h *checkout.PersonalDataHasher) ([]string, error) {
	done, err := s.Store.AnonymiseCharges(ctx, ids, at, h)
	if err == nil && len(done) > 0 {
		err = s.truncateWAL(ctx)
	}
	return done, err
}

// AnonymiseChargesDue is sqlstore's, then a checkpoint that empties the WAL (see AnonymiseDue).
func (s *Store) AnonymiseChargesDue(ctx context.Context, before, at time.Time, limit int, h *checkout.PersonalDataHasher) ([]string, error) {
	done, err := s.Store.AnonymiseChargesDue(ctx, before, at, limit, h)
	if err == nil && len(done) > 0 {
		err = s.truncateWAL(ctx)
	}
	return done, err
}

// truncateWAL copies the WAL into the file and empties it.
func (s *Store) truncateWAL(ctx context.Context) error {
	if _, err := s.w.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		return fmt.Errorf("sqlite: checkpoint after an erasure: %w", err)
	}
	return nil
}

// readers is the number of read connections; reportReaders of them at most serve the
// merchant's lists and overview at once (sqlstore.Dialect.ReportReads), so that the shop's
// reads and the readiness check always find one.
const (
	readers       = 4
	reportReaders = 2
)

// options are the settings tests change.
type options struct {
	busyTimeout     int                           // milliseconds
	checkpointPages int                           // WAL pages that start a checkpoint; 0: SQLite's 1,000
	wrap            func(sqlstore.DB) sqlstore.DB // sees every statement, when set
}

// Open opens (creating it and its folder when missing) the database file at path and applies
// the migrations not applied yet.
func Open(ctx context.Context, path string) (*Store, error) {
	return open(ctx, path, options{busyTimeout: 5000})
}

// createOwnerOnly creates the database file, when missing, readable and writable by its owner
// alone (0600): SQLite gives its -wal and -shm the database file's mode, so the three stay
// 0600 whatever the umask.
func createOwnerOnly(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("sqlite: creating %s: %w", path, err)
	}
	if err := f.Chmod(0o600); err != nil { // an umask never adds bits, but an ACL'd dir may
		f.Close()
		return fmt.Errorf("sqlite: creating %s: %w", path, err)
	}
	return f.Close()
}

func open(ctx context.Context, path string, o options) (*Store, error) {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, fmt.Errorf("sqlite: creating %s: %w", dir, err)
		}
	}
	if err := createOwnerOnly(path); err != nil {
		return nil, err
	}
	dsn := func(pragmas ...string) string {
		return fileDSN(path, append([]string{"busy_timeout(" + strconv.Itoa(o.busyTimeout) + ")", "foreign_keys(1)"}, pragmas...)...)
	}
	// The journal mode is kept in the file: set once, by the writer, before any reader opens.
	writer := []string{"journal_mode(WAL)", "synchronous(NORMAL)", "secure_delete(ON)"}
	if o.checkpointPages > 0 {
		writer = append(writer, "wal_autocheckpoint("+strconv.Itoa(o.checkpointPages)+")")
	}
	wdb, err := sql.Open("sqlite", dsn(writer...)+"&_txlock=immediate")
	if err != nil {
		return nil, fmt.Errorf("sqlite: opening %s: %w", path, err)
	}
	w := newPool(wdb)
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxIdleTime(0)
	w.SetConnMaxLifetime(0)
	if err := sqlmigrate.Apply(ctx, wdb, "", outbox.Plan(outbox.SQLite), plan); err != nil {
		w.Close()
		return nil, fmt.Errorf("sqlite: %w", err)
	}
	rdb, err := sql.Open("sqlite", dsn("query_only(1)"))
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("sqlite: opening %s: %w", path, err)
	}
	r := newPool(rdb)
	r.SetMaxOpenConns(readers)
	r.SetMaxIdleConns(readers)
	r.SetConnMaxIdleTime(0)
	r.SetConnMaxLifetime(0)
	var db sqlstore.DB = database{w: w, r: r}
	if o.wrap != nil {
		db = o.wrap(db)
	}
	return &Store{Store: sqlstore.New(dialect(), db), w: w, r: r}, nil
}

// Outbox returns the outbox of the notifications written with the orders (see UpdateOrder),
// with o's options on this database.
func (s *Store) Outbox(o outbox.Options) (*outbox.Outbox, error) {
	o.DB, o.ReadDB, o.Dialect = s.w.DB, s.r.DB, outbox.SQLite
	return outbox.New(o)
}

// Close closes the database: the readers first, so that the writer, closing last, checkpoints
// the WAL into the file.
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
		ReportReads:  reportReaders,
		Search:       search,
	}
}

// search finds the orders holding term (or whose document holds doc) through the trigram index
// of order_search_text (the baseline migration): a phrase of FTS5 is matched as a substring, case aside.
// A piece of fewer than 3 characters has no trigram: such a term is left to LIKE, and such a
// doc is not looked for in the documents.
func search(term, doc string, p *sqlstore.Params) string {
	if utf8.RuneCountInString(term) < 3 {
		return ""
	}
	phrase := func(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
	q := "{number external_code merchant_reference customer_email customer_name} : " + phrase(term)
	if len(doc) >= 3 {
		q += " OR {customer_document} : " + phrase(doc)
	}
	return "o.id IN (SELECT s.order_id FROM order_search s WHERE s.id IN " +
		"(SELECT rowid FROM order_search_text WHERE order_search_text MATCH " + p.Add(q) + "))"
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
	w, r *pool
}

func (d database) Read(ctx context.Context, s sqlstore.Stmt) error {
	return run(ctx, d.r.statement(ctx, nil, s.SQL, nil), s)
}

func (d database) Write(ctx context.Context, s sqlstore.Stmt) error {
	return run(ctx, d.w.statement(ctx, nil, s.SQL, nil), s)
}

// ReadTx runs fn in a read transaction: every statement of fn sees one snapshot.
func (d database) ReadTx(ctx context.Context, fn func(sqlstore.Runner) error) error {
	tx, err := d.r.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	r := &runner{p: d.r, tx: tx}
	err = fn(r)
	_ = tx.Rollback()
	d.r.prepare(ctx, r.missed)
	return err
}

// WriteTx runs fn in an IMMEDIATE transaction on the writer, committed when fn returns nil.
func (d database) WriteTx(ctx context.Context, fn func(sqlstore.Runner) error) error {
	tx, err := d.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	r := &runner{p: d.w, tx: tx}
	defer func() { d.w.prepare(ctx, r.missed) }()
	if err := fn(r); err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// runner runs statements one after the other in a transaction, and notes the texts its pool
// had not prepared yet.
type runner struct {
	p      *pool
	tx     *sql.Tx
	missed []string
}

func (r *runner) Run(ctx context.Context, stmts ...sqlstore.Stmt) error {
	for _, s := range stmts {
		if err := run(ctx, r.p.statement(ctx, r.tx, s.SQL, &r.missed), s); err != nil {
			return err
		}
	}
	return nil
}

// pool is a pool of connections that keeps the statements the store runs prepared, by their
// text: database/sql prepares nothing by itself, and SQLite parsing one of the store's short
// statements costs more than running it (reading an order took four times as long). It is kept
// for the figure of an order on SQLite: ≥ 200 orders/s with 16 shoppers and order POST p99 under
// 150 ms (cmd/loadtest/README.md).
type pool struct {
	*sql.DB
	mu    sync.Mutex
	stmts map[string]*sql.Stmt
}

// maxPrepared bounds the texts a pool keeps prepared: more than the store's statements (a few
// dozen, and their variants with optional filters); past it, new texts run unprepared.
const maxPrepared = 256

func newPool(db *sql.DB) *pool { return &pool{DB: db, stmts: map[string]*sql.Stmt{}} }

// prepare prepares the texts qs not prepared yet. It waits for a free connection, so it never
// runs inside a transaction of the pool: a transaction notes the texts it missed, prepared
// once it ends. A text that does not prepare is left to fail where it runs.
func (p *pool) prepare(ctx context.Context, qs []string) {
	for _, q := range qs {
		p.mu.Lock()
		_, done := p.stmts[q]
		full := len(p.stmts) >= maxPrepared
		p.mu.Unlock()
		if done || full {
			continue
		}
		st, err := p.PrepareContext(ctx, q)
		if err != nil {
			continue
		}
		p.mu.Lock()
		if _, done := p.stmts[q]; done || len(p.stmts) >= maxPrepared {
			_ = st.Close()
		} else {
			p.stmts[q] = st
		}
		p.mu.Unlock()
	}
}

// Close closes the statements, then the pool.
func (p *pool) Close() error {
	p.mu.Lock()
	for _, st := range p.stmts {
		_ = st.Close()
	}
	clear(p.stmts)
	p.mu.Unlock()
	return p.DB.Close()
}

// statement is one text to run: prepared, or as it is.
type statement interface {
	ExecContext(ctx context.Context, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, args ...any) (*sql.Rows, error)
}

// statement returns text's statement, in tx when it is set: the prepared one, or else the text
// as it is (noted in missed).
func (p *pool) statement(ctx context.Context, tx *sql.Tx, text string, missed *[]string) statement {
	if tx == nil {
		p.prepare(ctx, []string{text})
	}
	p.mu.Lock()
	st := p.stmts[text]
	p.mu.Unlock()
	switch {
	case st != nil && tx != nil:
		return tx.StmtContext(ctx, st)
	case st != nil:
		return st
	case tx != nil:
		*missed = append(*missed, text)
		return unprepared{tx, text}
	}
	return unprepared{p.DB, text}
}

// unprepared is a text run as it is, on a pool or in a transaction.
type unprepared struct {
	q interface {
		ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
		QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	}
	text string
}

func (u unprepared) ExecContext(ctx context.Context, args ...any) (sql.Result, error) {
	return u.q.ExecContext(ctx, u.text, args...)
}

func (u unprepared) QueryContext(ctx context.Context, args ...any) (*sql.Rows, error) {
	return u.q.QueryContext(ctx, u.text, args...)
}

// run runs s as st, with its callbacks.
func run(ctx context.Context, st statement, s sqlstore.Stmt) error {
	if s.Rows != nil {
		rows, err := st.QueryContext(ctx, s.Args...)
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
	res, err := st.ExecContext(ctx, s.Args...)
	if err != nil || s.Affected == nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	return s.Affected(n)
}

// ResealSecrets seals again the secrets sealed with an older key (sqlstore's) and then empties
// the WAL: the writer runs with secure_delete on, so the space the replaced values leave is
// overwritten, and afterwards neither the file nor its WAL holds a value sealed with the old
// key. It runs at the program's start, before anything else writes.
func (s *Store) ResealSecrets(ctx context.Context) (int, error) {
	n, err := s.Store.ResealSecrets(ctx)
	if err != nil {
		return 0, err
	}
	if n > 0 {
		if _, err := s.w.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
			return n, fmt.Errorf("sqlite: resealing the secrets: %w", err)
		}
	}
	return n, nil
}
