// Package web is the checkout's HTTP server: one route table (Server.routes) for the shopper
// pages (catalogue, cart, customer form, checkout sessions' pages, PIX page and its live
// status), the gateway's webhook receiver, the merchant API and its OpenAPI description,
// health checks and static files, with the middleware every response goes through (request id
// and language, access log, panic recovery, security headers, cross-origin protection,
// compression, body limits). The merchant dashboard is package web/dashboard, mounted under
// /dashboard; what both answer with (pages, error pages, the JSON error shape, the request's
// language and id) is package web/respond.
//
// Shopper pages are addressed by unguessable ids in their URLs (/cart/{cartID},
// /pay/{orderID}) and work without cookies, as an embedded checkout must: iframes and Safari
// block third-party cookies. A cookie holding the current cart's id only remembers it at the top
// level, as a convenience.
//
// Pages are rendered by templ (package views) at each request, with the store's face in force
// (it changes when saved in the dashboard). The PIX page depends on the order's state alone, never on the moment it is drawn: its countdown is ticked by
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
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/apikeys"
	"github.com/pixcheckout/pixcheckout/checkout/audit"
	"github.com/pixcheckout/pixcheckout/checkout/charges"
	"github.com/pixcheckout/pixcheckout/checkout/notify"
	"github.com/pixcheckout/pixcheckout/checkout/pos"
	"github.com/pixcheckout/pixcheckout/checkout/subscriptions"
	"github.com/pixcheckout/pixcheckout/gatewayclient/qr"
	"github.com/pixcheckout/pixcheckout/gatewayclient/ratelimit"
	"github.com/pixcheckout/pixcheckout/gatewayclient/webhook"
	"github.com/pixcheckout/pixcheckout/views"
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
	DefaultMaxStreams          = 10_000
	DefaultMaxStreamsPerOrder  = 8
	DefaultMaxStreamsPerClient = 50
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
	// ChangeFeed, when set (PostgreSQL), tells whether this instance hears the changes other
	// instances make (checkout.ChangeFeed), for /readyz: ok, or failing since when.
	ChangeFeed func() (ok bool, since time.Time)
	// Mail, when set, says how sending e-mail goes, for /readyz: "ok", "failing" (the last
	// connection to the SMTP server failed) or "off" (no server configured).
	Mail func() string
	// MailsShopper, when set, tells whether the shopper is sent the e-mail of a kind
	// (settings.ShopperShipped…): the merchant sends it and a server is configured to send it.
	// The paid page promises the tracking code by e-mail only then. Nil: no e-mail is promised.
	MailsShopper func(ctx context.Context, kind string) bool
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
	// of one order, MaxStreamsPerClient those of one client address (an IPv6 one by its /64),
	// so that one client cannot take every stream (defaults DefaultMaxStreams,
	// DefaultMaxStreamsPerOrder and DefaultMaxStreamsPerClient; MaxStreamsPerClient negative:
	// no cap per client). Past a cap the stream is refused with 503 and the page polls its
	// status instead.
	MaxStreams, MaxStreamsPerOrder, MaxStreamsPerClient int
	// WebhookWorkers process webhooks in the background (default 4); WebhookQueue is how many
	// may wait for them (default 256) before the receiver processes inline.
	WebhookWorkers, WebhookQueue int
	// NewCartLimit limits the carts one client address may start (DefaultNewCartLimit; its
	// fields left zero take the default's). Carts cost a row each until retention removes them; a shopper starts
	// a handful. Behind a reverse proxy every shopper has the proxy's address: turn it Off there
	// and limit at the proxy.
	NewCartLimit ratelimit.Rate
	// APIKeys authenticates the merchant API (nil: every API request is refused with 401).
	APIKeys *apikeys.Keys
	// Notifications is the delivery log of the merchant's notifications, read through the API
	// (nil: the API lists none).
	Notifications *notify.DeliveryLog
	// Audit, when set, records the data subjects' requests made through the API.
	Audit *audit.Log

	// Dashboard, when set, is served under dashboard.Path.
	Dashboard *dashboard.Dashboard
	// Observer, when set, is told of what the server does, for metrics.
	Observer Observer
	// TrustedProxies are the reverse proxies whose forwarding headers are believed (the zero
	// value: nobody's): behind them, every per-address limit uses the client they forwarded.
	TrustedProxies respond.Proxies
	// Charges, when set, are the charges with a due date: their customers' pages (/c/{id}) and
	// the merchant API's /api/v1/charges. The Service must be handed the same (its Charges).
	Charges *charges.Manager
	// Subscriptions, when set, are the recurring charges of /api/v1/subscriptions (issuing
	// through Charges).
	Subscriptions *subscriptions.Manager
	// Displays, when set, are the customers' displays of the point of sale (/pos/display).
	Displays *pos.Displays
	// QRImages draws the QR images of attempts stored without one, keeping the last ones (nil:
	// a Server's own). The program gives the one its domain and embedded sandbox draw through.
	QRImages *qr.Images
}

