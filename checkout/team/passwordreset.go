package team

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// PasswordResetLifetime is how long a password reset link may be used (once).
const PasswordResetLifetime = time.Hour

// The limits of reset requests: at most this many links a window for one e-mail (whoever asks)
// and from one client address (whatever the e-mails). A request past either is answered like
// any other and sends nothing. They are counted apart from failed sign-ins, so that no number of
// reset requests ever makes the right password refused.
const (
	ResetsPerAccount = 3
	ResetsPerAddress = 10
	ResetWindow      = time.Hour
)

// PasswordReset lets the holder of its link choose a new password for its user, once, within
// PasswordResetLifetime. Only the SHA-256 of the link's token is stored.
type PasswordReset struct {
	ID        string
	UserID    string
	TokenHash string // hex SHA-256 of the token
	CreatedAt time.Time
	ExpiresAt time.Time
	UsedAt    time.Time // zero: not used yet
}

// PasswordResetStore keeps password resets. Implementations must pass checkout/storetest.
type PasswordResetStore interface {
	// CreatePasswordReset stores a new reset, and the messages out (its e-mail) in the same
	// transaction.
	CreatePasswordReset(ctx context.Context, r PasswordReset, out ...checkout.OutboxMessage) error
	// PasswordResetByTokenHash returns the reset with that token hash, or checkout.ErrNotFound.
	PasswordResetByTokenHash(ctx context.Context, hash string) (*PasswordReset, error)
	// UsePasswordReset, in one transaction, marks the reset id used at at (with every other
	// unused reset of its user: one new password ends all the links) and gives its user the
	// password hash (UpdatedAt at). A reset already used or expired at at gives
	// ErrPasswordResetInvalid and changes nothing.
	UsePasswordReset(ctx context.Context, id, hash string, at time.Time) error
}

// ErrPasswordResetInvalid: the link is unknown, used or expired (one error for the three, so
// that a link reveals nothing).
var ErrPasswordResetInvalid = &checkout.Error{Code: checkout.CodeNotFound, Message: "this password reset link is unknown, used or expired"}

// hashResetToken is the stored form of a reset link's token (its own prefix: an invitation's
// token is never a reset's).
func hashResetToken(token string) string {
	sum := sha256.Sum256([]byte("password-reset:" + token))
	return hex.EncodeToString(sum[:])
}

// ResetRequest is a password reset to send: the link's token (never stored) to the user.
type ResetRequest struct {
	Token string
	User  *User
	Reset PasswordReset
}

// RequestPasswordReset asks for a reset link for the user with that e-mail, from the client
// address addr. It returns the request to send, or nil when nothing is to be sent: no user
// has that e-mail, or the e-mail or the address asked too often (ResetsPerAccount,
// ResetsPerAddress within ResetWindow). The caller answers the same in every case. Requests
// never count as failed sign-ins. compose (nil: none) makes the link's e-mail, written with it.
func (a *Accounts) RequestPasswordReset(ctx context.Context, email, addr string, compose Compose[ResetRequest]) (*ResetRequest, error) {
	if a.resets == nil {
		return nil, errors.New("team: password resets are not configured")
	}
	email = NormalizeEmail(email)
	if checkEmail(email) != nil {
		return nil, nil
	}
	now := a.now().UTC()
	over := false
	for _, k := range []throttleKey{{"reset-account:" + email, ResetsPerAccount}, {"reset-addr:" + AddressKey(addr), ResetsPerAddress}} {
		n, err := a.throttle.RecordLoginFailure(ctx, k.key, now, now.Add(-ResetWindow))
		if err != nil {
			return nil, fmt.Errorf("team: counting password reset requests: %w", err)
		}
		over = over || n > k.free
	}
	if over {
		return nil, nil
	}
	u, err := a.users.UserByEmail(ctx, email)
	if errors.Is(err, checkout.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("team: a password reset: %w", err)
	}
	token := newToken()
	r := PasswordReset{ID: a.newID(), UserID: u.ID, TokenHash: hashResetToken(token), CreatedAt: now, ExpiresAt: now.Add(PasswordResetLifetime)}
	req := &ResetRequest{Token: token, User: u, Reset: r}
	var out []checkout.OutboxMessage
	if compose != nil {
		if out, err = compose(token, req); err != nil {
			return nil, fmt.Errorf("team: a password reset's e-mail: %w", err)
		}
	}
	if err := a.resets.CreatePasswordReset(ctx, r, out...); err != nil {
		return nil, fmt.Errorf("team: a password reset: %w", err)
	}
	return req, nil
}

// PasswordReset returns the usable reset of a link's token and its user, or
// ErrPasswordResetInvalid: unknown, used, expired, or older than the user's last password
// change (a password changed since ends the links made before).
func (a *Accounts) PasswordReset(ctx context.Context, token string) (*PasswordReset, *User, error) {
	if a.resets == nil || token == "" || len(token) > 128 {
		return nil, nil, ErrPasswordResetInvalid
	}
	r, err := a.resets.PasswordResetByTokenHash(ctx, hashResetToken(token))
	if errors.Is(err, checkout.ErrNotFound) {
		return nil, nil, ErrPasswordResetInvalid
	}
	if err != nil {
		return nil, nil, fmt.Errorf("team: reading a password reset: %w", err)
	}
	if !r.UsedAt.IsZero() || !a.now().Before(r.ExpiresAt) {
		return nil, nil, ErrPasswordResetInvalid
	}
	u, err := a.users.User(ctx, r.UserID)
	if errors.Is(err, checkout.ErrNotFound) {
		return nil, nil, ErrPasswordResetInvalid
	}
	if err != nil {
		return nil, nil, fmt.Errorf("team: reading a password reset: %w", err)
	}
	if u.UpdatedAt.After(r.CreatedAt) {
		return nil, nil, ErrPasswordResetInvalid
	}
	return r, u, nil
}

// ResetPasswordWith gives the user of a reset link's token the new password (the same rules
// as every new password: CheckPassword), uses the link, ends every session of the user and
// forgets the account's failed sign-ins, as ResetPassword does. A second factor stays on: the
// next sign-in still asks for it. A bad password is a *checkout.ValidationError on
// FieldPassword (the link stays usable), a link unknown, used or expired
// ErrPasswordResetInvalid.
func (a *Accounts) ResetPasswordWith(ctx context.Context, token, password string) (*User, error) {
	r, u, err := a.PasswordReset(ctx, token)
	if err != nil {
		return nil, err
	}
	if err := fieldErrors(CheckPassword(password, u.Email)); err != nil {
		return nil, err
	}
	hash, err := a.hasher.Hash(ctx, password)
	if err != nil {
		return nil, err
	}
	now := a.now()
	if err := a.resets.UsePasswordReset(ctx, r.ID, hash, now); err != nil {
		if errors.Is(err, ErrPasswordResetInvalid) {
			return nil, err
		}
		return nil, fmt.Errorf("team: resetting a password: %w", err)
	}
	if _, err := a.EndOtherSignIns(ctx, u.ID, ""); err != nil {
		return nil, err
	}
	if err := a.throttle.ResetLoginFailures(ctx, accountKey(u.Email)); err != nil {
		return nil, fmt.Errorf("team: resetting a password: %w", err)
	}
	u.PasswordHash, u.UpdatedAt = hash, now
	return u, nil
}
