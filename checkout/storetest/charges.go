package storetest

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/audit"
	"github.com/pixcheckout/pixcheckout/checkout/charges"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/outbox"
)

// ChargeStores are the stores charges use: theirs, the audit log, the orders that collect
// them and the outbox of their e-mails.
type ChargeStores interface {
	charges.Store
	audit.Store
	checkout.Store
	// Outbox is the outbox on the store's database (where a charge's e-mails wait).
	Outbox(o outbox.Options) (*outbox.Outbox, error)
}

// RunCharges runs the suite of charges with due dates (charges.Store through charges.Manager,
// on an injected clock in São Paulo time). open must return a new, empty store for each call
// and arrange its closing with t.Cleanup.
func RunCharges(t *testing.T, open func(t *testing.T) ChargeStores) {
	t.Run("CreateAndRead", func(t *testing.T) { testChargeCreate(t, newChargeFixture(t, open(t))) })
	t.Run("AmountsByDay", func(t *testing.T) { testChargeAmountsByDay(t, newChargeFixture(t, open(t))) })
	t.Run("Overdue", func(t *testing.T) { testChargeOverdue(t, newChargeFixture(t, open(t))) })
	t.Run("PartialPayment", func(t *testing.T) { testChargePartial(t, newChargeFixture(t, open(t))) })
	t.Run("PaidLate", func(t *testing.T) { testChargePaidLate(t, newChargeFixture(t, open(t))) })
	t.Run("Cancel", func(t *testing.T) { testChargeCancel(t, newChargeFixture(t, open(t))) })
	t.Run("List", func(t *testing.T) { testChargeList(t, newChargeFixture(t, open(t))) })
	t.Run("ListFilters", func(t *testing.T) { testChargeListFilters(t, newChargeFixture(t, open(t))) })
	t.Run("StaleVersion", func(t *testing.T) { testChargeStale(t, newChargeFixture(t, open(t))) })
	t.Run("Idempotent", func(t *testing.T) { testChargeIdempotent(t, newChargeFixture(t, open(t))) })
	t.Run("Orders", func(t *testing.T) { testChargeOrders(t, newChargeFixture(t, open(t))) })
	t.Run("OrderOfCanceled", func(t *testing.T) { testChargeOrderCanceled(t, newChargeFixture(t, open(t))) })
	t.Run("MailWithdrawn", func(t *testing.T) {
		s := open(t)
		testChargeMailWithdrawn(t, newChargeFixture(t, s), s)
	})
	t.Run("PersonalData", func(t *testing.T) { testChargePersonalData(t, newChargeFixture(t, open(t))) })
	t.Run("PaymentOncePerOrder", func(t *testing.T) { testChargePaymentOnce(t, newChargeFixture(t, open(t))) })
	t.Run("Overpaid", func(t *testing.T) { testChargeOverpaid(t, newChargeFixture(t, open(t))) })
	t.Run("CrashBeforeCharge", func(t *testing.T) { testChargeCrash(t, newChargeFixture(t, open(t))) })
	t.Run("Receivables", func(t *testing.T) { testChargeReceivables(t, newChargeFixture(t, open(t))) })
}

type chargeFixture struct {
	t   *testing.T
	ctx context.Context
	s   ChargeStores
	m   *charges.Manager
	now time.Time
}

// saoPauloAt is h:mm on day n of March 2026 in São Paulo (UTC−3).
func saoPauloAt(n, h, m int) time.Time { return time.Date(2026, time.March, n, h+3, m, 0, 0, time.UTC) }

func marchDay(n int) charges.Date { return charges.Date{Year: 2026, Month: time.March, Day: n} }

func newChargeFixture(t *testing.T, s ChargeStores) *chargeFixture {
	f := &chargeFixture{t: t, ctx: context.Background(), s: s, now: saoPauloAt(1, 9, 0)}
	clock := func() time.Time { return f.now }
	f.m = charges.NewManager(s, audit.New(s, 24*time.Hour, clock), clock)
	return f
}

// issue35 is the issue's charge: R$ 123,45, 10 % off until day 5, due day 10, 2 % fine, 1 % a month.
func issue35() charges.Input {
	return charges.Input{
		Customer:    charges.Customer{Name: "Maria da Silva", Document: "529.982.247-25", Email: "maria@example.com", Phone: "(11) 98765-4321"},
		Description: "Mensalidade de março", ExternalCode: "ALUNO-7",
		Terms: charges.Terms{Amount: 12345, Due: marchDay(10), FineBps: 200, InterestBpsPerMonth: 100,
			Discount: charges.Discount{Bps: 1000, Until: marchDay(5)}},
	}
}

func (f *chargeFixture) create(in charges.Input) charges.Charge {
	f.t.Helper()
	c, err := f.m.Create(f.ctx, "ana@loja.example", "203.0.113.7", in)
	if err != nil {
		f.t.Fatalf("Create: %v", err)
	}
	return c
}

