// Package app wires the checkout together: store, domain service, gateway client (or the
// embedded sandbox gateway), reconciler and HTTP server. cmd/checkout runs it; browser tests
// start a whole app in-process with it.
//
// With no gateway URL configured, the sandbox gateway is mounted under SandboxPrefix of the
// same server and reached over real HTTP by the gateway client, so that the client's production
// code path is the one used; its webhooks are delivered to the checkout's own receiver. The
// caller opens the listener first and hands it to New, so that everything is wired with the
// server's own address from the start.
package app

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"github.com/pixcheckout/pixcheckout/checkout/brand"
	"github.com/pixcheckout/pixcheckout/checkout/charges"
	"github.com/pixcheckout/pixcheckout/checkout/mail/chargemail"
	"github.com/pixcheckout/pixcheckout/checkout/subscriptions"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/apikeys"
	"github.com/pixcheckout/pixcheckout/checkout/audit"
	"github.com/pixcheckout/pixcheckout/checkout/cep"
	"github.com/pixcheckout/pixcheckout/checkout/exports"
	"github.com/pixcheckout/pixcheckout/checkout/mail"
	"github.com/pixcheckout/pixcheckout/checkout/notify"
	"github.com/pixcheckout/pixcheckout/checkout/pos"
	"github.com/pixcheckout/pixcheckout/checkout/postgres"
	"github.com/pixcheckout/pixcheckout/checkout/sealed"
	"github.com/pixcheckout/pixcheckout/checkout/settings"
	"github.com/pixcheckout/pixcheckout/checkout/sqlite"
	"github.com/pixcheckout/pixcheckout/checkout/team"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/brcode"
	"github.com/pixcheckout/pixcheckout/gatewayclient/health"
	"github.com/pixcheckout/pixcheckout/gatewayclient/outbox"
	"github.com/pixcheckout/pixcheckout/gatewayclient/qr"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sqlmigrate"
	"github.com/pixcheckout/pixcheckout/gatewayclient/webhook"
	"github.com/pixcheckout/pixcheckout/static"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/web"
	"github.com/pixcheckout/pixcheckout/web/alerts"
	"github.com/pixcheckout/pixcheckout/web/apijson"
	"github.com/pixcheckout/pixcheckout/web/dashboard"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// SandboxPrefix is the path under which the embedded sandbox gateway is mounted.
const SandboxPrefix = "/sandbox/gateway"

// Server timeouts. SSE streams extend their own write deadline per event.
const (
	readHeaderTimeout = 10 * time.Second
	readTimeout       = 30 * time.Second
	writeTimeout      = 30 * time.Second
	idleTimeout       = 120 * time.Second
	shutdownTimeout   = 15 * time.Second
)

// sandboxClientID is the API client the checkout uses on its embedded sandbox.
const sandboxClientID = "checkout"

// closingStore is a checkout store the app owns and closes, with the merchant side's stores it
// also holds (checkout sessions, API keys, settings, the notifications' outbox, the dashboard's
// users, sign-in throttling and sessions).
type closingStore interface {
	checkout.Store
	checkout.CheckoutSessionStore
	apikeys.Store
	settings.Store
	team.UserStore
	team.ThrottleStore
	team.InvitationStore
	audit.Store
	team.SignInStore
	team.TOTPStore
	exports.Store
	team.PasswordResetStore
	team.AlertStore
	checkout.PersonalDataStore
	pos.Store  // the point of sale's terminals, cashiers' terminals and settings
	mail.Store // the e-mails' suppression list, and messages no other change causes
	brand.Store
	charges.Store
	subscriptions.Store
	pos.DisplayStore // the customers' displays of the point of sale
	SignInTokens() team.SignInTokenStore
	// CheckSecrets fails, changing nothing, when a sealed secret does not open with the keys.
	CheckSecrets(ctx context.Context) error
	// Outbox returns the notifications' outbox in the store's database.
	Outbox(o outbox.Options) (*outbox.Outbox, error)
	// UseKeys and ResealSecrets: the secrets kept in the database are sealed (checkout/sealed).
	UseKeys(k *sealed.Keys)
	ResealSecrets(ctx context.Context) (int, error)
	Close() error
}

// App is a running checkout. Make it with New, run it with Serve, release it with Close.
type App struct {
	cfg       Config
	log       *slog.Logger
	ln        net.Listener
	self      string // the loopback URL of ln
	store     closingStore
	lock      *dirLock // the data dir's, nil when the data dir holds nothing
	svc       *checkout.Service
	web       *web.Server
	gateway   *gatewayclient.Client
	health    *health.Monitor // the gateway's state, from every call and the idle probe
	metrics   *metrics        // nil without CHECKOUT_METRICS_ADDR
	metricsLn net.Listener    // the metrics' own listener, nil without them
	// checkingGateway is set during the start-up check, whose failure is one line of its own.
	checkingGateway atomic.Bool
	sandbox         *sandbox.Sandbox // nil with a real gateway
	clock           func() time.Time // the shop's business time: the sandbox's when embedded
	merchant        merchantSide
	alertPrefs      *team.Alerts   // the users' alert preferences
	alerts          *alerts.Alerts // the merchant's alerts: announced changes, the scheduler
	mail            mailSide
	brand           *brand.Manager   // the store's face shoppers see
	charges         *charges.Manager // the charges with a due date, and their orders' payments
	pos             *pos.Manager     // the point of sale's terminals and settings
	subscriptions   *subscriptions.Manager
	displays        *pos.Displays // the customers' displays of the point of sale
	// qrImages draws the QR images: shared with the embedded sandbox, so that the checkout's
	// image of a BR Code is the one the sandbox just drew for it, not a second drawing.
	qrImages *qr.Images

	accounts  *team.Accounts   // the dashboard's users
	audit     *audit.Log       // who changed what
	firstUser *firstUser       // made at this start with a random password, printed once by the banner
	exports   *exports.Manager // the dashboard's background exports
	dash      *dashboard.Dashboard
	// stopExports stops the background exports' workers and waits for them (each ends its job
	// as failed: the server stopped).
	stopExports context.CancelFunc

	clientID, clientSecret, webhookSecret string
	secretSource                          string        // where the client secret comes from, for the banner
	writeTimeout                          time.Duration // the server's; tests shorten it
	drain                                 drainer

	ready    chan struct{}
	served   atomic.Bool
	bg       sync.WaitGroup
	closeErr error
	once     sync.Once
}

