package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/pixcheckout/pixcheckout/cmd/checkout/app"
)

// TestAPIKeyCommands: create prints a key once, list shows it without the key, the server
// accepts it, revoke refuses it from then on; mistakes exit 1 or 2 with one line.
func TestAPIKeyCommands(t *testing.T) {
	t.Parallel()
	dir := madeDataDir(t)
	env := func(k string) string {
		if k == "CHECKOUT_DATA_DIR" {
			return dir
		}
		return ""
	}
	cli := func(args ...string) (int, string, string) {
		var out, errOut strings.Builder
		code := run(app.DefaultCommand, args, env, &out, &errOut)
		return code, out.String(), errOut.String()
	}
	code, out, _ := cli("apikey", "create", "loja", "online")
	m := regexp.MustCompile(`(?m)^API key (key_\S+) \(loja online, write\) created\nkey \(shown only now\): (pxk_\S+)$`).FindStringSubmatch(out)
	if code != 0 || m == nil {
		t.Fatalf("create: %d %q", code, out)
	}
	id, secret := m[1], m[2]
	code, out, _ = cli("apikey", "create", "-scope", "read", "relatórios")
	r := regexp.MustCompile(`(?m)^API key key_\S+ \(relatórios, read\) created\nkey \(shown only now\): (pxk_\S+)$`).FindStringSubmatch(out)
	if code != 0 || r == nil {
		t.Fatalf("create -scope read: %d %q", code, out)
	}
	readSecret := r[1]
	code, out, _ = cli("apikey", "list")
	if code != 0 || !strings.Contains(out, id) || !regexp.MustCompile(`loja online +write `).MatchString(out) ||
		!regexp.MustCompile(`relatórios +read `).MatchString(out) || strings.Contains(out, secret) || !strings.Contains(out, " cli ") {
		t.Fatalf("list: %d %q", code, out)
	}

	// The server, on the same data dir, accepts the key.
	status := func(method, secret string) int {
		t.Helper()
		cfg, err := app.Load(env, []string{"-addr", "127.0.0.1:0"})
		if err != nil {
			t.Fatal(err)
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		a, err := app.New(ctx, cfg, ln)
		if err != nil {
			cancel()
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- a.Serve(ctx) }()
		<-a.Ready()
		defer func() {
			cancel()
			<-done
			_ = a.Close()
		}()
		path := "/api/v1/orders"
		var body io.Reader
		if method == http.MethodPost {
			path, body = "/api/v1/checkout-sessions", strings.NewReader(`{}`)
		}
		req, _ := http.NewRequest(method, a.URL()+path, body)
		req.Header.Set("Authorization", "Bearer "+secret)
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	if st := status(http.MethodGet, secret); st != http.StatusOK {
		t.Fatalf("the server answered %d to the new key", st)
	}
	if st := status(http.MethodGet, readSecret); st != http.StatusOK {
		t.Errorf("the server answered %d to a read key's GET", st)
	}
	if st := status(http.MethodPost, readSecret); st != http.StatusForbidden {
		t.Errorf("the server answered %d to a read key's POST, want 403", st)
	}
	if code, out, _ := cli("apikey", "revoke", id); code != 0 || !strings.Contains(out, "revoked") {
		t.Fatalf("revoke: %d %q", code, out)
	}
	if st := status(http.MethodGet, secret); st != http.StatusUnauthorized {
		t.Errorf("the server answered %d to a revoked key, want 401", st)
	}
	if _, out, _ := cli("apikey", "list"); !regexp.MustCompile(id + `.*\d{4}-\d\d-\d\dT.*Z\s*$`).MatchString(out) {
		t.Errorf("list does not show the revocation: %q", out)
	}

	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"apikey", "revoke", "key_unknown"}, 1, "no API key has that id"},
		{[]string{"apikey", "create", "   "}, 1, "the name is required"},
		{[]string{"apikey", "create", "-scope", "admin", "x"}, 2, "-scope must be read or write"},
		{[]string{"apikey", "rotate"}, 2, "Usage:"},
		{[]string{"apikey"}, 2, "Usage:"},
		{[]string{"apikey", "list", "extra"}, 2, "Usage:"},
		{[]string{"apikey", "list", "-database-url", "mysql://x"}, 2, "config: -database-url: "},
	} {
		code, _, errOut := cli(tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.msg) {
			t.Errorf("%v: %d %q; want %d and %q", tc.args, code, errOut, tc.code, tc.msg)
		}
	}
	if code, _, errOut := cli("apikey", "-h"); code != 0 || !strings.Contains(errOut, "checkout apikey create [-scope read|write] NAME") {
		t.Errorf("-h: %d %q", code, errOut)
	}
}
