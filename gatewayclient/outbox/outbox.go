package outbox

import (
	"bytes"
	"cmp"
	"context"
	crand "crypto/rand"
	"database/sql"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/pixcheckout/pixcheckout/gatewayclient/sqlmigrate"
	"github.com/pixcheckout/pixcheckout/gatewayclient/webhook"
)

//go:embed sqlite/migrations/*.sql postgres/migrations/*.sql
var migrations embed.FS

// Dialect is the database the outbox's tables are in.
type Dialect int

// The databases the outbox runs on.
const (
	SQLite Dialect = iota
	PostgreSQL
)

// Plan returns the migrations of the outbox's tables on d (component "outbox"), which the
// caller applies with its own before New.
func Plan(d Dialect) sqlmigrate.Plan {
	dir := "sqlite"
	if d == PostgreSQL {
		dir = "postgres"
	}
	sub, _ := fs.Sub(migrations, dir) // a constant path in an embedded FS
	return sqlmigrate.Plan{Component: "outbox", FS: sub, Releases: []sqlmigrate.Release{{Name: "0.1.0", Last: 100}}}
}

// Defaults of Options.
const (
	DefaultBaseDelay    = 5 * time.Second
	DefaultMaxDelay     = time.Hour
	DefaultMaxAttempts  = 12
	DefaultPollInterval = 500 * time.Millisecond
	DefaultConcurrency  = 4
	DefaultTimeout      = 10 * time.Second
	// DefaultRetention: finished deliveries are kept a week, then deleted.
	DefaultRetention = 7 * 24 * time.Hour
)

// UserAgent is sent with every delivery unless Options.UserAgent says otherwise.
const UserAgent = "PIX-Checkout-Webhooks/1"

// Delivery statuses.
const (
	StatusPending   = "pending"
	StatusDelivered = "delivered"
	StatusDead      = "dead"    // every attempt failed
	StatusSkipped   = "skipped" // no destination was configured when it was due
)

// maxResponseSnippet is how much of a failed answer's body is kept in LastError, to help the
// developer reading the log; maxDrain is how much more is read so the connection can be reused.
const (
	maxResponseSnippet = 256
	maxDrain           = 64 << 10
)

// Exponential returns the waits of an exponential backoff for attempts attempts: base, then
// doubling up to max.
func Exponential(base, max time.Duration, attempts int) []time.Duration {
	out := make([]time.Duration, 0, attempts-1)
	w := base
	for range attempts - 1 {
		out = append(out, min(w, max))
		if w < max {
			w *= 2
		}
	}
	return out
}

// Target is where the deliveries stored without a URL go (see Options.Route).
type Target struct {
	URL    string
	Secret string // whsec_…, signs the deliveries
	// Trusted: the URL is the operator's own configuration and is dialled without the SSRF
	// guard; a URL typed by a user never is.
	Trusted bool
}

// Options configures an Outbox. Only DB is required.
type Options struct {
	// DB writes to the database holding the outbox's tables (migrated with Plan). On SQLite,
	// ideally the database's one writer connection, so that writers queue in the pool rather
	// than on SQLite's lock.
	DB *sql.DB
	// ReadDB, when set, serves the outbox's reads (Deliveries, Attempts); nil means DB.
	ReadDB *sql.DB
	// Dialect is the database's (default SQLite).
	Dialect Dialect
	// Clock schedules deliveries and stamps attempts; nil means real time. The sandbox passes
	// its simulated clock, so that advancing it makes retries due.
	Clock func() time.Time
	// SignClock gives the webhook-timestamp of each attempt, which is also signed. Receivers
	// check it against their own clocks to refuse replays, so it is real time whatever Clock
	// says (nil: the wall clock); tests may fix it.
	SignClock func() time.Time
	// Logger receives one line per attempt (never a secret nor a query string); nil discards.
	Logger *slog.Logger
	// HTTPClient delivers to URLs that are not trusted (a record's webhookUrl, a merchant's
	// URL). Nil means a client with the SSRF-guarded dialer of package webhook and
	// DefaultTimeout. Whatever the client, redirects are never followed.
	HTTPClient *http.Client
	// ForwardTo, when set, also receives every message Enqueue stores (local development). It
	// must be https, or plain http on a loopback host. It is dialled without the SSRF guard.
	ForwardTo string
	// Route, when set, gives the destination of the deliveries stored without a URL, read once
	// for each batch of them: they go wherever it says at the moment they are due. A Target
	// without a URL or a secret makes them skipped.
	Route func(ctx context.Context) (Target, error)
	// Schedule is the wait after each failed attempt (default: Exponential(DefaultBaseDelay,
	// DefaultMaxDelay, DefaultMaxAttempts)); its length plus one is the number of attempts, after
	// which a delivery is dead.
	Schedule []time.Duration
	// Jitter is the share of each wait drawn at random: the wait w becomes uniform in
	// ((1−Jitter)·w, w]. Default (0): 1, full jitter.
	Jitter float64
	// InOrder: a delivery waits until the earlier ones of its record to the same URL are
	// delivered or finished otherwise.
	InOrder bool
	// PollInterval is how often Run looks for due deliveries; Run also wakes on Enqueue and Wake.
	PollInterval time.Duration
	// Gather is how long Run waits after a Wake before its pass, so that the deliveries of
	// records changing at once are claimed together (default: none).
	Gather time.Duration
	// Concurrency bounds the attempts in flight at once, for first attempts and for retries
	// each: retries never take the capacity of first attempts.
	Concurrency int
	// Retention is how long a finished delivery (delivered, dead or skipped) and its attempts
	// are kept, by the outbox's clock, before Run's retention sweep deletes them.
	Retention time.Duration
	// Rand is the jitter source (used under the outbox's lock; do not share it). Nil means a
	// generator seeded from crypto/rand.
	Rand *rand.Rand
	// Expand, when set, gives the body to sign and send for a stored one, at each attempt: a
	// message may leave out of its stored body a large part that its record keeps (the QR
	// image of a deposit), so that the row stays small through the claim and outcome updates
	// that rewrite it. An error fails the attempt (it is retried as any failure).
	Expand func(ctx context.Context, recordKind, recordID string, body []byte) ([]byte, error)
	// UserAgent is sent with every delivery (default UserAgent).
	UserAgent string
	// OnAttempt, when set, is told of every attempt once it is recorded, with the delivery's
	// new status (StatusDelivered, StatusPending for a retry to come, StatusDead), for metrics.
	// It must be quick and must not block.
	OnAttempt func(a Attempt, status string)
	// Channel is the channel whose deliveries this outbox claims, sends, lists and prunes
	// (default ChannelWebhook). Every channel shares the tables; each has its own workers.
	Channel string
	// Sender sends the deliveries of a channel other than ChannelWebhook (required then).
	// Route, ForwardTo, HTTPClient, Expand, InOrder and UserAgent are for webhooks only.
	Sender Sender
}

