package chargemail_test

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout/charges"
	"github.com/pixcheckout/pixcheckout/checkout/mail"
	"github.com/pixcheckout/pixcheckout/checkout/mail/chargemail"
	"github.com/pixcheckout/pixcheckout/checkout/mail/mailtest"
	"github.com/pixcheckout/pixcheckout/checkout/postgres"
	"github.com/pixcheckout/pixcheckout/checkout/postgres/pgtest"
	"github.com/pixcheckout/pixcheckout/checkout/sqlite"
	"github.com/pixcheckout/pixcheckout/gatewayclient/outbox"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/views/email"
)

const public = "https://escola.example.com.br"

// store is what an instance of the checkout needs of its store here.
type store interface {
	charges.Store
	Outbox(o outbox.Options) (*outbox.Outbox, error)
	Close() error
}

// backend opens the store of one more instance (or of the same one after a restart) on one
// database.
type backend struct {
	name string
	open func(t testing.TB) store
}

func sqliteBackend(t testing.TB) backend {
	path := filepath.Join(t.TempDir(), "checkout.db")
	return backend{name: "sqlite", open: func(t testing.TB) store {
		s, err := sqlite.Open(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}}
}

func postgresBackend(t testing.TB) backend {
	url := pgtest.Database(t, "chargemail_test_")
	return backend{name: "postgres", open: func(t testing.TB) store {
		s, err := postgres.Open(context.Background(), url)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}}
}

// clock is the injected clock every instance shares.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Set(t time.Time) {
	c.mu.Lock()
	c.now = t
	c.mu.Unlock()
}

// instance is one process of the checkout: its store, its charges' manager with the
// reminders' announcer, and its e-mails' sender and outbox.
type instance struct {
	store  store
	m      *charges.Manager
	sender *mail.Sender
	ob     *outbox.Outbox
}

// face is the store as the reminders show it.
func face(context.Context) (email.Frame, views.Merchant, error) {
	return email.Frame{StoreName: "Escola Aurora", PublicURL: public, SupportEmail: "secretaria@escola.example.com.br"},
		views.Merchant{LegalName: "Escola Aurora Ltda"}, nil
}

func start(t testing.TB, b backend, smtp *mailtest.Server, clk *clock, sched charges.Reminders) *instance {
	t.Helper()
	in := &instance{store: b.open(t)}
	srv, err := mail.ParseServer(smtp.URL)
	if err != nil {
		t.Fatal(err)
	}
	from, _ := mail.ParseFrom("Escola Aurora <cobranca@escola.example.com.br>")
	if in.sender, err = mail.NewSender(mail.SenderOptions{Server: srv, From: from, RootCAs: smtp.RootCAs, Clock: clk.Now,
		Timeout: 5 * time.Second}); err != nil {
		t.Fatal(err)
	}
	oo := mail.OutboxOptions(in.sender, []time.Duration{time.Minute}, 0, nil)
	oo.Clock = clk.Now
	if in.ob, err = in.store.Outbox(oo); err != nil {
		t.Fatal(err)
	}
	in.m = charges.NewManager(in.store, nil, clk.Now, charges.WithAnnouncer(charges.Announcers{&chargemail.Announcer{
		Composer: &mail.Composer{PublicURL: public}, Face: face, Wake: in.ob.Wake,
		Schedule: func(context.Context) (charges.Reminders, error) { return sched, nil }}}))
	t.Cleanup(in.stop)
	return in
}

// stop ends the instance as a process ends: its connections closed.
func (in *instance) stop() {
	if in.store == nil {
		return
	}
	in.sender.Close()
	_ = in.store.Close()
	in.store = nil
}

func (in *instance) deliver(t testing.TB) {
	t.Helper()
	if _, err := in.ob.DeliverDue(context.Background()); err != nil {
		t.Error(err)
	}
}

// saoPaulo is h:00 on day n of March 2026 in São Paulo (UTC−3).
func saoPaulo(n, h int) time.Time { return time.Date(2026, time.March, n, h+3, 0, 0, 0, time.UTC) }

func march(n int) charges.Date { return charges.Date{Year: 2026, Month: time.March, Day: n} }

