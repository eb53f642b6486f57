package checkout

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/brdoc"
)

// The merchant's actions on an order: mark it shipped (a carrier and a tracking code) and
// then delivered, cancel it while it is not paid, add an internal note, and record a refund
// made outside the checkout (the gateway's API has no refund call: the merchant refunds a
// late or double payment from their bank and records it here). Each is an entry of the
// order's history (a ReasonCode), written with compare-and-set like every change of an order,
// so that it happens once however many clicks or instances ask for it: asking again for what
// is done already changes nothing and is no error; asking for something else (another
// tracking code for a shipped order, a refund beyond what is due) is refused.

// Form fields of the merchant's actions, as their ValidationError name them.
const (
	FieldCarrier      = "carrier"
	FieldTrackingCode = "trackingCode"
	FieldNote         = "note"
	FieldRefundOn     = "refundDate"
	FieldRefundAmount = "refundAmount"
	FieldRefundE2E    = "endToEnd"
	FieldActionKey    = "key"
)

// Limits of the merchant's actions' texts.
const (
	MinCarrierLength      = 2
	MaxCarrierLength      = 60
	MinTrackingCodeLength = 4
	MaxTrackingCodeLength = 60
	MaxNoteLength         = 2000
	maxActionKey          = 100
)

// Errors of the merchant's actions: the order's state does not allow them.
var (
	// ErrNotShippable: only a paid order with physical goods is shipped.
	ErrNotShippable = &Error{Code: CodeConflict, Message: "only a paid order with physical goods can be shipped"}
	// ErrAlreadyShipped: the order was shipped with another carrier or tracking code.
	ErrAlreadyShipped = &Error{Code: CodeConflict, Message: "the order was already shipped with another tracking code"}
	// ErrNotShipped: only a shipped order is delivered.
	ErrNotShipped = &Error{Code: CodeConflict, Message: "only a shipped order can be delivered"}
	// ErrNotCancelable: only an order awaiting payment, expired or failed is canceled.
	ErrNotCancelable = &Error{Code: CodeConflict, Message: "only an order that is not paid (awaiting payment, expired or failed) can be canceled"}
	// ErrNoRefundDue: the order owes the shopper nothing.
	ErrNoRefundDue = &Error{Code: CodeConflict, Message: "the order has no refund due"}
	// ErrEndToEndTaken: a refund with that end-to-end id is recorded on another order (the
	// store's answer; RecordRefund says it beside the field).
	ErrEndToEndTaken = &Error{Code: CodeConflict, Message: "a refund with this end-to-end id is recorded on another order"}
)

// ShipInput is how an order's goods travel.
type ShipInput struct {
	Carrier      string // the carrier's name (Correios, Jadlog, …)
	TrackingCode string
}

// RefundInput is a refund made outside the checkout, as the merchant's bank shows it.
type RefundInput struct {
	// On is the day the refund was made (any instant of it, in the merchant's time zone: its
	// date is kept as written).
	On       time.Time
	Amount   gatewayclient.Cents
	EndToEnd string // the PIX end-to-end id of the refund (brdoc.ValidEndToEnd)
}

// RecordedRefund is a refund recorded on an order (an entry ReasonRefundRecorded).
type RecordedRefund struct {
	On         string // YYYY-MM-DD
	Amount     gatewayclient.Cents
	EndToEnd   string
	RecordedAt time.Time
}

// RefundsRecorded lists the refunds recorded on o, first first.
func (o *Order) RefundsRecorded() []RecordedRefund {
	var out []RecordedRefund
	for _, h := range o.History {
		if h.Reason.Code == ReasonRefundRecorded {
			out = append(out, RecordedRefund{On: h.Reason.On, Amount: h.Reason.Paid, EndToEnd: h.Reason.EndToEnd, RecordedAt: h.At})
		}
	}
	return out
}