// Observer is told of what the server does, for an operator's metrics; it must be quick and
// must not block.
type Observer interface {
	// WebhookApplied: a webhook received lag ago was applied (ok) or failed.
	WebhookApplied(lag time.Duration, ok bool)
}

// OpenStreams is how many live-status streams are open now.
func (s *Server) OpenStreams() int { return s.streams.count() }

// DefaultNewCartLimit is Options.NewCartLimit's default, 60 a minute in bursts of up to 120
// (as ratelimit.Parse reads "60/min"): a shopper starts a cart or two.
var DefaultNewCartLimit = ratelimit.Rate{Requests: 60, Period: time.Minute, Burst: 120}

// maxLimitedClients is how many client addresses a per-address limit keeps: enough for a busy
// shop; an address whose bucket refilled is forgotten first.
const maxLimitedClients = 100_000

// Server serves the whole checkout: its route table (routes) holds every route, each group
// of handlers with its own dependencies. The shopper pages (catalogue, cart, customer form,
// checkout sessions' pages, PIX page and its live status) are Server's own methods; the
// webhook receiver (webhookReceiver), the merchant API (merchantAPI) and the dashboard
// (package dashboard) are their own structs. Make one with New, serve Handler, and call
// Shutdown when stopping: it ends the SSE streams and drains the webhook queue.
type Server struct {
	svc     *checkout.Service
	site    *respond.Site
	store   Pinger                                      // asked by the readiness check
	feed    func() (ok bool, since time.Time)           // the change feed's state, for the readiness check; nil: none
	mail    func() string                               // the e-mail sending's state, for the readiness check; nil: none
	mails   func(ctx context.Context, kind string) bool // Options.MailsShopper
	sandbox SandboxPayer                                // nil outside sandbox mode
	charges *charges.Manager                            // nil: no charges
	// secureCookies marks the cart cookie Secure (an https public URL).
	secureCookies bool

	// frameAncestors and frameOrigins (nil: none) are who may frame the shopper pages.
	frameAncestors []string
	frameOrigins   func(ctx context.Context) ([]string, error)

	newCarts *ratelimit.Limiter // new carts per client address; nil: no limit
	ceps     *ratelimit.Limiter // anonymous CEP lookups per client address (each may call the CEP service)
	pairings *ratelimit.Limiter // customers' displays' pairing attempts per client address
	displays *pos.Displays      // nil: no customer's display
	clock    func() time.Time   // of the new-cart limit

	qrImages *qr.Images // draws, and keeps, the QR images of attempts stored without one

	// The live status streams: capped by streams, a heartbeat each, and a re-read of the
	// order every recheck when positive. done is closed by Shutdown: the streams watch it, so
	// that http.Server.Shutdown does not wait for them; stopping is canceled then too, to cut a
	// stream's write blocked on a client that reads nothing.
	streams            *streamCounter
	heartbeat, recheck time.Duration
	done               chan struct{}
	doneOnce           sync.Once
	stopping           context.Context
	stop               context.CancelFunc

	webhooks *webhookReceiver
	handler  http.Handler
}

// withDefaults fills the options left unset with their defaults.
func (opts *Options) withDefaults() {
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
	if opts.MaxStreamsPerClient == 0 {
		opts.MaxStreamsPerClient = DefaultMaxStreamsPerClient
	}
	if opts.WebhookWorkers <= 0 {
		opts.WebhookWorkers = 4
	}
	if opts.WebhookQueue <= 0 {
		opts.WebhookQueue = 256
	}
	opts.NewCartLimit = opts.NewCartLimit.Or(DefaultNewCartLimit)
	if opts.QRImages == nil {
		opts.QRImages = qr.NewImages(qrImagesKept)
	}
}

