package apikeys

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base32"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/audit"
	"github.com/pixcheckout/pixcheckout/checkout/team"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// KeyPrefix starts every API key made by Keys.Create.
const KeyPrefix = "pxk_"

// ConfiguredKeyID is the ID under which the key of CHECKOUT_MERCHANT_API_KEY authenticates.
const ConfiguredKeyID = "key_config"

// Limits of a key's name.
const (
	MaxKeyNameLength = 100
)

// ErrUnauthorized: the API key is missing, unknown or revoked.
var ErrUnauthorized = &checkout.Error{Code: checkout.CodeUnauthorized, Message: "a valid API key is required (Authorization: Bearer <key>)"}

// Key is a stored merchant API key. The key itself is never stored: only its SHA-256.
type Key struct {
	ID         string // "key_…", public: names the key in lists and logs
	Name       string // what the merchant calls it ("loja online", "ERP")
	Hint       string // "pxk_AbC…wxyz": recognisable, useless to authenticate
	Hash       []byte // SHA-256 of the key
	CreatedAt  time.Time
	LastUsedAt time.Time // zero: never used (updated at most once a minute)
	RevokedAt  time.Time // zero: active
	Scope      Scope     // what it may do: ScopeRead or ScopeWrite
	CreatedBy  string    // who made it: a user's e-mail, ActorCLI ("" before this was recorded)
	// LastUsedAddress is the client address of the last use (noted with LastUsedAt).
	LastUsedAddress string
	// PersonalData: the key carries the personal-data right (documents and phones in full, the
	// data-subject routes). A key never holds more than its maker: only keys whose maker has
	// PermPersonalData carry it, and a change of the maker's role gives or takes it.
	PersonalData bool
}

// Active reports whether the key may authenticate.
func (k Key) Active() bool { return k.RevokedAt.IsZero() }

// Store keeps API keys. Hashes are unique (enforced by the database).
type Store interface {
	// CreateAPIKey stores a new key.
	CreateAPIKey(ctx context.Context, k Key) error
	// APIKeyByHash returns the key with that hash, revoked or not, or checkout.ErrNotFound.
	APIKeyByHash(ctx context.Context, hash []byte) (*Key, error)
	// APIKeys lists every key, revoked ones included, newest first.
	APIKeys(ctx context.Context) ([]Key, error)
	// RevokeAPIKey marks a key revoked at at; revoking a revoked key keeps its first time.
	// An unknown id is checkout.ErrNotFound.
	RevokeAPIKey(ctx context.Context, id string, at time.Time) error
	// TouchAPIKey records that a key was used at at from addr.
	TouchAPIKey(ctx context.Context, id string, at time.Time, addr string) error
	// SetMakerKeysPersonalData gives (on) or takes the personal-data right of the active keys
	// made by createdBy, and returns the keys it changed, as they are now.
	SetMakerKeysPersonalData(ctx context.Context, createdBy string, on bool) ([]Key, error)
	// RevokeMakerKeys revokes at at the active keys made by createdBy, and returns them.
	RevokeMakerKeys(ctx context.Context, createdBy string, at time.Time) ([]Key, error)
}

// Keys makes, lists, revokes and checks API keys. It is safe for concurrent use.
type Keys struct {
	store Store
	now   func() time.Time
	// fixed are the keys accepted besides the stored ones (CHECKOUT_MERCHANT_API_KEY, the
	// internal ones), by the SHA-256 of their secret.
	fixed []fixedKey
}

type fixedKey struct {
	hash [32]byte
	rec  Key
}

// InternalKey is a key accepted besides the stored ones, made by the program for its own use
// (the sandbox's demo merchant page), never stored nor listed.
type InternalKey struct {
	ID, Name, Secret string
}

// Options configures Keys.
type Options struct {
	// ConfiguredKey (CHECKOUT_MERCHANT_API_KEY) is accepted besides the stored keys.
	ConfiguredKey string
	// Internal keys are accepted too, each under its own ID.
	Internal []InternalKey
	// Clock is the current time (default time.Now).
	Clock func() time.Time
}

