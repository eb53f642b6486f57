package merchant

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"time"
)

// The dashboard's session policy.
const (
	// SessionIdleTimeout ends a dashboard session after 30 minutes without a request.
	SessionIdleTimeout = 30 * time.Minute
	// SessionLifetime ends a dashboard session 12 hours after sign-in, however active.
	SessionLifetime = 12 * time.Hour
)

// SessionStore keeps the sessions of github.com/alexedwards/scs/v2 in the database, so that
// a restart or another instance keeps people signed in. Its first three methods are scs.Store's
// (an implementation is used as one as is); both SQL stores build it on scs's own stores
// (sqlite3store, pgxstore). Implementations must pass checkout/storetest.
type SessionStore interface {
	// Find returns the data of an unexpired session; found is false for an unknown or expired
	// token.
	Find(token string) (b []byte, found bool, err error)
	// Commit stores a session's data until expiry, replacing what the token had.
	Commit(token string, b []byte, expiry time.Time) error
	// Delete removes a session; an unknown token is not an error.
	Delete(token string) error
	// PruneSessions deletes the sessions that expired before now, and says how many.
	PruneSessions(ctx context.Context, now time.Time) (int, error)
}

// PasswordFingerprint is a short digest of a user's password hash that a session keeps: when
// the password changes the fingerprint changes, and SessionUser ends the sessions that hold
// the old one. It reveals nothing usable of the hash.
func PasswordFingerprint(u *User) string {
	sum := sha256.Sum256([]byte("session:" + u.PasswordHash))
	return base64.RawURLEncoding.EncodeToString(sum[:12])
}
