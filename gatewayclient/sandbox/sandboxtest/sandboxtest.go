// Package sandboxtest gives tests a sandbox data directory whose database is already migrated,
// as sqlitetest does for the checkout's store: a test suite starts hundreds of sandboxes, and
// migrating each one's database is most of what starting it costs under the race detector. The
// migrations run once per test binary, into a file kept in memory; each data directory starts
// from a copy of it, so sandbox.New finds nothing to apply. Only tests import this package.
package sandboxtest

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
)

// fileName is the database's name in a sandbox's data directory (sandbox.Options.DataDir).
const fileName = "sandbox.db"

// migrated is a sandbox database with every migration applied and nothing else, made on first
// use.
var migrated = sync.OnceValues(func() ([]byte, error) {
	dir, err := os.MkdirTemp("", "sandboxtest-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	ctx := context.Background()
	sb, err := sandbox.New(ctx, sandbox.Options{DataDir: dir, Clients: []sandbox.ClientConfig{{ID: "template", Secret: "template"}}})
	if err != nil {
		return nil, err
	}
	// Closing checkpoints the write-ahead log into the file: the file alone is the database.
	if err := sb.Close(); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, fileName)
	// A sandbox makes its merchant's PIX key and CNPJ when it first starts: each copy makes
	// its own, as a new sandbox does.
	db, err := sql.Open("sqlite", path)
	if err != nil {
		return nil, err
	}
	_, err = db.ExecContext(ctx, `DELETE FROM settings`)
	if err = errors.Join(err, db.Close()); err != nil {
		return nil, err
	}
	return os.ReadFile(path)
})

// Create makes dir (when missing) and writes a migrated database into it, unless it holds one
// already: sandbox.New, or an app whose sandbox keeps its data in dir, then opens it with
// nothing left to apply.
func Create(t testing.TB, dir string) {
	t.Helper()
	if err := create(dir); err != nil {
		t.Fatal(err)
	}
}

func create(dir string) error {
	b, err := migrated()
	if err != nil {
		return fmt.Errorf("sandboxtest: migrating a template database: %w", err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("sandboxtest: %w", err)
	}
	f, err := os.OpenFile(filepath.Join(dir, fileName), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("sandboxtest: %w", err)
	}
	_, err = f.Write(b)
	if err = errors.Join(err, f.Close()); err != nil {
		return fmt.Errorf("sandboxtest: %w", err)
	}
	return nil
}
