package app_test

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout/sealed"
	"github.com/pixcheckout/pixcheckout/checkout/settings"
	"github.com/pixcheckout/pixcheckout/checkout/team/teamtest"
	"github.com/pixcheckout/pixcheckout/cmd/checkout/app"
)

// postgresSecretKey is the CHECKOUT_SECRET_KEY of the tests' instances on PostgreSQL.
var postgresSecretKey = sealed.NewKey()

// newApp is app.New on a fresh listener, for a start expected to fail.
func newApp(t *testing.T, cfg app.Config) error {
	t.Helper()
	cfg.Passwords = teamtest.Hasher()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	a, err := app.New(context.Background(), cfg, ln)
	if err == nil {
		a.Close()
	}
	ln.Close()
	return err
}

// TestSecretKeyFile: the first start makes the data dir's key file with mode 0600 and seals the
// notification secret with it (the database file holds neither it nor a gateway credential in
// clear); a key file others
// may read, or another key than the one that sealed the database, stops the start in words;
// a rotation (a new key first, the old one after it) reseals at the next start.
func TestSecretKeyFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r := start(t, func(c *app.Config) { c.DataDir = dir })
	keyFile := filepath.Join(dir, sealed.FileName)
	info, err := os.Stat(keyFile)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("key file: %v %v", info, err)
	}
	eff, err := r.app.MerchantSettings().Update(t.Context(), settings.Input{WebhookURL: "https://loja.example.com/hooks"})
	if err != nil {
		t.Fatal(err)
	}
	secret := eff.WebhookSecret
	r.placeOrder() // its notifications wait in the delivery log, signed when sent
	r.stop()
	if err := r.app.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := os.ReadFile(filepath.Join(dir, "checkout.db"))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(db, []byte(strings.TrimPrefix(secret, "whsec_"))) {
		t.Error("the database file (settings, delivery log) holds the notification secret in clear")
	}
	// The gateway's credentials (the embedded sandbox's, made at the first start) are never in
	// the database.
	for _, f := range []string{"client-secret", "webhook-secret"} {
		cred, err := os.ReadFile(filepath.Join(dir, "sandbox", f))
		if err != nil || len(bytes.TrimSpace(cred)) < 16 {
			t.Fatalf("the sandbox's %s: %v", f, err)
		}
		if bytes.Contains(db, bytes.TrimPrefix(bytes.TrimSpace(cred), []byte("whsec_"))) {
			t.Errorf("the database file holds the gateway's %s", f)
		}
	}

	cfg, err := app.Load(func(string) string { return "" }, []string{"-data-dir", dir, "-addr", "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	// Another key than the one that sealed the database.
	wrong := cfg
	wrong.SecretKey = sealed.NewKey()
	err = newApp(t, wrong)
	if ce := (*app.ConfigError)(nil); !errors.As(err, &ce) || !strings.Contains(err.Error(), "sealed with key id") ||
		!strings.Contains(err.Error(), "give the key it was sealed with") {
		t.Errorf("start with the wrong key: %v", err)
	}
	// The key file deleted: the start refuses, naming the variable, and writes no new key file
	// (which would seal new secrets with a key the old ones do not open with).
	keyText, err := os.ReadFile(keyFile)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(keyFile); err != nil {
		t.Fatal(err)
	}
	err = newApp(t, cfg)
	var ce *app.ConfigError
	if !errors.As(err, &ce) || ce.Var != "CHECKOUT_SECRET_KEY" || !strings.Contains(err.Error(), "has no secret.key: put back the key file") {
		t.Errorf("start without the key file: %v", err)
	}
	if _, err := os.Stat(keyFile); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a refused start left a key file (%v)", err)
	}
	if err := os.WriteFile(keyFile, keyText, 0o600); err != nil {
		t.Fatal(err)
	}
	// A key file others may read.
	if err := os.Chmod(keyFile, 0o640); err != nil {
		t.Fatal(err)
	}
	if err := newApp(t, cfg); err == nil || !strings.Contains(err.Error(), "may be read by others (mode 0640)") {
		t.Errorf("start with a key file others may read: %v", err)
	}
	if err := os.Chmod(keyFile, 0o600); err != nil {
		t.Fatal(err)
	}
	// Rotation: a new key first; the restart reseals, the old key still listed.
	id, err := sealed.Rotate(keyFile)
	if err != nil {
		t.Fatal(err)
	}
	r2 := start(t, func(c *app.Config) { c.DataDir = dir })
	got, err := r2.app.MerchantSettings().Get(t.Context())
	if err != nil || got.WebhookSecret != secret {
		t.Fatalf("the secret after the rotation: %v", err)
	}
	r2.stop()
	r2.app.Close()
	db, _ = os.ReadFile(filepath.Join(dir, "checkout.db"))
	if !bytes.Contains(db, []byte(sealed.Prefix+id+":")) {
		t.Error("nothing in the database is sealed with the new key")
	}
}

// TestInstancesShareTheSecretKey: on one PostgreSQL database, an instance given another
// secret key than the first one's refuses to start, even before any secret is stored, rather
// than seal secrets the other instances cannot open. One with a data dir of its own and no key
// says to copy the first one's key file (or set the variable), as bad configuration, and writes
// no key file of its own.
func TestInstancesShareTheSecretKey(t *testing.T) {
	t.Parallel()
	dbURL := postgresDatabase(t)
	start(t, func(c *app.Config) { c.DatabaseURL = dbURL })
	cfg, err := app.Load(func(string) string { return "" }, []string{"-data-dir", t.TempDir(), "-addr", "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	cfg.DatabaseURL, cfg.SecretKey = dbURL, sealed.NewKey()
	var ce *app.ConfigError
	if err := newApp(t, cfg); !errors.As(err, &ce) || !strings.Contains(err.Error(), "sealed with key id") {
		t.Errorf("an instance with another key: %v", err)
	}
	cfg.SecretKey = ""
	err = newApp(t, cfg)
	if !errors.As(err, &ce) || ce.Var != "CHECKOUT_SECRET_KEY" ||
		!strings.Contains(err.Error(), "this database was sealed by another instance's key") ||
		!strings.Contains(err.Error(), "copy its secret.key into "+cfg.DataDir+" or set CHECKOUT_SECRET_KEY") {
		t.Errorf("an instance with its own data dir and no key: %v", err)
	}
	if left, _ := os.ReadDir(cfg.DataDir); slices.ContainsFunc(left, func(e os.DirEntry) bool { return e.Name() == sealed.FileName || e.Name() == "sandbox" }) {
		t.Errorf("a refused start wrote in its data dir: %v", left)
	}
	// Its key file copied from the first instance, it starts.
	if err := os.WriteFile(filepath.Join(cfg.DataDir, sealed.FileName), []byte(postgresSecretKey+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := newApp(t, cfg); err != nil {
		t.Errorf("an instance with the first one's key file: %v", err)
	}
	cfg.SecretKey = postgresSecretKey // the first instance's
	if err := newApp(t, cfg); err != nil {
		t.Errorf("an instance with the same key: %v", err)
	}
}
