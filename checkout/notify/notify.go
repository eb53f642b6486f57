package notify

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/settings"
	"github.com/pixcheckout/pixcheckout/gatewayclient/outbox"
	"github.com/pixcheckout/pixcheckout/gatewayclient/webhook"
)

// Merchant notifications: when an order changes state, the merchant's URL receives a signed
// event (Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature with the whsec_
// secret of the settings), whose body is {"type": "order.paid", "timestamp": …, "data": the
// order as the API shows it}. Each notification is written to the outbox (gatewayclient/outbox)
// in the same transaction as the change it reports, so it exists exactly when the change was
// committed; the outbox, with NotificationOptions, sends it at least once (receivers
// deduplicate by webhook-id), in order per order, wherever the settings say when it is due,
// retried on any answer but a 2xx along RetrySchedule for more than a day. Every attempt is
// kept in the delivery log.

// Notification states.
const (
	NotificationPending   = outbox.StatusPending
	NotificationDelivered = outbox.StatusDelivered
	NotificationDead      = outbox.StatusDead    // every attempt failed
	NotificationSkipped   = outbox.StatusSkipped // no URL was configured when it was due
)

// EventType is the type of the notification of an order entering status: "order.paid".
func EventType(status checkout.OrderStatus) string { return "order." + string(status) }

// Events of the merchant's actions that leave an order's state as it was.
const (
	EventShipped        = "order.shipped"
	EventDelivered      = "order.delivered"
	EventRefundRecorded = "refund.recorded"
)

// ActionEventType is the type of the notification of a merchant's action recorded in an
// order's history with code c, or "" when it is not announced (a note).
func ActionEventType(c checkout.ReasonCode) string {
	switch c {
	case checkout.ReasonShipped:
		return EventShipped
	case checkout.ReasonDelivered:
		return EventDelivered
	case checkout.ReasonRefundRecorded:
		return EventRefundRecorded
	}
	return ""
}

// Notification is one event for the merchant, in the delivery log.
type Notification struct {
	ID             string // "msg_…": the webhook-id, the same on every attempt
	Seq            int64  // its place in the log: later notifications have higher ones
	OrderID        string // the order it is about ("" for a charge's or a test notification)
	ChargeID       string // the charge it is about ("" for an order's or a test notification)
	Type           string // "order.paid"
	Payload        []byte // the body: {"type","timestamp","data"}
	CreatedAt      time.Time
	Status         string // NotificationPending, …
	Attempts       int
	NextAttemptAt  time.Time
	LastError      string
	LastStatusCode int
	LastDuration   time.Duration // of the last attempt
	LastExcerpt    string        // the start of the last answer's body
}

// DeliveryAttempt is one try at delivering a notification.
type DeliveryAttempt struct {
	NotificationID string
	N              int // 1 for the first
	At             time.Time
	URL            string // without its query string
	StatusCode     int    // 0 without an answer
	Error          string // "" on success
	Duration       time.Duration
	Excerpt        string // the start of the answer's body
}

// NotificationFilter selects notifications of the delivery log. Zero fields do not filter.
type NotificationFilter struct {
	OrderID  string // the notifications of this order
	ChargeID string // the notifications of this charge with a due date
	Status   string
	Type     string
	// EventsOnly leaves out the test notifications (the API's log is of the orders' and the
	// charges' events).
	EventsOnly bool
	Limit      int // at most this many, newest first (0: 50)
	Offset     int // skipping this many first
	// BeforeSeq, AfterSeq (above 0) page by key: the notifications older than the one of that
	// Seq, or newer than it (still listed newest first).
	BeforeSeq, AfterSeq int64
}

