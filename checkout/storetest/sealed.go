package storetest

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/sealed"
	"github.com/pixcheckout/pixcheckout/checkout/settings"
	"github.com/pixcheckout/pixcheckout/checkout/team"
)

// SealedStores are the stores of the secrets kept in the database, with their sealing.
type SealedStores interface {
	settings.Store
	team.UserStore
	team.TOTPStore
	checkout.PersonalDataStore
	UseKeys(k *sealed.Keys)
	ResealSecrets(ctx context.Context) (int, error)
	CheckSecrets(ctx context.Context) error
}

// The secrets of the sealed suite; replacedHook is replaced by sealedHook.
const (
	sealedHook, sealedPrev, sealedTOTP = "whsec_c2VhbGVkIHNlY3JldCBvbmU=", "whsec_cHJldmlvdXMgc2VjcmV0", "JBSWY3DPEHPK3PXPSEALED"
	sealedHook2                        = "whsec_bmV3IHNlY3JldCBhZnRlcg=="
	replacedHook                       = "whsec_cmVwbGFjZWQgbG9uZyBhZ28="
	sealedHooksURL                     = "https://loja.example.com/hooks"
)

// sealedCase is the store the sealed suite's steps share, with its dump and the key of the
// personal data's hashes (as the store keeps it, hexadecimal).
type sealedCase struct {
	s     SealedStores
	dump  func() []byte
	pdKey []byte
	set   settings.Settings
	keys  *sealed.Keys
}

// RunSealed checks that the secrets kept in the database are sealed: open returns a new, empty
// store without keys, and dump what a dump of its database holds (the SQLite file and its WAL;
// every text column of every table on PostgreSQL). Secrets written once the store has its keys
// are sealed (the dump holds none of them, nor one that was replaced); a rotation reseals them
// with the new key while the old one still opens them; a store given the wrong key refuses,
// naming the key id it needs.
func RunSealed(t *testing.T, open func(t *testing.T) (SealedStores, func() []byte)) {
	c := &sealedCase{pdKey: bytes.Repeat([]byte{0x5e, 0xa1, 0xed, 0x4b}, 8)}
	c.s, c.dump = open(t)
	k1, k2 := sealed.NewKey(), sealed.NewKey()
	t.Run("Sealed", func(t *testing.T) { c.testSealed(t, k1) })
	t.Run("Rotation", func(t *testing.T) { c.testRotation(t, k2+","+k1, k2) })
	t.Run("WrongKey", c.testWrongKey)
}

// inDump is the secrets a dump of the database holds in clear.
func (c *sealedCase) inDump(t *testing.T) []string {
	t.Helper()
	d := c.dump()
	if !bytes.Contains(d, []byte(sealedHooksURL)) {
		t.Fatalf("the dump misses the settings' URL, stored as it is: it does not see what the store wrote")
	}
	var found []string
	for _, sec := range []string{sealedHook, sealedPrev, sealedTOTP, sealedHook2, replacedHook, hex.EncodeToString(c.pdKey), string(c.pdKey)} {
		// The secret itself, and the base64 part of a whsec_ one (as a dump might decode it).
		if bytes.Contains(d, []byte(sec)) || bytes.Contains(d, []byte(strings.TrimPrefix(sec, "whsec_"))) {
			found = append(found, sec)
		}
	}
	return found
}

// check reads the secrets back.
func (c *sealedCase) check(t *testing.T, wantHook string) {
	t.Helper()
	ctx := context.Background()
	got, err := c.s.MerchantSettings(ctx)
	must(t, err)
	u, err := c.s.User(ctx, "u1")
	must(t, err)
	k, err := c.s.PersonalDataKey(ctx)
	must(t, err)
	same(t, "secrets read back (hook, previous, TOTP, personal data key)", []string{got.WebhookSecret, got.PreviousSecret, u.TOTPSecret, string(k)},
		[]string{wantHook, sealedPrev, sealedTOTP, string(c.pdKey)})
}

// testSealed: the first start seals the key check value; the secrets written after are sealed.
func (c *sealedCase) testSealed(t *testing.T, key string) {
	ctx := context.Background()
	keys1, _ := sealed.ParseKeys(key)
	c.s.UseKeys(keys1)
	same(t, "ResealSecrets on a new store", res(c.s.ResealSecrets(ctx)), res(0, nil))
	must(t, c.s.SaveMerchantSettings(ctx, settings.Settings{WebhookURL: sealedHooksURL, WebhookSecret: replacedHook, UpdatedAt: base}))
	c.set = settings.Settings{WebhookURL: sealedHooksURL, WebhookSecret: sealedHook, PreviousSecret: sealedPrev,
		PreviousUntil: base.Add(24 * time.Hour), UpdatedAt: base}
	must(t, c.s.SaveMerchantSettings(ctx, c.set))
	must(t, c.s.CreateUser(ctx, user("u1", "ana@loja.example")))
	must(t, c.s.EnableTOTP(ctx, "u1", sealedTOTP, base, 100, nil))
	must(t, errOf(c.s.AddPersonalDataKey(ctx, c.pdKey, base)))
	same(t, "ResealSecrets again", res(c.s.ResealSecrets(ctx)), res(0, nil))
	c.check(t, sealedHook)
	c.set.WebhookSecret = sealedHook2 // a secret written once sealing is on
	must(t, c.s.SaveMerchantSettings(ctx, c.set))
	c.check(t, sealedHook2)
	same(t, "secrets the dump holds in clear", c.inDump(t), nil)
}

// testRotation: a new key first, the old one after it; then the new key alone.
func (c *sealedCase) testRotation(t *testing.T, both, key string) {
	ctx := context.Background()
	keys, _ := sealed.ParseKeys(both)
	c.s.UseKeys(keys)
	c.check(t, sealedHook2)
	if !same(t, "ResealSecrets after the rotation (the 4 secrets and the key check)", res(c.s.ResealSecrets(ctx)), res(5, nil)) {
		t.FailNow()
	}
	c.keys, _ = sealed.ParseKeys(key)
	c.s.UseKeys(c.keys) // the old key is no longer needed
	c.check(t, sealedHook2)
	same(t, "secrets the dump holds in clear after the rotation", c.inDump(t), nil)
}

// testWrongKey: with the wrong key nothing opens, and the reseal says which key is needed;
// CheckSecrets says so first, changing nothing, so that a start refuses before it writes.
func (c *sealedCase) testWrongKey(t *testing.T) {
	if c.keys == nil {
		t.Skip("the keys were not rotated")
	}
	ctx := context.Background()
	wrong, _ := sealed.ParseKeys(sealed.NewKey())
	c.s.UseKeys(wrong)
	var ke *sealed.KeyError
	if err := c.s.CheckSecrets(ctx); !errors.As(err, &ke) || ke.ID != c.keys.Current() || !errors.Is(err, sealed.ErrUnknownKey) {
		t.Errorf("CheckSecrets with the wrong key: %v", err)
	}
	if _, err := c.s.ResealSecrets(ctx); !errors.As(err, &ke) || ke.ID != c.keys.Current() {
		t.Errorf("ResealSecrets with the wrong key: %v", err)
	}
	if _, err := c.s.MerchantSettings(ctx); err == nil {
		t.Error("the settings were read with the wrong key")
	}
}
