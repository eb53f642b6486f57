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
// is prepared across transactions.
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
//   - migrations are embedded, applied at Open each in its own transaction, and serialised
//     between processes by a transaction-scoped advisory lock.
package postgres

import (
	"context"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/sqlstore"
)

//go:embed migrations/*.sql
var migrations embed.FS

// migrationLock is the key of the advisory lock taken by every migration transaction. Any
// fixed number works as long as nothing else in the database uses it; these are the bytes of
// "pixmigr1".
const migrationLock int64 = 0x7069786d69677231

// Store is the PostgreSQL implementation of checkout.Store.
type Store struct {
	*sqlstore.Store
	pool *pgxpool.Pool
}

var _ checkout.Store = (*Store)(nil)

// Open connects to the database at url (postgres://user:password@host:port/dbname?sslmode=…)
// and applies the migrations not applied yet. Several processes may Open the same database at
// once: the migrations are applied exactly once.
func Open(ctx context.Context, url string) (*Store, error) {
	return open(ctx, url, nil)
}

// open is Open; wrap, when set, sees every statement (tests count them).
func open(ctx context.Context, url string, wrap func(sqlstore.DB) sqlstore.DB) (*Store, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		// The parser's message quotes the URL, password included when it cannot tell where the
		// password is; so the cause is not passed on.
		return nil, errors.New("postgres: the database URL does not parse (expected postgres://user:password@host:port/dbname?options)")
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
		return nil, fmt.Errorf("postgres: connecting: %w", err)
	}
	var db sqlstore.DB = database{pool}
	if err := sqlstore.Migrate(ctx, dialect(), db, migrations); err != nil {
		pool.Close()
		return nil, err
	}
	if wrap != nil {
		db = wrap(db)
	}
	return &Store{Store: sqlstore.New(dialect(), db), pool: pool}, nil
}

// Close closes every connection of the pool, after waiting for those in use to be released.
// It always returns nil; the error result makes the Store an io.Closer like the SQLite store.
func (s *Store) Close() error {
	s.pool.Close()
	return nil
}

// dialect is where PostgreSQL's SQL differs from the shared text.
func dialect() sqlstore.Dialect {
	return sqlstore.Dialect{
		Name:     "postgres",
		RowLocks: true,
		// The same byte order as SQLite's, whatever the database's locale.
		CollateBytes:  `COLLATE "C"`,
		OneOf:         func(column, param string) string { return column + " = ANY(" + param + ")" },
		List:          func(values []string) any { return values },
		EmptyJSON:     nil, // the violations column is JSONB, NULL when there are none
		MigrationLock: "SELECT pg_advisory_xact_lock(" + strconv.FormatInt(migrationLock, 10) + ")",
		Storable:      storable,
		StoredKey:     storedKey,
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

// database runs the shared statements on the pool, in transactions of the pool.
type database struct {
	pool *pgxpool.Pool
}

func (d database) Read(ctx context.Context, s sqlstore.Stmt) error  { return run(ctx, d.pool, s) }
func (d database) Write(ctx context.Context, s sqlstore.Stmt) error { return run(ctx, d.pool, s) }

// ReadTx runs fn in a REPEATABLE READ READ ONLY transaction: every statement of fn sees one
// snapshot.
func (d database) ReadTx(ctx context.Context, fn func(sqlstore.Runner) error) error {
	tx, err := d.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	return fn(runner{tx})
}

// WriteTx runs fn in a READ COMMITTED transaction, committed when fn returns nil.
func (d database) WriteTx(ctx context.Context, fn func(sqlstore.Runner) error) error {
	tx, err := d.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	if err := fn(runner{tx}); err != nil {
		_ = tx.Rollback(ctx)
		return err
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// querier is what a pool and a transaction have in common.
type querier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults
}

// runner runs statements in a transaction: several in one round trip.
type runner struct{ tx pgx.Tx }

func (r runner) Run(ctx context.Context, stmts ...sqlstore.Stmt) error {
	switch len(stmts) {
	case 0:
		return nil
	case 1:
		return run(ctx, r.tx, stmts[0])
	}
	b := &pgx.Batch{}
	for _, s := range stmts {
		q := b.Queue(s.SQL, s.Args...)
		switch {
		case s.Rows != nil:
			q.Query(func(rows pgx.Rows) error { return s.Rows(rows) })
		case s.Affected != nil:
			q.Exec(func(tag pgconn.CommandTag) error { return s.Affected(tag.RowsAffected()) })
		}
	}
	return r.tx.SendBatch(ctx, b).Close()
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
