// Package sqlitetest gives tests a SQLite store whose schema is already migrated. Applying every
// migration is most of what opening a new store costs, several times over under the race
// detector; tests open hundreds of stores. So the migrations run once per test binary, into a
// file kept in memory, and each store starts from a copy of it: its Open then finds nothing to
// apply. Only tests import this package.
package sqlitetest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout/sqlite"
)

// migrated is a database file with every migration applied, made on first use.
var migrated = sync.OnceValues(func() ([]byte, error) {
	dir, err := os.MkdirTemp("", "sqlitetest-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "checkout.db")
	s, err := sqlite.Open(context.Background(), path)
	if err != nil {
		return nil, err
	}
	// Closing checkpoints the write-ahead log into the file: the file alone is the database.
	if err := s.Close(); err != nil {
		return nil, err
	}
	return os.ReadFile(path)
})

// Create writes a migrated database to path (its folder must exist): sqlite.Open, or an app
// whose data directory holds path, then opens it with nothing left to apply.
func Create(t testing.TB, path string) {
	t.Helper()
	if err := create(path); err != nil {
		t.Fatal(err)
	}
}

func create(path string) error {
	b, err := migrated()
	if err != nil {
		return fmt.Errorf("sqlitetest: migrating a template database: %w", err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		return fmt.Errorf("sqlitetest: %w", err)
	}
	return nil
}
