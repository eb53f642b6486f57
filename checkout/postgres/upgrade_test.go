package postgres_test

import (
	"context"
	"database/sql"
	"strconv"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib" // the driver "pgx"

	"github.com/pixcheckout/pixcheckout/checkout/postgres"
	"github.com/pixcheckout/pixcheckout/checkout/storetest"
	"github.com/pixcheckout/pixcheckout/gatewayclient/outbox"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sqlmigrate"
)

// TestUpgradeFromEveryMigration: a database at each earlier migration (a schema each), holding
// a shop's rows of that time, opens at the latest with every row read back
// (storetest.CheckSamples).
func TestUpgradeFromEveryMigration(t *testing.T) {
	ctx := context.Background()
	dbURL := newDatabase(t)
	_, versions := storetest.MigrationsUpTo(t, postgres.Migrations, postgres.Component, 0)
	for _, v := range versions[:len(versions)-1] {
		t.Run(strconv.Itoa(v), func(t *testing.T) {
			u := newSchema(t, dbURL)
			db, err := sql.Open("pgx", u)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			old, _ := storetest.MigrationsUpTo(t, postgres.Migrations, postgres.Component, v)
			plans := []sqlmigrate.Plan{old}
			if v >= 10 { // the shared outbox came with migration 10
				plans = []sqlmigrate.Plan{outbox.Plan(outbox.PostgreSQL), old}
			}
			if err := sqlmigrate.Apply(ctx, db, sqlmigrate.PostgresLock, plans...); err != nil {
				t.Fatal(err)
			}
			written := storetest.InsertSamples(t, db)
			s := open(t, u)
			storetest.CheckSamples(t, s, db, written)
		})
	}
}

// TestKeyRightsAfterUpgrade: migrations 65 and 66 on an install with keys and sessions
// (storetest.CheckKeyRights).
func TestKeyRightsAfterUpgrade(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	u := newSchema(t, newDatabase(t))
	db, err := sql.Open("pgx", u)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	old, _ := storetest.MigrationsUpTo(t, postgres.Migrations, postgres.Component, 64)
	if err := sqlmigrate.Apply(ctx, db, sqlmigrate.PostgresLock, outbox.Plan(outbox.PostgreSQL), old); err != nil {
		t.Fatal(err)
	}
	storetest.WriteBeforeKeyRights(t, db)
	storetest.CheckKeyRights(t, open(t, u), db)
}
