package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pixcheckout/pixcheckout/cmd/checkout/app"
)

// cli runs `checkout args…` with env and returns the exit status and outputs.
func cli(env map[string]string, args ...string) (int, string, string) {
	var stdout, stderr strings.Builder
	code := run(app.DefaultCommand, args, func(k string) string { return env[k] }, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// TestBackupAndRestoreCommands: `checkout backup` works beside a running server; `checkout
// restore` refuses while the server runs, in one line naming the variable, and after it stopped
// puts the backup in place (the commands then read it), keeping the database it replaced.
func TestBackupAndRestoreCommands(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "data")
	server := startServerProcess(t, dir)
	env := map[string]string{"CHECKOUT_DATA_DIR": dir}
	if code, _, errOut := cli(env, "apikey", "create", "erp"); code != 0 {
		t.Fatalf("apikey create: %d %s", code, errOut)
	}
	backup := filepath.Join(t.TempDir(), "b.db")
	code, out, errOut := cli(env, "backup", backup)
	if code != 0 || !strings.Contains(out, "backup written to "+backup) {
		t.Fatalf("backup beside the server: %d %q %q", code, out, errOut)
	}
	if fi, err := os.Stat(backup); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the backup file: %v %v; want mode 0600", fi, err)
	}
	if code, _, errOut := cli(env, "backup", backup); code != 1 || !strings.Contains(errOut, "already exists") {
		t.Errorf("backup over an existing file: %d %q", code, errOut)
	}
	// A key made after the backup is gone once it is restored.
	if code, _, errOut := cli(env, "apikey", "create", "later"); code != 0 {
		t.Fatalf("apikey create: %d %s", code, errOut)
	}
	code, _, errOut = cli(env, "restore", backup)
	if code != 2 || strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "config: CHECKOUT_DATA_DIR: ") ||
		!strings.Contains(errOut, "stop it before restoring") {
		t.Fatalf("restore beside the running server: %d %q; want 2 and one line", code, errOut)
	}
	_ = server.Process.Kill()
	_ = server.Wait()

	code, out, errOut = cli(env, "restore", "-data-dir", dir, backup)
	if code != 0 || out != "database restored from "+backup+"; the one it replaced is "+filepath.Join(dir, "checkout.db.before-restore")+"\n" {
		t.Fatalf("restore: %d %q %q", code, out, errOut)
	}
	// Into an empty data dir nothing is replaced, and the answer says so.
	empty := filepath.Join(t.TempDir(), "new")
	code, out, errOut = cli(map[string]string{"CHECKOUT_DATA_DIR": empty}, "restore", backup)
	if code != 0 || out != "database restored from "+backup+" (the data dir held none)\n" {
		t.Errorf("restore into an empty data dir: %d %q %q", code, out, errOut)
	}
	_, out, _ = cli(env, "apikey", "list")
	if !strings.Contains(out, "erp") || strings.Contains(out, "later") {
		t.Errorf("keys after the restore: %q; want erp, not later", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "checkout.db.before-restore")); err != nil {
		t.Errorf("the replaced database was not kept: %v", err)
	}
	if code, _, errOut := cli(env, "restore", filepath.Join(dir, "checkout.lock")); code != 1 || !strings.Contains(errOut, "not a usable backup") {
		t.Errorf("restoring a file that is no database: %d %q", code, errOut)
	}
	for _, args := range [][]string{{"backup"}, {"backup", "a", "b"}, {"restore"}} {
		if code, _, _ := cli(env, args...); code != 2 {
			t.Errorf("%v: exit %d; want 2 (usage)", args, code)
		}
	}
	pg := map[string]string{"CHECKOUT_DATABASE_URL": "postgres://localhost/checkout"}
	if code, _, errOut := cli(pg, "backup", backup+"2"); code != 2 || !strings.Contains(errOut, "pg_dump") {
		t.Errorf("backup on PostgreSQL: %d %q; want 2 pointing to pg_dump", code, errOut)
	}
	if code, _, errOut := cli(map[string]string{"CHECKOUT_DATA_DIR": filepath.Join(dir, "nothing")}, "backup", backup+"3"); code != 2 ||
		!strings.Contains(errOut, "there is no checkout database") {
		t.Errorf("backup of a data dir without a database: %d %q", code, errOut)
	}
}
