package main

import (
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout/sqlite/sqlitetest"
	"github.com/pixcheckout/pixcheckout/cmd/checkout/app"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox/sandboxtest"
)

// bareCheckout finds advice to run a `checkout` binary that nothing builds (not the
// "checkout user:" that starts a command's messages).
var bareCheckout = regexp.MustCompile(`(^|[\s(:])checkout (user|apikey|COMMAND|\[flags\])($|[^:])`)

// TestInvocation: `go run` is told as such; a built binary by the name it was started by.
func TestInvocation(t *testing.T) {
	t.Parallel()
	for arg0, want := range map[string]string{
		"/tmp/go-build2837462/b001/exe/checkout":     "go run ./cmd/checkout",
		"/root/.cache/go-build/ce/ce1705-d/checkout": "go run ./cmd/checkout",
		"":                        "go run ./cmd/checkout",
		"./checkout":              "./checkout",
		"checkout":                "checkout",
		"/usr/local/bin/checkout": "/usr/local/bin/checkout",
	} {
		if got := invocation(arg0); got != want {
			t.Errorf("invocation(%q) = %q, want %q", arg0, got, want)
		}
	}
}

// TestTextsNameTheProgramAsRun: the help, the commands' usage and hints, and the banner's
// advice say `go run ./cmd/checkout …` under go run, and the binary's own name otherwise,
// never a bare `checkout` that nothing builds.
func TestTextsNameTheProgramAsRun(t *testing.T) {
	t.Parallel()
	dir := madeDataDir(t)
	inDir := func(k string) string {
		if k == "CHECKOUT_DATA_DIR" {
			return dir
		}
		return ""
	}
	texts := func(prog string) map[string]string {
		out := map[string]string{}
		for name, args := range map[string][]string{"-h": {"-h"}, "user -h": {"user", "-h"}, "apikey -h": {"apikey", "-h"},
			"user": {"user"}, "user reset-password unknown": {"user", "reset-password", "nobody@loja.example"},
			"apikey revoke unknown": {"apikey", "revoke", "key_nope"}} {
			var stdout, stderr strings.Builder
			run(prog, args, inDir, &stdout, &stderr)
			out[name] = stdout.String() + stderr.String()
		}
		// The banner, with the first user's advice.
		var banner strings.Builder
		ctx, cancel := context.WithCancel(context.Background())
		stdout := &watchWriter{re: regexp.MustCompile(`(?s)(change it with: [^\n]*)\n`), found: make(chan string, 1)}
		done := make(chan int, 1)
		// A new data dir, its stores migrated already (sqlitetest, sandboxtest): still a first start,
		// with no user yet.
		fresh := t.TempDir()
		sqlitetest.Create(t, filepath.Join(fresh, "checkout.db"))
		sandboxtest.Create(t, filepath.Join(fresh, "sandbox"))
		env := map[string]string{"CHECKOUT_ADDR": "127.0.0.1:0", "CHECKOUT_DEMO_ADDR": "off", "CHECKOUT_DATA_DIR": fresh}
		go func() { done <- serve(ctx, prog, nil, func(k string) string { return env[k] }, stdout, &banner) }()
		select {
		case <-stdout.found:
		case code := <-done:
			t.Fatalf("the server ended at start: %d %s", code, banner.String())
		}
		cancel()
		<-done
		out["banner"] = stdout.String()
		return out
	}
	for prog, wants := range map[string][]string{
		app.DefaultCommand: {"Usage: go run ./cmd/checkout [flags]", "go run ./cmd/checkout user add [-password-stdin] -role ROLE EMAIL",
			"go run ./cmd/checkout apikey create [-scope read|write] NAME", "(go run ./cmd/checkout user list shows them)",
			"(go run ./cmd/checkout apikey list shows them)", "change it with: go run ./cmd/checkout user reset-password admin@localhost"},
		"./checkout": {"Usage: ./checkout [flags]", "./checkout user add [-password-stdin] -role ROLE EMAIL", "(./checkout user list shows them)",
			"change it with: ./checkout user reset-password admin@localhost"},
	} {
		all := ""
		for name, text := range texts(prog) {
			all += text
			if prog == app.DefaultCommand {
				if m := bareCheckout.FindString(text); m != "" {
					t.Errorf("%s under go run tells to run a bare checkout (%q):\n%s", name, m, text)
				}
			}
		}
		for _, want := range wants {
			if !strings.Contains(all, want) {
				t.Errorf("run as %q: no text says %q", prog, want)
			}
		}
	}
}
