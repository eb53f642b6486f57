// Package postgres is the checkout's store on PostgreSQL, for running several instances of the
// checkout behind a load balancer on one database. It passes the same suite as the SQLite store
// (checkout/storetest) and keeps the same schema shape: money in BIGINT cents, times in BIGINT
// Unix milliseconds (0: not set).
//
// It talks to the server through pgx's own connection pool (pgxpool) rather than database/sql:
// reads of an order's lines, history and attempts are pipelined in one round trip (pgx.Batch),
// and PostgreSQL's types (BOOLEAN, BYTEA, JSONB, text arrays for "= ANY($1)") map to Go without
// adapters. The URL also carries the pool's settings (pool_max_conns=…, see
// pgxpool.ParseConfig), the schema (search_path=…), and, behind PgBouncer in transaction
// pooling, default_query_exec_mode=exec so that nothing is prepared across transactions.
//
// Concurrency, also across processes:
//   - writes run in READ COMMITTED transactions that lock the row they read-modify-write
//     (SELECT … FOR UPDATE on the cart or the order), so concurrent updates queue instead of
//     failing, and an order's Version compare-and-set is decided under that lock;
//   - request keys, webhook ids, order numbers, idempotency keys and transaction ids are unique
//     in the database; CreateOrder and MarkWebhook use INSERT … ON CONFLICT DO NOTHING, which
//     waits for a concurrent insert of the same key to commit or roll back;
//   - reads of whole orders run in REPEATABLE READ READ ONLY transactions, so an order and its
//     attempts always come from one snapshot;
//   - migrations are embedded, applied at Open each in its own transaction, and serialised
//     between processes by a transaction-scoped advisory lock.
package postgres

import (
	"context"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pixcheckout/pixcheckout/checkout"
)

//go:embed migrations/*.sql
var migrations embed.FS

// migrationLock is the key of the advisory lock taken by every migration transaction. Any
// fixed number works as long as nothing else in the database uses it; these are the bytes of
// "pixmigr1".
const migrationLock int64 = 0x7069786d69677231

// Store is the PostgreSQL implementation of checkout.Store.
type Store struct {
	pool *pgxpool.Pool
}

var _ checkout.Store = (*Store)(nil)

// Open connects to the database at url (postgres://user:password@host:port/dbname?sslmode=…)
// and applies the migrations not applied yet. Several processes may Open the same database at
// once: the migrations are applied exactly once.
func Open(ctx context.Context, url string) (*Store, error) {
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
	s := &Store{pool: pool}
	if err := s.migrate(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	return s, nil
}

// Close closes every connection of the pool, after waiting for those in use to be released.
// It always returns nil; the error result makes the Store an io.Closer like the SQLite store.
func (s *Store) Close() error {
	s.pool.Close()
	return nil
}

// Ping checks that the database answers.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.pool.Ping(ctx); err != nil {
		return fmt.Errorf("postgres: ping: %w", err)
	}
	return nil
}

// MigrationCount returns how many migrations are recorded as applied.
func (s *Store) MigrationCount(ctx context.Context) (int, error) {
	var n int
	if err := s.pool.QueryRow(ctx, "SELECT COUNT(*) FROM schema_migrations").Scan(&n); err != nil {
		return 0, fmt.Errorf("postgres: counting migrations: %w", err)
	}
	return n, nil
}

type migration struct {
	version int
	file    string
}

// embeddedMigrations lists the embedded migrations in the order of their number.
func embeddedMigrations() ([]migration, error) {
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return nil, fmt.Errorf("postgres: listing migrations: %w", err)
	}
	var ms []migration
	for _, n := range names {
		base := path.Base(n)
		num, _, ok := strings.Cut(base, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil {
			return nil, fmt.Errorf("postgres: migration %s is not named NNNN_name.sql", base)
		}
		ms = append(ms, migration{v, n})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].version < ms[j].version })
	return ms, nil
}

// migrate applies, in order of their number, the embedded migrations not yet recorded in
// schema_migrations, each in a transaction with its record. Each transaction first takes the
// advisory lock, so that processes starting together apply each migration once: the others
// wait, then find it recorded. Creating schema_migrations happens under the lock too, since
// two concurrent CREATE TABLE IF NOT EXISTS can still collide in PostgreSQL's catalogue.
func (s *Store) migrate(ctx context.Context) error {
	ms, err := embeddedMigrations()
	if err != nil {
		return err
	}
	for _, m := range ms {
		body, err := migrations.ReadFile(m.file)
		if err != nil {
			return fmt.Errorf("postgres: reading %s: %w", m.file, err)
		}
		err = s.write(ctx, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", migrationLock); err != nil {
				return fmt.Errorf("taking the migration lock: %w", err)
			}
			if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
				version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)`); err != nil {
				return fmt.Errorf("creating schema_migrations: %w", err)
			}
			var done bool
			if err := tx.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM schema_migrations WHERE version = $1)",
				m.version).Scan(&done); err != nil {
				return err
			}
			if done {
				return nil
			}
			// Without arguments pgx sends the file with the simple protocol, which runs
			// several statements.
			if _, err := tx.Exec(ctx, string(body)); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
				m.version, path.Base(m.file), time.Now().UnixMilli())
			return err
		})
		if err != nil {
			return fmt.Errorf("postgres: applying migration %s: %w", path.Base(m.file), err)
		}
	}
	return nil
}

// write runs fn in a READ COMMITTED transaction, committed when fn returns nil. fn's error is
// returned as is.
func (s *Store) write(ctx context.Context, fn func(tx pgx.Tx) error) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("postgres: begin: %w", err)
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback(ctx)
		return err
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("postgres: commit: %w", err)
	}
	return nil
}

// read runs fn in a REPEATABLE READ READ ONLY transaction: every query of fn sees one snapshot.
func (s *Store) read(ctx context.Context, fn func(tx pgx.Tx) error) error {
	tx, err := s.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return fmt.Errorf("postgres: begin: %w", err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	return fn(tx)
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

// nullString stores "" as NULL, for unique columns that may be unset.
func nullString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
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

// params numbers query parameters as they are added, for queries built from optional parts.
type params []any

// add appends v and returns its placeholder ($1, $2, …).
func (p *params) add(v any) string {
	*p = append(*p, v)
	return "$" + strconv.Itoa(len(*p))
}
