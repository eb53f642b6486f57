package sandbox

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/pixcheckout/pixcheckout/gatewayclient/outbox"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sqlmigrate"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sqlmigrate/migratetest"
)

// rawDB opens an empty database for the migrations alone, as openDB's writer does.
func rawDB(t *testing.T) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(t.TempDir(), dbFileName)+"?_txlock=immediate&_pragma=foreign_keys(1)")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	return db
}

// TestReleaseSchemas: the development chain makes the schema of testdata/schema-0.1.0.sql,
// its dump (the sandbox's tables and its outbox's), which the 0.1.0 baselines are to make in
// its place.
func TestReleaseSchemas(t *testing.T) {
	ctx := context.Background()
	db := rawDB(t)
	if err := sqlmigrate.Apply(ctx, db, "", plan, outbox.Plan(outbox.SQLite)); err != nil {
		t.Fatal(err)
	}
	got, err := migratetest.Dump(ctx, db, migratetest.SQLite)
	if err != nil {
		t.Fatal(err)
	}
	migratetest.CheckFixture(t, filepath.Join("testdata", "schema-0.1.0.sql"), got)
}
