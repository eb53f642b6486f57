package checkout_test

import (
	"context"
	"flag"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/audit"
	"github.com/pixcheckout/pixcheckout/checkout/charges"
	"github.com/pixcheckout/pixcheckout/checkout/subscriptions"
)

var issueCount = flag.Int("subs.count", 10000, "subscriptions whose charges BenchmarkIssueSubscriptions issues")

// BenchmarkIssueSubscriptions issues the charges of -subs.count subscriptions all due within
// the lead days (SQLite, each charge through the charges' manager with its audit entry, the
// issuer's pause between batches as the app sets it) while 8 shoppers place orders, and reports
// how long the issue took and the orders' p99 before and during it.
func BenchmarkIssueSubscriptions(b *testing.B) {
	// -short (the test command's run, which only keeps it working): a few, a short baseline.
	n, baseline := *issueCount, 5*time.Second
	if testing.Short() {
		n, baseline = 50, 500*time.Millisecond
	}
	e := newEnv(b)
	now := time.Now()
	clock := func() time.Time { return now }
	lg := audit.New(e.store, 24*time.Hour, clock)
	m := subscriptions.NewManager(e.store, charges.NewManager(e.store, lg, clock), lg, clock,
		subscriptions.WithPause(5*time.Millisecond))
	today := charges.Today(now)
	in := subscriptions.Input{Customer: charges.Customer{Name: "Maria da Silva", Document: "529.982.247-25",
		Email: "maria@example.com"}, Description: "Mensalidade", Terms: charges.Terms{Amount: 12345, FineBps: 200},
		Schedule: subscriptions.Schedule{DayOfMonth: charges.AddDays(today, 5).Day, Start: today}}
	for range n {
		if _, err := m.Create(e.ctx, "", "", in); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		before := e.shop(b, baseline, nil)
		done := make(chan struct{})
		var took time.Duration
		var issued int
		var err error
		go func() {
			defer close(done)
			start := time.Now()
			issued, err = m.Issue(context.Background())
			took = time.Since(start)
		}()
		during := e.shop(b, 0, done)
		if err != nil || issued != n {
			b.Fatalf("issued %d of %d: %v", issued, n, err)
		}
		b.ReportMetric(took.Seconds(), "issue-s")
		b.ReportMetric(p99(before), "p99-before-ms")
		b.ReportMetric(p99(during), "p99-during-ms")
		b.ReportMetric(float64(len(during))/took.Seconds(), "orders/s-during")
	}
}

// shop has 8 shoppers place orders for d, or until done is closed, and returns each order's
// time in milliseconds.
func (e *env) shop(b *testing.B, d time.Duration, done chan struct{}) []float64 {
	if done == nil {
		done = make(chan struct{})
		time.AfterFunc(d, func() { close(done) })
	}
	var mu sync.Mutex
	var out []float64
	var wg sync.WaitGroup
	cust := customer()
	for range 8 {
		wg.Go(func() {
			for {
				select {
				case <-done:
					return
				default:
				}
				start := time.Now()
				c, err := e.svc.NewCart(e.ctx)
				if err == nil {
					_, err = e.svc.AddToCart(e.ctx, c.ID, ebook, 1)
				}
				if err == nil {
					_, err = e.svc.PlaceOrder(e.ctx, checkout.PlaceOrderInput{Source: c.ID, RequestKey: checkout.NewID(), Customer: cust})
				}
				if err != nil {
					b.Error(err)
					return
				}
				mu.Lock()
				out = append(out, float64(time.Since(start).Microseconds())/1000)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return out
}

// p99 is the 99th percentile of ms.
func p99(ms []float64) float64 {
	if len(ms) == 0 {
		return 0
	}
	slices.Sort(ms)
	return ms[len(ms)*99/100]
}
