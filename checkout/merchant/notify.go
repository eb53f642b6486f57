package merchant

import (
	"bytes"
	"context"
	crand "crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient/webhook"
)

// Merchant notifications: when an order changes state, the merchant's URL receives a signed
// event (Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature with the whsec_
// secret of the settings), whose body is {"type": "order.paid", "timestamp": …, "data": the
// order as the API shows it}. Each notification is written to the outbox in the same
// transaction as the change it reports, so it exists exactly when the change was committed;
// the Deliverer sends it at least once (receivers deduplicate by webhook-id), in order per
// order (an order's next notification waits for the previous one to be delivered or given up),
// retried on any answer but a 2xx along RetrySchedule (with jitter) for more than a day. Every
// attempt is kept in the delivery log, which Prune trims.

// Notification states.
const (
	NotificationPending   = "pending"
	NotificationDelivered = "delivered"
	NotificationDead      = "dead"    // every attempt failed
	NotificationSkipped   = "skipped" // no URL was configured when it was due
)

// EventType is the type of the notification of an order entering status: "order.paid".
func EventType(status checkout.OrderStatus) string { return "order." + string(status) }

// Notification is one event for the merchant, in the outbox.
type Notification struct {
	ID             string // "msg_…": the webhook-id, the same on every attempt
	OrderID        string
	Type           string // "order.paid"
	Payload        []byte // the body: {"type","timestamp","data"}
	CreatedAt      time.Time
	Status         string // NotificationPending, …
	Attempts       int
	NextAttemptAt  time.Time
	LastError      string
	LastStatusCode int
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
}

// NotificationFilter selects notifications of the delivery log. Zero fields do not filter.
type NotificationFilter struct {
	OrderID string
	Status  string
	Type    string
	Limit   int // at most this many, newest first (0: 50)
	Offset  int // skipping this many first
}

// NotificationStore keeps the outbox and its delivery log. The notifications themselves are
// written by the order's store in the transaction that changes the order.
type NotificationStore interface {
	// ClaimNotifications leases, until now+lease, up to limit pending notifications due at
	// now whose lease lapsed, each the oldest pending notification of its order, and returns
	// them oldest first.
	ClaimNotifications(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]Notification, error)
	// RecordAttempt stores a (its outcome in n: Status, Attempts, NextAttemptAt, LastError,
	// LastStatusCode) and releases the lease, in one transaction.
	RecordAttempt(ctx context.Context, n Notification, a DeliveryAttempt) error
	// Notifications lists the log, newest first.
	Notifications(ctx context.Context, f NotificationFilter) ([]Notification, error)
	// Notification returns one notification of the log, or checkout.ErrNotFound.
	Notification(ctx context.Context, id string) (*Notification, error)
	// NotificationAttempts lists the attempts of one notification, first first.
	NotificationAttempts(ctx context.Context, id string) ([]DeliveryAttempt, error)
	// PruneNotifications deletes up to limit delivered, dead or skipped notifications created
	// before olderThan, with their attempts, and returns how many it deleted.
	PruneNotifications(ctx context.Context, olderThan time.Time, limit int) (int, error)
}

// Outcome is one attempt to record with the notification's outcome (see RecordAttempt).
type Outcome struct {
	Notification Notification
	Attempt      DeliveryAttempt
}

// BatchRecorder is a NotificationStore that records many attempts in one transaction:
// RecordAttempt for each, where a notification pruned meanwhile is passed over. The
// Deliverer uses it for the notifications it skips (no URL is configured), which are as many
// as the orders' changes.
type BatchRecorder interface {
	RecordAttempts(ctx context.Context, outcomes []Outcome) error
}

// NewNotification makes the notification of o having entered its current status at at; sess
// is its checkout session (for the metadata), or nil.
func NewNotification(o *checkout.Order, sess *checkout.Session, at time.Time) (Notification, error) {
	return newNotification(o, sess, EventType(o.Status), at)
}

// newNotification makes a notification of type typ about o at at.
func newNotification(o *checkout.Order, sess *checkout.Session, typ string, at time.Time) (Notification, error) {
	data, err := json.Marshal(OrderOf(o, sess))
	if err != nil {
		return Notification{}, fmt.Errorf("merchant: encoding the order: %w", err)
	}
	body, err := json.Marshal(webhook.Event{Type: typ, Timestamp: at, Data: data})
	if err != nil {
		return Notification{}, fmt.Errorf("merchant: encoding the event: %w", err)
	}
	return Notification{ID: webhook.NewMessageID(), OrderID: o.ID, Type: typ, Payload: body, CreatedAt: at.UTC(),
		Status: NotificationPending, NextAttemptAt: at.UTC()}, nil
}

