package team

import (
	"context"
	"fmt"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/audit"
)

// SignIn is one dashboard session of a user as they see it on their account page. Its
// ID is not the session's cookie token (which never leaves the cookie and scs's store): it
// names the session in lists and forms.
type SignIn struct {
	ID        string
	UserID    string
	CreatedAt time.Time // the sign-in
	SeenAt    time.Time // the last request, to the minute
	Address   string    // the client's address at the sign-in
	UserAgent string    // the browser at the sign-in, as it said
}

// SignInStore keeps the users' sessions. Removing a user removes theirs.
// Implementations must pass checkout/storetest.
type SignInStore interface {
	// CreateSignIn stores a new session.
	CreateSignIn(ctx context.Context, s SignIn) error
	// SignIn returns a session, or checkout.ErrNotFound.
	SignIn(ctx context.Context, id string) (*SignIn, error)
	// SeeSignIn sets a session's SeenAt.
	SeeSignIn(ctx context.Context, id string, at time.Time) error
	// SignIns lists a user's sessions, the last seen first.
	SignIns(ctx context.Context, userID string) ([]SignIn, error)
	// DeleteSignIn ends one session of a user, or returns checkout.ErrNotFound.
	DeleteSignIn(ctx context.Context, userID, id string) error
	// DeleteSignIns ends every session of a user but except, and says how many.
	DeleteSignIns(ctx context.Context, userID, except string) (int, error)
	// PruneSignIns deletes the sessions last seen before before.
	PruneSignIns(ctx context.Context, before time.Time) (int, error)
}

// seeEvery is how stale a session's SeenAt may get: one write a minute per session at most.
const seeEvery = time.Minute

// maxUserAgent bounds what is kept of a browser's User-Agent.
const maxUserAgent = 256

// StartSignIn records a new session of u from addr with the browser userAgent and returns
// its id, which the session keeps.
func (a *Accounts) StartSignIn(ctx context.Context, u *User, addr, userAgent string) (string, error) {
	if a.sessions == nil {
		return "", nil
	}
	now := a.now().UTC()
	s := SignIn{ID: a.newID(), UserID: u.ID, CreatedAt: now, SeenAt: now, Address: audit.Clip(addr, audit.MaxText), UserAgent: audit.Clip(userAgent, maxUserAgent)}
	if err := a.sessions.CreateSignIn(ctx, s); err != nil {
		return "", fmt.Errorf("team: recording a session: %w", err)
	}
	return s.ID, nil
}

// SeeSignIn checks that the session id of user u still exists, and notes the request (at
// most once a minute); a session that was ended, or is another user's, is ErrSessionEnded.
func (a *Accounts) SeeSignIn(ctx context.Context, u *User, id string) error {
	if a.sessions == nil {
		return nil
	}
	if id == "" {
		return ErrSignInEnded
	}
	s, err := a.sessions.SignIn(ctx, id)
	if checkout.ErrorCode(err) == checkout.CodeNotFound {
		return ErrSignInEnded
	}
	if err != nil {
		return fmt.Errorf("team: reading a session: %w", err)
	}
	if s.UserID != u.ID {
		return ErrSignInEnded
	}
	if now := a.now().UTC(); now.Sub(s.SeenAt) >= seeEvery {
		// Best effort: a failed note must not end a valid session.
		_ = a.sessions.SeeSignIn(ctx, id, now)
	}
	return nil
}

// SignIns lists the sessions of a user, the last seen first.
func (a *Accounts) SignIns(ctx context.Context, userID string) ([]SignIn, error) {
	if a.sessions == nil {
		return nil, nil
	}
	return a.sessions.SignIns(ctx, userID)
}

// EndSignIn ends one session of a user: its next request finds it gone.
func (a *Accounts) EndSignIn(ctx context.Context, userID, id string) error {
	if a.sessions == nil {
		return checkout.ErrNotFound
	}
	return a.sessions.DeleteSignIn(ctx, userID, id)
}

// EndOtherSignIns ends every session of a user but keep.
func (a *Accounts) EndOtherSignIns(ctx context.Context, userID, keep string) (int, error) {
	if a.sessions == nil {
		return 0, nil
	}
	return a.sessions.DeleteSignIns(ctx, userID, keep)
}

// PruneSignIns forgets the sessions nobody can use any more (last seen longer ago than the
// longest idle limit, MaxSignInIdle: a cashier's shift).
func (a *Accounts) PruneSignIns(ctx context.Context) (int, error) {
	if a.sessions == nil {
		return 0, nil
	}
	// SeenAt lags the last request by up to seeEvery.
	return a.sessions.PruneSignIns(ctx, a.now().Add(-MaxSignInIdle-seeEvery))
}

// ChangePassword changes the password of the user with that id, who typed current to prove
// it is them: a wrong current password is ErrBadCredentials (and counts as a failed sign-in of
// the account from addr), a refused new one a *checkout.ValidationError on FieldPassword. Every
// session of the user but keep ends.
func (a *Accounts) ChangePassword(ctx context.Context, id, current, password, addr, keep string) (*User, error) {
	u, err := a.users.User(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("team: changing a password: %w", err)
	}
	if err := a.VerifyPassword(ctx, u, current, addr); err != nil {
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
	if err := a.users.SetPasswordHash(ctx, u.ID, hash, now); err != nil {
		return nil, fmt.Errorf("team: changing a password: %w", err)
	}
	if _, err := a.EndOtherSignIns(ctx, u.ID, keep); err != nil {
		return nil, err
	}
	u.PasswordHash, u.UpdatedAt = hash, now
	return u, nil
}
