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
	ShippedAt         time.Time // zero until shipped
	DeliveredAt       time.Time // zero until delivered
}

// Fulfilment is the order's fulfilment state, or "" when nothing of it is to ship.
func (o OrderSummary) Fulfilment() string {
	return fulfilmentOf(o.Status, o.Physical, o.ShippedAt, o.DeliveredAt)
}

// StatsQuery asks OrderStats for the overview's figures.
type StatsQuery struct {
	// PaidSince are the starts of the periods whose paid orders are summed (today, 7 days, 30
	// days): one PaidTotal each, in order.
	PaidSince []time.Time
	// PlacedSince is the start of the period of the conversion: orders placed since, and how
	// many of them were paid.
	PlacedSince time.Time
	// DaysFrom is the first instant of the daily chart; ZoneOffset the offset of the zone the
	// days are counted in (São Paulo: -3 h), so that a day is a local day.
	DaysFrom   time.Time
	ZoneOffset time.Duration
	// TopLimit > 0 asks for the products that brought the most in the orders paid since
	// TopSince: at most TopLimit of them.
	TopSince time.Time
	TopLimit int
}

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

// OrderStats are the overview's figures.
type OrderStats struct {
	Paid       []PaidTotal // one per StatsQuery.PaidSince, by paid_at
	Awaiting   int         // orders pending or awaiting payment now
	Placed     int         // orders placed since PlacedSince
	PlacedPaid int         // of those, the ones paid (paid_at set)
	// Days are the paid totals by local day since DaysFrom, keyed by the day's number
	// (DayNumber); days without payments are absent.
	Days map[int64]PaidTotal
	// Top are the products of the most revenue since TopSince, the most first (ties: the
	// most units, then by product and title), when TopLimit asked for them.
	Top []ProductTotal
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
