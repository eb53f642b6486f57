package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout/sealed"
	"github.com/pixcheckout/pixcheckout/cmd/checkout/app"
)

// TestSecretKeyCommand: `secret-key new` prints a key CHECKOUT_SECRET_KEY takes; `secret-key
// rotate` puts a new key first in the data dir's key file, the old one kept after it, and
// refuses when the key comes from the environment.
func TestSecretKeyCommand(t *testing.T) {
	t.Parallel()
	noEnv := func(string) string { return "" }
	var out, errs bytes.Buffer
	if code := run(app.DefaultCommand, []string{"secret-key", "new"}, noEnv, &out, &errs); code != 0 {
		t.Fatalf("new: %d %s", code, errs.String())
	}
	if _, err := sealed.ParseKeys(out.String()); err != nil {
		t.Errorf("new printed %q: %v", out.String(), err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, sealed.FileName)
	old, _, err := sealed.LoadOrCreateFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if code := run(app.DefaultCommand, []string{"secret-key", "rotate", "-data-dir", dir}, noEnv, &out, &errs); code != 0 {
		t.Fatalf("rotate: %d %s", code, errs.String())
	}
	k, err := sealed.LoadFile(path)
	if err != nil || len(k.IDs()) != 2 || k.IDs()[1] != old.Current() || !strings.Contains(out.String(), k.Current()) {
		t.Errorf("after rotate: %v %v, printed %q", k, err, out.String())
	}
	errs.Reset()
	env := func(v string) string {
		if v == "CHECKOUT_SECRET_KEY" {
			return sealed.NewKey()
		}
		return ""
	}
	if code := run(app.DefaultCommand, []string{"secret-key", "rotate", "-data-dir", dir}, env, &out, &errs); code != 2 ||
		!strings.Contains(errs.String(), "CHECKOUT_SECRET_KEY") {
		t.Errorf("rotate with CHECKOUT_SECRET_KEY: %d %q", code, errs.String())
	}
}
