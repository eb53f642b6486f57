package settings

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/charges"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/webhook"
)

// Names of the settings' inputs, used as the keys of their *checkout.ValidationError (and as the
// names of the dashboard's form inputs).
const (
	FieldWebhookURL   = "webhook_url"
	FieldFrameOrigins = "frame_origins"
	// FieldNotifyPersonalData: whether the notifications carry the shopper's personal data.
	FieldNotifyPersonalData = "notify_personal_data"
)

// MaxFrameOrigins bounds the origins of Settings.FrameOrigins.
const MaxFrameOrigins = 20

// Settings are the merchant's settings as stored.
type Settings struct {
	// WebhookURL receives the merchant notifications; "" sends none.
	WebhookURL string
	// WebhookSecret ("whsec_…") signs them; made when a URL is first set.
	WebhookSecret string
	// PreviousSecret, the secret a rotation replaced, still signs (beside WebhookSecret)
	// until PreviousUntil, so that the merchant's server may move to the new one meanwhile.
	PreviousSecret string
	PreviousUntil  time.Time
	// FrameOrigins may frame the shopper pages, besides CHECKOUT_FRAME_ANCESTORS and each
	// checkout session's own embedOrigin.
	FrameOrigins []string
	// Shipping is the shipping of physical goods: orders pay it by these settings.
	Shipping  checkout.Shipping
	UpdatedAt time.Time

	// NotifyPersonalData: the notifications carry the shopper's personal data (name, document,
	// e-mail, phones, address). Off for a new install; on for one from before the setting.
	NotifyPersonalData bool

	// ShopperMail says which e-mails the shopper is sent (ShopperMessages), as the merchant
	// set them; a kind not in it follows its default (SendsShopper). Nil when never set.
	ShopperMail map[string]bool

	// ChargeReminders is the schedule of the charges' e-mail reminders; nil when never set
	// (charges.DefaultReminders).
	ChargeReminders *charges.Reminders

	// SubscriptionLeadDays: a subscription's charge is issued this many days before its due
	// date (0: subscriptions.DefaultLeadDays).
	SubscriptionLeadDays int
}

// Store keeps the one set of merchant settings.
type Store interface {
	// MerchantSettings returns the stored settings; the zero Settings when none were saved.
	MerchantSettings(ctx context.Context) (Settings, error)
	// SaveMerchantSettings replaces the stored settings.
	SaveMerchantSettings(ctx context.Context, s Settings) error
}

// Effective are the settings in force: the stored ones with the configuration's values on
// top, and where each came from.
type Effective struct {
	Settings
	// URLFromConfig and SecretFromConfig: CHECKOUT_MERCHANT_WEBHOOK_URL / _SECRET are set and
	// win over the stored values (a settings page shows them read-only).
	URLFromConfig, SecretFromConfig bool
	// Signing is what signs the notifications now: the secret, and the previous one while
	// the rotation's overlap lasts, separated by a space (see gatewayclient/webhook).
	Signing string
	// Overlap: the previous secret still signs (until PreviousUntil).
	Overlap bool
}

// RotationOverlap is how long a rotated secret keeps signing beside the new one: time for the
// merchant to put the new secret on their server, with no notification refused meanwhile.
const RotationOverlap = 24 * time.Hour

// TrustedURL reports whether deliveries to the webhook URL skip the SSRF guard: only the
// operator's own configuration is trusted; a URL typed by a merchant never is.
func (e Effective) TrustedURL() bool { return e.URLFromConfig }

// Config are the settings fixed by the configuration.
type Config struct {
	WebhookURL    string // CHECKOUT_MERCHANT_WEBHOOK_URL
	WebhookSecret string // CHECKOUT_MERCHANT_WEBHOOK_SECRET
}

// Check returns the problem of a configured URL or secret, naming it, or nil.
func (c Config) Check() error {
	if c.WebhookURL != "" {
		if err := checkTrustedURL(c.WebhookURL); err != nil {
			return fmt.Errorf("webhook URL: %w", err)
		}
	}
	if c.WebhookSecret != "" {
		if _, err := webhook.Sign(c.WebhookSecret, "check", time.Unix(0, 0), nil); err != nil {
			return errors.New("webhook secret: must be whsec_ followed by standard base64")
		}
	}
	return nil
}

// Manager reads and changes the merchant's settings. It is safe for concurrent use.
type Manager struct {
	store Store
	cfg   Config
	now   func() time.Time

	// The settings, whose frame origins are read on every shopper page, are kept for
	// frameOriginsTTL.
	mu     sync.Mutex
	read   Settings
	readAt time.Time // when read was read; zero: never
}

