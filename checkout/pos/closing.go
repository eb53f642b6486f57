package pos

import (
	"context"
	"fmt"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// The day's closing ("fechamento de caixa"): what each terminal and cashier sold in one São
// Paulo calendar day.

// ClosingQuery asks the store for the sales placed in [From, Before) (one São Paulo day), of
// one terminal and one cashier when set ("": every one).
type ClosingQuery struct {
	From, Before          time.Time
	TerminalID, CashierID string
}

// ClosingTotals are the figures of a closing: how many sales were placed, how many were paid
// and their amount (money received, whatever happened to it later: a refund is the order's
// own figure), how many were canceled at the counter and how many expired unpaid, and the
// first and last sale's time (zero when there is none).
type ClosingTotals struct {
	Count             int
	Paid              checkout.PaidTotal
	Canceled, Expired int
	First, Last       time.Time
}

// add adds o's figures to t.
func (t *ClosingTotals) add(o ClosingTotals) {
	if o.Count == 0 {
		return
	}
	if t.Count == 0 || o.First.Before(t.First) {
		t.First = o.First
	}
	if o.Last.After(t.Last) {
		t.Last = o.Last
	}
	t.Count += o.Count
	t.Paid.Orders += o.Paid.Orders
	t.Paid.Amount += o.Paid.Amount
	t.Canceled += o.Canceled
	t.Expired += o.Expired
}

// ClosingGroup is the closing of one terminal and cashier: its totals, summed by the store,
// and its sales, first placed first.
type ClosingGroup struct {
	TerminalID, CashierID string
	ClosingTotals
	Sales []checkout.OrderSummary
}

// Closing is the closing of one day: a group per terminal and cashier that sold in it (by
// terminal id, then cashier id) and the totals of them all.
type Closing struct {
	Day    time.Time // the São Paulo day's first instant
	Groups []ClosingGroup
	ClosingTotals
}

// ClosingStore reads the day's closing. Implementations must pass checkout/storetest.
type ClosingStore interface {
	// Closing returns the groups of the sales (orders of checkout.ChannelPOS) placed in the
	// query's span, each with its totals computed by the database and its sales, first placed
	// first; by terminal id, then cashier id. A group without sales is absent.
	Closing(ctx context.Context, q ClosingQuery) ([]ClosingGroup, error)
}

// Today is the first instant of the São Paulo calendar day of the manager's clock.
func (m *Manager) Today() time.Time {
	return dayStart(m.now())
}

// dayStart is the first instant of the São Paulo calendar day of t (the store's money days').
func dayStart(t time.Time) time.Time {
	n := checkout.DayNumber(t, checkout.MoneyDayOffset)
	return time.UnixMilli(n*86400000 - checkout.MoneyDayOffset.Milliseconds()).UTC()
}

// Closing reads the closing of the São Paulo day of day (any instant of it), of terminal and
// cashier when set ("": every one).
func (m *Manager) Closing(ctx context.Context, day time.Time, terminal, cashier string) (*Closing, error) {
	from := dayStart(day)
	groups, err := m.store.Closing(ctx, ClosingQuery{From: from, Before: from.Add(24 * time.Hour),
		TerminalID: terminal, CashierID: cashier})
	if err != nil {
		return nil, fmt.Errorf("pos: the closing of %s: %w", from.Format(time.DateOnly), err)
	}
	c := &Closing{Day: from, Groups: groups}
	for _, g := range groups {
		c.add(g.ClosingTotals)
	}
	return c, nil
}