func (f *chargeFixture) read(id string) charges.Charge {
	f.t.Helper()
	c, err := f.s.Charge(f.ctx, id)
	if err != nil {
		f.t.Fatalf("Charge(%s): %v", id, err)
	}
	return c
}

// pay counts a payment of amount by order towards charge id, at the fixture's time.
func (f *chargeFixture) pay(id, order string, amount charges.Cents) (charges.Charge, checkout.ChargePayment) {
	f.t.Helper()
	res, err := f.m.ChargePaid(f.ctx, id, order, amount, f.now)
	if err != nil {
		f.t.Fatalf("ChargePaid(%s, %s, %d): %v", id, order, amount, err)
	}
	return f.read(id), res
}

// events is the timeline of a charge.
func (f *chargeFixture) events(id string) []charges.Event {
	f.t.Helper()
	evs, err := f.s.ChargeEvents(f.ctx, id)
	if err != nil {
		f.t.Fatal(err)
	}
	return evs
}

// timeline is the reasons of a charge's events and their actors, in order.
func (f *chargeFixture) timeline(id string) []string {
	f.t.Helper()
	var out []string
	for i, e := range f.events(id) {
		if e.Version != i+1 || e.ChargeID != id {
			f.t.Fatalf("event %d: %+v", i, e)
		}
		out = append(out, string(e.Reason)+"/"+e.Actor)
	}
	return out
}

// audited is the audit log's actions on the charge, oldest first.
func (f *chargeFixture) audited(id string) []string {
	f.t.Helper()
	es, err := f.s.Entries(f.ctx, audit.Filter{})
	if err != nil {
		f.t.Fatal(err)
	}
	var out []string
	for _, e := range slices.Backward(es) {
		if e.Object == id {
			out = append(out, e.Action+"/"+e.Actor)
		}
	}
	return out
}

func testChargeCreate(t *testing.T, f *chargeFixture) {
	c := f.create(issue35())
	got := f.read(c.ID)
	if !got.CreatedAt.Equal(f.now) || got.Status != charges.StatusOpen || got.Version != 1 {
		t.Fatalf("stored %+v", got)
	}
	got.CreatedAt, got.UpdatedAt = c.CreatedAt, c.UpdatedAt // the store keeps milliseconds in UTC
	if got != c {
		t.Fatalf("read back %+v, want %+v", got, c)
	}
	if c.Balance(marchDay(4)) != 11110 || len(c.ID) < 20 {
		t.Fatalf("balance on day 4 %d, id %q", c.Balance(marchDay(4)), c.ID)
	}
	if tl, au := f.timeline(c.ID), f.audited(c.ID); !slices.Equal(tl, []string{"created/ana@loja.example"}) ||
		!slices.Equal(au, []string{"charge.created/ana@loja.example"}) {
		t.Fatalf("timeline %v, audit %v", tl, au)
	}
	if _, err := f.s.Charge(f.ctx, "missing"); !errors.Is(err, checkout.ErrNotFound) {
		t.Fatalf("a missing charge: %v", err)
	}
	// A bad charge names each field and stores nothing.
	bad := issue35()
	bad.Customer.Document, bad.Customer.Email, bad.Description, bad.Terms.FineBps = "111.111.111-11", "", " ", 250
	_, err := f.m.Create(f.ctx, "ana@loja.example", "", bad)
	var ve *gatewayclient.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("a bad charge: %v", err)
	}
	for _, field := range []string{"customer.document", "customer.email", "description", "fineBps"} {
		if !ve.Has(field) {
			t.Errorf("no violation of %s in %v", field, ve)
		}
	}
	if list, _ := f.s.ListCharges(f.ctx, charges.Filter{}); len(list) != 1 {
		t.Fatalf("%d charges stored, want 1", len(list))
	}
}

// testChargeAmountsByDay: the issue's charge read back from the store asks the exact cents of
// each day (the rounding is charges.Terms.On's), and the order of each day is for that amount:
// day 4 the discount (−12,35), day 6 and day 10 the principal, day 11 the fine (2,47) and a
// day of interest (0,04), day 40 the fine and thirty days of interest (1,23).
func testChargeAmountsByDay(t *testing.T, f *chargeFixture) {
	id := f.create(issue35()).ID
	for _, c := range []struct {
		at   time.Time
		want charges.Cents
	}{{saoPauloAt(4, 23, 0), 11110}, {saoPauloAt(6, 0, 0), 12345}, {saoPauloAt(10, 23, 58), 12345},
		{saoPauloAt(11, 0, 0), 12596}, {saoPauloAt(40, 12, 0), 12715}} {
		f.now = c.at
		if _, err := f.m.MarkOverdue(f.ctx); err != nil {
			t.Fatal(err)
		}
		got := f.read(id)
		src, err := f.m.ChargeSource(f.ctx, id, c.at)
		if err != nil {
			t.Fatalf("at %s: %v", c.at, err)
		}
		if b := got.Balance(charges.Today(c.at)); b != c.want || src.Lines[0].UnitPrice != c.want {
			t.Errorf("at %s: balance %d, order of %d, want %d", c.at, b, src.Lines[0].UnitPrice, c.want)
		}
	}
}

