package checkout

import (
	"context"
	"time"
)

// OutboxMessage is a message about an order that the store writes in the same transaction as
// the order's change (a transactional outbox): it exists exactly when the change was committed,
// so a worker reading the outbox afterwards never misses a change nor reports one that was
// rolled back. The store keeps it as given; what it says and who reads it is the Announcer's
// business (package merchant: the merchant's notifications).
type OutboxMessage struct {
	ID        string // unique; the reader's delivery id
	OrderID   string // the order it is about; messages of one order are read in the order written
	Type      string // e.g. "order.paid"
	Payload   []byte // the body to deliver, as is
	CreatedAt time.Time
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
