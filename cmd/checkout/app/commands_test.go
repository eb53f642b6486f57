package app_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/pixcheckout/pixcheckout/cmd/checkout/app"
)

// TestCommandsRefuseAnEmptyPostgreSQLDatabase: the commands open a PostgreSQL database only
// once a server has made the checkout's tables in it.
func TestCommandsRefuseAnEmptyPostgreSQLDatabase(t *testing.T) {
	t.Parallel()
	dbURL := postgresDatabase(t)
	cfg, err := app.Load(func(k string) string {
		if k == "CHECKOUT_DATABASE_URL" {
			return dbURL
		}
		return ""
	}, []string{"-data-dir", t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	_, _, _, err = app.OpenKeys(ctx, cfg)
	var ce *app.ConfigError
	if !errors.As(err, &ce) || ce.Var != "CHECKOUT_DATABASE_URL" || !strings.Contains(ce.Msg, "holds no checkout tables") ||
		strings.Contains(err.Error(), "postgres://") {
		t.Fatalf("OpenKeys on an empty database: %v; want a ConfigError naming CHECKOUT_DATABASE_URL, without the URL", err)
	}
	// A server's start makes the tables; the commands then work.
	start(t, func(c *app.Config) { c.DatabaseURL = dbURL }).stop()
	keys, _, closeStore, err := app.OpenKeys(ctx, cfg)
	if err != nil {
		t.Fatalf("OpenKeys after a server's start: %v", err)
	}
	defer closeStore()
	if _, err := keys.List(ctx); err != nil {
		t.Error(err)
	}
}
