package storetest

import (
	"context"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/pos"
)

// closingSale is a sale of the closing's case: where, by whom, when (São Paulo wall clock),
// how much and how it ended.
type closingSale struct {
	terminal, cashier string
	at                time.Time
	amount            checkout.Cents
	status            checkout.OrderStatus
}

// The day's closing: sales at two terminals by two cashiers over two São Paulo days (one at
// 23:59 of the first, one at 00:00 of the second, which UTC would put in the same day) paid,
// canceled, expired and still awaiting payment; each group's totals are the store's sums and
// equal the sums of its listed sales, the day's totals those of the groups; a terminal and a
// cashier narrow it.
func testClosing(t *testing.T, s POSStores) {
	ctx := context.Background()
	sp := time.FixedZone("-03", -3*3600)
	day1 := time.Date(2026, 3, 13, 0, 0, 0, 0, sp)
	at := func(d time.Time, hm string) time.Time {
		c, err := time.Parse("15:04", hm)
		must(t, err)
		return d.Add(time.Duration(c.Hour())*time.Hour + time.Duration(c.Minute())*time.Minute)
	}
	day2 := day1.AddDate(0, 0, 1)
	sales := []closingSale{
		{pos.FirstTerminal, "ana", at(day1, "08:00"), 1234, checkout.StatusPaid},
		{pos.FirstTerminal, "ana", at(day1, "12:30"), 500, checkout.StatusCanceled},
		{pos.FirstTerminal, "ana", at(day1, "23:59"), 10000, checkout.StatusPaid},
		{pos.FirstTerminal, "bia", at(day1, "09:15"), 250, checkout.StatusExpired},
		{pos.FirstTerminal, "bia", at(day1, "10:00"), 9999, checkout.StatusPaid},
		{"caixa-2", "ana", at(day1, "14:00"), 700, checkout.StatusAwaitingPayment},
		{"caixa-2", "ana", at(day1, "15:00"), 1, checkout.StatusPaid},
		{pos.FirstTerminal, "ana", at(day2, "00:00"), 4321, checkout.StatusPaid},
		{"caixa-2", "bia", at(day2, "00:01"), 800, checkout.StatusExpired},
		{"caixa-2", "bia", at(day2, "18:00"), 100000, checkout.StatusRefunded},
	}
	for _, sl := range sales {
		closingOrder(t, s, sl)
	}
	shop := NewOrder("key-" + checkout.NewID()) // an online order of the day is no sale
	shop.CreatedAt, shop.UpdatedAt, shop.Status, shop.PaidAt = at(day1, "11:00"), at(day1, "11:00"), checkout.StatusPaid, at(day1, "11:05")
	mustCreate(t, s, shop)

	m := pos.NewManager(s, func() time.Time { return at(day2, "00:30") })
	if got := m.Today(); !got.Equal(day2) {
		t.Errorf("today at 00:30 in São Paulo (03:30 UTC): %v, want %v", got, day2)
	}
	read := func(day time.Time, terminal, cashier string) *pos.Closing {
		t.Helper()
		c, err := m.Closing(ctx, day, terminal, cashier)
		must(t, err)
		checkClosingSums(t, c)
		return c
	}
	c := read(at(day1, "17:00"), "", "")
	want := []pos.ClosingGroup{
		{TerminalID: pos.FirstTerminal, CashierID: "ana", ClosingTotals: pos.ClosingTotals{Count: 3,
			Paid: checkout.PaidTotal{Orders: 2, Amount: 11234}, Canceled: 1, First: at(day1, "08:00"), Last: at(day1, "23:59")}},
		{TerminalID: pos.FirstTerminal, CashierID: "bia", ClosingTotals: pos.ClosingTotals{Count: 2,
			Paid: checkout.PaidTotal{Orders: 1, Amount: 9999}, Expired: 1, First: at(day1, "09:15"), Last: at(day1, "10:00")}},
		{TerminalID: "caixa-2", CashierID: "ana", ClosingTotals: pos.ClosingTotals{Count: 2,
			Paid: checkout.PaidTotal{Orders: 1, Amount: 1}, First: at(day1, "14:00"), Last: at(day1, "15:00")}},
	}
	sameGroups(t, "the first day", c, want)
	if c.Count != 7 || c.Paid != (checkout.PaidTotal{Orders: 4, Amount: 21234}) || c.Canceled != 1 || c.Expired != 1 ||
		!c.First.Equal(at(day1, "08:00")) || !c.Last.Equal(at(day1, "23:59")) || !c.Day.Equal(day1) {
		t.Errorf("the first day's totals: %+v", c)
	}
	c = read(day2, "", "")
	sameGroups(t, "the second day", c, []pos.ClosingGroup{
		{TerminalID: pos.FirstTerminal, CashierID: "ana", ClosingTotals: pos.ClosingTotals{Count: 1,
			Paid: checkout.PaidTotal{Orders: 1, Amount: 4321}, First: at(day2, "00:00"), Last: at(day2, "00:00")}},
		{TerminalID: "caixa-2", CashierID: "bia", ClosingTotals: pos.ClosingTotals{Count: 2,
			Paid: checkout.PaidTotal{Orders: 1, Amount: 100000}, Expired: 1, First: at(day2, "00:01"), Last: at(day2, "18:00")}},
	})
	sameGroups(t, "Caixa 1 on the first day", read(day1, pos.FirstTerminal, ""), want[:2])
	sameGroups(t, "ana on the first day", read(day1, "", "ana"), []pos.ClosingGroup{want[0], want[2]})
	sameGroups(t, "bia at Caixa 1", read(day1, pos.FirstTerminal, "bia"), want[1:2])
	if c := read(day1.AddDate(0, 0, -1), "", ""); len(c.Groups) != 0 || c.Count != 0 || !c.First.IsZero() {
		t.Errorf("a day without sales: %+v", c)
	}
	terminalFigures(t, s, day1)
}

