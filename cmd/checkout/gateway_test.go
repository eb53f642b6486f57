package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout/sqlite/sqlitetest"
	"github.com/pixcheckout/pixcheckout/cmd/checkout/app"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox/sandboxtest"
)

// gatewayUnderV1 serves a standalone sandbox under the path prefix /v1, as a real gateway
// serves its API, accepting the client "merchant" / "merchant-secret".
func gatewayUnderV1(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	sandboxtest.Create(t, dir)
	sb, err := sandbox.New(context.Background(), sandbox.Options{DataDir: dir,
		Clients: []sandbox.ClientConfig{{ID: "merchant", Secret: "merchant-secret"}}})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/v1/", http.StripPrefix("/v1", sb))
	srv := httptest.NewServer(mux)
	t.Cleanup(func() { srv.Close(); sb.Close() })
	return srv.URL
}

// closedAddress is a loopback address nothing listens on.
func closedAddress(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// A real gateway that is wrong at start stops the start with exit status 2 and one line naming
// what to fix, per failure: the secret (401), a permission (403), the path prefix (404), the
// address (no answer).
func TestGatewayStartUpCheckExitsTwoNamingTheFix(t *testing.T) {
	t.Parallel()
	gw := gatewayUnderV1(t)
	dead := closedAddress(t)
	// A gateway that grants a token but refuses this client every read.
	forbidding := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/v1/auth/token" {
			fmt.Fprintf(w, `{"access_token":"tok","expires_in":%d}`, time.Now().Add(time.Hour).Unix())
			return
		}
		w.WriteHeader(http.StatusForbidden)
		fmt.Fprint(w, `{"statusCode":403,"error":"Forbidden","message":"missing scope deposits:read"}`)
	}))
	t.Cleanup(forbidding.Close) // the subtests run in parallel, after this function returns
	cases := []struct {
		name     string
		env      map[string]string
		prefix   string   // the line's start
		contains []string // and what it must say
		never    string   // a misleading word
	}{
		{"wrong secret", map[string]string{"CHECKOUT_GATEWAY_URL": gw + "/v1", "CHECKOUT_GATEWAY_CLIENT_SECRET": "wrong-secret"},
			"config: CHECKOUT_GATEWAY_CLIENT_SECRET: ", []string{"refused the credentials", "401", "CHECKOUT_GATEWAY_CLIENT_ID"}, "did not answer"},
		{"wrong path prefix", map[string]string{"CHECKOUT_GATEWAY_URL": gw + "/v2"},
			"config: CHECKOUT_GATEWAY_URL: ", []string{`path prefix "/v2"`, "404"}, "credentials"},
		{"missing permission", map[string]string{"CHECKOUT_GATEWAY_URL": forbidding.URL + "/v1"},
			"config: CHECKOUT_GATEWAY_CLIENT_ID: ", []string{"lack a permission", "403"}, "did not answer"},
		{"unreachable", map[string]string{"CHECKOUT_GATEWAY_URL": "http://" + dead + "/v1"},
			"config: CHECKOUT_GATEWAY_URL: ", []string{"cannot be reached", dead, "CHECKOUT_GATEWAY_START_CHECK=degraded"}, "credentials"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := map[string]string{"CHECKOUT_GATEWAY_CLIENT_ID": "merchant", "CHECKOUT_GATEWAY_CLIENT_SECRET": "merchant-secret",
				"CHECKOUT_GATEWAY_START_TIMEOUT": "2s", "CHECKOUT_DEMO_ADDR": "off"}
			for k, v := range tc.env {
				env[k] = v
			}
			var stdout, stderr strings.Builder
			start := time.Now()
			code := run(app.DefaultCommand, []string{"-addr", "127.0.0.1:0", "-data-dir", privateDir(t)}, func(k string) string { return env[k] }, &stdout, &stderr)
			if code != 2 {
				t.Fatalf("exit %d, want 2; stderr %q", code, stderr.String())
			}
			// The check says first what it checks and for how long, then the one line of its
			// verdict.
			announce, msg, _ := strings.Cut(stderr.String(), "\n")
			if want := "checking the gateway at " + env["CHECKOUT_GATEWAY_URL"] + " (up to 2s)"; !strings.Contains(announce, want) {
				t.Errorf("the first line %q does not say %q", announce, want)
			}
			if strings.Count(msg, "\n") != 1 || !strings.HasPrefix(msg, tc.prefix) {
				t.Fatalf("stderr %q, want the check's line then one line starting %q", stderr.String(), tc.prefix)
			}
			for _, want := range tc.contains {
				if !strings.Contains(msg, want) {
					t.Errorf("stderr %q does not say %q", msg, want)
				}
			}
			if strings.Contains(msg, tc.never) || strings.Contains(msg, "wrong-secret") {
				t.Errorf("stderr %q says %q or the secret", msg, tc.never)
			}
			if d := time.Since(start); d > 45*time.Second {
				t.Errorf("the check took %v, more than 45 s", d)
			}
		})
	}
}