// NewKeys returns Keys on store.
func NewKeys(store Store, opts Options) *Keys {
	k := &Keys{store: store, now: opts.Clock}
	if k.now == nil {
		k.now = time.Now
	}
	if opts.ConfiguredKey != "" {
		k.fixed = append(k.fixed, fixedKey{HashKey(opts.ConfiguredKey), Key{ID: ConfiguredKeyID, Name: "CHECKOUT_MERCHANT_API_KEY", Scope: ScopeWrite,
			PersonalData: true}})
	}
	for _, in := range opts.Internal {
		if in.Secret != "" {
			k.fixed = append(k.fixed, fixedKey{HashKey(in.Secret), Key{ID: in.ID, Name: in.Name, Scope: ScopeWrite, PersonalData: true}})
		}
	}
	return k
}

// keyEncoding is base32 without padding, in upper and lower case letters that never confuse.
var keyEncoding = base32.NewEncoding("ABCDEFGHJKLMNPQRSTUVWXYZabcdefgh").WithPadding(base32.NoPadding)

// HashKey is the stored form of a key.
func HashKey(secret string) [32]byte { return sha256.Sum256([]byte(secret)) }

// newKey returns a fresh key: KeyPrefix and 256 random bits.
func newKey() string {
	var b [32]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return KeyPrefix + keyEncoding.EncodeToString(b[:])
}

// hint is what a list shows of a key.
func hint(secret string) string {
	if len(secret) < 16 {
		return KeyPrefix + "…"
	}
	return secret[:len(KeyPrefix)+4] + "…" + secret[len(secret)-4:]
}

// Create makes a new key named name, of scope, made by maker (nil: someone with the server's
// shell, ActorCLI), and returns it: the key itself (shown once, never stored) and its record.
// The key carries the personal-data right only when its maker has PermPersonalData (the shell
// does): a key never holds more than the user who made it. A blank or too long name, or one
// that breaks checkout.CheckText, is a *checkout.ValidationError on "name"; a scope but read or
// write one on FieldScope.
func (k *Keys) Create(ctx context.Context, name string, scope Scope, maker *team.User) (string, *Key, error) {
	if scope != ScopeRead && scope != ScopeWrite {
		return "", nil, fieldError(FieldScope, gatewayclient.CodeFormat, "must be read or write")
	}
	name = strings.Join(strings.Fields(name), " ")
	switch n := utf8.RuneCountInString(name); {
	case n == 0:
		return "", nil, fieldError("name", gatewayclient.CodeRequired, "is required")
	case n > MaxKeyNameLength || !utf8.ValidString(name):
		return "", nil, fieldError("name", gatewayclient.CodeMaxLength, fmt.Sprintf("must have at most %d characters", MaxKeyNameLength))
	}
	if err := checkout.CheckText(name); err != nil {
		return "", nil, fieldError("name", checkout.CodeText, err.Error())
	}
	createdBy, personal := audit.ActorCLI, true
	if maker != nil {
		createdBy, personal = maker.Email, maker.Role.Can(team.PermPersonalData)
	}
	secret := newKey()
	h := HashKey(secret)
	rec := Key{ID: "key_" + checkout.NewID(), Name: name, Hint: hint(secret), Hash: h[:], CreatedAt: k.now().UTC(),
		Scope: scope, CreatedBy: createdBy, PersonalData: personal}
	if err := k.store.CreateAPIKey(ctx, rec); err != nil {
		return "", nil, fmt.Errorf("apikeys: creating an API key: %w", err)
	}
	return secret, &rec, nil
}

// List returns every stored key, newest first (the configured key is not stored, not listed).
func (k *Keys) List(ctx context.Context) ([]Key, error) {
	ks, err := k.store.APIKeys(ctx)
	if err != nil {
		return nil, fmt.Errorf("apikeys: listing API keys: %w", err)
	}
	return ks, nil
}

// Revoke revokes the key with that id at once; requests with it get 401 from then on.
func (k *Keys) Revoke(ctx context.Context, id string) error {
	if err := k.store.RevokeAPIKey(ctx, id, k.now().UTC()); err != nil {
		return fmt.Errorf("apikeys: revoking API key %s: %w", id, err)
	}
	return nil
}

