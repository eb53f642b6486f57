package storetest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/sqlstore"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// RunReports runs the suite of the merchant's reading of the orders: the dashboard's filters
// and order summaries, and the overview's figures. open must return a new, empty store for
// each call and arrange its closing with t.Cleanup.
func RunReports(t *testing.T, open func(t *testing.T) checkout.Store) {
	t.Run("OrderSummaries", func(t *testing.T) { testOrderSummaries(t, open(t)) })
	t.Run("OrderStats", func(t *testing.T) { testOrderStats(t, open(t)) })
	t.Run("OrderStatsTopProducts", func(t *testing.T) { testTopProducts(t, open(t)) })
	t.Run("OrderStatsMoney", func(t *testing.T) { testMoneyTotals(t, open(t)) })
	t.Run("OrderStatsAttention", func(t *testing.T) { testAttention(t, open(t)) })
	t.Run("OrderSorts", func(t *testing.T) { testOrderSorts(t, open(t)) })
	t.Run("ChannelTotals", func(t *testing.T) { testChannelTotals(t, open(t)) })
}

// reportOrder is an order of the report tests: created at, amount, customer, and paid at (zero:
// unpaid, awaiting payment).
func reportOrder(t *testing.T, s checkout.Store, created time.Time, amount gatewayclient.Cents, name, email, doc string, paid time.Time) *checkout.Order {
	t.Helper()
	o := NewOrder("key-" + checkout.NewID())
	o.CreatedAt, o.UpdatedAt, o.Amount = created, created, amount
	o.Lines = []checkout.OrderLine{{ProductID: "a", Title: "Produto a", UnitPrice: amount, Quantity: 1}}
	o.Customer = checkout.Customer{Name: name, Email: email, Document: doc}
	o.History[0].At = created
	stored := mustCreate(t, s, o)
	if paid.IsZero() {
		return stored
	}
	return payOrder(t, s, stored.ID, paid)
}

// payOrder moves the order id, pending, to awaiting payment and to paid at paid.
func payOrder(t *testing.T, s checkout.Store, id string, paid time.Time) *checkout.Order {
	t.Helper()
	stored, err := s.Order(context.Background(), id)
	must(t, err)
	move(stored, checkout.StatusAwaitingPayment, stored.CreatedAt)
	move(stored, checkout.StatusPaid, paid)
	stored.PaidAt = paid
	if err := s.UpdateOrder(context.Background(), stored); err != nil {
		t.Fatalf("paying %s: %v", stored.ID, err)
	}
	return stored
}

func testOrderSummaries(t *testing.T, s checkout.Store) {
	r := &summaryOrders{s: s}
	r.a = reportOrder(t, s, summaryDay(0), 1990, "João Pereira", "joao@example.com", "52998224725", summaryDay(0).Add(time.Minute))
	r.b = reportOrder(t, s, summaryDay(1), 5900, "Ana Souza", "ana@loja.example", "11222333000181", time.Time{})
	r.c = reportOrder(t, s, summaryDay(2), 12000, "Empresa 100% Digital_Ltda", "contato@digital.example", "12ABC34501DE35", summaryDay(2).Add(time.Hour))
	r.d = reportOrder(t, s, summaryDay(3), 300, "Ana Lima", "lima@example.com", "39053344705", time.Time{})
	t.Run("Filters", r.testFilters)
	t.Run("Summary", r.testSummary)
	t.Run("Pages", r.testPages)
	t.Run("PagesByKey", r.testPagesByKey)
	t.Run("StatusPagedByKey", r.testStatusPagedByKey)
}

