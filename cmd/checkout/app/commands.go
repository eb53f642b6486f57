package app

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// openExisting opens the configured store for the commands (checkout user, apikey): only a
// database a server has made, the SQLite file in the data dir or a PostgreSQL database holding
// the checkout's tables. A mistyped data dir or URL is then a *ConfigError saying so, rather
// than a new empty database in which a key or a user is made that the server never sees.
func openExisting(ctx context.Context, cfg Config) (st closingStore, err error) {
	defer func() { err = cfg.named(err) }()
	if cfg.DatabaseURL != "" {
		if err := checkPostgresSchema(ctx, cfg.DatabaseURL); err != nil {
			return nil, err
		}
		return openStoreWith(ctx, cfg, existingSecretKeys, nil)
	}
	if _, err := existingSQLite(cfg); err != nil {
		return nil, err
	}
	return openStoreWith(ctx, cfg, existingSecretKeys, nil)
}

// checkPostgresSchema makes sure the database at url holds the checkout's tables (its
// migrations table, made by a server's first start).
func checkPostgresSchema(ctx context.Context, url string) error {
	pc, err := pgx.ParseConfig(url)
	if err != nil {
		// The parser's message may quote the URL, password included.
		return &ConfigError{Var: "CHECKOUT_DATABASE_URL", Msg: "does not parse (expected postgres://user:password@host:port/dbname?options)"}
	}
	conn, err := pgx.ConnectConfig(ctx, pc)
	if err != nil {
		return fmt.Errorf("app: connecting to PostgreSQL: %w", err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	var made bool
	if err := conn.QueryRow(ctx, "SELECT to_regclass('schema_migrations') IS NOT NULL").Scan(&made); err != nil {
		return fmt.Errorf("app: reading PostgreSQL's tables: %w", err)
	}
	if !made {
		return &ConfigError{Var: "CHECKOUT_DATABASE_URL", Msg: fmt.Sprintf("the database %q holds no checkout tables: "+
			"set CHECKOUT_DATABASE_URL (or -database-url) to the server's database, or start the server on it once", pc.Database)}
	}
	return nil
}
