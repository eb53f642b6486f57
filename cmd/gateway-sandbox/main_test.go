package main

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
)

func TestParseConfig(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	c, err := parseConfig(nil, env(nil))
	if err != nil || c.Addr != "127.0.0.1:8090" || c.DataDir != "./sandbox-data" || c.ClientID != "sandbox-client" ||
		c.ClientSecret != "sandbox-secret" || c.ForwardTo != "" {
		t.Fatalf("defaults: %+v %v", c, err)
	}
	c, err = parseConfig([]string{"-client-id", "flag-client"},
		env(map[string]string{"SANDBOX_CLIENT_ID": "env-client", "SANDBOX_ADDR": ":9999", "SANDBOX_WEBHOOK_FORWARD_TO": "http://127.0.0.1:8080/hook"}))
	if err != nil || c.ClientID != "flag-client" || c.Addr != ":9999" || c.ForwardTo != "http://127.0.0.1:8080/hook" {
		t.Fatalf("env and flags: %+v %v", c, err)
	}
	if c.RateLimit != (sandbox.RateLimit{Requests: 50, Period: time.Second, Burst: 100}) {
		t.Fatalf("default rate limit %+v", c.RateLimit)
	}
	if c, err := parseConfig([]string{"-rate-limit", "off"}, env(map[string]string{"SANDBOX_RATE_LIMIT": "1000/s"})); err != nil || !c.RateLimit.Off {
		t.Fatalf("-rate-limit off: %+v %v", c.RateLimit, err)
	}
	// The former spelling of the flags still works.
	if c, err := parseConfig([]string{"-sandbox_addr", ":9091", "-sandbox_data_dir", "/tmp/sb"}, env(nil)); err != nil || c.Addr != ":9091" || c.DataDir != "/tmp/sb" {
		t.Fatalf("-sandbox_addr, -sandbox_data_dir: %+v %v", c, err)
	}
	if c, err := parseConfig(nil, env(map[string]string{"SANDBOX_RATE_LIMIT": "1000/s"})); err != nil || c.RateLimit.Requests != 1000 {
		t.Fatalf("SANDBOX_RATE_LIMIT=1000/s: %+v %v", c.RateLimit, err)
	}
	for name, tc := range map[string]struct {
		args []string
		env  map[string]string
		want string
	}{
		"bad addr":       {nil, map[string]string{"SANDBOX_ADDR": "nope"}, "SANDBOX_ADDR"},
		"short secret":   {[]string{"-client-secret", "x"}, nil, "-client-secret: "},
		"flag over env":  {[]string{"-addr", "nope"}, map[string]string{"SANDBOX_ADDR": ":9999"}, "-addr: "},
		"former flag":    {[]string{"-sandbox_rate_limit", "lots"}, nil, "-rate-limit: "},
		"env, not flag":  {[]string{"-addr", ":9999"}, map[string]string{"SANDBOX_RATE_LIMIT": "lots"}, "SANDBOX_RATE_LIMIT: "},
		"spaced id":      {nil, map[string]string{"SANDBOX_CLIENT_ID": "a b"}, "SANDBOX_CLIENT_ID"},
		"ftp forward":    {nil, map[string]string{"SANDBOX_WEBHOOK_FORWARD_TO": "ftp://x"}, "SANDBOX_WEBHOOK_FORWARD_TO"},
		"public http":    {nil, map[string]string{"SANDBOX_WEBHOOK_FORWARD_TO": "http://example.com/h"}, "SANDBOX_WEBHOOK_FORWARD_TO"},
		"unknown flag":   {[]string{"-nope"}, nil, "flags"},
		"bad rate limit": {nil, map[string]string{"SANDBOX_RATE_LIMIT": "lots"}, "SANDBOX_RATE_LIMIT"},
		"stray argument": {[]string{"extra"}, nil, "unexpected argument"},
	} {
		_, err := parseConfig(tc.args, env(tc.env))
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line naming %s", name, err, tc.want)
		}
	}
}

// syncBuffer is a bytes.Buffer safe for the server goroutine and the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestRunStartsServesAndStops(t *testing.T) {
	cfg := config{Addr: "127.0.0.1:0", DataDir: t.TempDir(), ClientID: "cli", ClientSecret: "cli-secret-1"}
	ctx, cancel := context.WithCancel(context.Background())
	addrc := make(chan string, 1)
	done := make(chan error, 1)
	var out, logs syncBuffer
	go func() {
		done <- run(ctx, cfg, &out, slog.New(slog.NewTextHandler(&logs, nil)), func(a string) { addrc <- a })
	}()
	var addr string
	select {
	case addr = <-addrc:
	case err := <-done:
		t.Fatalf("run ended early: %v", err)
	case <-time.After(30 * time.Second):
		t.Fatal("server did not start")
	}
	res, err := http.PostForm("http://"+addr+"/auth/token", url.Values{"client_id": {"cli"}, "client_secret": {"cli-secret-1"},
		"grant_type": {"client_credentials"}})
	if err != nil {
		t.Fatal(err)
	}
	var tok map[string]any
	_ = json.NewDecoder(res.Body).Decode(&tok)
	res.Body.Close()
	if res.StatusCode != 200 || tok["access_token"] == "" {
		t.Fatalf("token: %d %v", res.StatusCode, tok)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("run: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("server did not stop")
	}
	s := out.String()
	for _, want := range []string{"http://" + addr, "client id:      cli", "client secret:  cli-secret-1", "webhook secret: whsec_", "stopped"} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q:\n%s", want, s)
		}
	}
	// The log says so too, where a service manager keeps the program's lines.
	if l := logs.String(); !strings.Contains(l, `msg="stopping: finishing the requests in flight"`) || !strings.Contains(l, "msg=stopped") {
		t.Errorf("the stop is not logged:\n%s", l)
	}
}

// TestHelpListsFlagsWithDefaults: -h (and --help) print every flag with its default and the
// variable behind it, on stdout, and exit 0.
func TestHelpListsFlagsWithDefaults(t *testing.T) {
	for _, arg := range []string{"-h", "-help", "--help"} {
		var out, errOut bytes.Buffer
		code := mainExit([]string{arg}, func(k string) string {
			if k == "SANDBOX_CLIENT_SECRET" {
				return "do-not-print-me"
			}
			return ""
		}, &out, &errOut, nil)
		if code != 0 || errOut.Len() != 0 {
			t.Fatalf("%s: exit %d, stderr %q", arg, code, errOut.String())
		}
		for _, want := range []string{"-addr string", `(default "127.0.0.1:8090")`, "SANDBOX_ADDR", "-client-id string",
			`(default "sandbox-client")`, "-webhook-forward-to string", "-data-dir string", `(default "./sandbox-data")`, "-client-secret string",
			"-rate-limit string"} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("%s: usage lacks %q:\n%s", arg, want, out.String())
			}
		}
		// The former spelling works, unlisted.
		if strings.Contains(out.String(), "sandbox_") {
			t.Errorf("%s: the usage lists the former spelling:\n%s", arg, out.String())
		}
		if strings.Contains(out.String(), "do-not-print-me") {
			t.Errorf("%s: the usage shows the secret from the environment", arg)
		}
	}
}
