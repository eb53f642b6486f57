// Package sealed encrypts the secrets the checkout keeps in its database (the merchant's
// notification signing secrets, the dashboard users' TOTP secrets, …) with a key kept outside
// it, so that a dump of the database alone does not reveal them.
//
// A sealed value is text: "sealed:v1:" + the key id + ":" + base64url(nonce ‖ AES-256-GCM
// ciphertext). The key id is the first 8 hex digits of the key's SHA-256, so a value says which
// key opens it, and a Keys may hold several keys: the first seals, every one opens. Rotation is
// listing a new key first and resealing what the others sealed (Keys.Stale tells which).
//
// The keys come from CHECKOUT_SECRET_KEY (ParseKeys: base64 keys of 32 bytes, separated by
// commas, the newest first) or from a file of the data dir made at the first start with mode
// 0600 (LoadFile, CreateFile: one key a line, the newest first).
package sealed

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
)

// Prefix starts every sealed value.
const Prefix = "sealed:v1:"

// KeySize is the size of a key in bytes (AES-256).
const KeySize = 32

// FileName is the name of the key file in the data dir.
const FileName = "secret.key"

// Keys seals with its first key and opens with any of them. Its methods are safe for
// concurrent use (it is never changed after it is made).
type Keys struct {
	keys []key
}

type key struct {
	id   string
	aead cipher.AEAD
}

// New returns the Keys of raw, each KeySize bytes, the sealing one first.
func New(raw ...[]byte) (*Keys, error) {
	if len(raw) == 0 {
		return nil, errors.New("sealed: no key")
	}
	k := &Keys{}
	seen := map[string]bool{}
	for i, r := range raw {
		if len(r) != KeySize {
			return nil, fmt.Errorf("sealed: key %d has %d bytes, not %d", i+1, len(r), KeySize)
		}
		block, err := aes.NewCipher(r)
		if err != nil {
			return nil, fmt.Errorf("sealed: key %d: %w", i+1, err)
		}
		aead, err := cipher.NewGCM(block)
		if err != nil {
			return nil, fmt.Errorf("sealed: key %d: %w", i+1, err)
		}
		id := KeyID(r)
		if seen[id] {
			continue
		}
		seen[id] = true
		k.keys = append(k.keys, key{id: id, aead: aead})
	}
	return k, nil
}

// KeyID is the id of the key raw: the first 8 hex digits of its SHA-256.
func KeyID(raw []byte) string {
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:4])
}

// NewKey returns a new random key, base64 as CHECKOUT_SECRET_KEY and the key file take it.
func NewKey() string {
	var b [KeySize]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand)
	return base64.StdEncoding.EncodeToString(b[:])
}

// ParseKeys reads keys written in base64 (standard or URL alphabet, padded or not), separated
// by commas, white space or new lines, the sealing one first: the value of CHECKOUT_SECRET_KEY
// or the text of the key file. Its errors say what is wrong without quoting a key.
func ParseKeys(s string) (*Keys, error) {
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\n' || r == '\r' || r == '\t' })
	if len(fields) == 0 {
		return nil, errors.New("holds no key (expected base64 of 32 random bytes, such as `openssl rand -base64 32` prints)")
	}
	raw := make([][]byte, 0, len(fields))
	for i, f := range fields {
		b, err := decode64(f)
		if err != nil {
			return nil, fmt.Errorf("key %d is not base64", i+1)
		}
		if len(b) != KeySize {
			return nil, fmt.Errorf("key %d has %d bytes, not %d (expected base64 of 32 random bytes)", i+1, len(b), KeySize)
		}
		raw = append(raw, b)
	}
	return New(raw...)
}

func decode64(s string) ([]byte, error) {
	s = strings.TrimRight(s, "=")
	if strings.ContainsAny(s, "-_") {
		return base64.RawURLEncoding.DecodeString(s)
	}
	return base64.RawStdEncoding.DecodeString(s)
}

// IDs returns the ids of the keys, the sealing one first.
func (k *Keys) IDs() []string {
	out := make([]string, len(k.keys))
	for i, x := range k.keys {
		out[i] = x.id
	}
	return out
}

// Current is the id of the key that seals.
func (k *Keys) Current() string { return k.keys[0].id }

// Seal encrypts plain with the first key and returns the sealed value as text (in bytes, for
// a TEXT or a BLOB column alike). An empty plain seals to an empty value: nothing is hidden
// by sealing nothing, and "" keeps meaning "not set".
func (k *Keys) Seal(plain []byte) ([]byte, error) {
	if len(plain) == 0 {
		return nil, nil
	}
	cur := k.keys[0]
	nonce := make([]byte, cur.aead.NonceSize(), cur.aead.NonceSize()+len(plain)+cur.aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return nil, fmt.Errorf("sealed: nonce: %w", err)
	}
	ct := cur.aead.Seal(nonce, nonce, plain, nil)
	out := make([]byte, 0, len(Prefix)+len(cur.id)+1+base64.RawURLEncoding.EncodedLen(len(ct)))
	out = append(out, Prefix...)
	out = append(out, cur.id...)
	out = append(out, ':')
	return base64.RawURLEncoding.AppendEncode(out, ct), nil
}

