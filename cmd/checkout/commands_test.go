package main

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout/sqlite"
	"github.com/pixcheckout/pixcheckout/cmd/checkout/app"
)

// madeDataDir returns a data dir holding a database, as a server's first start leaves it.
func madeDataDir(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "data")
	st, err := sqlite.Open(context.Background(), filepath.Join(dir, "checkout.db"))
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestCommandsOpenOnlyAnExistingDatabase: a data dir with no database is said in one line
// naming the path and how to set it, with exit status 2, and nothing is made there.
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
