package views

import (
	"strconv"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// Stages of an order as its shopper's page tells them once it was paid or canceled: the
// order's state, with a paid order's fulfilment (shipped, delivered) taking its place.
const (
	StagePaid      = "paid"
	StageShipped   = "shipped"
	StageDelivered = "delivered"
	StageRefunding = "refunding"
	StageRefunded  = "refunded"
	StageCanceled  = "canceled"
)

// OrderProgressRefreshSeconds is how often the order page reloads itself without JavaScript
// while the order may still change for the shopper (goods to ship or on their way, a refund in
// progress or due): nothing in it is to be copied, and shipping takes hours, not seconds.
const OrderProgressRefreshSeconds = 60

// OrderProgress is what the shopper's order page (the receipt of a paid order, the page of a
// canceled one) says of the order's life after its payment: its stage, the shipment, and the
// money that goes back (a refund by the gateway, a late or double payment the shop returns).
type OrderProgress struct {
	Stage        string // one of the Stage constants, else the order's state
	Physical     bool
	Amount       checkout.Cents
	Carrier      string
	TrackingCode string
	TrackingURL  string // the carrier's tracking page of the code; "" when none is known
	ShippedAt    time.Time
	DeliveredAt  time.Time
	LatePayment  bool
	// RefundDue is what the shop still owes back; DueReason why (the last payment that made
	// it: paid twice, after cancellation, beyond a payment link's places).
	RefundDue checkout.Cents
	DueReason checkout.ReasonCode
	Refunds   []checkout.RecordedRefund // returned by the shop, first first
}

// ProgressOf is the progress of order o for its shopper's page.
func ProgressOf(o *checkout.Order) OrderProgress {
	p := OrderProgress{Stage: OrderStage(o), Physical: o.Physical, Amount: o.Amount, Carrier: o.Carrier,
		TrackingCode: o.TrackingCode, ShippedAt: o.ShippedAt, DeliveredAt: o.DeliveredAt,
		LatePayment: o.LatePayment, RefundDue: o.RefundDue, Refunds: o.RefundsRecorded()}
	if p.TrackingCode != "" {
		p.TrackingURL = checkout.TrackingURL(o.Carrier, o.TrackingCode)
	}
	if due := o.DuePayments(); len(due) > 0 {
		p.DueReason = due[len(due)-1].Reason
	}
	return p
}

// OrderStage is the stage of o its shopper's page tells: shipped or delivered for a paid
// order on its way, else its state.
func OrderStage(o *checkout.Order) string {
	if o.Status == checkout.StatusPaid {
		switch o.Fulfilment() {
		case checkout.FulfilmentShipped:
			return StageShipped
		case checkout.FulfilmentDelivered:
			return StageDelivered
		}
	}
	return string(o.Status)
}

// StageKey changes whenever what the shopper's order page shows of o changes: a live page
// draws itself again when it does.
func StageKey(o *checkout.Order) string {
	return OrderStage(o) + "/" + strconv.FormatInt(int64(o.RefundDue), 10) + "/" +
		strconv.Itoa(len(o.RefundsRecorded())) + "/" + strconv.FormatBool(o.LatePayment)
}

// StageText is the localised name of a stage (an order state's text for the others).
func StageText(lang Lang, stage string) string {
	if key := "stage." + stage; HasKey(key) {
		return T(lang, key)
	}
	return StatusText(lang, checkout.OrderStatus(stage))
}

// Refresh is the order page's <noscript> refresh period: while the order may still change for
// the shopper, else none.
func (p OrderProgress) Refresh() int {
	if p.RefundDue > 0 || p.Stage == StageShipped || p.Stage == StageRefunding || p.Stage == StageCanceled ||
		(p.Stage == StagePaid && p.Physical) {
		return OrderProgressRefreshSeconds
	}
	return 0
}

// steps are the shipment's steps a physical order's page lists: paid, shipped, delivered.
func (p OrderProgress) steps() []string {
	return []string{StagePaid, StageShipped, StageDelivered}
}

// stepKeys are the names of the shipment's steps.
var stepKeys = map[string]string{StagePaid: "progress.step_paid", StageShipped: "progress.step_shipped",
	StageDelivered: "progress.step_delivered"}

// reached reports whether the shipment's step was reached, and current whether it is the last
// reached.
func (p OrderProgress) reached(step string) (reached, current bool) {
	n := map[string]int{StagePaid: 1, StageShipped: 2, StageDelivered: 3}
	return n[step] <= n[p.Stage], n[step] == n[p.Stage]
}

// showsShipment reports whether the page lists the shipment's steps: physical goods, paid.
func (p OrderProgress) showsShipment() bool {
	return p.Physical && (p.Stage == StagePaid || p.Stage == StageShipped || p.Stage == StageDelivered)
}

// dueKey is the message that says why money goes back to the shopper.
func (p OrderProgress) dueKey() string {
	switch p.DueReason {
	case checkout.ReasonPaidAfterCancel:
		return "progress.due_after_cancel"
	case checkout.ReasonLinkBeyondCap:
		return "progress.due_beyond_cap"
	}
	return "progress.due_twice"
}

// FormatDay formats a day written YYYY-MM-DD: "29/11/2026" in pt-BR, "Nov 29, 2026" in
// English; a text that is not a day is given back as it is.
func FormatDay(lang Lang, day string) string {
	t, err := time.Parse(time.DateOnly, day)
	if err != nil {
		return day
	}
	if lang.norm() == En {
		return t.Format("Jan 2, 2006")
	}
	return t.Format("02/01/2006")
}