// qrImagesKept is how many QR images the app keeps: each is needed from the sandbox's answer to
// the checkout's drawing, moments later, so a few hundred cover many concurrent orders in
// ≈ 300 KB.
const qrImagesKept = 256

// New opens the store (running its migrations), seeds the demo catalogue, opens the embedded
// sandbox when no gateway is configured, and builds the gateway client, the domain service and
// the HTTP handlers, for a server on ln (whose address the embedded sandbox is reached at). The
// app owns ln from then on: Serve serves on it, and Close closes it when Serve never ran.
func New(ctx context.Context, cfg Config, ln net.Listener) (a *App, err error) {
	defer func() { err = cfg.named(err) }()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.PublicURL == "" {
		cfg.PublicURL = boundURL(ln.Addr())
	}
	logOut := cfg.LogOutput
	if logOut == nil {
		logOut = io.Discard
	}
	a = &App{cfg: cfg, log: slog.New(slog.NewJSONHandler(logOut, nil)), ln: ln, self: loopbackURL(ln.Addr()),
		ready: make(chan struct{}), writeTimeout: writeTimeout, qrImages: qr.NewImages(qrImagesKept)}
	s := &start{App: a}
	defer func() {
		if err != nil {
			for i := len(s.closers) - 1; i >= 0; i-- {
				_ = s.closers[i]()
			}
		}
	}()
	for _, step := range []func(context.Context) error{
		s.dataDir,
		s.openStore,
		s.sealSecrets,
		s.seedCatalogue,
		s.pickGateway,
		s.openMetrics,
		s.openGateway,
		s.merchantSide,
		s.newService,
		s.seedStoreFace,
		a.setupAccounts,
		s.handlers,
	} {
		if err := step(ctx); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// start is New's work in progress: the app being wired, and what its steps hand on to the
// later ones.
type start struct {
	*App
	closers  []func() error // what the steps opened, closed in reverse order when a later one fails
	keys     *sealed.Keys   // the secret keys sealing the database's secrets
	freshKey string         // a key made at this start, not yet in the key file
	base     string         // the gateway's base URL: the configured one, or the embedded sandbox's
}

// dataDir makes the data dir, readable by the server's user alone, and locks it when it holds
// the SQLite store or the embedded sandbox's state.
func (s *start) dataDir(context.Context) error {
	dir := s.cfg.DataDir
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("app: data dir: %w", err)
	}
	// What the data dir holds is for the server's user alone (bearer secrets are kept hashed,
	// other secrets sealed, but orders hold personal data).
	if changed, err := ownerOnly(dir); err != nil {
		return err
	} else if len(changed) > 0 {
		s.log.Warn("data dir made readable by its owner only", "changed", changed)
	}
	// With PostgreSQL and a real gateway the data dir holds nothing, and several instances may
	// share it.
	if s.cfg.DatabaseURL != "" && !s.cfg.Sandbox() {
		return nil
	}
	var err error
	if s.lock, err = lockDataDir(dir); err != nil {
		return err
	}
	s.closers = append(s.closers, s.lock.Close)
	return nil
}

// openStore opens the store with the server's secret keys.
func (s *start) openStore(ctx context.Context) error {
	var err error
	if s.keys, s.freshKey, err = serverSecretKeys(s.cfg); err != nil {
		return err
	}
	store, err := openStoreWith(ctx, s.cfg, func(Config) (*sealed.Keys, error) { return s.keys, nil }, s.feedChanged)
	if err != nil {
		return err
	}
	s.store = store
	s.closers = append(s.closers, store.Close)
	if pg, ok := store.(*postgres.Store); ok {
		// LISTEN/NOTIFY and the reconciler's lease need a session connection: through a
		// pooler in transaction mode they fail without a word (no live update crosses
		// instances, two reconcilers run), so the start stops instead.
		if err := pg.CheckSession(ctx); err != nil {
			return &ConfigError{Var: "CHECKOUT_DATABASE_DIRECT_URL", Msg: "must reach PostgreSQL itself with session connections " +
				"(not PgBouncer's transaction pooling), for LISTEN/NOTIFY and the reconciler's lease; unset, it is CHECKOUT_DATABASE_URL: " + err.Error()}
		}
	}
	return nil
}

// sealSecrets checks that every secret the database holds opens with the keys before anything
// is written: a database sealed by another key (another instance's, or a key file deleted)
// stops the start here, leaving no key file behind that would seal new secrets with a key
// nobody else holds. Then a fresh key goes to the key file, and secrets sealed with a key that
// is no longer the first (a rotation) are sealed with the first.
func (s *start) sealSecrets(ctx context.Context) error {
	if err := s.store.CheckSecrets(ctx); err != nil {
		return secretKeyRefusal(s.cfg, s.keys, s.freshKey != "", err)
	}
	if s.freshKey != "" {
		if _, err := sealed.CreateFile(filepath.Join(s.cfg.DataDir, sealed.FileName), s.freshKey); err != nil {
			return fmt.Errorf("app: secret key: %w", err)
		}
	}
	n, err := s.store.ResealSecrets(ctx)
	if err != nil {
		return secretKeyRefusal(s.cfg, s.keys, false, err)
	}
	if n > 0 {
		s.log.Info("secrets sealed with the first secret key", "count", n)
	}
	return nil
}

// seedCatalogue gives an empty shop the demo catalogue.
func (s *start) seedCatalogue(ctx context.Context) error {
	if err := checkout.SeedDemoCatalogue(ctx, s.store); err != nil {
		return fmt.Errorf("app: seeding the catalogue: %w", err)
	}
	return nil
}

// pickGateway picks the gateway's credentials and base URL: the configured ones, or the
// embedded sandbox's, which it opens.
func (s *start) pickGateway(ctx context.Context) error {
	s.clientID, s.clientSecret, s.webhookSecret = s.cfg.GatewayClientID, s.cfg.GatewayClientSecret, s.cfg.GatewayWebhookSecret
	s.base = s.cfg.GatewayURL
	if !s.cfg.Sandbox() {
		return nil
	}
	if err := s.sandboxCredentials(); err != nil {
		return err
	}
	var err error
	if s.sandbox, err = s.openSandbox(ctx); err != nil {
		return err
	}
	s.closers = append(s.closers, s.sandbox.Close)
	s.base = s.self + SandboxPrefix
	return nil
}

// openMetrics opens the metrics' own listener and registry, when CHECKOUT_METRICS_ADDR is set.
func (s *start) openMetrics(context.Context) error {
	var err error
	if s.metricsLn, err = listenMetrics(s.cfg); err != nil || s.metricsLn == nil {
		return err
	}
	s.closers = append(s.closers, func() error { return s.metricsLn.Close() })
	a := s.App
	streams := func() int {
		if a.web == nil {
			return 0
		}
		return a.web.OpenStreams()
	}
	backlog := func(ctx context.Context) (int, error) { return a.merchant.outbox.Backlog(ctx) }
	a.metrics, err = newMetrics(prometheus.NewRegistry(), func() bool { return a.health.State().OK }, streams, backlog, a.changeFeedState())
	return err
}

// openGateway builds the gateway client and the follower of the gateway's state; a real
// gateway is checked before anything is served: a wrong URL, path prefix or secret stops the
// start with one line naming it. (The embedded sandbox answers on this very server, which does
// not serve yet.)
func (s *start) openGateway(ctx context.Context) error {
	var err error
	if s.health, err = s.newHealth(s.base); err != nil {
		return fmt.Errorf("app: gateway health: %w", err)
	}
	if s.gateway, err = gatewayclient.New(s.base, s.clientID, s.clientSecret, gatewayclient.WithTimeout(20*time.Second),
		gatewayclient.WithHTTPClient(&http.Client{Transport: s.gatewayTransport()})); err != nil {
		return fmt.Errorf("app: gateway client: %w", err)
	}
	if !s.cfg.Sandbox() {
		if err := s.checkGateway(ctx); err != nil {
			return err
		}
		s.warnWebhookSecret()
	}
	// With the embedded sandbox the shop runs on the sandbox's business time, so that advancing
	// its clock expires QR codes on both sides and countdowns agree with its expiry dates.
	// Webhook signatures stay on real time: they are about delivery, not business.
	s.clock = s.cfg.Clock
	if s.clock == nil && s.sandbox != nil {
		s.clock = s.sandbox.Now
	}
	return nil
}

// merchantSide wires what the app does for merchants (setupMerchant).
func (s *start) merchantSide(ctx context.Context) error {
	if err := s.setupMerchant(ctx); err != nil {
		return err
	}
	s.closers = append(s.closers, s.closeMerchant)
	return nil
}

// newService builds the domain service. Every change reaches this process's snapshots and
// live pages: on SQLite this process makes them all; on PostgreSQL the database announces
// those of the other instances (checkout.ChangeFeed, followed in Serve).
func (s *start) newService(ctx context.Context) error {
	// The key of the personal data's hashes is made at the first start and kept in the database.
	personalKey, err := checkout.LoadPersonalDataKey(ctx, s.store, time.Now())
	if err != nil {
		return fmt.Errorf("app: %w", err)
	}
	a := s.App
	a.audit = audit.New(a.store, a.cfg.AuditRetention, a.cfg.Clock)
	// A charge's changes are notified as an order's: signed, through the merchant's outbox; its
	// creation also writes its customer's e-mail reminders, each due at its moment.
	a.charges = charges.NewManager(a.store, a.audit, a.clock, charges.WithAnnouncer(charges.Announcers{
		&notify.ChargeAnnouncer{Charge: apijson.ChargeEvent(a.cfg.PublicURL), Wake: a.merchant.outbox.Wake,
			PersonalData: a.merchant.settings.NotifyPersonalData},
		&chargemail.Announcer{Composer: a.mail.composer, Schedule: a.merchant.settings.ChargeReminders, Face: a.shopperFace,
			Wake: a.mail.outbox.Wake},
	}))
	// Each subscription's charge is issued through the charges' manager, so notified, audited
	// and reminded as any charge; the issuer rests between batches so that shoppers' writes go
	// first, and on PostgreSQL, whose writers run side by side, issues several at once.
	issuers := 1
	if _, ok := a.store.(*postgres.Store); ok {
		issuers = postgresIssuers
	}
	a.subscriptions = subscriptions.NewManager(a.store, a.charges, a.audit, a.clock,
		subscriptions.WithLeadDays(a.merchant.settings.SubscriptionLeadDays), subscriptions.WithPause(issuePause),
		subscriptions.WithWorkers(issuers))
	a.pos = pos.NewManager(a.store, a.clock)
	a.svc = checkout.NewService(a.store, a.gateway, checkout.ServiceOptions{
		PublicURL:    a.cfg.PublicURL,
		MerchantName: a.cfg.MerchantName,
		Seller:       a.seller,
		CEP:          cepProvider(a.cfg),
		Clock:        a.clock,
		Logger:       a.log,
		QRImage:      func(code string) ([]byte, error) { return web.QRImageFrom(a.qrImages, code) },
		// Every change's messages: the merchant's notifications, then the e-mails.
		Announcer:  checkout.Announcers{a.merchant.announcer, a.mail.shopper, a.alerts},
		Shipping:   a.merchant.settings.Shipping,
		FetchImage: imageFetcher(),
		GatewayUp:  a.gatewayUp,
		Observer:   a.domainObserver(),

		ShopperGatewayTimeout: a.cfg.ShopperGatewayTimeout,
		PersonalDataKey:       personalKey,
		// A charge's customer is found, exported and anonymised with the orders.
		PersonalDataHolders: []checkout.PersonalDataHolder{a.charges, a.subscriptions},
		Charges:             a.charges,
		SaleQRSeconds:       a.saleQRSeconds,
	})
	return nil
}

// handlers builds the HTTP side: the dashboard, with its background exports, and the server
// of every other page and API.
func (s *start) handlers(context.Context) error {
	a, cfg := s.App, s.cfg
	assets := static.New()
	site := &respond.Site{Log: a.log, Brand: a.brand, Assets: assets, Sandbox: cfg.Sandbox(), Gateway: a.health.State}
	a.displays = pos.NewDisplays(a.store, a.pos, a.clock)
	a.displays.OnRevoke(a.displayRevoked)
	dash, err := s.newDashboard(site)
	if err != nil {
		return err
	}
	a.dash = dash
	var payer web.SandboxPayer
	if cfg.Sandbox() {
		payer = sandboxPayer{a.gateway}
	}
	a.web, err = web.New(web.Options{
		ChangeFeed:     a.changeFeedState(),
		Site:           site,
		Service:        a.svc,
		Store:          a.store,
		Assets:         assets,
		Sandbox:        payer,
		WebhookSecret:  a.webhookSecret,
		Clock:          cfg.Clock,
		FrameAncestors: cfg.FrameAncestors,
		PublicURL:      cfg.PublicURL,
		Heartbeat:      cfg.SSEHeartbeat,
		QRImages:       a.qrImages,
		NewCartLimit:   cfg.NewCartLimit,
		// 0 (off) in the configuration is "no cap" for the server, whose zero is the default.
		MaxStreamsPerClient: cmp.Or(cfg.StreamsPerClient, -1),
		APIKeys:             a.merchant.keys,
		FrameOrigins:        a.merchant.settings.FrameOrigins,
		Notifications:       a.merchant.log,
		Audit:               a.audit,
		Charges:             a.charges,
		Subscriptions:       a.subscriptions,
		Displays:            a.displays,
		Dashboard:           dash,
		Mail:                a.mail.sender.State,
		MailsShopper:        a.mailsShopper,
		TrustedProxies:      cfg.TrustedProxies,
		Observer:            a.webObserver(),
	})
	return err
}

// newDashboard builds the dashboard on site, with its background exports (stopped by
// App.stopExports).
func (s *start) newDashboard(site *respond.Site) (*dashboard.Dashboard, error) {
	a, cfg := s.App, s.cfg
	exportsCtx, stopExports := context.WithCancel(context.Background())
	a.exports = exports.NewManager(a.store, cfg.Clock)
	dash, err := dashboard.New(dashboard.Options{
		Site:          site,
		Service:       a.svc,
		Accounts:      a.accounts,
		Gateway:       a.gateway,
		Settings:      a.merchant.settings,
		Keys:          a.merchant.keys,
		Notifications: a.merchant.log,
		Audit:         a.audit,
		Sessions:      a.store.SignInTokens(),
		SecretKeys:    s.keys,
		PublicURL:     cfg.PublicURL,
		Exports:       a.exports,
		Context:       exportsCtx,
		DataDir:       cfg.DataDir,

		Mail:           a.mail.log,
		MailComposer:   a.mail.composer,
		MailConfigured: a.mail.server != nil,
		Alerts:         a.alertPrefs,
		ExportReady:    a.alerts.ExportReady,
		Charges:        a.charges,
		Subscriptions:  a.subscriptions,
		POS:            a.pos,
		Displays:       a.displays,
		ReceiptMail:    a.mail.shopper.Receipt,
	})
	if err != nil {
		stopExports()
		return nil, err
	}
	a.stopExports = func() {
		stopExports()
		dash.WaitExports()
	}
	return dash, nil
}

// saleQRSeconds is how long the QR code of a sale at the counter lives: the point of sale's
// setting, or its default when it cannot be read (a sale must not wait on it).
func (a *App) saleQRSeconds(ctx context.Context) int {
	st, err := a.pos.Settings(ctx)
	if err != nil {
		a.log.WarnContext(ctx, "the point of sale's settings could not be read: its default QR code life applies", "err", err)
		st = pos.DefaultSettings()
	}
	return int(st.QRLifetime / time.Second)
}

// Who the embedded sandbox's demo shop is, as its shoppers' banks would show it.
const (
	demoLegalName    = "Loja Demo PIX Ltda"
	demoDocument     = "11.222.333/0001-81"
	demoSupportEmail = "ajuda@loja-demo.example"
)

// merchantProfile is the payee and support contact the shopper pages show: the configured ones,
// with a demo shop's in sandbox mode.
func merchantProfile(cfg Config) views.Merchant {
	m := views.Merchant{LegalName: cfg.MerchantLegalName, Document: cfg.MerchantDocument,
		SupportEmail: cfg.SupportEmail, SupportPhone: cfg.SupportPhone, SupportURL: cfg.SupportURL}
	if cfg.Sandbox() {
		if m.LegalName == "" && cfg.MerchantName == DefaultMerchantName {
			m.LegalName = demoLegalName
		}
		if m.Document == "" {
			m.Document = demoDocument
		}
		if !m.HasSupport() {
			m.SupportEmail = demoSupportEmail
		}
	}
	return m
}

// cepProvider is the customer form's address lookup: the configured service, else a built-in
// table with the embedded sandbox (offline demos and tests) and ViaCEP with a real gateway.
func cepProvider(cfg Config) cep.Provider {
	switch {
	case cfg.CEPLookup == "off":
		return nil
	case cfg.CEPLookup != "":
		return cep.NewCached(cep.HTTP{URL: cfg.CEPLookup}, 0)
	case cfg.Sandbox():
		return cep.Sample()
	}
	return cep.NewCached(cep.HTTP{URL: cep.ViaCEP}, 0)
}

// openStoreWith opens the configured store: PostgreSQL when a database URL is set (several
// instances may share it), else SQLite in the data dir; with the secret keys keys gives (nil
// keys: none).
func openStoreWith(ctx context.Context, cfg Config, keys func(Config) (*sealed.Keys, error), onFeed func(ok bool, err error)) (closingStore, error) {
	k, err := keys(cfg)
	if err != nil {
		return nil, err
	}
	var st closingStore
	if cfg.DatabaseURL != "" {
		pg, err := postgres.OpenWith(ctx, cfg.DatabaseURL, postgres.Options{DirectURL: cfg.DatabaseDirectURL, OnFeed: onFeed})
		var pe *postgres.PoolerError
		if errors.As(err, &pe) {
			return nil, &ConfigError{Var: "CHECKOUT_DATABASE_URL", Msg: fmt.Sprintf("the server (PgBouncer?) refuses the startup parameter %s the URL sets: "+
				"a pooler cannot pass a session's setting on; take it out of the URL (search_path: set it on the role, ALTER ROLE … SET search_path TO …, "+
				"and keep it in CHECKOUT_DATABASE_DIRECT_URL)", pe.Param)}
		}
		if err != nil {
			if ce := foreignDatabase("CHECKOUT_DATABASE_URL", "the database", err); ce != nil {
				return nil, ce
			}
			return nil, fmt.Errorf("app: opening the PostgreSQL store: %w", err)
		}
		st = pg
	} else {
		file := filepath.Join(cfg.DataDir, "checkout.db")
		sq, err := sqlite.Open(ctx, file)
		if err != nil {
			if ce := foreignDatabase("CHECKOUT_DATA_DIR", file, err); ce != nil {
				return nil, ce
			}
			return nil, fmt.Errorf("app: opening the store: %w", err)
		}
		st = sq
	}
	if k != nil {
		st.UseKeys(k)
	}
	return st, nil
}

// foreignDatabase returns, when err says that the database at where was made by another
// version of the program (sqlmigrate.ForeignError: a development build from before 0.1.0, or a
// later release), the configuration error that stops the start with one line naming the
// variable, and exit status 2: the database is left as it was, never half migrated. Nil
// otherwise.
func foreignDatabase(variable, where string, err error) error {
	var fe *sqlmigrate.ForeignError
	if !errors.As(err, &fe) {
		return nil
	}
	return &ConfigError{Var: variable, Msg: where + ": " + fe.Error() +
		" (keep it aside and start on an empty database; cmd/checkout/README.md, Releases and upgrades)"}
}

// secretKeys are the keys sealing the secrets of the database: CHECKOUT_SECRET_KEY's, else
// those of the key file of the data dir. A key file that others may read is refused, saying so.
func secretKeys(cfg Config) (*sealed.Keys, error) {
	if cfg.SecretKey != "" {
		k, err := sealed.ParseKeys(cfg.SecretKey)
		if err != nil {
			return nil, &ConfigError{Var: "CHECKOUT_SECRET_KEY", Msg: err.Error()}
		}
		return k, nil
	}
	k, err := sealed.LoadFile(filepath.Join(cfg.DataDir, sealed.FileName))
	if err != nil {
		return nil, fmt.Errorf("app: secret key: %w", err)
	}
	return k, nil
}

// changeFeedState tells whether the change feed listens (PostgreSQL), since when it fails; nil
// on SQLite, where this process makes every change itself.
func (a *App) changeFeedState() func() (bool, time.Time) {
	pg, ok := a.store.(*postgres.Store)
	if !ok {
		return nil
	}
	return func() (bool, time.Time) {
		ok, since, _ := pg.FeedState()
		return ok, since
	}
}

// feedChanged logs a change of the change feed's state (PostgreSQL): a feed that fails leaves
// this instance's live pages without the payments other instances apply, until it listens
// again (it is tried again at once, then every few seconds).
func (a *App) feedChanged(ok bool, err error) {
	if ok {
		a.log.Info("change feed listening again")
		return
	}
	a.log.Error("change feed failing: live pages miss the changes other instances make; retrying (CHECKOUT_DATABASE_DIRECT_URL)", "err", err)
}

// serverSecretKeys are the server's secret keys: CHECKOUT_SECRET_KEY's, else those of the data
// dir's key file; when there is no key file, a new key, returned as fresh too, which the
// caller writes to the key file once the database has shown it holds nothing sealed by
// another key.
func serverSecretKeys(cfg Config) (k *sealed.Keys, fresh string, err error) {
	if cfg.SecretKey != "" {
		k, err := secretKeys(cfg)
		return k, "", err
	}
	k, err = sealed.LoadFile(filepath.Join(cfg.DataDir, sealed.FileName))
	if errors.Is(err, fs.ErrNotExist) {
		fresh = sealed.NewKey()
		k, err = sealed.ParseKeys(fresh)
	}
	if err != nil {
		return nil, "", fmt.Errorf("app: secret key: %w", err)
	}
	return k, fresh, nil
}

// secretKeyRefusal is the start's error when the database's secrets do not open with keys:
// for a value sealed by a key not given, one line naming CHECKOUT_SECRET_KEY and what to do
// (exit status 2); anything else as it is. fresh says the keys are a new key, the data dir
// having no key file.
func secretKeyRefusal(cfg Config, keys *sealed.Keys, fresh bool, err error) error {
	var ke *sealed.KeyError
	if !errors.As(err, &ke) || !errors.Is(err, sealed.ErrUnknownKey) {
		return fmt.Errorf("app: secret key: %w", err)
	}
	var msg string
	switch {
	case fresh && cfg.DatabaseURL != "":
		msg = fmt.Sprintf("this database was sealed by another instance's key (key id %s): copy its %s into %s or set CHECKOUT_SECRET_KEY "+
			"to that key (every instance needs the same); nothing was written", ke.ID, sealed.FileName, cfg.DataDir)
	case fresh:
		msg = fmt.Sprintf("the database's secrets were sealed with key id %s, and %s has no %s: put back the key file that sealed them "+
			"(kept with the backups) or set CHECKOUT_SECRET_KEY to that key; nothing was written", ke.ID, cfg.DataDir, sealed.FileName)
	default:
		source := "CHECKOUT_SECRET_KEY"
		if cfg.SecretKey == "" {
			source = "the key file " + filepath.Join(cfg.DataDir, sealed.FileName)
		}
		msg = fmt.Sprintf("the database's secrets were sealed with key id %s, which %s does not hold (its ids: %v): "+
			"give the key it was sealed with (after a rotation, listed after the new one)", ke.ID, source, keys.IDs())
	}
	return &ConfigError{Var: "CHECKOUT_SECRET_KEY", Msg: msg}
}

// existingSecretKeys are the secret keys for the commands: CHECKOUT_SECRET_KEY's, else the key
// file the server made; without either, none (a command never makes a key the server would not
// know: one that needs a sealed secret then says that no key was given).
func existingSecretKeys(cfg Config) (*sealed.Keys, error) {
	if cfg.SecretKey == "" {
		if _, err := os.Stat(filepath.Join(cfg.DataDir, sealed.FileName)); errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
	}
	return secretKeys(cfg)
}

// sandboxCredentials picks the checkout's client id, secret and webhook secret on the embedded
// sandbox: the configured ones, else secrets made at the first start and kept in the data dir,
// so that a restart keeps verifying the webhooks still waiting in the sandbox's outbox.
func (a *App) sandboxCredentials() error {
	if a.clientID == "" {
		a.clientID = sandboxClientID
	}
	a.secretSource = "in CHECKOUT_GATEWAY_CLIENT_SECRET"
	if a.clientSecret == "" {
		path := filepath.Join(a.cfg.DataDir, "sandbox", "client-secret")
		a.secretSource = "in the file " + path
		s, err := persistedSecret(path, func() (string, error) {
			var b [24]byte
			_, _ = rand.Read(b[:])
			return hex.EncodeToString(b[:]), nil
		})
		if err != nil {
			return err
		}
		a.clientSecret = s
	}
	if a.webhookSecret == "" {
		s, err := persistedSecret(filepath.Join(a.cfg.DataDir, "sandbox", "webhook-secret"), webhook.NewSecret)
		if err != nil {
			return err
		}
		a.webhookSecret = s
	}
	return nil
}

// persistedSecret reads a secret from path, or makes one and writes it there (mode 0600).
func persistedSecret(path string, mk func() (string, error)) (string, error) {
	if b, err := os.ReadFile(path); err == nil && strings.TrimSpace(string(b)) != "" {
		return strings.TrimSpace(string(b)), nil
	}
	s, err := mk()
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", fmt.Errorf("app: %w", err)
	}
	if err := os.WriteFile(path, []byte(s+"\n"), 0o600); err != nil {
		return "", fmt.Errorf("app: writing a secret: %w", err)
	}
	return s, nil
}

