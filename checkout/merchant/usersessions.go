package merchant

import (
	"context"
	"fmt"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// UserSession is one dashboard session of a user as they see it on their account page. Its
// ID is not the session's cookie token (which never leaves the cookie and scs's store): it
// names the session in lists and forms.
type UserSession struct {
	ID        string
	UserID    string
	CreatedAt time.Time // the sign-in
	SeenAt    time.Time // the last request, to the minute
	Address   string    // the client's address at the sign-in
	UserAgent string    // the browser at the sign-in, as it said
}

// UserSessionStore keeps the users' sessions. Removing a user removes theirs.
// Implementations must pass checkout/storetest.
type UserSessionStore interface {
	// CreateUserSession stores a new session.
	CreateUserSession(ctx context.Context, s UserSession) error
	// UserSession returns a session, or checkout.ErrNotFound.
	UserSession(ctx context.Context, id string) (*UserSession, error)
	// SeeUserSession sets a session's SeenAt.
	SeeUserSession(ctx context.Context, id string, at time.Time) error
	// UserSessions lists a user's sessions, the last seen first.
	UserSessions(ctx context.Context, userID string) ([]UserSession, error)
	// DeleteUserSession ends one session of a user, or returns checkout.ErrNotFound.
	DeleteUserSession(ctx context.Context, userID, id string) error
	// DeleteUserSessions ends every session of a user but except, and says how many.
	DeleteUserSessions(ctx context.Context, userID, except string) (int, error)
	// PruneUserSessions deletes the sessions last seen before before.
	PruneUserSessions(ctx context.Context, before time.Time) (int, error)
}

// seeEvery is how stale a session's SeenAt may get: one write a minute per session at most.
const seeEvery = time.Minute

// maxUserAgent bounds what is kept of a browser's User-Agent.
const maxUserAgent = 256

// StartSession records a new session of u from addr with the browser userAgent and returns
// its id, which the session keeps.
func (a *Accounts) StartSession(ctx context.Context, u *User, addr, userAgent string) (string, error) {
	if a.sessions == nil {
		return "", nil
	}
	now := a.now().UTC()
	s := UserSession{ID: a.newID(), UserID: u.ID, CreatedAt: now, SeenAt: now, Address: clip(addr), UserAgent: clipN(userAgent, maxUserAgent)}
	if err := a.sessions.CreateUserSession(ctx, s); err != nil {
		return "", fmt.Errorf("merchant: recording a session: %w", err)
	}
	return s.ID, nil
}

// SeeSession checks that the session id of user u still exists, and notes the request (at
// most once a minute); a session that was ended, or is another user's, is ErrSessionEnded.
func (a *Accounts) SeeSession(ctx context.Context, u *User, id string) error {
	if a.sessions == nil {
		return nil
	}
	if id == "" {
		return ErrSessionEnded
	}
	s, err := a.sessions.UserSession(ctx, id)
	if checkout.ErrorCode(err) == checkout.CodeNotFound {
		return ErrSessionEnded
	}
	if err != nil {
		return fmt.Errorf("merchant: reading a session: %w", err)
	}
	if s.UserID != u.ID {
		return ErrSessionEnded
	}
	if now := a.now().UTC(); now.Sub(s.SeenAt) >= seeEvery {
		// Best effort: a failed note must not end a valid session.
		_ = a.sessions.SeeUserSession(ctx, id, now)
	}
	return nil
}

// Sessions lists the sessions of a user, the last seen first.
func (a *Accounts) Sessions(ctx context.Context, userID string) ([]UserSession, error) {
	if a.sessions == nil {
		return nil, nil
	}
	return a.sessions.UserSessions(ctx, userID)
}

// EndSession ends one session of a user: its next request finds it gone.
func (a *Accounts) EndSession(ctx context.Context, userID, id string) error {
	if a.sessions == nil {
		return checkout.ErrNotFound
	}
	return a.sessions.DeleteUserSession(ctx, userID, id)
}

// EndOtherSessions ends every session of a user but keep.
func (a *Accounts) EndOtherSessions(ctx context.Context, userID, keep string) (int, error) {
	if a.sessions == nil {
		return 0, nil
	}
	return a.sessions.DeleteUserSessions(ctx, userID, keep)
}

// PruneSessions forgets the sessions nobody can use any more (last seen longer ago than the
// sessions' idle timeout, or begun before their lifetime).
func (a *Accounts) PruneSessions(ctx context.Context) (int, error) {
	if a.sessions == nil {
		return 0, nil
	}
	// SeenAt lags the last request by up to seeEvery.
	return a.sessions.PruneUserSessions(ctx, a.now().Add(-SessionIdleTimeout-seeEvery))
}

// ChangePassword changes the password of the user with that id, who typed current to prove
// it is them: a wrong current password is ErrBadCredentials (and counts as a failed sign-in of
// the account from addr), a refused new one a *checkout.FieldErrors on FieldPassword. Every
// session of the user but keep ends.
func (a *Accounts) ChangePassword(ctx context.Context, id, current, password, addr, keep string) (*User, error) {
	u, err := a.users.User(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("merchant: changing a password: %w", err)
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
		return nil, fmt.Errorf("merchant: changing a password: %w", err)
	}
	if _, err := a.EndOtherSessions(ctx, u.ID, keep); err != nil {
		return nil, err
	}
	u.PasswordHash, u.UpdatedAt = hash, now
	return u, nil
}
