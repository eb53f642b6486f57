// Package postgres is the checkout's store on PostgreSQL, for running several instances of the
// checkout behind a load balancer on one database. Its statements are checkout/sqlstore's,
// shared with the SQLite store, over the same schema shape: money in BIGINT cents, times in
// BIGINT Unix milliseconds (0: not set). This package connects, runs pgx under sqlstore.DB, and
// keeps what is PostgreSQL's own.
//
// It talks to the server through pgx's own connection pool (pgxpool) rather than database/sql:
// the statements of one sqlstore Run call go in one round trip (pgx.Batch), so an order with its
// lines, history and attempts is read or written in one, and PostgreSQL's types (BOOLEAN,
// BYTEA, JSONB, text arrays for "= ANY($1)") map to Go without adapters. The URL also carries
// the pool's settings (pool_max_conns=…, see pgxpool.ParseConfig), the schema (search_path=…),
// and, behind PgBouncer in transaction pooling, default_query_exec_mode=exec so that nothing
// is prepared across transactions. What lives on a session (the change feed's LISTEN, the
// reconciler's advisory lock) goes on connections of its own to Options.DirectURL, which
// CheckSession proves are session connections.
//
// Concurrency, also across processes:
//   - writes run in READ COMMITTED transactions that lock the row they read-modify-write
//     (SELECT … FOR UPDATE on the cart or the order), so concurrent updates queue instead of
//     failing, and an order's Version compare-and-set is decided under that lock;
//   - request keys, webhook ids, order numbers, idempotency keys, transaction ids and product
//     ids and slugs are unique in the database; CreateOrder, MarkWebhook and AddProduct use
//     INSERT … ON CONFLICT DO NOTHING, which waits for a concurrent insert of the same key to
//     commit or roll back, so seeding the catalogue from several instances at once is safe;
//   - reads of whole orders run in REPEATABLE READ READ ONLY transactions, so an order and its
//     attempts always come from one snapshot;
//   - retention deletes skip the rows other transactions hold (FOR UPDATE SKIP LOCKED);
//   - migrations are embedded and applied at Open by gatewayclient/sqlmigrate, through
//     database/sql on the same pool (pgx's stdlib), each in its own transaction, serialised
//     between processes by a transaction-scoped advisory lock;
//   - the notifications' outbox (gatewayclient/outbox, see Outbox) runs through database/sql
//     on the same pool too; UpdateOrder writes an order's notifications in its own
//     transaction, and the outbox's workers in every instance claim them with FOR UPDATE SKIP
//     LOCKED.
package postgres

import (
	"context"
	"database/sql"
	"embed"
	"encoding/hex"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/sqlstore"
	"github.com/pixcheckout/pixcheckout/gatewayclient/outbox"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sqlmigrate"
)

//go:embed migrations/*.sql
var migrations embed.FS

// plan is the store's migrations (component "checkout"), applied after the outbox's. Release
// 0.1.0's schema is the baseline, 0100; later migrations are numbered after it, in both
// stores (README.md of cmd/checkout, "Releases and upgrades").
var plan = sqlmigrate.Plan{Component: "checkout", FS: migrations, Releases: []sqlmigrate.Release{{Name: "0.1.0", Last: 100}}}

// Store is the PostgreSQL implementation of checkout.Store.
type Store struct {
	*sqlstore.Store
	pool *pgxpool.Pool
	db   *sql.DB // database/sql on the pool, for the migrations and the outbox
	// session is the configuration of the connections of their own (the change feed's, the
	// lease's): Options.DirectURL's, else the pool's.
	session *pgx.ConnConfig
	feed    feedState
	onFeed  func(ok bool, err error)
	// onProfile is told when the store's profile changed (OnStoreProfile).
	onProfile atomic.Pointer[func()]
	// onTerminal is told when a sale of a terminal changed (OnTerminal).
	onTerminal atomic.Pointer[func(terminalID string)]
}

var _ checkout.Store = (*Store)(nil)

