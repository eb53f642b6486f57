package app

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/pixcheckout/pixcheckout/checkout/sqlite"
)

// errPostgresBackup is the answer of Backup and Restore on PostgreSQL, whose own tools do it.
var errPostgresBackup = &ConfigError{Var: "CHECKOUT_DATABASE_URL", Msg: "the database is PostgreSQL: back it up with " +
	"pg_dump --format=custom and restore it with pg_restore (cmd/checkout/README.md, Backups)"}

// Backup writes a consistent copy of the configured SQLite database into dest while a server
// may be running on it (sqlite.Backup): it takes no lock and changes nothing in the data dir.
// The database must exist (a mistyped data dir is a *ConfigError, as for the other commands).
func Backup(ctx context.Context, cfg Config, dest string) (err error) {
	defer func() { err = cfg.named(err) }()
	path, err := existingSQLite(cfg)
	if err != nil {
		return err
	}
	return sqlite.Backup(ctx, path, dest)
}

// Restore replaces the configured SQLite database with the backup src. It takes the data dir's
// lock for the time it runs, so it refuses while a server runs there (a *ConfigError), and no
// server starts on a half-restored database. The database it replaces is kept as
// checkout.db.before-restore in the data dir: kept is its path, "" when the data dir held none.
func Restore(ctx context.Context, cfg Config, src string) (kept string, err error) {
	defer func() { err = cfg.named(err) }()
	if cfg.DatabaseURL != "" {
		return "", errPostgresBackup
	}
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return "", fmt.Errorf("app: data dir: %w", err)
	}
	lock, err := lockDataDir(cfg.DataDir)
	if err != nil {
		var ce *ConfigError
		if errors.As(err, &ce) {
			return "", &ConfigError{Var: "CHECKOUT_DATA_DIR", Msg: fmt.Sprintf(
				"%s is in use by a running checkout server: stop it before restoring, then start it again", cfg.DataDir)}
		}
		return "", err
	}
	defer lock.Close()
	return sqlite.Restore(ctx, src, filepath.Join(cfg.DataDir, "checkout.db"))
}

// existingSQLite is the path of the configured SQLite database, which must exist.
func existingSQLite(cfg Config) (string, error) {
	if cfg.DatabaseURL != "" {
		return "", errPostgresBackup
	}
	path := filepath.Join(cfg.DataDir, "checkout.db")
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return "", noDatabase(path)
	} else if err != nil {
		return "", fmt.Errorf("app: %w", err)
	}
	return path, nil
}

// noDatabase is the *ConfigError of a data dir holding no checkout database.
func noDatabase(path string) error {
	return &ConfigError{Var: "CHECKOUT_DATA_DIR", Msg: fmt.Sprintf("there is no checkout database at %s: "+
		"set CHECKOUT_DATA_DIR (or -data-dir) to the server's data dir, or start the server once to make it", path)}
}