// Channels of the outbox: how a message travels.
const (
	ChannelWebhook = "webhook" // a signed HTTP POST (Standard Webhooks)
	ChannelSMTP    = "smtp"    // an e-mail, sent by the channel's Sender
)

// Sender sends the deliveries of a channel other than webhooks (e-mail, say). The outbox
// claims, schedules, retries and records; Send makes one attempt and says how it went.
type Sender interface {
	Send(ctx context.Context, d Delivery) Outcome
}

// Outcome is what a Sender reports of one attempt.
type Outcome struct {
	Code    int    // the server's reply code, 0 without one
	Error   string // "" when sent; otherwise why not, the server's reply included
	Excerpt string // the server's reply, one printable line
	// Permanent: a failure no retry mends (an SMTP 5xx); the delivery is dead at once.
	Permanent bool
	// Skipped: not sent, and never will be by this sender (no server is configured); the
	// delivery is marked skipped with Error as the reason, and only Redeliver sends it again.
	Skipped bool
}

// Message is one webhook event to deliver.
type Message struct {
	ID       string // webhook-id (webhook.NewMessageID), the same across attempts and targets
	ClientID string // whom the record belongs to (the sandbox's gateway client), or ""
	Secret   string // the signing secret, whsec_…; "" when Route gives it
	// URL is where it goes; "" means ForwardTo only, or, for a message given to Insert, the
	// destination Route gives when it is due.
	URL  string
	Type string // event type, e.g. "deposit.paid"
	// RecordKind and RecordID are what the message concerns: "deposit", "withdrawal",
	// "order", "user", or "" and "" for nothing in particular (a test e-mail).
	RecordKind string
	RecordID   string
	Body       []byte // the full JSON event (webhook.Event), or the channel's JSON
	// Channel is how it travels (default ChannelWebhook); Recipient is its addressee on a
	// channel that has one (an e-mail address), kept in a column of its own to be searched.
	Channel   string
	Recipient string
	// NotBefore, when after the time it is stored at, is when it is first due (a reminder
	// scheduled ahead), on the outbox's clock.
	NotBefore time.Time
}

// Delivery is one message on its way to one URL.
type Delivery struct {
	ID             int64
	MessageID      string
	Channel        string
	Recipient      string
	ClientID       string
	RecordKind     string
	RecordID       string
	Type           string
	URL            string // "" for the destination Route gives
	Forward        bool   // true for the ForwardTo copy
	Body           []byte
	Status         string // StatusPending, StatusDelivered, StatusDead or StatusSkipped
	Attempts       int
	NextAttemptAt  time.Time
	LastError      string
	LastStatusCode int
	LastDuration   time.Duration // of the last attempt
	LastExcerpt    string        // the start of the last answer's body
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// Attempt is one try at a delivery.
type Attempt struct {
	DeliveryID int64
	N          int // 1 for the first attempt
	At         time.Time
	URL        string // where it went, without its query string
	StatusCode int    // 0 when no answer came
	Error      string // "" on success
	Duration   time.Duration
	Excerpt    string // the start of the answer's body, one printable line ("" without one)
}

// Outbox stores webhook deliveries and sends them. Its methods are safe for concurrent use.
type Outbox struct {
	db, rdb       *sql.DB // writes, reads
	pg            bool
	clock         func() time.Time
	signClock     func() time.Time
	log           *slog.Logger
	client        *http.Client
	forwardClient *http.Client
	forwardTo     string
	route         func(ctx context.Context) (Target, error)
	schedule      []time.Duration
	jitter        float64
	inOrder       bool
	poll, gather  time.Duration
	concurrency   int
	lease         time.Duration
	retention     time.Duration
	userAgent     string
	onAttempt     func(Attempt, string)
	channel       string
	sender        Sender
	expand        func(ctx context.Context, recordKind, recordID string, body []byte) ([]byte, error)

	randMu sync.Mutex
	rnd    *rand.Rand

	// On SQLite, each lane's claim prepared once (see claim).
	claimMu    sync.Mutex
	claimStmts [2]*sql.Stmt

	// One wake-up channel per lane (see Run).
	wakeFirst, wakeRetry chan struct{}
}

// New checks opts and returns the outbox. Deliveries already in the database (from before a
// restart) are kept and resumed by Run.
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
		db: opts.DB, rdb: cmp.Or(opts.ReadDB, opts.DB), pg: opts.Dialect == PostgreSQL,
		clock: opts.Clock, signClock: opts.SignClock, log: opts.Logger,
		forwardTo: opts.ForwardTo, route: opts.Route, schedule: opts.Schedule, jitter: opts.Jitter,
		inOrder: opts.InOrder, poll: opts.PollInterval, gather: opts.Gather, concurrency: opts.Concurrency,
		retention: opts.Retention, rnd: opts.Rand, expand: opts.Expand, userAgent: opts.UserAgent, onAttempt: opts.OnAttempt,
		wakeFirst: make(chan struct{}, 1), wakeRetry: make(chan struct{}, 1),
		channel: cmp.Or(opts.Channel, ChannelWebhook), sender: opts.Sender,
	}
	if err := checkChannel(o.channel, o.sender); err != nil {
		return nil, err
	}
	if err := o.setDefaults(); err != nil {
		return nil, err
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
		o.client = newClient(webhook.GuardedDialer())
	}
	// Trusted targets are the operator's own, often on loopback: no guard there.
	o.forwardClient = newClient(&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second})
	// A lease outlives any attempt, so only a dead process lets one lapse.
	o.lease = max(o.client.Timeout, o.forwardClient.Timeout) + time.Minute
	return o, nil
}

