package notify

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/charges"
	"github.com/pixcheckout/pixcheckout/gatewayclient/webhook"
)

// The notifications of a charge with a due date, one per change of its status.
const (
	EventChargeCreated  = "charge.created"
	EventChargePaid     = "charge.paid"
	EventChargeOverdue  = "charge.overdue"
	EventChargeCanceled = "charge.canceled"
)

// ChargeEventType is the type of the notification of a charge's change e: charge.created for
// its first event, else "charge." and the status it entered.
func ChargeEventType(e charges.Event) string {
	if e.Version == 1 {
		return EventChargeCreated
	}
	return "charge." + string(e.Status)
}

// ChargeAnnouncer makes the merchant's notifications of a charge's changes of status (the
// charges.Announcer of the charges' Manager), written with the change into the outbox and
// signed and sent as an order's are.
type ChargeAnnouncer struct {
	// Charge is the data of a notification: the charge as the merchant API shows it on the São
	// Paulo day of the change (apijson.ChargeEvent), its customer empty unless personal.
	// Required.
	Charge func(c *charges.Charge, day charges.Date, personal bool) any
	// Clock, Wake and PersonalData are as the order Announcer's.
	Clock        func() time.Time
	Wake         func()
	PersonalData func(ctx context.Context) (bool, error)
}

var _ charges.Announcer = (*ChargeAnnouncer)(nil)

// Announce returns the one notification of e, timestamped at the change, when e changes c's
// status (none for a partial payment or a refund due).
func (a *ChargeAnnouncer) Announce(ctx context.Context, c *charges.Charge, e charges.Event) ([]checkout.OutboxMessage, error) {
	if a.Charge == nil {
		return nil, errors.New("notify: the ChargeAnnouncer has no Charge to make a notification's data")
	}
	if e.Reason == charges.ReasonPartiallyPaid || e.Reason == charges.ReasonRefundDue {
		return nil, nil // no change of status: in the timeline only, as the webhooks' contract has it
	}
	personal := true
	if a.PersonalData != nil {
		p, err := a.PersonalData(ctx)
		if err != nil {
			return nil, fmt.Errorf("notify: reading whether notifications carry personal data: %w", err)
		}
		personal = p
	}
	now := time.Now
	if a.Clock != nil {
		now = a.Clock
	}
	typ := ChargeEventType(e)
	body, err := notificationBody(a.Charge(c, charges.Today(e.At), personal), typ, e.At)
	if err != nil {
		return nil, err
	}
	return []checkout.OutboxMessage{{ID: webhook.NewMessageID(), ChargeID: c.ID, Type: typ, Payload: body,
		CreatedAt: now().UTC()}}, nil
}

// Announced wakes the outbox.
func (a *ChargeAnnouncer) Announced() {
	if a.Wake != nil {
		a.Wake()
	}
}
