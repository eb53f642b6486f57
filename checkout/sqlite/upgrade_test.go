package sqlite

import (
	"context"
	"database/sql"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout/storetest"
	"github.com/pixcheckout/pixcheckout/gatewayclient/outbox"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sqlmigrate"
)

// TestUpgradeFromEveryMigration: a database at each earlier migration, holding a shop's rows
// of that time, opens at the latest with every row read back (storetest.CheckSamples).
func TestUpgradeFromEveryMigration(t *testing.T) {
	ctx := context.Background()
	_, versions := storetest.MigrationsUpTo(t, migrations, plan.Component, 0)
	for _, v := range versions[:len(versions)-1] {
		t.Run(strconv.Itoa(v), func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "checkout.db")
			db, err := sql.Open("sqlite", fileDSN(file, "foreign_keys(1)"))
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			db.SetMaxOpenConns(1)
			old, _ := storetest.MigrationsUpTo(t, migrations, plan.Component, v)
			plans := []sqlmigrate.Plan{old}
			if v >= 10 { // the shared outbox came with migration 10
				plans = []sqlmigrate.Plan{outbox.Plan(outbox.SQLite), old}
			}
			if err := sqlmigrate.Apply(ctx, db, "", plans...); err != nil {
				t.Fatal(err)
			}
			written := storetest.InsertSamples(t, db)
			s, err := Open(ctx, file)
			if err != nil {
				t.Fatalf("opening a database at migration %d: %v", v, err)
			}
			defer s.Close()
			storetest.CheckSamples(t, s, db, written)
		})
	}
}
