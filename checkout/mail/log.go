package mail

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient/outbox"
)

// Suppression is an address on the suppression list.
type Suppression struct {
	Address string
	Reply   string // the server's refusal
	At      time.Time
}

// SuppressionStore is the suppression list as the e-mail log manages it.
type SuppressionStore interface {
	Suppressions
	Suppressions(ctx context.Context, limit int) ([]Suppression, error)
	Unsuppress(ctx context.Context, addr string) error
}

// Store is what the log needs of the checkout's store: the suppression list, and storing
// messages that no other change causes (checkout/sqlstore's Enqueue).
type Store interface {
	SuppressionStore
	Enqueue(ctx context.Context, msgs ...checkout.OutboxMessage) error
}

// State is where a message is, as the e-mail log shows it.
type State string

// The states of a message.
const (
	Queued  State = "queued"  // waiting for its first attempt, or for a retry
	Sent    State = "sent"    // the server accepted it (250)
	Failed  State = "failed"  // refused for good (5xx, a suppressed address) or every retry spent
	NotSent State = "notsent" // kept, not sent: no SMTP server was configured, or a charge's reminder given up
)

// States lists the states in the order a filter offers them.
func States() []State { return []State{Queued, Sent, Failed, NotSent} }

var stateOfStatus = map[string]State{outbox.StatusPending: Queued, outbox.StatusDelivered: Sent, outbox.StatusDead: Failed,
	outbox.StatusSkipped: NotSent}

// Entry is a message of the e-mail log.
type Entry struct {
	ID        int64  // the log's id (the outbox's delivery)
	MessageID string // the Message-ID, without angle brackets
	Type      string
	To        string
	Content   Content
	State     State
	// Reason is the last failure, the server's reply included ("" when sent); for NotSent,
	// NotSentNoServer.
	Reason        string
	Attempts      int
	OrderID       string // the order it concerns, or ""
	UserID        string // the user it concerns, or ""
	CreatedAt     time.Time
	UpdatedAt     time.Time
	NextAttemptAt time.Time // for a queued one
}

// NoServer reports whether the message was kept without being sent for want of a server.
func (e Entry) NoServer() bool { return e.State == NotSent && e.Reason == NotSentNoServer }

// Suppressed reports whether the message was not sent because its address is suppressed.
func (e Entry) Suppressed() bool { return strings.HasPrefix(e.Reason, suppressedPrefix) }

// Filter selects entries of the log. Zero fields do not filter.
type Filter struct {
	State State
	To    string // the recipient, exactly (case aside)
	// BeforeID pages by key (the entries older than that one); AfterID, those newer (still
	// newest first).
	BeforeID, AfterID int64
	Limit             int // ≤ 0: 50
}

// Log is the e-mail log: the outbox's messages of ChannelSMTP, and the suppression list.
type Log struct {
	ob  *outbox.Outbox
	sup Store
}

// NewLog returns the log of ob (the outbox of ChannelSMTP) and st.
func NewLog(ob *outbox.Outbox, st Store) *Log { return &Log{ob: ob, sup: st} }

// Enqueue stores messages that no other change causes (a test e-mail), in a transaction of
// their own, and wakes the sending. A message caused by a change is stored with it instead
// (an Announcer's, or the store write making the change).
func (l *Log) Enqueue(ctx context.Context, msgs ...checkout.OutboxMessage) error {
	if err := l.sup.Enqueue(ctx, msgs...); err != nil {
		return fmt.Errorf("mail: %w", err)
	}
	l.ob.Wake()
	return nil
}

// Wake makes the sending look for due messages now: call it once a transaction that stored
// e-mails committed (an Announcer's Announced).
func (l *Log) Wake() { l.ob.Wake() }

// ErrNotFound: no message has that id.
var ErrNotFound = errors.New("mail: no such message")

