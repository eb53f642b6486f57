package sealed_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout/sealed"
)

func TestSealOpenAndRotation(t *testing.T) {
	oldKey, newKey := sealed.NewKey(), sealed.NewKey()
	old, err := sealed.ParseKeys(oldKey)
	if err != nil {
		t.Fatal(err)
	}
	v, err := old.SealString("whsec_c2VjcmV0")
	if err != nil {
		t.Fatal(err)
	}
	if !sealed.IsSealed(v) || strings.Contains(v, "whsec_") || strings.Contains(v, "c2VjcmV0") {
		t.Fatalf("sealed value %q", v)
	}
	if again, _ := old.SealString("whsec_c2VjcmV0"); again == v {
		t.Error("two seals of one value are equal: the nonce is not random")
	}
	if got, err := old.OpenString(v); err != nil || got != "whsec_c2VjcmV0" {
		t.Fatalf("open = %q, %v", got, err)
	}
	// Rotation: the new key first; the old one still opens, and the value is stale.
	both, err := sealed.ParseKeys(newKey + "," + oldKey)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := both.OpenString(v); err != nil || got != "whsec_c2VjcmV0" {
		t.Fatalf("open with the old key listed second = %q, %v", got, err)
	}
	if !both.Stale(v) || old.Stale(v) || both.Stale("") || !both.Stale("clear") {
		t.Error("Stale is wrong")
	}
	v2, _ := both.SealString("whsec_c2VjcmV0")
	if both.Stale(v2) || !strings.Contains(v2, both.Current()) {
		t.Errorf("resealed %q is stale or not of key %s", v2, both.Current())
	}
	// The old key alone does not open what the new one sealed, and says which key it needs.
	_, err = old.OpenString(v2)
	var ke *sealed.KeyError
	if !errors.As(err, &ke) || ke.ID != both.Current() || !errors.Is(err, sealed.ErrUnknownKey) {
		t.Errorf("open with the wrong key: %v", err)
	}
	// An altered value does not open.
	b := []byte(v)
	b[len(b)-3] ^= 1
	if _, err := old.Open(b); err == nil {
		t.Error("an altered value opened")
	}
	if s, err := old.Seal(nil); err != nil || s != nil {
		t.Errorf("seal of nothing = %q, %v", s, err)
	}
	if _, err := old.OpenString("whsec_c2VjcmV0"); err == nil {
		t.Error("a clear value opened")
	}
}

func TestParseKeysSaysWhatIsWrong(t *testing.T) {
	for in, want := range map[string]string{
		"":                            "holds no key",
		"%%%":                         "key 1 is not base64",
		"c2hvcnQ=":                    "key 1 has 5 bytes",
		sealed.NewKey() + ",c2hvcnQ=": "key 2 has 5 bytes",
	} {
		_, err := sealed.ParseKeys(in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseKeys(%q) = %v, want %q", in, err, want)
		}
	}
}

func TestKeyFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), sealed.FileName)
	k, created, err := sealed.LoadOrCreateFile(path)
	if err != nil || !created {
		t.Fatalf("create: %v %v", created, err)
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o600 {
		t.Errorf("mode %o", info.Mode().Perm())
	}
	v, _ := k.Seal([]byte("JBSWY3DPEHPK3PXP"))
	again, created, err := sealed.LoadOrCreateFile(path)
	if err != nil || created || again.Current() != k.Current() {
		t.Fatalf("load again: %v %v", created, err)
	}
	id, err := sealed.Rotate(path)
	if err != nil {
		t.Fatal(err)
	}
	rotated, err := sealed.LoadFile(path)
	if err != nil || rotated.Current() != id || len(rotated.IDs()) != 2 || rotated.IDs()[1] != k.Current() {
		t.Fatalf("rotated: %v %v", rotated.IDs(), err)
	}
	if got, err := rotated.Open(v); err != nil || !bytes.Equal(got, []byte("JBSWY3DPEHPK3PXP")) {
		t.Errorf("the old key no longer opens: %v", err)
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o600 {
		t.Errorf("mode after rotation %o", info.Mode().Perm())
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = sealed.LoadFile(path)
	if err == nil || !strings.Contains(err.Error(), "may be read by others (mode 0644)") || !strings.Contains(err.Error(), "chmod 600") {
		t.Errorf("a file readable by others: %v", err)
	}
}
