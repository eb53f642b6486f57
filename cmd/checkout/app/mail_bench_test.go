package app_test

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/mail"
	"github.com/pixcheckout/pixcheckout/checkout/mail/mailtest"
	"github.com/pixcheckout/pixcheckout/cmd/checkout/app"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
)

var (
	benchReceiptPayments = flag.Int("receipts.payments", 480, "BenchmarkReceiptDelay: payments by 16 shoppers")
	benchReceiptBurst    = flag.Int("receipts.burst", 1000, "BenchmarkReceiptBurst: payments in the burst")
	benchQueued          = flag.Int("receipts.queued", 10000, "BenchmarkMailQueueMemory: messages queued")
)

// mailBench is an app sending its e-mails to a real SMTP server over loopback TCP (STARTTLS,
// AUTH PLAIN), the sandbox's transaction limit lifted, and the time each shopper's e-mail
// reached the server.
type mailBench struct {
	*running
	smtp    *mailtest.Server
	mu      sync.Mutex
	arrived map[string][]time.Time // by recipient
	got     chan string            // recipients, as their messages arrive
}

func startMailBench(b *testing.B) *mailBench {
	m := &mailBench{smtp: mailtest.Start(b), arrived: map[string][]time.Time{}, got: make(chan string, 1<<16)}
	m.smtp.OnData(func(r mailtest.Received) {
		at := time.Now()
		m.mu.Lock()
		for _, to := range r.To {
			m.arrived[to] = append(m.arrived[to], at)
		}
		m.mu.Unlock()
		for _, to := range r.To {
			m.got <- to
		}
	})
	m.running = start(b, func(c *app.Config) {
		c.SMTPURL, c.MailFrom, c.MailRootCAs = m.smtp.URL, "Loja Demo <loja@example.com.br>", m.smtp.RootCAs
		c.SandboxRateLimit = sandbox.RateLimit{Requests: 1_000_000, Period: time.Second, Burst: 1_000_000}
	})
	return m
}

// shopperAddress is the e-mail of the shopper of the i-th order: one address per order, so
// that each receipt is told from the others by its recipient.
func shopperAddress(i int) string { return fmt.Sprintf("comprador-%d@example.com", i) }

// order places an order of the e-book for the i-th shopper, awaiting payment (nil after
// reporting an error).
func (m *mailBench) order(b *testing.B, i int) *checkout.Order {
	ctx := context.Background()
	svc := m.app.Service()
	c, err := svc.AddToCart(ctx, "", "ebook-receitas-do-cerrado", 1)
	if err != nil {
		b.Error(err)
		return nil
	}
	o, err := placeAwaiting(ctx, svc, checkout.PlaceOrderInput{Source: c.ID, RequestKey: checkout.NewRequestKey(c, 0),
		Customer: checkout.Customer{Name: "João Souza", Document: "52998224725", Email: shopperAddress(i), Phone: "11987654321"}})
	if err != nil {
		b.Errorf("placing an order: %v", err)
		return nil
	}
	return o
}

// placeAwaiting places an order and returns it awaiting payment: at once, or, when it came
// back pending (the gateway slower than the shopper's wait, as under the race detector on a
// loaded machine), once its completion in the background reached its subscribers (what the
// shopper's status stream listens to), within 30 s.
func placeAwaiting(ctx context.Context, svc *checkout.Service, in checkout.PlaceOrderInput) (*checkout.Order, error) {
	o, err := svc.PlaceOrder(ctx, in)
	if err != nil || o.Status == checkout.StatusAwaitingPayment {
		return o, err
	}
	events, stop := svc.Subscribe(o.ID)
	defer stop()
	deadline := time.After(30 * time.Second)
	for {
		if o, err = svc.Order(ctx, o.ID); err != nil || o.Status == checkout.StatusAwaitingPayment {
			return o, err
		}
		if o.Status != checkout.StatusPending {
			return nil, fmt.Errorf("order %s came back %s", o.Number, o.Status)
		}
		select {
		case <-events:
		case <-deadline:
			return nil, fmt.Errorf("order %s still pending after 30 s", o.Number)
		}
	}
}

// pay pays o at the gateway, as the shopper's bank would.
func (m *mailBench) pay(b *testing.B, o *checkout.Order) {
	if o == nil {
		return
	}
	path := "/sandbox/deposits/" + url.PathEscape(o.CurrentAttempt().TransactionID) + "/pay"
	if err := m.app.Gateway().Do(context.Background(), http.MethodPost, path, nil, nil); err != nil {
		b.Error(err)
	}
}

