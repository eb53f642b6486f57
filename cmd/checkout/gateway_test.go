package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/cmd/checkout/app"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
)

// gatewayUnderV1 serves a standalone sandbox under the path prefix /v1, as a real gateway
// serves its API, accepting the client "merchant" / "merchant-secret".
func gatewayUnderV1(t *testing.T) string {
	t.Helper()
	sb, err := sandbox.New(context.Background(), sandbox.Options{DataDir: t.TempDir(),
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
	defer forbidding.Close()
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
			env := map[string]string{"CHECKOUT_GATEWAY_CLIENT_ID": "merchant", "CHECKOUT_GATEWAY_CLIENT_SECRET": "merchant-secret",
				"CHECKOUT_GATEWAY_START_TIMEOUT": "2s", "CHECKOUT_DEMO_ADDR": "off"}
			for k, v := range tc.env {
				env[k] = v
			}
			var stdout, stderr strings.Builder
			start := time.Now()
			code := run(app.DefaultCommand, []string{"-addr", "127.0.0.1:0", "-data-dir", t.TempDir()}, func(k string) string { return env[k] }, &stdout, &stderr)
			if code != 2 {
				t.Fatalf("exit %d, want 2; stderr %q", code, stderr.String())
			}
			msg := stderr.String()
			if strings.Count(msg, "\n") != 1 || !strings.HasPrefix(msg, tc.prefix) {
				t.Fatalf("stderr %q, want one line starting %q", msg, tc.prefix)
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

// CHECKOUT_GATEWAY_START_CHECK=degraded starts a checkout whose gateway is down, and says so.
func TestGatewayDegradedStart(t *testing.T) {
	env := map[string]string{"CHECKOUT_GATEWAY_URL": "http://" + closedAddress(t) + "/v1", "CHECKOUT_GATEWAY_CLIENT_ID": "merchant",
		"CHECKOUT_GATEWAY_CLIENT_SECRET": "merchant-secret", "CHECKOUT_GATEWAY_START_TIMEOUT": "1s",
		"CHECKOUT_GATEWAY_START_CHECK": "degraded", "CHECKOUT_DEMO_ADDR": "off"}
	cfg, err := app.Load(func(k string) string { return env[k] }, []string{"-addr", "127.0.0.1:0", "-data-dir", t.TempDir()})
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
}