// List returns the entries f selects, newest first.
func (l *Log) List(ctx context.Context, f Filter) ([]Entry, error) {
	of := outbox.Filter{Recipient: strings.ToLower(strings.TrimSpace(f.To)), BeforeID: f.BeforeID, AfterID: f.AfterID,
		Limit: f.Limit}
	if f.State != "" {
		for status, st := range stateOfStatus {
			if st == f.State {
				of.Status = status
			}
		}
		if of.Status == "" {
			return nil, nil
		}
	}
	ds, err := l.ob.Deliveries(ctx, of)
	if err != nil {
		return nil, fmt.Errorf("mail: listing messages: %w", err)
	}
	out := make([]Entry, 0, len(ds))
	for _, d := range ds {
		out = append(out, entryOf(d))
	}
	return out, nil
}

// Entry returns the message with id, or ErrNotFound.
func (l *Log) Entry(ctx context.Context, id int64) (Entry, error) {
	ds, err := l.ob.Deliveries(ctx, outbox.Filter{BeforeID: id + 1, Limit: 1})
	if err != nil {
		return Entry{}, fmt.Errorf("mail: reading message %d: %w", id, err)
	}
	if len(ds) == 0 || ds[0].ID != id {
		return Entry{}, ErrNotFound
	}
	return entryOf(ds[0]), nil
}

// Resend makes a message due now again, whatever its state, with the same Message-ID.
func (l *Log) Resend(ctx context.Context, id int64) error {
	if err := l.ob.Redeliver(ctx, id); err != nil {
		if errors.Is(err, outbox.ErrNotFound) {
			return ErrNotFound
		}
		return fmt.Errorf("mail: resending message %d: %w", id, err)
	}
	return nil
}

// Suppressions lists the suppressed addresses, newest first.
func (l *Log) Suppressions(ctx context.Context) ([]Suppression, error) {
	return l.sup.Suppressions(ctx, 100)
}

// Unsuppress clears addr from the suppression list.
func (l *Log) Unsuppress(ctx context.Context, addr string) error { return l.sup.Unsuppress(ctx, addr) }

func entryOf(d outbox.Delivery) Entry {
	e := Entry{ID: d.ID, MessageID: d.MessageID, Type: d.Type, To: d.Recipient, State: stateOfStatus[d.Status],
		Reason: d.LastError, Attempts: d.Attempts, CreatedAt: d.CreatedAt, UpdatedAt: d.UpdatedAt, NextAttemptAt: d.NextAttemptAt}
	switch d.RecordKind {
	case "order":
		e.OrderID = d.RecordID
	case "user":
		e.UserID = d.RecordID
	}
	if c, err := ContentOf(d.Body); err == nil {
		e.Content = c
	}
	return e
}

// RetrySchedule is the wait after each failed attempt (a connection failure, a 4xx): 30 s,
// 1 min, 5 min, 15 min, 30 min, 1 h, 2 h, 4 h, 8 h — ten attempts over about 16 hours, then
// the message is failed.
func RetrySchedule() []time.Duration {
	return []time.Duration{30 * time.Second, time.Minute, 5 * time.Minute, 15 * time.Minute, 30 * time.Minute, time.Hour,
		2 * time.Hour, 4 * time.Hour, 8 * time.Hour}
}

// DefaultRetention is how long a finished message is kept, unless the personal data's
// retention is shorter (a stored message is a copy of personal data); an anonymised order's
// messages are emptied with it.
const DefaultRetention = 90 * 24 * time.Hour

// OutboxOptions returns the options of the outbox that sends the e-mails through s: channel
// SMTP, RetrySchedule (nil schedule), kept retention (≤ 0: DefaultRetention) once finished,
// as many attempts at once as s has connections. The caller sets the database (the store's
// Outbox does) and the clock.
func OutboxOptions(s *Sender, schedule []time.Duration, retention time.Duration, log *slog.Logger) outbox.Options {
	if schedule == nil {
		schedule = RetrySchedule()
	}
	if retention <= 0 {
		retention = DefaultRetention
	}
	return outbox.Options{Channel: outbox.ChannelSMTP, Sender: s, Schedule: schedule, Jitter: 0.2, PollInterval: time.Second,
		Gather: 20 * time.Millisecond, Concurrency: s.opts.MaxConns, Retention: retention, Logger: log}
}