// Options are Open's settings beyond the pool's URL.
type Options struct {
	// DirectURL reaches PostgreSQL itself with a session connection, for what lives on a
	// connection's session: LISTEN (the change feed) and the session advisory lock of the
	// reconciler's lease. It is needed when the URL goes through a pooler in transaction mode
	// (PgBouncer's pool_mode = transaction), where a session's LISTEN hears nothing and its lock
	// stays on a server connection handed to others. Empty: the URL's.
	DirectURL string
	// OnFeed, when set, is told each change of the change feed's state: ok false with the
	// error when its connection fails (it is tried again), ok true when it listens again.
	OnFeed func(ok bool, err error)
}

// Open connects to the database at url (postgres://user:password@host:port/dbname?sslmode=…)
// and applies the migrations not applied yet. Several processes may Open the same database at
// once: the migrations are applied exactly once.
func Open(ctx context.Context, url string) (*Store, error) {
	return open(ctx, url, Options{}, nil)
}

// OpenWith is Open with o.
func OpenWith(ctx context.Context, url string, o Options) (*Store, error) {
	return open(ctx, url, o, nil)
}

// errURL is the error of a database URL that does not parse. The parser's message quotes the
// URL, password included when it cannot tell where the password is; so the cause is not passed on.
func errURL(which string) error {
	return fmt.Errorf("postgres: the %s does not parse (expected postgres://user:password@host:port/dbname?options)", which)
}

// open is Open; wrap, when set, sees every statement (tests count them).
func open(ctx context.Context, url string, o Options, wrap func(sqlstore.DB) sqlstore.DB) (*Store, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, errURL("database URL")
	}
	session := cfg.ConnConfig.Copy()
	if o.DirectURL != "" {
		// Parsed as a pool's URL, so that the pool's own settings (pool_max_conns=…) are taken
		// out, not sent to the server as startup parameters.
		direct, err := pgxpool.ParseConfig(o.DirectURL)
		if err != nil {
			return nil, errURL("direct database URL")
		}
		session = direct.ConnConfig
	}
	if !strings.Contains(url, "pool_max_conns=") {
		cfg.MaxConns = defaultMaxConns()
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: creating the connection pool: %w", err)
	}
	// Connect now, so that an unreachable server or a refused login is reported as such at
	// start rather than as a failed migration. Connection errors name the host, user and
	// database, never the password.
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		if param, ok := refusedParameter(err); ok {
			return nil, &PoolerError{Param: param, Err: err}
		}
		return nil, fmt.Errorf("postgres: connecting: %w", err)
	}
	sdb := stdlib.OpenDBFromPool(pool)
	if err := sqlmigrate.Apply(ctx, sdb, sqlmigrate.PostgresLock, outbox.Plan(outbox.PostgreSQL), plan); err != nil {
		sdb.Close()
		pool.Close()
		return nil, fmt.Errorf("postgres: %w", err)
	}
	var db sqlstore.DB = database{pool}
	if wrap != nil {
		db = wrap(db)
	}
	d := dialect()
	// A quarter of the pool at most for the merchant's lists and overview: the rest stays for
	// the shop, whatever the merchants open.
	d.ReportReads = max(1, int(cfg.MaxConns)/4)
	return &Store{Store: sqlstore.New(d, db), pool: pool, db: sdb, session: session, onFeed: o.OnFeed}, nil
}

// PoolerError is Open's error when the server refuses a startup parameter the URL gives, as
// PgBouncer does (`unsupported startup parameter`) for any parameter it does not know, such as
// search_path: it cannot pass a session's setting on to server connections it shares.
type PoolerError struct {
	Param string // the parameter refused
	Err   error
}

func (e *PoolerError) Error() string {
	return fmt.Sprintf("postgres: the server (a pooler such as PgBouncer) refuses the startup parameter %s that the URL sets", e.Param)
}

func (e *PoolerError) Unwrap() error { return e.Err }

// refusedParameter reads PgBouncer's refusal of a startup parameter.
func refusedParameter(err error) (string, bool) {
	const refusal = "unsupported startup parameter: "
	msg := err.Error()
	i := strings.Index(msg, refusal)
	if i < 0 {
		return "", false
	}
	param, _, _ := strings.Cut(msg[i+len(refusal):], " ")
	return strings.Trim(param, `"(),`), true
}

