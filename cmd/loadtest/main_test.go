package main

import (
	"context"
	"net"
	"strings"
	"testing"

	"github.com/pixcheckout/pixcheckout/cmd/checkout/app"
	"github.com/pixcheckout/pixcheckout/web"
)

// TestLoadtestAgainstTheApp runs the tool for a moment against a whole app with the embedded
// sandbox: orders are placed and paid, with no error, and the report names every step.
func TestLoadtestAgainstTheApp(t *testing.T) {
	cfg, err := app.Load(func(string) string { return "" }, []string{"-data-dir", t.TempDir(), "-addr", "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	cfg.NewCartLimit = web.Rate{Off: true}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	a, err := app.New(ctx, cfg, ln)
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- a.Serve(ctx) }()
	defer func() {
		cancel()
		<-served
		a.Close()
	}()
	<-a.Ready()

	var out, errOut strings.Builder
	code := run(context.Background(), []string{"-url", a.URL(), "-shoppers", "2", "-duration", "3s", "-pay", "-timeout", "20s"}, &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d: %s%s", code, out.String(), errOut.String())
	}
	report := out.String()
	for _, want := range []string{"orders/s", "errors: 0;", stepOrder, stepQR, stepPaid} {
		if !strings.Contains(report, want) {
			t.Errorf("report lacks %q:\n%s", want, report)
		}
	}
}
