// Package app wires the checkout together: store, domain service, gateway client (or the
// embedded sandbox gateway), reconciler and HTTP server. cmd/checkout runs it; browser tests
// start a whole app in-process with it.
//
// With no gateway URL configured, the sandbox gateway is mounted under SandboxPrefix of the
// same server and reached over real HTTP by the gateway client, so that the client's production
// code path is the one used; its webhooks are delivered to the checkout's own receiver. The
// server's own address is known only once Serve has its listener, so the gateway client and
// the sandbox are made there.
package app

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/postgres"
	"github.com/pixcheckout/pixcheckout/checkout/sqlite"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/brcode"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
	"github.com/pixcheckout/pixcheckout/gatewayclient/webhook"
	"github.com/pixcheckout/pixcheckout/static"
	"github.com/pixcheckout/pixcheckout/web"
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

// closingStore is a checkout store the app owns and closes.
type closingStore interface {
	checkout.Store
	Close() error
}

// App is a running checkout. Make it with New, run it with Serve, release it with Close.
type App struct {
	cfg     Config
	log     *slog.Logger
	store   closingStore
	svc     *checkout.Service
	web     *web.Server
	gateway *lateGateway

	clientID, clientSecret, webhookSecret string
	writeTimeout                          time.Duration // the server's; tests shorten it
	drain                                 drainer

	sandbox  atomic.Pointer[sandbox.Sandbox]
	url      atomic.Pointer[string]
	ready    chan struct{}
	served   atomic.Bool
	bg       sync.WaitGroup
	closeErr error
	once     sync.Once
}

// New opens the store (running its migrations), seeds the demo catalogue and builds the
// domain service and the HTTP handlers.
func New(ctx context.Context, cfg Config) (*App, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	logOut := cfg.LogOutput
	if logOut == nil {
		logOut = io.Discard
	}
	log := slog.New(slog.NewJSONHandler(logOut, nil))
	a := &App{cfg: cfg, log: log, gateway: &lateGateway{}, ready: make(chan struct{}), writeTimeout: writeTimeout}

	if err := os.MkdirAll(cfg.DataDir, 0o750); err != nil {
		return nil, fmt.Errorf("app: data dir: %w", err)
	}
	store, err := openStore(ctx, cfg)
	if err != nil {
		return nil, err
	}
	a.store = store
	if err := checkout.SeedDemoCatalogue(ctx, store); err != nil {
		store.Close()
		return nil, fmt.Errorf("app: seeding the catalogue: %w", err)
	}

	a.clientID, a.clientSecret, a.webhookSecret = cfg.GatewayClientID, cfg.GatewayClientSecret, cfg.GatewayWebhookSecret
	if cfg.Sandbox() {
		if err := a.sandboxCredentials(); err != nil {
			store.Close()
			return nil, err
		}
	}
	a.svc = checkout.NewService(store, a.gateway, checkout.ServiceOptions{
		PublicURL:    cfg.PublicURL,
		MerchantName: cfg.MerchantName,
		Clock:        cfg.Clock,
		Logger:       log,
	})
	var payer web.SandboxPayer
	if cfg.Sandbox() {
		payer = sandboxPayer{a.gateway}
	}
	ws, err := web.New(web.Options{
		Service:        a.svc,
		Store:          store,
		Assets:         static.New(),
		Sandbox:        payer,
		WebhookSecret:  a.webhookSecret,
		Clock:          cfg.Clock,
		FrameAncestors: cfg.FrameAncestors,
		PublicURL:      cfg.PublicURL,
		Logger:         log,
		Heartbeat:      cfg.SSEHeartbeat,
	})
	if err != nil {
		store.Close()
		return nil, err
	}
	a.web = ws
	return a, nil
}

// openStore opens the configured store: PostgreSQL when a database URL is set (several
// instances may share it), else SQLite in the data dir.
func openStore(ctx context.Context, cfg Config) (closingStore, error) {
	if cfg.DatabaseURL != "" {
		st, err := postgres.Open(ctx, cfg.DatabaseURL)
		if err != nil {
			return nil, fmt.Errorf("app: opening the PostgreSQL store: %w", err)
		}
		return st, nil
	}
	st, err := sqlite.Open(ctx, filepath.Join(cfg.DataDir, "checkout.db"))
	if err != nil {
		return nil, fmt.Errorf("app: opening the store: %w", err)
	}
	return st, nil
}

