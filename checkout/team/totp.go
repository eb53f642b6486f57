package team

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

	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// Two-factor sign-in: TOTP (RFC 6238: SHA-1, six digits, 30-second steps, what every
// authenticator app reads from an otpauth:// QR code) through github.com/pquerna/otp, and ten
// single-use recovery codes. A code is accepted within one step either side of the server's
// clock, and once: the step of the last accepted code is stored, and a code of that step or an
// earlier one is refused, so a code seen over a shoulder or in a proxy's log cannot be
// replayed. The store decides it in one statement, so two instances cannot both accept it.

// TOTPPeriod is the length of a TOTP time step.
const TOTPPeriod = 30 * time.Second

// RecoveryCodeCount is how many recovery codes an enrolment gives.
const RecoveryCodeCount = 10

// TOTPStore keeps the users' second factor. Implementations must pass checkout/storetest.
type TOTPStore interface {
	// EnableTOTP turns on a user's second factor with secret at at, accepting no code of step
	// or earlier (the enrolment's own code), and replaces their recovery codes by codeHashes.
	// An unknown user is checkout.ErrNotFound.
	EnableTOTP(ctx context.Context, userID, secret string, at time.Time, step int64, codeHashes [][]byte) error
	// DisableTOTP turns a user's second factor off and forgets their recovery codes, and
	// writes the messages out (the user's e-mail) in the same transaction.
	DisableTOTP(ctx context.Context, userID string, out ...checkout.OutboxMessage) error
	// UseTOTPStep records that a code of step was accepted for the user, unless a code of that
	// step or a later one already was: then it reports false.
	UseTOTPStep(ctx context.Context, userID string, step int64) (bool, error)
	// UseRecoveryCode marks the user's unused recovery code with that hash used at at, or
	// reports false.
	UseRecoveryCode(ctx context.Context, userID string, hash []byte, at time.Time) (bool, error)
	// RecoveryCodesLeft counts a user's unused recovery codes.
	RecoveryCodesLeft(ctx context.Context, userID string) (int, error)
	// RequireTOTP reports whether every user must sign in with a second factor.
	RequireTOTP(ctx context.Context) (bool, error)
	// SetRequireTOTP changes that setting.
	SetRequireTOTP(ctx context.Context, required bool) error
}

// ErrBadCode refuses a second factor: a wrong, expired, replayed or used code.
var ErrBadCode = &checkout.Error{Code: checkout.CodeUnauthorized, Message: "wrong or already used code"}

// TOTPEnrolment is a secret not confirmed yet: the user scans URL (as a QR code) or types
// Secret, then confirms with a first code.
type TOTPEnrolment struct {
	Secret string // base32, as authenticator apps take it by hand
	URL    string // otpauth://totp/…
}

// NewTOTP makes a secret for the user's enrolment, named issuer in their app.
func (a *Accounts) NewTOTP(u *User, issuer string) (*TOTPEnrolment, error) {
	key, err := totp.Generate(totp.GenerateOpts{Issuer: issuer, AccountName: u.Email, Period: uint(TOTPPeriod / time.Second),
		Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1})
	if err != nil {
		return nil, fmt.Errorf("team: a TOTP secret: %w", err)
	}
	return &TOTPEnrolment{Secret: key.Secret(), URL: key.URL()}, nil
}

// matchStep returns the time step, within one of now's either side, whose code is code, or -1.
func matchStep(secret, code string, now time.Time) int64 {
	code = strings.Join(strings.Fields(code), "")
	if len(code) != 6 {
		return -1
	}
	step := now.Unix() / int64(TOTPPeriod/time.Second)
	found := int64(-1)
	for _, s := range []int64{step - 1, step, step + 1} {
		want, err := totp.GenerateCodeCustom(secret, time.Unix(s*int64(TOTPPeriod/time.Second), 0),
			totp.ValidateOpts{Period: uint(TOTPPeriod / time.Second), Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1})
		if err == nil && subtle.ConstantTimeCompare([]byte(want), []byte(code)) == 1 {
			found = s
		}
	}
	return found
}

// EnableTOTP confirms an enrolment with the first code the user's app shows, turns the
// second factor on and returns the recovery codes, to be shown this once (only their SHA-256
// is kept). A wrong code is ErrBadCode.
func (a *Accounts) EnableTOTP(ctx context.Context, u *User, secret, code string) ([]string, error) {
	if a.totp == nil {
		return nil, errors.New("team: two-factor sign-in is not configured")
	}
	now := a.now()
	step := matchStep(secret, code, now)
	if step < 0 {
		return nil, ErrBadCode
	}
	codes := make([]string, RecoveryCodeCount)
	hashes := make([][]byte, RecoveryCodeCount)
	for i := range codes {
		codes[i] = newRecoveryCode()
		hashes[i] = hashRecoveryCode(codes[i])
	}
	if err := a.totp.EnableTOTP(ctx, u.ID, secret, now, step, hashes); err != nil {
		return nil, fmt.Errorf("team: turning on two-factor sign-in: %w", err)
	}
	return codes, nil
}