// Outbox returns the outbox of the notifications written with the orders (see UpdateOrder),
// with o's options on this database.
func (s *Store) Outbox(o outbox.Options) (*outbox.Outbox, error) {
	o.DB, o.ReadDB, o.Dialect = s.db, nil, outbox.PostgreSQL
	return outbox.New(o)
}

// Close closes every connection of the pool, after waiting for those in use to be released.
func (s *Store) Close() error {
	err := s.db.Close()
	s.pool.Close()
	return err
}

// dialect is where PostgreSQL's SQL differs from the shared text.
func dialect() sqlstore.Dialect {
	return sqlstore.Dialect{
		Name:     "postgres",
		RowLocks: true,
		// The same byte order as SQLite's, whatever the database's locale.
		CollateBytes: `COLLATE "C"`,
		OneOf:        func(column, param string) string { return column + " = ANY(" + param + ")" },
		List:         func(values []string) any { return values },
		EmptyJSON:    nil, // the violations column is JSONB, NULL when there are none
		Storable:     storable,
		StoredKey:    storedKey,
	}
}

// storable reports whether PostgreSQL can hold s in a TEXT column: valid UTF-8 without NUL
// bytes. Keys from outside (ids in URLs, webhook ids in headers) may be neither; SQLite keeps
// any bytes, so such a key is simply one that was never stored.
func storable(s string) bool {
	return utf8.ValidString(s) && !strings.ContainsRune(s, 0)
}

// escapedPrefix starts a key that had to be escaped to be stored (see storedKey).
const escapedPrefix = "\uFFFD"

// storedKey maps any byte string to a storable one, one to one: storable strings stay as they
// are unless they begin with escapedPrefix; those and the unstorable ones become escapedPrefix
// followed by their bytes in hex.
func storedKey(s string) string {
	if storable(s) && !strings.HasPrefix(s, escapedPrefix) {
		return s
	}
	return escapedPrefix + hex.EncodeToString([]byte(s))
}

// defaultMaxConns is the pool's size when the URL gives none: pgx's own default, the number of
// cores but at least 4, left 16 shoppers on a 2-core machine queueing for the 4 connections
// (placing orders spends most of its time in round trips, not on the cores); 4 a core, at
// least 8, is still a small share of PostgreSQL's 100 connections for a few instances.
func defaultMaxConns() int32 {
	return int32(max(8, 4*runtime.NumCPU()))
}

// database runs the shared statements on the pool, in transactions of the pool.
type database struct {
	pool *pgxpool.Pool
}

func (d database) Read(ctx context.Context, s sqlstore.Stmt) error  { return run(ctx, d.pool, s) }
func (d database) Write(ctx context.Context, s sqlstore.Stmt) error { return run(ctx, d.pool, s) }

// ReadTx runs fn in a REPEATABLE READ READ ONLY transaction: every statement of fn sees one
// snapshot.
func (d database) ReadTx(ctx context.Context, fn func(sqlstore.Runner) error) error {
	return d.tx(ctx, beginRead, fn, false)
}

// The BEGINs of the store's transactions: reads see one snapshot; writes lock the rows they
// read to change (see the package comment).
const (
	beginRead  = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
	beginWrite = "BEGIN ISOLATION LEVEL READ COMMITTED"
)

// ReadBatch runs stmts in a REPEATABLE READ READ ONLY transaction in one round trip: its BEGIN,
// the statements and its end go in one batch (sqlstore uses it for the reads that are a single
// batch, such as an order with its lines and attempts, or a cart).
func (d database) ReadBatch(ctx context.Context, stmts ...sqlstore.Stmt) error {
	return d.batch(ctx, beginRead, stmts)
}

