package apikeys_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/apikeys"
)

// memKeys is a Store in memory: these tests are about the rules of Keys; the SQL stores
// pass their own suite.
type memKeys struct {
	mu      sync.Mutex
	keys    []apikeys.Key
	touches int
}

func (m *memKeys) CreateAPIKey(_ context.Context, k apikeys.Key) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.keys = append(m.keys, k)
	return nil
}

func (m *memKeys) APIKeyByHash(_ context.Context, h []byte) (*apikeys.Key, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, k := range m.keys {
		if bytes.Equal(k.Hash, h) {
			return &k, nil
		}
	}
	return nil, checkout.ErrNotFound
}

func (m *memKeys) APIKeys(context.Context) ([]apikeys.Key, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]apikeys.Key(nil), m.keys...), nil
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

func (m *memKeys) SetMakerKeysPersonalData(_ context.Context, by string, on bool) ([]apikeys.Key, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var changed []apikeys.Key
	for i, k := range m.keys {
		if k.CreatedBy == by && k.Active() && k.PersonalData != on {
			m.keys[i].PersonalData = on
			changed = append(changed, m.keys[i])
		}
	}
	return changed, nil
}

func (m *memKeys) RevokeMakerKeys(_ context.Context, by string, at time.Time) ([]apikeys.Key, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var revoked []apikeys.Key
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
	keys := apikeys.NewKeys(store, apikeys.Options{ConfiguredKey: "configured-secret", Clock: func() time.Time { return now },
		Internal: []apikeys.InternalKey{{ID: "key_demo", Name: "demo", Secret: "internal-secret"}, {ID: "key_empty", Name: "no secret"}}})

	secret, rec, err := keys.Create(ctx, "  loja   online ", apikeys.ScopeRead, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(secret, apikeys.KeyPrefix) || len(secret) < 50 {
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
	if err != nil || got.ID != rec.ID || got.Scope != apikeys.ScopeRead || got.CreatedBy != "cli" || got.LastUsedAddress != "192.0.2.1" {
		t.Fatalf("Authenticate(new key) = %+v, %v", got, err)
	}
	if _, err := keys.Authenticate(ctx, secret, "192.0.2.1"); err != nil || store.touches != 1 {
		t.Errorf("second use within a minute: err %v, %d touches (want 1)", err, store.touches)
	}
	if k, err := keys.Authenticate(ctx, "configured-secret", ""); err != nil || k.ID != apikeys.ConfiguredKeyID || k.Scope != apikeys.ScopeWrite {
		t.Errorf("configured key: %v, %v", k, err)
	}
	if k, err := keys.Authenticate(ctx, "internal-secret", ""); err != nil || k.ID != "key_demo" {
		t.Errorf("internal key: %v, %v", k, err)
	}
	if list, _ := keys.List(ctx); len(list) != 1 {
		t.Errorf("List shows %d keys, want the stored one only", len(list))
	}
	for _, bad := range []string{"", secret + "x", secret[:len(secret)-1], "pxk_nope", strings.Repeat("a", 600)} {
		if _, err := keys.Authenticate(ctx, bad, ""); !errors.Is(err, apikeys.ErrUnauthorized) || checkout.ErrorCode(err) != checkout.CodeUnauthorized {
			t.Errorf("Authenticate(%q) = %v, want ErrUnauthorized", bad, err)
		}
	}
	if err := keys.Revoke(ctx, rec.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := keys.Authenticate(ctx, secret, "192.0.2.1"); !errors.Is(err, apikeys.ErrUnauthorized) {
		t.Errorf("a revoked key still authenticates: %v", err)
	}
	if err := keys.Revoke(ctx, "key_unknown"); !errors.Is(err, checkout.ErrNotFound) {
		t.Errorf("Revoke(unknown) = %v", err)
	}
	for _, name := range []string{"", "   ", strings.Repeat("n", 101)} {
		var fe *checkout.ValidationError
		if _, _, err := keys.Create(ctx, name, apikeys.ScopeWrite, nil); !errors.As(err, &fe) || !fe.Has("name") {
			t.Errorf("Create(%q) = %v, want a field error on name", name, err)
		}
	}
}
