// Package web is the checkout's HTTP layer: the shopper pages (catalogue, cart, customer form,
// PIX page and its live status), the gateway's webhook receiver, health checks and the
// middleware every response goes through (request id and language, access log, panic
// recovery, security headers, cross-origin protection, compression, body limits).
//
// Shopper pages are addressed by unguessable ids in their URLs (/cart/{cartID},
// /pay/{orderID}) and work without cookies, as an embedded checkout must: iframes and Safari
// block third-party cookies. A session cookie only remembers the current cart at the top level
// as a convenience.
//
// Pages are rendered by templ (package views) at each request, but for the PIX page of a cart's
// order, kept whole per order version and language (pixPages). The PIX page depends on the
// order's state alone, never on the moment it is drawn: its countdown is ticked by
// static/files/pix.js on the server's clock, which every live status message carries (now,
// expiresAt). The live status is a Server-Sent Events stream per open page, each served by its
// request's goroutine and capped per order and per process, with the status JSON as the
// polling fallback.
//
// Every request's access line, like every other log line, goes through Options.Site.Log (a
// slog.JSONHandler in the program), written before the response's last bytes leave: a request
// answered has its line in the log. Only route patterns are logged, never ids, queries,
// headers or bodies.
package web

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/alexedwards/scs/v2"
	"github.com/alexedwards/scs/v2/memstore"
	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/merchant"
	"github.com/pixcheckout/pixcheckout/gatewayclient/qr"
	"github.com/pixcheckout/pixcheckout/gatewayclient/webhook"
	"github.com/pixcheckout/pixcheckout/web/dashboard"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// WebhookPath is the path of the gateway's webhook receiver.
const WebhookPath = checkout.WebhookPath

// DefaultHeartbeat is the interval of the SSE heartbeat comments: short enough that proxies
// do not close an idle stream, and that a vanished client is noticed.
const DefaultHeartbeat = 15 * time.Second

// EmbedJSMaxAge is how long browsers may keep /embed.js before revalidating it.
const EmbedJSMaxAge = 5 * time.Minute

// Default caps of the SSE streams (see Options.MaxStreams).
const (
	DefaultMaxStreams         = 10_000
	DefaultMaxStreamsPerOrder = 8
)

// SandboxPayer pays a deposit through the sandbox gateway's simulation control. It exists only
// in sandbox mode; web never imports the sandbox itself.
type SandboxPayer interface {
	Pay(ctx context.Context, transactionID string) error
}

// Pinger tells whether the database answers (the readiness check).
type Pinger interface {
	Ping(ctx context.Context) error
}

// Assets resolves and serves the static files (*static.Assets).
type Assets interface {
	Path(name string) string
	Handler() http.Handler
	// Stable serves one file at a fixed URL, cached for maxAge (embed.js).
	Stable(name string, maxAge time.Duration) http.Handler
}

// Options are the dependencies and settings of a Server. Site, Service, Store and Assets are
// required.
type Options struct {
	// Site is what every page shares (the merchant's name, the static files' names, sandbox
	// mode, the payee) and the log: the access log, one line a request, and errors.
	Site    *respond.Site
	Service *checkout.Service
	Store   Pinger
	Assets  Assets
	// Sandbox is set in sandbox mode only (with Site.Sandbox): the PIX page then offers
	// sandbox-pay.
	Sandbox SandboxPayer
	// WebhookSecret verifies webhook signatures; empty accepts unsigned webhooks (use only
	// when the gateway cannot sign).
	WebhookSecret string
	// WebhookTolerance is the accepted distance of a webhook's timestamp (default 5 minutes).
	WebhookTolerance time.Duration
	// Clock is the time used to verify webhook timestamps (default time.Now).
	Clock func() time.Time
	// FrameAncestors are the origins allowed to embed the pages (CSP frame-ancestors).
	FrameAncestors []string
	// FrameOrigins, when set, returns more origins allowed to embed the shopper pages (the
	// merchant's settings), asked on every answer: it must be fast (cached). On an error the
	// origins it returns are used and the error is logged.
	FrameOrigins func(ctx context.Context) ([]string, error)
	// PublicURL is the checkout's public address; https turns on HSTS and Secure cookies.
	PublicURL string
	// Heartbeat is the SSE heartbeat interval (default DefaultHeartbeat).
	Heartbeat time.Duration
	// Recheck, when positive, is how often each SSE stream re-reads its order from the store:
	// for instances sharing a database whose changes do not reach each other's Service (status
	// events reach the streams of the process that made the change, or those the Service is
	// told of with Changed). Zero: streams wait for events only, with no timer of their own.
	Recheck time.Duration
	// MaxStreams caps the SSE streams open at once in this process, MaxStreamsPerOrder those
	// of one order (defaults DefaultMaxStreams and DefaultMaxStreamsPerOrder). Past a cap the
	// stream is refused with 503 and the page polls its status instead.
	MaxStreams, MaxStreamsPerOrder int
	// WebhookWorkers process webhooks in the background (default 4); WebhookQueue is how many
	// may wait for them (default 256) before the receiver processes inline.
	WebhookWorkers, WebhookQueue int
	// NewCartLimit limits the carts one client address may start (default 60 a minute, in
	// bursts of up to 60). Carts cost a row each until retention removes them; a shopper starts
	// a handful. Behind a reverse proxy every shopper has the proxy's address: turn it Off there
	// and limit at the proxy.
	NewCartLimit Rate
	// APIKeys authenticates the merchant API (nil: every API request is refused with 401).
	APIKeys *merchant.Keys
	// Notifications is the delivery log of the merchant's notifications, read through the API
	// (nil: the API lists none).
	Notifications *merchant.DeliveryLog

	// Dashboard, when set, is served under dashboard.Path.
	Dashboard *dashboard.Dashboard
	// QRImages draws the QR images of attempts stored without one, keeping the last ones (nil:
	// a Server's own). The program gives the one its domain and embedded sandbox draw through.
	QRImages *qr.Images
	// Sessions keeps the sessions of the shopper pages (default: in memory, for tests; the
	// program gives the database's, so that a restart or another instance keeps them).
	Sessions scs.Store
}