// WriteBatch runs stmts in a READ COMMITTED transaction in one round trip: its BEGIN, the
// statements and its COMMIT go in one batch. A failed statement leaves the transaction aborted
// and the rest of the batch, COMMIT included, skipped: nothing of it is kept.
func (d database) WriteBatch(ctx context.Context, stmts ...sqlstore.Stmt) error {
	return d.batch(ctx, beginWrite, stmts)
}

// batch sends begin, stmts and COMMIT as one batch on one connection of the pool.
func (d database) batch(ctx context.Context, begin string, stmts []sqlstore.Stmt) error {
	conn, err := d.pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer conn.Release() // the pool closes a connection left in a transaction
	b := &pgx.Batch{}
	b.Queue(begin)
	queue(b, stmts)
	b.Queue("COMMIT")
	if err := conn.SendBatch(ctx, b).Close(); err != nil {
		// A failed statement leaves the transaction aborted, the rest of the batch skipped.
		_, _ = conn.Exec(context.WithoutCancel(ctx), "ROLLBACK")
		return err
	}
	return nil
}

// WriteTx runs fn in a READ COMMITTED transaction, committed when fn returns nil.
func (d database) WriteTx(ctx context.Context, fn func(sqlstore.Runner) error) error {
	return d.tx(ctx, beginWrite, fn, true)
}

// tx runs fn in a transaction begun by begin on one connection of the pool. The BEGIN is a
// round trip of its own: sending it in the batch of fn's first statements saved about a tenth
// of a store read or update (BenchmarkStores), a figure no shopper or merchant feels, for a
// type that tracked whether it had begun.
func (d database) tx(ctx context.Context, begin string, fn func(sqlstore.Runner) error, commit bool) error {
	conn, err := d.pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	// The pool closes, rather than reuses, a connection left in a transaction (an end that
	// failed) or busy (a context ended mid-statement).
	defer conn.Release()
	if _, err := conn.Exec(ctx, begin); err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	if err := fn(txRunner{conn}); err != nil {
		_, _ = conn.Exec(context.WithoutCancel(ctx), "ROLLBACK")
		return err
	}
	end := "COMMIT"
	if !commit {
		end = "ROLLBACK" // read only: nothing to keep
	}
	if _, err := conn.Exec(ctx, end); err != nil {
		return fmt.Errorf("%s: %w", strings.ToLower(end), err)
	}
	return nil
}

// txRunner runs statements on the connection of a begun transaction.
type txRunner struct{ conn *pgxpool.Conn }

// Run sends stmts in one batch (one round trip). A statement without arguments may be several
// (a migration file): it goes alone, with the simple protocol (see run).
func (t txRunner) Run(ctx context.Context, stmts ...sqlstore.Stmt) error {
	if len(stmts) == 0 {
		return nil
	}
	if len(stmts) == 1 && len(stmts[0].Args) == 0 {
		return run(ctx, t.conn, stmts[0])
	}
	b := &pgx.Batch{}
	queue(b, stmts)
	return t.conn.SendBatch(ctx, b).Close()
}

// queue adds stmts to b, each with what reads its result.
func queue(b *pgx.Batch, stmts []sqlstore.Stmt) {
	for _, s := range stmts {
		q := b.Queue(s.SQL, s.Args...)
		switch {
		case s.Rows != nil:
			q.Query(func(rows pgx.Rows) error { return s.Rows(rows) })
		case s.Affected != nil:
			q.Exec(func(tag pgconn.CommandTag) error { return s.Affected(tag.RowsAffected()) })
		}
	}
}

// querier is what a pool and a transaction have in common.
type querier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults
}

// run runs one statement. Without arguments pgx sends it with the simple protocol, which runs
// the several statements of a migration file.
func run(ctx context.Context, q querier, s sqlstore.Stmt) error {
	if s.Rows != nil {
		rows, err := q.Query(ctx, s.SQL, s.Args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		if err := s.Rows(rows); err != nil {
			return err
		}
		rows.Close()
		return rows.Err()
	}
	tag, err := q.Exec(ctx, s.SQL, s.Args...)
	if err != nil || s.Affected == nil {
		return err
	}
	return s.Affected(tag.RowsAffected())
}
