package main

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/cmd/checkout/app"
	"github.com/pixcheckout/pixcheckout/gatewayclient/ratelimit"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
)

// BenchmarkShoppers runs the load tool's 16 shoppers against a whole app in this process (SQLite,
// the embedded sandbox with its transaction limit lifted, webhooks on), b.N orders in all, and
// reports orders per second and the order POST's p99. Client and server share the process, so
// `-cpuprofile` shows where an order's time goes on both sides:
//
//	go test -run '^$' -bench Shoppers -benchtime 2000x -cpuprofile cpu.out ./cmd/loadtest/
func BenchmarkShoppers(b *testing.B) {
	cfg, err := app.Load(func(string) string { return "" }, []string{"-data-dir", b.TempDir(), "-addr", "127.0.0.1:0"})
	if err != nil {
		b.Fatal(err)
	}
	cfg.NewCartLimit = ratelimit.Rate{Off: true}
	cfg.SandboxRateLimit = sandbox.RateLimit{Requests: 1_000_000, Period: time.Second, Burst: 1_000_000}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	a, err := app.New(ctx, cfg, ln)
	if err != nil {
		b.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- a.Serve(ctx) }()
	defer func() {
		cancel()
		<-served
		a.Close()
	}()
	<-a.Ready()

	r := newRunner(options{url: a.URL(), shoppers: 16, duration: time.Hour, timeout: 10 * time.Second,
		product: "ebook-receitas-do-cerrado", orders: b.N})
	b.ResetTimer()
	rep := r.run(context.Background())
	b.StopTimer()
	if len(rep.errs) > 0 {
		for k, n := range rep.errs {
			b.Errorf("%d× %s", n, k)
		}
	}
	b.ReportMetric(float64(rep.orders)/rep.elapsed.Seconds(), "orders/s")
	for _, s := range rep.steps {
		if s.name == stepOrder {
			b.ReportMetric(float64(s.p99.Microseconds())/1000, "orderPOST-p99-ms")
		}
	}
	b.ReportMetric(float64(rep.slow), "over-1s")
}