// DisableTOTP turns the user's second factor off; password (the current one) proves it is
// them (a wrong one is ErrBadCredentials and counts as a failed sign-in from addr). The
// messages out (the user's notice) are written with the change.
func (a *Accounts) DisableTOTP(ctx context.Context, u *User, password, addr string, out ...checkout.OutboxMessage) error {
	if a.totp == nil {
		return errors.New("team: two-factor sign-in is not configured")
	}
	if err := a.VerifyPassword(ctx, u, password, addr); err != nil {
		return err
	}
	if err := a.totp.DisableTOTP(ctx, u.ID, out...); err != nil {
		return fmt.Errorf("team: turning off two-factor sign-in: %w", err)
	}
	return nil
}

// SecondFactor checks the second step of a sign-in of the user with that id: a code of their
// app, or one of their recovery codes (which is then used). Failures are throttled per
// account like the password step: a few are free, then each waits longer (a
// *ThrottledError). It reports whether a recovery code was used.
func (a *Accounts) SecondFactor(ctx context.Context, userID, code string) (recovery bool, err error) {
	if a.totp == nil {
		return false, errors.New("team: two-factor sign-in is not configured")
	}
	// As at the password step, a slot is held from the throttle's check to the record of a
	// failure, so that a burst of concurrent guesses cannot all pass the check first.
	if err := a.hasher.acquire(ctx); err != nil {
		return false, err
	}
	defer a.hasher.release()
	u, err := a.users.User(ctx, userID)
	if err != nil {
		return false, fmt.Errorf("team: second factor: %w", err)
	}
	now := a.now()
	keys := []throttleKey{{"totp:" + u.ID, a.policy.PerPair}}
	if wait, err := a.wait(ctx, keys, now); err != nil {
		return false, err
	} else if wait > 0 {
		return false, &ThrottledError{Wait: wait}
	}
	ok := false
	if step := matchStep(u.TOTPSecret, code, now); step >= 0 && u.TOTPEnabled() {
		if ok, err = a.totp.UseTOTPStep(ctx, u.ID, step); err != nil {
			return false, fmt.Errorf("team: second factor: %w", err)
		}
	} else if c := normalizeRecoveryCode(code); len(c) == recoveryCodeLen && u.TOTPEnabled() {
		if ok, err = a.totp.UseRecoveryCode(ctx, u.ID, hashRecoveryCode(c), now); err != nil {
			return false, fmt.Errorf("team: second factor: %w", err)
		}
		recovery = ok
	}
	if !ok {
		if _, err := a.throttle.RecordLoginFailure(ctx, keys[0].key, now, now.Add(-a.policy.ForgetAfter)); err != nil {
			return false, fmt.Errorf("team: recording a failed second factor: %w", err)
		}
		return false, ErrBadCode
	}
	if err := a.throttle.ResetLoginFailures(ctx, keys[0].key); err != nil {
		return false, fmt.Errorf("team: second factor: %w", err)
	}
	return recovery, nil
}

// RecoveryCodesLeft counts the user's unused recovery codes.
func (a *Accounts) RecoveryCodesLeft(ctx context.Context, userID string) (int, error) {
	if a.totp == nil {
		return 0, nil
	}
	return a.totp.RecoveryCodesLeft(ctx, userID)
}

// RequireTOTP reports whether every user must sign in with a second factor.
func (a *Accounts) RequireTOTP(ctx context.Context) (bool, error) {
	if a.totp == nil {
		return false, nil
	}
	return a.totp.RequireTOTP(ctx)
}

// SetRequireTOTP changes whether every user must sign in with a second factor.
func (a *Accounts) SetRequireTOTP(ctx context.Context, required bool) error {
	if a.totp == nil {
		return errors.New("team: two-factor sign-in is not configured")
	}
	return a.totp.SetRequireTOTP(ctx, required)
}

// recoveryCodeLen is the length of a recovery code without its dashes: 16 characters of
// base32, 80 random bits, so that its unsalted SHA-256 gives nothing to a stolen database.
const recoveryCodeLen = 16

// recoveryEncoding is lower-case base32 without padding.
var recoveryEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// newRecoveryCode returns a fresh recovery code, as shown: xxxx-xxxx-xxxx-xxxx.
func newRecoveryCode() string {
	var b [10]byte
	_, _ = rand.Read(b[:])
	c := recoveryEncoding.EncodeToString(b[:])
	return c[0:4] + "-" + c[4:8] + "-" + c[8:12] + "-" + c[12:16]
}

// normalizeRecoveryCode reads a recovery code as typed: dashes, spaces and case ignored.
func normalizeRecoveryCode(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '-' || r == ' ':
			return -1
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		}
		return r
	}, s)
}

// hashRecoveryCode is the stored form of a recovery code.
func hashRecoveryCode(code string) []byte {
	sum := sha256.Sum256([]byte("recovery:" + normalizeRecoveryCode(code)))
	return sum[:]
}