// input is a charge of R$ 123,45 due on day 10, 10 % off until day 5, 2 % fine, 1 % a month.
func input(email string) charges.Input {
	return charges.Input{
		Customer:    charges.Customer{Name: "Maria da Silva", Document: "529.982.247-25", Email: email},
		Description: "Mensalidade de março",
		Terms: charges.Terms{Amount: 12345, Due: march(10), FineBps: 200, InterestBpsPerMonth: 100,
			Discount: charges.Discount{Bps: 1000, Until: march(5)}},
	}
}

// received counts the messages the server received, by Message-ID.
func received(smtp *mailtest.Server) map[string]int {
	out := map[string]int{}
	for _, r := range smtp.Messages() {
		out[strings.Trim(r.Header.Get("Message-Id"), "<>")]++
	}
	return out
}

// messageID is the Message-ID of the reminder of step of charge c.
func messageID(c charges.Charge, step string) string {
	return mail.MessageID(chargemail.Type, chargemail.Cause(c.ID, step), c.Customer.Email, "escola.example.com.br")
}

// defaultSteps are the default schedule's steps of a charge due on day 10, made on day 1.
var defaultSteps = []struct {
	name string
	at   time.Time
}{{charges.StepIssued, time.Time{}}, {"before-3", saoPaulo(7, 9)}, {charges.StepDue, saoPaulo(10, 9)},
	{"after-1", saoPaulo(11, 9)}, {"after-3", saoPaulo(13, 9)}, {"after-7", saoPaulo(17, 9)}}

// TestRemindersOnceEach, on both stores: a charge made on day 1 gets each step of the default
// schedule once, none before its moment (09:00 São Paulo time of its day), across a restart of
// the process; a charge paid on day 8 and one canceled on day 2 get nothing more after it, their
// pending reminders recorded as not sent.
func TestRemindersOnceEach(t *testing.T) {
	for _, open := range []func(testing.TB) backend{sqliteBackend, postgresBackend} {
		b := open(t)
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			smtp := mailtest.Start(t)
			clk := &clock{now: saoPaulo(1, 10)}
			in := start(t, b, smtp, clk, charges.DefaultReminders())
			var made [3]charges.Charge
			for i, addr := range []string{"maria@example.com", "joao@example.com", "ana@example.com"} {
				c, err := in.m.Create(ctx, "secretaria@escola.example.com.br", "203.0.113.7", input(addr))
				if err != nil {
					t.Fatal(err)
				}
				made[i] = c
			}
			kept, paid, canceled := made[0], made[1], made[2]
			in.deliver(t)
			want := map[string]int{}
			for _, c := range made {
				want[messageID(c, charges.StepIssued)] = 1
			}
			check := func(when string) {
				t.Helper()
				got := received(smtp)
				if len(got) != len(want) {
					t.Fatalf("%s: %d distinct reminders received, want %d", when, len(got), len(want))
				}
				for id, n := range want {
					if got[id] != n {
						t.Fatalf("%s: reminder %s received %d times, want %d", when, id, got[id], n)
					}
				}
			}
			check("after the charges were made")

			clk.Set(saoPaulo(2, 12))
			if _, err := in.m.Cancel(ctx, "secretaria@escola.example.com.br", "", canceled.ID); err != nil {
				t.Fatal(err)
			}
			for _, s := range defaultSteps[1:] {
				if s.name == "after-1" {
					// A restart: the pending reminders are the database's, not the process's.
					in.stop()
					in = start(t, b, smtp, clk, charges.DefaultReminders())
				}
				clk.Set(s.at.Add(-time.Minute))
				in.deliver(t)
				check("a minute before " + s.name)
				clk.Set(s.at)
				in.deliver(t)
				want[messageID(kept, s.name)] = 1
				if s.at.Before(saoPaulo(8, 0)) {
					want[messageID(paid, s.name)] = 1
				}
				check("at " + s.name)
				if s.name == "before-3" {
					clk.Set(saoPaulo(8, 15))
					if _, err := in.m.ChargePaid(ctx, paid.ID, "order-"+s.name, 12345, clk.Now()); err != nil {
						t.Fatal(err)
					}
				}
			}
			clk.Set(saoPaulo(40, 9))
			in.deliver(t)
			check("weeks later")

			// The reminders given up are in the e-mail log as not sent, saying why.
			ds, err := in.ob.Deliveries(ctx, outbox.Filter{Status: outbox.StatusSkipped, Limit: 100})
			if err != nil {
				t.Fatal(err)
			}
			skipped := map[string]int{}
			for _, d := range ds {
				skipped[d.RecordID+" "+d.LastError]++
			}
			if skipped[paid.ID+" charge paid"] != 4 || skipped[canceled.ID+" charge canceled"] != 5 || len(skipped) != 2 {
				t.Errorf("skipped reminders: %v, want 4 of the paid charge and 5 of the canceled one", skipped)
			}
		})
	}
}

