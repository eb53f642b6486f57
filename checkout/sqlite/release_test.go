package sqlite

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout/storetest"
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

// TestReleaseSchemas: the migrations of each release make, on an empty database, the schema
// of its fixture testdata/schema-RELEASE.sql (the outbox's tables and the store's, with the
// rows migrations seed). 0.1.0's is the dump of the development chain its baseline replaced,
// made before that chain was deleted.
func TestReleaseSchemas(t *testing.T) {
	ctx := context.Background()
	for _, r := range plan.Releases {
		db, _ := rawDB(t)
		plans, ok := migratetest.AtRelease(t, r.Name, outbox.Plan(outbox.SQLite), plan)
		if !ok {
			t.Fatalf("the outbox's plan does not list release %s", r.Name)
		}
		if err := sqlmigrate.Apply(ctx, db, "", plans...); err != nil {
			t.Fatal(err)
		}
		got, err := migratetest.Dump(ctx, db, migratetest.SQLite)
		if err != nil {
			t.Fatal(err)
		}
		migratetest.CheckFixture(t, filepath.Join("testdata", "schema-"+r.Name+".sql"), got)
	}
}

// TestUpgradeFromReleases: a database of each release, holding a shop's rows, keeps every row
// through the migrations numbered after that release, and the store reads them back.
func TestUpgradeFromReleases(t *testing.T) {
	var path string
	migratetest.Upgrade{
		Open: func(t *testing.T) *sql.DB {
			db, p := rawDB(t)
			path = p
			return db
		},
		Plans: []sqlmigrate.Plan{outbox.Plan(outbox.SQLite), plan},
		Write: storetest.WriteSamples,
		Check: func(t *testing.T, _ *sql.DB, _ string) {
			s, err := Open(context.Background(), path)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			storetest.CheckSamples(t, s)
		},
	}.Run(t)
}
