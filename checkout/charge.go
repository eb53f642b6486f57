package checkout

import (
	"cmp"
	"context"
	"fmt"
	"time"

	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// Charges is how the checkout reaches the charges with a due date (package charges, which
// imports this one and is handed to NewService through ServiceOptions.Charges): the source of a
// charge's order of the day, and where a payment of one of its orders is counted.
type Charges interface {
	// ChargeSource is the checkout source of charge id at now: one order (ChannelCharge) for
	// what the charge asks that São Paulo day, whose QR code expires with the day (PayBy).
	// ErrNotFound when there is no such charge; the charges' own errors when it takes no order.
	ChargeSource(ctx context.Context, id string, now time.Time) (Source, error)
	// ChargePaid counts paid, collected at at by the order orderID, towards charge id, once per
	// order: a second call for the same order changes nothing and answers as the first. It
	// answers what of the payment the charge could not take, to refund from the order.
	ChargePaid(ctx context.Context, id, orderID string, paid gatewayclient.Cents, at time.Time) (ChargePayment, error)
}

// ChargePayment is what a charge made of a payment of one of its orders: Refund, the part it
// could not take (beyond its balance, or all of it once the charge was paid or canceled), is
// due back to the payer, for Reason: ReasonPaidAfterCancel (the charge was canceled) or
// ReasonPaidTwice (paid already, or paid beyond its balance).
type ChargePayment struct {
	Refund gatewayclient.Cents
	Reason ReasonCode
}

// chargeRequestKeyPart scopes the request keys of charges' orders.
const chargeRequestKeyPart = "charge:"

func (s *Service) chargeSource(ctx context.Context, id string) (*Source, error) {
	if s.charges == nil {
		return nil, fmt.Errorf("checkout: charge %s: %w", id, ErrNotFound)
	}
	src, err := s.charges.ChargeSource(ctx, id, s.now())
	if err != nil {
		return nil, err
	}
	return &src, nil
}

// chargeRequestKey is the request key of an order of a charge's source src: one order per
// charge, São Paulo day (the day its QR code expires with) and amount asked, whatever key the
// form posted. Posting the day's form again gives the day's order; once a payment changed the
// balance (an expired QR code paid late), the form makes a new order for the difference.
func (src *Source) chargeRequestKey() string {
	return scopedRequestKey(chargeRequestKeyPart+src.ID,
		fmt.Sprintf("%s/%d", src.PayBy.UTC().Format(time.RFC3339), int64(src.Total())))
}

// settleCharge counts the payment deposit d made of order o of a charge (chargeCollected)
// towards its charge, changed or not by d this time: counting is once per order, so a payment
// applied again (the reconciler after a crash between the order's payment and its charge's)
// is counted if it was not yet, and changes nothing if it was. What the charge could not take
// (canceled, paid through another order, or beyond its balance) becomes a refund due on the
// order, as a payment after an order's cancelation does.
func (s *Service) settleCharge(ctx context.Context, d *gatewayclient.Deposit, o *Order) (*Order, error) {
	paid := o.Amount
	if d.AmountPaid != nil {
		paid = *d.AmountPaid
	}
	at := d.PaymentDate
	if at.IsZero() {
		at = cmp.Or(o.PaidAt, s.now())
	}
	res, err := s.charges.ChargePaid(ctx, o.ChargeID, o.ID, paid, at)
	if err != nil {
		return nil, fmt.Errorf("checkout: counting order %s's payment towards its charge: %w", o.Number, err)
	}
	if res.Refund == 0 {
		return o, nil
	}
	return s.refundClosedCharge(ctx, d, o, res.Reason, res.Refund)
}

// chargeCollected reports whether deposit d is the payment order o of a charge collected: its
// attempt was paid, and made the order paid or put it under review (a payment short of its
// amount is the charge's money too). A second payment of the order (another QR code of it)
// is not: the order itself records it as a refund due (ReasonPaidTwice, ReasonPaidAfterCancel),
// as it does what its charge could not take.
func (s *Service) chargeCollected(o *Order, d *gatewayclient.Deposit) bool {
	if s.charges == nil || o.ChargeID == "" {
		return false
	}
	if a := o.AttemptByTransaction(d.ID); a == nil || a.State != AttemptPaid {
		return false
	}
	for _, h := range o.History {
		if h.Reason.DepositID == d.ID && (h.Reason.Code == ReasonPaidTwice || h.Reason.Code == ReasonPaidAfterCancel) {
			return false
		}
	}
	return true
}

// refundClosedCharge records on order o that paid, by deposit d, is to be refunded: its
// charge could not take it (code says why).
func (s *Service) refundClosedCharge(ctx context.Context, d *gatewayclient.Deposit, o *Order, code ReasonCode, paid gatewayclient.Cents) (*Order, error) {
	res, _, err := s.update(ctx, o.ID, func(o *Order) (bool, error) {
		for _, h := range o.History {
			if h.Reason.Code == code && h.Reason.DepositID == d.ID {
				return false, nil
			}
		}
		o.LatePayment = o.LatePayment || code == ReasonPaidAfterCancel
		o.RefundDue += paid
		o.History = append(o.History, StatusChange{From: o.Status, To: o.Status, At: s.now().UTC(),
			Reason: Reason{Code: code, Paid: paid, DepositID: d.ID}})
		return true, nil
	})
	if err != nil {
		return nil, fmt.Errorf("checkout: order %s paid a closed charge: %w", o.Number, err)
	}
	s.log.WarnContext(ctx, "payment of a closed charge: a refund is due", "number", o.Number, "charge", o.ChargeID,
		"refund", int64(paid))
	return res, nil
}
