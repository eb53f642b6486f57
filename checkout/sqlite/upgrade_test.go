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

// TestNotifyPersonalDataAfterUpgrade: a new install's notifications leave the shopper's personal
// data out; an install from before the setting that has orders but never saved settings (its
// URL configured) keeps sending it.
func TestNotifyPersonalDataAfterUpgrade(t *testing.T) {
	ctx := context.Background()
	fresh, err := Open(ctx, filepath.Join(t.TempDir(), "checkout.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	if set, err := fresh.MerchantSettings(ctx); err != nil || set.NotifyPersonalData {
		t.Errorf("a new install's settings: %+v, %v; want personal data off", set, err)
	}
	file := filepath.Join(t.TempDir(), "checkout.db")
	db, err := sql.Open("sqlite", fileDSN(file, "foreign_keys(1)"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	old, _ := storetest.MigrationsUpTo(t, migrations, plan.Component, 60)
	if err := sqlmigrate.Apply(ctx, db, "", outbox.Plan(outbox.SQLite), old); err != nil {
		t.Fatal(err)
	}
	storetest.InsertSamples(t, db)
	if _, err := db.ExecContext(ctx, `DELETE FROM merchant_settings`); err != nil {
		t.Fatal(err)
	}
	s, err := Open(ctx, file)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if set, err := s.MerchantSettings(ctx); err != nil || !set.NotifyPersonalData || set.WebhookURL != "" {
		t.Errorf("an install with orders, after the upgrade: %+v, %v; want personal data on", set, err)
	}
}

// TestKeyRightsAfterUpgrade: migrations 65 and 66 on an install with keys and sessions
// (storetest.CheckKeyRights).
func TestKeyRightsAfterUpgrade(t *testing.T) {
	ctx := context.Background()
	file := filepath.Join(t.TempDir(), "checkout.db")
	db, err := sql.Open("sqlite", fileDSN(file, "foreign_keys(1)"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	old, _ := storetest.MigrationsUpTo(t, migrations, plan.Component, 64)
	if err := sqlmigrate.Apply(ctx, db, "", outbox.Plan(outbox.SQLite), old); err != nil {
		t.Fatal(err)
	}
	storetest.WriteBeforeKeyRights(t, db)
	s, err := Open(ctx, file)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	storetest.CheckKeyRights(t, s, db)
}
