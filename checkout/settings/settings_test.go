package settings_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/settings"
)

// memSettings is a SettingsStore in memory.
type memSettings struct{ s settings.Settings }

func (m *memSettings) MerchantSettings(context.Context) (settings.Settings, error) { return m.s, nil }
func (m *memSettings) SaveMerchantSettings(_ context.Context, s settings.Settings) error {
	m.s = s
	return nil
}

func TestSettings(t *testing.T) {
	ctx := context.Background()
	store := &memSettings{}
	m := settings.NewManager(store, settings.Config{}, nil)

	_, err := m.Update(ctx, settings.Input{WebhookURL: "http://127.0.0.1/hook",
		FrameOrigins: []string{"https://ok.example.com", "https://bad.example.com/path", "javascript:alert(1)"}})
	var fe *checkout.ValidationError
	if !errors.As(err, &fe) || !fe.Has(settings.FieldWebhookURL) || len(fe.For(settings.FieldFrameOrigins)) != 2 {
		t.Fatalf("Update(bad) = %v, want errors on the URL and two origins", err)
	}
	if store.s.WebhookURL != "" {
		t.Fatal("an invalid change was stored")
	}
	e, err := m.Update(ctx, settings.Input{WebhookURL: " https://erp.example.com/hooks/pix ",
		FrameOrigins: []string{"https://shop.example.com/", "https://shop.example.com"}})
	if err != nil {
		t.Fatal(err)
	}
	if e.WebhookURL != "https://erp.example.com/hooks/pix" || !strings.HasPrefix(e.WebhookSecret, "whsec_") ||
		len(e.FrameOrigins) != 1 || e.TrustedURL() {
		t.Errorf("settings %+v", e)
	}
	secret := e.WebhookSecret
	if e, _ = m.Update(ctx, settings.Input{WebhookURL: "https://erp.example.com/v2"}); e.WebhookSecret != secret {
		t.Error("changing the URL changed the secret")
	}
	if e, _ = m.RotateSecret(ctx); e.WebhookSecret == secret || !strings.HasPrefix(e.WebhookSecret, "whsec_") {
		t.Error("RotateSecret kept the secret")
	}

	cfg := settings.Config{WebhookURL: "http://127.0.0.1:9000/hook", WebhookSecret: "whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQ="}
	if err := cfg.Check(); err != nil {
		t.Fatalf("loopback http in the configuration: %v", err)
	}
	e, _ = settings.NewManager(store, cfg, nil).Get(ctx)
	if e.WebhookURL != cfg.WebhookURL || e.WebhookSecret != cfg.WebhookSecret || !e.TrustedURL() || !e.SecretFromConfig {
		t.Errorf("the configuration does not win: %+v", e)
	}
	for _, bad := range []settings.Config{{WebhookURL: "http://hooks.example.com/x"}, {WebhookURL: "ftp://x"}, {WebhookSecret: "whsec_!!"}} {
		if bad.Check() == nil {
			t.Errorf("Check(%+v) accepted", bad)
		}
	}
}

func TestCheckMerchantURL(t *testing.T) {
	for _, ok := range []string{"https://erp.example.com/hook?x=1", "https://api.loja.com.br:8443/pix"} {
		if err := settings.CheckMerchantURL(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for _, bad := range []string{"http://erp.example.com", "https://127.0.0.1/x", "https://[::1]/x", "https://localhost/x",
		"https://intranet/x", "https://a.localhost/x", "https://user:pw@example.com/", "javascript:alert(1)", "//example.com"} {
		if err := settings.CheckMerchantURL(bad); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

// TestSubscriptionLeadDays: unset, a subscription's charge is issued ten days ahead; the
// merchant sets 1 to 60 days, and a value outside names the field.
func TestSubscriptionLeadDays(t *testing.T) {
	ctx := context.Background()
	m := settings.NewManager(&memSettings{}, settings.Config{}, time.Now)
	if n, err := m.SubscriptionLeadDays(ctx); n != 10 || err != nil {
		t.Fatalf("default: %d, %v", n, err)
	}
	if err := m.UpdateSubscriptionLeadDays(ctx, 61); !strings.Contains(fmt.Sprint(err), settings.FieldSubscriptionLeadDays) {
		t.Fatalf("61 days: %v", err)
	}
	if err := m.UpdateSubscriptionLeadDays(ctx, 3); err != nil {
		t.Fatal(err)
	}
	if n, err := m.SubscriptionLeadDays(ctx); n != 3 || err != nil {
		t.Fatalf("set: %d, %v", n, err)
	}
}
