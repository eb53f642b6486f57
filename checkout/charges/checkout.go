package charges

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// The Manager is the checkout's way to the charges (checkout.ServiceOptions.Charges).
var _ checkout.Charges = (*Manager)(nil)

// ChargeSource is the checkout source of charge id at now (Charge.Source): checkout.ErrNotFound
// when there is no such charge, ErrFinal when it is paid or canceled, ErrDayEnding in the São
// Paulo day's last minute.
func (m *Manager) ChargeSource(ctx context.Context, id string, now time.Time) (checkout.Source, error) {
	c, err := m.store.Charge(ctx, id)
	if err != nil {
		return checkout.Source{}, fmt.Errorf("charges: charge %s: %w", id, err)
	}
	return c.Source(now)
}

// ChargePaid counts paid, collected at at by the charge's order numbered order, towards charge
// id (Pay), once per order: the order's number is in the payment's event of the timeline, and a
// payment of an order already counted changes nothing. A charge that is canceled answers
// checkout.ReasonPaidAfterCancel and one paid already checkout.ReasonPaidTwice: the order's
// payment is to be refunded.
func (m *Manager) ChargePaid(ctx context.Context, id, order string, paid Cents, at time.Time) (checkout.ReasonCode, error) {
	events, err := m.store.ChargeEvents(ctx, id)
	if err != nil {
		return checkout.ReasonNone, fmt.Errorf("charges: reading charge %s's timeline: %w", id, err)
	}
	mark := orderMark(order)
	for _, e := range events {
		if strings.HasSuffix(e.Detail, mark) {
			return checkout.ReasonNone, nil
		}
	}
	c, err := m.pay(ctx, id, fmt.Sprintf("payment %d%s", paid, mark), paid, at)
	switch {
	case errors.Is(err, ErrFinal) && c.Status == StatusCanceled:
		return checkout.ReasonPaidAfterCancel, nil
	case errors.Is(err, ErrFinal):
		return checkout.ReasonPaidTwice, nil
	case err != nil:
		return checkout.ReasonNone, err
	}
	return checkout.ReasonNone, nil
}

// orderMark ends the detail of a payment's event: the order that paid it.
func orderMark(order string) string { return ", order " + order }
