package app

import (
	"cmp"
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/audit"
	"github.com/pixcheckout/pixcheckout/checkout/mail"
	"github.com/pixcheckout/pixcheckout/checkout/sealed"
	"github.com/pixcheckout/pixcheckout/checkout/settings"
	"github.com/pixcheckout/pixcheckout/checkout/team"
	"github.com/pixcheckout/pixcheckout/gatewayclient/brdoc"
	"github.com/pixcheckout/pixcheckout/gatewayclient/ratelimit"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
	"github.com/pixcheckout/pixcheckout/gatewayclient/webhook"
	"github.com/pixcheckout/pixcheckout/web"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// Defaults of the configuration.
const (
	DefaultAddr    = ":8080"
	DefaultDataDir = "./data"
	// DefaultCommand is how the program is run from its source tree.
	DefaultCommand = "go run ./cmd/checkout"
	// DefaultMerchantName is shown on the shopper pages when none is configured.
	DefaultMerchantName = "Loja Demo PIX"
	// DefaultReconcileInterval is the reconciler's pass interval.
	DefaultReconcileInterval = 5 * time.Second
	// DefaultGatewayStartTimeout bounds the start-up check of a real gateway, retries included.
	DefaultGatewayStartTimeout = 40 * time.Second
	// DefaultAlertInterval is how often the alerts' scheduler looks: an outage's alert comes
	// at most this long after its five minutes, the summary this long after 08:00.
	DefaultAlertInterval = 30 * time.Second
	// DefaultGatewayProbeInterval is how long without any gateway call before a light probe
	// tells the gateway's state again.
	DefaultGatewayProbeInterval = 15 * time.Second
	// DefaultGatewayProbeTimeout is how long a probe waits for the gateway's answer.
	DefaultGatewayProbeTimeout = 10 * time.Second
)

// Config is the whole configuration of the checkout. Load fills it from the environment and the
// command line; tests may also build one by hand (start from Defaults()).
type Config struct {
	Addr string // CHECKOUT_ADDR: listen address
	// PublicURL (CHECKOUT_PUBLIC_URL) is the URL shoppers and the gateway reach; empty, New
	// derives it from the address the listener is bound to.
	PublicURL   string
	DataDir     string // CHECKOUT_DATA_DIR: SQLite file, sandbox state
	DatabaseURL string // CHECKOUT_DATABASE_URL: empty for SQLite in DataDir
	// DatabaseDirectURL (CHECKOUT_DATABASE_DIRECT_URL) is a session connection straight to
	// PostgreSQL, for LISTEN/NOTIFY and the reconciler's lease, when DatabaseURL goes through a
	// pooler in transaction mode; empty: DatabaseURL.
	DatabaseDirectURL    string
	GatewayURL           string   // CHECKOUT_GATEWAY_URL: empty for the embedded sandbox
	GatewayClientID      string   // CHECKOUT_GATEWAY_CLIENT_ID
	GatewayClientSecret  string   // CHECKOUT_GATEWAY_CLIENT_SECRET
	GatewayWebhookSecret string   // CHECKOUT_GATEWAY_WEBHOOK_SECRET: verifies webhook signatures
	FrameAncestors       []string // CHECKOUT_FRAME_ANCESTORS: origins allowed to embed the checkout
	AdminEmail           string   // CHECKOUT_ADMIN_EMAIL: first dashboard user
	AdminPassword        string   // CHECKOUT_ADMIN_PASSWORD
	MerchantAPIKey       string   // CHECKOUT_MERCHANT_API_KEY
	MerchantWebhookURL   string   // CHECKOUT_MERCHANT_WEBHOOK_URL: where merchant notifications go
	// MerchantWebhookSecret (CHECKOUT_MERCHANT_WEBHOOK_SECRET) signs them (whsec_…).
	MerchantWebhookSecret string
	MerchantName          string         // CHECKOUT_MERCHANT_NAME: shown on the shopper pages
	NewCartLimit          ratelimit.Rate // CHECKOUT_NEW_CART_LIMIT: carts one client address may start
	// StreamsPerClient (CHECKOUT_STREAMS_PER_CLIENT) caps the live-status streams of one client
	// address, ConnsPerPeer (CHECKOUT_CONNS_PER_PEER) the connections one peer address holds
	// open; 0 is "off".
	StreamsPerClient, ConnsPerPeer int
	// MetricsAddr (CHECKOUT_METRICS_ADDR) is where GET /metrics listens, never on the public
	// listener; "" or "off": no metrics.
	MetricsAddr string
	// TrustedProxies (CHECKOUT_TRUSTED_PROXIES) are the reverse proxies whose forwarding
	// headers are believed; none by default.
	TrustedProxies respond.Proxies
	CEPLookup      string // CHECKOUT_CEP_LOOKUP: "" (default), "off", or a URL template with {cep}
	// The payee as the shopper's bank shows it, and the support contact (shopper pages).
	MerchantLegalName string // CHECKOUT_MERCHANT_LEGAL_NAME (default: the merchant name)
	MerchantDocument  string // CHECKOUT_MERCHANT_DOCUMENT: CNPJ (or CPF)
	SupportEmail      string // CHECKOUT_SUPPORT_EMAIL
	SupportPhone      string // CHECKOUT_SUPPORT_PHONE
	SupportURL        string // CHECKOUT_SUPPORT_URL
	// SMTPURL (CHECKOUT_SMTP_URL) is the SMTP server the e-mails go through: smtp://user:pass@host:587
	// (STARTTLS) or smtps://user:pass@host:465; "" keeps every message in the e-mail log, unsent.
	SMTPURL  string
	MailFrom string // CHECKOUT_MAIL_FROM: the e-mails' sender, "Loja Demo <loja@example.com.br>"
	// DemoAddr (CHECKOUT_DEMO_ADDR) is where the sandbox's demo merchant page listens, a second
	// origin of the same process: "" for 127.0.0.1 and the port after CHECKOUT_ADDR's, "off"
	// for none. Only with the embedded sandbox.
	DemoAddr string
	// GatewayStartTimeout (CHECKOUT_GATEWAY_START_TIMEOUT) bounds the start-up check of a real
	// gateway (a token and one harmless read), retries included.
	GatewayStartTimeout time.Duration
	// GatewayDegradedStart (CHECKOUT_GATEWAY_START_CHECK=degraded) starts the checkout even when
	// the start-up check fails (a gateway known to be down for maintenance); the failure is
	// logged and the gateway's state followed as always.
	GatewayDegradedStart bool

	// Knobs for tests and tuning; Load sets their defaults.

	// CartRetention and WebhookIDRetention (CHECKOUT_RETENTION_CARTS, _WEBHOOK_IDS) are how long
	// an unchanged cart and a recorded webhook id are kept before the retention sweep deletes them.
	CartRetention, WebhookIDRetention time.Duration
	// SessionRetention (CHECKOUT_RETENTION_SESSIONS) is how long after its expiry a checkout
	// session that never got an order is kept.
	SessionRetention time.Duration
	// AuditRetention (CHECKOUT_RETENTION_AUDIT) is how long the dashboard's audit log keeps an
	// entry.
	AuditRetention time.Duration
	// PersonalDataRetention (CHECKOUT_RETENTION_PERSONAL_DATA) is how long an order keeps its
	// shopper's personal data once in a final state; then they are anonymised.
	PersonalDataRetention time.Duration

	// ReconcileInterval is the reconciler's pass interval; 0 or less turns the reconciler off.
	ReconcileInterval time.Duration
	// WebhooksEnabled forwards the embedded sandbox's webhooks to the checkout's own receiver.
	WebhooksEnabled bool
	// SandboxRateLimit (CHECKOUT_SANDBOX_RATE_LIMIT) bounds the embedded sandbox's
	// POST /transaction per client (zero: the sandbox's default, 50 a second in bursts of 100;
	// Off: none, for load tests). Only with the embedded sandbox: Validate refuses it beside a
	// real gateway, whose limits are the gateway's own.
	SandboxRateLimit sandbox.RateLimit
	// ShopperGatewayTimeout bounds a shopper's request's call to the gateway, retries included
	// (0: checkout.DefaultShopperGatewayTimeout); tests shorten it.
	ShopperGatewayTimeout time.Duration
	// GatewayProbeInterval is the longest time without a gateway call before a light probe
	// tells its state (0: DefaultGatewayProbeInterval); tests shorten it.
	GatewayProbeInterval time.Duration
	// GatewayProbeTimeout is how long a probe waits for the gateway (0:
	// DefaultGatewayProbeTimeout); tests shorten it.
	GatewayProbeTimeout time.Duration
	// GatewayTransport, when set, carries the gateway client's requests (benchmarks count them).
	GatewayTransport http.RoundTripper
	// NotificationSchedule is the wait after each failed delivery of a merchant notification
	// (nil: notify.RetrySchedule(), about 27 hours); tests shorten it.
	NotificationSchedule []time.Duration
	// MailSchedule is the wait after each failed attempt at an e-mail (nil:
	// mail.RetrySchedule(), about 16 hours); tests shorten it.
	MailSchedule []time.Duration
	// AlertInterval is how often the merchant's alerts' scheduler looks at the gateway's state
	// and whether the daily summary is due (0: DefaultAlertInterval; below 0: never, for tests
	// that run its passes themselves through App.Alerts).
	AlertInterval time.Duration
	// MailRootCAs, when set, are the only certificates trusted for the SMTP server's: tests
	// run one with a certificate of their own. There is no setting for it, and verification is
	// never turned off.
	MailRootCAs *x509.CertPool
	// SSEHeartbeat is the interval of the live page's heartbeat comments (0: web.DefaultHeartbeat).
	SSEHeartbeat time.Duration
	// Clock, when set, is the time of the checkout and of the embedded sandbox.
	Clock func() time.Time
	// Passwords, when set, hashes the dashboard users' passwords instead of argon2id at
	// team.OWASPParams: tests start many apps and give it cheap parameters, as the team
	// package's own tests do. There is no setting for it.
	Passwords *team.Hasher
	// Stdout receives the start banner (the URLs); nil discards it.
	Stdout io.Writer
	// Command is how the user runs the program, for the banner's advice ("" is
	// DefaultCommand): "go run ./cmd/checkout", or "./checkout" for a binary built from it.
	Command string
	// LogOutput receives the JSON logs; nil discards them.
	LogOutput io.Writer

	// SecretKey (CHECKOUT_SECRET_KEY) seals the secrets kept in the database: base64 keys of 32
	// bytes separated by commas, the sealing one first (the others still open what they sealed,
	// and every start reseals with the first). Empty: the key file of the data dir.
	SecretKey string

	// fromFlags names the flag of each variable whose value came from the command line.
	fromFlags map[string]string
}

// Name is how a problem with the variable env is reported: its flag ("-public-url") when
// Load took the value from the command line, else the variable itself.
func (c Config) Name(env string) string {
	if f, ok := c.fromFlags[env]; ok {
		return "-" + f
	}
	return env
}

// named returns err, a *ConfigError's variable named as Name says.
func (c Config) named(err error) error {
	var ce *ConfigError
	if errors.As(err, &ce) {
		return &ConfigError{Var: c.Name(ce.Var), Msg: ce.Msg}
	}
	return err
}

// Sandbox reports whether the embedded sandbox gateway is used (no gateway URL configured).
func (c Config) Sandbox() bool { return c.GatewayURL == "" }

// Defaults returns the configuration used when nothing is set.
func Defaults() Config {
	return Config{
		Addr:                DefaultAddr,
		DataDir:             DefaultDataDir,
		MerchantName:        DefaultMerchantName,
		NewCartLimit:        web.DefaultNewCartLimit,
		StreamsPerClient:    web.DefaultMaxStreamsPerClient,
		ConnsPerPeer:        web.DefaultConnsPerPeer,
		ReconcileInterval:   DefaultReconcileInterval,
		GatewayStartTimeout: DefaultGatewayStartTimeout,
		CartRetention:       checkout.DefaultCartRetention,
		WebhookIDRetention:  checkout.DefaultWebhookIDRetention,
		SessionRetention:    checkout.DefaultSessionRetention,
		AuditRetention:      audit.DefaultAuditRetention,
		WebhooksEnabled:     true,

		PersonalDataRetention: checkout.DefaultPersonalDataRetention,
	}
}

// ConfigError is a configuration problem; its message is one line naming the variable, or
// the flag when the value came from the command line.
type ConfigError struct {
	Var string // the environment variable, e.g. "CHECKOUT_PUBLIC_URL", or the flag, "-public-url"
	Msg string
}

// Error is "config: VARIABLE: problem" (or "config: -flag: problem").
func (e *ConfigError) Error() string { return "config: " + e.Var + ": " + e.Msg }

// setting is one variable of the configuration table: its environment name, its flag name, its
// help, and where it goes.
type setting struct {
	env, flag, usage string
	set              func(c *Config, v string) error
}

// variables is the configuration table, one entry per variable in the order -h lists them: long
// because the variables are many, not because it branches.
func variables() []setting {
	return []setting{
		{"CHECKOUT_ADDR", "addr", "listen address", str(func(c *Config) *string { return &c.Addr })},
		{"CHECKOUT_PUBLIC_URL", "public-url", "the URL shoppers and the gateway reach (behind a proxy, its https:// URL)", str(func(c *Config) *string { return &c.PublicURL })},
		{"CHECKOUT_DATA_DIR", "data-dir", "directory of the SQLite database and the sandbox state", str(func(c *Config) *string { return &c.DataDir })},
		{"CHECKOUT_DATABASE_URL", "database-url", "postgres://… for PostgreSQL (default: SQLite in the data dir)", str(func(c *Config) *string { return &c.DatabaseURL })},
		{"CHECKOUT_DATABASE_DIRECT_URL", "database-direct-url", "postgres://… straight to PostgreSQL (a session connection, not PgBouncer's transaction pooling) for LISTEN/NOTIFY and the reconciler's lease (default: CHECKOUT_DATABASE_URL)", str(func(c *Config) *string { return &c.DatabaseDirectURL })},
		{"CHECKOUT_GATEWAY_URL", "gateway-url", "gateway base URL, path prefix included (default: the embedded sandbox)", str(func(c *Config) *string { return &c.GatewayURL })},
		{"CHECKOUT_GATEWAY_CLIENT_ID", "gateway-client-id", "gateway client id", str(func(c *Config) *string { return &c.GatewayClientID })},
		{"CHECKOUT_GATEWAY_CLIENT_SECRET", "gateway-client-secret", "gateway client secret", str(func(c *Config) *string { return &c.GatewayClientSecret })},
		{"CHECKOUT_GATEWAY_WEBHOOK_SECRET", "gateway-webhook-secret", "secret verifying the gateway's webhook signatures (whsec_…)", str(func(c *Config) *string { return &c.GatewayWebhookSecret })},
		{"CHECKOUT_FRAME_ANCESTORS", "frame-ancestors", "origins allowed to embed the checkout, separated by spaces or commas", func(c *Config, v string) error {
			c.FrameAncestors = strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
			return nil
		}},
		{"CHECKOUT_ADMIN_EMAIL", "admin-email", "first dashboard user's e-mail", str(func(c *Config) *string { return &c.AdminEmail })},
		{"CHECKOUT_ADMIN_PASSWORD", "admin-password", "first dashboard user's password", str(func(c *Config) *string { return &c.AdminPassword })},
		{"CHECKOUT_MERCHANT_API_KEY", "merchant-api-key", "a merchant API key accepted in addition to the dashboard's", str(func(c *Config) *string { return &c.MerchantAPIKey })},
		{"CHECKOUT_MERCHANT_WEBHOOK_URL", "merchant-webhook-url", "where merchant notifications go (https, or http on loopback); wins over the dashboard's", str(func(c *Config) *string { return &c.MerchantWebhookURL })},
		{"CHECKOUT_MERCHANT_WEBHOOK_SECRET", "merchant-webhook-secret", "the whsec_ secret signing merchant notifications; wins over the dashboard's", str(func(c *Config) *string { return &c.MerchantWebhookSecret })},
		{"CHECKOUT_SECRET_KEY", "secret-key", "base64 key(s) sealing the secrets kept in the database, the newest first, comma-separated (default: the file secret.key of the data dir, made at the first start)", func(c *Config, v string) error {
			if _, err := sealed.ParseKeys(v); err != nil {
				return err
			}
			c.SecretKey = v
			return nil
		}},
		{"CHECKOUT_DEMO_ADDR", "demo-addr", "where the sandbox's demo merchant page listens, a second origin (off: none; default 127.0.0.1 and the port after CHECKOUT_ADDR's)", str(func(c *Config) *string { return &c.DemoAddr })},
		{"CHECKOUT_MERCHANT_NAME", "merchant-name", "merchant name shown to shoppers", str(func(c *Config) *string { return &c.MerchantName })},
		{"CHECKOUT_RETENTION_CARTS", "retention-carts", "how long a cart nobody changes is kept (abandoned carts are then deleted)", retention(func(c *Config) *time.Duration { return &c.CartRetention })},
		{"CHECKOUT_RETENTION_WEBHOOK_IDS", "retention-webhook-ids", "how long a webhook id is kept to recognise redeliveries (longer than the gateway's retries)", retention(func(c *Config) *time.Duration { return &c.WebhookIDRetention })},
		{"CHECKOUT_RETENTION_SESSIONS", "retention-sessions", "how long after its expiry a checkout session without an order is kept", retention(func(c *Config) *time.Duration { return &c.SessionRetention })},
		{"CHECKOUT_RETENTION_AUDIT", "retention-audit", "how long the dashboard's audit log keeps an entry", retention(func(c *Config) *time.Duration { return &c.AuditRetention })},
		{"CHECKOUT_RETENTION_PERSONAL_DATA", "retention-personal-data", "how long an order keeps its shopper's personal data once paid, expired, failed or refunded (then anonymised)", retention(func(c *Config) *time.Duration { return &c.PersonalDataRetention })},
		{"CHECKOUT_RECONCILE_INTERVAL", "reconcile-interval", "reconciler pass interval (0 turns it off)", func(c *Config, v string) error {
			d, err := time.ParseDuration(strings.TrimSpace(v))
			if err != nil || d < 0 {
				return errors.New("must be a non-negative duration such as 5s")
			}
			c.ReconcileInterval = d
			return nil
		}},
		{"CHECKOUT_GATEWAY_START_TIMEOUT", "gateway-start-timeout", "how long the start-up check of a real gateway (a token and one harmless read) may retry before the start fails (at most 45s)", func(c *Config, v string) error {
			d, err := time.ParseDuration(strings.TrimSpace(v))
			if err != nil || d < time.Second || d > 45*time.Second {
				return errors.New("must be a duration from 1s to 45s, such as 40s")
			}
			c.GatewayStartTimeout = d
			return nil
		}},
		{"CHECKOUT_GATEWAY_START_CHECK", "gateway-start-check", "strict: a real gateway that fails the start-up check stops the start (exit status 2); degraded: start anyway, for a gateway known to be down", func(c *Config, v string) error {
			switch strings.ToLower(strings.TrimSpace(v)) {
			case "strict":
				c.GatewayDegradedStart = false
			case "degraded":
				c.GatewayDegradedStart = true
			default:
				return errors.New("must be strict or degraded")
			}
			return nil
		}},
		{"CHECKOUT_WEBHOOKS", "webhooks", "forward the embedded sandbox's webhooks to the checkout (true or false)", func(c *Config, v string) error {
			b, err := strconv.ParseBool(strings.TrimSpace(v))
			if err != nil {
				return errors.New("must be true or false")
			}
			c.WebhooksEnabled = b
			return nil
		}},
		{"CHECKOUT_MERCHANT_LEGAL_NAME", "merchant-legal-name", "the payee's legal name as the shopper's bank shows it (default: the merchant name; the embedded sandbox has a demo one)", str(func(c *Config) *string { return &c.MerchantLegalName })},
		{"CHECKOUT_MERCHANT_DOCUMENT", "merchant-document", "the payee's CNPJ (or CPF), shown on the PIX page and the receipt", str(func(c *Config) *string { return &c.MerchantDocument })},
		{"CHECKOUT_SUPPORT_EMAIL", "support-email", "support e-mail shown to shoppers", str(func(c *Config) *string { return &c.SupportEmail })},
		{"CHECKOUT_SUPPORT_PHONE", "support-phone", "support phone shown to shoppers (Brazilian number with area code)", str(func(c *Config) *string { return &c.SupportPhone })},
		{"CHECKOUT_SUPPORT_URL", "support-url", "a help page for shoppers (https)", str(func(c *Config) *string { return &c.SupportURL })},
		{"CHECKOUT_SMTP_URL", "smtp-url", "the SMTP server e-mails go through: smtp://user:password@host:587 (STARTTLS, required unless on loopback) or smtps://user:password@host:465, user and password URL-escaped (default: none; messages stay in the dashboard's e-mail log, unsent)", str(func(c *Config) *string { return &c.SMTPURL })},
		{"CHECKOUT_MAIL_FROM", "mail-from", "the e-mails' sender, such as \"Loja Demo <loja@example.com.br>\" (required with CHECKOUT_SMTP_URL)", str(func(c *Config) *string { return &c.MailFrom })},
		{"CHECKOUT_CEP_LOOKUP", "cep-lookup", "address lookup of the customer form: a URL template with {cep} answering ViaCEP's JSON, or off (default: a built-in table with the embedded sandbox, ViaCEP with a real gateway)", str(func(c *Config) *string { return &c.CEPLookup })},
		{"CHECKOUT_SANDBOX_RATE_LIMIT", "sandbox-rate-limit", "embedded sandbox only: its POST /transaction limit, as a real gateway has one — requests per period (50/s, 1000/s, 3000/m; bursts of twice that, or \"50/s burst 200\") or off for load tests", func(c *Config, v string) error {
			l, err := ratelimit.Parse(v)
			if err != nil {
				return err
			}
			c.SandboxRateLimit = l
			return nil
		}},
		{"CHECKOUT_STREAMS_PER_CLIENT", "streams-per-client", "live-status streams one client address may hold open (past it the page polls); off for load tests (behind a reverse proxy, set CHECKOUT_TRUSTED_PROXIES)", count(func(c *Config) *int { return &c.StreamsPerClient })},
		{"CHECKOUT_CONNS_PER_PEER", "conns-per-peer", "connections one peer address may hold open (further ones are closed at once); this machine's addresses and CHECKOUT_TRUSTED_PROXIES are exempt", count(func(c *Config) *int { return &c.ConnsPerPeer })},
		{"CHECKOUT_METRICS_ADDR", "metrics-addr", "where Prometheus's GET /metrics listens, a listener of its own never on the public one, such as 127.0.0.1:9090 (default off)", str(func(c *Config) *string { return &c.MetricsAddr })},
		{"CHECKOUT_TRUSTED_PROXIES", "trusted-proxies", "reverse proxies whose X-Forwarded-For, Forwarded and X-Forwarded-Proto are believed, as CIDRs or addresses separated by commas (default: nobody's); every per-address limit then uses the client they forward, and they are exempt from the per-peer connection cap", func(c *Config, v string) error {
			p, err := respond.ParseProxies(v)
			if err != nil {
				return err
			}
			c.TrustedProxies = p
			return nil
		}},
		{"CHECKOUT_NEW_CART_LIMIT", "new-cart-limit", "carts one client address may start, such as 60/min or 10/s (off: no limit; behind a reverse proxy, set CHECKOUT_TRUSTED_PROXIES)", setNewCartLimit},
	}
}

// str sets a text field, trimmed.
func str(dst func(c *Config) *string) func(c *Config, v string) error {
	return func(c *Config, v string) error { *dst(c) = strings.TrimSpace(v); return nil }
}

// retention sets a retention: a duration of at least an hour, in hours or days.
func retention(dst func(c *Config) *time.Duration) func(c *Config, v string) error {
	return func(c *Config, v string) error {
		d, err := parseDays(strings.TrimSpace(v))
		if err != nil || d < time.Hour {
			return errors.New("must be a duration of at least an hour, such as 168h or 365d")
		}
		*dst(c) = d
		return nil
	}
}

// count sets a positive whole number, or off (0).
func count(dst func(c *Config) *int) func(c *Config, v string) error {
	return func(c *Config, v string) error {
		v = strings.ToLower(strings.TrimSpace(v))
		if v == "off" {
			*dst(c) = 0
			return nil
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return errors.New("must be a positive whole number, or off")
		}
		*dst(c) = n
		return nil
	}
}

// setNewCartLimit sets CHECKOUT_NEW_CART_LIMIT: a rate, or off.
func setNewCartLimit(c *Config, v string) error {
	r, err := ratelimit.Parse(v)
	if err == nil && r == (ratelimit.Rate{}) {
		err = errors.New("must be a rate such as 60/min, 10/s or 1000/h, or off")
	}
	c.NewCartLimit = r
	return err
}

// defaults shows each setting's default in the help, by variable.
var defaults = map[string]func(c Config) string{
	"CHECKOUT_ADDR":                  func(c Config) string { return c.Addr },
	"CHECKOUT_PUBLIC_URL":            func(Config) string { return "http:// and the address bound, such as http://localhost:8080" },
	"CHECKOUT_DATA_DIR":              func(c Config) string { return c.DataDir },
	"CHECKOUT_MERCHANT_NAME":         func(c Config) string { return c.MerchantName },
	"CHECKOUT_RECONCILE_INTERVAL":    func(c Config) string { return c.ReconcileInterval.String() },
	"CHECKOUT_RETENTION_CARTS":       func(c Config) string { return c.CartRetention.String() },
	"CHECKOUT_RETENTION_WEBHOOK_IDS": func(c Config) string { return c.WebhookIDRetention.String() },
	"CHECKOUT_RETENTION_SESSIONS":    func(c Config) string { return c.SessionRetention.String() },
	"CHECKOUT_RETENTION_AUDIT":       func(c Config) string { return c.AuditRetention.String() },
	"CHECKOUT_WEBHOOKS":              func(c Config) string { return strconv.FormatBool(c.WebhooksEnabled) },
	"CHECKOUT_GATEWAY_START_TIMEOUT": func(c Config) string { return c.GatewayStartTimeout.String() },
	"CHECKOUT_GATEWAY_START_CHECK":   func(Config) string { return "strict" },
	"CHECKOUT_NEW_CART_LIMIT":        func(c Config) string { return c.NewCartLimit.String() },
	"CHECKOUT_STREAMS_PER_CLIENT":    func(c Config) string { return formatCount(c.StreamsPerClient) },
	"CHECKOUT_CONNS_PER_PEER":        func(c Config) string { return formatCount(c.ConnsPerPeer) },
	"CHECKOUT_SANDBOX_RATE_LIMIT":    func(c Config) string { return c.SandboxRateLimit.Or(sandbox.DefaultRateLimit).String() },

	"CHECKOUT_RETENTION_PERSONAL_DATA": func(c Config) string { return c.PersonalDataRetention.String() },
}

// parseDays reads a duration as time.ParseDuration does, or a whole number of days ("365d"),
// the unit retentions are thought in.
func parseDays(v string) (time.Duration, error) {
	if n, ok := strings.CutSuffix(v, "d"); ok {
		days, err := strconv.Atoi(n)
		if err != nil || days < 0 || days > 100*365 {
			return 0, errors.New("not a number of days")
		}
		return time.Duration(days) * 24 * time.Hour, nil
	}
	return time.ParseDuration(v)
}

// formatCount writes a count setting as it is read: a number, or off.
func formatCount(n int) string {
	if n <= 0 {
		return "off"
	}
	return strconv.Itoa(n)
}

// Load reads the configuration: defaults, then the environment (env, usually os.Getenv), then
// the command-line flags in args (without the program name), which win. The result is
// validated; any problem is a *ConfigError naming the variable, or the flag when the value
// came from one. -h gives flag.ErrHelp.
func Load(env func(string) string, args []string) (Config, error) {
	c := Defaults()
	all := variables()
	for _, s := range all {
		if v := env(s.env); v != "" {
			if err := s.set(&c, v); err != nil {
				return Config{}, &ConfigError{Var: s.env, Msg: err.Error()}
			}
		}
	}
	fs := flag.NewFlagSet("checkout", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var flagErr error
	c.fromFlags = map[string]string{}
	for _, s := range all {
		fs.Func(s.flag, s.usage+" ("+s.env+")", func(v string) error {
			c.fromFlags[s.env] = s.flag
			if err := s.set(&c, v); err != nil {
				flagErr = &ConfigError{Var: "-" + s.flag, Msg: err.Error()}
				return err
			}
			return nil
		})
	}
	if err := fs.Parse(args); err != nil {
		if flagErr != nil {
			return Config{}, flagErr
		}
		if errors.Is(err, flag.ErrHelp) {
			return Config{}, err
		}
		return Config{}, &ConfigError{Var: "command line", Msg: err.Error()}
	}
	if fs.NArg() > 0 {
		return Config{}, &ConfigError{Var: "command line", Msg: fmt.Sprintf("unexpected argument %q", fs.Arg(0))}
	}
	if err := c.Validate(); err != nil {
		return Config{}, c.named(err)
	}
	return c, nil
}

// Usage returns the help text of the program run as prog: every flag with its variable.
func Usage(prog string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Usage: %s [flags]\n\nEvery flag may also be set through its environment variable; flags win.\n\n", prog)
	def := Defaults()
	for _, s := range variables() {
		fmt.Fprintf(&b, "  -%s\t%s\n    \t%s", s.flag, s.env, s.usage)
		if d, ok := defaults[s.env]; ok {
			fmt.Fprintf(&b, " (default %s)", d(def))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// Validate checks every field and returns a *ConfigError for the first problem.
func (c Config) Validate() error {
	for _, r := range rules {
		if msg := r.check(c); msg != "" {
			return &ConfigError{r.env, msg}
		}
	}
	return nil
}

// rule is one field's check: the variable a problem is reported under, and the problem with the
// configuration ("" when there is none).
type rule struct {
	env   string
	check func(c Config) string
}

// rules are Validate's checks in the order their problems are reported (a gateway's URL before
// its credentials). Each field's rule is beside its variable; an empty value is the default
// unless a rule says otherwise.
var rules = []rule{
	{"CHECKOUT_ADDR", func(c Config) string { return hostPort(c.Addr, "(e.g. :8080)") }},
	{"CHECKOUT_PUBLIC_URL", func(c Config) string { return httpURL(c.PublicURL, false) }},
	{"CHECKOUT_DATA_DIR", func(c Config) string { return failIf(strings.TrimSpace(c.DataDir) == "", "must not be empty") }},
	// Never echo a database URL: it may hold a password.
	{"CHECKOUT_DATABASE_URL", func(c Config) string {
		return failIf(c.DatabaseURL != "" && !postgresURL(c.DatabaseURL), "must be a postgres://user:password@host/dbname URL (or empty for SQLite in the data dir)")
	}},
	{"CHECKOUT_DATABASE_DIRECT_URL", func(c Config) string {
		if c.DatabaseDirectURL != "" && c.DatabaseURL == "" {
			return "applies to PostgreSQL only: set CHECKOUT_DATABASE_URL too"
		}
		return failIf(c.DatabaseDirectURL != "" && !postgresURL(c.DatabaseDirectURL), "must be a postgres://user:password@host/dbname URL straight to PostgreSQL")
	}},
	{"CHECKOUT_GATEWAY_URL", func(c Config) string { return httpURL(c.GatewayURL, true) }},
	{"CHECKOUT_GATEWAY_CLIENT_ID", func(c Config) string {
		return failIf(!c.Sandbox() && c.GatewayClientID == "", "is required when CHECKOUT_GATEWAY_URL is set")
	}},
	{"CHECKOUT_GATEWAY_CLIENT_SECRET", func(c Config) string {
		return failIf(!c.Sandbox() && c.GatewayClientSecret == "", "is required when CHECKOUT_GATEWAY_URL is set")
	}},
	// A limit for a sandbox that is not there would be silently ignored, and someone load-testing
	// a real gateway with "off" would believe the checkout's own limit lifted: refuse it.
	{"CHECKOUT_SANDBOX_RATE_LIMIT", func(c Config) string {
		return failIf(!c.Sandbox() && c.SandboxRateLimit != (sandbox.RateLimit{}),
			"applies to the embedded sandbox only: unset it when CHECKOUT_GATEWAY_URL is set (the real gateway's limits are its own)")
	}},
	// The gateway's contract does not show its signing scheme: its secret is taken as Standard
	// Webhooks' whsec_<base64> or as the bare base64, several during a rotation.
	{"CHECKOUT_GATEWAY_WEBHOOK_SECRET", func(c Config) string {
		if _, err := webhook.CheckSecret(c.GatewayWebhookSecret); c.GatewayWebhookSecret != "" && err != nil {
			return fmt.Sprintf("must be whsec_<base64> or base64, several separated by spaces (%v)", strings.TrimPrefix(err.Error(), "webhook: invalid secret: "))
		}
		return ""
	}},
	{"CHECKOUT_FRAME_ANCESTORS", func(c Config) string {
		for _, o := range c.FrameAncestors {
			if err := checkout.CheckFrameAncestor(o); err != nil {
				return fmt.Sprintf("%q: %v", o, err)
			}
		}
		return ""
	}},
	{"CHECKOUT_MERCHANT_WEBHOOK_URL", func(c Config) string {
		if err := (settings.Config{WebhookURL: c.MerchantWebhookURL}).Check(); c.MerchantWebhookURL != "" && err != nil {
			return strings.TrimPrefix(err.Error(), "webhook URL: ")
		}
		return ""
	}},
	{"CHECKOUT_MERCHANT_WEBHOOK_SECRET", func(c Config) string {
		err := (settings.Config{WebhookSecret: c.MerchantWebhookSecret}).Check()
		return failIf(c.MerchantWebhookSecret != "" && err != nil, "must be whsec_ followed by standard base64")
	}},
	{"CHECKOUT_METRICS_ADDR", func(c Config) string {
		if msg := optionalHostPort(c.MetricsAddr, "(e.g. 127.0.0.1:9090) or off"); msg != "" {
			return msg
		}
		return failIf(c.MetricsAddr == c.Addr && !strings.HasSuffix(c.Addr, ":0"), "must not be CHECKOUT_ADDR: metrics are never served on the public listener")
	}},
	{"CHECKOUT_DEMO_ADDR", func(c Config) string { return optionalHostPort(c.DemoAddr, "(e.g. 127.0.0.1:8081) or off") }},
	{"CHECKOUT_ADMIN_EMAIL", func(c Config) string {
		return failIf(c.AdminEmail != "" && !strings.Contains(c.AdminEmail, "@"), "must be an e-mail address")
	}},
	{"CHECKOUT_ADMIN_PASSWORD", func(c Config) string {
		email := cmp.Or(c.AdminEmail, team.DefaultAdminEmail)
		if v := team.CheckPassword(c.AdminPassword, email); c.AdminPassword != "" && v != nil {
			return v.Message
		}
		return ""
	}},
	{"CHECKOUT_MERCHANT_NAME", func(c Config) string {
		n := utf8.RuneCountInString(c.MerchantName)
		return failIf(n < 1 || n > 100, "must have 1 to 100 characters")
	}},
	{"CHECKOUT_MERCHANT_LEGAL_NAME", func(c Config) string {
		return failIf(utf8.RuneCountInString(c.MerchantLegalName) > 150, "must have at most 150 characters")
	}},
	{"CHECKOUT_MERCHANT_DOCUMENT", func(c Config) string {
		return failIf(c.MerchantDocument != "" && !brdoc.ValidDocument(c.MerchantDocument), "must be a valid CNPJ or CPF")
	}},
	{"CHECKOUT_SUPPORT_EMAIL", func(c Config) string {
		return failIf(c.SupportEmail != "" && !brdoc.ValidEmail(c.SupportEmail), "must be an e-mail address")
	}},
	{"CHECKOUT_SUPPORT_PHONE", func(c Config) string {
		return failIf(c.SupportPhone != "" && brdoc.NormalizePhone(c.SupportPhone) == "", "must be a Brazilian phone number with area code")
	}},
	{"CHECKOUT_SUPPORT_URL", func(c Config) string {
		u, err := url.Parse(c.SupportURL)
		return failIf(c.SupportURL != "" && (err != nil || u.Scheme != "https" || u.Host == ""), "must be an https:// URL")
	}},
	{"CHECKOUT_CEP_LOOKUP", func(c Config) string {
		v := c.CEPLookup
		if v == "" || v == "off" {
			return ""
		}
		if !strings.Contains(v, "{cep}") {
			return "must be off or a URL template holding {cep}, such as https://viacep.com.br/ws/{cep}/json/"
		}
		u, err := url.Parse(strings.ReplaceAll(v, "{cep}", "01310100"))
		return failIf(err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "", "must be an http:// or https:// URL template holding {cep}")
	}},
	{"CHECKOUT_RECONCILE_INTERVAL", func(c Config) string { return failIf(c.ReconcileInterval < 0, "must not be negative") }},
	// The SMTP URL's errors never repeat it: it holds a password.
	{"CHECKOUT_SMTP_URL", func(c Config) string {
		if c.SMTPURL == "" {
			return ""
		}
		if _, err := mail.ParseServer(c.SMTPURL); err != nil {
			return err.Error()
		}
		return ""
	}},
	{"CHECKOUT_MAIL_FROM", func(c Config) string {
		if c.MailFrom == "" {
			return failIf(c.SMTPURL != "", `is required with CHECKOUT_SMTP_URL, e.g. "Loja Demo <loja@example.com.br>"`)
		}
		if _, err := mail.ParseFrom(c.MailFrom); err != nil {
			return err.Error()
		}
		return ""
	}},
}

// failIf is a rule's answer: msg when the value is bad, else "".
func failIf(bad bool, msg string) string {
	if bad {
		return msg
	}
	return ""
}

// hostPort checks a listen address; example follows "is not host:port" in its message.
func hostPort(v, example string) string {
	_, port, err := net.SplitHostPort(v)
	if err != nil {
		return fmt.Sprintf("%q is not host:port %s", v, example)
	}
	n, err := strconv.Atoi(port)
	return failIf(err != nil || n < 0 || n > 65535, fmt.Sprintf("%q has no valid port", v))
}

// optionalHostPort checks a listen address that may be "" or "off" (none).
func optionalHostPort(v, example string) string {
	return failIf(v != "" && v != "off", hostPort(v, example))
}

// httpURL checks an optional http(s) URL as checkHTTPURL does.
func httpURL(v string, pathAllowed bool) string {
	if v == "" {
		return ""
	}
	if err := checkHTTPURL(v, pathAllowed); err != nil {
		return err.Error()
	}
	return ""
}

// postgresURL reports whether v is a postgres:// (or postgresql://) URL with a host.
func postgresURL(v string) bool {
	u, err := url.Parse(v)
	return err == nil && (u.Scheme == "postgres" || u.Scheme == "postgresql") && u.Host != ""
}

// checkHTTPURL checks an absolute http(s) URL without query, fragment or user information.
func checkHTTPURL(s string, pathAllowed bool) error {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return errors.New("must be an absolute http:// or https:// URL")
	}
	if u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return errors.New("must not carry user information, a query or a fragment")
	}
	if !pathAllowed && strings.Trim(u.Path, "/") != "" {
		return errors.New("must not have a path (serve the checkout at the root of its host)")
	}
	return nil
}
