package sandbox

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/pixcheckout/pixcheckout/gatewayclient/qr"
)

// ClientConfig is one API client the sandbox accepts.
type ClientConfig struct {
	ID     string   // client_id
	Secret string   // client_secret
	Scopes []string // granted scopes; nil or empty means AllScopes()
	// WebhookSecret signs this client's webhooks (whsec_…). Empty: one is generated at the
	// first start and kept in the database.
	WebhookSecret string
}

// Options configure a Sandbox. Only DataDir and Clients are required.
type Options struct {
	// DataDir holds the SQLite database (sandbox.db) and the token signing key. It is created
	// if missing.
	DataDir string
	// Clients are the API clients the sandbox accepts.
	Clients []ClientConfig
	// Clock is the base clock (nil: the system clock). POST sandbox/clock/advance adds a
	// persisted offset on top of it.
	Clock Clock
	// Logger receives errors and webhook delivery logs (nil: discarded). Secrets are never logged.
	Logger *slog.Logger
	// WebhookForwardTo, when set, also receives every webhook (local development; plain http on
	// loopback is allowed there only).
	WebhookForwardTo string
	// WebhookHTTPClient delivers webhooks to the records' webhookUrl (nil: a client whose
	// dialer refuses loopback, private and link-local addresses). Redirects are never followed.
	WebhookHTTPClient *http.Client
	// WebhookBaseDelay and WebhookMaxDelay bound the exponential backoff (with full jitter)
	// between delivery attempts (0: the outbox defaults, 5 s and 1 h).
	WebhookBaseDelay, WebhookMaxDelay time.Duration
	// RateLimit bounds POST /transaction per client (zero value: 50 per second, burst 100;
	// Off: no limit). ratelimit.Parse reads it from a setting such as "1000/s".
	RateLimit RateLimit
	// LoginRateLimit bounds failed console sign-ins, per remote address and per client id
	// (zero value: 5 per minute, burst 10). Over it, the sign-in answers 429 with Retry-After
	// without checking the secret.
	LoginRateLimit RateLimit
	// TokenTTL is the lifetime of access tokens (0: one hour).
	TokenTTL time.Duration
	// MerchantName and MerchantCity go into every BR Code (defaults "PIX CHECKOUT SANDBOX" and
	// "SAO PAULO"); they are cut to the BR Code limits of 25 and 15 characters.
	MerchantName, MerchantCity string
	// QRImages, when set, draws the deposits' QR images and keeps the last few: a process that
	// embeds the sandbox gives the checkout the same one, so that each code is drawn once
	// (nil: each image is drawn when needed).
	QRImages *qr.Images

	// busyTimeout replaces defaultBusyTimeout (tests set it to 0 so that any wait for a lock
	// fails instead).
	busyTimeout *time.Duration
}

// Sandbox is a stateful local PIX gateway: the API of the gateway spec at its root, the
// simulation controls under /sandbox/, and signed webhooks. Make one with New.
type Sandbox struct {
	w        *sql.DB // the one writer connection (see openDB)
	r        *sql.DB // readers
	clock    *offsetClock
	log      *slog.Logger
	clients  map[string]ClientConfig
	jwtKey   []byte
	tokenTTL time.Duration
	limiter  *limiter // nil: no limit on POST /transaction
	// logins counts failed console sign-ins per remote address and per client.
	logins   *limiter
	faults   faultSet
	merchant merchant
	qrImages *qr.Images // nil: drawn every time
	hooks    *hooks
	handler  http.Handler

	closeOnce sync.Once
	closeErr  error
}

// Setting keys.
const (
	settingClockOffset = "clock_offset_ms"
)

// clients checks the options New needs and returns the clients by ID, each with its scopes
// (all of them when none are given).
func (opts Options) clients() (map[string]ClientConfig, error) {
	if strings.TrimSpace(opts.DataDir) == "" {
		return nil, errors.New("sandbox: Options.DataDir is required")
	}
	if len(opts.Clients) == 0 {
		return nil, errors.New("sandbox: Options.Clients must hold at least one client")
	}
	if opts.TokenTTL < 0 {
		return nil, errors.New("sandbox: Options.TokenTTL must not be negative")
	}
	clients := map[string]ClientConfig{}
	for i, c := range opts.Clients {
		if c.ID == "" || c.Secret == "" {
			return nil, fmt.Errorf("sandbox: Options.Clients[%d]: ID and Secret are required", i)
		}
		if _, dup := clients[c.ID]; dup {
			return nil, fmt.Errorf("sandbox: Options.Clients[%d]: duplicate client ID %q", i, c.ID)
		}
		if len(c.Scopes) == 0 {
			c.Scopes = AllScopes()
		}
		c.Scopes = append([]string(nil), c.Scopes...)
		clients[c.ID] = c
	}
	return clients, nil
}

