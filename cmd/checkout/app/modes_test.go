package app_test

import (
	"bytes"
	"context"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout/team/teamtest"
	"github.com/pixcheckout/pixcheckout/cmd/checkout/app"
)

// TestDataDirOwnerOnly: with a umask that takes nothing away, a first start makes the data dir
// 0700 and the database, its -wal and -shm, the secret key and the sandbox's state 0600. A data
// dir an older version left open (0755 and 0644) is closed at the next start, with one log line
// naming what changed, and nothing else in it is touched; a start with nothing to change logs
// nothing about it.
//
// Not parallel: the umask is the process's, and the other tests, all parallel, start only after
// this one has set it back.
func TestDataDirOwnerOnly(t *testing.T) {
	old := syscall.Umask(0)
	defer syscall.Umask(old)
	dir := filepath.Join(t.TempDir(), "data")
	const logLine = "data dir made readable by its owner only"
	startApp := func() (*app.App, string) {
		t.Helper()
		cfg, err := app.Load(func(string) string { return "" }, []string{"-data-dir", dir, "-addr", "127.0.0.1:0"})
		if err != nil {
			t.Fatal(err)
		}
		var log bytes.Buffer
		cfg.LogOutput = &log
		cfg.Passwords = teamtest.Hasher()
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		a, err := app.New(context.Background(), cfg, ln)
		if err != nil {
			t.Fatal(err)
		}
		return a, log.String()
	}
	modes := func() map[string]fs.FileMode {
		t.Helper()
		m := map[string]fs.FileMode{}
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			info, err := d.Info()
			if err == nil {
				rel, _ := filepath.Rel(dir, path)
				m[rel] = info.Mode().Perm()
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	a, log := startApp()
	got := modes()
	for _, want := range []string{".", "checkout.db", "checkout.db-wal", "checkout.db-shm", "secret.key", "sandbox", "sandbox/sandbox.db"} {
		if _, ok := got[want]; !ok {
			t.Errorf("the first start made no %s", want)
		}
	}
	for path, m := range got {
		if m&0o077 != 0 {
			t.Errorf("after a first start with umask 0: %s is %04o, want owner only", path, m)
		}
	}
	if strings.Contains(log, logLine) {
		t.Errorf("a first start logs modes it changed: %s", log)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}

	// An older version's data dir: everything readable by others, and the operator's own file.
	// (Not the secret key, which was always made 0600: one others may read is refused, not
	// mended — TestSecretKeyFile.)
	for path := range modes() {
		if path == "secret.key" {
			continue
		}
		p := filepath.Join(dir, path)
		info, err := os.Stat(p)
		if err != nil {
			continue
		}
		m := fs.FileMode(0o644)
		if info.IsDir() {
			m = 0o755
		}
		if err := os.Chmod(p, m); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	a, log = startApp()
	if strings.Count(log, logLine) != 1 || !strings.Contains(log, "checkout.db: 0644 → 0600") || !strings.Contains(log, "0755 → 0700") {
		t.Errorf("the start after an older version's: want one log line naming the changes, got %s", log)
	}
	got = modes()
	for path, m := range got {
		if path == "notes.txt" {
			if m != 0o644 {
				t.Errorf("the operator's own file was changed to %04o", m)
			}
		} else if m&0o077 != 0 {
			t.Errorf("after the start: %s is %04o, want owner only", path, m)
		}
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	a, log = startApp()
	defer a.Close()
	if strings.Contains(log, logLine) {
		t.Errorf("a start with nothing to change logs: %s", log)
	}
}