// waitReceipts waits until each of the shoppers' addresses has received an e-mail, or fails.
func (m *mailBench) waitReceipts(b *testing.B, addrs map[string]bool, timeout time.Duration) {
	deadline := time.After(timeout)
	for len(addrs) > 0 {
		select {
		case to := <-m.got:
			delete(addrs, to)
		case <-deadline:
			b.Fatalf("%d receipts had not reached the SMTP server after %s", len(addrs), timeout)
		}
	}
}

// first is when the first e-mail to addr arrived, and how many did.
func (m *mailBench) first(addr string) (time.Time, int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	ts := m.arrived[addr]
	if len(ts) == 0 {
		return time.Time{}, 0
	}
	return ts[0], len(ts)
}

// paidAt is when o turned paid, as its history says.
func (m *mailBench) paidAt(b *testing.B, o *checkout.Order) time.Time {
	o, err := m.app.Service().Order(context.Background(), o.ID)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range o.History {
		if c.To == checkout.StatusPaid {
			return c.At
		}
	}
	b.Fatalf("order %s has no paid entry", o.Number)
	return time.Time{}
}

// inParallel runs fn(i) for i in [0, n) on workers goroutines.
func inParallel(n, workers int, fn func(i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				fn(i)
			}
		})
	}
	wg.Wait()
}

// BenchmarkReceiptDelay: 16 shoppers each place an order and pay it, again and again; the
// delay from the order turning paid (the payment landed: the gateway's webhook received, the
// order and its receipt committed) to the receipt in the SMTP server's mailbox, and from the
// payment at the gateway to the receipt. p50, p95 and max in seconds.
//
//	go test -run '^$' -bench ReceiptDelay -benchtime 1x ./cmd/checkout/app/ -receipts.payments 480
//
// With -short (the test command) 16 payments, 16 shoppers at once: enough to keep the benchmark
// working, not a figure.
func BenchmarkReceiptDelay(b *testing.B) {
	n := *benchReceiptPayments
	if testing.Short() {
		n = min(n, 16)
	}
	m := startMailBench(b)
	orders, payAt := make([]*checkout.Order, n), make([]time.Time, n)
	b.ResetTimer()
	inParallel(n, 16, func(i int) {
		orders[i] = m.order(b, i)
		payAt[i] = time.Now()
		m.pay(b, orders[i])
	})
	if b.Failed() {
		return
	}
	addrs := map[string]bool{}
	for i := range n {
		addrs[shopperAddress(i)] = true
	}
	m.waitReceipts(b, addrs, 5*time.Minute)
	b.StopTimer()
	fromPaid, fromPay := make([]time.Duration, n), make([]time.Duration, n)
	for i, o := range orders {
		at, _ := m.first(shopperAddress(i))
		fromPaid[i], fromPay[i] = at.Sub(m.paidAt(b, o)), at.Sub(payAt[i])
	}
	for _, d := range []struct {
		name   string
		delays []time.Duration
	}{{"paid-to-receipt", fromPaid}, {"pay-to-receipt", fromPay}} {
		slices.Sort(d.delays)
		q := func(p float64) float64 { return d.delays[int(p*float64(n-1))].Seconds() }
		b.ReportMetric(q(0.5), d.name+"-p50-s")
		b.ReportMetric(q(0.95), d.name+"-p95-s")
		b.ReportMetric(q(1), d.name+"-max-s")
	}
}

// BenchmarkReceiptBurst: the orders of -receipts.burst shoppers are placed, then all paid at
// once at the gateway (16 at a time); the time from the burst's start to the last receipt in
// the SMTP server's mailbox, the SMTP connections the burst opened, and the e-mails received
// per receipt (1: none doubled).
//
//	go test -run '^$' -bench ReceiptBurst -benchtime 1x ./cmd/checkout/app/ -receipts.burst 1000
//
// With -short (the test command) a burst of 16, paid at once.
func BenchmarkReceiptBurst(b *testing.B) {
	n := *benchReceiptBurst
	if testing.Short() {
		n = min(n, 16)
	}
	m := startMailBench(b)
	orders := make([]*checkout.Order, n)
	inParallel(n, 8, func(i int) { orders[i] = m.order(b, i) })
	if b.Failed() {
		return
	}
	addrs := map[string]bool{}
	for i := range n {
		addrs[shopperAddress(i)] = true
	}
	conns := m.smtp.Conns()
	b.ResetTimer()
	t0 := time.Now()
	inParallel(n, 16, func(i int) { m.pay(b, orders[i]) })
	if b.Failed() {
		return
	}
	m.waitReceipts(b, addrs, 5*time.Minute)
	took := time.Since(t0)
	b.StopTimer()
	copies := 0
	for i := range n {
		_, c := m.first(shopperAddress(i))
		copies += c
	}
	var lastPaid time.Time
	for _, o := range orders {
		if at := m.paidAt(b, o); at.After(lastPaid) {
			lastPaid = at
		}
	}
	b.ReportMetric(lastPaid.Sub(t0).Seconds(), "all-paid-s")
	b.ReportMetric(took.Seconds(), "burst-s")
	b.ReportMetric(float64(n)/took.Seconds(), "receipts/s")
	b.ReportMetric(float64(m.smtp.Conns()-conns), "smtp-conns")
	b.ReportMetric(float64(copies)/float64(n), "copies/receipt")
}