// RetrySchedule is the wait after each failed attempt (Standard Webhooks' schedule): 5 s,
// 5 min, 30 min, 2 h, 5 h, 10 h, 10 h — eight attempts over about 27.6 hours, then the
// notification is dead.
func RetrySchedule() []time.Duration {
	return []time.Duration{5 * time.Second, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour, 5 * time.Hour, 10 * time.Hour, 10 * time.Hour}
}

// UserAgent is sent with every notification.
const UserAgent = "PIX-Checkout-Notifications/1"

// Deliverer defaults.
const (
	DefaultPollInterval = time.Second
	DefaultGather       = 20 * time.Millisecond
	DefaultTimeout      = 10 * time.Second
	DefaultConcurrency  = 4
	DefaultRetention    = 30 * 24 * time.Hour
	maxErrorSnippet     = 256
)

// DelivererOptions configures a Deliverer. Store and Settings are required.
type DelivererOptions struct {
	Store    NotificationStore
	Settings *SettingsManager
	// Schedule is the wait after each failed attempt (default RetrySchedule()); its length
	// plus one is the number of attempts. Each wait is varied by ±10% (jitter), so that
	// receivers coming back are not hit by every retry at once.
	Schedule []time.Duration
	// Clock is the current time (default time.Now).
	Clock func() time.Time
	// Logger receives one line per attempt, never a secret nor a query string (default: none).
	Logger *slog.Logger
	// HTTPClient sends to URLs typed by the merchant (default: the SSRF-guarded dialer of
	// package webhook). The configured URL, the operator's, is sent with a plain client.
	HTTPClient   *http.Client
	PollInterval time.Duration
	// Gather is how long Run waits after a Wake before its pass, so that the notifications
	// of orders changing at once are claimed, and their settings read, in one pass (default
	// DefaultGather).
	Gather      time.Duration
	Concurrency int
	Retention   time.Duration // delivery log kept this long (default 30 days)
	Rand        *rand.Rand    // jitter source (default seeded from crypto/rand)
}

// Deliverer sends the outbox's notifications. Run it in the background of every instance:
// leases keep two instances from sending one notification at once.
type Deliverer struct {
	o       DelivererOptions
	guarded *http.Client
	trusted *http.Client
	randMu  sync.Mutex
	wake    chan struct{}
}

