package app_test

import (
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout/postgres/pgtest"
	"github.com/pixcheckout/pixcheckout/cmd/checkout/app"
	"github.com/pixcheckout/pixcheckout/gatewayclient/ratelimit"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
)

// postgresDatabase creates an empty PostgreSQL database for one test (dropped at its end) and
// returns its URL (see pgtest.Database).
func postgresDatabase(t testing.TB) string {
	t.Helper()
	return pgtest.Database(t, "checkout_app_test_")
}

func TestFlowOnPostgreSQL(t *testing.T) {
	t.Parallel()
	dbURL := postgresDatabase(t)
	r := start(t, func(c *app.Config) { c.DatabaseURL = dbURL; c.MetricsAddr = "127.0.0.1:0" })
	res, _ := r.get("/readyz")
	if res.StatusCode != 200 {
		t.Fatalf("/readyz on PostgreSQL: %d", res.StatusCode)
	}
	_, doc := r.get("/")
	if doc.Find(`[data-testid="product-card"]`).Length() < 2 {
		t.Fatal("no seeded catalogue in PostgreSQL")
	}
	pay := r.placeOrder()
	stream := r.follow(pay)
	stream.wait(t, `"awaiting_payment"`)
	r.payAtGateway(pay)
	stream.wait(t, `"paid"`)
	// The metrics read PostgreSQL too (the notifications' backlog).
	fams := r.scrape()
	if value(fams, "checkout_orders_placed_total") != 1 || value(fams, "checkout_orders_paid_total") != 1 ||
		value(fams, "checkout_notification_backlog") < 0 {
		t.Errorf("metrics on PostgreSQL: placed %v, paid %v, backlog %v", value(fams, "checkout_orders_placed_total"),
			value(fams, "checkout_orders_paid_total"), value(fams, "checkout_notification_backlog"))
	}
}

// TestPaymentReachesStreamsOnAnotherInstance: two instances on one PostgreSQL database; a
// payment made through instance A reaches a live page's stream open on instance B, carried by
// the database's change notifications (B neither polls nor re-reads its streams' orders).
func TestPaymentReachesStreamsOnAnotherInstance(t *testing.T) {
	t.Parallel()
	dbURL := postgresDatabase(t)
	a := start(t, func(c *app.Config) { c.DatabaseURL, c.ReconcileInterval = dbURL, 0 })
	b := start(t, func(c *app.Config) { c.DatabaseURL, c.ReconcileInterval = dbURL, 0 })
	pay := a.placeOrder()
	lines, body := b.awaitingStream(pay)
	if lines == nil {
		t.Fatal("B's stream never showed the order awaiting payment")
	}
	defer body.Close()
	if res := a.post(pay+"/sandbox-pay", url.Values{}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("sandbox-pay on A: %d", res.StatusCode)
	}
	if !waitData(t, lines, `"paid"`) {
		t.Fatal("B's stream ended before paid")
	}
}

// awaitingStream opens the stream of a PIX page whose order awaits payment, as the page does: a
// stream opened while this instance still held an older state of the order (the QR code not
// there yet) says so with a redirect to the page and ends, and the page, reloaded, opens a new
// one. It returns the stream's lines past its first status, or nil after ten tries.
func (r *running) awaitingStream(pay string) (<-chan string, io.Closer) {
	r.t.Helper()
	for range 10 {
		lines, body := r.stream(pay)
		first := ""
		for l := range lines {
			if strings.HasPrefix(l, "data: ") {
				first = l
				break
			}
		}
		if strings.Contains(first, `"awaiting_payment"`) && !strings.Contains(first, `"redirect"`) {
			return lines, body
		}
		body.Close()
		time.Sleep(10 * time.Millisecond)
	}
	return nil, nil
}

// BenchmarkPayOnAToStreamOnB measures the delay from a payment made through instance A
// (sandbox-pay, which applies it at once) to the paid status on a stream open on instance B,
// two instances on one PostgreSQL database; p50 and p95 in milliseconds.
//
//	go test -run '^$' -bench PayOnAToStreamOnB -benchtime 100x ./cmd/checkout/app/
func BenchmarkPayOnAToStreamOnB(b *testing.B) {
	dbURL := postgresDatabase(b)
	cfg := func(c *app.Config) {
		c.DatabaseURL, c.ReconcileInterval = dbURL, 0
		c.SandboxRateLimit = sandbox.RateLimit{Requests: 1_000_000, Period: time.Second, Burst: 1_000_000}
		// Every order starts a cart from the same address: past 60 the default limit refuses them.
		c.NewCartLimit = ratelimit.Rate{Off: true}
	}
	instA, instB := start(b, cfg), start(b, cfg)
	delays := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		pay := instA.placeOrder()
		lines, body := instB.awaitingStream(pay)
		if lines == nil {
			b.Fatal("B's stream never showed the order awaiting payment")
		}
		b.StartTimer()
		t0 := time.Now()
		if res := instA.post(pay+"/sandbox-pay", url.Values{}); res.StatusCode != http.StatusSeeOther {
			b.Fatalf("sandbox-pay on A: %d", res.StatusCode)
		}
		if !benchWait(lines, `"paid"`) {
			b.Fatal("B's stream ended before paid")
		}
		delays = append(delays, time.Since(t0))
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