// CHECKOUT_GATEWAY_START_CHECK=degraded starts a checkout whose gateway is down, and says so;
// a webhook secret too short to be one is warned of.
func TestGatewayDegradedStart(t *testing.T) {
	t.Parallel()
	env := map[string]string{"CHECKOUT_GATEWAY_URL": "http://" + closedAddress(t) + "/v1", "CHECKOUT_GATEWAY_CLIENT_ID": "merchant",
		"CHECKOUT_GATEWAY_CLIENT_SECRET": "merchant-secret", "CHECKOUT_GATEWAY_START_TIMEOUT": "1s",
		"CHECKOUT_GATEWAY_START_CHECK": "degraded", "CHECKOUT_DEMO_ADDR": "off",
		// A placeholder decodes as base64 (two bytes): taken, with a warning.
		"CHECKOUT_GATEWAY_WEBHOOK_SECRET": "foo"}
	cfg, err := app.Load(func(k string) string { return env[k] }, []string{"-addr", "127.0.0.1:0", "-data-dir", privateDir(t)})
	if err != nil {
		t.Fatal(err)
	}
	logs := &lockedBuffer{}
	cfg.LogOutput = logs
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		t.Fatal(err)
	}
	a, err := app.New(context.Background(), cfg, ln)
	if err != nil {
		t.Fatalf("degraded start refused: %v", err)
	}
	defer a.Close()
	if st := a.GatewayHealth(); st.OK || st.Cause != "unreachable" {
		t.Errorf("gateway state %+v, want failing: unreachable", st)
	}
	if !strings.Contains(logs.String(), "starting degraded") {
		t.Errorf("the degraded start is not logged: %s", logs.String())
	}
	if !strings.Contains(logs.String(), "CHECKOUT_GATEWAY_WEBHOOK_SECRET decodes to a very short key") {
		t.Errorf("no warning of a placeholder webhook secret: %s", logs.String())
	}
}

// TestStartAndStopMessages: with a real gateway the start says what it checks before it waits,
// warns that no webhook secret is set, and the banner says that webhooks are off with an http
// public URL and what finds the payments then; the stop is logged at its start and its end.
func TestStartAndStopMessages(t *testing.T) {
	t.Parallel()
	gw := gatewayUnderV1(t)
	env := map[string]string{"CHECKOUT_GATEWAY_URL": gw + "/v1", "CHECKOUT_GATEWAY_CLIENT_ID": "merchant",
		"CHECKOUT_GATEWAY_CLIENT_SECRET": "merchant-secret", "CHECKOUT_DEMO_ADDR": "off", "CHECKOUT_RECONCILE_INTERVAL": "7s"}
	stdout := &watchWriter{re: regexp.MustCompile(`shop:\s+(\S+)`), found: make(chan string, 1)}
	var stderr lockedBuffer
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	exit := make(chan int, 1)
	go func() {
		exit <- serve(ctx, app.DefaultCommand, []string{"-addr", "127.0.0.1:0", "-data-dir", privateDir(t)}, func(k string) string { return env[k] }, stdout, &stderr)
	}()
	select {
	case <-stdout.found:
	case code := <-exit:
		t.Fatalf("exit %d at start: %s", code, stderr.String())
	case <-time.After(60 * time.Second):
		t.Fatal("the server did not start")
	}
	cancel()
	if code := <-exit; code != 0 {
		t.Fatalf("exit %d after the stop: %s", code, stderr.String())
	}
	if !regexp.MustCompile(`(?m)^  webhooks: +off: .*https public URL.*CHECKOUT_PUBLIC_URL is http://localhost:\d+\); the reconciler finds payments within 7s \(CHECKOUT_RECONCILE_INTERVAL\)$`).MatchString(stdout.String()) {
		t.Errorf("the banner does not say webhooks are off:\n%s", stdout.String())
	}
	var msgs []string
	for _, line := range strings.Split(strings.TrimSpace(stderr.String()), "\n") {
		var l struct{ Msg string }
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatalf("a log line is not JSON: %q", line)
		}
		msgs = append(msgs, l.Msg)
	}
	if len(msgs) == 0 || msgs[0] != "checking the gateway at "+gw+"/v1 (up to 40s)" {
		t.Errorf("the first line is not the gateway check's: %q", msgs)
	}
	if !slices.ContainsFunc(msgs, func(m string) bool { return strings.HasPrefix(m, "CHECKOUT_GATEWAY_WEBHOOK_SECRET is not set") }) {
		t.Errorf("no warning that the webhook secret is missing: %q", msgs)
	}
	if n := len(msgs); n < 2 || !strings.HasPrefix(msgs[n-2], "stopping") || msgs[n-1] != "stopped" {
		t.Errorf("the stop is not logged: %q", msgs)
	}
}

// privateDir is a data dir with the mode the server wants (0700), so that the server's first
// log line is not the one saying it tightened the test's temporary folder, holding a migrated
// database (sqlitetest): these tests are about the start's checks and messages, not migrations.
func privateDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	sqlitetest.Create(t, filepath.Join(dir, "checkout.db"))
	return dir
}