// terminalFigures checks the overview's figures and the list's total of one terminal, on the
// sales of testClosing: money by the day it was paid (the sale of 23:59 was paid at 00:00 of
// the next day), placed by the day it was placed.
func terminalFigures(t *testing.T, s POSStores, day1 time.Time) {
	t.Helper()
	ctx := context.Background()
	day2 := day1.AddDate(0, 0, 1)
	st, err := s.OrderStats(ctx, checkout.StatsQuery{PaidSince: []time.Time{day2, day1}, PlacedSince: day1, DaysFrom: day1,
		ZoneOffset: checkout.MoneyDayOffset, TerminalID: pos.FirstTerminal})
	must(t, err)
	d1, d2 := checkout.DayNumber(day1, checkout.MoneyDayOffset), checkout.DayNumber(day2, checkout.MoneyDayOffset)
	if got := st.Days[d1].Received; got != (checkout.PaidTotal{Orders: 2, Amount: 1234 + 9999}) {
		t.Errorf("Caixa 1's money of the first day: %+v", got)
	}
	if got := st.Days[d2].Received; got != (checkout.PaidTotal{Orders: 2, Amount: 10000 + 4321}) {
		t.Errorf("Caixa 1's money of the second day: %+v", got)
	}
	if st.Money[1].Received.Amount != 1234+9999+10000+4321 || st.Placed != 6 || st.PlacedPaid != 4 || st.Awaiting != 0 ||
		len(st.ByChannel) != 1 || st.ByChannel[checkout.ChannelPOS][1].Received.Orders != 4 {
		t.Errorf("Caixa 1's figures: %+v", st)
	}
	st, err = s.OrderStats(ctx, checkout.StatsQuery{PaidSince: []time.Time{day1}, PlacedSince: day1, DaysFrom: day1,
		ZoneOffset: checkout.MoneyDayOffset, TerminalID: "caixa-2"})
	must(t, err)
	if st.Awaiting != 1 || st.Money[0].Received != (checkout.PaidTotal{Orders: 2, Amount: 100001}) || st.Money[0].FeeUnknown != 2 {
		t.Errorf("Caixa 2's figures: %+v", st)
	}
	listTotals(t, s)
}

// listTotals checks the totals of lists of testClosing's sales: a terminal's, the paid ones.
func listTotals(t *testing.T, s POSStores) {
	t.Helper()
	ctx := context.Background()
	n, sum, err := s.OrderTotal(ctx, checkout.OrderFilter{TerminalID: "caixa-2", Limit: 1})
	if err != nil || n != 4 || sum != 700+1+800+100000 {
		t.Errorf("the total of Caixa 2's sales: %d, %d, %v", n, sum, err)
	}
	n, sum, err = s.OrderTotal(ctx, checkout.OrderFilter{Channels: []checkout.Channel{checkout.ChannelPOS},
		Statuses: []checkout.OrderStatus{checkout.StatusPaid}})
	if err != nil || n != 5 || sum != 1234+10000+9999+1+4321 {
		t.Errorf("the total of the paid sales: %d, %d, %v", n, sum, err)
	}
}