// Service returns the domain service (for tests).
func (a *App) Service() *checkout.Service { return a.svc }

// Charges returns the charges with a due date.
func (a *App) Charges() *charges.Manager { return a.charges }

// Subscriptions returns the recurring charges.
func (a *App) Subscriptions() *subscriptions.Manager { return a.subscriptions }

// issuePause is the rest between two batches of a hundred subscriptions' charges.
const issuePause = 5 * time.Millisecond

// postgresIssuers is how many subscriptions' charges are issued at once on PostgreSQL: a few,
// leaving most of the pool's connections to the shoppers.
const postgresIssuers = 4

// Gateway returns the gateway client.
func (a *App) Gateway() *gatewayclient.Client { return a.gateway }

// URL returns the checkout's loopback URL ("http://127.0.0.1:port"), the address of the
// listener given to New.
func (a *App) URL() string { return a.self }

// Ready is closed once Serve is accepting connections.
func (a *App) Ready() <-chan struct{} { return a.ready }

// SandboxURL returns the embedded sandbox's base URL, or "" with a real gateway.
func (a *App) SandboxURL() string {
	if a.sandbox == nil {
		return ""
	}
	return a.self + SandboxPrefix
}

// loopbackURL is the URL this process reaches its own listener at: 127.0.0.1 for a listener
// on every interface.
func loopbackURL(addr net.Addr) string {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok {
		return "http://" + addr.String()
	}
	host := "127.0.0.1"
	if tcp.IP != nil && !tcp.IP.IsUnspecified() {
		host = tcp.IP.String()
	}
	return "http://" + net.JoinHostPort(host, strconv.Itoa(tcp.Port))
}

