package checkout

import (
	"context"
	"time"
)

// OutboxMessage is a message that the store writes in the same transaction as the change that
// causes it (a transactional outbox): it exists exactly when the change was committed, so a
// worker reading the outbox afterwards never misses a change nor reports one that was rolled
// back. The store keeps it as given; what it says and who reads it is its maker's business
// (package notify: the merchant's notifications; package mail: e-mails).
//
// A message concerns an order (OrderID), a user (UserID), a charge (ChargeID) or nothing in
// particular (none),
// travels on a channel (ChannelWebhook, ChannelMail) and is first due at CreatedAt, or at
// NotBefore when that is later (a reminder scheduled ahead; on the service's clock).
type OutboxMessage struct {
	ID        string // unique; the reader's delivery id (an e-mail's Message-ID)
	OrderID   string // the order it is about; messages of one order are read in the order written
	UserID    string // the dashboard user it is about, when not an order
	ChargeID  string // the charge with a due date it is about (a charge's notification)
	Channel   string // ChannelWebhook ("" too) or ChannelMail
	To        string // the recipient's address, on ChannelMail
	Type      string // e.g. "order.paid"
	Payload   []byte // the body to deliver, as is (JSON)
	CreatedAt time.Time
	NotBefore time.Time
	// Replace: the message takes the place of the pending one with its ID (a scheduled
	// reminder whose amount changed): only its body is written, at CreatedAt, and nothing when
	// none is pending.
	Replace bool
}

// The channels of the outbox.
const (
	ChannelWebhook = "webhook" // the merchant's notifications (package notify)
	ChannelMail    = "smtp"    // e-mails (package mail)
)

// Announcers is an Announcer made of several: each one's messages are written with the
// change, in their order (the merchant's notifications and the shopper's e-mails, say).
type Announcers []Announcer

// Announce returns every announcer's messages; the first error aborts the update.
func (as Announcers) Announce(ctx context.Context, o *Order, changes []StatusChange) ([]OutboxMessage, error) {
	var out []OutboxMessage
	for _, a := range as {
		msgs, err := a.Announce(ctx, o, changes)
		if err != nil {
			return nil, err
		}
		out = append(out, msgs...)
	}
	return out, nil
}

// Announced tells every announcer.
func (as Announcers) Announced() {
	for _, a := range as {
		a.Announced()
	}
}

// Announcer makes the outbox messages of an order's changes of status, and of the merchant's
// actions that ReasonCode.Announced names.
type Announcer interface {
	// Announce returns the messages announcing changes, the entries of o's history that this
	// update adds (one, or several when it moved o through more than one state), o being the
	// order as it is about to be stored (UpdatedAt set). It is called before the store's
	// transaction, which writes the messages with the order or not at all; an error aborts the
	// update. It must not change o.
	Announce(ctx context.Context, o *Order, changes []StatusChange) ([]OutboxMessage, error)
	// Announced is called after a transaction that wrote messages committed, so that a
	// worker can deliver them at once instead of at its next poll. It must not block.
	Announced()
}
