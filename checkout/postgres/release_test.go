package postgres_test

import (
	"context"
	"database/sql"
	"net/url"
	"path/filepath"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout/postgres"
	"github.com/pixcheckout/pixcheckout/checkout/storetest"
	"github.com/pixcheckout/pixcheckout/gatewayclient/outbox"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sqlmigrate"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sqlmigrate/migratetest"
)

// rawDB opens an empty schema of the database at dbURL through database/sql, for the
// migrations alone, and returns it with its URL.
func rawDB(t *testing.T, dbURL string) (*sql.DB, string) {
	t.Helper()
	u := newSchema(t, dbURL)
	// No statement cache: the upgrade test reads a table with the same text before and after a
	// migration adds columns to it, which a cached plan refuses.
	raw, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	q := raw.Query()
	q.Set("default_query_exec_mode", "exec")
	raw.RawQuery = q.Encode()
	db, err := sql.Open("pgx", raw.String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, u
}

// TestReleaseSchemas: the migrations of each release make, on an empty schema, the schema
// of its fixture testdata/schema-RELEASE.txt, a description from PostgreSQL's catalogue (the
// outbox's tables and the store's, with the rows migrations seed). 0.1.0's is the description
// of what the development chain its baseline replaced made, taken before that chain was deleted.
func TestReleaseSchemas(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dbURL := newDatabase(t)
	for _, r := range postgres.Plan.Releases {
		db, _ := rawDB(t, dbURL)
		plans, ok := migratetest.AtRelease(t, r.Name, outbox.Plan(outbox.PostgreSQL), postgres.Plan)
		if !ok {
			t.Fatalf("the outbox's plan does not list release %s", r.Name)
		}
		if err := sqlmigrate.Apply(ctx, db, sqlmigrate.PostgresLock, plans...); err != nil {
			t.Fatal(err)
		}
		got, err := migratetest.Dump(ctx, db, migratetest.PostgreSQL)
		if err != nil {
			t.Fatal(err)
		}
		migratetest.CheckFixture(t, filepath.Join("testdata", "schema-"+r.Name+".txt"), got)
	}
}

// TestUpgradeFromReleases: a database of each release, holding a shop's rows, keeps every row
// through the migrations numbered after that release, and the store reads them back.
func TestUpgradeFromReleases(t *testing.T) {
	t.Parallel()
	dbURL := newDatabase(t)
	var u string
	migratetest.Upgrade{
		Open: func(t *testing.T) *sql.DB {
			db, schemaURL := rawDB(t, dbURL)
			u = schemaURL
			return db
		},
		Dialect: migratetest.PostgreSQL,
		Lock:    sqlmigrate.PostgresLock,
		Plans:   []sqlmigrate.Plan{outbox.Plan(outbox.PostgreSQL), postgres.Plan},
		Write:   storetest.WriteSamples,
		Check: func(t *testing.T, _ *sql.DB, _ string) {
			storetest.CheckSamples(t, open(t, u))
		},
	}.Run(t)
}
