package sqlstore

import (
	"context"
	"errors"
	"fmt"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/notify"
	"github.com/pixcheckout/pixcheckout/gatewayclient/outbox"
)

// OutboxStatements returns the statements storing msgs in the outbox (gatewayclient/outbox),
// for a write that runs them in its own transaction, with the change that causes them: the
// one way a message of any channel enters the outbox. A message about an order is recorded
// as the order's, one about a user as the user's, an e-mail about a charge as the charge's
// (ChargeRecord), another as about nothing.
func OutboxStatements(msgs ...checkout.OutboxMessage) ([]Stmt, error) {
	out := make([]Stmt, 0, len(msgs))
	for _, m := range msgs {
		if m.ID == "" {
			return nil, errors.New("an outbox message needs an id")
		}
		var ins outbox.Statement
		switch m.Channel {
		case "", checkout.ChannelWebhook:
			if m.OrderID == "" && m.ChargeID == "" {
				return nil, errors.New("a notification needs its order's or its charge's id")
			}
			ins = notify.InsertNotification(m)
		case checkout.ChannelMail:
			if m.To == "" {
				return nil, fmt.Errorf("e-mail %s has no recipient", m.ID)
			}
			kind, id := "", ""
			switch {
			case m.OrderID != "":
				kind, id = "order", m.OrderID
			case m.ChargeID != "":
				// A charge's e-mail (a reminder) goes with the charge's personal data.
				kind, id = ChargeRecord, m.ChargeID
			case m.UserID != "":
				kind, id = "user", m.UserID
			}
			om := outbox.Message{ID: m.ID, Channel: outbox.ChannelSMTP, Recipient: m.To, Type: m.Type,
				RecordKind: kind, RecordID: id, Body: m.Payload, NotBefore: m.NotBefore}
			ins = outbox.Insert(om, m.CreatedAt)
			if m.Replace {
				ins = outbox.Rewrite(om, m.CreatedAt)
			}
		default:
			return nil, fmt.Errorf("outbox message %s: unknown channel %q", m.ID, m.Channel)
		}
		out = append(out, Stmt{SQL: ins.SQL, Args: ins.Args})
	}
	return out, nil
}

// ChargeRecord is the outbox's record kind of the e-mails about a charge (its reminders).
const ChargeRecord = "charge"

// Enqueue stores msgs in the outbox in one transaction of their own: for messages that no
// other change of this store causes (a test e-mail, a scheduled summary). A message whose id
// is stored already is not stored again.
func (s *Store) Enqueue(ctx context.Context, msgs ...checkout.OutboxMessage) error {
	stmts, err := OutboxStatements(msgs...)
	if err != nil {
		return s.errorf("%w", err)
	}
	if len(stmts) == 0 {
		return nil
	}
	if err := s.writeBatch(ctx, stmts...); err != nil {
		return s.errorf("storing outbox messages: %w", err)
	}
	return nil
}