// BenchmarkMailQueueMemory: with the SMTP server down, -receipts.queued orders are paid and
// their receipts wait in the outbox (each tried once, refused a connection, and waiting for
// its retry); the Go heap in use after a collection grows by heap-B/msg for each, and the
// process's resident set by rss-B/msg, to compare with the receipt's own size, msg-B (its
// text and HTML): a waiting message is kept in the database, not in memory.
//
//	go test -run '^$' -bench MailQueueMemory -benchtime 1x ./cmd/checkout/app/ -receipts.queued 10000
//
// With -short (the test command) 16 messages.
func BenchmarkMailQueueMemory(b *testing.B) {
	n := *benchQueued
	if testing.Short() {
		n = min(n, 16)
	}
	m := startMailBench(b)
	m.smtp.Stop()
	orders := make([]*checkout.Order, n)
	inParallel(n, 8, func(i int) { orders[i] = m.order(b, i) })
	if b.Failed() {
		return
	}
	heap0, rss0 := heapInUse(), residentSet(b)
	b.ResetTimer()
	inParallel(n, 16, func(i int) { m.pay(b, orders[i]) })
	if b.Failed() {
		return
	}
	// Every receipt made and tried once: all of them wait in the outbox. One sent would never
	// wait there: fail at once rather than wait out the deadline.
	for deadline := time.Now().Add(5 * time.Minute); ; time.Sleep(100 * time.Millisecond) {
		tried := m.waitingTried(b)
		if tried >= n {
			break
		}
		if sent, err := m.app.MailLog().List(context.Background(), mail.Filter{State: mail.Sent, Limit: 1}); err != nil {
			b.Fatal(err)
		} else if len(sent) > 0 {
			b.Fatalf("a receipt reached the SMTP server, which is down (%d of %d receipts tried and waiting)", tried, n)
		}
		if time.Now().After(deadline) {
			b.Fatalf("%d of %d receipts tried after 5 minutes", tried, n)
		}
	}
	b.StopTimer()
	heap1, rss1 := heapInUse(), residentSet(b)
	es, err := m.app.MailLog().List(context.Background(), mail.Filter{Limit: 1})
	if err != nil || len(es) == 0 {
		b.Fatalf("the e-mail log: %v", err)
	}
	b.ReportMetric(float64(len(es[0].Content.Text)+len(es[0].Content.HTML)), "msg-B")
	b.ReportMetric((float64(heap1)-float64(heap0))/float64(n), "heap-B/msg")
	b.ReportMetric((float64(rss1)-float64(rss0))/float64(n), "rss-B/msg")
}

// waitingTried counts the e-mails queued after an attempt, reading the whole log page by page.
func (m *mailBench) waitingTried(b *testing.B) int {
	tried := 0
	for f := (mail.Filter{State: mail.Queued, Limit: 1000}); ; {
		es, err := m.app.MailLog().List(context.Background(), f)
		if err != nil {
			b.Fatal(err)
		}
		for _, e := range es {
			if e.Attempts > 0 {
				tried++
			}
		}
		if len(es) < f.Limit {
			return tried
		}
		f.BeforeID = es[len(es)-1].ID
	}
}

// heapInUse is the Go heap's live bytes after a collection.
func heapInUse() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// residentSet is the process's resident set in bytes (Linux), 0 elsewhere.
func residentSet(b *testing.B) uint64 {
	statm, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	var size, rss uint64
	if _, err := fmt.Sscan(string(statm), &size, &rss); err != nil {
		b.Fatal(err)
	}
	return rss * uint64(os.Getpagesize())
}
