package main

import (
	"runtime/debug"
	"strings"
	"testing"

	"github.com/pixcheckout/pixcheckout/cmd/checkout/app"
)

// TestVersion: `checkout version` prints the release, exit 0. A test binary carries no
// version control information, so the line says the revision is unknown, in words.
func TestVersion(t *testing.T) {
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