// FollowRole gives or takes the personal-data right of the active keys made by the user with
// that e-mail, now of role, and returns the keys it changed (for the audit log).
func (k *Keys) FollowRole(ctx context.Context, email string, role team.Role) ([]Key, error) {
	ks, err := k.store.SetMakerKeysPersonalData(ctx, email, role.Can(team.PermPersonalData))
	if err != nil {
		return nil, fmt.Errorf("apikeys: re-evaluating the API keys of %s: %w", email, err)
	}
	return ks, nil
}

// RevokeMadeBy revokes the active keys made by the user with that e-mail (removed: their keys
// go with them), and returns them (for the audit log).
func (k *Keys) RevokeMadeBy(ctx context.Context, email string) ([]Key, error) {
	ks, err := k.store.RevokeMakerKeys(ctx, email, k.now().UTC())
	if err != nil {
		return nil, fmt.Errorf("apikeys: revoking the API keys of %s: %w", email, err)
	}
	return ks, nil
}

// touchEvery is how stale LastUsedAt may get: one write a minute per key at most.
const touchEvery = time.Minute

// Authenticate returns the active key whose secret is given, used from the client address
// addr, or ErrUnauthorized. The configured key answers as an APIKey with ID ConfiguredKeyID,
// an internal key with its ID, both write keys carrying the personal-data right (whoever sets
// them has the server's configuration).
func (k *Keys) Authenticate(ctx context.Context, secret, addr string) (*Key, error) {
	if secret == "" || len(secret) > 512 {
		return nil, ErrUnauthorized
	}
	h := HashKey(secret)
	for _, f := range k.fixed {
		if subtle.ConstantTimeCompare(h[:], f.hash[:]) == 1 {
			rec := f.rec
			return &rec, nil
		}
	}
	if !strings.HasPrefix(secret, KeyPrefix) {
		return nil, ErrUnauthorized
	}
	rec, err := k.store.APIKeyByHash(ctx, h[:])
	if errors.Is(err, checkout.ErrNotFound) {
		return nil, ErrUnauthorized
	}
	if err != nil {
		return nil, fmt.Errorf("apikeys: authenticating: %w", err)
	}
	// The look-up was by hash; compare again in constant time so that nothing but an exact
	// match of the whole hash ever passes.
	if subtle.ConstantTimeCompare(rec.Hash, h[:]) != 1 || !rec.Active() {
		return nil, ErrUnauthorized
	}
	if now := k.now().UTC(); now.Sub(rec.LastUsedAt) >= touchEvery {
		// Best effort: a failed note of use must not refuse a valid key.
		if err := k.store.TouchAPIKey(ctx, rec.ID, now, addr); err == nil {
			rec.LastUsedAt, rec.LastUsedAddress = now, addr
		}
	}
	return rec, nil
}

// fieldError is one violation of one input of a merchant form or request.
func fieldError(field, code, msg string) *checkout.ValidationError {
	return &checkout.ValidationError{Violations: []checkout.Violation{{Field: field, Code: code, Message: msg}}}
}

// Scope is what an API key may do in the merchant API.
type Scope string

// The scopes of API keys.
const (
	// ScopeRead may only read: the API's GET (and HEAD) endpoints.
	ScopeRead Scope = "read"
	// ScopeWrite may do everything the API offers. Keys made before scopes existed, the
	// configured key and the internal ones are write keys.
	ScopeWrite Scope = "write"
)

// FieldScope names the scope in forms, flags and ValidationError.
const FieldScope = "scope"

// ParseScope reads a scope; empty is ScopeWrite, anything but read or write a
// *checkout.ValidationError on FieldScope.
func ParseScope(s string) (Scope, error) {
	switch Scope(strings.ToLower(strings.TrimSpace(s))) {
	case "", ScopeWrite:
		return ScopeWrite, nil
	case ScopeRead:
		return ScopeRead, nil
	}
	return "", fieldError(FieldScope, gatewayclient.CodeFormat, "must be read or write")
}

// Allows reports whether a key of scope s may make a request with that HTTP method: a read
// key only reads (GET, HEAD, OPTIONS), a write key does everything.
func (s Scope) Allows(method string) bool {
	switch method {
	case "GET", "HEAD", "OPTIONS":
		return s == ScopeRead || s == ScopeWrite
	}
	return s == ScopeWrite
}
