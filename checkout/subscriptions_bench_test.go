package checkout_test

import (
	"context"
	"flag"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/audit"
	"github.com/pixcheckout/pixcheckout/checkout/charges"
	"github.com/pixcheckout/pixcheckout/checkout/mail"
	"github.com/pixcheckout/pixcheckout/checkout/mail/chargemail"
	"github.com/pixcheckout/pixcheckout/checkout/notify"
	"github.com/pixcheckout/pixcheckout/checkout/postgres"
	"github.com/pixcheckout/pixcheckout/checkout/postgres/pgtest"
	"github.com/pixcheckout/pixcheckout/checkout/subscriptions"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/views/email"
	"github.com/pixcheckout/pixcheckout/web/apijson"
)

var (
	issueCount    = flag.Int("subs.count", 10000, "subscriptions whose charges BenchmarkIssueSubscriptions issues")
	issuePostgres = flag.Bool("subs.postgres", false, "BenchmarkIssueSubscriptions: on PostgreSQL instead of SQLite")
)

// issueStore is what the issue's benchmark needs of a store: the shop's, the charges', the
// subscriptions' and the audit log's.
type issueStore interface {
	checkout.Store
	charges.Store
	subscriptions.Store
	audit.Store
}

// BenchmarkIssueSubscriptions issues the charges of -subs.count subscriptions all due within
// the lead days while 8 shoppers place orders through the same store, and reports how long the
// issue took and the orders' p99 before and during it. The issuer is the app's: each charge
// through the charges' manager with its audit entry, its notification and its customer's
// reminders (the default schedule), the pause between batches, and on PostgreSQL
// (-subs.postgres, a database of its own on the test server) four subscriptions at once.
func BenchmarkIssueSubscriptions(b *testing.B) {
	// -short (the test command's run, which only keeps it working): a few, a short baseline.
	n, baseline := *issueCount, 5*time.Second
	if testing.Short() {
		n, baseline = 10, 200*time.Millisecond
	}
	e := newEnv(b)
	var store issueStore = e.store
	opts := []subscriptions.Option{subscriptions.WithPause(5 * time.Millisecond)}
	if *issuePostgres {
		pg, err := postgres.Open(e.ctx, pgtest.Database(b, "subsbench_"))
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { pg.Close() })
		if err := checkout.SeedDemoCatalogue(e.ctx, pg); err != nil {
			b.Fatal(err)
		}
		store = pg
		e.svc = checkout.NewService(pg, e.gw, checkout.ServiceOptions{MerchantName: "Loja Teste", Clock: e.sb.Now,
			Logger: slog.New(slog.DiscardHandler), QRImage: fakeQRImage})
		b.Cleanup(e.svc.Close)
		opts = append(opts, subscriptions.WithWorkers(4))
	}
	now := time.Now()
	clock := func() time.Time { return now }
	lg := audit.New(store, 24*time.Hour, clock)
	announce := charges.WithAnnouncer(charges.Announcers{
		&notify.ChargeAnnouncer{Charge: apijson.ChargeEvent("https://loja.example.com.br"), Clock: clock},
		&chargemail.Announcer{Composer: &mail.Composer{PublicURL: "https://loja.example.com.br"},
			Face: func(context.Context) (email.Frame, views.Merchant, error) {
				return email.Frame{StoreName: "Loja Teste", PublicURL: "https://loja.example.com.br"},
					views.Merchant{LegalName: "Loja Teste Ltda"}, nil
			}},
	})
	m := subscriptions.NewManager(store, charges.NewManager(store, lg, clock, announce), lg, clock, opts...)
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
		b.ReportMetric(float64(len(before))/baseline.Seconds(), "orders/s-before")
	}
}

// shop has 8 shoppers (2 with -short) place orders for d, or until done is closed, and returns
// each order's time in milliseconds.
func (e *env) shop(b *testing.B, d time.Duration, done chan struct{}) []float64 {
	if done == nil {
		done = make(chan struct{})
		time.AfterFunc(d, func() { close(done) })
	}
	var mu sync.Mutex
	var out []float64
	var wg sync.WaitGroup
	cust := customer()
	shoppers := 8
	if testing.Short() {
		shoppers = 2
	}
	for range shoppers {
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