// New returns a Server. Its webhook workers run until Shutdown.
func New(opts Options) (*Server, error) {
	if opts.Site == nil || opts.Site.Log == nil || opts.Service == nil || opts.Store == nil || opts.Assets == nil {
		return nil, errors.New("web: Options.Site (with its Log), Service, Store and Assets are required")
	}
	opts.withDefaults()
	s := &Server{
		svc:            opts.Service,
		site:           opts.Site,
		secureCookies:  strings.HasPrefix(opts.PublicURL, "https://"),
		store:          opts.Store,
		feed:           opts.ChangeFeed,
		mail:           opts.Mail,
		mails:          opts.MailsShopper,
		sandbox:        opts.Sandbox,
		charges:        opts.Charges,
		frameAncestors: opts.FrameAncestors,
		frameOrigins:   opts.FrameOrigins,
		clock:          opts.Clock,
		qrImages:       opts.QRImages,
		displays:       opts.Displays,
		pairings:       ratelimit.NewLimiter(DefaultPairingLimit, maxLimitedClients),
		streams:        newStreamCounter(opts.MaxStreams, opts.MaxStreamsPerOrder, max(opts.MaxStreamsPerClient, 0)),
		heartbeat:      opts.Heartbeat,
		recheck:        opts.Recheck,
		done:           make(chan struct{}),
	}
	s.stopping, s.stop = context.WithCancel(context.Background())
	// A shopper looks up a few CEPs; a client asking by the hundred would pass each on to the
	// CEP service upstream.
	s.ceps = ratelimit.NewLimiter(ratelimit.Rate{Requests: 1, Period: time.Second, Burst: 30}, maxLimitedClients)
	if l := opts.NewCartLimit; !l.Off {
		s.newCarts = ratelimit.NewLimiter(l, maxLimitedClients)
	}
	var verifier *webhook.Verifier
	if opts.WebhookSecret != "" {
		verifier = &webhook.Verifier{Secret: opts.WebhookSecret, Tolerance: opts.WebhookTolerance, Now: opts.Clock}
	}
	s.webhooks = newWebhookReceiver(opts.Service, opts.Site.Log, verifier, opts.WebhookWorkers, opts.WebhookQueue)
	s.webhooks.observer = opts.Observer
	api := &merchantAPI{svc: opts.Service, site: opts.Site, keys: opts.APIKeys, notifications: opts.Notifications,
		publicURL: opts.PublicURL, audit: opts.Audit, charges: opts.Charges,
		subscriptions: opts.Subscriptions}
	var err error
	if api.params, err = documentParams(); err != nil {
		return nil, err
	}
	s.handler = s.routes(opts, api)
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
	})
	return s.webhooks.shutdown(ctx)
}