// boundURL is the public URL of a checkout whose CHECKOUT_PUBLIC_URL is not set: http and the
// address the listener is bound to, named localhost when it is a loopback address or every
// interface (CHECKOUT_ADDR=:18080 is http://localhost:18080), so that sessions, the demo page's
// embed.js and the banner all follow the port actually in use.
func boundURL(addr net.Addr) string {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok {
		return "http://" + addr.String()
	}
	host := "localhost"
	if tcp.IP != nil && !tcp.IP.IsUnspecified() && !tcp.IP.IsLoopback() {
		host = tcp.IP.String()
	}
	return "http://" + net.JoinHostPort(host, strconv.Itoa(tcp.Port))
}

// Serve serves on the listener given to New until ctx is done, then shuts down gracefully:
// SSE streams end, queued webhooks are applied, in-flight requests finish, background loops
// stop. It returns nil after a clean shutdown. Call it once; call Close afterwards.
func (a *App) Serve(ctx context.Context) error {
	if !a.served.CompareAndSwap(false, true) {
		return errors.New("app: Serve called twice")
	}
	bgCtx, stopBG := context.WithCancel(context.WithoutCancel(ctx))
	defer func() {
		stopBG()
		a.bg.Wait()
	}()
	// The loops that call a server, this very one when the sandbox is embedded (the sandbox's
	// webhook deliveries and expiry sweep, the reconciler) stop first at shutdown, on a
	// context of their own: see shutdown.
	earlyCtx, stopEarly := context.WithCancel(bgCtx)
	var early sync.WaitGroup
	defer func() {
		stopEarly()
		early.Wait()
	}()
	root := http.NewServeMux()
	root.Handle("/", a.web.Handler())
	if a.sandbox != nil {
		early.Go(func() { a.sandbox.Run(earlyCtx) })
		// The sandbox has its own API and console: the checkout's pages' headers do not apply.
		root.Handle(SandboxPrefix+"/", http.StripPrefix(SandboxPrefix, a.sandbox))
	}
	a.runLoops(bgCtx, earlyCtx, &early)

	handler := http.Handler(root)
	if a.sandbox != nil {
		handler = a.drain.wrap(SandboxPrefix+"/", root)
	}
	srv := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      a.writeTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    64 << 10,
		BaseContext:       func(net.Listener) context.Context { return bgCtx },
		ErrorLog:          slog.NewLogLogger(a.log.Handler(), slog.LevelWarn),
	}
	errc := make(chan error, 1)
	go func() {
		errc <- srv.Serve(web.ConnLimit{Max: a.cfg.ConnsPerPeer, Exempt: a.exemptPeer, Log: a.log}.Listener(a.ln))
	}()
	a.banner()
	close(a.ready)

	select {
	case err := <-errc:
		_ = a.web.Shutdown(context.Background())
		return fmt.Errorf("app: serving: %w", err)
	case <-ctx.Done():
	}
	return a.shutdown(srv, errc, stopEarly, &early)
}

