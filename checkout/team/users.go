package team

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/trustelem/zxcvbn"
	"github.com/trustelem/zxcvbn/match"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// User is a person who may sign in to the dashboard, with a role that says what they may do.
type User struct {
	ID    string // checkout.NewID
	Email string // normalised: trimmed, lower-case; unique
	Role  Role
	// PasswordHash is the argon2id hash in the PHC string format
	// ($argon2id$v=19$m=19456,t=2,p=1$salt$hash). Never shown, never logged.
	PasswordHash string
	CreatedAt    time.Time
	UpdatedAt    time.Time // the last change of the password
	LastSignInAt time.Time // zero: never signed in
	// TOTPEnabledAt is when two-factor sign-in was turned on (zero: off).
	TOTPEnabledAt time.Time
	// TOTPSecret is the base32 secret shared with the user's authenticator app. Never shown
	// again after the enrolment, never logged.
	TOTPSecret string
	// TOTPLastStep is the time step of the last code accepted: a code of that step or an
	// earlier one is refused (no replay).
	TOTPLastStep int64
}

// TOTPEnabled reports whether the user signs in with a second factor.
func (u User) TOTPEnabled() bool { return !u.TOTPEnabledAt.IsZero() }

// LogValue keeps the password hash out of logs.
func (u User) LogValue() slog.Value {
	return slog.GroupValue(slog.String("id", u.ID), slog.String("email", u.Email), slog.String("role", string(u.Role)))
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
	// SetUserRole gives a user another role, or returns checkout.ErrNotFound; taking the
	// owner role from the last owner is ErrLastOwner (decided in the database, so that two
	// owners demoting each other at once cannot leave none). The messages out (the user's
	// e-mail) are written with the change, or not at all; so are DeleteUser's.
	SetUserRole(ctx context.Context, id string, role Role, out ...checkout.OutboxMessage) error
	// DeleteUser removes a user, or returns checkout.ErrNotFound; removing the last owner is
	// ErrLastOwner.
	DeleteUser(ctx context.Context, id string, out ...checkout.OutboxMessage) error
	// RecordSignIn sets a user's LastSignInAt.
	RecordSignIn(ctx context.Context, id string, at time.Time) error
}

// ErrLastOwner: the change would leave the dashboard without an owner.
var ErrLastOwner = &checkout.Error{Code: checkout.CodeConflict, Message: "the last owner can be neither removed nor given another role"}

// ErrEmailTaken: another user has that e-mail.
var ErrEmailTaken = &checkout.Error{Code: checkout.CodeConflict, Message: "a user with that e-mail already exists"}

// Limits of the users' input.
const (
	MaxEmailLength    = 254 // bytes, RFC 5321
	MinPasswordLength = 8   // characters (NIST SP 800-63B's minimum)
	MaxPasswordLength = 256 // characters: long passphrases welcome, megabytes not
)

