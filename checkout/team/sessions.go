package team

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"time"
)

// The dashboard's session policy.
const (
	// SignInIdleTimeout ends a dashboard session after 30 minutes without a request.
	SignInIdleTimeout = 30 * time.Minute
	// MaxSignInIdle is the longest any session may stay idle: a cashier's on the point of sale
	// lasts the shift (an owner's setting, checkout/pos, up to this), instead of
	// SignInIdleTimeout. The dashboard holds each session to its role's limit.
	MaxSignInIdle = 24 * time.Hour
	// SignInLifetime ends a dashboard session 12 hours after sign-in, however active.
	SignInLifetime = 12 * time.Hour
)

// SignInTokenStore keeps the sessions of github.com/alexedwards/scs/v2 in the database, so that
// a restart or another instance keeps people signed in. Its first three methods are scs.Store's
// (an implementation is used as one as is); both SQL stores build it on scs's own stores
// (sqlite3store, pgxstore). A token is a bearer secret: implementations keep and look up only
// TokenHash of it, never the token, so that a copy of the database signs nobody in.
// Implementations must pass checkout/storetest.
type SignInTokenStore interface {
	// Find returns the data of an unexpired session; found is false for an unknown or expired
	// token.
	Find(token string) (b []byte, found bool, err error)
	// Commit stores a session's data until expiry, replacing what the token had.
	Commit(token string, b []byte, expiry time.Time) error
	// Delete removes a session; an unknown token is not an error.
	Delete(token string) error
	// PruneSignInTokens deletes the sessions that expired before now, and says how many.
	PruneSignInTokens(ctx context.Context, now time.Time) (int, error)
}

// TokenHash is the stored form of a bearer secret (a session's token, and any secret added
// later that signs somebody in): the unpadded base64url of its SHA-256. The secrets carry 128
// bits or more of randomness, so a fast hash is enough; the look-up is by this hash.
func TokenHash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// PasswordFingerprint is a short digest of a user's password hash that a session keeps: when
// the password changes the fingerprint changes, and SignedInUser ends the sessions that hold
// the old one. It reveals nothing usable of the hash.
func PasswordFingerprint(u *User) string {
	sum := sha256.Sum256([]byte("session:" + u.PasswordHash))
	return base64.RawURLEncoding.EncodeToString(sum[:12])
}