// runLoops starts the background loops: on bgCtx those that stop with the server, on earlyCtx
// (counted in early) those that call a server, this very one with the embedded sandbox.
func (a *App) runLoops(bgCtx, earlyCtx context.Context, early *sync.WaitGroup) {
	// Abandoned carts, old webhook ids and long-expired sessions without an order go, orders
	// past their personal data's retention are anonymised, in small batches, and charges past
	// their due date become overdue, subscriptions' charges are issued (on every instance: a
	// charge changes once, a period is issued once).
	ret := checkout.NewRetention(a.store, a.store, checkout.RetentionOptions{Carts: a.cfg.CartRetention,
		WebhookIDs: a.cfg.WebhookIDRetention, Sessions: a.cfg.SessionRetention, Clock: a.clock, Logger: a.log,
		PersonalData: a.cfg.PersonalDataRetention, Anonymiser: a.svc, Overdue: a.charges.MarkOverdue,
		Issue: a.subscriptions.Issue})
	a.bg.Go(func() { ret.Run(bgCtx) })
	// Notifications to the merchant, and the demo merchant page on its own port.
	a.runMerchant(bgCtx)
	// E-mails, and the alerts' scheduler: on the early context, since the daily summary reads
	// the gateway (with the embedded sandbox, this very server) for the day's reconciliation.
	a.runMail(bgCtx)
	a.runAlerts(earlyCtx, early)
	// Prometheus's /metrics on a listener of its own.
	a.serveMetrics(bgCtx)
	a.bg.Go(func() { a.pruneAccess(bgCtx, accessPruneInterval) })
	// The gateway's state, probed when no call told it for a while: on the early context, since
	// with the embedded sandbox it calls this very server.
	early.Go(func() { a.runHealth(earlyCtx) })
	if feed, ok := a.store.(checkout.ChangeFeed); ok {
		a.bg.Go(func() { a.svc.Follow(bgCtx, feed) })
	}
	if a.cfg.ReconcileInterval <= 0 {
		return
	}
	opts := checkout.ReconcilerOptions{Interval: a.cfg.ReconcileInterval, Clock: a.clock, Logger: a.log, GatewayUp: a.gatewayUp,
		GatewayFailing: a.health.Failing}
	var lease *postgres.Lease
	if pg, ok := a.store.(*postgres.Store); ok {
		// One instance at a time reconciles; the lease moves when its holder stops or dies.
		lease = pg.ReconcileLease()
		opts.Lease = lease
	}
	rec := checkout.NewReconciler(a.svc, a.store, opts)
	early.Go(func() {
		rec.Run(earlyCtx)
		if lease != nil {
			_ = lease.Close()
		}
	})
}

