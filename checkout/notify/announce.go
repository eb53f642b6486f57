package notify

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient/webhook"
)

// SessionReader reads a checkout session (checkout.CheckoutSessionStore does).
type SessionReader interface {
	CheckoutSession(ctx context.Context, id string) (*checkout.CheckoutSession, error)
}

// Announcer makes the merchant's notifications of an order's changes of status: the
// checkout.Announcer of the service, whose messages the store writes into the outbox in the
// transaction of the change, and the outbox sends (see NotificationOptions).
type Announcer struct {
	// Order is the data of an order's notification: the order as the merchant API shows it
	// (apijson.OrderEvent; the shape is the API's, which the notifications share), sess its
	// checkout session or nil, and without personal an empty customer. Required.
	Order func(o *checkout.Order, sess *checkout.CheckoutSession, personal bool) any
	// Sessions reads an order's checkout session, whose metadata the notification carries
	// (nil: none is read).
	Sessions SessionReader
	// Clock is when a notification is made and first due, on the outbox's clock (default
	// time.Now). The event's own timestamp is the time of the change, on the shop's clock.
	Clock func() time.Time
	// Wake, when set, is called once notifications are stored (the outbox's Wake).
	Wake func()
	// PersonalData, when set, tells whether the notifications carry the shopper's personal data
	// (settings.Manager.NotifyPersonalData); without it they do. When it says no, an order's
	// notification has an empty customer.
	PersonalData func(ctx context.Context) (bool, error)
}

var _ checkout.Announcer = (*Announcer)(nil)

// Announce returns one notification per change: type "order." and the state entered (or the
// merchant's action: ActionEventType), data the order as the API shows it (as it is after the
// update; its customer empty unless PersonalData says the merchant wants it), timestamp the
// change's.
func (a *Announcer) Announce(ctx context.Context, o *checkout.Order, changes []checkout.StatusChange) ([]checkout.OutboxMessage, error) {
	if a.Order == nil {
		return nil, errors.New("notify: the Announcer has no Order to make a notification's data")
	}
	var sess *checkout.CheckoutSession
	if o.SessionID != "" && a.Sessions != nil {
		s, err := a.Sessions.CheckoutSession(ctx, o.SessionID)
		switch {
		case err == nil:
			sess = s
		case !errors.Is(err, checkout.ErrNotFound):
			// Without its metadata the notification would be wrong; the update is retried later.
			return nil, fmt.Errorf("notify: reading the order's session: %w", err)
		}
	}
	personal := true
	if a.PersonalData != nil {
		p, err := a.PersonalData(ctx)
		if err != nil {
			// Sending what the merchant may have turned off is worse than a retried update.
			return nil, fmt.Errorf("notify: reading whether notifications carry personal data: %w", err)
		}
		personal = p
	}
	now := time.Now
	if a.Clock != nil {
		now = a.Clock
	}
	out := make([]checkout.OutboxMessage, 0, len(changes))
	for _, c := range changes {
		typ := EventType(c.To)
		if c.To == c.From {
			// A note in the history, not a change of state: only the merchant's actions that
			// are events of their own are announced.
			if typ = ActionEventType(c.Reason.Code); typ == "" {
				continue
			}
		}
		body, err := notificationBody(a.Order(o, sess, personal), typ, c.At)
		if err != nil {
			return nil, err
		}
		out = append(out, checkout.OutboxMessage{ID: webhook.NewMessageID(), OrderID: o.ID, Type: typ, Payload: body,
			CreatedAt: now().UTC()})
	}
	return out, nil
}

// Announced wakes the outbox.
func (a *Announcer) Announced() {
	if a.Wake != nil {
		a.Wake()
	}
}
