package sqlite

import (
	"context"
	"database/sql"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/pixcheckout/pixcheckout/checkout/storetest"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sqlmigrate"
)

// TestFailedMigrationLeavesNothing: a migration that fails half-way is rolled back whole (its
// first statement too) and not recorded; the migrations before it stay applied, and a fixed
// migration applies at the next start.
func TestFailedMigrationLeavesNothing(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "checkout.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// The real migrations (applied by Open) and one more after them.
	names := migrationFiles(t)
	broken := fstest.MapFS{}
	for _, name := range names {
		broken[name] = &fstest.MapFile{Data: mustRead(t, name)}
	}
	applied := len(names)
	broken["migrations/9999_more.sql"] = &fstest.MapFile{Data: []byte(
		"CREATE TABLE extra (id INTEGER PRIMARY KEY);\nINSERT INTO no_such_table VALUES (1);\n")}
	err = sqlmigrate.Apply(ctx, s.w.DB, "", sqlmigrate.Plan{Component: plan.Component, FS: broken})
	if err == nil || !strings.Contains(err.Error(), "9999_more.sql") {
		t.Fatalf("migrate with a broken migration: %v, want an error naming it", err)
	}
	if exists(t, s, "extra") {
		t.Error("the first statement of the failed migration was kept")
	}
	if n, err := migrationCount(s); err != nil || n != applied {
		t.Errorf("schema_migrations rows = %d, %v; want %d (the failed one unrecorded)", n, err, applied)
	}
	broken["migrations/9999_more.sql"] = &fstest.MapFile{Data: []byte("CREATE TABLE extra (id INTEGER PRIMARY KEY);\n")}
	if err := sqlmigrate.Apply(ctx, s.w.DB, "", sqlmigrate.Plan{Component: plan.Component, FS: broken}); err != nil {
		t.Fatalf("fixed migration: %v", err)
	}
	if !exists(t, s, "extra") {
		t.Error("the fixed migration was not applied")
	}
	if n, _ := migrationCount(s); n != applied+1 {
		t.Errorf("schema_migrations rows = %d, want %d", n, applied+1)
	}
}

// TestMigrationKeepsOldOrders: a database made by the first migration, holding an order, is
// brought up to date at Open; the order reads back with no stored request (a retry rebuilds it)
// and no refund due.
func TestMigrationKeepsOldOrders(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "checkout.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		string(mustRead(t, "migrations/0001_init.sql")),
		`CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)`,
		`INSERT INTO schema_migrations VALUES (1, '0001_init.sql', 1)`,
		`INSERT INTO orders (id, number, external_code, request_key, status, amount, customer_name, customer_document,
			created_at, updated_at) VALUES ('o1', 'PX-OLD00001', 'PX-OLD00001', 'rk1', 'pending', 2990, 'Maria', '52998224725', 1, 1)`,
		`INSERT INTO attempts (id, order_id, n, idempotency_key, state, created_at, updated_at)
			VALUES ('a1', 'o1', 1, 'idem-old-1', 'pending', 1, 1)`,
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			db.Close()
			t.Fatalf("%.40s: %v", q, err)
		}
	}
	db.Close()
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if n, err := migrationCount(s); err != nil || n != len(migrationFiles(t)) {
		t.Errorf("schema_migrations rows = %d, %v; want %d", n, err, len(migrationFiles(t)))
	}
	o, err := s.Order(ctx, "o1")
	if err != nil {
		t.Fatal(err)
	}
	if o.Amount != 2990 || o.RefundDue != 0 || len(o.Attempts) != 1 || o.Attempts[0].Request != nil {
		t.Errorf("old order after the migration: amount %d, refund due %d, attempts %+v", o.Amount, o.RefundDue, o.Attempts)
	}
}

// TestMigrationMovesNotifications: a database of the store as it was before its notifications
// moved into the shared outbox, with a schema_migrations made before components, opens with
// its records kept as the checkout's and its notification moved, the old tables gone.
func TestMigrationMovesNotifications(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "checkout.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range storetest.OldDatabase(t) {
		if _, err := db.ExecContext(ctx, q); err != nil {
			db.Close()
			t.Fatalf("%.60s: %v", q, err)
		}
	}
	db.Close()
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	storetest.CheckUpgraded(t, s, func() int {
		n, err := migrationCount(s)
		if err != nil {
			t.Fatal(err)
		}
		return n
	})
	if exists(t, s, "outbox") || exists(t, s, "outbox_attempts") {
		t.Error("the old outbox's tables are left")
	}
}

// TestPragmas: the database runs in WAL mode with a busy timeout, on both pools.
func TestPragmas(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "checkout.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, pool := range []struct {
		name string
		q    func(string) (string, error)
	}{
		{"writer", func(p string) (v string, err error) { err = s.w.QueryRowContext(ctx, "PRAGMA "+p).Scan(&v); return }},
		{"reader", func(p string) (v string, err error) { err = s.r.QueryRowContext(ctx, "PRAGMA "+p).Scan(&v); return }},
	} {
		if v, err := pool.q("journal_mode"); err != nil || v != "wal" {
			t.Errorf("%s: journal_mode %q, %v; want wal", pool.name, v, err)
		}
		if v, err := pool.q("busy_timeout"); err != nil || v != "5000" {
			t.Errorf("%s: busy_timeout %q, %v; want 5000", pool.name, v, err)
		}
		if v, err := pool.q("foreign_keys"); err != nil || v != "1" {
			t.Errorf("%s: foreign_keys %q, %v; want 1", pool.name, v, err)
		}
	}
}

// migrationFiles lists the embedded migrations.
func migrationFiles(t *testing.T) []string {
	t.Helper()
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil || len(names) == 0 {
		t.Fatalf("embedded migrations: %v, %v", names, err)
	}
	return names
}

// migrationCount returns how many migrations of the store are recorded as applied.
func migrationCount(s *Store) (int, error) {
	var n int
	err := s.r.QueryRow("SELECT COUNT(*) FROM schema_migrations WHERE component = $1", plan.Component).Scan(&n)
	return n, err
}

func mustRead(t *testing.T, name string) []byte {
	t.Helper()
	b, err := fs.ReadFile(migrations, name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func exists(t *testing.T, s *Store, table string) bool {
	t.Helper()
	var n int
	if err := s.w.QueryRow("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?", table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n == 1
}