// Rate is a limit of N events every Per, in bursts of up to N. The zero Rate means "the
// default"; Off means no limit.
type Rate struct {
	N   int
	Per time.Duration
	Off bool
}

// Server holds the handlers' dependencies. Make one with New, serve Handler, and call Shutdown
// when stopping: it ends the SSE streams and drains the webhook queue.
type Server struct {
	opts     Options
	svc      *checkout.Service
	log      *slog.Logger
	site     *respond.Site
	sessions *scs.SessionManager
	verifier *webhook.Verifier
	handler  http.Handler

	// done is closed by Shutdown: SSE streams watch it, so that http.Server.Shutdown does not
	// wait for them; stopping is canceled then too, to cut a stream's write blocked on a client
	// that reads nothing.
	done     chan struct{}
	doneOnce sync.Once
	stopping context.Context
	stop     context.CancelFunc
	streams  *streamCounter

	hooks       chan webhookJob
	hooksMu     sync.RWMutex // guards closing hooks against concurrent sends
	hooksClosed bool
	workers     sync.WaitGroup
	seen        *recentIDs

	newCarts *keyedLimiter // new carts per client address; nil: no limit

	qrImages *qr.Images // draws, and keeps, the QR images of attempts stored without one
	pixPages *pixPages  // the PIX pages last rendered
}

// New returns a Server. Its webhook workers run until Shutdown.
func New(opts Options) (*Server, error) {
	if opts.Site == nil || opts.Site.Log == nil || opts.Service == nil || opts.Store == nil || opts.Assets == nil {
		return nil, errors.New("web: Options.Site (with its Log), Service, Store and Assets are required")
	}
	if opts.Clock == nil {
		opts.Clock = time.Now
	}
	if opts.Heartbeat <= 0 {
		opts.Heartbeat = DefaultHeartbeat
	}
	if opts.MaxStreams <= 0 {
		opts.MaxStreams = DefaultMaxStreams
	}
	if opts.MaxStreamsPerOrder <= 0 {
		opts.MaxStreamsPerOrder = DefaultMaxStreamsPerOrder
	}
	if opts.WebhookWorkers <= 0 {
		opts.WebhookWorkers = 4
	}
	if opts.WebhookQueue <= 0 {
		opts.WebhookQueue = 256
	}
	if l := opts.NewCartLimit; !l.Off && (l.N <= 0 || l.Per <= 0) {
		opts.NewCartLimit = Rate{N: 60, Per: time.Minute}
	}
	s := &Server{
		opts:     opts,
		svc:      opts.Service,
		log:      opts.Site.Log,
		done:     make(chan struct{}),
		hooks:    make(chan webhookJob, opts.WebhookQueue),
		seen:     newRecentIDs(4096),
		streams:  newStreamCounter(opts.MaxStreams, opts.MaxStreamsPerOrder),
		pixPages: newPixPages(),
		site:     opts.Site,
	}
	s.qrImages = opts.QRImages
	if s.qrImages == nil {
		s.qrImages = qr.NewImages(qrImagesKept)
	}
	s.stopping, s.stop = context.WithCancel(context.Background())
	if l := opts.NewCartLimit; !l.Off {
		// Enough addresses for a busy shop; an address whose bucket refilled is forgotten first.
		s.newCarts = newKeyedLimiter(l.Per/time.Duration(l.N), l.N, 100_000)
	}
	if opts.WebhookSecret != "" {
		s.verifier = &webhook.Verifier{Secret: opts.WebhookSecret, Tolerance: opts.WebhookTolerance, Now: opts.Clock}
	}
	if opts.Sessions == nil {
		// No cleanup goroutine: it could not be stopped, and a test's sessions die with it.
		opts.Sessions = memstore.NewWithCleanupInterval(0)
		s.opts.Sessions = opts.Sessions
	}
	s.sessions = scs.New()
	s.sessions.Store = opts.Sessions
	// A shopper's session only points at the current cart, for a day. No idle timeout: with
	// one, every page read would rewrite the session in the database.
	s.sessions.Lifetime = 24 * time.Hour
	s.sessions.Cookie.Name = "checkout_session"
	s.sessions.Cookie.HttpOnly = true
	s.sessions.Cookie.SameSite = http.SameSiteLaxMode
	s.sessions.Cookie.Secure = strings.HasPrefix(opts.PublicURL, "https://")
	s.sessions.Cookie.Persist = false
	s.sessions.ErrorFunc = func(w http.ResponseWriter, r *http.Request, err error) {
		s.log.ErrorContext(r.Context(), "session", "err", err)
		s.site.Error(w, r, http.StatusInternalServerError)
	}
	for range opts.WebhookWorkers {
		s.workers.Add(1)
		go s.webhookWorker()
	}
	s.handler = s.routes()
	return s, nil
}