// sandboxCredentials picks the checkout's client id, secret and webhook secret on the embedded
// sandbox: the configured ones, else secrets made at the first start and kept in the data dir,
// so that a restart keeps verifying the webhooks still waiting in the sandbox's outbox.
func (a *App) sandboxCredentials() error {
	if a.clientID == "" {
		a.clientID = sandboxClientID
	}
	if a.clientSecret == "" {
		s, err := persistedSecret(filepath.Join(a.cfg.DataDir, "sandbox", "client-secret"), func() (string, error) {
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

// Gateway returns the gateway client once Serve has started (nil before).
func (a *App) Gateway() *gatewayclient.Client { return a.gateway.client.Load() }

// URL returns the checkout's loopback URL ("http://127.0.0.1:port") once Serve has its
// listener, or "" before. Ready tells when.
func (a *App) URL() string {
	if u := a.url.Load(); u != nil {
		return *u
	}
	return ""
}

// Ready is closed once Serve has wired the gateway and is accepting connections.
func (a *App) Ready() <-chan struct{} { return a.ready }

// SandboxURL returns the embedded sandbox's base URL, or "" with a real gateway (or before
// Serve).
func (a *App) SandboxURL() string {
	if !a.cfg.Sandbox() || a.URL() == "" {
		return ""
	}
	return a.URL() + SandboxPrefix
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

// Serve serves on ln until ctx is done, then shuts down gracefully: SSE streams end, queued
// webhooks are applied, in-flight requests finish, background loops stop. It returns nil after
// a clean shutdown. Call it once; call Close afterwards.
func (a *App) Serve(ctx context.Context, ln net.Listener) error {
	if !a.served.CompareAndSwap(false, true) {
		return errors.New("app: Serve called twice")
	}
	self := loopbackURL(ln.Addr())
	a.url.Store(&self)

	bgCtx, stopBG := context.WithCancel(context.WithoutCancel(ctx))
	defer func() {
		stopBG()
		a.bg.Wait()
	}()

	root := http.NewServeMux()
	root.Handle("/", a.web.Handler())
	base := a.cfg.GatewayURL
	if a.cfg.Sandbox() {
		sb, err := a.startSandbox(ctx, bgCtx, self)
		if err != nil {
			return err
		}
		// The sandbox has its own API and console: the checkout's pages' headers do not apply.
		root.Handle(SandboxPrefix+"/", http.StripPrefix(SandboxPrefix, sb))
		base = self + SandboxPrefix
	}
	client, err := gatewayclient.New(base, a.clientID, a.clientSecret, gatewayclient.WithTimeout(20*time.Second))
	if err != nil {
		return fmt.Errorf("app: gateway client: %w", err)
	}
	a.gateway.client.Store(client)

	if a.cfg.ReconcileInterval > 0 {
		rec := checkout.NewReconciler(a.svc, a.store, checkout.ReconcilerOptions{
			Interval: a.cfg.ReconcileInterval, Clock: a.cfg.Clock, Logger: a.log,
		})
		a.bg.Add(1)
		go func() {
			defer a.bg.Done()
			rec.Run(bgCtx)
		}()
	}

	handler := http.Handler(root)
	if a.cfg.Sandbox() {
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
	go func() { errc <- srv.Serve(ln) }()
	a.banner(self)
	close(a.ready)

	select {
	case err := <-errc:
		_ = a.web.Shutdown(context.Background())
		return fmt.Errorf("app: serving: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	// First the streams and the webhook queue, then (embedded sandbox) the requests in flight,
	// all while the sandbox on this very server still answers them; then the server itself.
	werr := a.web.Shutdown(sctx)
	if a.cfg.Sandbox() {
		select {
		case <-a.drain.drain():
		case <-sctx.Done():
		}
	}
	serr := srv.Shutdown(sctx)
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		serr = errors.Join(serr, err)
	}
	return errors.Join(werr, serr)
}

// startSandbox opens the embedded sandbox and starts its background loop (webhook deliveries,
// expiry sweep) on bgCtx.
func (a *App) startSandbox(ctx, bgCtx context.Context, self string) (*sandbox.Sandbox, error) {
	opts := sandbox.Options{
		DataDir: filepath.Join(a.cfg.DataDir, "sandbox"),
		Clients: []sandbox.ClientConfig{{ID: a.clientID, Secret: a.clientSecret, WebhookSecret: a.webhookSecret}},
		Logger:  a.log.With("component", "sandbox"),
		// The shopper's bank app shows the BR Code's merchant name: make it the shop's.
		MerchantName: brcode.Sanitize(a.cfg.MerchantName, brcode.MaxNameLength),
	}
	if a.cfg.Clock != nil {
		opts.Clock = clockFunc(a.cfg.Clock)
	}
	if a.cfg.WebhooksEnabled {
		opts.WebhookForwardTo = self + web.WebhookPath
	}
	sb, err := sandbox.New(ctx, opts)
	if err != nil {
		return nil, fmt.Errorf("app: sandbox: %w", err)
	}
	a.sandbox.Store(sb)
	a.bg.Add(1)
	go func() {
		defer a.bg.Done()
		sb.Run(bgCtx)
	}()
	return sb, nil
}

// banner prints where to go.
func (a *App) banner(self string) {
	if a.cfg.Stdout == nil {
		return
	}
	public := strings.TrimRight(a.cfg.PublicURL, "/")
	if u, err := url.Parse(public); err == nil && u.Hostname() == "localhost" {
		// The public URL's port may differ from the one actually bound (Addr :0 in tests).
		public = "http://localhost" + self[strings.LastIndex(self, ":"):]
	}
	fmt.Fprintf(a.cfg.Stdout, "PIX Checkout is running.\n  shop:            %s/\n", public)
	if a.cfg.Sandbox() {
		fmt.Fprintf(a.cfg.Stdout, "  sandbox gateway: %s%s\n  sandbox console: %s%s/sandbox/ (sign in with the gateway client id and secret)\n",
			self, SandboxPrefix, self, SandboxPrefix)
	} else {
		// Load refuses user info in the URL, so printing it reveals no password.
		fmt.Fprintf(a.cfg.Stdout, "  gateway:         %s\n", a.cfg.GatewayURL)
	}
}

// Close releases the sandbox and the store. Call it after Serve returned (or instead of Serve).
func (a *App) Close() error {
	a.once.Do(func() {
		var errs []error
		if sb := a.sandbox.Load(); sb != nil {
			errs = append(errs, sb.Close())
		}
		if !a.served.Load() {
			errs = append(errs, a.web.Shutdown(context.Background()))
		}
		errs = append(errs, a.store.Close())
		a.closeErr = errors.Join(errs...)
	})
	return a.closeErr
}

// clockFunc adapts a func to the sandbox's Clock.
type clockFunc func() time.Time

func (f clockFunc) Now() time.Time { return f() }

// lateGateway is the checkout's gateway, bound to the gateway client once Serve knows the
// server's own address (the embedded sandbox is reached through it).
type lateGateway struct {
	client atomic.Pointer[gatewayclient.Client]
}

// errNotServing: a gateway call before Serve wired the client.
var errNotServing = errors.New("app: the gateway client is not ready (Serve has not started)")

func (g *lateGateway) get() (*gatewayclient.Client, error) {
	c := g.client.Load()
	if c == nil {
		return nil, errNotServing
	}
	return c, nil
}

// CreateTransaction is POST /transaction.
func (g *lateGateway) CreateTransaction(ctx context.Context, req gatewayclient.CreateTransactionRequest) (*gatewayclient.Transaction, error) {
	c, err := g.get()
	if err != nil {
		return nil, err
	}
	return c.CreateTransaction(ctx, req)
}

// GetDeposit is GET /deposit/{id}.
func (g *lateGateway) GetDeposit(ctx context.Context, id string) (*gatewayclient.Deposit, error) {
	c, err := g.get()
	if err != nil {
		return nil, err
	}
	return c.GetDeposit(ctx, id)
}

// sandboxPayer pays through the sandbox's control endpoint, over HTTP with the gateway client.
type sandboxPayer struct{ g *lateGateway }

// Pay is POST {base}/sandbox/deposits/{id}/pay.
func (p sandboxPayer) Pay(ctx context.Context, transactionID string) error {
	c, err := p.g.get()
	if err != nil {
		return err
	}
	return c.Do(ctx, http.MethodPost, "/sandbox/deposits/"+url.PathEscape(transactionID)+"/pay", nil, nil)
}