// New opens (or creates) the sandbox state in opts.DataDir and returns a ready handler. Call
// Run to deliver webhooks and sweep expired QR codes, and Close when done.
func New(ctx context.Context, opts Options) (*Sandbox, error) {
	clients, err := opts.clients()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(opts.DataDir, 0o700); err != nil {
		return nil, fmt.Errorf("sandbox: data dir: %w", err)
	}
	s := &Sandbox{
		log:      opts.Logger,
		clients:  clients,
		tokenTTL: opts.TokenTTL,
		qrImages: opts.QRImages,
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.tokenTTL == 0 {
		s.tokenTTL = time.Hour
	}
	base := opts.Clock
	if base == nil {
		base = systemClock{}
	}
	s.clock = &offsetClock{base: base}
	key, err := loadOrCreateKey(opts.DataDir)
	if err != nil {
		return nil, err
	}
	s.jwtKey = key
	busy := defaultBusyTimeout
	if opts.busyTimeout != nil {
		busy = *opts.busyTimeout
	}
	if s.w, s.r, err = openDB(ctx, opts.DataDir, busy); err != nil {
		return nil, err
	}
	if err := s.loadState(ctx); err != nil {
		s.closeDB()
		return nil, err
	}
	if err := s.loadMerchant(ctx, opts.MerchantName, opts.MerchantCity); err != nil {
		s.closeDB()
		return nil, err
	}
	if !opts.RateLimit.Off {
		s.limiter = newLimiter(withDefaults(opts.RateLimit), s.clock)
	}
	s.logins = newLimiter(withLoginDefaults(opts.LoginRateLimit), s.clock)
	hk, err := s.newHooks(ctx, opts)
	if err != nil {
		s.closeDB()
		return nil, err
	}
	s.hooks = hk
	s.handler = s.routes()
	return s, nil
}

// loadState restores the clock offset.
func (s *Sandbox) loadState(ctx context.Context) error {
	v, ok, err := getSetting(ctx, s.r, settingClockOffset)
	if err != nil {
		return err
	}
	if ok {
		ms, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return fmt.Errorf("sandbox: stored clock offset %q: %w", v, err)
		}
		s.clock.setOffset(time.Duration(ms) * time.Millisecond)
	}
	return nil
}

// Client returns the configuration of the client id, with its effective scopes and webhook
// secret (for example to print the secret at start).
func (s *Sandbox) Client(id string) (ClientConfig, bool) {
	c, ok := s.clients[id]
	if !ok {
		return ClientConfig{}, false
	}
	c.Scopes = append([]string(nil), c.Scopes...)
	return c, true
}

// Now returns the sandbox's current time (base clock plus the clock/advance offset).
func (s *Sandbox) Now() time.Time { return s.clock.Now() }

// Run does the background work until ctx is done: it delivers webhooks from the outbox and
// moves deposits whose QR code expired to FAILED.
func (s *Sandbox) Run(ctx context.Context) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		s.hooks.run(ctx)
	}()
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			wg.Wait()
			return
		case <-t.C:
			if err := s.expireDue(ctx); err != nil && ctx.Err() == nil {
				s.log.Error("sandbox: expiry sweep", "err", err)
			}
		}
	}
}

// Close releases the database. Stop Run (cancel its context) first.
func (s *Sandbox) Close() error {
	s.closeOnce.Do(func() { s.closeErr = s.closeDB() })
	return s.closeErr
}

// closeDB closes both pools.
func (s *Sandbox) closeDB() error {
	return errors.Join(s.r.Close(), s.w.Close())
}

// ServeHTTP serves the API at its root. Mount it under a prefix with http.StripPrefix.
func (s *Sandbox) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			s.log.Error("sandbox: panic", "path", r.URL.Path, "panic", fmt.Sprint(v))
			s.respondError(w, r, errors.New("panic"))
		}
	}()
	if !strings.HasPrefix(r.URL.Path, "/sandbox/") {
		if s.applyFaults(w, r) {
			return
		}
		if s.faults.take(FaultError500AfterCommit, r.URL.Path) {
			// Do the work as usual (it is committed), then lose the answer.
			s.handler.ServeHTTP(discardWriter{h: http.Header{}}, r)
			s.respondError(w, r, errors.New("injected fault: error500_after_commit"))
			return
		}
	}
	s.handler.ServeHTTP(w, r)
}

// discardWriter swallows a response (for the error500_after_commit fault).
type discardWriter struct{ h http.Header }

func (d discardWriter) Header() http.Header         { return d.h }
func (d discardWriter) Write(b []byte) (int, error) { return len(b), nil }
func (d discardWriter) WriteHeader(int)             {}

// routes builds the route table.
func (s *Sandbox) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /auth/token", s.handleToken)
	mux.Handle("POST /transaction", s.withPrincipal(ScopeTransactionsWrite, s.handleCreateTransaction))
	mux.Handle("GET /deposit", s.withPrincipal(ScopeDepositsRead, s.handleListDeposits))
	mux.Handle("GET /deposit/{id}", s.withPrincipal(ScopeDepositsRead, s.handleGetDeposit))
	mux.Handle("GET /withdrawal", s.withPrincipal(ScopeWithdrawalsRead, s.handleListWithdrawals))

	ctl := func(h func(http.ResponseWriter, *http.Request, principal)) http.Handler {
		return s.withPrincipal(ScopeSandboxControl, h)
	}
	mux.Handle("POST /sandbox/deposits/{id}/{action}", ctl(s.handleDepositControl))
	mux.Handle("GET /sandbox/deposits/{id}/deliveries", ctl(s.handleDeliveries))
	mux.Handle("GET /sandbox/withdrawals/{id}/deliveries", ctl(s.handleDeliveries))
	mux.Handle("POST /sandbox/withdrawals", ctl(s.handleCreateWithdrawal))
	mux.Handle("POST /sandbox/withdrawals/{id}/{status}", ctl(s.handleWithdrawalControl))
	mux.Handle("POST /sandbox/seed", ctl(s.handleSeed))
	mux.Handle("GET /sandbox/clock", ctl(s.handleGetClock))
	mux.Handle("POST /sandbox/clock/advance", ctl(s.handleAdvanceClock))
	mux.Handle("/sandbox/faults", ctl(s.handleFaults))
	s.consoleRoutes(mux)

	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		s.respondError(w, r, newAPIError(http.StatusNotFound, "Cannot %s %s", r.Method, r.URL.Path))
	})
	return mux
}
