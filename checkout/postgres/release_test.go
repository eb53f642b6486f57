package postgres_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout/postgres"
	"github.com/pixcheckout/pixcheckout/gatewayclient/outbox"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sqlmigrate"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sqlmigrate/migratetest"
)

// rawDB opens an empty schema of the database at dbURL through database/sql, for the
// migrations alone, and returns it with its URL.
func rawDB(t *testing.T, dbURL string) (*sql.DB, string) {
	t.Helper()
	u := newSchema(t, dbURL)
	db, err := sql.Open("pgx", u)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, u
}

// TestReleaseSchemas: the development chain makes the schema of testdata/schema-0.1.0.txt,
// its description from PostgreSQL's catalogue (the outbox's tables and the store's, with the
// rows migrations seed), which the 0.1.0 baselines are to make in its place.
func TestReleaseSchemas(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, _ := rawDB(t, newDatabase(t))
	if err := sqlmigrate.Apply(ctx, db, sqlmigrate.PostgresLock, outbox.Plan(outbox.PostgreSQL), postgres.Plan); err != nil {
		t.Fatal(err)
	}
	got, err := migratetest.Dump(ctx, db, migratetest.PostgreSQL)
	if err != nil {
		t.Fatal(err)
	}
	migratetest.CheckFixture(t, filepath.Join("testdata", "schema-0.1.0.txt"), got)
}
