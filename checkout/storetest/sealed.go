package storetest

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/merchant"
	"github.com/pixcheckout/pixcheckout/checkout/sealed"
)

// SealedStores are the stores of the secrets kept in the database, with their sealing.
type SealedStores interface {
	merchant.SettingsStore
	merchant.UserStore
	merchant.TOTPStore
	checkout.PersonalDataStore
	UseKeys(k *sealed.Keys)
	ResealSecrets(ctx context.Context) (int, error)
	CheckSecrets(ctx context.Context) error
}

// RunSealed checks that the secrets kept in the database are sealed: open returns a new, empty
// store without keys, and dump what a dump of its database holds (the SQLite file and its WAL;
// every text column of every table on PostgreSQL). A store of an install from before sealing
// (secrets in clear) has them sealed by ResealSecrets, after which the dump holds none of them;
// a rotation reseals them with the new key while the old one still opens them; a store given
// the wrong key refuses, naming the key id it needs.
func RunSealed(t *testing.T, open func(t *testing.T) (SealedStores, func() []byte)) {
	ctx := context.Background()
	s, dump := open(t)
	const (
		hook, prev, totp = "whsec_c2VhbGVkIHNlY3JldCBvbmU=", "whsec_cHJldmlvdXMgc2VjcmV0", "JBSWY3DPEHPK3PXPSEALED"
		hook2            = "whsec_bmV3IHNlY3JldCBhZnRlcg=="
		replaced         = "whsec_cmVwbGFjZWQgbG9uZyBhZ28="   // changed before sealing
		removed          = "KRUGKIDROVUWG2ZAMJZG653OEBTG66BA" // of a user removed before sealing
	)
	// The key of the personal data's hashes, as the store keeps it (hexadecimal).
	pdKey := bytes.Repeat([]byte{0x5e, 0xa1, 0xed, 0x4b}, 8)
	secrets := []string{hook, prev, totp, hook2, replaced, removed, hex.EncodeToString(pdKey), string(pdKey)}
	inDump := func() []string {
		d := dump()
		var found []string
		for _, sec := range secrets {
			// The secret itself, and the base64 part of a whsec_ one (as a dump might decode it).
			if bytes.Contains(d, []byte(sec)) || bytes.Contains(d, []byte(strings.TrimPrefix(sec, "whsec_"))) {
				found = append(found, sec)
			}
		}
		return found
	}
	// An install from before sealing: the secrets are stored in clear, one of them replaced.
	if err := s.SaveMerchantSettings(ctx, merchant.Settings{WebhookURL: "https://loja.example.com/hooks", WebhookSecret: replaced,
		UpdatedAt: base}); err != nil {
		t.Fatal(err)
	}
	set := merchant.Settings{WebhookURL: "https://loja.example.com/hooks", WebhookSecret: hook, PreviousSecret: prev,
		PreviousUntil: base.Add(24 * 60 * 60 * 1e9), UpdatedAt: base}
	if err := s.SaveMerchantSettings(ctx, set); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateUser(ctx, user("u1", "ana@loja.example")); err != nil {
		t.Fatal(err)
	}
	if err := s.EnableTOTP(ctx, "u1", totp, base, 100, nil); err != nil {
		t.Fatal(err)
	}
	// Users removed before sealing: pages of their rows are free, not overwritten.
	for i := range 200 {
		id := fmt.Sprintf("u-removed-%d", i)
		if err := s.CreateUser(ctx, user(id, id+"@loja.example")); err != nil {
			t.Fatal(err)
		}
		if err := s.EnableTOTP(ctx, id, removed, base, 100, nil); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 200 {
		if err := s.DeleteUser(ctx, fmt.Sprintf("u-removed-%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.AddPersonalDataKey(ctx, pdKey, base); err != nil {
		t.Fatal(err)
	}
	if found := inDump(); len(found) < 4 {
		t.Fatalf("the dump of the clear install holds %v: the dump misses what it should see", found)
	}
	k1, k2 := sealed.NewKey(), sealed.NewKey()
	keys1, _ := sealed.ParseKeys(k1)
	s.UseKeys(keys1)
	if n, err := s.ResealSecrets(ctx); err != nil || n != 4 {
		t.Fatalf("ResealSecrets = %d, %v; want 4 sealed", n, err)
	}
	if n, err := s.ResealSecrets(ctx); err != nil || n != 0 {
		t.Fatalf("ResealSecrets again = %d, %v; want 0", n, err)
	}
	check := func(wantHook string) {
		t.Helper()
		got, err := s.MerchantSettings(ctx)
		if err != nil || got.WebhookSecret != wantHook || got.PreviousSecret != prev {
			t.Errorf("settings read back: %q %q, %v", got.WebhookSecret, got.PreviousSecret, err)
		}
		u, err := s.User(ctx, "u1")
		if err != nil || u.TOTPSecret != totp {
			t.Errorf("TOTP secret read back: %v", err)
		}
		if k, err := s.PersonalDataKey(ctx); err != nil || !bytes.Equal(k, pdKey) {
			t.Errorf("personal data key read back: %x, %v", k, err)
		}
	}
	check(hook)
	set.WebhookSecret = hook2 // a secret written once sealing is on
	if err := s.SaveMerchantSettings(ctx, set); err != nil {
		t.Fatal(err)
	}
	check(hook2)
	if found := inDump(); len(found) != 0 {
		t.Errorf("the dump holds in clear: %v", found)
	}
	// Rotation: a new key first, the old one after it.
	keys21, _ := sealed.ParseKeys(k2 + "," + k1)
	s.UseKeys(keys21)
	check(hook2)
	if n, err := s.ResealSecrets(ctx); err != nil || n != 5 {
		t.Fatalf("ResealSecrets after the rotation = %d, %v; want 5 (the 4 secrets and the key check)", n, err)
	}
	keys2, _ := sealed.ParseKeys(k2)
	s.UseKeys(keys2) // the old key is no longer needed
	check(hook2)
	if found := inDump(); len(found) != 0 {
		t.Errorf("the dump after the rotation holds in clear: %v", found)
	}
	// The wrong key: nothing opens, and the reseal says which key is needed.
	wrong, _ := sealed.ParseKeys(sealed.NewKey())
	s.UseKeys(wrong)
	// CheckSecrets says so first, changing nothing, so that a start refuses before it writes.
	var ke *sealed.KeyError
	if err := s.CheckSecrets(ctx); !errors.As(err, &ke) || ke.ID != keys2.Current() || !errors.Is(err, sealed.ErrUnknownKey) {
		t.Errorf("CheckSecrets with the wrong key: %v", err)
	}
	_, err := s.ResealSecrets(ctx)
	if !errors.As(err, &ke) || ke.ID != keys2.Current() {
		t.Errorf("ResealSecrets with the wrong key: %v", err)
	}
	if _, err := s.MerchantSettings(ctx); err == nil {
		t.Error("the settings were read with the wrong key")
	}
}
