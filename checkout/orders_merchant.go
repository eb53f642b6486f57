package checkout

import (
	"context"
	"fmt"
	"time"
)

// The merchant's reading of the shop's orders: the dashboard's list and overview.

// Reports is the part of the Service that reads orders for the merchant: lists, the
// overview's figures, the order of a deposit.
type Reports struct {
	store Store
	now   func() time.Time
}

// OrderByDeposit returns the order one of whose payment attempts is the gateway deposit id (a
// transaction and its deposit share their id), or ErrNotFound when the deposit is not the
// shop's: the dashboard links a deposit to its order with it.
func (r *Reports) OrderByDeposit(ctx context.Context, depositID string) (*Order, error) {
	return r.store.OrderByTransaction(ctx, depositID)
}

// OrderByExternalCode returns the order sent to the gateway with that externalCode, or
// ErrNotFound: a deposit whose id is no attempt's is matched to its order by it, as
// ApplyDeposit does.
func (r *Reports) OrderByExternalCode(ctx context.Context, code string) (*Order, error) {
	return r.store.OrderByExternalCode(ctx, code)
}

// OrderPage is one page of the merchant's order list.
type OrderPage struct {
	Orders []OrderSummary
	Total  int // every order matching the filter
}

// MerchantOrders lists a page of the orders matching f (f.Limit and f.Offset), newest first,
// with the count of all matches.
func (r *Reports) MerchantOrders(ctx context.Context, f OrderFilter) (*OrderPage, error) {
	list, total, err := r.store.OrderSummaries(ctx, f)
	if err != nil {
		return nil, err
	}
	return &OrderPage{Orders: list, Total: total}, nil
}

// OrderTotal is the number of the orders matching f and the sum of their amounts, over at
// most MaxCounted+1 of them (Capped: more, whose sum is not known).
type OrderTotal struct {
	Orders int
	Amount Cents
}

// Capped reports whether more orders matched than were summed.
func (t OrderTotal) Capped() bool { return t.Orders > MaxCounted }

// MerchantOrderTotal counts and sums the orders matching f (its page aside): the total of a
// filtered list.
func (r *Reports) MerchantOrderTotal(ctx context.Context, f OrderFilter) (OrderTotal, error) {
	n, sum, err := r.store.OrderTotal(ctx, f)
	if err != nil {
		return OrderTotal{}, fmt.Errorf("checkout: the orders' total: %w", err)
	}
	return OrderTotal{Orders: n, Amount: sum}, nil
}

// OverviewFilter narrows the overview's money, conversion and orders awaiting payment to the
// orders of some channels (none: every one) or to the sales of one terminal ("": any).
type OverviewFilter struct {
	Channels   []Channel
	TerminalID string
}

// OverviewDays is the span of the overview's daily chart and of its conversion.
const OverviewDays = 30

// OverviewTopProducts is how many products the overview ranks.
const OverviewTopProducts = 5

// Overview is the dashboard's first page: the money of today, the last 7 and 30 days (São
// Paulo calendar days: received, refunded, under review, fees, net), how many orders await
// payment, the conversion of the last 30 days, and the money of each of those days.
type Overview struct {
	Today, Week, Month MoneyTotals
	Awaiting           int // pending or awaiting payment now
	Placed, PlacedPaid int // orders placed in the last 30 days, and of those the paid ones
	Days               []DayTotal
	// Previous are the money of each day of the period of the same length just before
	// Days (the chart's comparison), oldest first as Days.
	Previous []DayTotal
	// Top are the products that brought the most in the orders paid in the last 30 days.
	Top []ProductTotal
	// RefundsDue orders are owed RefundDue; AwaitingShipment paid orders have something to
	// ship (each count capped at MaxCounted+1, as the lists').
	RefundsDue       int
	RefundDue        Cents
	AwaitingShipment int
	Now              time.Time
	// Channels are the channels the figures are of (none: every channel); ByChannel the
	// money of every channel with any today, in 7 and in 30 days, whatever Channels.
	Channels  []Channel
	ByChannel []ChannelTotals
	// TerminalID is the terminal whose sales the figures are of ("": every order); ByChannel
	// is then its.
	TerminalID string
}

// ChannelTotals are the money of one channel over the overview's periods.
type ChannelTotals struct {
	Channel            Channel
	Today, Week, Month MoneyTotals
}

// DayTotal is the money of one local day.
type DayTotal struct {
	Day time.Time // the day's first instant, in the zone of the overview
	MoneyTotals
}

// ConversionPermille is paid ÷ placed over the last 30 days in thousandths (667 is 66.7%),
// integer arithmetic; -1 when nothing was placed.
func (o *Overview) ConversionPermille() int {
	if o.Placed == 0 {
		return -1
	}
	return (o.PlacedPaid*1000 + o.Placed/2) / o.Placed
}

// Overview reads the overview's figures, days counted in loc (the merchant's zone, São
// Paulo): "today" starts at loc's midnight, the 7 and 30 days end today.
func (r *Reports) Overview(ctx context.Context, loc *time.Location, f OverviewFilter) (*Overview, error) {
	now := r.now().In(loc)
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, loc)
	first := today.AddDate(0, 0, -(OverviewDays - 1))
	zone := MoneyDayOffset
	st, err := r.store.OrderStats(ctx, StatsQuery{
		PaidSince:   []time.Time{today, today.AddDate(0, 0, -6), first},
		PlacedSince: first,
		DaysFrom:    first.AddDate(0, 0, -OverviewDays),
		ZoneOffset:  zone,
		TopSince:    first,
		TopLimit:    OverviewTopProducts,
		Attention:   true,
		Channels:    f.Channels,
		TerminalID:  f.TerminalID,
	})
	if err != nil {
		return nil, fmt.Errorf("checkout: overview: %w", err)
	}
	o := &Overview{Today: st.Money[0], Week: st.Money[1], Month: st.Money[2], Awaiting: st.Awaiting,
		Placed: st.Placed, PlacedPaid: st.PlacedPaid, Top: st.Top, RefundsDue: st.RefundsDue, RefundDue: st.RefundDue,
		AwaitingShipment: st.AwaitingShipment, Now: now, Channels: f.Channels, TerminalID: f.TerminalID}
	for _, ch := range Channels() {
		if m, ok := st.ByChannel[ch]; ok {
			o.ByChannel = append(o.ByChannel, ChannelTotals{Channel: ch, Today: m[0], Week: m[1], Month: m[2]})
		}
	}
	for d := first; !d.After(today); d = d.AddDate(0, 0, 1) {
		o.Days = append(o.Days, DayTotal{Day: d, MoneyTotals: st.Days[DayNumber(d, zone)]})
		p := d.AddDate(0, 0, -OverviewDays)
		o.Previous = append(o.Previous, DayTotal{Day: p, MoneyTotals: st.Days[DayNumber(p, zone)]})
	}
	return o, nil
}

// DayMoney returns the money of one São Paulo calendar day (day is any instant of it): the
// figures of a day of the overview, read from the same daily totals (the daily summary's).
func (r *Reports) DayMoney(ctx context.Context, day time.Time) (MoneyTotals, error) {
	n := DayNumber(day, MoneyDayOffset)
	first := time.UnixMilli((n*86400000 - MoneyDayOffset.Milliseconds())).UTC()
	st, err := r.store.OrderStats(ctx, StatsQuery{PaidSince: []time.Time{first}, PlacedSince: first, DaysFrom: first,
		ZoneOffset: MoneyDayOffset})
	if err != nil {
		return MoneyTotals{}, fmt.Errorf("checkout: a day's money: %w", err)
	}
	return st.Days[n], nil
}