// DuePayment is a payment of an order that is to go back to its payer: a second payment
// (an old QR code and a new one), a payment beyond a payment link's maximum, or a payment
// after the order was canceled.
type DuePayment struct {
	DepositID string // the gateway's deposit, whose payer is to be refunded ("" when unknown)
	Amount    gatewayclient.Cents
	Reason    ReasonCode
	At        time.Time
}

// DuePayments lists the payments of o that gave rise to its refund due, first first (their
// sum is the refund due before any refund was recorded).
func (o *Order) DuePayments() []DuePayment {
	var out []DuePayment
	for _, h := range o.History {
		switch h.Reason.Code {
		case ReasonPaidTwice, ReasonPaidAfterCancel:
			out = append(out, DuePayment{DepositID: h.Reason.DepositID, Amount: h.Reason.Paid, Reason: h.Reason.Code, At: h.At})
		case ReasonLinkBeyondCap:
			p := DuePayment{Amount: h.Reason.Paid, Reason: h.Reason.Code, At: h.At}
			if a := o.PaidAttempt(); a != nil {
				p.DepositID = a.TransactionID
			}
			out = append(out, p)
		}
	}
	return out
}

// Fulfilment states of an order, as the dashboard's filter names them.
const (
	FulfilmentAwaitingShipment = "awaiting_shipment" // paid, physical, not shipped
	FulfilmentShipped          = "shipped"           // shipped, not delivered
	FulfilmentDelivered        = "delivered"
)

// Fulfilments lists the fulfilment states.
func Fulfilments() []string {
	return []string{FulfilmentAwaitingShipment, FulfilmentShipped, FulfilmentDelivered}
}

// Fulfilment is o's fulfilment state, or "" when nothing of it is to ship.
func (o *Order) Fulfilment() string {
	return fulfilmentOf(o.Status, o.Physical, o.ShippedAt, o.DeliveredAt)
}

// fulfilmentOf is the fulfilment state of an order in status, physical or not, shipped and
// delivered at those times (zero: not yet).
func fulfilmentOf(status OrderStatus, physical bool, shipped, delivered time.Time) string {
	switch {
	case !delivered.IsZero():
		return FulfilmentDelivered
	case !shipped.IsZero():
		return FulfilmentShipped
	case physical && status == StatusPaid:
		return FulfilmentAwaitingShipment
	}
	return ""
}

// CanShip, CanDeliver, CanCancel and CanRecordRefund report whether the action is allowed in
// o's present state (the dashboard offers only those).
func (o *Order) CanShip() bool    { return o.Status == StatusPaid && o.Physical && o.ShippedAt.IsZero() }
func (o *Order) CanDeliver() bool { return !o.ShippedAt.IsZero() && o.DeliveredAt.IsZero() }
func (o *Order) CanCancel() bool {
	// Not while a QR code is being made (a renewal the gateway has not answered): its
	// transaction would be unknown to the order, and a payment of it could not be seen.
	a := o.CurrentAttempt()
	return CanTransition(o.Status, StatusCanceled) && (a == nil || a.State != AttemptPending)
}

// CanRecordRefund reports whether a refund is due on o.
func (o *Order) CanRecordRefund() bool { return o.RefundDue > 0 }

// Fulfilment is the part of the Service that carries out the merchant's actions on an order
// (ship, deliver, cancel, notes, refunds recorded) through the one way an order is changed
// (update: compare-and-set, announced, published).
type Fulfilment struct {
	update func(ctx context.Context, id string, fn func(o *Order) (bool, error)) (*Order, bool, error)
	now    func() time.Time
	log    *slog.Logger
}