// Handler returns the checkout's routes with their middleware.
func (s *Server) Handler() http.Handler { return s.handler }

// Done is closed when Shutdown starts; long-lived responses end then.
func (s *Server) Done() <-chan struct{} { return s.done }

// Shutdown ends the SSE streams, stops taking webhooks into the queue and waits for the
// queued ones to be processed (or for ctx to end). Call it when the HTTP server starts its own
// shutdown, so that open streams do not hold it up.
func (s *Server) Shutdown(ctx context.Context) error {
	s.doneOnce.Do(func() {
		close(s.done)
		s.stop()
		s.hooksMu.Lock()
		s.hooksClosed = true
		close(s.hooks)
		s.hooksMu.Unlock()
	})
	finished := make(chan struct{})
	go func() {
		s.workers.Wait()
		close(finished)
	}()
	select {
	case <-finished:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// routes is the route table.
func (s *Server) routes() http.Handler {
	r := chi.NewRouter()
	// HEAD is answered as GET without a body (monitors and link checkers ask for it); pages and
	// JSON are gzipped for clients that accept it (static files come gzipped already, and the
	// event stream is left alone).
	r.Use(respond.Identify, s.logRequests, s.recoverPanics, middleware.GetHead, s.securityHeaders, s.crossOrigin,
		middleware.Compress(5, "text/html", "application/json"))
	r.NotFound(func(w http.ResponseWriter, r *http.Request) { s.site.Error(w, r, http.StatusNotFound) })
	r.MethodNotAllowed(func(w http.ResponseWriter, r *http.Request) {
		if isAPI(r) { // a method chi does not know is refused here, before the API's routes
			s.apiMethodNotAllowed(w, r)
			return
		}
		s.site.Error(w, r, http.StatusMethodNotAllowed)
	})

	r.Get("/healthz", s.healthz)
	r.Get("/readyz", s.readyz)
	r.Handle("/static/*", s.opts.Assets.Handler())
	// embed.js has a stable address that merchants' pages load: cached for minutes, not a year.
	r.Method(http.MethodGet, "/embed.js", s.opts.Assets.Stable("embed.js", EmbedJSMaxAge))
	// Each group of handlers has its own files and its own part of the route table.
	s.webhookRoutes(r)
	s.shopRoutes(r)
	s.payRoutes(r)
	s.apiRoutes(r)
	s.sessionRoutes(r)
	if s.opts.Dashboard != nil {
		r.Mount(dashboard.Path, s.opts.Dashboard)
	}
	return r
}

// healthz answers 200 while the process serves.
func (s *Server) healthz(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write([]byte("ok\n"))
}

// readyz answers 200 when the database answers, 503 otherwise.
func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	if err := s.opts.Store.Ping(ctx); err != nil {
		s.log.WarnContext(ctx, "readiness: database", "err", err)
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte("database unavailable\n"))
		return
	}
	_, _ = w.Write([]byte("ready\n"))
}
