// Package outbox is the sandbox gateway's transactional webhook outbox and its delivery worker.
//
// The sandbox calls Enqueue inside the same SQL transaction that changes a deposit or a
// withdrawal, so a webhook exists if and only if the change was committed. One delivery row is
// kept per destination (the record's webhookUrl and, for local development, a forwarding URL).
// Run (or DeliverDue, one pass at a time) POSTs due deliveries, signed with package webhook,
// until a 2xx answer; every other outcome — a 3xx (redirects are never followed), a 4xx, a 5xx,
// a network error — is a failed attempt, retried after an exponential backoff with full
// jitter, until MaxAttempts, when the delivery is marked dead. Every attempt is recorded and
// logged (never with the secret, nor with the URL's query string).
//
// Deliveries to webhookUrl go through an SSRF-guarded dialer (GuardedDialer): a merchant's
// URL must not make the sandbox reach its own host or network. The forwarding URL is trusted
// configuration and is dialled without the guard.
//
// Tables: webhook_deliveries and webhook_attempts, made and kept up to date by New with the
// numbered migrations of migrations/ (component "outbox" in schema_migrations). Times are
// stored as Unix milliseconds of the injected Clock, so a simulated clock drives the schedule.
package outbox

import (
	"bytes"
	"context"
	crand "crypto/rand"
	"database/sql"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/pixcheckout/pixcheckout/gatewayclient/sqlmigrate"
	"github.com/pixcheckout/pixcheckout/gatewayclient/webhook"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Clock tells the outbox what time it is; the sandbox passes its controllable clock.
type Clock interface {
	Now() time.Time
}

// Defaults of Options.
const (
	DefaultBaseDelay    = 5 * time.Second
	DefaultMaxDelay     = time.Hour
	DefaultMaxAttempts  = 12
	DefaultPollInterval = 500 * time.Millisecond
	DefaultConcurrency  = 4
	DefaultTimeout      = 10 * time.Second
)

// UserAgent is sent with every delivery.
const UserAgent = "PIX-Checkout-Sandbox-Webhooks/1"

// Delivery statuses.
const (
	StatusPending   = "pending"
	StatusDelivered = "delivered"
	StatusDead      = "dead"
)

// maxResponseSnippet is how much of a failed answer's body is kept in LastError, to help the
// developer reading the console; maxDrain is how much more is read so the connection can be
// reused.
const (
	maxResponseSnippet = 256
	maxDrain           = 64 << 10
)

// Options configures an Outbox. Only DB is required.
type Options struct {
	// DB writes to the sandbox's SQLite database (driver "sqlite"): ideally the database's one
	// writer connection, so that writers queue in the pool rather than on SQLite's lock. New
	// migrates the outbox's tables in it.
	DB *sql.DB
	// ReadDB, when set, serves the outbox's reads (Deliveries, Attempts); nil means DB.
	ReadDB *sql.DB
	// Clock schedules deliveries and stamps attempts; nil means real time. The sandbox passes
	// its simulated clock, so that advancing it makes retries due.
	Clock Clock
	// SignClock gives the webhook-timestamp of each attempt, which is also signed. Receivers
	// check it against their own clocks to refuse replays, so it is real time whatever
	// Clock says (nil: the wall clock); tests may fix it.
	SignClock Clock
	// Logger receives one line per attempt (never a secret); nil discards.
	Logger *slog.Logger
	// HTTPClient delivers to the records' webhookUrl. Nil means a client with GuardedDialer
	// and DefaultTimeout. Whatever the client, redirects are never followed.
	HTTPClient *http.Client
	// ForwardTo, when set, also receives every event (local development). It must be https,
	// or plain http on a loopback host. It is dialled without the SSRF guard.
	ForwardTo string
	// BaseDelay and MaxDelay bound the backoff: after the n-th failed attempt the next one
	// waits a random delay in (0, min(MaxDelay, BaseDelay·2^(n-1))] (full jitter).
	BaseDelay, MaxDelay time.Duration
	// MaxAttempts is how many attempts a delivery gets before it is marked dead.
	MaxAttempts int
	// PollInterval is how often Run looks for due deliveries in real time; Run also wakes on
	// Enqueue and Wake.
	PollInterval time.Duration
	// Concurrency bounds the deliveries in flight at once.
	Concurrency int
	// Retention is how long a finished delivery (delivered or dead) and its attempts are kept,
	// by the outbox's clock, before Run's retention sweep deletes them (DefaultRetention).
	Retention time.Duration
	// Rand is the jitter source (used under the outbox's lock; do not share it). Nil means a
	// generator seeded from crypto/rand.
	Rand *rand.Rand
	// Expand, when set, gives the body to sign and send for a stored one, at each attempt: a
	// message may leave out of its stored body a large part that its record keeps (the QR
	// image of a deposit), so that the row stays small through the claim and outcome updates
	// that rewrite it. An error fails the attempt (it is retried as any failure).
	Expand func(ctx context.Context, recordKind, recordID string, body []byte) ([]byte, error)
}

// Message is one webhook event to deliver.
type Message struct {
	ID         string // webhook-id (webhook.NewMessageID), the same across attempts and targets
	ClientID   string // the gateway client the record belongs to
	Secret     string // the client's signing secret, whsec_…
	URL        string // the record's webhookUrl; "" means only ForwardTo
	Type       string // event type, e.g. "deposit.paid"
	RecordKind string // "deposit" or "withdrawal"
	RecordID   string
	Body       []byte // the full JSON event (webhook.Event)
}

// Delivery is one message on its way to one URL.
type Delivery struct {
	ID             int64
	MessageID      string
	ClientID       string
	RecordKind     string
	RecordID       string
	Type           string
	URL            string
	Forward        bool   // true for the ForwardTo copy
	Status         string // StatusPending, StatusDelivered or StatusDead
	Attempts       int
	NextAttemptAt  time.Time
	LastError      string
	LastStatusCode int
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// Attempt is one try at a delivery.
type Attempt struct {
	DeliveryID int64
	N          int // 1 for the first attempt
	At         time.Time
	StatusCode int    // 0 when no answer came
	Error      string // "" on success
	Duration   time.Duration
}

// Outbox stores webhook deliveries and sends them. Its methods are safe for concurrent use.
type Outbox struct {
	db            *sql.DB // writes
	rdb           *sql.DB // reads
	clock         Clock
	signClock     Clock
	log           *slog.Logger
	client        *http.Client
	forwardClient *http.Client
	forwardTo     string
	base, max     time.Duration
	maxAttempts   int
	poll          time.Duration
	concurrency   int
	lease         time.Duration
	retention     time.Duration
	lastPrune     time.Time // wall clock of Run's last retention sweep (Run's goroutine only)
	expand        func(ctx context.Context, recordKind, recordID string, body []byte) ([]byte, error)

	randMu sync.Mutex
	rnd    *rand.Rand

	wake chan struct{}
}

// realClock is the wall clock.
type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

// New checks opts, applies the outbox's migrations and returns the outbox. Deliveries
// already in the database (from before a restart) are kept and resumed by Run.
func New(opts Options) (*Outbox, error) {
	if opts.DB == nil {
		return nil, errors.New("outbox: Options.DB is required")
	}
	if opts.ForwardTo != "" {
		if err := checkForwardTo(opts.ForwardTo); err != nil {
			return nil, err
		}
	}
	o := &Outbox{
		db:          opts.DB,
		rdb:         opts.ReadDB,
		clock:       opts.Clock,
		signClock:   opts.SignClock,
		log:         opts.Logger,
		forwardTo:   opts.ForwardTo,
		base:        opts.BaseDelay,
		max:         opts.MaxDelay,
		maxAttempts: opts.MaxAttempts,
		poll:        opts.PollInterval,
		concurrency: opts.Concurrency,
		retention:   opts.Retention,
		rnd:         opts.Rand,
		expand:      opts.Expand,
		wake:        make(chan struct{}, 1),
	}
	if o.rdb == nil {
		o.rdb = o.db
	}
	if o.clock == nil {
		o.clock = realClock{}
	}
	if o.signClock == nil {
		o.signClock = realClock{}
	}
	if o.log == nil {
		o.log = slog.New(slog.DiscardHandler)
	}
	if o.base <= 0 {
		o.base = DefaultBaseDelay
	}
	if o.max <= 0 {
		o.max = DefaultMaxDelay
	}
	if o.base > o.max {
		return nil, fmt.Errorf("outbox: BaseDelay %s exceeds MaxDelay %s", o.base, o.max)
	}
	if o.maxAttempts <= 0 {
		o.maxAttempts = DefaultMaxAttempts
	}
	if o.poll <= 0 {
		o.poll = DefaultPollInterval
	}
	if o.concurrency <= 0 {
		o.concurrency = DefaultConcurrency
	}
	if o.retention <= 0 {
		o.retention = DefaultRetention
	}
	if o.rnd == nil {
		var seed [32]byte
		if _, err := crand.Read(seed[:]); err != nil {
			return nil, fmt.Errorf("outbox: seeding jitter: %w", err)
		}
		o.rnd = rand.New(rand.NewChaCha8(seed))
	}
	if opts.HTTPClient != nil {
		o.client = noRedirects(opts.HTTPClient)
	} else {
		o.client = newClient(GuardedDialer())
	}
	// The forwarding target is the operator's own, often on loopback: no guard there.
	o.forwardClient = newClient(&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second})
	// A lease outlives any attempt, so only a dead process lets one lapse.
	o.lease = max(o.client.Timeout, o.forwardClient.Timeout) + time.Minute

	if err := sqlmigrate.Apply(context.Background(), o.db, "", sqlmigrate.Plan{Component: "outbox", FS: migrations,
		Baseline: adoptUnnumberedSchema}); err != nil {
		return nil, fmt.Errorf("outbox: %w", err)
	}
	return o, nil
}

// adoptUnnumberedSchema adopts the tables of an outbox made before its migrations were
// numbered, when they were created with CREATE … IF NOT EXISTS at every start: they are
// exactly those of 0001_init.sql.
func adoptUnnumberedSchema(ctx context.Context, tx *sql.Tx) (int, error) {
	var old bool
	err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'webhook_deliveries')`).Scan(&old)
	if err != nil || !old {
		return 0, err
	}
	return 1, nil
}

// newClient returns a client dialling with d, with no proxy (a proxy would dial on our
// behalf and defeat the guard), no redirects and DefaultTimeout.
func newClient(d *net.Dialer) *http.Client {
	return &http.Client{
		Transport: &http.Transport{
			Proxy:             nil,
			DialContext:       d.DialContext,
			ForceAttemptHTTP2: true,
			MaxIdleConns:      32,
			// net/http keeps 2 per host by default: deliveries to one receiver from several
			// workers would open a connection nearly every time.
			MaxIdleConnsPerHost:   16,
			IdleConnTimeout:       90 * time.Second,
			TLSHandshakeTimeout:   5 * time.Second,
			ResponseHeaderTimeout: DefaultTimeout,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		Timeout:       DefaultTimeout,
	}
}

// noRedirects returns a copy of c that never follows redirects and has a timeout.
func noRedirects(c *http.Client) *http.Client {
	cc := *c
	cc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	if cc.Timeout <= 0 {
		cc.Timeout = DefaultTimeout
	}
	return &cc
}

// checkForwardTo accepts https anywhere and plain http on a loopback host only.
func checkForwardTo(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("outbox: ForwardTo %q is not a URL: %w", raw, err)
	}
	if u.Hostname() == "" {
		return fmt.Errorf("outbox: ForwardTo %q has no host", raw)
	}
	switch u.Scheme {
	case "https":
		return nil
	case "http":
		if isLoopbackHost(u.Hostname()) {
			return nil
		}
		return fmt.Errorf("outbox: ForwardTo %q: plain http is allowed only on a loopback host (localhost, 127.0.0.1, ::1); use https", raw)
	default:
		return fmt.Errorf("outbox: ForwardTo %q: scheme must be https (or http on loopback)", raw)
	}
}

// isLoopbackHost reports whether host names this machine's loopback interface.
func isLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// checkTargetURL accepts an absolute http or https URL with a host.
func checkTargetURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("outbox: message URL is not a URL: %w", err)
	}
	if (u.Scheme != "https" && u.Scheme != "http") || u.Hostname() == "" {
		return errors.New("outbox: message URL must be an absolute http(s) URL with a host")
	}
	return nil
}

// Enqueue stores m for delivery to m.URL and to ForwardTo (when set), one delivery per
// distinct URL. Call it inside the transaction that changes the record (tx), so that the
// webhook exists exactly when the change is committed; with a nil tx it commits on its own.
// Enqueueing the same message id again is a no-op. With neither a URL nor ForwardTo there is
// nothing to deliver and nothing is stored.
//
// Enqueue wakes Run, but a pass that starts before tx commits cannot see the new rows: call
// Wake after Commit for the quickest delivery (otherwise it waits for the next PollInterval).
func (o *Outbox) Enqueue(ctx context.Context, tx *sql.Tx, m Message) error {
	if m.ID == "" {
		return errors.New("outbox: message ID is required")
	}
	if m.URL != "" {
		if err := checkTargetURL(m.URL); err != nil {
			return err
		}
	}
	if !json.Valid(m.Body) {
		return errors.New("outbox: message body must be JSON")
	}
	now := o.clock.Now()
	// Fail now on a bad secret rather than with a delivery that can never be signed.
	if _, err := webhook.Sign(m.Secret, m.ID, now, m.Body); err != nil {
		return fmt.Errorf("outbox: message secret: %w", err)
	}
	type target struct {
		url     string
		forward bool
	}
	var targets []target
	// The forwarding copy goes first so that, if both URLs are equal, the trusted
	// configuration wins the UNIQUE (message_id, url) slot.
	if o.forwardTo != "" {
		targets = append(targets, target{o.forwardTo, true})
	}
	if m.URL != "" && m.URL != o.forwardTo {
		targets = append(targets, target{m.URL, false})
	}
	if len(targets) == 0 {
		return nil
	}

	own := tx == nil
	if own {
		var err error
		if tx, err = o.db.BeginTx(ctx, nil); err != nil {
			return fmt.Errorf("outbox: begin: %w", err)
		}
		defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	}
	ms := now.UnixMilli()
	for _, t := range targets {
		_, err := tx.ExecContext(ctx, `INSERT INTO webhook_deliveries
			(message_id, client_id, secret, url, forward, type, record_kind, record_id, body, status,
			 next_attempt_at, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (message_id, url) DO NOTHING`,
			m.ID, m.ClientID, m.Secret, t.url, t.forward, m.Type, m.RecordKind, m.RecordID, m.Body,
			StatusPending, ms, ms, ms)
		if err != nil {
			return fmt.Errorf("outbox: enqueue %s: %w", m.ID, err)
		}
	}
	if own {
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("outbox: commit: %w", err)
		}
	}
	o.Wake()
	return nil
}

// Wake makes Run look for due deliveries now (after the sandbox clock moves, or after the
// transaction holding an Enqueue commits). It never blocks.
func (o *Outbox) Wake() {
	select {
	case o.wake <- struct{}{}:
	default: // a wake-up is already pending
	}
}

// Run delivers due deliveries until ctx is done, waking every PollInterval and on Wake.
// In-flight deliveries are abandoned (not counted as attempts) when ctx ends.
func (o *Outbox) Run(ctx context.Context) {
	t := time.NewTicker(o.poll)
	defer t.Stop()
	for {
		if _, err := o.DeliverDue(ctx); err != nil && ctx.Err() == nil {
			o.log.Error("webhook outbox pass failed", "err", err)
		}
		if time.Since(o.lastPrune) >= pruneEvery {
			o.lastPrune = time.Now()
			if n, err := o.Prune(ctx); err != nil && ctx.Err() == nil {
				o.log.Error("webhook outbox retention sweep failed", "err", err)
			} else if n > 0 {
				o.log.Info("webhook outbox retention sweep", "deleted", n)
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-o.wake:
		case <-t.C:
		}
	}
}

// DefaultRetention: finished deliveries are kept a week, so that the console and the deliveries
// API show recent history, then deleted.
const DefaultRetention = 7 * 24 * time.Hour

// Retention sweep: how often Run makes one, and how many deliveries one statement deletes (a
// short write, so that the sandbox's other writes wait little behind it).
const (
	pruneEvery = 10 * time.Minute
	pruneBatch = 500
)

// Prune deletes the deliveries finished (delivered or dead) longer than the retention ago, with
// their attempts, batch after batch, and returns how many it deleted. Pending deliveries are
// never deleted, however old.
func (o *Outbox) Prune(ctx context.Context) (int, error) {
	before := o.clock.Now().Add(-o.retention).UnixMilli()
	total := 0
	for ctx.Err() == nil {
		res, err := o.db.ExecContext(ctx, `DELETE FROM webhook_deliveries WHERE id IN (
			SELECT id FROM webhook_deliveries WHERE status IN ('delivered', 'dead') AND updated_at < ?
			ORDER BY updated_at LIMIT ?)`, before, pruneBatch)
		if err != nil {
			return total, fmt.Errorf("outbox: pruning deliveries: %w", err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return total, fmt.Errorf("outbox: pruning deliveries: %w", err)
		}
		total += int(n)
		if n < pruneBatch {
			return total, nil
		}
	}
	return total, ctx.Err()
}

// claimed is a delivery taken by a pass.
type claimed struct {
	id        int64
	messageID string
	secret    string
	url       string
	forward   bool
	kind, rid string // the record's kind and id
	body      []byte
	attempts  int
}

// DeliverDue makes one synchronous pass: every delivery due at the clock's current time gets
// one attempt, at most Concurrency at once. It returns how many attempts were made.
func (o *Outbox) DeliverDue(ctx context.Context) (int, error) {
	due := o.clock.Now().UnixMilli()
	var (
		mu   sync.Mutex
		errs []error
		made int
	)
	for ctx.Err() == nil {
		batch, err := o.claim(ctx, due, o.concurrency*4)
		if err != nil {
			return made, err
		}
		if len(batch) == 0 {
			break
		}
		sem := make(chan struct{}, o.concurrency)
		var wg sync.WaitGroup
		for _, c := range batch {
			sem <- struct{}{}
			wg.Go(func() {
				defer func() { <-sem }()
				err := o.attempt(ctx, c)
				mu.Lock()
				defer mu.Unlock()
				if err == nil {
					made++
				} else if ctx.Err() == nil {
					errs = append(errs, err)
				}
			})
		}
		wg.Wait()
		// A failed attempt is rescheduled at least 1 ms after its own attempt time, which is
		// after due, so the loop cannot claim it again within this pass.
	}
	if err := errors.Join(errs...); err != nil {
		return made, err
	}
	return made, ctx.Err()
}

// claim leases up to limit deliveries due at due (Unix ms) and returns them.
func (o *Outbox) claim(ctx context.Context, due int64, limit int) ([]claimed, error) {
	wall := time.Now()
	rows, err := o.db.QueryContext(ctx, `UPDATE webhook_deliveries SET lease_until = ?
		WHERE id IN (
			SELECT id FROM webhook_deliveries
			WHERE status = 'pending' AND next_attempt_at <= ? AND lease_until <= ?
			ORDER BY next_attempt_at, id LIMIT ?)
		RETURNING id, message_id, secret, url, forward, record_kind, record_id, body, attempts`,
		wall.Add(o.lease).UnixMilli(), due, wall.UnixMilli(), limit)
	if err != nil {
		return nil, fmt.Errorf("outbox: claim due deliveries: %w", err)
	}
	defer rows.Close()
	var out []claimed
	for rows.Next() {
		var c claimed
		if err := rows.Scan(&c.id, &c.messageID, &c.secret, &c.url, &c.forward, &c.kind, &c.rid, &c.body, &c.attempts); err != nil {
			return nil, fmt.Errorf("outbox: read claimed delivery: %w", err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("outbox: claim due deliveries: %w", err)
	}
	return out, nil
}

// attempt sends c once and records the outcome.
func (o *Outbox) attempt(ctx context.Context, c claimed) error {
	at := o.clock.Now()
	start := time.Now()
	code, failure := o.send(ctx, c, o.signClock.Now())
	took := time.Since(start)
	if ctx.Err() != nil {
		// Shutting down: the answer is unknown, so this does not count as an attempt. Free
		// the lease so a restarted process retries at once.
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		_, _ = o.db.ExecContext(rctx, `UPDATE webhook_deliveries SET lease_until = 0 WHERE id = ?`, c.id)
		return ctx.Err()
	}

	n := c.attempts + 1
	status, next := StatusPending, at
	switch {
	case failure == "":
		status = StatusDelivered
	case n >= o.maxAttempts:
		status = StatusDead
	default:
		next = at.Add(o.backoff(n))
	}
	if err := o.record(ctx, c.id, n, at, code, failure, took, status, next); err != nil {
		return err
	}

	attrs := []any{"delivery", c.id, "message", c.messageID, "url", redactURL(c.url), "attempt", n,
		"status_code", code, "duration", took, "outcome", status}
	switch {
	case failure == "":
		o.log.Info("webhook delivered", attrs...)
	case status == StatusDead:
		o.log.Error("webhook delivery dead", append(attrs, "err", failure)...)
	default:
		o.log.Warn("webhook attempt failed", append(attrs, "err", failure, "next_attempt_at", next)...)
	}
	return nil
}

// record stores one attempt and the delivery's new state together.
func (o *Outbox) record(ctx context.Context, id int64, n int, at time.Time, code int, failure string,
	took time.Duration, status string, next time.Time) error {
	tx, err := o.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("outbox: record attempt: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	if _, err := tx.ExecContext(ctx, `INSERT INTO webhook_attempts (delivery_id, n, at, status_code, error, duration_ns)
		VALUES (?, ?, ?, ?, ?, ?)`, id, n, at.UnixMilli(), code, failure, int64(took)); err != nil {
		return fmt.Errorf("outbox: record attempt: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE webhook_deliveries SET status = ?, attempts = ?, next_attempt_at = ?,
		lease_until = 0, last_error = ?, last_status_code = ?, updated_at = ? WHERE id = ?`,
		status, n, next.UnixMilli(), failure, code, at.UnixMilli(), id); err != nil {
		return fmt.Errorf("outbox: update delivery: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("outbox: record attempt: %w", err)
	}
	return nil
}

// send POSTs the delivery, signed as sent at signedAt, and returns the answer's status code
// (0 without an answer) and a description of the failure ("" on a 2xx).
func (o *Outbox) send(ctx context.Context, c claimed, signedAt time.Time) (int, string) {
	if o.expand != nil {
		body, err := o.expand(ctx, c.kind, c.rid, c.body)
		if err != nil {
			return 0, "expanding the body: " + err.Error()
		}
		c.body = body
	}
	h, err := webhook.Headers(c.secret, c.messageID, signedAt, c.body)
	if err != nil {
		return 0, "signing: " + err.Error()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(c.body))
	if err != nil {
		return 0, "building request: " + err.Error()
	}
	for k, v := range h {
		req.Header[k] = v
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", UserAgent)
	client := o.client
	if c.forward {
		client = o.forwardClient
	}
	resp, err := client.Do(req)
	if err != nil {
		// *url.Error repeats the URL, query string included; keep only the cause.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return 0, err.Error()
	}
	defer resp.Body.Close()
	snippet, _ := io.ReadAll(io.LimitReader(resp.Body, maxResponseSnippet))
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxDrain))
	if resp.StatusCode >= 200 && resp.StatusCode <= 299 {
		return resp.StatusCode, ""
	}
	msg := fmt.Sprintf("HTTP %d", resp.StatusCode)
	if resp.StatusCode >= 300 && resp.StatusCode <= 399 {
		msg += " (redirects are not followed)"
	}
	if s := printable(snippet); s != "" {
		msg += ": " + s
	}
	return resp.StatusCode, msg
}