// routes is the route table of the whole checkout, top to bottom: the middleware every answer
// goes through, then each group of handlers (whose code has its own files). It is long because
// it is the table, a line per route, read in one place.
func (s *Server) routes(opts Options, api *merchantAPI) http.Handler {
	r := chi.NewRouter()
	// HEAD is answered as GET without a body (monitors and link checkers ask for it); pages and
	// JSON are gzipped for clients that accept it (static files come gzipped already, and the
	// event stream is left alone).
	r.Use(respond.Identify, respond.Forwarded(opts.TrustedProxies), s.logRequests, s.recoverPanics, middleware.GetHead,
		s.securityHeaders(strings.HasPrefix(opts.PublicURL, "https://")), s.crossOrigin,
		middleware.Compress(5, "text/html", "application/json"))
	r.NotFound(func(w http.ResponseWriter, r *http.Request) { s.site.Error(w, r, http.StatusNotFound) })
	r.MethodNotAllowed(func(w http.ResponseWriter, r *http.Request) {
		if isAPI(r) { // a method chi does not know is refused here, before the API's routes
			apiMethodNotAllowed(w, r)
			return
		}
		s.site.Error(w, r, http.StatusMethodNotAllowed)
	})

	// Health checks and static files. embed.js has a stable address that merchants' pages
	// load: cached for minutes, not a year.
	r.Get("/healthz", s.healthz)
	r.Get("/readyz", s.readyz)
	r.Get(views.StoreCSSPrefix+"{hash}.css", s.storeCSS)
	r.Handle("/static/*", opts.Assets.Handler())
	r.Method(http.MethodGet, "/embed.js", opts.Assets.Stable("embed.js", EmbedJSMaxAge))

	// The gateway's webhook receiver (webhook.go): called server to server, authenticated by
	// its signature, outside the cross-origin protection (crossOrigin).
	r.Post(WebhookPath, s.webhooks.receive)

	// The shop (shop_cart.go, shop_order.go): catalogue, cart, customer form and its CEP
	// lookup.
	r.Get("/", s.catalogue)
	r.Post("/cart", s.addToNewCart)
	r.Post("/cart/{cartID}/items", s.addToCart)
	r.Post("/cart/{cartID}/checkout", s.placeCartOrder)
	r.Get("/cart/{cartID}", s.cart)
	r.Post("/cart/{cartID}/items/{productID}", s.updateLine)
	r.Get("/cart/{cartID}/checkout", s.cartCheckout)
	r.Get("/cep/{cep}", s.lookupCEP)
	r.Get(ImagePath+"{file}", s.productImage)        // product pictures (images.go)
	r.Get(views.StoreLogoPath+"{file}", s.storeLogo) // the store's logo (images.go)

	// The customer form of a checkout session made through the merchant API (embed_session.go).
	r.Get("/s/{sessionID}", s.sessionForm)
	r.Post("/s/{sessionID}", s.placeSessionOrder)

	// The pages of a payment link (paylink.go): its typed amount and customer form.
	r.Get("/l/{slug}", s.payLink)
	r.Post("/l/{slug}", s.placeLinkOrder)

	// The customer's page of a charge with a due date (charge_page.go): the amount due today,
	// and the day's order.
	r.Get("/c/{chargeID}", s.chargePage)
	r.Post("/c/{chargeID}", s.payCharge)

	// The pages of an order, addressed by its id (pay_page.go, pay_live.go): the PIX page,
	// its QR image, its live status (SSE and JSON), a new QR code, "I have paid", the sandbox
	// payment, the receipt, and the way to the carrier's tracking page.
	r.Get("/pay/{orderID}", s.pixPage)
	r.Get("/pay/{orderID}/qr.png", s.qrImage)
	r.Get("/pay/{orderID}/events", s.events)
	r.Get("/pay/{orderID}/status", s.status)
	r.Post("/pay/{orderID}/new-qr", s.newQR)
	r.Post("/pay/{orderID}/check", s.checkPayment)
	r.Post("/pay/{orderID}/sandbox-pay", s.sandboxPay)
	r.Get("/pay/{orderID}/paid", s.paidPage)
	r.Get("/pay/{orderID}/tracking", s.tracking)

	// The customer's display of the point of sale (pos_display.go): its pairing, its page, its
	// stream and status.
	if s.displays != nil {
		r.Get(DisplayPath, s.displayPage)
		r.Post(DisplayPath, s.pairDisplay)
		r.Get(displayEventsPath, s.displayEvents)
		r.Get(displayStatusPath, s.displayStatus)
	}

	// The merchant API (api*.go): everything under /api answers JSON, unknown routes and
	// methods included; everything but its description needs a key.
	r.Route("/api", func(r chi.Router) {
		r.Use(apiHeaders)
		r.NotFound(func(w http.ResponseWriter, r *http.Request) {
			apiError(w, r, http.StatusNotFound, apiCodeRouteNotFound, "no such API route")
		})
		r.MethodNotAllowed(apiMethodNotAllowed)
		r.Route("/v1", func(r chi.Router) {
			r.With(api.knownParams).Get("/openapi.json", api.openAPI)
			r.Group(func(r chi.Router) {
				r.Use(api.auth, api.knownParams)
				r.Post("/checkout-sessions", api.createSession)
				r.Get("/checkout-sessions/{sessionID}", api.getSession)
				r.Get("/orders", api.listOrders)
				r.Get("/orders/{orderID}", api.getOrder)
				r.Get("/notifications", api.listNotifications)
				r.Get("/notifications/{notificationID}", api.getNotification)
				r.Post("/payment-links", api.createLink)
				r.Get("/payment-links", api.listLinks)
				r.Get("/payment-links/{linkID}", api.getLink)
				r.Patch("/payment-links/{linkID}", api.patchLink)
				if api.charges != nil {
					r.Post("/charges", api.createCharge)
					r.Get("/charges", api.listCharges)
					r.Get("/charges/{chargeID}", api.getCharge)
					r.Post("/charges/{chargeID}/cancel", api.cancelCharge)
				}
				if api.subscriptions != nil {
					r.Post("/subscriptions", api.createSubscription)
					r.Get("/subscriptions", api.listSubscriptions)
					r.Get("/subscriptions/{subscriptionID}", api.getSubscription)
					r.Post("/subscriptions/{subscriptionID}/cancel", api.changeSubscription((*subscriptions.Manager).Cancel))
					r.Post("/subscriptions/{subscriptionID}/pause", api.changeSubscription((*subscriptions.Manager).Pause))
					r.Post("/subscriptions/{subscriptionID}/resume", api.changeSubscription((*subscriptions.Manager).Resume))
				}
				r.With(api.personalDataRight).Post("/data-subjects/search", api.searchSubject)
				r.With(api.personalDataRight).Post("/data-subjects/anonymise", api.anonymiseSubject)
			})
		})
	})

	// The merchant dashboard: its own package, with its own route table, sessions and CSRF.
	if opts.Dashboard != nil {
		r.Mount(dashboard.Path, opts.Dashboard)
	}
	return r
}