// NewDeliverer returns a Deliverer.
func NewDeliverer(o DelivererOptions) (*Deliverer, error) {
	if o.Store == nil || o.Settings == nil {
		return nil, errors.New("merchant: DelivererOptions.Store and Settings are required")
	}
	if o.Schedule == nil {
		o.Schedule = RetrySchedule()
	}
	if o.Clock == nil {
		o.Clock = time.Now
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.PollInterval <= 0 {
		o.PollInterval = DefaultPollInterval
	}
	if o.Concurrency <= 0 {
		o.Concurrency = DefaultConcurrency
	}
	if o.Gather <= 0 {
		o.Gather = DefaultGather
	}
	if o.Retention <= 0 {
		o.Retention = DefaultRetention
	}
	if o.Rand == nil {
		var seed [32]byte
		_, _ = crand.Read(seed[:])
		o.Rand = rand.New(rand.NewChaCha8(seed))
	}
	d := &Deliverer{o: o, wake: make(chan struct{}, 1)}
	noRedirect := func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	d.guarded = o.HTTPClient
	if d.guarded == nil {
		d.guarded = &http.Client{Transport: &http.Transport{Proxy: nil, DialContext: webhook.GuardedDialer().DialContext,
			TLSHandshakeTimeout: 5 * time.Second, ResponseHeaderTimeout: DefaultTimeout, MaxIdleConnsPerHost: idleConnsPerHost},
			Timeout: DefaultTimeout}
	}
	d.guarded.CheckRedirect = noRedirect
	d.trusted = &http.Client{Transport: &http.Transport{Proxy: nil, DialContext: (&net.Dialer{Timeout: 5 * time.Second}).DialContext,
		TLSHandshakeTimeout: 5 * time.Second, ResponseHeaderTimeout: DefaultTimeout, MaxIdleConnsPerHost: idleConnsPerHost},
		Timeout: DefaultTimeout, CheckRedirect: noRedirect}
	return d, nil
}

// idleConnsPerHost is how many idle connections to the merchant's endpoint the deliverer keeps
// (net/http's default, 2, would make deliveries from several workers open one nearly every
// time).
const idleConnsPerHost = 8

// Wake makes Run look for due notifications now (after a transaction that wrote some commits).
func (d *Deliverer) Wake() {
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

// Run delivers due notifications until ctx ends, every PollInterval and on Wake, and prunes
// the delivery log once an hour.
func (d *Deliverer) Run(ctx context.Context) {
	t := time.NewTicker(d.o.PollInterval)
	defer t.Stop()
	var pruned time.Time
	for {
		if _, err := d.DeliverDue(ctx); err != nil && ctx.Err() == nil {
			d.o.Logger.Error("merchant notifications: delivery pass", "err", err)
		}
		if now := d.o.Clock(); now.Sub(pruned) >= time.Hour {
			pruned = now
			if _, err := d.o.Store.PruneNotifications(ctx, now.Add(-d.o.Retention), 10000); err != nil && ctx.Err() == nil {
				d.o.Logger.Error("merchant notifications: pruning the log", "err", err)
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-d.wake:
			// Under load every order wakes the loop: a short wait lets one claim and one
			// read of the settings serve the notifications of many (wakes meanwhile are
			// absorbed, at most one stays pending for after this pass).
			select {
			case <-ctx.Done():
				return
			case <-time.After(d.o.Gather):
			}
		}
	}
}

// DeliverDue makes one pass: every notification due now gets one attempt, Concurrency at a
// time. It returns how many attempts it made.
func (d *Deliverer) DeliverDue(ctx context.Context) (int, error) {
	made := 0
	for ctx.Err() == nil {
		now := d.o.Clock()
		batch, err := d.o.Store.ClaimNotifications(ctx, now, DefaultTimeout+time.Minute, d.o.Concurrency*4)
		if err != nil {
			return made, fmt.Errorf("merchant: claiming notifications: %w", err)
		}
		if len(batch) == 0 {
			return made, nil
		}
		set, err := d.o.Settings.Get(ctx)
		if err != nil {
			return made, err
		}
		if b, ok := d.o.Store.(BatchRecorder); ok && !set.canSend() {
			// Nothing to send: every notification of the batch is skipped, in one transaction.
			outs := make([]Outcome, 0, len(batch))
			for _, n := range batch {
				outs = append(outs, d.skip(set, n))
			}
			if err := b.RecordAttempts(ctx, outs); err != nil {
				return made, fmt.Errorf("merchant: recording skipped notifications: %w", err)
			}
			made += len(batch)
			continue
		}
		var (
			wg   sync.WaitGroup
			mu   sync.Mutex
			errs []error
			sem  = make(chan struct{}, d.o.Concurrency)
		)
		for _, n := range batch {
			sem <- struct{}{}
			wg.Go(func() {
				defer func() { <-sem }()
				err := d.attempt(ctx, set, n)
				mu.Lock()
				defer mu.Unlock()
				if err != nil {
					errs = append(errs, err)
				} else {
					made++
				}
			})
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			return made, err
		}
	}
	return made, ctx.Err()
}

// attempt sends n once (or skips it without a URL) and records the outcome.
func (d *Deliverer) attempt(ctx context.Context, set Effective, n Notification) error {
	if !set.canSend() {
		o := d.skip(set, n)
		return d.o.Store.RecordAttempt(ctx, o.Notification, o.Attempt)
	}
	at := d.o.Clock().UTC()
	a := DeliveryAttempt{NotificationID: n.ID, N: n.Attempts + 1, At: at, URL: redactURL(set.WebhookURL)}
	start := time.Now()
	a.StatusCode, a.Error = d.send(ctx, set, n, at)
	a.Duration = time.Since(start)
	if ctx.Err() != nil {
		return nil // shutting down: the lease lapses and another pass retries it
	}
	n.Attempts = a.N
	n.LastStatusCode, n.LastError = a.StatusCode, a.Error
	switch {
	case a.Error == "":
		n.Status = NotificationDelivered
	case a.N > len(d.o.Schedule):
		n.Status = NotificationDead
	default:
		n.NextAttemptAt = at.Add(d.jitter(d.o.Schedule[a.N-1]))
	}
	attrs := []any{"notification", n.ID, "type", n.Type, "url", a.URL, "attempt", a.N, "status_code", a.StatusCode,
		"outcome", n.Status, "duration", a.Duration}
	switch {
	case a.Error == "":
		d.o.Logger.Info("merchant notification delivered", attrs...)
	case n.Status == NotificationDead:
		d.o.Logger.Error("merchant notification given up", append(attrs, "err", a.Error)...)
	default:
		d.o.Logger.Warn("merchant notification failed", append(attrs, "err", a.Error, "next_attempt_at", n.NextAttemptAt)...)
	}
	if err := d.o.Store.RecordAttempt(ctx, n, a); err != nil {
		return fmt.Errorf("merchant: recording notification %s: %w", n.ID, err)
	}
	return nil
}

// canSend reports whether notifications can be sent: a URL and a secret are set.
func (e Effective) canSend() bool { return e.WebhookURL != "" && e.WebhookSecret != "" }

// skip returns the outcome of n skipped now, for want of a URL or a secret.
func (d *Deliverer) skip(set Effective, n Notification) Outcome {
	a := DeliveryAttempt{NotificationID: n.ID, N: n.Attempts + 1, At: d.o.Clock().UTC(), URL: redactURL(set.WebhookURL)}
	n.Status, n.LastError = NotificationSkipped, "no notification URL or secret was configured"
	a.Error = n.LastError
	return Outcome{Notification: n, Attempt: a}
}

// jitter varies w by ±10%: enough to spread receivers coming back, small enough that the
// default schedule (27.6 hours) always lasts more than a day.
func (d *Deliverer) jitter(w time.Duration) time.Duration {
	d.randMu.Lock()
	f := 0.9 + 0.2*d.o.Rand.Float64()
	d.randMu.Unlock()
	return time.Duration(float64(w) * f)
}

// send POSTs n signed and returns the answer's status (0 without one) and what failed ("" for
// a 2xx). Redirects are not followed: they are failures.
func (d *Deliverer) send(ctx context.Context, set Effective, n Notification, at time.Time) (int, string) {
	h, err := webhook.Headers(set.WebhookSecret, n.ID, at, n.Payload)
	if err != nil {
		return 0, "signing: " + err.Error()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, set.WebhookURL, bytes.NewReader(n.Payload))
	if err != nil {
		return 0, "building the request failed"
	}
	for k, v := range h {
		req.Header[k] = v
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", UserAgent)
	client := d.guarded
	if set.TrustedURL() {
		client = d.trusted
	}
	res, err := client.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // without the URL, whose query may hold a token
		}
		return 0, err.Error()
	}
	defer res.Body.Close()
	snippet, _ := io.ReadAll(io.LimitReader(res.Body, maxErrorSnippet))
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10))
	if res.StatusCode >= 200 && res.StatusCode < 300 {
		return res.StatusCode, ""
	}
	msg := fmt.Sprintf("HTTP %d", res.StatusCode)
	if len(snippet) > 0 {
		msg += ": " + string(bytes.ToValidUTF8(bytes.Join(bytes.Fields(snippet), []byte(" ")), []byte("?")))
	}
	return res.StatusCode, msg
}