// shutdown stops serving within shutdownTimeout: the early loops, then the streams, the
// webhook queue and the requests in flight, then the server. errc is the server's result.
func (a *App) shutdown(srv *http.Server, errc <-chan error, stopEarly context.CancelFunc, early *sync.WaitGroup) error {
	a.log.Info("stopping: finishing the requests in flight", "within", shutdownTimeout.String())
	sctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	// The embedded sandbox's deliveries stop before the webhook receiver refuses them: a
	// webhook due now stays pending in the sandbox's outbox and goes at the next start, instead
	// of failing against a server that answers 503, then against a closed port, each failure a
	// warning in the log of an orderly shutdown; the sandbox's API still answers the requests
	// in flight. The reconciler stops with them: its pass would call the embedded gateway
	// after the server closed (and its lease goes to another instance at once).
	stopEarly()
	stopped := make(chan struct{})
	go func() {
		early.Wait()
		close(stopped)
	}()
	select {
	case <-stopped:
	case <-sctx.Done():
	}
	// First the streams and the webhook queue, then (embedded sandbox) the requests in flight,
	// all while the sandbox on this very server still answers them; then the server itself.
	werr := a.web.Shutdown(sctx)
	a.stopExports()
	// The QR codes being completed in the background stop (they stay pending, completed at the
	// next start), before the sandbox they call stops answering.
	a.svc.Close()
	if a.sandbox != nil {
		select {
		case <-a.drain.drain():
		case <-sctx.Done():
		}
	}
	// The demo page, a client of this server, before the server.
	derr := a.stopMerchant(sctx)
	serr := srv.Shutdown(sctx)
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		serr = errors.Join(serr, err)
	}
	err := errors.Join(werr, derr, serr)
	if err != nil {
		a.log.Error("stopped", "err", err)
	} else {
		a.log.Info("stopped")
	}
	return err
}