// notificationBody is the body of a notification of type typ about data (the order as the API
// shows it) at at.
func notificationBody(data any, typ string, at time.Time) ([]byte, error) {
	order, err := json.Marshal(data)
	if err != nil {
		return nil, fmt.Errorf("notify: encoding the order: %w", err)
	}
	body, err := json.Marshal(webhook.Event{Type: typ, Timestamp: at, Data: order})
	if err != nil {
		return nil, fmt.Errorf("notify: encoding the event: %w", err)
	}
	return body, nil
}

// The record kinds of the notifications in the outbox: an order's events, a charge's, and the
// test notifications sent from the dashboard.
const (
	orderRecord  = "order"
	chargeRecord = "charge"
	pingRecord   = "ping"
)

// InsertNotification returns the statement storing m, a message an Announcer made, in the
// outbox: the order's (or the charge's) store runs it in the transaction of the change m
// announces. A charge's notifications are delivered in order per charge, as an order's per order.
func InsertNotification(m checkout.OutboxMessage) outbox.Statement {
	kind, id := orderRecord, m.OrderID
	if m.OrderID == "" && m.ChargeID != "" {
		kind, id = chargeRecord, m.ChargeID
	}
	return outbox.Insert(outbox.Message{ID: m.ID, RecordKind: kind, RecordID: id, Type: m.Type,
		Body: m.Payload}, m.CreatedAt)
}

// RetrySchedule is the wait after each failed attempt (Standard Webhooks' schedule): 5 s,
// 5 min, 30 min, 2 h, 5 h, 10 h, 10 h — eight attempts over about 27.6 hours, then the
// notification is dead.
func RetrySchedule() []time.Duration {
	return []time.Duration{5 * time.Second, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour, 5 * time.Hour, 10 * time.Hour, 10 * time.Hour}
}

// UserAgent is sent with every notification.
const UserAgent = "PIX-Checkout-Notifications/1"

// Delivery defaults.
const (
	// DefaultRetention is how long the delivery log keeps a finished notification.
	DefaultRetention = 30 * 24 * time.Hour
	// retryJitter shortens each wait of the schedule by up to a tenth, so that receivers
	// coming back are not hit by every retry at once, while the default schedule still lasts
	// more than a day.
	retryJitter = 0.1
	// gather is how long the outbox waits after a wake-up: under load every order wakes it,
	// and a short wait lets one claim and one read of the settings serve the notifications of
	// many.
	gather = 20 * time.Millisecond
)

// NotificationOptions returns the options of the outbox that delivers the notifications: to
// the URL of the settings in force when each is due (a merchant's URL through the SSRF guard,
// the configured one without it), skipped without a URL or a secret, in order per order,
// retried along schedule (nil: RetrySchedule()). log receives one line per attempt (nil: none).
// The caller sets the database (the store's Outbox does).
func NotificationOptions(m *settings.Manager, schedule []time.Duration, log *slog.Logger) outbox.Options {
	if schedule == nil {
		schedule = RetrySchedule()
	}
	return outbox.Options{
		Route:        route(m),
		Schedule:     schedule,
		Jitter:       retryJitter,
		InOrder:      true,
		PollInterval: time.Second,
		Gather:       gather,
		Retention:    DefaultRetention,
		UserAgent:    UserAgent,
		Logger:       log,
	}
}

// route is where the notifications go now: the settings of m in force.
func route(m *settings.Manager) func(ctx context.Context) (outbox.Target, error) {
	return func(ctx context.Context) (outbox.Target, error) {
		e, err := m.Get(ctx)
		if err != nil {
			return outbox.Target{}, err
		}
		return outbox.Target{URL: e.WebhookURL, Secret: e.Signing, Trusted: e.TrustedURL()}, nil
	}
}

// DeliveryLog is the merchant's view of the notifications and their attempts (the merchant
// API, the dashboard).
type DeliveryLog struct {
	ob *outbox.Outbox
}

// NewDeliveryLog returns the log of the notifications of ob.
func NewDeliveryLog(ob *outbox.Outbox) *DeliveryLog { return &DeliveryLog{ob: ob} }

