package app

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// ownerOnly makes the data dir and what the server keeps in it (the SQLite database and its
// -wal and -shm, the lock, the embedded sandbox's state) reachable by their owner alone:
// directories 0700, files 0600. New ones are made so already; this mends what an
// older version, a permissive umask or a copy left. Nothing else in the data dir is touched
// (it may be a folder the operator uses for more), nor are symbolic links. It returns what it
// changed, in words ("data/checkout.db: 0644 → 0600"), for one line of the log; a file it may
// not change (another user's) is named with why. The secret key is not mended but refused at
// start while others may read it: it may have been copied already, and only a new key helps.
func ownerOnly(dir string) ([]string, error) {
	var changed []string
	fix := func(path string, info fs.FileInfo) {
		want := fs.FileMode(0o600)
		if info.IsDir() {
			want = 0o700
		}
		have := info.Mode().Perm()
		if have&0o077 == 0 {
			return
		}
		to := have&^0o077 | want
		if err := os.Chmod(path, to); err != nil {
			changed = append(changed, fmt.Sprintf("%s: %04o, could not change: %v", path, have, err))
			return
		}
		changed = append(changed, fmt.Sprintf("%s: %04o → %04o", path, have, to))
	}
	info, err := os.Lstat(dir)
	if err != nil {
		return nil, fmt.Errorf("app: data dir: %w", err)
	}
	fix(dir, info)
	for _, name := range []string{"checkout.db", "checkout.db-wal", "checkout.db-shm", "checkout.db.before-restore",
		LockFile} {
		if info, err := os.Lstat(filepath.Join(dir, name)); err == nil && info.Mode().IsRegular() {
			fix(filepath.Join(dir, name), info)
		}
	}
	err = filepath.WalkDir(filepath.Join(dir, "sandbox"), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // absent (a real gateway), or gone while walking (a -shm at a checkpoint)
		}
		if d.IsDir() || d.Type().IsRegular() {
			if info, err := d.Info(); err == nil {
				fix(path, info)
			}
		}
		return nil
	})
	return changed, err
}
