package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout/sqlite/sqlitetest"
	"github.com/pixcheckout/pixcheckout/cmd/checkout/app"
)

// madeDataDir returns a data dir holding a database, as a server's first start leaves it.
func madeDataDir(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "data")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	sqlitetest.Create(t, filepath.Join(dir, "checkout.db"))
	return dir
}

// TestCommandsOpenOnlyAnExistingDatabase: a data dir with no database is said in one line
// naming the path and how to set it, with exit status 2, and nothing is made there.
// Not parallel: it changes the working directory.
func TestCommandsOpenOnlyAnExistingDatabase(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, tc := range []struct {
		env  map[string]string
		args []string
		says string
	}{
		{map[string]string{"CHECKOUT_DATA_DIR": "./elsewhere"}, []string{"apikey", "list"},
			"config: CHECKOUT_DATA_DIR: there is no checkout database at elsewhere/checkout.db: set CHECKOUT_DATA_DIR (or -data-dir) to the server's data dir"},
		{nil, []string{"apikey", "create", "-data-dir", "./elsewhere", "erp"}, "config: -data-dir: there is no checkout database at elsewhere/checkout.db"},
		{map[string]string{"CHECKOUT_DATA_DIR": "./elsewhere"}, []string{"user", "list"}, "config: CHECKOUT_DATA_DIR: there is no checkout database"},
		{map[string]string{"CHECKOUT_DATA_DIR": "./elsewhere"}, []string{"user", "add", "-role", "viewer", "ana@loja.example"}, "config: CHECKOUT_DATA_DIR: there is no checkout database"},
	} {
		var stdout, stderr strings.Builder
		code := run(app.DefaultCommand, tc.args, func(k string) string { return tc.env[k] }, &stdout, &stderr)
		if code != 2 || strings.Count(stderr.String(), "\n") != 1 || !strings.HasPrefix(stderr.String(), tc.says) {
			t.Errorf("%v %v: exit %d, %q; want 2 and one line starting %q", tc.env, tc.args, code, stderr.String(), tc.says)
		}
		if strings.Contains(stdout.String(), "shown only now") {
			t.Errorf("%v: a secret was printed for a database that does not exist: %q", tc.args, stdout.String())
		}
		if _, err := os.Stat("elsewhere"); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("%v made ./elsewhere (%v)", tc.args, err)
		}
	}
}

// TestFlagsAfterTheOperandsRefused: a flag written after a command's name, e-mail or file
// would silently become part of it (`apikey create loja2 -scope read` made a write key named
// "loja2 -scope read"): it is refused with one line saying where flags go, exit 2, nothing made;
// a name that starts with "-" likewise. help and -h answer 0.
func TestFlagsAfterTheOperandsRefused(t *testing.T) {
	t.Parallel()
	dir := madeDataDir(t)
	env := func(k string) string {
		if k == "CHECKOUT_DATA_DIR" {
			return dir
		}
		return ""
	}
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"apikey", "create", "loja2", "-scope", "read"}, "checkout apikey: flags go before NAME (-scope came after it)\n"},
		{[]string{"apikey", "create", "loja2", "--scope=read"}, "checkout apikey: flags go before NAME (--scope=read came after it)\n"},
		{[]string{"apikey", "create", "--", "-loja"}, `checkout apikey: NAME cannot start with "-" (got "-loja"); flags go before it` + "\n"},
		{[]string{"apikey", "revoke", "key_x", "-data-dir", dir}, "checkout apikey: flags go before ID (-data-dir came after it)\n"},
		{[]string{"user", "add", "-role", "developer", "ana@loja.example", "-database-url", "postgres://127.0.0.1/x"},
			"checkout user: flags go before EMAIL (-database-url came after it)\n"},
		{[]string{"user", "reset-password", "ana@loja.example", "-password-stdin"}, "checkout user: flags go before EMAIL (-password-stdin came after it)\n"},
		{[]string{"user", "-role", "viewer", "add", "ana@loja.example"}, `checkout user: the command's verb comes first, then the flags (got "-role" first)` + "\n"},
		{[]string{"backup", filepath.Join(t.TempDir(), "b.db"), "-data-dir", dir}, "checkout backup: flags go before FILE (-data-dir came after it)\n"},
		{[]string{"restore", "b.db", "-data-dir", dir}, "checkout restore: flags go before FILE (-data-dir came after it)\n"},
	} {
		var stdout, stderr strings.Builder
		code := run(app.DefaultCommand, tc.args, env, &stdout, &stderr)
		if first, _, _ := strings.Cut(stderr.String(), "Usage:"); code != 2 || first != tc.says || stdout.Len() != 0 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2 and %q", tc.args, code, stdout.String(), stderr.String(), tc.says)
		}
	}
	var stdout, stderr strings.Builder
	if code := run(app.DefaultCommand, []string{"apikey", "list"}, env, &stdout, &stderr); code != 0 || strings.Contains(stdout.String(), "loja") {
		t.Errorf("a refused command made a key: %d %q", code, stdout.String())
	}
	if code := run(app.DefaultCommand, []string{"user", "list"}, env, &stdout, &stderr); code != 0 || strings.Contains(stdout.String(), "ana@") {
		t.Errorf("a refused command made a user: %d %q", code, stdout.String())
	}
	for _, args := range [][]string{{"help"}, {"-h"}, {"--help"}} {
		var stdout, stderr strings.Builder
		if code := run(app.DefaultCommand, args, env, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "CHECKOUT_DATABASE_URL") ||
			!strings.Contains(stdout.String(), "apikey") {
			t.Errorf("%q: exit %d, %q", args, code, stdout.String())
		}
	}
	stdout.Reset()
	stderr.Reset()
	if code := run(app.DefaultCommand, []string{"help", "apikey"}, env, &stdout, &stderr); code != 0 || !strings.Contains(stderr.String(), "apikey create [-scope read|write] NAME") {
		t.Errorf("help apikey: exit %d, %q", code, stderr.String())
	}
}
