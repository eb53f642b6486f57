package main

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout/audit"
	"github.com/pixcheckout/pixcheckout/checkout/team"
	"github.com/pixcheckout/pixcheckout/cmd/checkout/app"
)

// user runs `checkout user args…` on dataDir with stdin and returns the exit status and outputs.
func user(t *testing.T, dataDir, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr strings.Builder
	env := map[string]string{"CHECKOUT_DATA_DIR": dataDir}
	code := runUser(app.DefaultCommand, args, func(k string) string { return env[k] }, strings.NewReader(stdin), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// login signs in with the accounts of dataDir's store.
func login(t *testing.T, dataDir, email, password string) error {
	t.Helper()
	cfg, err := app.Load(func(string) string { return "" }, []string{"-data-dir", dataDir})
	if err != nil {
		t.Fatal(err)
	}
	acc, _, closeStore, err := app.OpenAccounts(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer closeStore()
	_, err = acc.Login(context.Background(), email, password, "")
	return err
}

var printedPassword = regexp.MustCompile(`password \(shown only now\): (\S+)\n`)

func TestUserCommand(t *testing.T) {
	t.Parallel()
	dir := madeDataDir(t)
	code, out, errOut := user(t, dir, "", "add", "-role", "owner", "Ana@Loja.Example")
	m := printedPassword.FindStringSubmatch(out)
	if code != 0 || m == nil || !strings.Contains(out, "user ana@loja.example added as owner") || errOut != "" {
		t.Fatalf("add: %d %q %q", code, out, errOut)
	}
	if err := login(t, dir, "ana@loja.example", m[1]); err != nil {
		t.Fatalf("the printed password does not sign in: %v", err)
	}
	// A password from the standard input is never printed.
	code, out, _ = user(t, dir, "senha-da-bia-123\n", "add", "-password-stdin", "-role", "Viewer", "bia@loja.example")
	if code != 0 || strings.Contains(out, "senha-da-bia-123") || strings.Contains(out, "shown only now") {
		t.Fatalf("add -password-stdin: %d %q", code, out)
	}
	if err := login(t, dir, "bia@loja.example", "senha-da-bia-123"); err != nil {
		t.Fatalf("sign-in with the stdin password: %v", err)
	}
	// Refusals: exit 1 with one clear line each.
	for _, tc := range []struct {
		stdin string
		args  []string
		says  string
	}{
		{"", []string{"add", "-role", "viewer", "ana@loja.example"}, "already exists"},
		{"", []string{"add", "-role", "viewer", "not-an-email"}, "email must be an e-mail address"},
		{"curta\n", []string{"add", "-password-stdin", "-role", "viewer", "cris@loja.example"}, "password must have at least 8 characters"},
		{"", []string{"add", "-password-stdin", "-role", "viewer", "cris@loja.example"}, "holds no password"},
		// Common and breached passwords (NIST SP 800-63B 5.1.1), with the reason in words.
		{"password\n", []string{"add", "-password-stdin", "-role", "viewer", "cris@loja.example"},
			"password is too easy to guess: it is one of the most common passwords, found in lists of breached passwords"},
		{"12345678\n", []string{"reset-password", "-password-stdin", "bia@loja.example"}, "password is too easy to guess"},
		{"qwertyuiop\n", []string{"reset-password", "-password-stdin", "bia@loja.example"}, "password is too easy to guess"},
		{"", []string{"reset-password", "nobody@loja.example"}, "no user has that e-mail"},
	} {
		code, _, errOut := user(t, dir, tc.stdin, tc.args...)
		if code != 1 || !strings.Contains(errOut, tc.says) {
			t.Errorf("%v: %d %q; want 1 saying %q", tc.args, code, errOut, tc.says)
		}
	}
	// reset-password changes it: the old one stops working.
	code, out, _ = user(t, dir, "nova-senha-da-ana\n", "reset-password", "-password-stdin", "ana@loja.example")
	if code != 0 || !strings.Contains(out, "sessions are over") {
		t.Fatalf("reset-password: %d %q", code, out)
	}
	if err := login(t, dir, "ana@loja.example", "nova-senha-da-ana"); err != nil {
		t.Errorf("the new password: %v", err)
	}
	if err := login(t, dir, "ana@loja.example", m[1]); !errors.Is(err, team.ErrBadCredentials) {
		t.Errorf("the old password: %v", err)
	}
	code, out, _ = user(t, dir, "", "add", "-role", "developer", "cris@loja.example")
	if code != 0 {
		t.Fatalf("add cris: %d %q", code, out)
	}
	// A cashier (the point of sale's role).
	if code, out, _ = user(t, dir, "", "add", "-role", "cashier", "dani@loja.example"); code != 0 {
		t.Fatalf("add dani as a cashier: %d %q", code, out)
	}
	code, out, _ = user(t, dir, "", "list")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 5 || !regexp.MustCompile(`^dani@loja\.example +cashier `).MatchString(lines[4]) || !regexp.MustCompile(`^cris@loja\.example +developer .* never$`).MatchString(lines[3]) || !regexp.MustCompile(`^ana@loja\.example +owner `).MatchString(lines[1]) ||
		!regexp.MustCompile(`^bia@loja\.example +viewer `).MatchString(lines[2]) || !strings.Contains(lines[0], "ROLE") ||
		strings.Contains(out, "argon2") {
		t.Errorf("list: %d %q", code, out)
	}
	// What the command changed is in the audit log, by the actor cli.
	cfg, err := app.Load(func(string) string { return "" }, []string{"-data-dir", dir})
	if err != nil {
		t.Fatal(err)
	}
	_, auditLog, closeStore, err := app.OpenAccounts(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := auditLog.Entries(context.Background(), audit.Filter{Actor: audit.ActorCLI})
	closeStore()
	var got []string
	for _, e := range entries {
		got = append(got, e.Action+" "+e.Object+" "+e.Detail)
	}
	for _, want := range []string{"user.added bia@loja.example role: viewer", "password.reset ana@loja.example "} {
		if err != nil || !strings.Contains(strings.Join(got, "\n"), want) {
			t.Errorf("audit log by cli: %q, %v; want %q", got, err, want)
		}
	}
	// Usage errors exit 2.
	// -role is required by add, and must name a role.
	for _, args := range [][]string{{"add", "cris@loja.example"}, {"add", "-role", "admin", "cris@loja.example"}} {
		if code, _, errOut := user(t, dir, "", args...); code != 2 || !strings.Contains(errOut, "-role is required: owner, developer, operator, viewer or cashier") {
			t.Errorf("%v: exit %d %q", args, code, errOut)
		}
	}
	for _, args := range [][]string{nil, {"frobnicate"}, {"add"}, {"add", "a@b", "c@d"}, {"list", "x"}, {"add", "-nope", "a@b"},
		{"list", "-role", "owner"}} {
		if code, _, errOut := user(t, dir, "", args...); code != 2 || !strings.Contains(errOut, "Usage:") {
			t.Errorf("%v: exit %d %q", args, code, errOut)
		}
	}
	if code, _, _ := user(t, dir, "", "-h"); code != 0 {
		t.Errorf("-h: exit %d", code)
	}
	// Through the main entry point too.
	var stdout, stderr strings.Builder
	if code := run(app.DefaultCommand, []string{"user", "list", "-data-dir", dir}, func(string) string { return "" }, &stdout, &stderr); code != 0 ||
		!strings.Contains(stdout.String(), "bia@loja.example") {
		t.Errorf("checkout user list: %d %q %q", code, stdout.String(), stderr.String())
	}
}