// exemptPeer tells the peers the per-peer connection cap does not apply to: this machine (the
// embedded sandbox's client, a local proxy) and the trusted proxies, whose connections carry
// many clients (the proxy limits them per client).
func (a *App) exemptPeer(p netip.Addr) bool {
	return p.IsLoopback() || a.cfg.TrustedProxies.Trusts(p)
}

// openSandbox opens the embedded sandbox; Serve runs its background loop (webhook deliveries,
// expiry sweep).
func (a *App) openSandbox(ctx context.Context) (*sandbox.Sandbox, error) {
	opts := sandbox.Options{
		DataDir: filepath.Join(a.cfg.DataDir, "sandbox"),
		Clients: []sandbox.ClientConfig{{ID: a.clientID, Secret: a.clientSecret, WebhookSecret: a.webhookSecret}},
		Logger:  a.log.With("component", "sandbox"),
		// The shopper's bank app shows the BR Code's merchant name: make it the shop's.
		MerchantName: brcode.Sanitize(a.cfg.MerchantName, brcode.MaxNameLength),
		RateLimit:    a.cfg.SandboxRateLimit,
		QRImages:     a.qrImages,
	}
	if a.cfg.Clock != nil {
		opts.Clock = clockFunc(a.cfg.Clock)
	}
	if a.cfg.WebhooksEnabled {
		opts.WebhookForwardTo = a.self + web.WebhookPath
	}
	sb, err := sandbox.New(ctx, opts)
	if err != nil {
		if ce := foreignDatabase("CHECKOUT_DATA_DIR", filepath.Join(opts.DataDir, "sandbox.db"), err); ce != nil {
			return nil, ce
		}
		return nil, fmt.Errorf("app: sandbox: %w", err)
	}
	return sb, nil
}