// MarkShipped records that o's goods left with in's carrier and tracking code. Only a paid
// order with physical goods ships; shipping it again with the same carrier and code changes
// nothing (changed false), with others is ErrAlreadyShipped.
func (f *Fulfilment) MarkShipped(ctx context.Context, id string, in ShipInput) (*Order, bool, error) {
	carrier, code := strings.Join(strings.Fields(in.Carrier), " "), strings.TrimSpace(in.TrackingCode)
	fe := &ValidationError{}
	checkTexts(fe, textField{FieldCarrier, carrier}, textField{FieldTrackingCode, code})
	checkLength(fe, FieldCarrier, carrier, MinCarrierLength, MaxCarrierLength)
	checkLength(fe, FieldTrackingCode, code, MinTrackingCodeLength, MaxTrackingCodeLength)
	if strings.ContainsAny(code, " \t") && !fe.Has(FieldTrackingCode) {
		fe.Add(FieldTrackingCode, CodeFormat, "must have no spaces")
	}
	if err := fe.OrNil(); err != nil {
		return nil, false, err
	}
	return f.act(ctx, id, "shipping", func(o *Order, now time.Time) (bool, error) {
		if !o.ShippedAt.IsZero() {
			if o.Carrier == carrier && o.TrackingCode == code {
				return false, nil
			}
			return false, ErrAlreadyShipped
		}
		if !o.CanShip() {
			return false, ErrNotShippable
		}
		o.Carrier, o.TrackingCode, o.ShippedAt = carrier, code, now
		o.note(Reason{Code: ReasonShipped, Carrier: carrier, TrackingCode: code}, now)
		return true, nil
	})
}

// MarkDelivered records that o's goods reached the shopper. Only a shipped order is
// delivered; delivering it again changes nothing.
func (f *Fulfilment) MarkDelivered(ctx context.Context, id string) (*Order, bool, error) {
	return f.act(ctx, id, "delivering", func(o *Order, now time.Time) (bool, error) {
		if !o.DeliveredAt.IsZero() {
			return false, nil
		}
		if !o.CanDeliver() {
			return false, ErrNotShipped
		}
		o.DeliveredAt = now
		o.note(Reason{Code: ReasonDelivered}, now)
		return true, nil
	})
}

// CancelOrder cancels o while it is not paid (awaiting payment, expired or failed) and no QR
// code is being made: its QR code is no longer shown, no new one is made, and its open
// attempt is canceled (the gateway
// has no call to cancel a code: a payment that still arrives leaves the order canceled and
// becomes a refund due, ReasonPaidAfterCancel). Canceling it again changes nothing.
func (f *Fulfilment) CancelOrder(ctx context.Context, id string) (*Order, bool, error) {
	return f.act(ctx, id, "canceling", func(o *Order, now time.Time) (bool, error) {
		if o.Status == StatusCanceled {
			return false, nil
		}
		if !o.CanCancel() {
			return false, ErrNotCancelable
		}
		for i := range o.Attempts {
			if a := &o.Attempts[i]; a.State == AttemptActive {
				a.State = AttemptCanceled
				a.UpdatedAt = now
			}
		}
		o.setStatus(StatusCanceled, Reason{Code: ReasonCanceled}, now)
		return true, nil
	})
}

// AddNote adds an internal note to o's history: for the merchant's team only, never shown to
// the shopper nor sent in a notification or the API (whose history says "internal note").
// key is the form's request key: the same key adds one note however often it is sent.
func (f *Fulfilment) AddNote(ctx context.Context, id, key, text string) (*Order, bool, error) {
	text = strings.TrimSpace(strings.ReplaceAll(text, "\r\n", "\n"))
	fe := &ValidationError{}
	if key == "" || len(key) > maxActionKey {
		fe.Add(FieldActionKey, CodeRequired, "the form is outdated: submit it again")
	}
	for _, line := range strings.Split(text, "\n") {
		checkTexts(fe, textField{FieldNote, line})
	}
	checkLength(fe, FieldNote, text, 1, MaxNoteLength)
	if err := fe.OrNil(); err != nil {
		return nil, false, err
	}
	return f.act(ctx, id, "adding a note to", func(o *Order, now time.Time) (bool, error) {
		for _, h := range o.History {
			if h.Reason.Code == ReasonNoteAdded && h.Reason.Key == key {
				return false, nil
			}
		}
		o.note(Reason{Code: ReasonNoteAdded, Key: key, Detail: text}, now)
		return true, nil
	})
}