// TestReminderContent: the due date's reminder and the first overdue one tell the amount of
// their day line by line, the due date and the terms, link to the charge's page, in both
// parts, and in English when the schedule says so.
func TestReminderContent(t *testing.T) {
	ctx := context.Background()
	smtp := mailtest.Start(t)
	clk := &clock{now: saoPaulo(1, 10)}
	sched := charges.Reminders{OnDue: true, After: []int{1}}
	in := start(t, sqliteBackend(t), smtp, clk, sched)
	c, err := in.m.Create(ctx, "", "", input("maria@example.com"))
	if err != nil {
		t.Fatal(err)
	}
	clk.Set(saoPaulo(10, 9))
	in.deliver(t)
	due := smtp.Next(t, 5*time.Second)
	money := func(v charges.Cents) string { return views.FormatMoney(views.PtBR, v) }
	link := public + "/c/" + c.ID
	for _, part := range []string{due.Text, due.HTML} {
		for _, w := range []string{"Escola Aurora Ltda enviou uma cobrança: Mensalidade de março",
			"Total a pagar em 10/03/2026", money(12345), "10/03/2026", "multa de 2 %", "juros simples de 1 % ao mês", link} {
			if !strings.Contains(part, w) {
				t.Errorf("the due date's reminder lacks %q:\n%s", w, part)
			}
		}
	}
	if !strings.Contains(due.HTML, "<h1>Sua cobrança vence hoje</h1>") {
		t.Errorf("the due date's reminder's heading:\n%s", due.HTML)
	}
	if want := "Vence hoje: cobrança de Escola Aurora, " + money(12345); due.Subject != want {
		t.Errorf("subject %q, want %q", due.Subject, want)
	}
	clk.Set(saoPaulo(11, 9))
	in.deliver(t)
	late := smtp.Next(t, 5*time.Second)
	// Day 11: the fine (R$ 2,47) and a day of interest (R$ 0,04, 4.115 cents rounded).
	if !strings.Contains(late.HTML, "<h1>Sua cobrança está vencida</h1>") {
		t.Errorf("the overdue reminder's heading:\n%s", late.HTML)
	}
	for _, w := range []string{"Multa por atraso: " + money(247), "Juros (1 dia de atraso): " + money(4),
		"Total a pagar em 11/03/2026: " + money(12596), link} {
		if !strings.Contains(late.Text, w) {
			t.Errorf("the overdue reminder lacks %q:\n%s", w, late.Text)
		}
	}

	sched.Lang = "en"
	in = start(t, sqliteBackend(t), smtp, clk, sched)
	clk.Set(saoPaulo(1, 10))
	c, err = in.m.Create(ctx, "", "", input("john@example.com"))
	if err != nil {
		t.Fatal(err)
	}
	clk.Set(saoPaulo(10, 9))
	in.deliver(t)
	en := smtp.Next(t, 5*time.Second)
	if !strings.Contains(en.HTML, "<h1>Your charge is due today</h1>") {
		t.Errorf("the English reminder's heading:\n%s", en.HTML)
	}
	for _, w := range []string{"Total due on Mar 10, 2026", "/c/" + c.ID} {
		if !strings.Contains(en.Text, w) || !strings.Contains(en.HTML, w) {
			t.Errorf("the English reminder lacks %q:\n%s", w, en.Text)
		}
	}
}

