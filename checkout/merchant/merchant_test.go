package merchant_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/merchant"
)

// memKeys is an APIKeyStore in memory: these tests are about the rules of Keys; the SQL stores
// pass their own suite.
type memKeys struct {
	mu      sync.Mutex
	keys    []merchant.APIKey
	touches int
}

func (m *memKeys) CreateAPIKey(_ context.Context, k merchant.APIKey) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.keys = append(m.keys, k)
	return nil
}

func (m *memKeys) APIKeyByHash(_ context.Context, h []byte) (*merchant.APIKey, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, k := range m.keys {
		if bytes.Equal(k.Hash, h) {
			return &k, nil
		}
	}
	return nil, checkout.ErrNotFound
}

func (m *memKeys) APIKeys(context.Context) ([]merchant.APIKey, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]merchant.APIKey(nil), m.keys...), nil
}

func (m *memKeys) RevokeAPIKey(_ context.Context, id string, at time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i := range m.keys {
		if m.keys[i].ID == id {
			if m.keys[i].RevokedAt.IsZero() {
				m.keys[i].RevokedAt = at
			}
			return nil
		}
	}
	return checkout.ErrNotFound
}

func (m *memKeys) TouchAPIKey(_ context.Context, id string, at time.Time, addr string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.touches++
	for i := range m.keys {
		if m.keys[i].ID == id {
			m.keys[i].LastUsedAt, m.keys[i].LastUsedAddress = at, addr
		}
	}
	return nil
}

func (m *memKeys) SetMakerKeysPersonalData(_ context.Context, by string, on bool) ([]merchant.APIKey, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var changed []merchant.APIKey
	for i, k := range m.keys {
		if k.CreatedBy == by && k.Active() && k.PersonalData != on {
			m.keys[i].PersonalData = on
			changed = append(changed, m.keys[i])
		}
	}
	return changed, nil
}

func (m *memKeys) RevokeMakerKeys(_ context.Context, by string, at time.Time) ([]merchant.APIKey, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var revoked []merchant.APIKey
	for i, k := range m.keys {
		if k.CreatedBy == by && k.Active() {
			m.keys[i].RevokedAt = at
			revoked = append(revoked, m.keys[i])
		}
	}
	return revoked, nil
}

