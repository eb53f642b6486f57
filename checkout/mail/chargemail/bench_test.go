package chargemail_test

import (
	"context"
	"flag"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout/charges"
	"github.com/pixcheckout/pixcheckout/checkout/mail/mailtest"
)

var (
	benchDueCharges  = flag.Int("reminders.charges", 100_000, "BenchmarkDueDayReminders: charges due on the day")
	benchDuePostgres = flag.Bool("reminders.postgres", false, "BenchmarkDueDayReminders: on PostgreSQL instead of SQLite")
)

// BenchmarkDueDayReminders: -reminders.charges charges due on one day, made beforehand (each
// with its due date's reminder alone: the other steps' messages are due on other days and the
// claim reads the due ones by their index), then the clock moved to 09:00 São Paulo time of
// that day: the time until the last reminder is in the SMTP server's mailbox (a real server on
// loopback, STARTTLS and AUTH PLAIN), through the outbox's workers and the sender as the app
// runs them (mail.OutboxOptions, two connections), and the connections it took.
//
//	go test -run '^$' -bench DueDayReminders -benchtime 1x -timeout 60m ./checkout/mail/chargemail/ -reminders.charges 100000
//
// With -short (the test command) 200 charges.
func BenchmarkDueDayReminders(b *testing.B) {
	n := *benchDueCharges
	if testing.Short() {
		n = min(n, 200)
	}
	for range b.N {
		backend := sqliteBackend(b)
		if *benchDuePostgres {
			backend = postgresBackend(b)
		}
		smtp := mailtest.Start(b)
		smtp.Forget()
		clk := &clock{now: saoPaulo(1, 10)}
		in := start(b, backend, smtp, clk, charges.Reminders{OnDue: true})
		ctx := context.Background()
		made := make(chan int, n)
		for i := range n {
			made <- i
		}
		close(made)
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() {
				for i := range made {
					if _, err := in.m.Create(ctx, "", "", input(fmt.Sprintf("cliente-%d@example.com", i))); err != nil {
						b.Error(err)
						return
					}
				}
			})
		}
		wg.Wait()
		if b.Failed() {
			return
		}
		var (
			mu      sync.Mutex
			got     = map[string]int{} // by recipient: one charge each
			arrived atomic.Int64
			done    = make(chan struct{})
		)
		smtp.OnData(func(r mailtest.Received) {
			mu.Lock()
			got[r.To[0]]++
			first := got[r.To[0]] == 1
			mu.Unlock()
			if first && arrived.Add(1) == int64(n) {
				close(done)
			}
		})
		conns := smtp.Conns()
		runCtx, stop := context.WithCancel(ctx)
		b.ResetTimer()
		t0 := time.Now()
		clk.Set(saoPaulo(10, 9))
		var run sync.WaitGroup
		run.Go(func() { in.ob.Run(runCtx) })
		select {
		case <-done:
		case <-time.After(30 * time.Minute):
			b.Errorf("%d of %d reminders arrived in 30 minutes", arrived.Load(), n)
		}
		took := time.Since(t0)
		b.StopTimer()
		stop()
		run.Wait()
		b.ReportMetric(took.Seconds(), "s/day")
		b.ReportMetric(float64(n)/took.Seconds(), "mails/s")
		b.ReportMetric(float64(smtp.Conns()-conns), "smtp-conns")
		mu.Lock()
		for to, k := range got {
			if k != 1 {
				b.Errorf("%s received %d reminders, want one", to, k)
			}
		}
		mu.Unlock()
	}
}