// Field names of the user forms (and of ValidationError).
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
	if err := checkout.CheckText(email); err != nil {
		return &gatewayclient.Violation{Field: FieldEmail, Code: checkout.CodeText, Message: err.Error()}
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

// CodeGuessable is the code of a password refused as too easy to guess.
const CodeGuessable = "guessable"

// minGuesses is the fewest guesses a new password must take, as zxcvbn estimates them: its
// score 3, the lowest it calls safe from an online attack and a slow hash stolen offline.
const minGuesses = 1e8

// estimatedRunes is how much of a password zxcvbn looks at: its estimate grows with the
// square of the length (a quarter of a second for 256 characters), and a prefix of 64 that
// takes enough guesses makes the whole take more.
const estimatedRunes = 64

// CheckPassword says why password may not be a new password of the user with that e-mail,
// or nil: a *gatewayclient.Violation on FieldPassword whose message explains it in words. The
// rules are NIST SP 800-63B's (section 5.1.1): MinPasswordLength to MaxPasswordLength
// characters, any characters at all, and none of what attackers try first: the commonest
// passwords of breached-password lists, words and names, keyboard patterns, sequences,
// repeats, dates, the e-mail itself. Those are found by zxcvbn (github.com/trustelem/zxcvbn,
// a port of Dropbox's, with its lists: 30,000 breached passwords, English words, names and
// surnames), and refused below an estimate of 10^8 guesses.
func CheckPassword(password, email string) *gatewayclient.Violation {
	n := utf8.RuneCountInString(password)
	switch {
	case n == 0:
		return &gatewayclient.Violation{Field: FieldPassword, Code: gatewayclient.CodeRequired, Message: "is required"}
	case !utf8.ValidString(password):
		return &gatewayclient.Violation{Field: FieldPassword, Code: gatewayclient.CodeFormat, Message: "must be valid UTF-8"}
	case n < MinPasswordLength:
		return &gatewayclient.Violation{Field: FieldPassword, Code: gatewayclient.CodeMinLength,
			Message: fmt.Sprintf("must have at least %d characters", MinPasswordLength)}
	case n > MaxPasswordLength:
		return &gatewayclient.Violation{Field: FieldPassword, Code: gatewayclient.CodeMaxLength,
			Message: fmt.Sprintf("must have at most %d characters", MaxPasswordLength)}
	}
	estimated := password
	if n > estimatedRunes {
		estimated = string([]rune(password)[:estimatedRunes])
	}
	var inputs []string
	if local, _, ok := strings.Cut(NormalizeEmail(email), "@"); ok {
		inputs = []string{NormalizeEmail(email), local}
	}
	r := zxcvbn.PasswordStrength(estimated, inputs)
	if r.Guesses >= minGuesses {
		return nil
	}
	return &gatewayclient.Violation{Field: FieldPassword, Code: CodeGuessable,
		Message: "is too easy to guess: " + guessableReason(r.Sequence) +
			"; choose a longer one, such as four or more unrelated words"}
}

// guessableReasons are, by key, the words saying what makes a password easy to guess; the key
// (GuessableReason) lets a page say the same in its own language.
var guessableReasons = map[string]string{
	"short":    "it is short and made of few kinds of characters",
	"common":   "it is one of the most common passwords, found in lists of breached passwords",
	"email":    "it is made of the e-mail address",
	"word":     "it is made of a common word or name",
	"keyboard": "it is a keyboard pattern, such as qwertyuiop",
	"repeat":   "it repeats characters, such as aaaaaaaa or 12341234",
	"sequence": "it is a sequence, such as 12345678 or abcdefgh",
	"date":     "it is made of a date or a year",
	"pattern":  "it follows a common pattern",
}

// guessableReason says in words what makes a password easy to guess: the longest pattern
// zxcvbn found in it.
func guessableReason(seq []*match.Match) string {
	var m *match.Match
	for _, x := range seq {
		if x.Pattern != "bruteforce" && (m == nil || len(x.Token) > len(m.Token)) {
			m = x
		}
	}
	key := "pattern"
	switch {
	case m == nil:
		key = "short"
	case m.Pattern == "dictionary" && m.DictionaryName == "passwords":
		key = "common"
	case m.Pattern == "dictionary" && m.DictionaryName == "user_inputs":
		key = "email"
	case m.Pattern == "dictionary":
		key = "word"
	case m.Pattern == "spatial":
		key = "keyboard"
	case m.Pattern == "repeat":
		key = "repeat"
	case m.Pattern == "sequence":
		key = "sequence"
	case m.Pattern == "date", m.Pattern == "regex":
		key = "date"
	}
	return guessableReasons[key]
}

// GuessableReason returns the key of what makes the password of v easy to guess ("common",
// "email", "word", "keyboard", "repeat", "sequence", "date", "short", "pattern"), or "" when v
// is not CheckPassword's CodeGuessable.
func GuessableReason(v gatewayclient.Violation) string {
	if v.Code != CodeGuessable {
		return ""
	}
	for key, words := range guessableReasons {
		if strings.Contains(v.Message, ": "+words+";") {
			return key
		}
	}
	return "pattern"
}

// fieldErrors collects the violations that are not nil into a *checkout.ValidationError, or
// nil.
func fieldErrors(vs ...*gatewayclient.Violation) error {
	fe := &checkout.ValidationError{}
	for _, v := range vs {
		if v != nil {
			fe.Violations = append(fe.Violations, *v)
		}
	}
	return fe.Err()
}