// frameOriginsTTL is how long FrameOrigins keeps what it read: a change made on another
// instance applies within it (one made through this manager applies at once).
const frameOriginsTTL = 5 * time.Second

// FrameOrigins returns the origins the stored settings allow to frame the shopper pages, read
// at most every few seconds (the shopper pages ask on every answer). When the store cannot be
// read it returns what it read last, with the error.
func (m *Manager) FrameOrigins(ctx context.Context) ([]string, error) {
	s, err := m.recent(ctx)
	return s.FrameOrigins, err
}

// NotifyPersonalData reports whether the notifications carry the shopper's personal data
// (Settings.NotifyPersonalData), read at most every few seconds as FrameOrigins: for the
// Announcer, asked at every change of an order.
func (m *Manager) NotifyPersonalData(ctx context.Context) (bool, error) {
	s, err := m.recent(ctx)
	return s.NotifyPersonalData, err
}

// recent returns the stored settings as read at most frameOriginsTTL ago; when the store
// cannot be read, what it read last, with the error.
func (m *Manager) recent(ctx context.Context) (Settings, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.readAt.IsZero() && time.Since(m.readAt) < frameOriginsTTL {
		return m.read, nil
	}
	s, err := m.store.MerchantSettings(ctx)
	if err != nil {
		return m.read, fmt.Errorf("settings: reading settings: %w", err)
	}
	m.read, m.readAt = s, time.Now()
	return s, nil
}

// forget drops what FrameOrigins keeps, after a change.
func (m *Manager) forget() {
	m.mu.Lock()
	m.readAt = time.Time{}
	m.mu.Unlock()
}

// NewManager returns a SettingsManager on store with the configuration's values.
func NewManager(store Store, cfg Config, clock func() time.Time) *Manager {
	if clock == nil {
		clock = time.Now
	}
	return &Manager{store: store, cfg: cfg, now: clock}
}

// Get returns the settings in force.
func (m *Manager) Get(ctx context.Context) (Effective, error) {
	s, err := m.store.MerchantSettings(ctx)
	if err != nil {
		return Effective{}, fmt.Errorf("settings: reading settings: %w", err)
	}
	e := Effective{Settings: s}
	if m.cfg.WebhookURL != "" {
		e.WebhookURL, e.URLFromConfig = m.cfg.WebhookURL, true
	}
	e.Signing = e.WebhookSecret
	if m.cfg.WebhookSecret != "" {
		// The operator rotates the configured secret by listing both in the variable.
		e.WebhookSecret, e.SecretFromConfig, e.Signing = m.cfg.WebhookSecret, true, m.cfg.WebhookSecret
	} else if s.PreviousSecret != "" && m.now().Before(s.PreviousUntil) {
		e.Signing, e.Overlap = s.WebhookSecret+" "+s.PreviousSecret, true
	}
	return e, nil
}

// Shipping returns the shipping settings in force, for checkout.ServiceOptions.Shipping.
func (m *Manager) Shipping(ctx context.Context) (checkout.Shipping, error) {
	s, err := m.store.MerchantSettings(ctx)
	if err != nil {
		return checkout.Shipping{}, fmt.Errorf("settings: reading settings: %w", err)
	}
	return s.Shipping, nil
}

// UpdateShipping validates sh and stores it, keeping the other settings. Its problems come
// back as a *checkout.ValidationError keyed by flat_rate, free_above and delivery_days; nothing is
// stored then.
func (m *Manager) UpdateShipping(ctx context.Context, sh checkout.Shipping) error {
	if fe := sh.Check(); fe != nil {
		return fe
	}
	cur, err := m.store.MerchantSettings(ctx)
	if err != nil {
		return fmt.Errorf("settings: reading settings: %w", err)
	}
	cur.Shipping = sh
	cur.UpdatedAt = m.now().UTC()
	if err := m.store.SaveMerchantSettings(ctx, cur); err != nil {
		return fmt.Errorf("settings: saving settings: %w", err)
	}
	return nil
}

// Input is a change of the settings, as typed by the merchant.
type Input struct {
	WebhookURL   string   // "" stops notifications (unless configured)
	FrameOrigins []string // origins such as https://shop.example.com
	// NotifyPersonalData: the notifications carry the shopper's personal data.
	NotifyPersonalData bool
}