// warnWebhookSecret logs what the gateway's webhook secret leaves open: none set (webhooks are
// then taken unsigned, each only a hint the checkout re-fetches), or a key too short to be a
// signing secret (a placeholder such as "foo" decodes as base64).
func (a *App) warnWebhookSecret() {
	if a.cfg.GatewayWebhookSecret == "" {
		a.log.Warn("CHECKOUT_GATEWAY_WEBHOOK_SECRET is not set: the gateway's webhooks are accepted unsigned " +
			"(each is only a hint, re-fetched from the gateway); set it to the gateway's signing secret")
		return
	}
	if n, err := webhook.CheckSecret(a.cfg.GatewayWebhookSecret); err == nil && n < minWebhookKey {
		a.log.Warn("CHECKOUT_GATEWAY_WEBHOOK_SECRET decodes to a very short key: is it the gateway's signing secret?", "bytes", n)
	}
}

// minWebhookKey is the shortest signing key (in bytes) taken without a warning: Standard
// Webhooks' secrets are 24 to 64 bytes.
const minWebhookKey = 16

// banner prints where to go, in one write: lines logged meanwhile by other goroutines cannot
// split it, and a reader of the output sees it whole or not at all.
func (a *App) banner() {
	self := a.self
	if a.cfg.Stdout == nil {
		return
	}
	public := strings.TrimRight(a.cfg.PublicURL, "/")
	var w strings.Builder
	fmt.Fprintf(&w, "PIX Checkout is running.\n  shop:            %s/\n", public)
	if a.sandbox != nil {
		// The secret itself never goes to the output, which may be a shipped log: where it is.
		fmt.Fprintf(&w, "  sandbox gateway: %s%s\n  sandbox console: %s%s/sandbox/\n"+
			"    sign in with client id %q and the client secret %s\n",
			self, SandboxPrefix, self, SandboxPrefix, a.clientID, a.secretSource)
	} else {
		// Load refuses user info in the URL, so printing it reveals no password.
		fmt.Fprintf(&w, "  gateway:         %s\n", a.cfg.GatewayURL)
		if checkout.WebhookURL(public) == "" {
			then := fmt.Sprintf("the reconciler finds payments within %s (CHECKOUT_RECONCILE_INTERVAL)", a.cfg.ReconcileInterval)
			if a.cfg.ReconcileInterval <= 0 {
				then = "and the reconciler is off (CHECKOUT_RECONCILE_INTERVAL): payments are seen only when a page asks the gateway"
			}
			fmt.Fprintf(&w, "  webhooks:        off: the gateway sends them only to an https public URL whose host has a TLD "+
				"(CHECKOUT_PUBLIC_URL is %s); %s\n", public, then)
		}
	}
	a.merchantBanner(&w, public)
	a.dashboardBanner(&w, public)
	a.mailBanner(&w, public)
	_, _ = io.WriteString(a.cfg.Stdout, w.String())
}

// Close releases the sandbox and the store, and the listener when Serve never ran. Call it
// after Serve returned (or instead of Serve).
func (a *App) Close() error {
	a.once.Do(func() {
		var errs []error
		if a.stopExports != nil {
			a.stopExports()
		}
		if a.svc != nil {
			a.svc.Close()
		}
		if a.sandbox != nil {
			errs = append(errs, a.sandbox.Close())
		}
		if !a.served.Load() {
			errs = append(errs, a.web.Shutdown(context.Background()), a.closeMerchant())
			if a.metricsLn != nil {
				if err := a.metricsLn.Close(); err != nil && !errors.Is(err, net.ErrClosed) {
					errs = append(errs, err)
				}
			}
			if err := a.ln.Close(); err != nil && !errors.Is(err, net.ErrClosed) {
				errs = append(errs, err)
			}
		}
		errs = append(errs, a.store.Close(), a.lock.Close())
		a.closeErr = errors.Join(errs...)
	})
	return a.closeErr
}

// clockFunc adapts a func to the sandbox's Clock.
type clockFunc func() time.Time

func (f clockFunc) Now() time.Time { return f() }

// sandboxPayer pays through the sandbox's control endpoint, over HTTP with the gateway client.
type sandboxPayer struct{ c *gatewayclient.Client }

// Pay is POST {base}/sandbox/deposits/{id}/pay.
func (p sandboxPayer) Pay(ctx context.Context, transactionID string) error {
	return p.c.Do(ctx, http.MethodPost, "/sandbox/deposits/"+url.PathEscape(transactionID)+"/pay", nil, nil)
}
