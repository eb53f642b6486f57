package postgres_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/brand"
	"github.com/pixcheckout/pixcheckout/checkout/postgres"
	"github.com/pixcheckout/pixcheckout/checkout/postgres/pgtest"
	"github.com/pixcheckout/pixcheckout/checkout/sqlstore"
	"github.com/pixcheckout/pixcheckout/checkout/storetest"
)

// newDatabase creates an empty database with a random name, dropped when the test ends, and
// returns its URL (see pgtest.Database).
func newDatabase(t testing.TB) string {
	t.Helper()
	return pgtest.Database(t, "checkout_test_")
}

// randomSuffix returns 12 random hex digits, for names of test databases and schemas.
func randomSuffix(t testing.TB) string {
	b := make([]byte, 6)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}

func open(t testing.TB, dbURL string) *postgres.Store {
	t.Helper()
	s, err := postgres.Open(context.Background(), dbURL)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// newSchema creates an empty schema with a random name in the database at dbURL and returns
// a URL whose connections work in it (search_path), so that a store opened there starts empty
// without the cost of a new database.
func newSchema(t testing.TB, dbURL string) string {
	t.Helper()
	name := "store_" + randomSuffix(t)
	withConn(t, dbURL, func(ctx context.Context, conn *pgx.Conn) error {
		_, err := conn.Exec(ctx, "CREATE SCHEMA "+name)
		return err
	})
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", name)
	u.RawQuery = q.Encode()
	return u.String()
}

// TestStoreSuite runs the suite every store passes. Each subtest's store gets a schema of its
// own in one database created for the suite.
func TestStoreSuite(t *testing.T) {
	t.Parallel()
	dbURL := newDatabase(t)
	storetest.Run(t, func(t *testing.T) checkout.Store {
		return open(t, newSchema(t, dbURL))
	})
}

// TestQueryCounts: listing orders costs the same statements for 1 order as for 30 (no N+1).
func TestQueryCounts(t *testing.T) {
	t.Parallel()
	storetest.RunQueryCounts(t, func(t *testing.T, wrap func(sqlstore.DB) sqlstore.DB) checkout.Store {
		s, err := postgres.OpenWrapped(context.Background(), newDatabase(t), wrap)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	})
}

// TestSummaryQueryCounts: a page of order summaries is one statement, the overview two.
func TestSummaryQueryCounts(t *testing.T) {
	t.Parallel()
	storetest.RunSummaryQueryCounts(t, func(t *testing.T, wrap func(sqlstore.DB) sqlstore.DB) checkout.Store {
		s, err := postgres.OpenWrapped(context.Background(), newDatabase(t), wrap)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	})
}

// TestStoreSuiteWithoutPreparedStatements runs the suite with pgx's exec mode, which sends
// parameter types from Go's types instead of asking the server, and prepares nothing: the mode
// for PgBouncer in transaction pooling, set in the database URL.
func TestStoreSuiteWithoutPreparedStatements(t *testing.T) {
	t.Parallel()
	u, err := url.Parse(newDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("default_query_exec_mode", "exec")
	u.RawQuery = q.Encode()
	storetest.Run(t, func(t *testing.T) checkout.Store {
		return open(t, newSchema(t, u.String()))
	})
	storetest.RunReports(t, func(t *testing.T) checkout.Store {
		return open(t, newSchema(t, u.String()))
	})
}

// TestTwoInstances: two stores on one database, as two processes behind a load balancer, see
// each other's writes, and their compare-and-set and deduplication hold across them.
func TestTwoInstances(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dbURL := newDatabase(t)
	a, b := open(t, dbURL), open(t, dbURL)

	if err := checkout.SeedDemoCatalogue(ctx, a); err != nil {
		t.Fatal(err)
	}
	ps, err := b.Products(ctx, true)
	if err != nil || len(ps) < 2 {
		t.Fatalf("products seen by the other instance: %d, %v", len(ps), err)
	}
	cartID := checkout.NewID()
	if err := a.CreateCart(ctx, checkout.Cart{ID: cartID, CreatedAt: time.Now(), UpdatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.UpdateCart(ctx, cartID, time.Now(), func(c *checkout.Cart) error {
		c.Lines = append(c.Lines, checkout.CartLine{Product: ps[0], Quantity: 3})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if c, err := a.Cart(ctx, cartID); err != nil || len(c.Lines) != 1 || c.Lines[0].Quantity != 3 {
		t.Fatalf("cart written by b, read by a: %+v, %v", c, err)
	}

	o := storetest.NewOrder("key-" + checkout.NewID())
	if _, created, err := a.CreateOrder(ctx, o); err != nil || !created {
		t.Fatalf("CreateOrder on a: %v, %v", created, err)
	}
	// The same request key through the other instance gives the first order.
	got, created, err := b.CreateOrder(ctx, storetest.NewOrder(o.RequestKey))
	if err != nil || created || got.ID != o.ID {
		t.Fatalf("CreateOrder on b with a's request key = %v, %v, %v", got, created, err)
	}

	onA, err := a.Order(ctx, o.ID)
	if err != nil {
		t.Fatal(err)
	}
	onB, err := b.Order(ctx, o.ID)
	if err != nil {
		t.Fatal(err)
	}
	onA.Status = checkout.StatusAwaitingPayment
	onA.History = append(onA.History, checkout.StatusChange{From: checkout.StatusPending, To: checkout.StatusAwaitingPayment,
		At: time.Now(), Reason: checkout.Note("QR ready")})
	if err := a.UpdateOrder(ctx, onA); err != nil {
		t.Fatal(err)
	}
	onB.Status = checkout.StatusFailed
	if err := b.UpdateOrder(ctx, onB); !errors.Is(err, checkout.ErrConflict) {
		t.Fatalf("stale update through b: %v, want ErrConflict", err)
	}
	if g, err := b.Order(ctx, o.ID); err != nil || g.Status != checkout.StatusAwaitingPayment || g.Version != onA.Version {
		t.Fatalf("order read through b after a's update: %+v, %v", g, err)
	}

	if first, err := a.MarkWebhook(ctx, "msg_1", time.Now()); err != nil || !first {
		t.Fatalf("MarkWebhook on a: %v, %v", first, err)
	}
	if first, err := b.MarkWebhook(ctx, "msg_1", time.Now()); err != nil || first {
		t.Fatalf("MarkWebhook on b of a's webhook: first = %v, %v; want a duplicate", first, err)
	}
}

// TestConcurrentOpen: instances starting together on a new database apply each migration once
// and all come up.
func TestConcurrentOpen(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dbURL := newDatabase(t)
	const n = 6
	stores := make(chan *postgres.Store, n)
	errs := make(chan error, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			<-start
			s, err := postgres.Open(ctx, dbURL)
			if err != nil {
				errs <- err
				return
			}
			stores <- s
		})
	}
	close(start)
	wg.Wait()
	close(stores)
	close(errs)
	for s := range stores {
		t.Cleanup(func() { s.Close() })
	}
	for err := range errs {
		t.Errorf("concurrent Open: %v", err)
	}
	s := open(t, dbURL)
	if count, want := migrationsApplied(t, dbURL), storetest.MigrationFiles(t); count != want {
		t.Errorf("schema_migrations rows = %d; want %d", count, want)
	}
	if err := s.Ping(ctx); err != nil {
		t.Errorf("Ping: %v", err)
	}
}

// TestConcurrentSeeding: instances starting together on a new database, each with its own
// pool, seed the demo catalogue without failing and store each product once. The race it
// guards against depends on timing, so it runs many rounds, emptying the catalogue between them.
func TestConcurrentSeeding(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dbURL := newDatabase(t)
	const rounds, instances = 40, 6
	stores := make([]*postgres.Store, instances)
	for i := range stores {
		stores[i] = open(t, dbURL)
	}
	want := -1
	for round := range rounds {
		withConn(t, dbURL, func(ctx context.Context, conn *pgx.Conn) error {
			_, err := conn.Exec(ctx, "DELETE FROM products")
			return err
		})
		start := make(chan struct{})
		var wg sync.WaitGroup
		for _, s := range stores {
			wg.Go(func() {
				<-start
				if err := checkout.SeedDemoCatalogue(ctx, s); err != nil {
					t.Errorf("round %d: seeding: %v", round, err)
				}
			})
		}
		close(start)
		wg.Wait()
		ps, err := stores[0].Products(ctx, false)
		if err != nil {
			t.Fatal(err)
		}
		slugs := map[string]bool{}
		for _, p := range ps {
			slugs[p.Slug] = true
		}
		if len(ps) == 0 || len(slugs) != len(ps) || (want >= 0 && len(ps) != want) {
			t.Fatalf("round %d: %d products, %d slugs; want %d of each", round, len(ps), len(slugs), want)
		}
		want = len(ps)
	}
}

// TestReopen: data survives closing and reopening; migrations are not applied again.
func TestReopen(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dbURL := newDatabase(t)
	s, err := postgres.Open(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	o := storetest.NewOrder("key-reopen")
	if _, _, err := s.CreateOrder(ctx, o); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s = open(t, dbURL)
	if got, err := s.Order(ctx, o.ID); err != nil || got.RequestKey != "key-reopen" || len(got.Attempts) != 1 {
		t.Fatalf("after reopen: %+v, %v", got, err)
	}
	if n, want := migrationsApplied(t, dbURL), storetest.MigrationFiles(t); n != want {
		t.Errorf("schema_migrations rows = %d; want %d", n, want)
	}
}

// migrationsApplied counts the rows of schema_migrations in the database at dbURL.
func migrationsApplied(t *testing.T, dbURL string) int {
	t.Helper()
	var n int
	withConn(t, dbURL, func(ctx context.Context, conn *pgx.Conn) error {
		return conn.QueryRow(ctx, "SELECT COUNT(*) FROM schema_migrations WHERE component = 'checkout'").Scan(&n)
	})
	return n
}

// withConn runs fn on a connection of its own to the database at dbURL.
func withConn(t testing.TB, dbURL string, fn func(ctx context.Context, conn *pgx.Conn) error) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if err := fn(ctx, conn); err != nil {
		t.Fatal(err)
	}
}

// TestOpenErrorsKeepPasswordsOut: a bad or unreachable URL is an error that does not repeat
// the password.
func TestOpenErrorsKeepPasswordsOut(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, u := range []string{
		"postgres://checkout:s3cr3t-pw@127.0.0.1:1/checkout?sslmode=disable&connect_timeout=2",
		"postgres://checkout:s3cr3t-pw@127.0.0.1:5432/checkout?sslmode=nonsense",
		"postgres://checkout:s3cr3t-pw@[::1/checkout",
	} {
		s, err := postgres.Open(ctx, u)
		if err == nil {
			s.Close()
			t.Errorf("Open(%q) succeeded", u)
			continue
		}
		if strings.Contains(err.Error(), "s3cr3t-pw") {
			t.Errorf("Open error repeats the password: %v", err)
		}
		t.Logf("Open error: %v", err)
	}
}

// TestKeysThatAreNotText: ids from URLs and headers may hold bytes PostgreSQL's TEXT refuses
// (NUL, invalid UTF-8). Looking them up finds nothing, as in the SQLite store, instead of
// failing; webhook ids of any bytes are recorded and deduplicated, each distinct from others.
func TestKeysThatAreNotText(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := open(t, newDatabase(t))
	for _, key := range []string{"\x00", "a\x00b", "\xff", "caf\xe9"} {
		if _, err := s.Product(ctx, checkout.ProductID(key)); !errors.Is(err, checkout.ErrNotFound) {
			t.Errorf("Product(%q): %v, want ErrNotFound", key, err)
		}
		if _, err := s.ProductBySlug(ctx, key); !errors.Is(err, checkout.ErrNotFound) {
			t.Errorf("ProductBySlug(%q): %v, want ErrNotFound", key, err)
		}
		if _, err := s.Cart(ctx, key); !errors.Is(err, checkout.ErrNotFound) {
			t.Errorf("Cart(%q): %v, want ErrNotFound", key, err)
		}
		if _, err := s.UpdateCart(ctx, key, time.Now(), func(*checkout.Cart) error { return nil }); !errors.Is(err, checkout.ErrNotFound) {
			t.Errorf("UpdateCart(%q): %v, want ErrNotFound", key, err)
		}
		if _, err := s.Order(ctx, key); !errors.Is(err, checkout.ErrNotFound) {
			t.Errorf("Order(%q): %v, want ErrNotFound", key, err)
		}
		if _, err := s.OrderByTransaction(ctx, key); !errors.Is(err, checkout.ErrNotFound) {
			t.Errorf("OrderByTransaction(%q): %v, want ErrNotFound", key, err)
		}
		if _, err := s.OrderByExternalCode(ctx, key); !errors.Is(err, checkout.ErrNotFound) {
			t.Errorf("OrderByExternalCode(%q): %v, want ErrNotFound", key, err)
		}
	}

	// "\uFFFD" followed by hex is how unstorable ids are kept: a real id of that shape must not
	// collide with the escaped one.
	ids := []string{"msg_\xff", "msg_\x00", "\uFFFD6d73675fff", "msg_"}
	for _, id := range ids {
		if first, err := s.MarkWebhook(ctx, id, time.Now()); err != nil || !first {
			t.Errorf("MarkWebhook(%q) = %v, %v; want first", id, first, err)
		}
	}
	for _, id := range ids {
		if first, err := s.MarkWebhook(ctx, id, time.Now()); err != nil || first {
			t.Errorf("MarkWebhook(%q) again = %v, %v; want a duplicate", id, first, err)
		}
	}
	if err := s.ForgetWebhook(ctx, "msg_\xff"); err != nil {
		t.Fatal(err)
	}
	if first, err := s.MarkWebhook(ctx, "msg_\xff", time.Now()); err != nil || !first {
		t.Errorf("MarkWebhook after ForgetWebhook = %v, %v; want first", first, err)
	}
	if first, err := s.MarkWebhook(ctx, "\uFFFD6d73675fff", time.Now()); err != nil || first {
		t.Errorf("forgetting one id forgot another: first = %v, %v", first, err)
	}
}

// TestMerchantStores runs the suite of the merchant side's stores (sessions, API keys,
// settings, the notification outbox), each subtest in a schema of its own.
func TestMerchantStores(t *testing.T) {
	t.Parallel()
	dbURL := newDatabase(t)
	storetest.RunMerchant(t, func(t *testing.T) storetest.MerchantStores {
		return open(t, newSchema(t, dbURL))
	})
}

// TestBrand runs the suite of the store's profile, each subtest in a schema of its own.
func TestBrand(t *testing.T) {
	t.Parallel()
	dbURL := newDatabase(t)
	storetest.RunBrand(t, func(t *testing.T) brand.Store {
		return open(t, newSchema(t, dbURL))
	})
}

// TestCharges runs the suite of charges with due dates.
func TestCharges(t *testing.T) {
	t.Parallel()
	dbURL := newDatabase(t)
	storetest.RunCharges(t, func(t *testing.T) storetest.ChargeStores {
		return open(t, newSchema(t, dbURL))
	})
}

// TestPersonalData runs the suite of personal data's retention and data subjects' requests,
// each subtest in a schema of its own.
func TestPersonalData(t *testing.T) {
	t.Parallel()
	dbURL := newDatabase(t)
	storetest.RunPersonalData(t, func(t *testing.T) storetest.PersonalDataStores {
		return open(t, newSchema(t, dbURL))
	}, sandboxGateway)
}

// TestAccountStores runs the suite of the dashboard's users, sign-in throttling and sessions,
// each subtest in a schema of its own.
func TestAccountStores(t *testing.T) {
	t.Parallel()
	dbURL := newDatabase(t)
	storetest.RunAccounts(t, func(t *testing.T) storetest.AccountStores {
		return open(t, newSchema(t, dbURL))
	})
}

// TestReports runs the suite of the merchant's order summaries and overview figures, each
// subtest in a schema of its own.
func TestReports(t *testing.T) {
	t.Parallel()
	dbURL := newDatabase(t)
	storetest.RunReports(t, func(t *testing.T) checkout.Store {
		return open(t, newSchema(t, dbURL))
	})
}

// TestPoolSize: without pool_max_conns the pool has 4 connections a core, at least 8 (pgx's
// default of 4 left concurrent shoppers queueing for connections); the URL's setting wins.
func TestPoolSize(t *testing.T) {
	t.Parallel()
	dbURL := newDatabase(t)
	s := open(t, dbURL)
	if got, want := s.MaxConns(), int32(max(8, 4*runtime.NumCPU())); got != want {
		t.Errorf("default pool: %d connections, want %d", got, want)
	}
	sep := "?"
	if strings.Contains(dbURL, "?") {
		sep = "&"
	}
	if got := open(t, dbURL+sep+"pool_max_conns=3").MaxConns(); got != 3 {
		t.Errorf("pool_max_conns=3 gave %d connections", got)
	}
}

// TestReadBatch: a one-batch read runs its statements in one snapshot and gives their rows; a
// failing statement fails it and leaves no connection of the pool in its aborted transaction.
func TestReadBatch(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := open(t, newDatabase(t))
	var got []int
	read := func(r sqlstore.Rows) error {
		for r.Next() {
			var v int
			if err := r.Scan(&v); err != nil {
				return err
			}
			got = append(got, v)
		}
		return nil
	}
	var iso1, iso2 string
	readText := func(dst *string) func(sqlstore.Rows) error {
		return func(r sqlstore.Rows) error {
			for r.Next() {
				if err := r.Scan(dst); err != nil {
					return err
				}
			}
			return nil
		}
	}
	err := s.ReadBatch(ctx,
		sqlstore.Stmt{SQL: `SELECT g FROM generate_series(1, $1::int) g`, Args: []any{3}, Rows: read},
		sqlstore.Stmt{SQL: `SELECT current_setting($1)`, Args: []any{"transaction_isolation"}, Rows: readText(&iso1)},
		sqlstore.Stmt{SQL: `SELECT current_setting($1)`, Args: []any{"transaction_read_only"}, Rows: readText(&iso2)})
	if err != nil || len(got) != 3 || got[2] != 3 || iso1 != "repeatable read" || iso2 != "on" {
		t.Fatalf("ReadBatch: %v, rows %v, isolation %q, read only %q", err, got, iso1, iso2)
	}
	if err := s.ReadBatch(ctx, sqlstore.Stmt{SQL: `SELECT 1 / (0 * $1::int)`, Args: []any{1}, Rows: read}); err == nil {
		t.Fatal("a division by zero did not fail the batch")
	}
	// Every connection of the pool is usable afterwards (none left in a failed transaction).
	for range s.MaxConns() {
		got = nil
		if err := s.ReadBatch(ctx, sqlstore.Stmt{SQL: `SELECT $1::int`, Args: []any{7}, Rows: read}); err != nil || len(got) != 1 {
			t.Fatalf("after a failed batch: %v, %v", err, got)
		}
	}
}

// TestWriteBatch: a one-batch write commits all its statements, or, when one fails, none of
// them, and leaves no connection of the pool in its aborted transaction.
func TestWriteBatch(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := open(t, newDatabase(t))
	if err := s.WriteBatch(ctx, sqlstore.Stmt{SQL: `CREATE TABLE wb (k INT PRIMARY KEY, CHECK (k > 0))`}); err != nil {
		t.Fatal(err)
	}
	insert := func(k int) sqlstore.Stmt { return sqlstore.Stmt{SQL: `INSERT INTO wb (k) VALUES ($1)`, Args: []any{k}} }
	var iso string
	err := s.WriteBatch(ctx, insert(1), insert(2), sqlstore.Stmt{SQL: `SELECT current_setting($1)`,
		Args: []any{"transaction_isolation"}, Rows: func(r sqlstore.Rows) error {
			for r.Next() {
				if err := r.Scan(&iso); err != nil {
					return err
				}
			}
			return nil
		}})
	if err != nil || iso != "read committed" {
		t.Fatalf("WriteBatch: %v, isolation %q", err, iso)
	}
	// The third statement fails: the first two are not kept.
	if err := s.WriteBatch(ctx, insert(3), insert(4), insert(-1)); err == nil {
		t.Fatal("a failing statement did not fail the batch")
	}
	count := func() (n int) {
		t.Helper()
		err := s.ReadBatch(ctx, sqlstore.Stmt{SQL: `SELECT COUNT(*) FROM wb WHERE k > $1`, Args: []any{0},
			Rows: func(r sqlstore.Rows) error {
				for r.Next() {
					if err := r.Scan(&n); err != nil {
						return err
					}
				}
				return nil
			}})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := count(); n != 2 {
		t.Errorf("%d rows after a committed batch of 2 and a failed one, want 2", n)
	}
	// Every connection of the pool is usable afterwards (none left in a failed transaction).
	for i := range s.MaxConns() {
		if err := s.WriteBatch(ctx, insert(10+int(i))); err != nil {
			t.Fatalf("after a failed batch: %v", err)
		}
	}
	if n := count(); n != 2+int(s.MaxConns()) {
		t.Errorf("%d rows, want %d", n, 2+s.MaxConns())
	}
}

// TestSealedSecrets: no text or bytea column of any table holds a secret in clear once sealed
// (storetest); the dump is a SELECT of every such column of every table of the store's schema.
func TestSealedSecrets(t *testing.T) {
	t.Parallel()
	dbURL := newSchema(t, newDatabase(t))
	storetest.RunSealed(t, func(t *testing.T) (storetest.SealedStores, func() []byte) {
		return open(t, dbURL), func() []byte { return dumpText(t, dbURL) }
	})
}

// TestSignInTokensHashed: the sessions table keeps the hash of each session's token, never the
// token (storetest).
func TestSignInTokensHashed(t *testing.T) {
	t.Parallel()
	dbURL := newSchema(t, newDatabase(t))
	storetest.RunSignInTokensHashed(t, open(t, dbURL).SignInTokens(), func() []byte { return dumpText(t, dbURL) })
}

// dumpText is what a dump of the store's schema at dbURL holds: every text, bytea and JSON
// column of every table, one value a line.
func dumpText(t *testing.T, dbURL string) []byte {
	var all []byte
	withConn(t, dbURL, func(ctx context.Context, conn *pgx.Conn) error {
		rows, err := conn.Query(ctx, `SELECT table_name, column_name FROM information_schema.columns
			WHERE table_schema = current_schema() AND data_type IN ('text', 'character varying', 'bytea', 'json', 'jsonb')`)
		if err != nil {
			return err
		}
		cols, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) ([2]string, error) {
			var c [2]string
			return c, r.Scan(&c[0], &c[1])
		})
		if err != nil {
			return err
		}
		if len(cols) < 20 {
			return fmt.Errorf("only %d text columns: the dump misses tables", len(cols))
		}
		for _, c := range cols {
			rows, err := conn.Query(ctx, `SELECT CAST(`+pgx.Identifier{c[1]}.Sanitize()+` AS TEXT) FROM `+pgx.Identifier{c[0]}.Sanitize())
			if err != nil {
				return err
			}
			vals, err := pgx.CollectRows(rows, pgx.RowTo[*string])
			if err != nil {
				return err
			}
			for _, v := range vals {
				if v != nil {
					all = append(append(all, *v...), '\n')
				}
			}
		}
		return nil
	})
	return all
}

// TestPOS runs the suite of the point of sale's records.
func TestPOS(t *testing.T) {
	t.Parallel()
	dbURL := newDatabase(t)
	storetest.RunPOS(t, func(t *testing.T) storetest.POSStores {
		return open(t, newSchema(t, dbURL))
	})
}

// TestSubscriptions runs the suite of subscriptions, each subtest in a schema of its own; the
// second instance is another pool on the same schema.
func TestSubscriptions(t *testing.T) {
	t.Parallel()
	dbURL := newDatabase(t)
	storetest.RunSubscriptions(t, func(t *testing.T) (storetest.SubscriptionStores, func() storetest.SubscriptionStores) {
		schema := newSchema(t, dbURL)
		return open(t, schema), func() storetest.SubscriptionStores { return open(t, schema) }
	})
}
