package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
)

// Backup writes a consistent copy of the database file at path into dest, which must not exist,
// while a server may be using the database. A copy of the file (or of the file and its WAL) is
// no backup: the server writes both while they are copied, and a checkpoint moves pages from
// one to the other. VACUUM INTO reads one snapshot of the database in a read transaction, which
// in WAL mode neither waits for the writer nor makes it wait, and writes it out as a compact
// database with no WAL; every transaction committed before the snapshot is in the copy, none
// begun after it. The copy is written beside dest, checked (PRAGMA quick_check), synced to disk
// and only then given dest's name, so dest is a whole backup or nothing.
func Backup(ctx context.Context, path, dest string) error {
	if _, err := os.Stat(path); err != nil {
		return fmt.Errorf("sqlite: backup: %w", err)
	}
	if _, err := os.Lstat(dest); err == nil {
		return fmt.Errorf("sqlite: backup: %s already exists", dest)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("sqlite: backup: %w", err)
	}
	partial := dest + ".partial"
	_ = os.Remove(partial) // left by a backup that was killed
	db, err := sql.Open("sqlite", fileDSN(path, "busy_timeout(5000)"))
	if err != nil {
		return fmt.Errorf("sqlite: backup: %w", err)
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, "VACUUM INTO $1", partial); err != nil {
		_ = os.Remove(partial)
		return fmt.Errorf("sqlite: backup of %s: %w", path, err)
	}
	// It holds password hashes and shoppers' personal data: for the owner's eyes only.
	if err := os.Chmod(partial, 0o600); err != nil {
		_ = os.Remove(partial)
		return fmt.Errorf("sqlite: backup: %w", err)
	}
	if err := check(ctx, partial); err != nil {
		_ = os.Remove(partial)
		return fmt.Errorf("sqlite: backup: the copy does not check: %w", err)
	}
	if err := syncFile(partial); err != nil {
		_ = os.Remove(partial)
		return fmt.Errorf("sqlite: backup: %w", err)
	}
	// A link fails when dest appeared meanwhile, where a rename would replace it.
	if err := os.Link(partial, dest); err != nil {
		_ = os.Remove(partial)
		return fmt.Errorf("sqlite: backup: %w", err)
	}
	_ = os.Remove(partial)
	return syncDir(filepath.Dir(dest))
}

// Restore replaces the database file at path with the backup at src (made by Backup), when no
// process uses the database: the caller makes sure of that (the server's data dir lock). The
// backup is checked first, and left as it is. The database it replaces, its WAL checkpointed
// into it, is kept beside it as path + ".before-restore" (replacing an older one). Its WAL and
// shared-memory files are removed before the backup takes its name: SQLite would otherwise
// apply the old database's WAL to the restored file. kept is the path of the database kept
// aside, "" when there was none (a restore into an empty data dir).
func Restore(ctx context.Context, src, path string) (kept string, err error) {
	if err := check(ctx, src); err != nil {
		return "", fmt.Errorf("sqlite: restore: %s is not a usable backup: %w", src, err)
	}
	if err := isCheckout(ctx, src); err != nil {
		return "", fmt.Errorf("sqlite: restore: %s: %w", src, err)
	}
	incoming := path + ".restoring"
	if err := copyFile(src, incoming); err != nil {
		return "", fmt.Errorf("sqlite: restore: %w", err)
	}
	if _, err := os.Stat(path); err == nil {
		// Bring what the WAL holds into the file kept aside.
		if err := checkpoint(ctx, path); err != nil {
			_ = os.Remove(incoming)
			return "", fmt.Errorf("sqlite: restore: the current database: %w", err)
		}
		kept = path + ".before-restore"
		if err := os.Rename(path, kept); err != nil {
			_ = os.Remove(incoming)
			return "", fmt.Errorf("sqlite: restore: %w", err)
		}
	}
	for _, f := range []string{path + "-wal", path + "-shm"} {
		if err := os.Remove(f); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return kept, fmt.Errorf("sqlite: restore: %w", err)
		}
	}
	if err := os.Rename(incoming, path); err != nil {
		return kept, fmt.Errorf("sqlite: restore: %w", err)
	}
	return kept, syncDir(filepath.Dir(path))
}

// fileDSN is the driver's name of the file at path with pragmas.
func fileDSN(path string, pragmas ...string) string {
	q := url.Values{}
	for _, p := range pragmas {
		q.Add("_pragma", p)
	}
	return "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode()
}

// check runs SQLite's quick check on the database file at path.
func check(ctx context.Context, path string) error {
	if _, err := os.Stat(path); err != nil {
		return err
	}
	db, err := sql.Open("sqlite", fileDSN(path, "query_only(1)"))
	if err != nil {
		return err
	}
	defer db.Close()
	var res string
	if err := db.QueryRowContext(ctx, "PRAGMA quick_check").Scan(&res); err != nil {
		return err
	}
	if res != "ok" {
		return errors.New(res)
	}
	return nil
}

// isCheckout reports, as an error, a database file holding no checkout tables.
func isCheckout(ctx context.Context, path string) error {
	db, err := sql.Open("sqlite", fileDSN(path, "query_only(1)"))
	if err != nil {
		return err
	}
	defer db.Close()
	var n int
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_master WHERE type = 'table'
		AND name IN ('schema_migrations', 'orders')`).Scan(&n); err != nil {
		return err
	}
	if n != 2 {
		return errors.New("it holds no checkout database")
	}
	return nil
}

// checkpoint copies the WAL of the database at path into its file and empties it.
func checkpoint(ctx context.Context, path string) error {
	db, err := sql.Open("sqlite", fileDSN(path, "busy_timeout(5000)"))
	if err != nil {
		return err
	}
	defer db.Close()
	_, err = db.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)")
	return err
}

// copyFile copies src to dst (made or truncated, mode 0600) and syncs it.
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Sync(); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

func syncFile(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// syncDir makes a new name in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	_ = d.Sync() // not every system syncs a directory; the name is there either way
	return nil
}