// A charge becomes overdue the day after its due date in São Paulo, not before, once.
func testChargeOverdue(t *testing.T, f *chargeFixture) {
	c := f.create(issue35())
	for _, at := range []time.Time{saoPauloAt(10, 23, 59), saoPauloAt(10, 23, 59).Add(59 * time.Second)} {
		f.now = at
		if n, err := f.m.MarkOverdue(f.ctx); n != 0 || err != nil {
			t.Fatalf("at %s: %d moved, %v", at, n, err)
		}
	}
	f.now = saoPauloAt(11, 0, 0)
	if n, err := f.m.MarkOverdue(f.ctx); n != 1 || err != nil {
		t.Fatalf("the day after: %d moved, %v", n, err)
	}
	if n, err := f.m.MarkOverdue(f.ctx); n != 0 || err != nil {
		t.Fatalf("again: %d moved, %v", n, err)
	}
	if got := f.read(c.ID); got.Status != charges.StatusOverdue || got.Balance(marchDay(11)) != 12596 {
		t.Fatalf("overdue charge %+v, balance %d", got, got.Balance(marchDay(11)))
	}
	if tl := f.timeline(c.ID); !slices.Equal(tl, []string{"created/ana@loja.example", "overdue/"}) {
		t.Fatalf("timeline %v", tl)
	}
	if au := f.audited(c.ID); !slices.Equal(au, []string{"charge.created/ana@loja.example", "charge.overdue/system"}) {
		t.Fatalf("audit %v", au)
	}
}

// The issue's case: a QR made on day 5 for the discounted amount, paid on day 6, leaves the
// difference open; paying the difference makes the charge paid, on time.
func testChargePartial(t *testing.T, f *chargeFixture) {
	c := f.create(issue35())
	f.now = saoPauloAt(6, 10, 0)
	got, res := f.pay(c.ID, "order-5", 11110)
	if got.Status != charges.StatusOpen || got.Paid != 11110 || got.Balance(marchDay(6)) != 1235 || res.Refund != 0 {
		t.Fatalf("after the discounted amount on day 6: %+v, %+v", got, res)
	}
	got, res = f.pay(c.ID, "order-6", 1235)
	if got.Status != charges.StatusPaid || !got.PaidAt.Equal(f.now) || got.PaidLate() || got.Balance(marchDay(6)) != 0 || res.Refund != 0 {
		t.Fatalf("after the difference: %+v, %+v", got, res)
	}
	if tl := f.timeline(c.ID); !slices.Equal(tl, []string{"created/ana@loja.example", "partially_paid/", "paid/"}) {
		t.Fatalf("timeline %v", tl)
	}
	// A payment of a paid charge is all to refund, in the timeline; the charge stays paid.
	got, res = f.pay(c.ID, "order-7", 100)
	if res.Refund != 100 || res.Reason != checkout.ReasonPaidTwice || got.Status != charges.StatusPaid || got.Paid != 12345 {
		t.Fatalf("a payment of a paid charge: %+v, %+v", res, got)
	}
	f.payments(c.ID, []charges.Event{{Reason: charges.ReasonPartiallyPaid, OrderID: "order-5", Paid: 11110, Status: charges.StatusOpen},
		{Reason: charges.ReasonPaid, OrderID: "order-6", Paid: 1235, Status: charges.StatusPaid},
		{Reason: charges.ReasonRefundDue, OrderID: "order-7", Refund: 100, Status: charges.StatusPaid}})
}

// payments checks the events of charge id after its first: their reasons, orders, amounts and
// statuses.
func (f *chargeFixture) payments(id string, want []charges.Event) {
	f.t.Helper()
	evs := f.events(id)[1:]
	if len(evs) != len(want) {
		f.t.Fatalf("%d events after the first, want %d", len(evs), len(want))
	}
	for i, e := range evs {
		if w := want[i]; e.Reason != w.Reason || e.OrderID != w.OrderID || e.Paid != w.Paid || e.Refund != w.Refund || e.Status != w.Status {
			f.t.Errorf("event %d: %+v, want %+v", i+2, e, w)
		}
	}
}

