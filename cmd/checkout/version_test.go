package main

import (
	"database/sql"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/pixcheckout/pixcheckout/cmd/checkout/app"
)

// TestVersion: `checkout version` prints the release, exit 0. A test binary carries no
// version control information, so the line says the revision is unknown, in words.
func TestVersion(t *testing.T) {
	t.Parallel()
	var stdout, stderr strings.Builder
	if code := run(app.DefaultCommand, []string{"version"}, func(string) string { return "" }, &stdout, &stderr); code != 0 {
		t.Fatalf("version: exit %d, stderr %q", code, stderr.String())
	}
	out := stdout.String()
	if app.Version != "0.1.0" || !strings.HasPrefix(out, "PIX Checkout 0.1.0, revision unknown (built without version control information)") ||
		strings.Count(out, "\n") != 1 {
		t.Errorf("version printed %q", out)
	}
	stdout.Reset()
	if code := run(app.DefaultCommand, []string{"version", "extra"}, func(string) string { return "" }, &stdout, &stderr); code != 2 {
		t.Errorf("version with an argument: exit %d, want 2", code)
	}
}

// TestVersionText: the revision, its time and uncommitted changes come from the build info
// the Go toolchain stamps into a binary built in a git checkout.
func TestVersionText(t *testing.T) {
	t.Parallel()
	info := &debug.BuildInfo{GoVersion: "go1.26.8", Settings: []debug.BuildSetting{
		{Key: "vcs", Value: "git"},
		{Key: "vcs.revision", Value: "ec7362101945bdf568335877e952369c91e87eb6"},
		{Key: "vcs.time", Value: "2026-11-25T18:19:10Z"},
		{Key: "vcs.modified", Value: "true"},
	}}
	want := "PIX Checkout 0.1.0, revision ec7362101945bdf568335877e952369c91e87eb6 of 2026-11-25T18:19:10Z with uncommitted changes, go1.26.8"
	if got := versionText(info); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	info.Settings[3].Value = "false"
	if got := versionText(info); strings.Contains(got, "uncommitted") {
		t.Errorf("a clean checkout's version says %q", got)
	}
	if got := versionText(nil); got != "PIX Checkout 0.1.0, revision unknown (built without version control information)" {
		t.Errorf("without build info: %q", got)
	}
}

// TestHelpCommand: `checkout help` is -h; `checkout help COMMAND` is that command's -h.
func TestHelpCommand(t *testing.T) {
	t.Parallel()
	var stdout, stderr strings.Builder
	if code := run(app.DefaultCommand, []string{"help"}, func(string) string { return "" }, &stdout, &stderr); code != 0 ||
		!strings.Contains(stdout.String(), "CHECKOUT_GATEWAY_URL") || !strings.Contains(stdout.String(), "version") {
		t.Errorf("help: exit %d, stdout %q", code, stdout.String())
	}
	stdout.Reset()
	stderr.Reset()
	if code := run(app.DefaultCommand, []string{"help", "user"}, func(string) string { return "" }, &stdout, &stderr); code != 0 ||
		!strings.Contains(stderr.String(), "user add") {
		t.Errorf("help user: exit %d, stderr %q", code, stderr.String())
	}
}

// TestPreReleaseDatabaseRefused: a data dir whose database a development build from before
// 0.1.0 made (its own migration chain recorded) stops the start with one line naming the flag
// (or the variable) and the file, exit status 2, and the database is left as it was.
func TestPreReleaseDatabaseRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "checkout.db")
	db, err := sql.Open("sqlite", file)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE schema_migrations (component TEXT NOT NULL, version INTEGER NOT NULL,
			name TEXT NOT NULL, applied_at BIGINT NOT NULL, PRIMARY KEY (component, version));
		INSERT INTO schema_migrations VALUES ('outbox', 1, '0001_init.sql', 1), ('checkout', 1, '0001_init.sql', 1),
			('checkout', 61, '0061_notify_personal_data.sql', 1);
		CREATE TABLE orders (id TEXT PRIMARY KEY);`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	// The modes the server wants, so that its only line is the refusal.
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(file, 0o600); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr strings.Builder
	code := run(app.DefaultCommand, []string{"-data-dir", dir, "-addr", "127.0.0.1:0"}, func(string) string { return "" }, &stdout, &stderr)
	msg := stderr.String()
	if code != 2 || strings.Count(msg, "\n") != 1 || !strings.HasPrefix(msg, "config: -data-dir: "+file+": ") ||
		!strings.Contains(msg, "from before release 0.1.0") || !strings.Contains(msg, "cannot be upgraded") {
		t.Fatalf("exit %d, stderr %q; want 2 and one line saying the database predates 0.1.0", code, msg)
	}
	db, err = sql.Open("sqlite", file)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var tables int
	if err := db.QueryRow(`SELECT COUNT(*) FROM sqlite_schema WHERE type = 'table'`).Scan(&tables); err != nil || tables != 2 {
		t.Errorf("the refused database holds %d tables (%v), want its 2 untouched", tables, err)
	}
}