// redactURL drops the query string and user information, which may carry credentials.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || raw == "" {
		return ""
	}
	return (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path}).String()
}

// DeliveryLog is the merchant's view of the notifications and their attempts (the merchant
// API, the dashboard).
type DeliveryLog struct {
	store NotificationStore
}

// NewDeliveryLog returns the log kept in store.
func NewDeliveryLog(store NotificationStore) *DeliveryLog { return &DeliveryLog{store: store} }

// MaxLogPage is the most notifications one List returns.
const MaxLogPage = 100

// List returns the notifications f selects, newest first: at most f.Limit (1 to MaxLogPage).
func (l *DeliveryLog) List(ctx context.Context, f NotificationFilter) ([]Notification, error) {
	if f.Limit <= 0 || f.Limit > MaxLogPage+1 {
		f.Limit = MaxLogPage
	}
	ns, err := l.store.Notifications(ctx, f)
	if err != nil {
		return nil, fmt.Errorf("merchant: listing notifications: %w", err)
	}
	return ns, nil
}

// Get returns one notification with its attempts, first first, or checkout.ErrNotFound.
func (l *DeliveryLog) Get(ctx context.Context, id string) (*Notification, []DeliveryAttempt, error) {
	n, err := l.store.Notification(ctx, id)
	if err != nil {
		return nil, nil, fmt.Errorf("merchant: notification: %w", err)
	}
	as, err := l.store.NotificationAttempts(ctx, id)
	if err != nil {
		return nil, nil, fmt.Errorf("merchant: the attempts of a notification: %w", err)
	}
	return n, as, nil
}