// healthz answers 200 while the process serves.
func (s *Server) healthz(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write([]byte("ok\n"))
}

// readiness is the body of /readyz: about this instance (its database), with the gateway's
// state beside it. A gateway outage hits every instance alike: taking them all out of the
// balancer would turn the checkout's honest pages into the proxy's errors, so it never makes
// /readyz fail.
type readiness struct {
	Status       string `json:"status"`                 // "ready" or "unavailable"
	Database     string `json:"database"`               // "ok" or "failing"
	Gateway      string `json:"gateway"`                // "ok" or "failing"
	GatewayCause string `json:"gatewayCause,omitempty"` // why it fails: unreachable, timeout, credentials, forbidden, not_found, server_error
	GatewaySince string `json:"gatewaySince,omitempty"` // since when it fails
	// ChangeFeed says whether this instance hears the changes the other instances make
	// (PostgreSQL only): "ok", or "failing" since ChangeFeedSince. While it fails the instance
	// still serves (its own changes, re-reads), but live pages miss payments applied elsewhere.
	ChangeFeed      string `json:"changeFeed,omitempty"`
	ChangeFeedSince string `json:"changeFeedSince,omitempty"`
	// Mail is "ok", "failing" or "off" (no SMTP server configured): e-mails wait in the outbox
	// while it fails, so it never makes /readyz fail.
	Mail string `json:"mail,omitempty"`
}

// readyz answers 200 while the database answers, 503 otherwise, with a JSON body that also
// says whether the gateway works (see readiness).
func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	body := readiness{Status: "ready", Database: "ok", Gateway: "ok"}
	if gw := s.site.GatewayState(); !gw.OK {
		body.Gateway, body.GatewayCause = "failing", string(gw.Cause)
		if !gw.Since.IsZero() {
			body.GatewaySince = gw.Since.UTC().Format(time.RFC3339)
		}
	}
	if s.feed != nil {
		body.ChangeFeed = "ok"
		if ok, since := s.feed(); !ok {
			body.ChangeFeed, body.ChangeFeedSince = "failing", since.UTC().Format(time.RFC3339)
		}
	}
	if s.mail != nil {
		body.Mail = s.mail()
	}
	status := http.StatusOK
	if err := s.store.Ping(ctx); err != nil {
		s.site.Log.WarnContext(ctx, "readiness: database", "err", err)
		status, body.Status, body.Database = http.StatusServiceUnavailable, "unavailable", "failing"
	}
	respond.JSON(w, status, body)
}
