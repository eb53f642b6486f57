package main

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/cmd/checkout/app"
	"github.com/pixcheckout/pixcheckout/gatewayclient/ratelimit"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
)

// startApp runs a whole app with the embedded sandbox (changed by mod) and returns its URL.
func startApp(t *testing.T, mod func(*app.Config)) string {
	t.Helper()
	cfg, err := app.Load(func(string) string { return "" }, []string{"-data-dir", t.TempDir(), "-addr", "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	cfg.NewCartLimit = ratelimit.Rate{Off: true}
	if mod != nil {
		mod(&cfg)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	a, err := app.New(ctx, cfg, ln)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- a.Serve(ctx) }()
	t.Cleanup(func() {
		cancel()
		<-served
		a.Close()
	})
	<-a.Ready()
	return a.URL()
}

// TestLoadtestAgainstTheApp runs the tool for a moment against a whole app with the embedded
// sandbox: orders are placed and paid, with no error, and the report names every step.
func TestLoadtestAgainstTheApp(t *testing.T) {
	url := startApp(t, nil)
	var out, errOut strings.Builder
	code := run(context.Background(), []string{"-url", url, "-shoppers", "2", "-duration", "3s", "-pay", "-timeout", "20s"}, &out, &errOut)
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

// TestLoadtestFollowsQRCodesBeingMade: against a gateway that lets few transactions through,
// the checkout answers most orders with a page saying the QR code is being made; the tool
// follows those pages to their QR codes, as a shopper's page does, and reports the wait as a
// step of its own instead of an error.
func TestLoadtestFollowsQRCodesBeingMade(t *testing.T) {
	url := startApp(t, func(c *app.Config) {
		// One transaction every 2 s: of the four shoppers' orders, placed at once, three wait,
		// however slowly a loaded machine places them (at 4 a second, with the run cut at 3 s,
		// such a machine once placed one order and never met the limit).
		c.SandboxRateLimit = sandbox.RateLimit{Requests: 1, Period: 2 * time.Second, Burst: 1}
	})
	var out, errOut strings.Builder
	// One order each, each to its QR code: the run ends when the last one is drawn.
	code := run(context.Background(), []string{"-url", url, "-shoppers", "4", "-orders", "4", "-duration", "1m", "-timeout", "20s"}, &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d: %s%s", code, out.String(), errOut.String())
	}
	report := out.String()
	for _, want := range []string{"orders: 4 ", "errors: 0;", stepQRWait, stepQR} {
		if !strings.Contains(report, want) {
			t.Errorf("report lacks %q:\n%s", want, report)
		}
	}
}