// MaxLogPage is the most notifications one List returns.
const MaxLogPage = 100

// List returns the notifications f selects, newest first: at most f.Limit (1 to MaxLogPage).
func (l *DeliveryLog) List(ctx context.Context, f NotificationFilter) ([]Notification, error) {
	if f.Limit <= 0 || f.Limit > MaxLogPage+1 {
		f.Limit = MaxLogPage
	}
	of := outbox.Filter{Status: f.Status, Type: f.Type, Limit: f.Limit, Offset: f.Offset, BeforeID: f.BeforeSeq, AfterID: f.AfterSeq}
	switch {
	case f.OrderID != "" && f.ChargeID != "":
		return nil, nil // no notification is of both
	case f.OrderID != "":
		of.RecordID, of.RecordKind = f.OrderID, orderRecord
	case f.ChargeID != "":
		of.RecordID, of.RecordKind = f.ChargeID, chargeRecord
	case f.EventsOnly:
		of.NotKind = pingRecord
	}
	ds, err := l.ob.Deliveries(ctx, of)
	if err != nil {
		return nil, fmt.Errorf("notify: listing notifications: %w", err)
	}
	out := make([]Notification, 0, len(ds))
	for _, d := range ds {
		out = append(out, notificationOf(d))
	}
	return out, nil
}

// Get returns one notification with its attempts, first first, or checkout.ErrNotFound.
func (l *DeliveryLog) Get(ctx context.Context, id string) (*Notification, []DeliveryAttempt, error) {
	ds, err := l.ob.Deliveries(ctx, outbox.Filter{MessageID: id, Limit: 1})
	if err != nil {
		return nil, nil, fmt.Errorf("notify: notification: %w", err)
	}
	if len(ds) == 0 {
		return nil, nil, fmt.Errorf("notify: notification %q: %w", id, checkout.ErrNotFound)
	}
	as, err := l.ob.Attempts(ctx, ds[0].ID)
	if err != nil {
		return nil, nil, fmt.Errorf("notify: the attempts of a notification: %w", err)
	}
	n := notificationOf(ds[0])
	out := make([]DeliveryAttempt, 0, len(as))
	for _, a := range as {
		out = append(out, DeliveryAttempt{NotificationID: n.ID, N: a.N, At: a.At, URL: a.URL, StatusCode: a.StatusCode,
			Error: a.Error, Duration: a.Duration, Excerpt: a.Excerpt})
	}
	return &n, out, nil
}

// notificationOf is the notification a delivery of the outbox carries.
func notificationOf(d outbox.Delivery) Notification {
	n := Notification{ID: d.MessageID, Seq: d.ID, Type: d.Type, Payload: d.Body, CreatedAt: d.CreatedAt,
		Status: d.Status, Attempts: d.Attempts, NextAttemptAt: d.NextAttemptAt, LastError: d.LastError,
		LastStatusCode: d.LastStatusCode, LastDuration: d.LastDuration, LastExcerpt: d.LastExcerpt}
	switch d.RecordKind {
	case chargeRecord:
		n.ChargeID = d.RecordID
	case orderRecord:
		n.OrderID = d.RecordID
	}
	return n
}

// RecordPing puts a test notification, sent and answered (Ping), in the delivery log:
// delivered on a 2xx, otherwise failed, never retried, with its one attempt (status, time and
// the start of the answer).
func (l *DeliveryLog) RecordPing(ctx context.Context, p *PingResult) error {
	err := l.ob.RecordSent(ctx, outbox.Message{ID: p.ID, Type: PingType, RecordKind: pingRecord, Body: p.Body},
		outbox.Attempt{At: p.At, URL: p.URL, StatusCode: p.StatusCode, Error: p.Error, Duration: p.Duration, Excerpt: p.Excerpt})
	if err != nil {
		return fmt.Errorf("notify: logging a test notification: %w", err)
	}
	return nil
}