// backoff returns the delay after the n-th failed attempt: uniform in
// (0, min(max, base·2^(n-1))], at millisecond resolution and at least 1 ms.
func (o *Outbox) backoff(n int) time.Duration {
	ceiling := o.max
	if shift := n - 1; shift < 62 {
		if d := o.base << shift; d > 0 && d < o.max && d>>shift == o.base {
			ceiling = d
		}
	}
	ms := max(ceiling.Milliseconds(), 1)
	o.randMu.Lock()
	j := o.rnd.Int64N(ms)
	o.randMu.Unlock()
	return time.Duration(j+1) * time.Millisecond
}

// redactURL drops the query string and any user info, which may carry credentials.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparsable URL)"
	}
	return (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path}).String()
}

// printable returns b as one line of valid UTF-8 without control characters.
func printable(b []byte) string {
	s := strings.ToValidUTF8(string(b), "\uFFFD")
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	if len(b) == maxResponseSnippet {
		s += "…" // cut short
	}
	return s
}

// ErrNotFound: no delivery has the given id.
var ErrNotFound = errors.New("outbox: no such delivery")

// Redeliver makes a delivery due now, whatever its status (a console's "resend" button): a
// delivered one is sent again with the same webhook-id, which receivers deduplicate; a dead
// one gets one more attempt, and more only while it stays under MaxAttempts.
func (o *Outbox) Redeliver(ctx context.Context, deliveryID int64) error {
	now := o.clock.Now().UnixMilli()
	res, err := o.db.ExecContext(ctx, `UPDATE webhook_deliveries SET status = ?, next_attempt_at = ?, updated_at = ?
		WHERE id = ?`, StatusPending, now, now, deliveryID)
	if err != nil {
		return fmt.Errorf("outbox: redeliver %d: %w", deliveryID, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("outbox: redeliver %d: %w", deliveryID, err)
	} else if n == 0 {
		return fmt.Errorf("%w: %d", ErrNotFound, deliveryID)
	}
	o.Wake()
	return nil
}

// Deliveries returns the deliveries of recordID, newest first, or the most recent deliveries
// of any record when recordID is "". limit ≤ 0 means 50; it is capped at 1000.
func (o *Outbox) Deliveries(ctx context.Context, recordID string, limit int) ([]Delivery, error) {
	if limit <= 0 {
		limit = 50
	}
	limit = min(limit, 1000)
	const cols = `SELECT id, message_id, client_id, record_kind, record_id, type, url, forward, status,
		attempts, next_attempt_at, last_error, last_status_code, created_at, updated_at FROM webhook_deliveries`
	var (
		rows *sql.Rows
		err  error
	)
	if recordID == "" {
		rows, err = o.rdb.QueryContext(ctx, cols+` ORDER BY id DESC LIMIT ?`, limit)
	} else {
		rows, err = o.rdb.QueryContext(ctx, cols+` WHERE record_id = ? ORDER BY id DESC LIMIT ?`, recordID, limit)
	}
	if err != nil {
		return nil, fmt.Errorf("outbox: list deliveries: %w", err)
	}
	defer rows.Close()
	var out []Delivery
	for rows.Next() {
		var (
			d                      Delivery
			next, created, updated int64
		)
		if err := rows.Scan(&d.ID, &d.MessageID, &d.ClientID, &d.RecordKind, &d.RecordID, &d.Type, &d.URL,
			&d.Forward, &d.Status, &d.Attempts, &next, &d.LastError, &d.LastStatusCode, &created, &updated); err != nil {
			return nil, fmt.Errorf("outbox: read delivery: %w", err)
		}
		d.NextAttemptAt, d.CreatedAt, d.UpdatedAt = fromMS(next), fromMS(created), fromMS(updated)
		out = append(out, d)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("outbox: list deliveries: %w", err)
	}
	return out, nil
}

// Attempts returns the attempts of a delivery, first first.
func (o *Outbox) Attempts(ctx context.Context, deliveryID int64) ([]Attempt, error) {
	rows, err := o.rdb.QueryContext(ctx, `SELECT delivery_id, n, at, status_code, error, duration_ns
		FROM webhook_attempts WHERE delivery_id = ? ORDER BY n`, deliveryID)
	if err != nil {
		return nil, fmt.Errorf("outbox: list attempts: %w", err)
	}
	defer rows.Close()
	var out []Attempt
	for rows.Next() {
		var (
			a      Attempt
			at, ns int64
		)
		if err := rows.Scan(&a.DeliveryID, &a.N, &at, &a.StatusCode, &a.Error, &ns); err != nil {
			return nil, fmt.Errorf("outbox: read attempt: %w", err)
		}
		a.At, a.Duration = fromMS(at), time.Duration(ns)
		out = append(out, a)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("outbox: list attempts: %w", err)
	}
	return out, nil
}

// fromMS converts stored Unix milliseconds to a UTC time.
func fromMS(ms int64) time.Time { return time.UnixMilli(ms).UTC() }
