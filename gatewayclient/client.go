package gatewayclient

import (
	"context"
	crand "crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// Defaults of the client's options.
const (
	DefaultTimeout            = 30 * time.Second // per attempt
	DefaultUserAgent          = "pixcheckout-gatewayclient/1"
	DefaultPageParam          = "page"
	DefaultPerPageParam       = "perPage"
	DefaultTokenRefreshMargin = 60 * time.Second
	DefaultMaxAttempts        = 4
	DefaultBaseDelay          = 200 * time.Millisecond
	DefaultMaxDelay           = 5 * time.Second
)

// Client talks to the gateway. Make one with New and share it: it is safe for concurrent use
// by many goroutines, and sharing it lets every caller reuse one cached token and one pool of
// connections.
type Client struct {
	base         string // base URL without a trailing slash, path prefix included
	creds        *credentials
	http         *http.Client
	timeout      time.Duration
	userAgent    string
	logger       *slog.Logger
	retry        RetryPolicy
	clock        Clock
	pageParam    string
	perPageParam string
	margin       time.Duration
	tokens       *tokenCache
	rng          *lockedRand
	pacing       *pacers // per endpoint, after a 429 (pacing.go)
}

// DefaultIdleConns is how many idle connections to the gateway the default transport keeps.
// net/http keeps two per host unless told otherwise: a shop placing orders for more than two
// shoppers at once would then close a connection after nearly every call and open (with TLS, a
// handshake) a new one for the next.
const DefaultIdleConns = 64

// newHTTPClient returns the default HTTP client, on NewTransport.
func newHTTPClient() *http.Client {
	return &http.Client{Transport: NewTransport()}
}

// NewTransport returns the default client's transport: http.DefaultTransport's settings (proxy
// from the environment, dial and TLS timeouts, HTTP/2) with DefaultIdleConns idle connections
// kept. A caller wrapping the transport (to observe the calls) starts from it.
func NewTransport() *http.Transport {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConns = DefaultIdleConns
	tr.MaxIdleConnsPerHost = DefaultIdleConns
	return tr
}

// Option configures a Client in New.
type Option func(*Client)

// WithHTTPClient sets the *http.Client used for every request (its transport, proxy, TLS
// settings). The default is a new http.Client on a copy of http.DefaultTransport that keeps
// DefaultIdleConns idle connections to the gateway (see newHTTPClient).
func WithHTTPClient(hc *http.Client) Option { return func(c *Client) { c.http = hc } }

// WithTimeout bounds each attempt of a request (the token request included); retries get a
// fresh timeout each. Bound the whole call with the context. Default DefaultTimeout; 0 or less
// means no per-attempt bound for API calls, while the token request, which callers share,
// keeps DefaultTimeout.
func WithTimeout(d time.Duration) Option { return func(c *Client) { c.timeout = d } }

// WithUserAgent sets the User-Agent header. Default DefaultUserAgent.
func WithUserAgent(ua string) Option { return func(c *Client) { c.userAgent = ua } }

// WithLogger sets the logger of the client. It writes one Debug line per attempt (method,
// path without the query, status, duration, attempt) and per token request; never a
// credential or a token. Default: no logging.
func WithLogger(l *slog.Logger) Option { return func(c *Client) { c.logger = l } }

// WithRetryPolicy sets how failed attempts are retried (see RetryPolicy). Zero fields take
// the defaults; MaxAttempts 1 disables retries.
func WithRetryPolicy(p RetryPolicy) Option { return func(c *Client) { c.retry = p } }

// WithClock replaces the clock that tells token expiry and waits between retries; tests pass
// a fake one to control time. Default: the system clock.
func WithClock(cl Clock) Option { return func(c *Client) { c.clock = cl } }

// WithPaginationParams renames the query parameters of the page number and of the page size
// of the list endpoints. The spec does not name them; the default is "page" and "perPage".
func WithPaginationParams(page, perPage string) Option {
	return func(c *Client) { c.pageParam, c.perPageParam = page, perPage }
}

// WithTokenRefreshMargin sets how long before its expiry a cached token is renewed. The
// margin actually used is never more than a tenth of the token's lifetime, so that a
// short-lived token is still reused. Default DefaultTokenRefreshMargin.
func WithTokenRefreshMargin(d time.Duration) Option { return func(c *Client) { c.margin = d } }

// RetryPolicy says how failed attempts are retried. Retried are: network failures and
// per-attempt timeouts, 429 (waiting at least its Retry-After), 502, 503 and 504, and 500 on
// GET; failures of the token request before the call is sent are retried for every call.
// API calls are retried only when that cannot duplicate an effect: GET, HEAD, OPTIONS, PUT,
// DELETE, POST /transaction (it carries an idempotencyKey) and DoIdempotent.
//
// Waits grow exponentially from BaseDelay, capped at MaxDelay, with full jitter (a uniform
// random wait between 0 and the cap). A wait that would pass the context's deadline is not
// started: the last error is returned at once. A Retry-After longer than MaxDelay is not
// waited for either: the *APIError is returned with RetryAfter set, for the caller to decide.
type RetryPolicy struct {
	MaxAttempts int           // attempts in all, the first included; 0: DefaultMaxAttempts; 1: no retry
	BaseDelay   time.Duration // cap of the first wait; 0: DefaultBaseDelay
	MaxDelay    time.Duration // cap of every wait; 0: DefaultMaxDelay
	// Jitter picks a wait in [0, max]. Nil: uniform, from a random generator of the client.
	// Tests set it to make waits predictable.
	Jitter func(max time.Duration) time.Duration
}

// withDefaults fills the zero fields of p.
func (p RetryPolicy) withDefaults() RetryPolicy {
	if p.MaxAttempts == 0 {
		p.MaxAttempts = DefaultMaxAttempts
	}
	if p.BaseDelay == 0 {
		p.BaseDelay = DefaultBaseDelay
	}
	if p.MaxDelay == 0 {
		p.MaxDelay = DefaultMaxDelay
	}
	return p
}

// New makes a client of the gateway at baseURL, which includes the gateway's path prefix
// ("https://api.example.com/v1"), with the client credentials issued by the gateway. It makes
// no request: the first call fetches the token.
func New(baseURL, clientID, clientSecret string, opts ...Option) (*Client, error) {
	base, err := checkBaseURL(baseURL)
	if err != nil {
		return nil, err
	}
	if clientID == "" {
		return nil, errors.New("gatewayclient: client ID is empty")
	}
	if clientSecret == "" {
		return nil, errors.New("gatewayclient: client secret is empty")
	}
	c := &Client{
		base:         base,
		creds:        &credentials{id: clientID, secret: secret(clientSecret)},
		http:         newHTTPClient(),
		timeout:      DefaultTimeout,
		userAgent:    DefaultUserAgent,
		logger:       slog.New(slog.DiscardHandler),
		clock:        systemClock{},
		pageParam:    DefaultPageParam,
		perPageParam: DefaultPerPageParam,
		margin:       DefaultTokenRefreshMargin,
		tokens:       &tokenCache{},
		rng:          newLockedRand(),
		pacing:       &pacers{},
	}
	for _, o := range opts {
		o(c)
	}
	if err := c.checkOptions(); err != nil {
		return nil, err
	}
	c.retry = c.retry.withDefaults()
	return c, nil
}

// checkBaseURL checks the gateway's base URL and returns it without a trailing slash.
func checkBaseURL(baseURL string) (string, error) {
	u, err := url.Parse(baseURL)
	if err != nil {
		return "", fmt.Errorf("gatewayclient: base URL: %w", err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", errors.New("gatewayclient: base URL must be an absolute http or https URL")
	}
	if u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return "", errors.New("gatewayclient: base URL must have no query, fragment or user info")
	}
	return strings.TrimRight(u.String(), "/"), nil
}

// checkOptions refuses what the options left unusable.
func (c *Client) checkOptions() error {
	switch {
	case c.http == nil:
		return errors.New("gatewayclient: WithHTTPClient: nil *http.Client")
	case c.logger == nil:
		return errors.New("gatewayclient: WithLogger: nil *slog.Logger")
	case c.clock == nil:
		return errors.New("gatewayclient: WithClock: nil Clock")
	case c.pageParam == "" || c.perPageParam == "":
		return errors.New("gatewayclient: WithPaginationParams: empty parameter name")
	case c.margin < 0:
		return errors.New("gatewayclient: WithTokenRefreshMargin: negative margin")
	case c.retry.MaxAttempts < 0 || c.retry.BaseDelay < 0 || c.retry.MaxDelay < 0:
		return errors.New("gatewayclient: WithRetryPolicy: negative value")
	}
	return nil
}

// BaseURL returns the base URL the client was made with, without a trailing slash.
func (c *Client) BaseURL() string { return c.base }

// String describes the client by its base URL and client ID, never its secret or token.
func (c Client) String() string {
	return "gatewayclient.Client{baseURL: " + c.base + ", clientID: " + c.creds.id + "}"
}

// GoString is String, for %#v.
func (c Client) GoString() string { return c.String() }

// Format prints String for every verb, so that no verb reaches the credentials or the token.
func (c Client) Format(f fmt.State, _ rune) { _, _ = f.Write([]byte(c.String())) }

// LogValue logs the base URL and client ID only.
func (c Client) LogValue() slog.Value {
	return slog.GroupValue(slog.String("base_url", c.base), slog.String("client_id", c.creds.id))
}

// credentials holds the client credentials. It is kept behind a pointer in Client so that
// printing a Client with %v or %#v shows an address, never the secret.
type credentials struct {
	id     string
	secret secret
}

// Format prints the client ID only, for every verb.
func (c credentials) Format(f fmt.State, _ rune) {
	_, _ = fmt.Fprintf(f, "{client_id: %s, client_secret: %s}", c.id, redacted)
}

// LogValue keeps the secret out of logs even if credentials are logged whole.
func (c credentials) LogValue() slog.Value {
	return slog.GroupValue(slog.String("client_id", c.id), slog.Any("client_secret", c.secret))
}

// secret is a string that never prints: fmt verbs, slog and JSON all show "[REDACTED]".
// The client secret and tokens are held as secrets.
type secret string

const redacted = "[REDACTED]"

// String hides the value.
func (secret) String() string { return redacted }

// GoString hides the value from %#v.
func (secret) GoString() string { return redacted }

// Format hides the value from every verb (%s, %v, %q, %x, ...).
func (secret) Format(f fmt.State, _ rune) { _, _ = f.Write([]byte(redacted)) }

// LogValue hides the value from slog.
func (secret) LogValue() slog.Value { return slog.StringValue(redacted) }

// MarshalJSON hides the value from encoding/json.
func (secret) MarshalJSON() ([]byte, error) { return []byte(`"` + redacted + `"`), nil }

// reveal returns the value, for the one place that must send it.
func (s secret) reveal() string { return string(s) }

// Clock is the client's source of time: the current time for token expiry, and the waits
// between retries. Sleep waits for d or until ctx is done, whichever comes first, and returns
// ctx.Err() in the second case. Deadlines of contexts are always measured on the system
// clock (that is how package context works), so a fake Clock does not change them.
type Clock interface {
	Now() time.Time
	Sleep(ctx context.Context, d time.Duration) error
}

// systemClock is the real clock.
type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now() }

func (systemClock) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// lockedRand is a per-client random generator for jitter (math/rand/v2 generators are not
// safe for concurrent use on their own).
type lockedRand struct {
	mu sync.Mutex
	r  *rand.Rand
}

func newLockedRand() *lockedRand {
	var seed [32]byte
	_, _ = crand.Read(seed[:]) // never fails (crypto/rand panics rather than return an error)
	return &lockedRand{r: rand.New(rand.NewChaCha8(seed))}
}

// upTo returns a uniform duration in [0, max].
func (l *lockedRand) upTo(max time.Duration) time.Duration {
	if max <= 0 {
		return 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return time.Duration(l.r.Int64N(int64(max) + 1))
}