// closingOrder stores sale sl, paid a minute after it was placed when it was.
func closingOrder(t *testing.T, s POSStores, sl closingSale) *checkout.Order {
	t.Helper()
	o := NewOrder("pos:" + sl.terminal + "/" + checkout.NewID())
	o.Channel, o.TerminalID, o.CashierID, o.Address, o.Physical, o.Shipping = checkout.ChannelPOS, sl.terminal, sl.cashier, nil, false, 0
	o.Customer = checkout.Customer{}
	o.Lines, o.Amount = []checkout.OrderLine{{Title: checkout.SaleTitle, UnitPrice: sl.amount, Quantity: 1}}, sl.amount
	o.CreatedAt, o.UpdatedAt = sl.at, sl.at
	o.History[0].At, o.Attempts[0].CreatedAt, o.Attempts[0].UpdatedAt = sl.at, sl.at, sl.at
	o.Status = sl.status
	if sl.status == checkout.StatusPaid || sl.status == checkout.StatusRefunded {
		o.PaidAt = sl.at.Add(time.Minute)
	}
	return mustCreate(t, s, o)
}

// checkClosingSums checks that each group's totals are those of its listed sales and the
// day's those of its groups.
func checkClosingSums(t *testing.T, c *pos.Closing) {
	t.Helper()
	var day pos.ClosingTotals
	for _, g := range c.Groups {
		listed := pos.ClosingTotals{Count: len(g.Sales)}
		for i, o := range g.Sales {
			if o.TerminalID != g.TerminalID || o.CashierID != g.CashierID || o.Channel != checkout.ChannelPOS {
				t.Errorf("a sale of %s/%s listed in the group of %s/%s", o.TerminalID, o.CashierID, g.TerminalID, g.CashierID)
			}
			if i > 0 && o.CreatedAt.Before(g.Sales[i-1].CreatedAt) {
				t.Errorf("the sales of %s/%s are not first placed first", g.TerminalID, g.CashierID)
			}
			listed = addListed(listed, o)
		}
		if listed != g.ClosingTotals {
			t.Errorf("the totals of %s/%s: %+v, the sum of its sales %+v", g.TerminalID, g.CashierID, g.ClosingTotals, listed)
		}
		day.Count += g.Count
		day.Paid.Orders, day.Paid.Amount = day.Paid.Orders+g.Paid.Orders, day.Paid.Amount+g.Paid.Amount
		day.Canceled, day.Expired = day.Canceled+g.Canceled, day.Expired+g.Expired
	}
	if day.Count != c.Count || day.Paid != c.Paid || day.Canceled != c.Canceled || day.Expired != c.Expired {
		t.Errorf("the day's totals %+v, the sum of its groups %+v", c.ClosingTotals, day)
	}
}

// addListed adds sale o to the totals t, as the closing counts it.
func addListed(t pos.ClosingTotals, o checkout.OrderSummary) pos.ClosingTotals {
	if !o.PaidAt.IsZero() {
		t.Paid.Orders++
		t.Paid.Amount += o.Amount
	}
	switch o.Status {
	case checkout.StatusCanceled:
		t.Canceled++
	case checkout.StatusExpired:
		t.Expired++
	}
	if t.First.IsZero() || o.CreatedAt.Before(t.First) {
		t.First = o.CreatedAt
	}
	if o.CreatedAt.After(t.Last) {
		t.Last = o.CreatedAt
	}
	return t
}

// sameGroups compares the groups of c (their sales aside) with want.
func sameGroups(t *testing.T, what string, c *pos.Closing, want []pos.ClosingGroup) {
	t.Helper()
	line := func(g pos.ClosingGroup) string {
		return fmt.Sprintf("%s/%s %d paid %+v canceled %d expired %d %s–%s", g.TerminalID, g.CashierID, g.Count, g.Paid,
			g.Canceled, g.Expired, g.First.UTC().Format(time.RFC3339), g.Last.UTC().Format(time.RFC3339))
	}
	var got, exp []string
	for _, g := range c.Groups {
		got = append(got, line(g))
	}
	for _, g := range want {
		exp = append(exp, line(g))
	}
	if !reflect.DeepEqual(got, exp) {
		t.Errorf("%s:\n got %q\nwant %q", what, got, exp)
	}
}