func testOrderStats(t *testing.T, s checkout.Store) {
	ctx := context.Background()
	zone := -3 * time.Hour
	// "Now" is 2026-03-14 12:00 UTC (09:00 in São Paulo); today starts at 03:00 UTC.
	today := time.Date(2026, 3, 14, 3, 0, 0, 0, time.UTC)
	daysAgo := func(n int) time.Time { return today.Add(-time.Duration(n) * 24 * time.Hour) }
	reportOrder(t, s, daysAgo(0).Add(time.Hour), 1000, "A", "a@x.example", "52998224725", daysAgo(0).Add(2*time.Hour))
	reportOrder(t, s, daysAgo(0).Add(-time.Hour), 2000, "B", "b@x.example", "52998224725", daysAgo(0).Add(-time.Minute)) // paid yesterday, 23:59 local
	reportOrder(t, s, daysAgo(3), 4000, "C", "c@x.example", "52998224725", daysAgo(3).Add(time.Hour))
	reportOrder(t, s, daysAgo(10), 8000, "D", "d@x.example", "52998224725", daysAgo(10).Add(time.Hour))
	reportOrder(t, s, daysAgo(40), 16000, "E", "e@x.example", "52998224725", daysAgo(40).Add(time.Hour))
	reportOrder(t, s, daysAgo(1), 500, "F", "f@x.example", "52998224725", time.Time{})  // awaiting payment
	reportOrder(t, s, daysAgo(50), 700, "G", "g@x.example", "52998224725", time.Time{}) // awaiting, old
	st, err := s.OrderStats(ctx, checkout.StatsQuery{
		PaidSince:   []time.Time{daysAgo(0), daysAgo(6), daysAgo(29)},
		PlacedSince: daysAgo(29),
		DaysFrom:    daysAgo(29),
		ZoneOffset:  zone,
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []checkout.PaidTotal{{Orders: 1, Amount: 1000}, {Orders: 3, Amount: 7000}, {Orders: 4, Amount: 15000}}
	for i, m := range st.Money {
		if m.Received != want[i] || m.FeeUnknown != want[i].Orders {
			t.Errorf("period %d: %+v, want received %+v", i, m, want[i])
		}
	}
	if st.Awaiting != 2 || st.Placed != 5 || st.PlacedPaid != 4 {
		t.Errorf("awaiting %d, placed %d, placed and paid %d; want 2, 5, 4", st.Awaiting, st.Placed, st.PlacedPaid)
	}
	wantDays := map[int64]checkout.PaidTotal{
		checkout.DayNumber(daysAgo(0), zone):  {Orders: 1, Amount: 1000},
		checkout.DayNumber(daysAgo(1), zone):  {Orders: 1, Amount: 2000},
		checkout.DayNumber(daysAgo(3), zone):  {Orders: 1, Amount: 4000},
		checkout.DayNumber(daysAgo(10), zone): {Orders: 1, Amount: 8000},
	}
	gotDays := map[int64]checkout.PaidTotal{}
	for d, m := range st.Days {
		gotDays[d] = m.Received
	}
	if fmt.Sprint(gotDays) != fmt.Sprint(wantDays) {
		t.Errorf("days %v, want %v", st.Days, wantDays)
	}
	// Periods without payments answer zeros.
	later := today.Add(48 * time.Hour)
	none, err := s.OrderStats(ctx, checkout.StatsQuery{PaidSince: []time.Time{later}, PlacedSince: later, DaysFrom: later, ZoneOffset: zone})
	if err != nil || none.Money[0] != (checkout.MoneyTotals{}) || none.Placed != 0 || len(none.Days) != 0 || none.Awaiting != 2 {
		t.Errorf("a period without payments: %+v, %v", none, err)
	}
}

// testTopProducts: the products ranked by what they brought in the orders paid in the period
// (unit price × quantity, shipping aside), a line without a product under its title; orders
// unpaid or paid before the period do not count; an order paid then refunded counts on its day
// of payment (as its money is received that day); an order created paid counts; an order whose
// payment is moved to another day counts once, on the new day; the limit holds; the previous
// period's days are there when DaysFrom reaches back to them.
func testTopProducts(t *testing.T, s checkout.Store) {
	ctx := context.Background()
	zone := -3 * time.Hour
	today := time.Date(2026, 3, 14, 3, 0, 0, 0, time.UTC)
	daysAgo := func(n int) time.Time { return today.Add(-time.Duration(n) * 24 * time.Hour) }
	order := func(created, paid time.Time, lines ...checkout.OrderLine) *checkout.Order {
		t.Helper()
		o := NewOrder("key-" + checkout.NewID())
		o.CreatedAt, o.UpdatedAt, o.History[0].At = created, created, created
		o.Lines, o.Amount, o.Shipping = lines, 990, 990 // the shipping is no product's revenue
		for _, l := range lines {
			o.Amount += l.UnitPrice * gatewayclient.Cents(l.Quantity)
		}
		stored := mustCreate(t, s, o)
		if paid.IsZero() {
			return stored
		}
		return payOrder(t, s, stored.ID, paid)
	}
	book := checkout.OrderLine{ProductID: "livro", Title: "Livro", UnitPrice: 4990, Quantity: 1}
	mug := checkout.OrderLine{ProductID: "caneca", Title: "Caneca", UnitPrice: 3500, Quantity: 2, Physical: true}
	gift := checkout.OrderLine{Title: "Doação", UnitPrice: 2000, Quantity: 1}
	order(daysAgo(2), daysAgo(2).Add(time.Hour), book, mug)                   // livro 4990; caneca 2 × 3500
	order(daysAgo(5), daysAgo(5).Add(time.Hour), withQuantity(book, 3))       // livro 3 × 4990
	order(daysAgo(6), daysAgo(6).Add(time.Hour), gift, withQuantity(gift, 2)) // Doação 3 × 2000 (two lines)
	order(daysAgo(1), time.Time{}, withQuantity(mug, 10))                     // unpaid
	order(daysAgo(40), daysAgo(40).Add(time.Hour), withQuantity(mug, 50))     // paid in the previous period
	order(daysAgo(29), daysAgo(29).Add(time.Hour), checkout.OrderLine{ProductID: "marcador", Title: "Marcador", UnitPrice: 500, Quantity: 1})
	refunded := order(daysAgo(3), daysAgo(3).Add(time.Hour), mug) // caneca 2 × 3500, then refunded
	move(refunded, checkout.StatusRefunding, daysAgo(1))
	refunded.RefundedAt = daysAgo(1)
	mustUpdate(t, s, refunded)
	move(refunded, checkout.StatusRefunded, daysAgo(1).Add(time.Hour))
	mustUpdate(t, s, refunded)
	created := NewOrder("key-" + checkout.NewID()) // written paid: marcador 4 × 500
	created.Status, created.PaidAt, created.Amount = checkout.StatusPaid, daysAgo(7), 2000
	created.Lines = []checkout.OrderLine{{ProductID: "marcador", Title: "Marcador", UnitPrice: 500, Quantity: 4}}
	mustCreate(t, s, created)
	moved := order(daysAgo(45), daysAgo(45).Add(time.Hour), withQuantity(book, 2)) // livro 2 × 4990, moved into the period
	moved.PaidAt = daysAgo(4)
	mustUpdate(t, s, moved)
	top := func(since time.Time, limit int) []checkout.ProductTotal {
		t.Helper()
		st, err := s.OrderStats(ctx, checkout.StatsQuery{PaidSince: []time.Time{since}, PlacedSince: since,
			DaysFrom: since, ZoneOffset: zone, TopSince: since, TopLimit: limit})
		if err != nil {
			t.Fatal(err)
		}
		return st.Top
	}
	want := []checkout.ProductTotal{
		{ProductID: "livro", Title: "Livro", Units: 6, Revenue: 6 * 4990},
		{ProductID: "caneca", Title: "Caneca", Units: 4, Revenue: 4 * 3500},
		{Title: "Doação", Units: 3, Revenue: 6000},
	}
	if got := top(daysAgo(29), 3); !slices.Equal(got, want) {
		t.Errorf("top %+v\nwant %+v", got, want)
	}
	// Over 60 days: the order paid 40 days ago too, and the moved one once.
	want = []checkout.ProductTotal{
		{ProductID: "caneca", Title: "Caneca", Units: 54, Revenue: 54 * 3500},
		{ProductID: "livro", Title: "Livro", Units: 6, Revenue: 6 * 4990},
		{Title: "Doação", Units: 3, Revenue: 6000},
		{ProductID: "marcador", Title: "Marcador", Units: 5, Revenue: 2500},
	}
	if got := top(daysAgo(59), 5); !slices.Equal(got, want) {
		t.Errorf("top over 60 days %+v\nwant %+v", got, want)
	}
	st, err := s.OrderStats(ctx, checkout.StatsQuery{PaidSince: []time.Time{daysAgo(29)}, PlacedSince: daysAgo(29),
		DaysFrom: daysAgo(59), ZoneOffset: zone, TopSince: daysAgo(29), TopLimit: 3})
	if err != nil {
		t.Fatal(err)
	}
	if got := st.Days[checkout.DayNumber(daysAgo(40), zone)].Received; got != (checkout.PaidTotal{Orders: 1, Amount: 50*3500 + 990}) {
		t.Errorf("the previous period's day: %+v", got)
	}
	if st.Money[0].Received.Orders != 7 {
		t.Errorf("paid in the period: %+v", st.Money[0])
	}
	none, err := s.OrderStats(ctx, checkout.StatsQuery{PaidSince: []time.Time{today}, PlacedSince: today, DaysFrom: today,
		ZoneOffset: zone, TopSince: today.Add(time.Hour), TopLimit: 3})
	if err != nil || len(none.Top) != 0 {
		t.Errorf("a period without payments: %+v, %v", none.Top, err)
	}
}

// testMoneyTotals: an order paid (its fee known), then refunded, then another paid (its fee
// unknown) give the periods' received, refunded, fees and net exactly, each figure on its own
// day; an order under review counts as held until it leaves review; a period of a later day
// holds only the refund.
func testMoneyTotals(t *testing.T, s checkout.Store) {
	ctx := context.Background()
	today := time.Date(2026, 3, 14, 3, 0, 0, 0, time.UTC) // 00:00 in São Paulo
	daysAgo := func(n int) time.Time { return today.Add(-time.Duration(n) * 24 * time.Hour) }
	fee := gatewayclient.Cents(99)
	a := reportOrder(t, s, daysAgo(2), 10000, "A", "a@x.example", "52998224725", time.Time{})
	move(a, checkout.StatusAwaitingPayment, daysAgo(2))
	move(a, checkout.StatusPaid, daysAgo(2).Add(time.Minute))
	a.PaidAt, a.Fee = daysAgo(2).Add(time.Minute), &fee
	mustUpdate(t, s, a)
	move(a, checkout.StatusRefunding, daysAgo(0).Add(time.Hour))
	a.RefundedAt = daysAgo(0).Add(time.Hour)
	mustUpdate(t, s, a)
	move(a, checkout.StatusRefunded, daysAgo(0).Add(2*time.Hour)) // the refund's day stays its beginning's
	mustUpdate(t, s, a)
	reportOrder(t, s, daysAgo(0), 2500, "B", "b@x.example", "52998224725", daysAgo(0).Add(3*time.Hour))
	c := reportOrder(t, s, daysAgo(1), 700, "C", "c@x.example", "52998224725", time.Time{})
	move(c, checkout.StatusUnderReview, daysAgo(1).Add(time.Hour))
	c.HeldAt = daysAgo(1).Add(time.Hour)
	mustUpdate(t, s, c)
	stats := func(since ...time.Time) *checkout.OrderStats {
		t.Helper()
		st, err := s.OrderStats(ctx, checkout.StatsQuery{PaidSince: since, PlacedSince: since[0], DaysFrom: since[0],
			ZoneOffset: checkout.MoneyDayOffset})
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	st := stats(daysAgo(6), daysAgo(0))
	week := checkout.MoneyTotals{Received: checkout.PaidTotal{Orders: 2, Amount: 12500},
		Refunded: checkout.PaidTotal{Orders: 1, Amount: 10000}, Held: checkout.PaidTotal{Orders: 1, Amount: 700},
		Fees: checkout.PaidTotal{Orders: 1, Amount: 99}, FeeUnknown: 1}
	if st.Money[0] != week || week.Net() != 12500-10000-99 {
		t.Errorf("7 days: %+v, want %+v", st.Money[0], week)
	}
	today0 := checkout.MoneyTotals{Received: checkout.PaidTotal{Orders: 1, Amount: 2500},
		Refunded: checkout.PaidTotal{Orders: 1, Amount: 10000}, FeeUnknown: 1}
	if st.Money[1] != today0 || st.Money[1].Net() != -7500 {
		t.Errorf("today: %+v, want %+v", st.Money[1], today0)
	}
	if st.Placed != 3 || st.PlacedPaid != 2 {
		t.Errorf("placed %d, placed and paid %d; want 3, 2", st.Placed, st.PlacedPaid)
	}
	// Out of review: no longer held.
	move(c, checkout.StatusFailed, daysAgo(0).Add(4*time.Hour))
	mustUpdate(t, s, c)
	if st := stats(daysAgo(6)); st.Money[0].Held != (checkout.PaidTotal{}) {
		t.Errorf("held after the review: %+v", st.Money[0].Held)
	}
}

// testAttention: with the overview's figures, the orders with a refund due and what they are
// owed, and the paid orders with something to ship not yet shipped (one shipped, one unpaid
// and one without anything to ship do not count); none without Attention.
func testAttention(t *testing.T, s checkout.Store) {
	ctx := context.Background()
	at := time.Date(2026, 3, 14, 3, 0, 0, 0, time.UTC)
	paid := func(physical bool) *checkout.Order {
		t.Helper()
		o := NewOrder("key-" + checkout.NewID())
		o.Physical = physical
		return payOrder(t, s, mustCreate(t, s, o).ID, at.Add(time.Minute))
	}
	paid(true)
	shipped := paid(true)
	shipped.ShippedAt, shipped.Carrier, shipped.TrackingCode = at.Add(time.Hour), "Correios", "AA123456789BR"
	mustUpdate(t, s, shipped)
	mustCreate(t, s, NewOrder("key-"+checkout.NewID())) // physical, unpaid
	for _, due := range []gatewayclient.Cents{1500, 700} {
		o := paid(false)
		o.RefundDue = due
		mustUpdate(t, s, o)
	}
	q := checkout.StatsQuery{PaidSince: []time.Time{at}, PlacedSince: at, DaysFrom: at, ZoneOffset: checkout.MoneyDayOffset}
	st, err := s.OrderStats(ctx, q)
	if err != nil || st.RefundsDue != 0 || st.RefundDue != 0 || st.AwaitingShipment != 0 {
		t.Fatalf("without Attention: %+v, %v", st, err)
	}
	q.Attention = true
	st, err = s.OrderStats(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if st.RefundsDue != 2 || st.RefundDue != 2200 || st.AwaitingShipment != 1 {
		t.Errorf("refunds due %d (%d cents), awaiting shipment %d; want 2 (2200), 1", st.RefundsDue, st.RefundDue, st.AwaitingShipment)
	}
}

// mustUpdate stores o's changes.
func mustUpdate(t *testing.T, s checkout.Store, o *checkout.Order) {
	t.Helper()
	if err := s.UpdateOrder(context.Background(), o); err != nil {
		t.Fatalf("updating %s: %v", o.Number, err)
	}
}

func withQuantity(l checkout.OrderLine, n int) checkout.OrderLine {
	l.Quantity = n
	return l
}

// RunSummaryQueryCounts checks, for a store built on sqlstore, that a page of order summaries
// costs two statements (the page, the capped count) however many orders it shows, and the
// overview two, three with its top products and five with what awaits the merchant (each sent
// together: one round trip on PostgreSQL). open is as for RunQueryCounts.
func RunSummaryQueryCounts(t *testing.T, open func(t *testing.T, wrap func(sqlstore.DB) sqlstore.DB) checkout.Store) {
	ctx := context.Background()
	var c *QueryCounter
	s := open(t, func(db sqlstore.DB) sqlstore.DB {
		c = newQueryCounter(db)
		return c
	})
	count := func(fn func() error) int64 {
		t.Helper()
		before := c.Statements()
		must(t, fn())
		return c.Statements() - before
	}
	page := func(limit int) int64 {
		return count(func() error {
			_, _, err := s.OrderSummaries(ctx, checkout.OrderFilter{Search: "maria", Limit: limit})
			return err
		})
	}
	mustCreate(t, s, NewOrder("key-"+checkout.NewID()))
	one := page(1)
	for range 29 {
		mustCreate(t, s, NewOrder("key-"+checkout.NewID()))
	}
	if many := page(30); many != 2 || one != 2 {
		t.Errorf("a page of 1 summary ran %d statements, of 30 %d; want 2 each", one, many)
	}
	stats := count(func() error {
		_, err := s.OrderStats(ctx, checkout.StatsQuery{PaidSince: []time.Time{base}, PlacedSince: base, DaysFrom: base,
			ZoneOffset: checkout.MoneyDayOffset})
		return err
	})
	if stats != 2 {
		t.Errorf("the overview ran %d statements, want 2", stats)
	}
	withTop := count(func() error {
		_, err := s.OrderStats(ctx, checkout.StatsQuery{PaidSince: []time.Time{base}, PlacedSince: base, DaysFrom: base,
			ZoneOffset: checkout.MoneyDayOffset, TopSince: base, TopLimit: 5})
		return err
	})
	if withTop != 3 {
		t.Errorf("the overview with its top products ran %d statements, want 3", withTop)
	}
	whole := count(func() error {
		_, err := s.OrderStats(ctx, checkout.StatsQuery{PaidSince: []time.Time{base}, PlacedSince: base, DaysFrom: base,
			ZoneOffset: checkout.MoneyDayOffset, TopSince: base, TopLimit: 5, Attention: true})
		return err
	})
	if whole != 5 {
		t.Errorf("the overview with what awaits the merchant ran %d statements, want 5", whole)
	}
}

// summaryOrders are the orders the summaries' steps share, one a day: a (paid), b, c (paid) and
// d; e is placed between two pages.
type summaryOrders struct {
	s             checkout.Store
	a, b, c, d, e *checkout.Order
}

func summaryDay(n int) time.Time { return base.Add(time.Duration(n) * 24 * time.Hour) }

// list is the ids of the summaries the filter finds, and their total.
func (r *summaryOrders) list(t *testing.T, f checkout.OrderFilter) ([]string, int) {
	t.Helper()
	got, total, err := r.s.OrderSummaries(context.Background(), f)
	must(t, err)
	var ids []string
	for _, o := range got {
		ids = append(ids, o.ID)
	}
	return ids, total
}

// page is the ids of the summaries the filter finds.
func (r *summaryOrders) page(t *testing.T, f checkout.OrderFilter) []string {
	t.Helper()
	ids, _ := r.list(t, f)
	return ids
}

// orders is the ids of the orders the filter finds.
func (r *summaryOrders) orders(t *testing.T, f checkout.OrderFilter) []string {
	t.Helper()
	os, err := r.s.Orders(context.Background(), f)
	must(t, err)
	var ids []string
	for _, o := range os {
		ids = append(ids, o.ID)
	}
	return ids
}

// key is the paging key of the order id.
func (r *summaryOrders) key(t *testing.T, id string) checkout.Cursor {
	t.Helper()
	o := mustRead(t, r.s, id)
	return checkout.Cursor{Key: checkout.KeyOf(o.CreatedAt, o.ID)}
}

// testFilters: each filter of the dashboard alone, and combined, in summaries and orders.
func (r *summaryOrders) testFilters(t *testing.T) {
	a, b, c, d := r.a, r.b, r.c, r.d
	for _, tc := range []struct {
		name string
		f    checkout.OrderFilter
		want []string
	}{
		{"all, newest first", checkout.OrderFilter{}, []string{d.ID, c.ID, b.ID, a.ID}},
		{"status", checkout.OrderFilter{Statuses: []checkout.OrderStatus{checkout.StatusPaid}}, []string{c.ID, a.ID}},
		{"dates", checkout.OrderFilter{CreatedFrom: summaryDay(1), CreatedBefore: summaryDay(3)}, []string{c.ID, b.ID}},
		{"amounts", checkout.OrderFilter{MinAmount: 1990, MaxAmount: 5900}, []string{b.ID, a.ID}},
		{"name, case aside", checkout.OrderFilter{Search: "ANA"}, []string{d.ID, b.ID}},
		{"accented name", checkout.OrderFilter{Search: "joão"}, []string{a.ID}},
		{"e-mail", checkout.OrderFilter{Search: "@loja.example"}, []string{b.ID}},
		{"a whole e-mail, case aside", checkout.OrderFilter{Search: " JOAO@Example.com "}, []string{a.ID}},
		{"number", checkout.OrderFilter{Search: c.Number}, []string{c.ID}},
		{"a whole number, lower-case", checkout.OrderFilter{Search: strings.ToLower(c.Number)}, []string{c.ID}},
		{"a whole number of no order", checkout.OrderFilter{Search: "PX-00000000"}, nil},
		{"externalCode", checkout.OrderFilter{Search: a.ExternalCode[:10]}, []string{a.ID}},
		{"CPF typed with punctuation", checkout.OrderFilter{Search: "529.982.247-25"}, []string{a.ID}},
		{"CNPJ part", checkout.OrderFilter{Search: "11.222.333"}, []string{b.ID}},
		{"alphanumeric CNPJ, lower-case", checkout.OrderFilter{Search: "12.abc.345/01de-35"}, []string{c.ID}},
		{"a percent sign", checkout.OrderFilter{Search: "100%"}, []string{c.ID}},
		{"a % is no wildcard", checkout.OrderFilter{Search: "a%z"}, nil},
		{"an _ is no wildcard", checkout.OrderFilter{Search: "a_l"}, nil},
		{"an underscore", checkout.OrderFilter{Search: "l_ltda"}, []string{c.ID}},
		{"combined", checkout.OrderFilter{Search: "ana", Statuses: []checkout.OrderStatus{checkout.StatusPending}, MinAmount: 1000}, []string{b.ID}},
		// "uu1" can be in no id (base32: no 1) nor number (Crockford: no U): "zzz" once matched a
		// random id.
		{"no match", checkout.OrderFilter{Search: "uu1"}, nil},
	} {
		got, total := r.list(t, tc.f)
		same(t, tc.name+" (ids, total)", fmt.Sprint(got, total), fmt.Sprint(tc.want, len(tc.want)))
	}
	// The same filters hold for Orders.
	same(t, "Orders with the merchant's filters", r.orders(t, checkout.OrderFilter{Search: "ana", MaxAmount: 1000}), []string{d.ID})
}

// testSummary: a summary carries what a list shows.
func (r *summaryOrders) testSummary(t *testing.T) {
	sums, _, err := r.s.OrderSummaries(context.Background(), checkout.OrderFilter{Search: r.a.Number})
	must(t, err)
	if len(sums) != 1 {
		t.Fatal("no summary")
	}
	got := sums[0]
	if got.Number != r.a.Number || got.Status != checkout.StatusPaid || got.Amount != 1990 || got.CustomerName != "João Pereira" ||
		got.CustomerEmail != "joao@example.com" || got.CustomerDocument != "52998224725" || !got.CreatedAt.Equal(summaryDay(0)) ||
		!got.PaidAt.Equal(summaryDay(0).Add(time.Minute)) || got.ExternalCode != r.a.ExternalCode {
		t.Errorf("summary %+v", got)
	}
}

// testPages: pages count every match; past the end, an empty page with the right total.
func (r *summaryOrders) testPages(t *testing.T) {
	got, total := r.list(t, checkout.OrderFilter{Limit: 2, Offset: 1})
	same(t, "page 2 of 2 (ids, total)", fmt.Sprint(got, total), fmt.Sprint([]string{r.c.ID, r.b.ID}, 4))
	got, total = r.list(t, checkout.OrderFilter{Limit: 2, Offset: 10})
	same(t, "past the end (ids, total)", fmt.Sprint(got, total), fmt.Sprint([]string{}, 4))
}

// testPagesByKey: an order placed between two pages repeats no row and hides none; going back
// gives the page before, newest first; the total is the filter's, not the page's side.
func (r *summaryOrders) testPagesByKey(t *testing.T) {
	a, b, c, d := r.a, r.b, r.c, r.d
	if !same(t, "page 1 by key", r.page(t, checkout.OrderFilter{Limit: 2}), []string{d.ID, c.ID}) {
		t.FailNow()
	}
	r.e = reportOrder(t, r.s, summaryDay(4), 700, "Eva Nova", "eva@example.com", "52998224725", time.Time{})
	got, total := r.list(t, checkout.OrderFilter{Limit: 2, Page: r.key(t, c.ID)})
	same(t, "the page after c, an order placed meanwhile (ids, total)", fmt.Sprint(got, total), fmt.Sprint([]string{b.ID, a.ID}, 5))
	back := func(id string) checkout.Cursor {
		k := r.key(t, id)
		k.Backward = true
		return k
	}
	same(t, "the page before b", r.page(t, checkout.OrderFilter{Limit: 2, Page: back(b.ID)}), []string{d.ID, c.ID})
	same(t, "the page before c", r.page(t, checkout.OrderFilter{Limit: 2, Page: back(c.ID)}), []string{r.e.ID, d.ID})
	same(t, "Orders after c", r.orders(t, checkout.OrderFilter{Limit: 2, Page: r.key(t, c.ID)}), []string{b.ID, a.ID})
	same(t, "Orders before b", r.orders(t, checkout.OrderFilter{Limit: 2, Page: back(b.ID)}), []string{d.ID, c.ID})
}

// testStatusPagedByKey: a status filter paged by key: an order paid between two pages leaves
// the filter without making another one vanish from the next page.
func (r *summaryOrders) testStatusPagedByKey(t *testing.T) {
	if r.e == nil {
		t.Skip("e was not placed")
	}
	pending := []checkout.OrderStatus{checkout.StatusPending}
	if !same(t, "pending, page 1", r.page(t, checkout.OrderFilter{Statuses: pending, Limit: 1}), []string{r.e.ID}) {
		t.FailNow()
	}
	payOrder(t, r.s, r.e.ID, summaryDay(4).Add(time.Minute))
	same(t, "pending, page 2 after the first page's order was paid",
		r.page(t, checkout.OrderFilter{Statuses: pending, Limit: 1, Page: r.key(t, r.e.ID)}), []string{r.d.ID})
}

// channelOrder is an order of testChannelTotals.
type channelOrder struct {
	id      string
	channel checkout.Channel
	amount  gatewayclient.Cents
	paid    bool
}

// channelOrders places three orders of each channel over the last three days up to today (São
// Paulo), each carrying its source's id as its channel's orders do, and pays two of each.
func channelOrders(t *testing.T, s checkout.Store, today time.Time) []channelOrder {
	var all []channelOrder
	sources := map[checkout.Channel]func(o *checkout.Order){
		checkout.ChannelSession: func(o *checkout.Order) { o.SessionID = "sess-" + checkout.NewID() },
		checkout.ChannelLink:    func(o *checkout.Order) { o.LinkID = "link-" + checkout.NewID() },
		checkout.ChannelCharge:  func(o *checkout.Order) { o.ChargeID = "charge-" + checkout.NewID() },
		checkout.ChannelPOS:     func(o *checkout.Order) { o.TerminalID = "terminal-1" },
	}
	for i, ch := range checkout.Channels() {
		for j := range 3 {
			o := NewOrder("key-" + checkout.NewID())
			created := today.Add(-time.Duration(j) * 24 * time.Hour).Add(time.Duration(i) * time.Minute)
			amount := gatewayclient.Cents(1000*(i+1) + 10*j)
			o.CreatedAt, o.UpdatedAt, o.Amount, o.Channel = created, created, amount, ch
			o.Lines = []checkout.OrderLine{{Title: "Item", UnitPrice: amount, Quantity: 1}}
			o.History[0].At = created
			if set := sources[ch]; set != nil {
				set(o)
			}
			stored := mustCreate(t, s, o)
			if j < 2 {
				payOrder(t, s, stored.ID, created.Add(time.Hour))
			}
			all = append(all, channelOrder{id: stored.ID, channel: ch, amount: amount, paid: j < 2})
		}
	}
	return all
}

// channelSums are the sums of the orders of channels: paid, awaiting payment, placed, and
// their ids.
func channelSums(all []channelOrder, channels ...checkout.Channel) (paid checkout.PaidTotal, awaiting, placed int, ids []string) {
	for _, o := range all {
		if !slices.Contains(channels, o.channel) {
			continue
		}
		placed++
		ids = append(ids, o.id)
		if o.paid {
			paid.Orders, paid.Amount = paid.Orders+1, paid.Amount+o.amount
		} else {
			awaiting++
		}
	}
	return paid, awaiting, placed, ids
}

// testChannelTotals: the overview's figures of a channel, and of several, are the sums of their
// orders (paid ones by day of payment, unpaid ones awaiting), the totals by channel are those
// of each channel whatever the filter, and the order list of a channel holds exactly its orders.
func testChannelTotals(t *testing.T, s checkout.Store) {
	today := time.Date(2026, 3, 14, 3, 0, 0, 0, time.UTC) // 00:00 in São Paulo
	all := channelOrders(t, s, today)
	stats := func(channels ...checkout.Channel) *checkout.OrderStats {
		t.Helper()
		since := today.Add(-6 * 24 * time.Hour)
		st, err := s.OrderStats(context.Background(), checkout.StatsQuery{PaidSince: []time.Time{since}, PlacedSince: since,
			DaysFrom: since, ZoneOffset: checkout.MoneyDayOffset, Channels: channels})
		must(t, err)
		return st
	}
	every := stats()
	for _, set := range [][]checkout.Channel{{checkout.ChannelShop}, {checkout.ChannelSession}, {checkout.ChannelLink},
		{checkout.ChannelCharge}, {checkout.ChannelPOS}, {checkout.ChannelLink, checkout.ChannelCharge}} {
		paid, awaiting, placed, ids := channelSums(all, set...)
		st := stats(set...)
		if st.Money[0].Received != paid || st.Awaiting != awaiting || st.Placed != placed || st.PlacedPaid != paid.Orders {
			t.Errorf("%v: received %+v, awaiting %d, placed %d/%d; want %+v, %d, %d", set, st.Money[0].Received, st.Awaiting,
				st.Placed, st.PlacedPaid, paid, awaiting, placed)
		}
		if len(set) == 1 && every.ByChannel[set[0]][0].Received != paid {
			t.Errorf("%v by channel: %+v, want %+v", set, every.ByChannel[set[0]], paid)
		}
		if !slices.Equal(st.ByChannel[checkout.ChannelShop], every.ByChannel[checkout.ChannelShop]) {
			t.Errorf("%v: the totals by channel follow the filter", set)
		}
		checkChannelList(t, s, set, ids)
	}
	if total, _, _, _ := channelSums(all, checkout.Channels()...); every.Money[0].Received != total {
		t.Errorf("every channel: %+v, want %+v", every.Money[0].Received, total)
	}
}

// checkChannelList: the order list of the channels set holds the orders ids, each of its channel.
func checkChannelList(t *testing.T, s checkout.Store, set []checkout.Channel, ids []string) {
	t.Helper()
	list, n, err := s.OrderSummaries(context.Background(), checkout.OrderFilter{Channels: set})
	must(t, err)
	var got []string
	for _, o := range list {
		if !slices.Contains(set, o.Channel) {
			t.Errorf("%v lists an order of %s", set, o.Channel)
		}
		got = append(got, o.ID)
	}
	if n != len(ids) || !sameSet(got, ids) {
		t.Errorf("%v lists %d orders %v, want %v", set, n, got, ids)
	}
}
