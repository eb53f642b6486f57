package main

import (
	"os"
	"strings"
	"testing"

	"github.com/pixcheckout/pixcheckout/cmd/checkout/app"
)

// asProgram is the environment variable that makes this test binary run as the program itself
// (see TestMain), so that a test can start, and kill, a real server process.
const asProgram = "CHECKOUT_TEST_BINARY_RUNS_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(asProgram) == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

func TestBadConfigExitsTwoNamingTheVariable(t *testing.T) {
	t.Parallel()
	cases := []struct {
		env  map[string]string
		args []string
		want string
	}{
		{map[string]string{"CHECKOUT_PUBLIC_URL": "not a url"}, nil, "CHECKOUT_PUBLIC_URL"},
		{map[string]string{"CHECKOUT_GATEWAY_URL": "https://gw.example.com"}, nil, "CHECKOUT_GATEWAY_CLIENT_ID"},
		{map[string]string{"CHECKOUT_DATABASE_URL": "mysql://user:pw@db/checkout"}, nil, "CHECKOUT_DATABASE_URL"},
		{nil, []string{"-addr", "nonsense"}, "-addr"},
		{nil, []string{"-public-url", "not a url"}, "-public-url"},
	}
	for _, tc := range cases {
		var stdout, stderr strings.Builder
		code := run(app.DefaultCommand, tc.args, func(k string) string { return tc.env[k] }, &stdout, &stderr)
		if code != 2 {
			t.Errorf("%v %v: exit %d, want 2", tc.env, tc.args, code)
		}
		msg := stderr.String()
		if strings.Count(msg, "\n") != 1 || !strings.HasPrefix(msg, "config: "+tc.want+": ") {
			t.Errorf("%v %v: stderr %q, want one line naming %s", tc.env, tc.args, msg, tc.want)
		}
		if strings.Contains(msg, "pw@") {
			t.Errorf("stderr leaks a password: %q", msg)
		}
	}
}

func TestUnusableAddressExitsTwo(t *testing.T) {
	t.Parallel()
	var stdout, stderr strings.Builder
	// 256.0.0.1 is no address: listening fails before anything else starts.
	code := run(app.DefaultCommand, []string{"-addr", "256.0.0.1:8080", "-data-dir", t.TempDir()}, func(string) string { return "" }, &stdout, &stderr)
	if code != 2 || !strings.HasPrefix(stderr.String(), "config: -addr: ") {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
}

func TestHelp(t *testing.T) {
	t.Parallel()
	var stdout, stderr strings.Builder
	if code := run(app.DefaultCommand, []string{"-h"}, func(string) string { return "" }, &stdout, &stderr); code != 0 {
		t.Errorf("-h: exit %d", code)
	}
	if !strings.Contains(stdout.String(), "CHECKOUT_GATEWAY_URL") {
		t.Errorf("help %q", stdout.String())
	}
}

func TestUnreachableDatabaseExitsOneWithoutThePassword(t *testing.T) {
	t.Parallel()
	var stdout, stderr strings.Builder
	env := map[string]string{"CHECKOUT_DATABASE_URL": "postgres://checkout:s3cr3t-pw@127.0.0.1:1/checkout?sslmode=disable&connect_timeout=2"}
	code := run(app.DefaultCommand, []string{"-addr", "127.0.0.1:0", "-data-dir", t.TempDir()}, func(k string) string { return env[k] }, &stdout, &stderr)
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	if !strings.Contains(stderr.String(), "PostgreSQL") || strings.Contains(stderr.String(), "s3cr3t-pw") {
		t.Errorf("stderr %q", stderr.String())
	}
}
