package app_test

import (
	"context"
	"flag"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/cmd/checkout/app"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
)

var (
	benchOpenOrders = flag.Int("open-orders", 200, "BenchmarkReconcilerIdle: orders awaiting payment")
	benchIdle       = flag.Duration("idle", 15*time.Second, "BenchmarkReconcilerIdle: how long the idle process is measured")
	benchPayments   = flag.Int("payments", 10, "BenchmarkReconcilerIdle: payments timed to paid, webhooks off")
)

// countingTransport counts the gateway client's requests by kind.
type countingTransport struct {
	lists, gets, other atomic.Int64
}

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	p := r.URL.Path
	switch {
	case r.Method == http.MethodGet && strings.HasSuffix(p, "/deposit"):
		c.lists.Add(1)
	case r.Method == http.MethodGet && strings.Contains(p, "/deposit/"):
		c.gets.Add(1)
	default:
		c.other.Add(1)
	}
	return http.DefaultTransport.RoundTrip(r)
}

func (c *countingTransport) reset() { c.lists.Store(0); c.gets.Store(0); c.other.Store(0) }

func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkReconcilerIdle measures the whole app (SQLite, the embedded sandbox, webhooks off,
// the reconciler every 5 s) holding -open-orders orders awaiting payment: the process's CPU
// while nothing happens (percent of one core, over -idle), the gateway calls a minute by kind,
// then the delay from a payment at the gateway to its order turning paid, for -payments
// payments made at random moments (the reconciler alone brings them in).
//
//	go test -run '^$' -bench ReconcilerIdle -benchtime 1x ./cmd/checkout/app/ -open-orders 10000 -idle 60s -payments 20
//
// With -short (the test command) it runs small and fast, a pass every 250 ms over 20 orders:
// enough to keep the benchmark working, not a figure.
func BenchmarkReconcilerIdle(b *testing.B) {
	openOrders, idle, payments, interval := *benchOpenOrders, *benchIdle, *benchPayments, 5*time.Second
	if testing.Short() {
		openOrders, idle, payments, interval = min(openOrders, 20), time.Second, min(payments, 2), 250*time.Millisecond
	}
	counts := &countingTransport{}
	r := start(b, func(c *app.Config) {
		c.WebhooksEnabled = false
		c.ReconcileInterval = interval
		c.SandboxRateLimit = sandbox.RateLimit{Requests: 1_000_000, Period: time.Second, Burst: 1_000_000}
		c.GatewayTransport = counts
	})
	svc := r.app.Service()
	ctx := context.Background()
	var mu sync.Mutex
	var orders []*checkout.Order
	var wg sync.WaitGroup
	next := atomic.Int64{}
	for range 8 {
		wg.Go(func() {
			for next.Add(1) <= int64(openOrders) {
				c, err := svc.AddToCart(ctx, "", "ebook-receitas-do-cerrado", 1)
				if err != nil {
					b.Error(err)
					return
				}
				o, err := placeAwaiting(ctx, svc, checkout.PlaceOrderInput{Source: c.ID, RequestKey: checkout.NewRequestKey(c, 0),
					Customer: checkout.Customer{Name: "João Souza", Document: "52998224725", Email: "joao@example.com", Phone: "11987654321"}})
				if err != nil {
					b.Errorf("placing an order: %v", err)
					return
				}
				mu.Lock()
				orders = append(orders, o)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if b.Failed() {
		return
	}
	time.Sleep(interval + time.Second) // a pass after the orders, then idle
	b.ResetTimer()
	for range b.N {
		counts.reset()
		cpu0, t0 := cpuTime(), time.Now()
		time.Sleep(idle)
		cpu, elapsed := cpuTime()-cpu0, time.Since(t0)
		perMin := func(n int64) float64 { return float64(n) / elapsed.Minutes() }
		b.ReportMetric(100*cpu.Seconds()/elapsed.Seconds(), "idle-cpu-%")
		b.ReportMetric(perMin(counts.lists.Load()), "lists/min")
		b.ReportMetric(perMin(counts.gets.Load()), "gets/min")
		b.ReportMetric(perMin(counts.other.Load()), "other-calls/min")
	}
	b.StopTimer()

	// Payments at random moments, each timed to the order's paid event.
	var delays []time.Duration
	for i := range min(payments, len(orders)) {
		o := orders[i]
		events, stop := svc.Subscribe(o.ID)
		time.Sleep(time.Duration(rand.Int64N(int64(interval))))
		t0 := time.Now()
		if err := r.app.Gateway().Do(ctx, http.MethodPost, "/sandbox/deposits/"+url.PathEscape(o.CurrentAttempt().TransactionID)+"/pay", nil, nil); err != nil {
			b.Fatal(err)
		}
		timeout := time.After(time.Minute)
	wait:
		for {
			select {
			case ev := <-events:
				if ev.Status == checkout.StatusPaid {
					delays = append(delays, time.Since(t0))
					break wait
				}
			case <-timeout:
				b.Fatalf("order %s not paid a minute after its payment", o.Number)
			}
		}
		stop()
	}
	if len(delays) > 0 {
		slices.Sort(delays)
		q := func(p float64) float64 { return delays[int(p*float64(len(delays)-1))].Seconds() }
		b.ReportMetric(q(0.5), "pay-to-paid-p50-s")
		b.ReportMetric(q(0.95), "pay-to-paid-p95-s")
		b.ReportMetric(delays[len(delays)-1].Seconds(), "pay-to-paid-max-s")
	}
}