// ErrUnknownKey is returned (wrapped in a *KeyError) by Open for a value sealed with a key it
// does not hold.
var ErrUnknownKey = errors.New("sealed with a key that is not given")

// KeyError is an error of Open naming the key id of the value.
type KeyError struct {
	ID  string // the id of the key that sealed the value
	Err error
}

func (e *KeyError) Error() string { return "sealed: value of key id " + e.ID + ": " + e.Err.Error() }
func (e *KeyError) Unwrap() error { return e.Err }

// Open decrypts a value Seal made with any of the keys. An empty value opens to nil. A value
// that is not sealed (no Prefix) is an error: use IsSealed first where clear values may remain.
func (k *Keys) Open(sealed []byte) ([]byte, error) {
	if len(sealed) == 0 {
		return nil, nil
	}
	s := string(sealed)
	if !strings.HasPrefix(s, Prefix) {
		return nil, errors.New("sealed: the value is not sealed")
	}
	id, body, ok := strings.Cut(s[len(Prefix):], ":")
	if !ok {
		return nil, errors.New("sealed: malformed value")
	}
	for _, x := range k.keys {
		if x.id != id {
			continue
		}
		ct, err := base64.RawURLEncoding.DecodeString(body)
		if err != nil || len(ct) < x.aead.NonceSize()+x.aead.Overhead() {
			return nil, &KeyError{ID: id, Err: errors.New("malformed value")}
		}
		plain, err := x.aead.Open(nil, ct[:x.aead.NonceSize()], ct[x.aead.NonceSize():], nil)
		if err != nil {
			return nil, &KeyError{ID: id, Err: errors.New("does not open with the key of that id (altered?)")}
		}
		return plain, nil
	}
	return nil, &KeyError{ID: id, Err: ErrUnknownKey}
}

// SealString is Seal of a string.
func (k *Keys) SealString(plain string) (string, error) {
	b, err := k.Seal([]byte(plain))
	return string(b), err
}

// OpenString is Open of a string.
func (k *Keys) OpenString(sealed string) (string, error) {
	b, err := k.Open([]byte(sealed))
	return string(b), err
}

// IsSealed reports whether v is a sealed value (rather than a clear one).
func IsSealed(v string) bool { return strings.HasPrefix(v, Prefix) }

// Stale reports whether v should be sealed again: a clear value (not empty) or one sealed with
// another key than the sealing one.
func (k *Keys) Stale(v string) bool {
	if v == "" {
		return false
	}
	return !strings.HasPrefix(v, Prefix+k.keys[0].id+":")
}

// LoadFile reads the keys of the file at path, one a line, the sealing one first. It refuses a
// file that others than its owner may read or write (the mode must be 0600 or stricter),
// saying so and how to fix it. A missing file is an error wrapping fs.ErrNotExist.
func LoadFile(path string) (*Keys, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if m := info.Mode().Perm(); m&0o077 != 0 {
		return nil, fmt.Errorf("the secret key file %s may be read by others (mode %04o): run `chmod 600 %s`", path, m, path)
	}
	b, err := io.ReadAll(io.LimitReader(f, 64<<10))
	if err != nil {
		return nil, fmt.Errorf("reading the secret key file %s: %w", path, err)
	}
	k, err := ParseKeys(string(b))
	if err != nil {
		return nil, fmt.Errorf("the secret key file %s %w", path, err)
	}
	return k, nil
}

// LoadOrCreateFile reads the key file at path (LoadFile), or, when there is none, makes one
// holding a new key with mode 0600. created says it was made.
func LoadOrCreateFile(path string) (k *Keys, created bool, err error) {
	k, err = LoadFile(path)
	if !errors.Is(err, fs.ErrNotExist) {
		return k, false, err
	}
	k, err = CreateFile(path, NewKey())
	return k, err == nil, err
}

// CreateFile makes the key file at path, which must not exist, holding key (NewKey's form),
// with mode 0600, and returns its keys.
func CreateFile(path, key string) (*Keys, error) {
	if _, err := ParseKeys(key); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fmt.Errorf("creating the secret key file: %w", err)
	}
	if _, err := f.WriteString(key + "\n"); err != nil {
		f.Close()
		return nil, fmt.Errorf("writing the secret key file %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("writing the secret key file %s: %w", path, err)
	}
	return LoadFile(path)
}

// Rotate puts a new key first in the key file at path, keeping the others after it (they still
// open what they sealed), and returns the new key's id. The file keeps mode 0600.
func Rotate(path string) (string, error) {
	if _, err := LoadFile(path); err != nil {
		return "", err
	}
	old, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("reading the secret key file %s: %w", path, err)
	}
	nk := NewKey()
	tmp := path + ".new"
	_ = os.Remove(tmp) // a left-over of a rotation that failed: made again with mode 0600
	if err := os.WriteFile(tmp, []byte(nk+"\n"+strings.TrimLeft(string(old), "\n")), 0o600); err != nil {
		return "", fmt.Errorf("writing the secret key file: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return "", fmt.Errorf("writing the secret key file: %w", err)
	}
	raw, _ := base64.StdEncoding.DecodeString(nk)
	return KeyID(raw), nil
}