// TestReminderAfterPartialPayment, on both stores: a charge due on day 10 at R$ 123,45 with
// 10 % off until day 5 is paid on day 6 through the QR code of day 5 (R$ 111,11), short of that
// day's R$ 123,45: the due date's reminder, sent on day 10, asks the balance (R$ 12,34) and
// says what was paid, as does the e-mail log; the first overdue one asks day 11's balance with
// its fine and interest (R$ 125,96 − R$ 111,11 = R$ 14,85).
func TestReminderAfterPartialPayment(t *testing.T) {
	for _, open := range []func(testing.TB) backend{sqliteBackend, postgresBackend} {
		b := open(t)
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			smtp := mailtest.Start(t)
			clk := &clock{now: saoPaulo(1, 10)}
			in := start(t, b, smtp, clk, charges.Reminders{OnDue: true, After: []int{1}})
			c, err := in.m.Create(ctx, "", "", input("maria@example.com"))
			if err != nil {
				t.Fatal(err)
			}
			clk.Set(saoPaulo(6, 10))
			if _, err := in.m.ChargePaid(ctx, c.ID, "order-day-5", 11111, clk.Now()); err != nil {
				t.Fatal(err)
			}
			money := func(v charges.Cents) string { return views.FormatMoney(views.PtBR, v) }
			for _, step := range []struct {
				at       time.Time
				subject  string
				contains []string
			}{
				{saoPaulo(10, 9), "Vence hoje: cobrança de Escola Aurora, " + money(1234),
					[]string{"Já pago: − " + money(11111), "Total a pagar em 10/03/2026: " + money(1234)}},
				{saoPaulo(11, 9), "Cobrança de Escola Aurora vencida em 10/03/2026",
					[]string{"Multa por atraso: " + money(247), "Já pago: − " + money(11111), "Total a pagar em 11/03/2026: " + money(1485)}},
			} {
				clk.Set(step.at)
				in.deliver(t)
				got := smtp.Next(t, 5*time.Second)
				if got.Subject != step.subject {
					t.Errorf("subject %q, want %q", got.Subject, step.subject)
				}
				for _, w := range step.contains {
					if !strings.Contains(got.Text, w) {
						t.Errorf("the reminder of %s lacks %q:\n%s", step.at, w, got.Text)
					}
				}
				// The e-mail log keeps what was sent.
				ds, err := in.ob.Deliveries(ctx, outbox.Filter{Status: outbox.StatusDelivered, Limit: 1})
				if err != nil {
					t.Fatal(err)
				}
				kept, err := mail.ContentOf(ds[0].Body)
				if err != nil || kept.Text != strings.ReplaceAll(got.Text, "\r\n", "\n") {
					t.Errorf("the log keeps %q (%v), sent %q", kept.Text, err, got.Text)
				}
			}
			if n := len(smtp.Messages()); n != 2 {
				t.Errorf("%d messages sent, want 2", n)
			}
		})
	}
}

// TestRemindersTwoInstancesOnPostgreSQL: two instances on one PostgreSQL database, each
// making charges and each delivering every pass at the same moments, send each charge's each
// step once.
func TestRemindersTwoInstancesOnPostgreSQL(t *testing.T) {
	ctx := context.Background()
	b := postgresBackend(t)
	smtp := mailtest.Start(t)
	clk := &clock{now: saoPaulo(1, 10)}
	ins := []*instance{start(t, b, smtp, clk, charges.DefaultReminders()), start(t, b, smtp, clk, charges.DefaultReminders())}
	var made []charges.Charge
	for i := range 20 {
		c, err := ins[i%2].m.Create(ctx, "", "", input("cliente"+string(rune('a'+i))+"@example.com"))
		if err != nil {
			t.Fatal(err)
		}
		made = append(made, c)
	}
	for _, s := range defaultSteps {
		if !s.at.IsZero() {
			clk.Set(s.at)
		}
		var wg sync.WaitGroup
		for _, in := range ins {
			wg.Go(func() { in.deliver(t) })
		}
		wg.Wait()
	}
	got := received(smtp)
	for _, c := range made {
		for _, s := range defaultSteps {
			if n := got[messageID(c, s.name)]; n != 1 {
				t.Errorf("charge %s, step %s: received %d times, want once", c.ID, s.name, n)
			}
		}
	}
	if len(got) != len(made)*len(defaultSteps) {
		t.Errorf("%d distinct messages, want %d", len(got), len(made)*len(defaultSteps))
	}
}