// Update validates in and stores it, keeping the signing secret (one is made when the first
// URL is set). Every problem comes back at once as a *checkout.ValidationError keyed by
// FieldWebhookURL and FieldFrameOrigins; nothing is stored then.
func (m *Manager) Update(ctx context.Context, in Input) (Effective, error) {
	cur, err := m.store.MerchantSettings(ctx)
	if err != nil {
		return Effective{}, fmt.Errorf("settings: reading settings: %w", err)
	}
	fe := &checkout.ValidationError{}
	next := cur
	next.WebhookURL = strings.TrimSpace(in.WebhookURL)
	if next.WebhookURL != "" {
		if err := checkout.CheckText(next.WebhookURL); err != nil {
			fe.Add(FieldWebhookURL, checkout.CodeText, err.Error())
		} else if err := CheckMerchantURL(next.WebhookURL); err != nil {
			fe.Add(FieldWebhookURL, gatewayclient.CodeURL, err.Error())
		}
	}
	next.NotifyPersonalData = in.NotifyPersonalData
	next.FrameOrigins = nil
	seen := map[string]bool{}
	for _, o := range in.FrameOrigins {
		o = strings.TrimRight(strings.TrimSpace(o), "/")
		if o == "" || seen[o] {
			continue
		}
		seen[o] = true
		if err := checkout.CheckOrigin(o); err != nil {
			fe.Add(FieldFrameOrigins, gatewayclient.CodeFormat, fmt.Sprintf("%q: %v", o, err))
			continue
		}
		next.FrameOrigins = append(next.FrameOrigins, o)
	}
	if len(next.FrameOrigins) > MaxFrameOrigins {
		fe.Add(FieldFrameOrigins, gatewayclient.CodeMax, fmt.Sprintf("at most %d origins", MaxFrameOrigins))
	}
	if err := fe.Err(); err != nil {
		return Effective{}, err
	}
	if next.WebhookURL != "" && next.WebhookSecret == "" {
		if next.WebhookSecret, err = webhook.NewSecret(); err != nil {
			return Effective{}, err
		}
	}
	next.UpdatedAt = m.now().UTC()
	if err := m.store.SaveMerchantSettings(ctx, next); err != nil {
		return Effective{}, fmt.Errorf("settings: saving settings: %w", err)
	}
	m.forget()
	return m.Get(ctx)
}

// RotateSecret replaces the stored signing secret with a new one and returns the settings in
// force (whose secret is still the configured one when CHECKOUT_MERCHANT_WEBHOOK_SECRET is set).
// The replaced secret keeps signing beside the new one for RotationOverlap: notifications
// carry both signatures meanwhile, so the merchant's server accepts them before and after it
// takes the new secret. A rotation during an overlap ends the older one's.
func (m *Manager) RotateSecret(ctx context.Context) (Effective, error) {
	cur, err := m.store.MerchantSettings(ctx)
	if err != nil {
		return Effective{}, fmt.Errorf("settings: reading settings: %w", err)
	}
	now := m.now().UTC()
	cur.PreviousSecret, cur.PreviousUntil = cur.WebhookSecret, now.Add(RotationOverlap)
	if cur.PreviousSecret == "" {
		cur.PreviousUntil = time.Time{}
	}
	if cur.WebhookSecret, err = webhook.NewSecret(); err != nil {
		return Effective{}, err
	}
	cur.UpdatedAt = now
	if err := m.store.SaveMerchantSettings(ctx, cur); err != nil {
		return Effective{}, fmt.Errorf("settings: saving settings: %w", err)
	}
	return m.Get(ctx)
}

// CheckMerchantURL checks a notification URL typed by a merchant: an absolute https URL
// without user information, on a host name (not an IP literal, not localhost or a single
// label). Where the name leads is checked at every delivery, by the SSRF guard of the
// dialer, since DNS may change.
func CheckMerchantURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Opaque != "" || u.Host == "" {
		return errors.New("must be an absolute https:// URL")
	}
	if !strings.EqualFold(u.Scheme, "https") {
		return errors.New("must use https")
	}
	if u.User != nil {
		return errors.New("must not contain user information")
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if _, err := netip.ParseAddr(host); err == nil {
		return errors.New("must have a host name, not an IP address")
	}
	if !strings.Contains(host, ".") || host == "localhost" || strings.HasSuffix(host, ".localhost") ||
		strings.HasSuffix(host, ".local") || strings.HasSuffix(host, ".internal") {
		return errors.New("must have a public host name (example.com)")
	}
	return nil
}

// checkTrustedURL checks the operator's notification URL: https anywhere, or plain http on a
// loopback host (local development).
func checkTrustedURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.Opaque != "" {
		return errors.New("must be an absolute http(s) URL")
	}
	switch strings.ToLower(u.Scheme) {
	case "https":
		return nil
	case "http":
		if IsLoopbackHost(u.Hostname()) {
			return nil
		}
		return errors.New("plain http is allowed on a loopback host only (localhost, 127.0.0.1, ::1); use https")
	}
	return errors.New("must be an absolute http(s) URL")
}

// IsLoopbackHost reports whether host names this machine's loopback interface.
func IsLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
