package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout/apikeys"
	"github.com/pixcheckout/pixcheckout/checkout/audit"
	"github.com/pixcheckout/pixcheckout/checkout/notify"
	"github.com/pixcheckout/pixcheckout/checkout/settings"
	"github.com/pixcheckout/pixcheckout/gatewayclient/outbox"
	"github.com/pixcheckout/pixcheckout/web/apijson"
)

// merchantSide is what the app wires for merchants: checkout sessions (in the store), API
// keys, settings, the notifications' delivery and, in sandbox mode, the demo merchant page.
type merchantSide struct {
	settings  *settings.Manager
	keys      *apikeys.Keys
	outbox    *outbox.Outbox // delivers the notifications
	announcer *notify.Announcer
	log       *notify.DeliveryLog
	demo      *demoServer  // nil without the demo page
	demoLn    net.Listener // the demo page's listener, nil without it
	demoSrv   *http.Server
}

// setupMerchant builds the merchant side on the app's store, and the e-mails (setupMail); the
// demo's listener is opened here, so that its address is known (and a bad CHECKOUT_DEMO_ADDR
// refused) at start.
func (a *App) setupMerchant(ctx context.Context) error {
	m := &a.merchant
	m.settings = settings.NewManager(a.store, settings.Config{
		WebhookURL: a.cfg.MerchantWebhookURL, WebhookSecret: a.cfg.MerchantWebhookSecret}, nil)
	if a.cfg.MerchantWebhookURL != "" {
		eff, err := m.settings.Get(ctx)
		if err != nil {
			return fmt.Errorf("app: %w", err)
		}
		if eff.WebhookSecret == "" {
			return &ConfigError{Var: "CHECKOUT_MERCHANT_WEBHOOK_SECRET", Msg: "is required with CHECKOUT_MERCHANT_WEBHOOK_URL " +
				"(whsec_ followed by the standard base64 of 24 to 64 random bytes, e.g. whsec_$(openssl rand -base64 32))"}
		}
	}
	var err error
	oo := notify.NotificationOptions(m.settings, a.cfg.NotificationSchedule, a.log.With("component", "notifications"))
	if a.metrics != nil {
		oo.OnAttempt = a.metrics.notificationAttempt
	}
	m.outbox, err = a.store.Outbox(oo)
	if err != nil {
		return fmt.Errorf("app: %w", err)
	}
	// Notifications are made, and first due, on real time: the outbox's, which signs them.
	m.announcer = &notify.Announcer{Order: apijson.OrderEvent, Sessions: a.store, Wake: m.outbox.Wake, PersonalData: m.settings.NotifyPersonalData}
	m.log = notify.NewDeliveryLog(m.outbox)

	keys := apikeys.Options{ConfiguredKey: a.cfg.MerchantAPIKey}
	if m.demoLn, err = demoListen(a.cfg, a.ln); err != nil {
		return err
	}
	if m.demoLn != nil {
		key := newDemoKey()
		keys.Internal = append(keys.Internal, key)
		m.demo = &demoServer{api: a.self, public: a.cfg.PublicURL, key: key.Secret,
			client: &http.Client{Timeout: 30 * time.Second}, log: a.log.With("component", "demo")}
	}
	m.keys = apikeys.NewKeys(a.store, keys)
	// The e-mails go through the same outbox as the notifications, on a channel of their own.
	if err := a.setupMail(); err != nil {
		return err
	}
	a.setupAlerts()
	return nil
}

// runMerchant starts, until ctx ends, the notifications' delivery and the demo page's server
// (stopped by stopMerchant).
func (a *App) runMerchant(ctx context.Context) {
	m := &a.merchant
	a.bg.Add(1)
	go func() {
		defer a.bg.Done()
		m.outbox.Run(ctx)
	}()
	if m.demo != nil {
		t := demoServerTimeouts
		m.demoSrv = &http.Server{Handler: m.demo.handler(), ReadHeaderTimeout: t.header, ReadTimeout: t.read,
			WriteTimeout: t.write, IdleTimeout: t.idle, MaxHeaderBytes: 64 << 10,
			BaseContext: func(net.Listener) context.Context { return ctx }}
		a.bg.Add(1)
		go func() {
			defer a.bg.Done()
			if err := m.demoSrv.Serve(m.demoLn); err != nil && !errors.Is(err, http.ErrServerClosed) {
				a.log.Error("demo merchant page: serving", "err", err)
			}
		}()
	}
}

// stopMerchant shuts the demo page's server down (the outbox stops with Serve's context).
func (a *App) stopMerchant(ctx context.Context) error {
	if a.merchant.demoSrv == nil {
		return nil
	}
	return a.merchant.demoSrv.Shutdown(ctx)
}

// closeMerchant releases what setupMerchant opened when Serve never ran.
func (a *App) closeMerchant() error {
	if a.merchant.demoLn != nil && a.merchant.demoSrv == nil {
		if err := a.merchant.demoLn.Close(); err != nil && !errors.Is(err, net.ErrClosed) {
			return err
		}
	}
	return nil
}

// DemoURL returns the demo merchant page's URL, or "" without it.
func (a *App) DemoURL() string {
	if a.merchant.demoLn == nil {
		return ""
	}
	return demoURL(a.merchant.demoLn, a.cfg.PublicURL)
}

// APIKeys returns the merchant API's keys (for tests and the apikey command).
func (a *App) APIKeys() *apikeys.Keys { return a.merchant.keys }

// MerchantSettings returns the merchant's settings.
func (a *App) MerchantSettings() *settings.Manager { return a.merchant.settings }

// OpenKeys opens the configured store, which a server must have made (a *ConfigError says so
// otherwise), for the `checkout apikey` commands and returns its API keys; closeStore
// releases it.
func OpenKeys(ctx context.Context, cfg Config) (keys *apikeys.Keys, log *audit.Log, closeStore func() error, err error) {
	st, err := openExisting(ctx, cfg)
	if err != nil {
		return nil, nil, nil, err
	}
	return apikeys.NewKeys(st, apikeys.Options{}), audit.New(st, cfg.AuditRetention, cfg.Clock), st.Close, nil
}

// merchantBanner prints the merchant API's address and the demo merchant page's.
func (a *App) merchantBanner(w io.Writer, public string) {
	fmt.Fprintf(w, "  merchant API:    %s/api/v1 (described at %s/api/v1/openapi.json)\n", public, public)
	if a.merchant.demoLn != nil {
		fmt.Fprintf(w, "  demo merchant:   %s (a merchant's page on another origin embedding a checkout session)\n", a.DemoURL())
	}
}
