package sqlite

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/pixcheckout/pixcheckout/gatewayclient/outbox"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sqlmigrate"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sqlmigrate/migratetest"
)

// rawDB opens an empty database file for the migrations alone, as Open's writer does, and
// returns it with its path.
func rawDB(t *testing.T) (*sql.DB, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "checkout.db")
	db, err := sql.Open("sqlite", fileDSN(path, "foreign_keys(1)")+"&_txlock=immediate")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	return db, path
}

// TestReleaseSchemas: the development chain makes the schema of testdata/schema-0.1.0.sql,
// its dump (the outbox's tables and the store's, with the rows migrations seed), which the
// 0.1.0 baseline is to make in its place.
func TestReleaseSchemas(t *testing.T) {
	ctx := context.Background()
	db, _ := rawDB(t)
	if err := sqlmigrate.Apply(ctx, db, "", outbox.Plan(outbox.SQLite), plan); err != nil {
		t.Fatal(err)
	}
	got, err := migratetest.Dump(ctx, db, migratetest.SQLite)
	if err != nil {
		t.Fatal(err)
	}
	migratetest.CheckFixture(t, filepath.Join("testdata", "schema-0.1.0.sql"), got)
}
