package checkout

import (
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
	// ChargePaid counts paid, collected at at by the order numbered order, towards charge id (once per
	// order: a second call for the same order changes nothing). It answers ReasonNone when the
	// payment counted, and the reason the order is to be refunded when the charge could not
	// take it: ReasonPaidAfterCancel (the charge was canceled) or ReasonPaidTwice (paid already).
	ChargePaid(ctx context.Context, id, order string, paid gatewayclient.Cents, at time.Time) (ReasonCode, error)
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

// settleCharge counts the payment that made order o of a charge paid, or put it under review
// (underpaid: the money is the charge's too), towards its charge; before is o as it was. A
// payment the charge can no longer take (canceled, or paid through another order) becomes a
// refund due on the order, as a payment after an order's cancelation does.
func (s *Service) settleCharge(ctx context.Context, d *gatewayclient.Deposit, before, o *Order) (*Order, error) {
	if s.charges == nil || !collected(before, o) {
		return o, nil
	}
	paid := o.Amount
	if d.AmountPaid != nil {
		paid = *d.AmountPaid
	}
	at := o.PaidAt
	if at.IsZero() {
		at = s.now()
	}
	code, err := s.charges.ChargePaid(ctx, o.ChargeID, o.Number, paid, at)
	if err != nil {
		return nil, fmt.Errorf("checkout: counting order %s's payment towards its charge: %w", o.Number, err)
	}
	if code == ReasonNone {
		return o, nil
	}
	return s.refundClosedCharge(ctx, d, o, code, paid)
}

// collected reports whether the change of order o from before is a payment its charge
// collected: o became paid, or went under review for a payment short of its amount.
func collected(before, o *Order) bool {
	if o.ChargeID == "" || before.Status == o.Status {
		return false
	}
	return o.Status == StatusPaid || (o.Status == StatusUnderReview && underpaid(o))
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

// underpaid reports whether o's last change put it under review for a payment short of its
// amount.
func underpaid(o *Order) bool {
	return len(o.History) > 0 && o.History[len(o.History)-1].Reason.Code == ReasonUnderpaid
}
