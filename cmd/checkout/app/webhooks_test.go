package app_test

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/cmd/checkout/app"
)

// payAtGateway pays the order's current QR code at the sandbox directly, as a shopper's bank
// would: nothing but the sandbox's webhook (or the reconciler) tells the checkout.
func (r *running) payAtGateway(pay string) {
	r.t.Helper()
	o, err := r.app.Service().Order(context.Background(), strings.TrimPrefix(pay, "/pay/"))
	if err != nil {
		r.t.Fatal(err)
	}
	if o.CurrentAttempt().TransactionID == "" {
		// The page answered before a slow gateway (the shopper's timeout, on a loaded machine):
		// the same call made again with the attempt's key stores its answer.
		if o, err = r.app.Service().EnsurePayment(context.Background(), o.ID); err != nil || o.CurrentAttempt().TransactionID == "" {
			r.t.Fatalf("the order's PIX code: %v, %v", o, err)
		}
	}
	if err := r.app.Gateway().Do(context.Background(), http.MethodPost, "/sandbox/deposits/"+o.CurrentAttempt().TransactionID+"/pay", nil, nil); err != nil {
		r.t.Fatal(err)
	}
}

func TestSandboxWebhooksReachTheReceiver(t *testing.T) {
	t.Parallel()
	r := start(t, func(c *app.Config) { c.ReconcileInterval = 0 })
	pay := r.placeOrder()
	stream := r.follow(pay)
	stream.wait(t, `"awaiting_payment"`)
	r.payAtGateway(pay)
	stream.wait(t, `"paid"`)
}

// BenchmarkGatewayPayToSSE measures the delay from a payment at the gateway to the paid status
// on an open SSE stream when only the webhook carries the news: sandbox outbox, delivery over
// loopback HTTP, signature check, queue, GET /deposit/{id}, store update, event.
func BenchmarkGatewayPayToSSE(b *testing.B) {
	r := start(b, func(c *app.Config) { c.ReconcileInterval = 0 })
	delays := make([]time.Duration, 0, b.N)
	for range b.N {
		b.StopTimer()
		pay := r.placeOrder()
		lines, body := r.stream(pay)
		if !benchWait(lines, `"awaiting_payment"`) {
			b.Fatal("stream ended before the first status")
		}
		b.StartTimer()
		start := time.Now()
		r.payAtGateway(pay)
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

// TestSandboxClockAdvanceKeepsTheCountdown: after the embedded sandbox's clock is advanced, a
// new QR code's countdown shows its own 30 minutes, not 30 minutes plus the offset (in embedded
// mode the checkout runs on the sandbox's business time), and its webhooks still get through
// (with the reconciler off, only they can make the order paid).
func TestSandboxClockAdvanceKeepsTheCountdown(t *testing.T) {
	t.Parallel()
	r := start(t, func(c *app.Config) { c.ReconcileInterval = 0 })
	if err := r.app.Gateway().Do(context.Background(), http.MethodPost, "/sandbox/clock/advance", map[string]any{"seconds": 3600}, nil); err != nil {
		t.Fatal(err)
	}
	pay := r.placeOrder()
	// The page's script counts down from the server's time to the QR code's expiry, both in the
	// live status.
	res, err := http.Get(r.app.URL() + pay + "/status")
	if err != nil {
		t.Fatal(err)
	}
	var st struct{ Now, ExpiresAt time.Time }
	err = json.NewDecoder(res.Body).Decode(&st)
	res.Body.Close()
	if left := st.ExpiresAt.Sub(st.Now); err != nil || left <= 29*time.Minute || left > 30*time.Minute {
		t.Errorf("countdown %v after a clock advance (now %v, expiresAt %v, %v); want at most 30:00", left, st.Now, st.ExpiresAt, err)
	}
	// Its webhooks are still accepted: they are signed with real time, not the advanced clock.
	stream := r.follow(pay)
	stream.wait(t, `"awaiting_payment"`)
	r.payAtGateway(pay)
	stream.wait(t, `"paid"`)
}