// Overdue → paid late, for the amount with fine and interest of the day it arrived.
func testChargePaidLate(t *testing.T, f *chargeFixture) {
	c := f.create(issue35())
	f.now = saoPauloAt(40, 8, 0) // 9 April, 30 days late
	if _, err := f.m.MarkOverdue(f.ctx); err != nil {
		t.Fatal(err)
	}
	if got, _ := f.pay(c.ID, "order-1", 12714); got.Status != charges.StatusOverdue {
		t.Fatalf("a cent short: %+v", got)
	}
	if got, _ := f.pay(c.ID, "order-2", 1); got.Status != charges.StatusPaid || !got.PaidLate() {
		t.Fatalf("paid late: %+v", got)
	}
	if au := f.audited(c.ID); !slices.Equal(au, []string{"charge.created/ana@loja.example", "charge.overdue/system", "charge.paid/system"}) {
		t.Fatalf("audit %v", au)
	}
}

func testChargeCancel(t *testing.T, f *chargeFixture) {
	c := f.create(issue35())
	got, err := f.m.Cancel(f.ctx, "rui@loja.example", "203.0.113.9", c.ID)
	if err != nil || got.Status != charges.StatusCanceled {
		t.Fatalf("Cancel: %+v, %v", got, err)
	}
	if _, err := f.m.Cancel(f.ctx, "rui@loja.example", "", c.ID); !errors.Is(err, charges.ErrFinal) {
		t.Fatalf("a second cancel: %v", err)
	}
	if _, res := f.pay(c.ID, "order-1", 12345); res.Refund != 12345 || res.Reason != checkout.ReasonPaidAfterCancel {
		t.Fatalf("a payment of a canceled charge: %+v", res)
	}
	f.now = saoPauloAt(20, 0, 0)
	if n, err := f.m.MarkOverdue(f.ctx); n != 0 || err != nil {
		t.Fatalf("a canceled charge made overdue: %d, %v", n, err)
	}
	if tl := f.timeline(c.ID); !slices.Equal(tl, []string{"created/ana@loja.example", "canceled/rui@loja.example", "refund_due/"}) {
		t.Fatalf("timeline %v", tl)
	}
	if got := f.read(c.ID); got.Status != charges.StatusCanceled || got.Paid != 0 {
		t.Fatalf("stored %+v", got)
	}
}

// Lists are newest first, a page at a time by key, filtered by status.
func testChargeList(t *testing.T, f *chargeFixture) {
	var ids []string
	for range 5 {
		f.now = f.now.Add(time.Minute)
		ids = append(ids, f.create(issue35()).ID)
	}
	if _, err := f.m.Cancel(f.ctx, "rui@loja.example", "", ids[1]); err != nil {
		t.Fatal(err)
	}
	var seen []string
	filter := charges.Filter{Limit: 2}
	for {
		page, err := f.s.ListCharges(f.ctx, filter)
		if err != nil {
			t.Fatal(err)
		}
		if len(page) == 0 {
			break
		}
		for _, c := range page {
			seen = append(seen, c.ID)
		}
		last := page[len(page)-1]
		filter.AfterCreated, filter.AfterID = last.CreatedAt, last.ID
	}
	want := slices.Clone(ids)
	slices.Reverse(want)
	if !slices.Equal(seen, want) {
		t.Fatalf("pages %v, want %v reversed", seen, ids)
	}
	open, err := f.s.ListCharges(f.ctx, charges.Filter{Status: []charges.Status{charges.StatusOpen, charges.StatusOverdue}})
	if err != nil || len(open) != 4 || slices.ContainsFunc(open, func(c charges.Charge) bool { return c.ID == ids[1] }) {
		t.Fatalf("open charges %d, %v", len(open), err)
	}
	canceled, err := f.s.ListCharges(f.ctx, charges.Filter{Status: []charges.Status{charges.StatusCanceled}})
	if err != nil || len(canceled) != 1 || canceled[0].ID != ids[1] {
		t.Fatalf("canceled charges %v, %v", canceled, err)
	}
}

// A change over a stale version is refused, changing nothing.
func testChargeStale(t *testing.T, f *chargeFixture) {
	c := f.create(issue35())
	a, b := c, c
	a.Version, a.Status = 2, charges.StatusCanceled
	b.Version, b.Status = 2, charges.StatusOverdue
	if err := f.s.UpdateCharge(f.ctx, a, charges.Event{ChargeID: c.ID, Version: 2, At: f.now, Status: a.Status}); err != nil {
		t.Fatal(err)
	}
	if err := f.s.UpdateCharge(f.ctx, b, charges.Event{ChargeID: c.ID, Version: 2, At: f.now, Status: b.Status}); !errors.Is(err, checkout.ErrConflict) {
		t.Fatalf("a stale update: %v, want ErrConflict", err)
	}
	missing := c
	missing.ID, missing.Version = "missing", 2
	if err := f.s.UpdateCharge(f.ctx, missing, charges.Event{ChargeID: "missing", Version: 2}); !errors.Is(err, checkout.ErrNotFound) {
		t.Fatalf("an update of a missing charge: %v, want ErrNotFound", err)
	}
	if got := f.read(c.ID); got.Status != charges.StatusCanceled || len(f.timeline(c.ID)) != 2 {
		t.Fatalf("stored %+v", got)
	}
}

