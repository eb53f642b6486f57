package merchant

import (
	"context"
	"log/slog"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// User is a person who may sign in to the dashboard. Every user may do everything: the
// dashboard has no roles.
type User struct {
	ID    string // checkout.NewID
	Email string // normalised: trimmed, lower-case; unique
	// PasswordHash is the argon2id hash in the PHC string format
	// ($argon2id$v=19$m=19456,t=2,p=1$salt$hash). Never shown, never logged.
	PasswordHash string
	CreatedAt    time.Time
	UpdatedAt    time.Time // the last change of the password
}

// LogValue keeps the password hash out of logs.
func (u User) LogValue() slog.Value {
	return slog.GroupValue(slog.String("id", u.ID), slog.String("email", u.Email))
}

// UserStore keeps the dashboard's users. Implementations must pass checkout/storetest.
type UserStore interface {
	// CreateUser stores a new user; an e-mail already taken gives ErrEmailTaken.
	CreateUser(ctx context.Context, u User) error
	// User returns the user with that id, or checkout.ErrNotFound.
	User(ctx context.Context, id string) (*User, error)
	// UserByEmail returns the user with that (normalised) e-mail, or checkout.ErrNotFound.
	UserByEmail(ctx context.Context, email string) (*User, error)
	// SetPasswordHash replaces a user's password hash and sets UpdatedAt to at, or returns
	// checkout.ErrNotFound.
	SetPasswordHash(ctx context.Context, id, hash string, at time.Time) error
	// Users lists every user ordered by e-mail.
	Users(ctx context.Context) ([]User, error)
}

// ErrEmailTaken: another user has that e-mail.
var ErrEmailTaken = &checkout.Error{Code: checkout.CodeConflict, Message: "a user with that e-mail already exists"}

// Limits of the users' input.
const (
	MaxEmailLength    = 254 // bytes, RFC 5321
	MinPasswordLength = 8   // characters (NIST SP 800-63B's minimum)
	MaxPasswordLength = 256 // characters: long passphrases welcome, megabytes not
)

// Field names of the user forms (and of FieldErrors).
const (
	FieldEmail    = "email"
	FieldPassword = "password"
)

// NormalizeEmail trims an e-mail and lower-cases it, so that "Ana@Example.com " signs in as
// "ana@example.com".
func NormalizeEmail(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// checkEmail checks a normalised e-mail: one @ with something on both sides, no spaces or
// control characters, at most MaxEmailLength bytes. Deliberately lenient (admin@localhost is
// fine): it is a sign-in name, never sent anywhere.
func checkEmail(email string) *gatewayclient.Violation {
	if email == "" {
		return &gatewayclient.Violation{Field: FieldEmail, Code: gatewayclient.CodeRequired, Message: "is required"}
	}
	if len(email) > MaxEmailLength {
		return &gatewayclient.Violation{Field: FieldEmail, Code: gatewayclient.CodeMaxLength,
			Message: "must have at most 254 characters"}
	}
	local, domain, ok := strings.Cut(email, "@")
	bad := !ok || local == "" || domain == "" || strings.Contains(domain, "@") || !utf8.ValidString(email) ||
		strings.IndexFunc(email, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0
	if bad {
		return &gatewayclient.Violation{Field: FieldEmail, Code: gatewayclient.CodeFormat,
			Message: "must be an e-mail address such as ana@example.com"}
	}
	return nil
}

// checkPassword checks a new password's length in characters.
func checkPassword(pw string) *gatewayclient.Violation {
	n := utf8.RuneCountInString(pw)
	switch {
	case n == 0:
		return &gatewayclient.Violation{Field: FieldPassword, Code: gatewayclient.CodeRequired, Message: "is required"}
	case !utf8.ValidString(pw):
		return &gatewayclient.Violation{Field: FieldPassword, Code: gatewayclient.CodeFormat, Message: "must be valid UTF-8"}
	case n < MinPasswordLength:
		return &gatewayclient.Violation{Field: FieldPassword, Code: gatewayclient.CodeMinLength,
			Message: "must have at least 8 characters"}
	case n > MaxPasswordLength:
		return &gatewayclient.Violation{Field: FieldPassword, Code: gatewayclient.CodeMaxLength,
			Message: "must have at most 256 characters"}
	}
	return nil
}

// fieldErrors collects the violations that are not nil into a *checkout.FieldErrors keyed by
// their field, or nil.
func fieldErrors(vs ...*gatewayclient.Violation) error {
	fe := &checkout.FieldErrors{}
	for _, v := range vs {
		if v == nil {
			continue
		}
		if fe.Fields == nil {
			fe.Fields = map[string][]gatewayclient.Violation{}
		}
		fe.Fields[v.Field] = append(fe.Fields[v.Field], *v)
	}
	if len(fe.Fields) == 0 {
		return nil
	}
	return fe
}