// RecordRefund records a refund of o's refund due made outside the checkout. The amount is at
// most what is due (a refund beyond it is refused beside the amount), the end-to-end id a PIX
// one, the day not in the future. The refund due goes down by the amount. Recording the same
// end-to-end id again with the same amount changes nothing; with another, or on another order
// (the store keeps each id for one order), it is refused beside the id.
func (f *Fulfilment) RecordRefund(ctx context.Context, id string, in RefundInput) (*Order, bool, error) {
	e2e := strings.TrimSpace(in.EndToEnd)
	fe := &ValidationError{}
	now := f.now()
	switch {
	case in.On.IsZero():
		fe.Add(FieldRefundOn, CodeRequired, "is required")
	case in.On.After(now):
		fe.Add(FieldRefundOn, CodeFuture, "must not be in the future")
	}
	if in.Amount <= 0 {
		fe.Add(FieldRefundAmount, CodeMin, "must be at least 1 cent")
	}
	switch {
	case e2e == "":
		fe.Add(FieldRefundE2E, CodeRequired, "is required")
	case !brdoc.ValidEndToEnd(e2e):
		fe.Add(FieldRefundE2E, CodeFormat, "must be a PIX end-to-end id: E or D, 8 digits, yyyyMMddHHmm and 11 letters or digits")
	}
	if err := fe.OrNil(); err != nil {
		return nil, false, err
	}
	on := in.On.Format(time.DateOnly)
	o, changed, err := f.act(ctx, id, "recording a refund on", func(o *Order, now time.Time) (bool, error) {
		for _, r := range o.RefundsRecorded() {
			if r.EndToEnd == e2e {
				if r.Amount == in.Amount && r.On == on {
					return false, nil
				}
				return false, fieldError(FieldRefundE2E, CodeDuplicate, "this end-to-end id is already recorded with another amount or day")
			}
		}
		if o.RefundDue <= 0 {
			return false, ErrNoRefundDue
		}
		if in.Amount > o.RefundDue {
			return false, fieldError(FieldRefundAmount, CodeMax, fmt.Sprintf("must be at most %d cents, the refund due", int64(o.RefundDue)))
		}
		o.RefundDue -= in.Amount
		o.note(Reason{Code: ReasonRefundRecorded, Paid: in.Amount, EndToEnd: e2e, On: on}, now)
		return true, nil
	})
	if errors.Is(err, ErrEndToEndTaken) {
		return nil, false, fieldError(FieldRefundE2E, CodeDuplicate, "this end-to-end id is recorded on another order")
	}
	return o, changed, err
}

// act applies a merchant's action fn to order id (see update) and says which action failed.
func (f *Fulfilment) act(ctx context.Context, id, doing string, fn func(o *Order, now time.Time) (bool, error)) (*Order, bool, error) {
	o, changed, err := f.update(ctx, id, func(o *Order) (bool, error) { return fn(o, f.now().UTC()) })
	if err != nil {
		return nil, false, fmt.Errorf("checkout: %s an order: %w", doing, err) // not its id: a shopper's credential
	}
	if changed {
		f.log.InfoContext(ctx, "merchant's action on an order", "action", doing, "number", o.Number)
	}
	return o, changed, nil
}

// note appends an entry that leaves o's state as it is.
func (o *Order) note(r Reason, at time.Time) {
	o.History = append(o.History, StatusChange{From: o.Status, To: o.Status, At: at, Reason: r})
}

// checkLength adds a violation of field when v has fewer than lo or more than hi characters.
func checkLength(fe *ValidationError, field, v string, lo, hi int) {
	if fe.Has(field) {
		return
	}
	switch n := utf8.RuneCountInString(v); {
	case n == 0:
		fe.Add(field, CodeRequired, "is required")
	case n < lo:
		fe.Add(field, CodeMinLength, fmt.Sprintf("must have at least %d characters", lo))
	case n > hi:
		fe.Add(field, CodeMaxLength, fmt.Sprintf("must have at most %d characters", hi))
	}
}