// The dashboard's filters: due dates, amounts, the customer's search, and pages both ways.
func testChargeListFilters(t *testing.T, f *chargeFixture) {
	add := func(name, doc, email, code string, amount charges.Cents, due int) string {
		in := issue35()
		in.Customer = charges.Customer{Name: name, Document: doc, Email: email}
		in.ExternalCode, in.Terms.Amount, in.Terms.Due = code, amount, marchDay(due)
		in.Terms.Discount = charges.Discount{}
		f.now = f.now.Add(time.Minute)
		return f.create(in).ID
	}
	ana := add("Ana Souza", "529.982.247-25", "ana@example.com", "ALUNO-1", 5000, 1)
	bia := add("Beatriz Lima", "11.222.333/0001-81", "bia@example.com", "ALUNO-2", 15000, 5)
	caio := add("Caio Dias", "39053344705", "caio@example.com", "X_9 100%", 25000, 12)
	list := func(filter charges.Filter) []string {
		t.Helper()
		got, err := f.s.ListCharges(f.ctx, filter)
		if err != nil {
			t.Fatal(err)
		}
		n, err := f.s.CountCharges(f.ctx, filter, 100)
		if err != nil || filter.AfterID == "" && n != len(got) {
			t.Fatalf("count %d, %v; listed %d", n, err, len(got))
		}
		var ids []string
		for _, c := range got {
			ids = append(ids, c.ID)
		}
		return ids
	}
	for _, tc := range []struct {
		name   string
		filter charges.Filter
		want   []string
	}{
		{"due on day 5", charges.Filter{DueFrom: marchDay(5), DueTo: marchDay(5)}, []string{bia}},
		{"due from day 2", charges.Filter{DueFrom: marchDay(2)}, []string{caio, bia}},
		{"due by day 5", charges.Filter{DueTo: marchDay(5)}, []string{bia, ana}},
		{"amounts", charges.Filter{MinAmount: 5001, MaxAmount: 25000}, []string{caio, bia}},
		{"name, case aside", charges.Filter{Search: "beatriz"}, []string{bia}},
		{"e-mail", charges.Filter{Search: "ANA@EXAMPLE"}, []string{ana}},
		{"external code", charges.Filter{Search: "aluno"}, []string{bia, ana}},
		{"a wildcard is a character", charges.Filter{Search: "x_"}, []string{caio}},
		{"percent", charges.Filter{Search: "100%"}, []string{caio}},
		{"document as typed", charges.Filter{Search: "529.982.247-25"}, []string{ana}},
		{"document digits", charges.Filter{Search: "11222333"}, []string{bia}},
		{"id", charges.Filter{Search: caio}, []string{caio}},
		{"nothing", charges.Filter{Search: "zé"}, nil},
	} {
		if got := list(tc.filter); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
	if n, err := f.s.CountCharges(f.ctx, charges.Filter{}, 2); err != nil || n != 2 {
		t.Fatalf("count up to 2: %d, %v", n, err)
	}
	// The page before the oldest, read backward, is the two newer ones, newest first.
	c, _ := f.s.Charge(f.ctx, ana)
	if got := list(charges.Filter{AfterCreated: c.CreatedAt, AfterID: ana, Backward: true, Limit: 5}); !slices.Equal(got, []string{caio, bia}) {
		t.Fatalf("backward from the oldest: %v", got)
	}
	c, _ = f.s.Charge(f.ctx, caio)
	if got := list(charges.Filter{AfterCreated: c.CreatedAt, AfterID: caio, Backward: true}); len(got) != 0 {
		t.Fatalf("backward from the newest: %v", got)
	}
}

// chargeOrder stores an order of charge c for amount whose QR code is shown (expiring at
// expires), as PlaceOrder leaves it.
func (f *chargeFixture) chargeOrder(c charges.Charge, amount gatewayclient.Cents, expires time.Time) *checkout.Order {
	f.t.Helper()
	o := NewOrder("charge:" + c.ID + "/" + checkout.NewID())
	o.Channel, o.ChargeID, o.Address, o.Physical, o.Shipping, o.DeliveryDays = checkout.ChannelCharge, c.ID, nil, false, 0, 0
	o.Lines, o.Amount = []checkout.OrderLine{{Title: c.Description, UnitPrice: amount, Quantity: 1}}, amount
	o = mustCreate(f.t, f.s, o)
	move(o, checkout.StatusAwaitingPayment, f.now)
	a := &o.Attempts[0]
	a.State, a.TransactionID, a.BRCode, a.ExpiresAt = checkout.AttemptActive, checkout.NewID(), "000201test", expires
	must(f.t, f.s.UpdateOrder(f.ctx, o))
	return mustRead(f.t, f.s, o.ID)
}

// paidDeposit applies a PAID deposit of amount to o's QR code, paid now.
func (f *chargeFixture) paidDeposit(svc *checkout.Service, o *checkout.Order, amount gatewayclient.Cents) *checkout.Order {
	f.t.Helper()
	d := &gatewayclient.Deposit{ID: o.Attempts[0].TransactionID, Status: gatewayclient.DepositPaid, AmountPaid: &amount,
		PaymentDate: f.now}
	res, _, err := svc.ApplyDeposit(f.ctx, d)
	must(f.t, err)
	return res
}

// service is a checkout.Service on the fixture's store and clock, without a gateway, whose
// charges are the fixture's.
func (f *chargeFixture) service() *checkout.Service {
	return checkout.NewService(f.s, nil, checkout.ServiceOptions{Logger: slog.New(slog.DiscardHandler),
		Clock: func() time.Time { return f.now }, Charges: f.m})
}

// A charge's orders carry it; a payment of one counts towards the charge once (a webhook
// delivered again changes nothing), for what it paid: the day-5 QR code paid on day 6 leaves the
// difference open, which the day's source then asks.
func testChargeOrders(t *testing.T, f *chargeFixture) {
	svc := f.service()
	c := f.create(issue35())
	f.now = saoPauloAt(5, 20, 0)
	src, err := svc.Source(f.ctx, checkout.ChannelCharge, c.ID, 0)
	if err != nil || src.Total() != 11110 || !src.PayBy.Equal(saoPauloAt(5, 23, 59).Add(59*time.Second)) {
		t.Fatalf("day 5's source: %+v, %v", src, err)
	}
	o := f.chargeOrder(c, 11110, src.PayBy)
	if o.ChargeID != c.ID || o.Channel != checkout.ChannelCharge {
		t.Fatalf("stored order's charge %q, channel %q", o.ChargeID, o.Channel)
	}
	f.now = saoPauloAt(6, 9, 0)
	paid := f.paidDeposit(svc, o, 11110)
	if paid.Status != checkout.StatusPaid || !paid.LatePayment || paid.RefundDue != 0 {
		t.Fatalf("the day-5 order paid on day 6: %s, late %v, refund %d", paid.Status, paid.LatePayment, paid.RefundDue)
	}
	f.paidDeposit(svc, o, 11110) // the webhook again
	if got := f.read(c.ID); got.Status != charges.StatusOpen || got.Paid != 11110 || got.Balance(marchDay(6)) != 1235 {
		t.Fatalf("the charge after the day-5 QR code paid on day 6: %+v", got)
	}
	if src, err = svc.Source(f.ctx, checkout.ChannelCharge, c.ID, 0); err != nil || src.Total() != 1235 {
		t.Fatalf("day 6's source after it: total %d, %v", src.Total(), err)
	}
	f.payDifference(svc, c)
}

// payDifference pays the day-6 difference of charge c (the issue's): the charge is paid, its
// two orders carry it, and it takes no order any more.
func (f *chargeFixture) payDifference(svc *checkout.Service, c charges.Charge) {
	t := f.t
	t.Helper()
	rest := f.paidDeposit(svc, f.chargeOrder(c, 1235, saoPauloAt(6, 23, 59)), 1235)
	if got := f.read(c.ID); rest.Status != checkout.StatusPaid || got.Status != charges.StatusPaid || got.Paid != 12345 {
		t.Fatalf("after the difference: order %s, charge %+v", rest.Status, got)
	}
	list, err := svc.Orders(f.ctx, checkout.OrderFilter{ChargeID: c.ID})
	if err != nil || len(list) != 2 || list[0].ChargeID != c.ID {
		t.Fatalf("the charge's orders: %d, %v", len(list), err)
	}
	if _, err := svc.Source(f.ctx, checkout.ChannelCharge, c.ID, 0); !errors.Is(err, charges.ErrFinal) {
		t.Fatalf("a paid charge's source: %v", err)
	}
	if _, err := svc.Source(f.ctx, checkout.ChannelCharge, "missing", 0); !errors.Is(err, checkout.ErrNotFound) {
		t.Fatalf("a missing charge's source: %v", err)
	}
}

// A payment on a canceled charge is a late payment to refund; the charge stays canceled.
func testChargeOrderCanceled(t *testing.T, f *chargeFixture) {
	svc := f.service()
	other := f.create(issue35())
	f.now = saoPauloAt(6, 9, 0)
	late := f.chargeOrder(other, 12345, saoPauloAt(6, 23, 59))
	if _, err := f.m.Cancel(f.ctx, "rui@loja.example", "", other.ID); err != nil {
		t.Fatal(err)
	}
	late = f.paidDeposit(svc, late, 12345)
	if late.Status != checkout.StatusPaid || late.RefundDue != 12345 || !late.LatePayment ||
		entries(late, checkout.ReasonPaidAfterCancel) != 1 {
		t.Fatalf("paid on a canceled charge: %s, refund %d, late %v", late.Status, late.RefundDue, late.LatePayment)
	}
	if got := f.read(other.ID); got.Status != charges.StatusCanceled || got.Paid != 0 {
		t.Fatalf("the canceled charge: %+v", got)
	}
}

// A charge made with an Idempotency-Key is made once: the same key and input answer it again,
// the key with another input is refused; charges without a key are each their own.
func testChargeIdempotent(t *testing.T, f *chargeFixture) {
	first, created, err := f.m.CreateOnce(f.ctx, "api", "", "order-7", issue35())
	if err != nil || !created {
		t.Fatalf("CreateOnce: %v, %v", created, err)
	}
	again, created, err := f.m.CreateOnce(f.ctx, "api", "", "order-7", issue35())
	if err != nil || created || again.ID != first.ID {
		t.Fatalf("the same request again: %s (created %v), %v; want %s", again.ID, created, err, first.ID)
	}
	other := issue35()
	other.Terms.Amount = 999
	if _, _, err := f.m.CreateOnce(f.ctx, "api", "", "order-7", other); checkout.ErrorCode(err) != checkout.CodeIdempotencyReused {
		t.Fatalf("the key with another request: %v", err)
	}
	if _, err := f.s.ChargeByIdempotencyKey(f.ctx, "missing"); !errors.Is(err, checkout.ErrNotFound) {
		t.Fatalf("an unknown key: %v", err)
	}
	f.create(issue35())
	f.create(issue35())
	if list, _ := f.s.ListCharges(f.ctx, charges.Filter{}); len(list) != 3 {
		t.Fatalf("%d charges stored, want 3", len(list))
	}
}

// An order's payment counts towards its charge once: applied again, from one manager or from
// two at once (two instances), it changes nothing and answers the same; and the store itself
// refuses a second event of the same order, storing nothing of that change.
func testChargePaymentOnce(t *testing.T, f *chargeFixture) {
	c := f.create(issue35())
	f.now = saoPauloAt(6, 10, 0)
	first, res := f.pay(c.ID, "order-a", 5000)
	if again, res2 := f.pay(c.ID, "order-a", 5000); again != first || res2 != res {
		t.Fatalf("the payment again: %+v, %+v; want %+v, %+v", again, res2, first, res)
	}
	other := charges.NewManager(f.s, nil, func() time.Time { return f.now })
	var wg sync.WaitGroup
	for _, m := range []*charges.Manager{f.m, other, f.m, other} {
		wg.Go(func() {
			if _, err := m.ChargePaid(f.ctx, c.ID, "order-b", 3000, f.now); err != nil {
				t.Errorf("ChargePaid at once: %v", err)
			}
		})
	}
	wg.Wait()
	got := f.read(c.ID)
	if got.Paid != 8000 || got.Version != 3 || len(f.events(c.ID)) != 3 {
		t.Fatalf("after order-a once and order-b four times at once: paid %d, version %d, %d events",
			got.Paid, got.Version, len(f.events(c.ID)))
	}
	// Past the managers: the store keeps one event per charge and order.
	dup := got
	dup.Version, dup.Paid = got.Version+1, got.Paid+3000
	err := f.s.UpdateCharge(f.ctx, dup, charges.Event{ChargeID: c.ID, Version: dup.Version, At: f.now,
		Status: dup.Status, Reason: charges.ReasonPartiallyPaid, OrderID: "order-b", Paid: 3000})
	if !errors.Is(err, checkout.ErrConflict) {
		t.Fatalf("a second event of order-b: %v, want ErrConflict", err)
	}
	if after := f.read(c.ID); after != got {
		t.Fatalf("the refused change stored %+v", after)
	}
	// Events of no order repeat freely.
	f.now = saoPauloAt(11, 0, 0)
	if n, err := f.m.MarkOverdue(f.ctx); n != 1 || err != nil {
		t.Fatalf("MarkOverdue: %d, %v", n, err)
	}
}

// A payment beyond the charge's balance counts up to the balance; the excess is a refund due
// from the order that paid it, in the order's history and the charge's timeline.
func testChargeOverpaid(t *testing.T, f *chargeFixture) {
	svc := f.service()
	c := f.create(issue35())
	f.now = saoPauloAt(6, 9, 0)
	// Two of the day's orders for the whole amount; the first payment leaves nothing to pay.
	a := f.chargeOrder(c, 12345, saoPauloAt(6, 23, 59))
	b := f.chargeOrder(c, 12345, saoPauloAt(6, 23, 59))
	if o := f.paidDeposit(svc, a, 12000); o.Status != checkout.StatusUnderReview || o.RefundDue != 0 {
		t.Fatalf("the first order, underpaid: %s, refund %d", o.Status, o.RefundDue)
	}
	ob := f.paidDeposit(svc, b, 12345)
	if ob.Status != checkout.StatusPaid || ob.RefundDue != 12000 || entries(ob, checkout.ReasonPaidTwice) != 1 {
		t.Fatalf("the second order: %s, refund %d, %d paid-twice entries; want paid, 12000 to refund",
			ob.Status, ob.RefundDue, entries(ob, checkout.ReasonPaidTwice))
	}
	got := f.read(c.ID)
	if got.Status != charges.StatusPaid || got.Paid != 12345 {
		t.Fatalf("the charge: %+v, want paid 12345", got)
	}
	last := f.events(c.ID)[2]
	if last.Reason != charges.ReasonPaid || last.OrderID != b.ID || last.Paid != 345 || last.Refund != 12000 {
		t.Fatalf("the overpayment's event: %+v", last)
	}
	// The webhook again: nothing more to refund.
	if again := f.paidDeposit(svc, b, 12345); again.RefundDue != 12000 || entries(again, checkout.ReasonPaidTwice) != 1 {
		t.Fatalf("the second order after its webhook again: refund %d", again.RefundDue)
	}
}

// crashingCharges is the charges of a process that dies once an order is paid, before its
// charge counts the payment.
type crashingCharges struct{ checkout.Charges }

func (crashingCharges) ChargePaid(context.Context, string, string, gatewayclient.Cents, time.Time) (checkout.ChargePayment, error) {
	return checkout.ChargePayment{}, errors.New("the process died")
}

// listingGateway lists the deposits it holds, on one page, as the gateway's GET /deposit does.
type listingGateway struct {
	checkout.Gateway
	deposits []gatewayclient.Deposit
}

func (g listingGateway) ListDeposits(context.Context, gatewayclient.DepositFilter) (*gatewayclient.Page[gatewayclient.Deposit], error) {
	return &gatewayclient.Page[gatewayclient.Deposit]{Data: g.deposits, CurrentPage: 1, TotalPages: 1, Total: len(g.deposits)}, nil
}

// The process dies after an order of a charge is paid and before the charge counts it: the
// next process's reconciler, applying the paid deposit it lists again, counts it once, however
// many passes and webhooks follow.
func testChargeCrash(t *testing.T, f *chargeFixture) {
	c := f.create(issue35())
	f.now = saoPauloAt(6, 9, 0)
	o := f.chargeOrder(c, 12345, saoPauloAt(6, 23, 59))
	amount := gatewayclient.Cents(12345)
	d := gatewayclient.Deposit{ID: o.Attempts[0].TransactionID, Status: gatewayclient.DepositPaid, AmountPaid: &amount,
		PaymentDate: f.now, CreatedAt: f.now.Add(-time.Minute)}
	dying := checkout.NewService(f.s, nil, checkout.ServiceOptions{Logger: slog.New(slog.DiscardHandler),
		Clock: func() time.Time { return f.now }, Charges: crashingCharges{f.m}})
	if _, _, err := dying.ApplyDeposit(f.ctx, &d); err == nil {
		t.Fatal("the payment applied by the dying process: no error")
	}
	if got := mustRead(t, f.s, o.ID); got.Status != checkout.StatusPaid {
		t.Fatalf("the order after the crash: %s, want paid", got.Status)
	}
	if got := f.read(c.ID); got.Status != charges.StatusOpen || got.Paid != 0 {
		t.Fatalf("the charge after the crash: %+v, want open, nothing paid", got)
	}

	next := checkout.NewService(f.s, listingGateway{deposits: []gatewayclient.Deposit{d}}, checkout.ServiceOptions{
		Logger: slog.New(slog.DiscardHandler), Clock: func() time.Time { return f.now }, Charges: f.m})
	for range 2 { // a second process's reconciler, then another after it
		r := checkout.NewReconciler(next, f.s, checkout.ReconcilerOptions{Clock: func() time.Time { return f.now },
			Logger: slog.New(slog.DiscardHandler)})
		must(t, r.RunOnce(f.ctx))
	}
	f.paidDeposit(next, o, 12345) // and its webhook
	got := f.read(c.ID)
	if got.Status != charges.StatusPaid || got.Paid != 12345 || got.Version != 2 {
		t.Fatalf("the charge after the reconciler: %+v, want paid 12345 once (version 2)", got)
	}
	if e := f.events(c.ID)[1]; e.OrderID != o.ID || e.Paid != 12345 || e.Reason != charges.ReasonPaid {
		t.Fatalf("the payment's event: %+v", e)
	}
	if after := mustRead(t, f.s, o.ID); after.RefundDue != 0 {
		t.Fatalf("the order: refund %d after its payment counted", after.RefundDue)
	}
}
