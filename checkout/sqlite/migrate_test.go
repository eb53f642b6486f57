package sqlite

import (
	"context"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

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
	// Erasures overwrite what they free: the writer runs with secure_delete on for its life
	// (nothing turns it off, the start's reseal included).
	var v string
	if err := s.w.QueryRowContext(ctx, "PRAGMA secure_delete").Scan(&v); err != nil || v != "1" {
		t.Errorf("writer: secure_delete %q, %v; want 1", v, err)
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
