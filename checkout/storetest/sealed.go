package storetest

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
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
// every text column of every table on PostgreSQL). Secrets written once the store has its keys
// are sealed (the dump holds none of them, nor one that was replaced); a rotation reseals them
// with the new key while the old one still opens them; a store given the wrong key refuses,
// naming the key id it needs.
func RunSealed(t *testing.T, open func(t *testing.T) (SealedStores, func() []byte)) {
	ctx := context.Background()
	s, dump := open(t)
	const (
		hook, prev, totp = "whsec_c2VhbGVkIHNlY3JldCBvbmU=", "whsec_cHJldmlvdXMgc2VjcmV0", "JBSWY3DPEHPK3PXPSEALED"
		hook2            = "whsec_bmV3IHNlY3JldCBhZnRlcg=="
		replaced         = "whsec_cmVwbGFjZWQgbG9uZyBhZ28=" // replaced by hook
		hooksURL         = "https://loja.example.com/hooks"
	)
	// The key of the personal data's hashes, as the store keeps it (hexadecimal).
	pdKey := bytes.Repeat([]byte{0x5e, 0xa1, 0xed, 0x4b}, 8)
	secrets := []string{hook, prev, totp, hook2, replaced, hex.EncodeToString(pdKey), string(pdKey)}
	inDump := func() []string {
		d := dump()
		if !bytes.Contains(d, []byte(hooksURL)) {
			t.Fatalf("the dump misses the settings' URL, stored as it is: it does not see what the store wrote")
		}
		var found []string
		for _, sec := range secrets {
			// The secret itself, and the base64 part of a whsec_ one (as a dump might decode it).
			if bytes.Contains(d, []byte(sec)) || bytes.Contains(d, []byte(strings.TrimPrefix(sec, "whsec_"))) {
				found = append(found, sec)
			}
		}
		return found
	}
	k1, k2 := sealed.NewKey(), sealed.NewKey()
	keys1, _ := sealed.ParseKeys(k1)
	s.UseKeys(keys1)
	// The first start seals the key check value; nothing else is to reseal.
	if n, err := s.ResealSecrets(ctx); err != nil || n != 0 {
		t.Fatalf("ResealSecrets on a new store = %d, %v; want 0", n, err)
	}
	if err := s.SaveMerchantSettings(ctx, merchant.Settings{WebhookURL: hooksURL, WebhookSecret: replaced,
		UpdatedAt: base}); err != nil {
		t.Fatal(err)
	}
	set := merchant.Settings{WebhookURL: hooksURL, WebhookSecret: hook, PreviousSecret: prev,
		PreviousUntil: base.Add(24 * 60 * 60 * 1e9), UpdatedAt: base}
	must(t, s.SaveMerchantSettings(ctx, set))
	must(t, s.CreateUser(ctx, user("u1", "ana@loja.example")))
	must(t, s.EnableTOTP(ctx, "u1", totp, base, 100, nil))
	must(t, errOf(s.AddPersonalDataKey(ctx, pdKey, base)))
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
	must(t, s.SaveMerchantSettings(ctx, set))
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
