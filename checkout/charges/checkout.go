package charges

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// The Manager is the checkout's way to the charges (checkout.ServiceOptions.Charges).
var _ checkout.Charges = (*Manager)(nil)

// ChargeSource is the checkout source of charge id at now (Charge.Source): checkout.ErrNotFound
// when there is no such charge, ErrFinal when it is paid or canceled, ErrDayEnding in the São
// Paulo day's last minute.
func (m *Manager) ChargeSource(ctx context.Context, id string, now time.Time) (checkout.Source, error) {
	c, err := m.Charge(ctx, id)
	if err != nil {
		return checkout.Source{}, err
	}
	return c.Source(now)
}

// errCounted: the order's payment is in the charge's timeline already.
var errCounted = errors.New("charges: the order's payment is counted already")

// ChargePaid counts paid, collected at at by the charge's order orderID, towards charge id
// (Charge.applyPayment), once per order: the timeline's event of the order's payment is read
// again when there is one (the store keeps one per charge and order), so that applying a
// payment again, after a crash or from another instance, changes nothing and answers the same.
// The part of the payment the charge could not take is a refund due from the order, the
// reason checkout.ReasonPaidAfterCancel when the charge was canceled, else
// checkout.ReasonPaidTwice (paid already, or paid beyond its balance).
func (m *Manager) ChargePaid(ctx context.Context, id, orderID string, paid Cents, at time.Time) (checkout.ChargePayment, error) {
	if orderID == "" {
		return checkout.ChargePayment{}, fmt.Errorf("charges: a payment of charge %s without its order", id)
	}
	var counted Event
	_, e, err := m.change(ctx, id, "", func(c *Charge) (Event, string, error) {
		events, err := m.store.ChargeEvents(ctx, c.ID)
		if err != nil {
			return Event{}, "", fmt.Errorf("charges: reading charge %s's timeline: %w", c.ID, err)
		}
		for _, e := range events {
			if e.OrderID == orderID {
				counted = e
				return Event{}, "", errCounted
			}
		}
		e, action := c.applyPayment(orderID, paid, at)
		return e, action, nil
	})
	switch {
	case errors.Is(err, errCounted):
		e = counted
	case err != nil:
		return checkout.ChargePayment{}, err
	}
	out := checkout.ChargePayment{Refund: e.Refund}
	switch {
	case e.Refund == 0:
	case e.Status == StatusCanceled:
		out.Reason = checkout.ReasonPaidAfterCancel
	default:
		out.Reason = checkout.ReasonPaidTwice
	}
	return out, nil
}
