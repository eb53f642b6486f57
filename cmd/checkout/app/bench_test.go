package app_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/cmd/checkout/app"
)

// BenchmarkSandboxPayToSSE measures the delay from the shopper's sandbox-pay to the paid status
// reaching an open SSE stream of the PIX page, through the whole app (the gateway client calls
// the embedded sandbox over HTTP). Each iteration places an order and opens its stream outside
// the measured span; p50 and p95 are reported in milliseconds.
func BenchmarkSandboxPayToSSE(b *testing.B) {
	// Only the page's own path counts: no reconciler.
	r := start(b, func(c *app.Config) { c.ReconcileInterval = 0 })
	a := r.app
	delays := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		pay := r.placeOrder()
		lines, body := r.stream(pay)
		if !benchWait(lines, `"awaiting_payment"`) {
			b.Fatal("stream ended before the first status")
		}
		b.StartTimer()
		start := time.Now()
		res, err := r.http.Post(a.URL()+pay+"/sandbox-pay", "application/x-www-form-urlencoded", strings.NewReader(""))
		if err != nil {
			b.Fatal(err)
		}
		res.Body.Close()
		if !benchWait(lines, `"paid"`) {
			b.Fatal("stream ended before paid")
		}
		delays = append(delays, time.Since(start))
		b.StopTimer()
		body.Close()
	}
	slices.Sort(delays)
	ms := func(q float64) float64 {
		return float64(delays[int(q*float64(len(delays)-1))]) / float64(time.Millisecond)
	}
	b.ReportMetric(ms(0.50), "p50-ms")
	b.ReportMetric(ms(0.95), "p95-ms")
}

// benchWait waits for a data line containing want (the stream's own end bounds the wait).
func benchWait(lines <-chan string, want string) bool {
	timeout := time.After(30 * time.Second)
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				return false
			}
			if strings.HasPrefix(l, "data: ") && strings.Contains(l, want) {
				return true
			}
		case <-timeout:
			return false
		}
	}
}
