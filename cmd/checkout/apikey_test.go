package main

import (
	"context"
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
	m := regexp.MustCompile(`(?m)^API key (key_\S+) \(loja online\) created\nkey \(shown only now\): (pxk_\S+)$`).FindStringSubmatch(out)
	if code != 0 || m == nil {
		t.Fatalf("create: %d %q", code, out)
	}
	id, secret := m[1], m[2]
	code, out, _ = cli("apikey", "list")
	if code != 0 || !strings.Contains(out, id) || !strings.Contains(out, "loja online") || strings.Contains(out, secret) {
		t.Fatalf("list: %d %q", code, out)
	}

	// The server, on the same data dir, accepts the key.
	status := func() int {
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
		req, _ := http.NewRequest("GET", a.URL()+"/api/v1/orders", nil)
		req.Header.Set("Authorization", "Bearer "+secret)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	if st := status(); st != http.StatusOK {
		t.Fatalf("the server answered %d to the new key", st)
	}
	if code, out, _ := cli("apikey", "revoke", id); code != 0 || !strings.Contains(out, "revoked") {
		t.Fatalf("revoke: %d %q", code, out)
	}
	if st := status(); st != http.StatusUnauthorized {
		t.Errorf("the server answered %d to a revoked key, want 401", st)
	}
	if _, out, _ := cli("apikey", "list"); !regexp.MustCompile(id + `.*\d{4}-\d\d-\d\dT.*Z\s*$`).MatchString(strings.TrimSpace(out)) {
		t.Errorf("list does not show the revocation: %q", out)
	}

	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"apikey", "revoke", "key_unknown"}, 1, "no API key has that id"},
		{[]string{"apikey", "create", "   "}, 1, "the name is required"},
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
	if code, _, errOut := cli("apikey", "-h"); code != 0 || !strings.Contains(errOut, "checkout apikey create NAME") {
		t.Errorf("-h: %d %q", code, errOut)
	}
}