func TestKeys(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 3, 14, 12, 0, 0, 0, time.UTC)
	store := &memKeys{}
	keys := merchant.NewKeys(store, merchant.KeysOptions{ConfiguredKey: "configured-secret", Clock: func() time.Time { return now },
		Internal: []merchant.InternalKey{{ID: "key_demo", Name: "demo", Secret: "internal-secret"}, {ID: "key_empty", Name: "no secret"}}})

	secret, rec, err := keys.Create(ctx, "  loja   online ", merchant.ScopeRead, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(secret, merchant.KeyPrefix) || len(secret) < 50 {
		t.Errorf("key %q is not pxk_ and 256 bits", secret)
	}
	if rec.Name != "loja online" || strings.Contains(rec.Hint, secret[8:len(secret)-4]) {
		t.Errorf("record %+v: name not normalised or hint reveals the key", rec)
	}
	stored, _ := store.APIKeys(ctx)
	for _, k := range stored {
		if bytes.Contains(k.Hash, []byte(secret)) || strings.Contains(k.Hint+k.Name, secret) {
			t.Fatalf("the key itself is stored: %+v", k)
		}
	}
	got, err := keys.Authenticate(ctx, secret, "192.0.2.1")
	if err != nil || got.ID != rec.ID || got.Scope != merchant.ScopeRead || got.CreatedBy != "cli" || got.LastUsedAddress != "192.0.2.1" {
		t.Fatalf("Authenticate(new key) = %+v, %v", got, err)
	}
	if _, err := keys.Authenticate(ctx, secret, "192.0.2.1"); err != nil || store.touches != 1 {
		t.Errorf("second use within a minute: err %v, %d touches (want 1)", err, store.touches)
	}
	if k, err := keys.Authenticate(ctx, "configured-secret", ""); err != nil || k.ID != merchant.ConfiguredKeyID || k.Scope != merchant.ScopeWrite {
		t.Errorf("configured key: %v, %v", k, err)
	}
	if k, err := keys.Authenticate(ctx, "internal-secret", ""); err != nil || k.ID != "key_demo" {
		t.Errorf("internal key: %v, %v", k, err)
	}
	if list, _ := keys.List(ctx); len(list) != 1 {
		t.Errorf("List shows %d keys, want the stored one only", len(list))
	}
	for _, bad := range []string{"", secret + "x", secret[:len(secret)-1], "pxk_nope", strings.Repeat("a", 600)} {
		if _, err := keys.Authenticate(ctx, bad, ""); !errors.Is(err, merchant.ErrUnauthorized) || checkout.ErrorCode(err) != checkout.CodeUnauthorized {
			t.Errorf("Authenticate(%q) = %v, want ErrUnauthorized", bad, err)
		}
	}
	if err := keys.Revoke(ctx, rec.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := keys.Authenticate(ctx, secret, "192.0.2.1"); !errors.Is(err, merchant.ErrUnauthorized) {
		t.Errorf("a revoked key still authenticates: %v", err)
	}
	if err := keys.Revoke(ctx, "key_unknown"); !errors.Is(err, checkout.ErrNotFound) {
		t.Errorf("Revoke(unknown) = %v", err)
	}
	for _, name := range []string{"", "   ", strings.Repeat("n", 101)} {
		var fe *checkout.ValidationError
		if _, _, err := keys.Create(ctx, name, merchant.ScopeWrite, nil); !errors.As(err, &fe) || !fe.Has("name") {
			t.Errorf("Create(%q) = %v, want a field error on name", name, err)
		}
	}
}

// memSettings is a SettingsStore in memory.
type memSettings struct{ s merchant.Settings }

func (m *memSettings) MerchantSettings(context.Context) (merchant.Settings, error) { return m.s, nil }
func (m *memSettings) SaveMerchantSettings(_ context.Context, s merchant.Settings) error {
	m.s = s
	return nil
}

func TestSettings(t *testing.T) {
	ctx := context.Background()
	store := &memSettings{}
	m := merchant.NewSettingsManager(store, merchant.SettingsConfig{}, nil)

	_, err := m.Update(ctx, merchant.SettingsInput{WebhookURL: "http://127.0.0.1/hook",
		FrameOrigins: []string{"https://ok.example.com", "https://bad.example.com/path", "javascript:alert(1)"}})
	var fe *checkout.ValidationError
	if !errors.As(err, &fe) || !fe.Has(merchant.FieldWebhookURL) || len(fe.For(merchant.FieldFrameOrigins)) != 2 {
		t.Fatalf("Update(bad) = %v, want errors on the URL and two origins", err)
	}
	if store.s.WebhookURL != "" {
		t.Fatal("an invalid change was stored")
	}
	e, err := m.Update(ctx, merchant.SettingsInput{WebhookURL: " https://erp.example.com/hooks/pix ",
		FrameOrigins: []string{"https://shop.example.com/", "https://shop.example.com"}})
	if err != nil {
		t.Fatal(err)
	}
	if e.WebhookURL != "https://erp.example.com/hooks/pix" || !strings.HasPrefix(e.WebhookSecret, "whsec_") ||
		len(e.FrameOrigins) != 1 || e.TrustedURL() {
		t.Errorf("settings %+v", e)
	}
	secret := e.WebhookSecret
	if e, _ = m.Update(ctx, merchant.SettingsInput{WebhookURL: "https://erp.example.com/v2"}); e.WebhookSecret != secret {
		t.Error("changing the URL changed the secret")
	}
	if e, _ = m.RotateSecret(ctx); e.WebhookSecret == secret || !strings.HasPrefix(e.WebhookSecret, "whsec_") {
		t.Error("RotateSecret kept the secret")
	}

	cfg := merchant.SettingsConfig{WebhookURL: "http://127.0.0.1:9000/hook", WebhookSecret: "whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQ="}
	if err := cfg.Check(); err != nil {
		t.Fatalf("loopback http in the configuration: %v", err)
	}
	e, _ = merchant.NewSettingsManager(store, cfg, nil).Get(ctx)
	if e.WebhookURL != cfg.WebhookURL || e.WebhookSecret != cfg.WebhookSecret || !e.TrustedURL() || !e.SecretFromConfig {
		t.Errorf("the configuration does not win: %+v", e)
	}
	for _, bad := range []merchant.SettingsConfig{{WebhookURL: "http://hooks.example.com/x"}, {WebhookURL: "ftp://x"}, {WebhookSecret: "whsec_!!"}} {
		if bad.Check() == nil {
			t.Errorf("Check(%+v) accepted", bad)
		}
	}
}

func TestCheckMerchantURL(t *testing.T) {
	for _, ok := range []string{"https://erp.example.com/hook?x=1", "https://api.loja.com.br:8443/pix"} {
		if err := merchant.CheckMerchantURL(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for _, bad := range []string{"http://erp.example.com", "https://127.0.0.1/x", "https://[::1]/x", "https://localhost/x",
		"https://intranet/x", "https://a.localhost/x", "https://user:pw@example.com/", "javascript:alert(1)", "//example.com"} {
		if err := merchant.CheckMerchantURL(bad); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}