// setDefaults fills the options New was given without, and checks the schedule.
func (o *Outbox) setDefaults() error {
	if o.clock == nil {
		o.clock = time.Now
	}
	if o.signClock == nil {
		o.signClock = time.Now
	}
	if o.log == nil {
		o.log = slog.New(slog.DiscardHandler)
	}
	if o.schedule == nil {
		o.schedule = Exponential(DefaultBaseDelay, DefaultMaxDelay, DefaultMaxAttempts)
	}
	for _, w := range o.schedule {
		if w <= 0 {
			return fmt.Errorf("outbox: Schedule holds a wait of %s; each must be positive", w)
		}
	}
	if o.jitter <= 0 || o.jitter > 1 {
		o.jitter = 1
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
	if o.userAgent == "" {
		o.userAgent = UserAgent
	}
	return nil
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

// checkChannel: a channel is written into statements (so that each lane's partial index
// serves its claims), hence lower-case letters only; every channel but webhooks has a Sender.
func checkChannel(c string, s Sender) error {
	if c == "" || len(c) > 16 || strings.IndexFunc(c, func(r rune) bool { return r < 'a' || r > 'z' }) >= 0 {
		return fmt.Errorf("outbox: channel %q: lower-case letters only", c)
	}
	if (c == ChannelWebhook) != (s == nil) {
		return errors.New("outbox: a Sender is required for a channel other than webhooks, and only then")
	}
	return nil
}

// Statement is an SQL statement and its arguments, in the text both databases accept.
type Statement struct {
	SQL  string
	Args []any
}

// Insert returns the statement storing m for delivery to m.URL (to wherever Route says when it
// is due, when m.URL is ""; by its channel's Sender on another channel), stored at at and due
// then or at m.NotBefore if later: for a caller that runs it in its own transaction with
// the change the message announces (the checkout's store writes an order and its messages
// together). m is stored as given; inserting a message id again for the same URL adds nothing.
func Insert(m Message, at time.Time) Statement {
	return insert(m, m.URL, false, at)
}

func insert(m Message, to string, forward bool, at time.Time) Statement {
	ms, due := at.UnixMilli(), at.UnixMilli()
	if m.NotBefore.After(at) {
		due = m.NotBefore.UnixMilli()
	}
	ch := m.Channel
	if ch == "" {
		ch = ChannelWebhook
	}
	return Statement{SQL: `INSERT INTO webhook_deliveries (message_id, client_id, secret, url, forward, type,
			record_kind, record_id, body, status, next_attempt_at, created_at, updated_at, channel, recipient)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, '` + StatusPending + `', $11, $10, $10, $12, $13)
		ON CONFLICT (message_id, url) DO NOTHING`,
		// The body as a string: PostgreSQL's column is TEXT.
		Args: []any{m.ID, m.ClientID, m.Secret, to, forward, m.Type, m.RecordKind, m.RecordID, string(m.Body), ms, due,
			ch, m.Recipient}}
}

// Rewrite returns the statement putting m.Body in place of the body of the pending delivery of
// m.ID on m.Channel, at at: for a caller that runs it in the transaction of the change that
// makes a scheduled message's content stale (a charge's reminders, once part of it is paid).
// It stores nothing when no such delivery is pending (sent, given up, or never made); an
// attempt already under way when it commits goes with the body it read.
func Rewrite(m Message, at time.Time) Statement {
	return Statement{SQL: `UPDATE webhook_deliveries SET body = $1, updated_at = $2
		WHERE message_id = $3 AND channel = $4 AND status = '` + StatusPending + `'`,
		Args: []any{string(m.Body), at.UnixMilli(), m.ID, cmp.Or(m.Channel, ChannelWebhook)}}
}

// Withdraw returns the statement giving up the pending deliveries of channel about the record
// recordKind/recordID: each is marked skipped at at, with reason as its last error, and never
// sent. For a caller that runs it in the transaction of the change that makes them moot (a
// charge paid or canceled: its reminders). An attempt already under way when it commits is
// recorded only if it delivered (the message did go); a failed one is not retried.
func Withdraw(channel, recordKind, recordID, reason string, at time.Time) Statement {
	return Statement{SQL: `UPDATE webhook_deliveries SET status = '` + StatusSkipped + `', last_error = $4, updated_at = $5
		WHERE channel = $1 AND record_kind = $2 AND record_id = $3 AND status = '` + StatusPending + `'`,
		Args: []any{channel, recordKind, recordID, reason, at.UnixMilli()}}
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
	if m.URL != "" && o.sender == nil {
		if err := checkTargetURL(m.URL); err != nil {
			return err
		}
	}
	if !json.Valid(m.Body) {
		return errors.New("outbox: message body must be JSON")
	}
	stmts, err := o.statements(m, o.clock())
	if err != nil {
		return err
	}
	if len(stmts) == 0 {
		return nil
	}
	own := tx == nil
	if own {
		if tx, err = o.db.BeginTx(ctx, nil); err != nil {
			return fmt.Errorf("outbox: begin: %w", err)
		}
		defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	}
	for _, s := range stmts {
		if _, err := tx.ExecContext(ctx, s.SQL, s.Args...); err != nil {
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

// statements returns the statements storing m, given to Enqueue at now: one per destination.
func (o *Outbox) statements(m Message, now time.Time) ([]Statement, error) {
	m.Channel = cmp.Or(m.Channel, ChannelWebhook)
	switch {
	case m.Channel != o.channel:
		return nil, fmt.Errorf("outbox: a message of channel %q given to the outbox of %q", m.Channel, o.channel)
	case o.sender != nil:
		return []Statement{insert(m, m.URL, false, now)}, nil
	}
	// Fail now on a bad secret rather than with a delivery that can never be signed.
	if _, err := webhook.Sign(m.Secret, m.ID, now, m.Body); err != nil {
		return nil, fmt.Errorf("outbox: message secret: %w", err)
	}
	var stmts []Statement
	// The forwarding copy goes first so that, if both URLs are equal, the trusted
	// configuration wins the UNIQUE (message_id, url) slot.
	if o.forwardTo != "" {
		stmts = append(stmts, insert(m, o.forwardTo, true, now))
	}
	if m.URL != "" && m.URL != o.forwardTo {
		stmts = append(stmts, insert(m, m.URL, false, now))
	}
	return stmts, nil
}

// Wake makes Run look for due deliveries now (after the transaction holding new messages
// commits, or after the clock moves). It never blocks.
func (o *Outbox) Wake() {
	for _, c := range []chan struct{}{o.wakeFirst, o.wakeRetry} {
		select {
		case c <- struct{}{}:
		default: // a wake-up is already pending
		}
	}
}

// Run delivers due deliveries until ctx is done, every PollInterval and on Wake, and deletes
// the finished ones past the retention every ten minutes. First attempts and retries run in
// lanes of their own, each with Concurrency workers, so that retries to a receiver that hangs
// never hold back the first attempt of a new message. In-flight attempts are abandoned (not
// counted) when ctx ends.
func (o *Outbox) Run(ctx context.Context) {
	var wg sync.WaitGroup
	wg.Go(func() { o.loop(ctx, false, o.wakeFirst) })
	wg.Go(func() { o.loop(ctx, true, o.wakeRetry) })
	wg.Wait()
}

// Retention sweep: how often Run makes one, and how many deliveries one statement deletes (a
// short write, so that the database's other writes wait little behind it).
const (
	pruneEvery = 10 * time.Minute
	pruneBatch = 500
)

// loop is one lane of Run; the retries' lane sweeps the finished deliveries too.
func (o *Outbox) loop(ctx context.Context, retries bool, wake <-chan struct{}) {
	t := time.NewTicker(o.poll)
	defer t.Stop()
	var pruned time.Time
	for {
		if _, err := o.pass(ctx, retries, o.clock().UnixMilli()); err != nil && ctx.Err() == nil {
			o.log.Error("webhook outbox pass failed", "retries", retries, "err", err)
		}
		if retries && time.Since(pruned) >= pruneEvery {
			pruned = time.Now()
			if n, err := o.Prune(ctx); err != nil && ctx.Err() == nil {
				o.log.Error("webhook outbox retention sweep failed", "err", err)
			} else if n > 0 {
				o.log.Info("webhook outbox retention sweep", "deleted", n)
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-wake:
			if o.gather > 0 {
				select {
				case <-ctx.Done():
					return
				case <-time.After(o.gather):
				}
			}
		}
	}
}

// Prune deletes the deliveries finished (delivered, dead or skipped) longer than the retention
// ago, with their attempts, batch after batch, and returns how many it deleted. Pending
// deliveries are never deleted, however old.
func (o *Outbox) Prune(ctx context.Context) (int, error) {
	before := o.clock().Add(-o.retention).UnixMilli()
	total := 0
	for ctx.Err() == nil {
		res, err := o.db.ExecContext(ctx, `DELETE FROM webhook_deliveries WHERE id IN (
			SELECT id FROM webhook_deliveries WHERE status IN ('delivered', 'dead', 'skipped') AND channel = '`+o.channel+`'
			AND updated_at < $1 ORDER BY updated_at LIMIT $2`+o.skipLocked()+`)`, before, pruneBatch)
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

// skipLocked is the clause that makes a PostgreSQL worker pass over the rows another holds.
func (o *Outbox) skipLocked() string {
	if o.pg {
		return " FOR UPDATE SKIP LOCKED"
	}
	return ""
}

// claimed is a delivery taken by a pass.
type claimed struct {
	id        int64
	messageID string
	secret    string
	url       string
	forward   bool
	typ       string
	kind, rid string // the record's kind and id
	body      []byte
	attempts  int
	recipient string
}

// DeliverDue makes one synchronous pass: every delivery due at the clock's current time gets
// one attempt, first attempts and retries each Concurrency at once. It returns how many
// attempts were made (skipped deliveries included).
func (o *Outbox) DeliverDue(ctx context.Context) (int, error) {
	due := o.clock().UnixMilli()
	var (
		wg     sync.WaitGroup
		counts [2]int
		errs   [2]error
	)
	for i, retries := range []bool{false, true} {
		wg.Go(func() { counts[i], errs[i] = o.pass(ctx, retries, due) })
	}
	wg.Wait()
	return counts[0] + counts[1], errors.Join(errs[0], errs[1])
}

// pass gives every delivery of its lane (first attempts, or retries) due at due one attempt,
// Concurrency at a time, and returns how many it made. The attempts' outcomes are recorded as
// they come, those that come together in one transaction (recordAll), while the pass claims
// its next batch: a delivery stays leased until its outcome is recorded, so it is not claimed
// twice. On SQLite's one writer, under the load of orders being placed and paid, each write
// waits its turn: a batch recorded in a write or two, beside the next claim rather than
// before it, reaches its next claim far sooner than after one write per attempt.
func (o *Outbox) pass(ctx context.Context, retries bool, due int64) (int, error) {
	var (
		mu   sync.Mutex
		errs []error
		made int
	)
	fail := func(err error) {
		mu.Lock()
		defer mu.Unlock()
		if ctx.Err() == nil {
			errs = append(errs, err)
		}
	}
	done := make(chan outcome, 4*o.concurrency*4)
	var rec sync.WaitGroup
	rec.Go(func() {
		for r := range done {
			group := []outcome{r}
		gather:
			for {
				select {
				case r, ok := <-done:
					if !ok {
						break gather
					}
					group = append(group, r)
				default:
					break gather
				}
			}
			if err := o.recordAll(ctx, group); err != nil {
				fail(err)
				continue
			}
			for _, r := range group {
				o.told(r)
			}
			mu.Lock()
			made += len(group)
			mu.Unlock()
		}
	})
	for ctx.Err() == nil {
		batch, err := o.claim(ctx, retries, due, o.concurrency*4)
		if err != nil {
			fail(err)
			break
		}
		if len(batch) == 0 {
			break
		}
		batch, target, skipped, err := o.resolve(ctx, batch)
		if err != nil {
			fail(err)
			break
		}
		mu.Lock()
		made += skipped
		mu.Unlock()
		sem := make(chan struct{}, o.concurrency)
		var wg sync.WaitGroup
		for _, c := range batch {
			sem <- struct{}{}
			wg.Go(func() {
				defer func() { <-sem }()
				if r, err := o.try(ctx, c, target); err != nil {
					fail(err)
				} else {
					done <- r
				}
			})
		}
		wg.Wait()
		// A failed attempt is rescheduled at least 1 ms after its own attempt time, which is
		// after due, and leased until then, so the loop cannot claim it again within this pass.
	}
	close(done)
	rec.Wait()
	mu.Lock()
	defer mu.Unlock()
	if err := errors.Join(errs...); err != nil {
		return made, err
	}
	return made, ctx.Err()
}

// claim leases up to limit deliveries of a lane due at due (Unix ms) and returns them. One
// statement: the rows are chosen and leased at once, and on PostgreSQL a row another worker is
// claiming is skipped, not waited for.
func (o *Outbox) claim(ctx context.Context, retries bool, due int64, limit int) ([]claimed, error) {
	wall := time.Now()
	if !o.pg && !o.anyDue(ctx, retries, due, wall.UnixMilli()) {
		return nil, nil
	}
	args := []any{wall.Add(o.lease).UnixMilli(), due, wall.UnixMilli(), limit}
	var rows *sql.Rows
	var err error
	if st := o.claimStmt(ctx, retries); st != nil {
		rows, err = st.QueryContext(ctx, args...)
	} else {
		rows, err = o.db.QueryContext(ctx, o.claimSQL(retries), args...)
	}
	if err != nil {
		return nil, fmt.Errorf("outbox: claim due deliveries: %w", err)
	}
	defer rows.Close()
	var out []claimed
	for rows.Next() {
		var c claimed
		if err := rows.Scan(&c.id, &c.messageID, &c.secret, &c.url, &c.forward, &c.typ, &c.kind, &c.rid, &c.body, &c.attempts,
			&c.recipient); err != nil {
			return nil, fmt.Errorf("outbox: read claimed delivery: %w", err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("outbox: claim due deliveries: %w", err)
	}
	return out, nil
}

// anyDue reports, on SQLite, whether a lane has a delivery to claim, reading through the
// readers, so that a pass that finds nothing (the last claim of every pass, and most passes of
// the retries' lane, woken with the first attempts') takes no turn of the one writer, which
// the orders being placed and paid wait for too. A failed read says yes: the claim decides.
func (o *Outbox) anyDue(ctx context.Context, retries bool, due, now int64) bool {
	var one int
	err := o.rdb.QueryRowContext(ctx, `SELECT 1 FROM webhook_deliveries d WHERE status = 'pending' AND `+o.laneSQL(retries)+`
		AND next_attempt_at <= $1 AND lease_until <= $2 LIMIT 1`, due, now).Scan(&one)
	return !errors.Is(err, sql.ErrNoRows)
}

// claimStmt is the claim of a lane prepared, on SQLite, once for the outbox: a pass claims
// again and again, and modernc's parsing of the statement is most of a claim's cost. Nil on
// PostgreSQL (its connections may be a pooler's, where a prepared statement does not follow
// the session) or when preparing failed (the claim then runs from its text).
func (o *Outbox) claimStmt(ctx context.Context, retries bool) *sql.Stmt {
	if o.pg {
		return nil
	}
	lane := 0
	if retries {
		lane = 1
	}
	o.claimMu.Lock()
	defer o.claimMu.Unlock()
	if o.claimStmts[lane] == nil {
		st, err := o.db.PrepareContext(ctx, o.claimSQL(retries))
		if err != nil {
			return nil
		}
		o.claimStmts[lane] = st
	}
	return o.claimStmts[lane]
}

// claimSQL is the claim of a lane: $1 the lease's end, $2 the due time, $3 the wall clock's
// now, $4 the limit.
//
// The lane's condition is written in the statement, not bound: each lane has a partial index,
// on (next_attempt_at, id), which a planner that sees a parameter cannot use. The order asked
// is the index's, so that with the limit the planner walks the index in order rather than
// gather its entries in a bitmap and sort them: PostgreSQL's plain index scan marks the
// entries of rows no transaction can see any more (deliveries handled since the last vacuum),
// which later scans skip, where a bitmap scan would visit them all again at every claim.
func (o *Outbox) claimSQL(retries bool) string {
	lane := o.laneSQL(retries)
	return `UPDATE webhook_deliveries SET lease_until = $1
		WHERE id IN (
			SELECT id FROM webhook_deliveries d
			WHERE status = 'pending' AND ` + lane + ` AND next_attempt_at <= $2 AND lease_until <= $3
			ORDER BY next_attempt_at, id LIMIT $4` + o.skipLocked() + `)
		RETURNING id, message_id, secret, url, forward, type, record_kind, record_id, body, attempts, recipient`
}

// laneSQL is the condition of a lane's deliveries (besides their being pending and due), on
// the table as d.
func (o *Outbox) laneSQL(retries bool) string {
	lane := `attempts = 0`
	if retries {
		lane = `attempts > 0`
	}
	lane += ` AND channel = '` + o.channel + `'`
	if o.inOrder {
		lane += ` AND NOT EXISTS (SELECT 1 FROM webhook_deliveries p WHERE p.record_id = d.record_id AND p.url = d.url
			AND p.status = 'pending' AND p.id < d.id)`
	}
	return lane
}

// resolve reads the Route's target when batch holds deliveries without a URL. Without a
// target, those are recorded as skipped, all in one transaction, and left out of what it
// returns; skipped is how many.
func (o *Outbox) resolve(ctx context.Context, batch []claimed) (rest []claimed, t Target, skipped int, err error) {
	var routed []int64
	for _, c := range batch {
		if c.url == "" && o.sender == nil {
			routed = append(routed, c.id)
		}
	}
	if len(routed) == 0 {
		return batch, t, 0, nil
	}
	if o.route != nil {
		if t, err = o.route(ctx); err != nil {
			return nil, t, 0, fmt.Errorf("outbox: reading the destination: %w", err)
		}
		if t.URL != "" && t.Secret != "" {
			return batch, t, 0, nil
		}
	}
	if err := o.skip(ctx, routed, redactURL(t.URL)); err != nil {
		return nil, t, 0, err
	}
	for _, c := range batch {
		if c.url != "" {
			rest = append(rest, c)
		}
	}
	return rest, t, len(routed), nil
}

// skipNote is the last error of a skipped delivery.
const skipNote = "no URL or secret was configured"

// skip records the deliveries ids as skipped now, each with its attempt (to is the URL, if
// any), in one transaction.
func (o *Outbox) skip(ctx context.Context, ids []int64, to string) error {
	args := []any{skipNote, o.clock().UnixMilli()}
	marks := make([]string, len(ids))
	for i, id := range ids {
		args = append(args, id)
		marks[i] = "$" + strconv.Itoa(len(args))
	}
	in := `id IN (` + strings.Join(marks, ", ") + `)`
	tx, err := o.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("outbox: recording skipped deliveries: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	if _, err := tx.ExecContext(ctx, `UPDATE webhook_deliveries SET status = '`+StatusSkipped+`', attempts = attempts + 1,
		lease_until = 0, last_error = $1, last_status_code = 0, updated_at = $2 WHERE `+in, args...); err != nil {
		return fmt.Errorf("outbox: recording skipped deliveries: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO webhook_attempts (delivery_id, n, at, url, status_code, error, duration_ns)
		SELECT id, attempts, CAST($2 AS BIGINT), CAST($`+strconv.Itoa(len(args)+1)+` AS TEXT), 0, CAST($1 AS TEXT), 0
		FROM webhook_deliveries WHERE `+in+`
		ON CONFLICT (delivery_id, n) DO NOTHING`, append(args, to)...); err != nil {
		return fmt.Errorf("outbox: recording skipped deliveries: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("outbox: recording skipped deliveries: %w", err)
	}
	return nil
}

// outcome is an attempt made, to record: the delivery's new status, and when it is next due.
type outcome struct {
	c      claimed
	a      Attempt
	status string
	next   time.Time
}

// try sends c once (to t when c has no URL of its own) and returns its outcome, to record. When
// ctx ends meanwhile the answer is unknown: the attempt does not count, its lease is freed
// (so a restarted process retries at once), and ctx's error is returned.
func (o *Outbox) try(ctx context.Context, c claimed, t Target) (outcome, error) {
	if c.url == "" {
		c.url, c.secret, c.forward = t.URL, t.Secret, t.Trusted
	}
	at := o.clock()
	start := time.Now()
	var out Outcome
	if o.sender != nil {
		out = o.sender.Send(ctx, Delivery{ID: c.id, MessageID: c.messageID, Channel: o.channel, Recipient: c.recipient,
			RecordKind: c.kind, RecordID: c.rid, Type: c.typ, Body: c.body, Attempts: c.attempts})
	} else {
		out.Code, out.Error, out.Excerpt = o.send(ctx, c, o.signClock())
	}
	took := time.Since(start)
	if ctx.Err() != nil {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		_, _ = o.db.ExecContext(rctx, `UPDATE webhook_deliveries SET lease_until = 0 WHERE id = $1`, c.id)
		return outcome{}, ctx.Err()
	}

	a := Attempt{DeliveryID: c.id, N: c.attempts + 1, At: at, URL: redactURL(c.url), StatusCode: out.Code, Error: out.Error, Duration: took,
		Excerpt: out.Excerpt}
	r := outcome{c: c, a: a, status: StatusPending, next: at}
	switch {
	case out.Error == "":
		r.status = StatusDelivered
	case out.Skipped:
		r.status = StatusSkipped
	case out.Permanent, a.N > len(o.schedule):
		r.status = StatusDead
	default:
		r.next = at.Add(o.backoff(a.N))
	}
	return r, nil
}

// told tells of a recorded outcome: OnAttempt, and one log line.
func (o *Outbox) told(r outcome) {
	a, c := r.a, r.c
	if o.onAttempt != nil {
		o.onAttempt(a, r.status)
	}
	attrs := []any{"delivery", c.id, "message", c.messageID, "type", c.typ, "url", a.URL, "attempt", a.N,
		"status_code", a.StatusCode, "duration", a.Duration, "outcome", r.status}
	if o.sender != nil {
		attrs = append(attrs[:6], attrs[8:]...) // no URL; the recipient is personal data, the delivery id finds it
	}
	switch {
	case a.Error == "":
		o.log.Info(o.channel+" delivered", attrs...)
	case r.status == StatusSkipped:
		o.log.Info(o.channel+" not sent", append(attrs, "reason", a.Error)...)
	case r.status == StatusDead:
		o.log.Error(o.channel+" delivery dead", append(attrs, "err", a.Error)...)
	default:
		o.log.Warn(o.channel+" attempt failed", append(attrs, "err", a.Error, "next_attempt_at", r.next)...)
	}
}

// recordAll stores the attempts of rs and their deliveries' new states, all in one
// transaction. A delivery pruned meanwhile has no log to add to; a second worker recording
// the same attempt (its lease lapsed) adds nothing. On SQLite the two statements are prepared
// once for the transaction (modernc's parsing is most of a short statement's cost); on
// PostgreSQL, whose connections may be a pooler's, nothing is prepared.
func (o *Outbox) recordAll(ctx context.Context, rs []outcome) error {
	tx, err := o.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("outbox: record attempts: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	update := func(args ...any) (sql.Result, error) { return tx.ExecContext(ctx, updateDeliverySQL, args...) }
	insert := func(args ...any) (sql.Result, error) { return tx.ExecContext(ctx, insertAttemptSQL, args...) }
	if !o.pg && len(rs) > 1 {
		u, err := tx.PrepareContext(ctx, updateDeliverySQL)
		if err != nil {
			return fmt.Errorf("outbox: record attempts: %w", err)
		}
		defer u.Close()
		i, err := tx.PrepareContext(ctx, insertAttemptSQL)
		if err != nil {
			return fmt.Errorf("outbox: record attempts: %w", err)
		}
		defer i.Close()
		update = func(args ...any) (sql.Result, error) { return u.ExecContext(ctx, args...) }
		insert = func(args ...any) (sql.Result, error) { return i.ExecContext(ctx, args...) }
	}
	for _, r := range rs {
		a := r.a
		res, err := update(r.status, a.N, r.next.UnixMilli(), a.Error, a.StatusCode, a.At.UnixMilli(), a.DeliveryID)
		if err != nil {
			return fmt.Errorf("outbox: update delivery: %w", err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return fmt.Errorf("outbox: update delivery: %w", err)
		} else if n == 0 {
			continue
		}
		if _, err := insert(attemptArgs(a)...); err != nil {
			return fmt.Errorf("outbox: record attempt: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("outbox: record attempts: %w", err)
	}
	return nil
}

// The statements of recording an attempt.
const (
	updateDeliverySQL = `UPDATE webhook_deliveries SET status = $1, attempts = $2, next_attempt_at = $3,
		lease_until = 0, last_error = $4, last_status_code = $5, updated_at = $6
		WHERE id = $7 AND (status = '` + StatusPending + `' OR $1 = '` + StatusDelivered + `')`
	insertAttemptSQL = `INSERT INTO webhook_attempts (delivery_id, n, at, url, status_code, error, duration_ns, excerpt)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (delivery_id, n) DO NOTHING`
)

// attemptArgs are insertAttemptSQL's arguments for a.
func attemptArgs(a Attempt) []any {
	return []any{a.DeliveryID, a.N, a.At.UnixMilli(), a.URL, a.StatusCode, a.Error, int64(a.Duration), a.Excerpt}
}

// insertAttempt stores a in tx; the same attempt again adds nothing.
func insertAttempt(ctx context.Context, tx *sql.Tx, a Attempt) error {
	if _, err := tx.ExecContext(ctx, insertAttemptSQL, attemptArgs(a)...); err != nil {
		return fmt.Errorf("outbox: record attempt: %w", err)
	}
	return nil
}

// RecordSent stores m as a delivery its caller already sent once, with that one attempt a
// (a.DeliveryID and a.N are set here): delivered when a.Error is "", otherwise dead, never
// retried. It is for a message sent at once, whose sender waits for the answer (a dashboard's
// test notification), so that the delivery log shows it with the others. Its times are a's;
// m.URL is kept as given ("" for the destination Route gives, were it redelivered). Recording
// a message id again for the same URL adds nothing.
func (o *Outbox) RecordSent(ctx context.Context, m Message, a Attempt) error {
	if m.ID == "" {
		return errors.New("outbox: message ID is required")
	}
	if !json.Valid(m.Body) {
		return errors.New("outbox: message body must be JSON")
	}
	status := StatusDelivered
	if a.Error != "" {
		status = StatusDead
	}
	a.N, a.URL = 1, redactURL(a.URL)
	tx, err := o.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("outbox: record sent %s: %w", m.ID, err)
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	ms := a.At.UnixMilli()
	err = tx.QueryRowContext(ctx, `INSERT INTO webhook_deliveries (message_id, client_id, secret, url, forward, type,
			record_kind, record_id, body, status, attempts, next_attempt_at, last_error, last_status_code, created_at, updated_at,
			channel, recipient)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 1, $11, $12, $13, $11, $11, $14, $15)
		ON CONFLICT (message_id, url) DO NOTHING RETURNING id`,
		m.ID, m.ClientID, m.Secret, m.URL, false, m.Type, m.RecordKind, m.RecordID, string(m.Body), status, ms,
		a.Error, a.StatusCode, o.channel, m.Recipient).Scan(&a.DeliveryID)
	if errors.Is(err, sql.ErrNoRows) {
		return nil // recorded already
	}
	if err != nil {
		return fmt.Errorf("outbox: record sent %s: %w", m.ID, err)
	}
	if err := insertAttempt(ctx, tx, a); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("outbox: record sent %s: %w", m.ID, err)
	}
	return nil
}

// send POSTs the delivery, signed as sent at signedAt, and returns the answer's status code
// (0 without an answer), a description of the failure ("" on a 2xx) and the start of the
// answer's body.
func (o *Outbox) send(ctx context.Context, c claimed, signedAt time.Time) (code int, failure, excerpt string) {
	if o.expand != nil {
		body, err := o.expand(ctx, c.kind, c.rid, c.body)
		if err != nil {
			return 0, "expanding the body: " + err.Error(), ""
		}
		c.body = body
	}
	h, err := webhook.Headers(c.secret, c.messageID, signedAt, c.body)
	if err != nil {
		return 0, "signing: " + err.Error(), ""
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(c.body))
	if err != nil {
		return 0, "building the request failed", "" // the error would repeat the URL
	}
	for k, v := range h {
		req.Header[k] = v
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", o.userAgent)
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
		return 0, err.Error(), ""
	}
	defer resp.Body.Close()
	snippet, _ := io.ReadAll(io.LimitReader(resp.Body, maxResponseSnippet))
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxDrain))
	excerpt = printable(snippet)
	if resp.StatusCode >= 200 && resp.StatusCode <= 299 {
		return resp.StatusCode, "", excerpt
	}
	msg := fmt.Sprintf("HTTP %d", resp.StatusCode)
	if resp.StatusCode >= 300 && resp.StatusCode <= 399 {
		msg += " (redirects are not followed)"
	}
	if excerpt != "" {
		msg += ": " + excerpt
	}
	return resp.StatusCode, msg, excerpt
}

// backoff returns the wait after the n-th failed attempt: the schedule's, with its Jitter share
// drawn at random, at millisecond resolution and at least 1 ms.
func (o *Outbox) backoff(n int) time.Duration {
	w := o.schedule[min(n, len(o.schedule))-1].Milliseconds()
	span := max(int64(float64(w)*o.jitter), 1)
	o.randMu.Lock()
	j := o.rnd.Int64N(span)
	o.randMu.Unlock()
	return time.Duration(max(w-j, 1)) * time.Millisecond
}

// redactURL drops the query string and any user info, which may carry credentials.
func redactURL(raw string) string {
	if raw == "" {
		return ""
	}
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
// one gets one more attempt, and more only while it stays within the schedule.
func (o *Outbox) Redeliver(ctx context.Context, deliveryID int64) error {
	now := o.clock().UnixMilli()
	res, err := o.db.ExecContext(ctx, `UPDATE webhook_deliveries SET status = $1, next_attempt_at = $2, updated_at = $2
		WHERE id = $3 AND channel = $4`, StatusPending, now, deliveryID, o.channel)
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

// Filter selects deliveries. Zero fields do not filter.
type Filter struct {
	RecordID, MessageID, Status, Type string
	RecordKind                        string // "order": only the deliveries of that kind of record
	NotKind                           string // "ping": none of the deliveries of that kind of record
	Recipient                         string // only those to this addressee (exactly as stored)
	Limit                             int    // at most this many, newest first (≤ 0: 50; at most 1000)
	Offset                            int    // skipping this many first
	// BeforeID, when above 0, keeps the deliveries older than that one (paging by key: a page
	// stays the same while deliveries are added, and costs the same at any depth); AfterID,
	// when above 0, those newer than it, still listed newest first.
	BeforeID, AfterID int64
}

// Deliveries returns the deliveries f selects, newest first.
func (o *Outbox) Deliveries(ctx context.Context, f Filter) ([]Delivery, error) {
	var (
		conds = []string{"d.channel = '" + o.channel + "'"}
		args  []any
	)
	for _, c := range []struct{ col, v string }{{"d.record_id", f.RecordID}, {"d.message_id", f.MessageID},
		{"d.status", f.Status}, {"d.type", f.Type}, {"d.record_kind", f.RecordKind}, {"d.recipient", f.Recipient}} {
		if c.v == "" {
			continue
		}
		if !storable(c.v) {
			return nil, nil // no row holds it
		}
		args = append(args, c.v)
		conds = append(conds, c.col+" = $"+strconv.Itoa(len(args)))
	}
	if f.NotKind != "" {
		args = append(args, f.NotKind)
		conds = append(conds, "d.record_kind <> $"+strconv.Itoa(len(args)))
	}
	if f.BeforeID > 0 {
		args = append(args, f.BeforeID)
		conds = append(conds, "d.id < $"+strconv.Itoa(len(args)))
	}
	order := "DESC"
	if f.AfterID > 0 {
		args = append(args, f.AfterID)
		conds = append(conds, "d.id > $"+strconv.Itoa(len(args)))
		order = "" // the nearest first; reversed below
	}
	// The last attempt's time and excerpt come with each delivery: one lookup by primary key.
	q := `SELECT d.id, d.message_id, d.client_id, d.record_kind, d.record_id, d.type, d.url, d.forward, d.body, d.status,
		d.attempts, d.next_attempt_at, d.last_error, d.last_status_code, d.created_at, d.updated_at,
		COALESCE(a.duration_ns, 0), COALESCE(a.excerpt, ''), d.channel, d.recipient
		FROM webhook_deliveries d LEFT JOIN webhook_attempts a ON a.delivery_id = d.id AND a.n = d.attempts
		WHERE ` + strings.Join(conds, " AND ")
	limit := f.Limit
	if limit <= 0 {
		limit = 50
	}
	args = append(args, min(limit, 1000), max(f.Offset, 0))
	q += ` ORDER BY d.id ` + order + ` LIMIT $` + strconv.Itoa(len(args)-1) + ` OFFSET $` + strconv.Itoa(len(args))
	rows, err := o.rdb.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("outbox: list deliveries: %w", err)
	}
	defer rows.Close()
	var out []Delivery
	for rows.Next() {
		var (
			d                          Delivery
			next, created, updated, ns int64
		)
		if err := rows.Scan(&d.ID, &d.MessageID, &d.ClientID, &d.RecordKind, &d.RecordID, &d.Type, &d.URL, &d.Forward,
			&d.Body, &d.Status, &d.Attempts, &next, &d.LastError, &d.LastStatusCode, &created, &updated, &ns,
			&d.LastExcerpt, &d.Channel, &d.Recipient); err != nil {
			return nil, fmt.Errorf("outbox: read delivery: %w", err)
		}
		d.NextAttemptAt, d.CreatedAt, d.UpdatedAt, d.LastDuration = fromMS(next), fromMS(created), fromMS(updated), time.Duration(ns)
		out = append(out, d)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("outbox: list deliveries: %w", err)
	}
	if f.AfterID > 0 {
		slices.Reverse(out)
	}
	return out, nil
}

// storable reports whether both databases can hold s in a TEXT column: valid UTF-8 without NUL
// bytes. A filter from outside (an id in a URL) may be neither; it then matches nothing.
func storable(s string) bool {
	return utf8.ValidString(s) && !strings.ContainsRune(s, 0)
}

// Attempts returns the attempts of a delivery, first first.
func (o *Outbox) Attempts(ctx context.Context, deliveryID int64) ([]Attempt, error) {
	rows, err := o.rdb.QueryContext(ctx, `SELECT delivery_id, n, at, url, status_code, error, duration_ns, excerpt
		FROM webhook_attempts WHERE delivery_id = $1 ORDER BY n`, deliveryID)
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
		if err := rows.Scan(&a.DeliveryID, &a.N, &at, &a.URL, &a.StatusCode, &a.Error, &ns, &a.Excerpt); err != nil {
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

// Backlog is how many deliveries wait for an attempt (first ones and retries), for metrics.
// The partial indexes of the due deliveries serve it.
func (o *Outbox) Backlog(ctx context.Context) (int, error) {
	var first, retries int
	if err := o.rdb.QueryRowContext(ctx, `SELECT
		(SELECT COUNT(*) FROM webhook_deliveries WHERE status = 'pending' AND attempts = 0 AND channel = '`+o.channel+`'),
		(SELECT COUNT(*) FROM webhook_deliveries WHERE status = 'pending' AND attempts > 0 AND channel = '`+o.channel+`')`).Scan(&first, &retries); err != nil {
		return 0, fmt.Errorf("outbox: backlog: %w", err)
	}
	return first + retries, nil
}

// Printable returns b as one line of valid UTF-8 without control characters, as the log keeps
// a server's answer (a Sender's Outcome.Excerpt).
func Printable(b []byte) string { return printable(b) }
