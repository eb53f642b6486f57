package checkout

import (
	"time"

	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// OrderSummary is an order as the merchant's lists show it.
type OrderSummary struct {
	ID                string
	Number            string
	ExternalCode      string
	MerchantReference string
	Status            OrderStatus
	Amount            gatewayclient.Cents
	CustomerName      string
	CustomerEmail     string
	CustomerDocument  string
	Physical          bool
	LatePayment       bool
	RefundDue         gatewayclient.Cents
	CreatedAt         time.Time
	PaidAt            time.Time // zero until paid
	LinkID            string    // the payment link it was placed through ("" none)
	Channel           Channel   // the checkout source it came from
	ChargeID          string    // the charge it collects ("" none)
	ShippedAt         time.Time // zero until shipped
	DeliveredAt       time.Time // zero until delivered
	// TerminalID and CashierID: a sale of the point of sale at this terminal, by this
	// cashier ("" for the orders of other channels).
	TerminalID, CashierID string
}

// Fulfilment is the order's fulfilment state, or "" when nothing of it is to ship.
func (o OrderSummary) Fulfilment() string {
	return fulfilmentOf(o.Status, o.Physical, o.ShippedAt, o.DeliveredAt)
}

// StatsQuery asks OrderStats for the overview's figures.
type StatsQuery struct {
	// PaidSince are the starts of the periods whose money is summed (today, 7 days, 30 days),
	// each the first instant of a local day: one MoneyTotals each, in order.
	PaidSince []time.Time
	// PlacedSince is the start of the period of the conversion (a local day's first instant):
	// orders placed since, and how many of them were paid.
	PlacedSince time.Time
	// DaysFrom is the first instant of the daily chart; ZoneOffset the offset of the zone the
	// days are counted in, which must be MoneyDayOffset (São Paulo's): the store keeps its
	// daily totals by São Paulo calendar day.
	DaysFrom   time.Time
	ZoneOffset time.Duration
	// TopLimit > 0 asks for the products that brought the most in the orders paid since
	// TopSince, the first instant of a local day: at most TopLimit of them.
	TopSince time.Time
	TopLimit int
	// Attention asks also for what awaits the merchant: the orders with a refund due and
	// what they are owed, and the orders awaiting shipment (each count capped as the lists'
	// at MaxCounted+1).
	Attention bool
	// Channels keeps the money, the conversion and the orders awaiting payment of the orders
	// started through these channels (none: every channel). The top products and what awaits
	// the merchant are of every channel.
	Channels []Channel
	// TerminalID keeps the money, the conversion and the orders awaiting payment of the sales
	// of this terminal of the point of sale ("": every order); summed from its orders, not
	// from the daily totals, which are not kept by terminal. ByChannel is then the terminal's.
	TerminalID string
}

// MoneyKind names one of the overview's figures, for the list of the orders behind it
// (OrderFilter.Money).
type MoneyKind string

// The overview's figures.
const (
	MoneyReceived   MoneyKind = "received"
	MoneyRefunded   MoneyKind = "refunded"
	MoneyHeld       MoneyKind = "held"
	MoneyFees       MoneyKind = "fees"
	MoneyFeeUnknown MoneyKind = "fee_unknown"
)

// Valid reports whether k is one of the overview's figures.
func (k MoneyKind) Valid() bool {
	switch k {
	case MoneyReceived, MoneyRefunded, MoneyHeld, MoneyFees, MoneyFeeUnknown:
		return true
	}
	return false
}

// MoneyDayOffset is the offset of the zone whose calendar days the store's daily totals are
// kept in: São Paulo's (UTC-3 all year since 2019).
const MoneyDayOffset = -3 * time.Hour

// ProductTotal is what one product brought in paid orders: the units sold and their amount
// (unit price × quantity, shipping aside). A line without a catalogue product (an amount
// typed on a payment link, an item of an API session) counts under its title.
type ProductTotal struct {
	ProductID string // "" for a line without a catalogue product
	Title     string
	Units     int
	Revenue   gatewayclient.Cents
}

// PaidTotal is a count of paid orders and their amount.
type PaidTotal struct {
	Orders int
	Amount gatewayclient.Cents
}

// MoneyTotals are the money of a period, each figure by its own date: the orders paid in it
// (gross, by payment date), those whose refund began in it (refunding or refunded), those that
// went under review in it and still are (a MED, a compliance review), and the gateway's fees
// of the orders paid in it. An order paid and refunded in the period counts in both.
type MoneyTotals struct {
	Received PaidTotal
	Refunded PaidTotal
	Held     PaidTotal
	// Fees are the fees the gateway said (Orders: how many paid orders had one); FeeUnknown
	// the paid orders whose fee it has not said, whose sum is unknown, not zero.
	Fees       PaidTotal
	FeeUnknown int
}

// Net is received − refunded − the known fees.
func (m MoneyTotals) Net() gatewayclient.Cents {
	return m.Received.Amount - m.Refunded.Amount - m.Fees.Amount
}

// Add adds o's figures to m.
func (m *MoneyTotals) Add(o MoneyTotals) {
	add := func(a *PaidTotal, b PaidTotal) { a.Orders, a.Amount = a.Orders+b.Orders, a.Amount+b.Amount }
	add(&m.Received, o.Received)
	add(&m.Refunded, o.Refunded)
	add(&m.Held, o.Held)
	add(&m.Fees, o.Fees)
	m.FeeUnknown += o.FeeUnknown
}

// OrderStats are the overview's figures.
type OrderStats struct {
	Money      []MoneyTotals // one per StatsQuery.PaidSince
	Awaiting   int           // orders pending or awaiting payment now
	Placed     int           // orders placed since PlacedSince
	PlacedPaid int           // of those, the ones paid (paid_at set)
	// Days are the money of each local day since DaysFrom, keyed by the day's number
	// (DayNumber); days without any are absent.
	Days map[int64]MoneyTotals
	// ByChannel are the money of each channel (every one, whatever StatsQuery.Channels) over
	// each period of PaidSince, in its order: a channel without any money is absent.
	ByChannel map[Channel][]MoneyTotals
	// Top are the products of the most revenue since TopSince, the most first (ties: the
	// most units, then by product and title), when TopLimit asked for them.
	Top []ProductTotal
	// RefundsDue, RefundDue and AwaitingShipment are what awaits the merchant, when Attention
	// asked for it: the orders with a refund due and the sum of what they are owed, the paid
	// orders with something to ship not yet shipped.
	RefundsDue       int
	RefundDue        Cents
	AwaitingShipment int
}

// DayNumber is the number of the local day of t in a zone of that offset: the days since the
// Unix epoch, as OrderStats.Days counts them.
func DayNumber(t time.Time, zoneOffset time.Duration) int64 {
	ms := t.UnixMilli() + zoneOffset.Milliseconds()
	d := ms / 86400000
	if ms < 0 && ms%86400000 != 0 {
		d--
	}
	return d
}
