package team

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// DefaultAdminEmail is the first user's e-mail when CHECKOUT_ADMIN_EMAIL is not set.
const DefaultAdminEmail = "admin@localhost"

// ErrBadCredentials refuses a sign-in: the same error for an unknown e-mail and a wrong
// password.
var ErrBadCredentials = &checkout.Error{Code: checkout.CodeUnauthorized, Message: "wrong e-mail or password"}

// ErrSignInEnded: a session names a user who is gone or whose password changed since.
var ErrSignInEnded = &checkout.Error{Code: checkout.CodeUnauthorized, Message: "the session has ended"}

// AccountsOptions configure Accounts; zero fields take the defaults.
type AccountsOptions struct {
	// Invitations keeps the invitations to the dashboard (nil: none can be made).
	Invitations InvitationStore
	// Sessions keeps the users' sessions as they see them (nil: not listed, not checked).
	Sessions SignInStore
	// TOTP keeps the users' second factor (nil: none).
	TOTP TOTPStore
	// PasswordResets keeps the self-service password reset links (nil: none can be asked).
	PasswordResets PasswordResetStore
	Hasher         *Hasher          // default NewHasher(OWASPParams, 0)
	Throttle       ThrottlePolicy   // default DefaultThrottlePolicy
	Clock          func() time.Time // default time.Now
	NewID          func() string    // default checkout.NewID
}

// Accounts manages the dashboard's users and their sign-in. It is safe for concurrent use.
type Accounts struct {
	users       UserStore
	invitations InvitationStore    // nil: no invitations
	sessions    SignInStore        // nil: sessions not listed
	totp        TOTPStore          // nil: no second factor
	resets      PasswordResetStore // nil: no self-service password reset
	throttle    ThrottleStore
	hasher      *Hasher
	policy      ThrottlePolicy
	now         func() time.Time
	newID       func() string
	dummy       string // a hash verified for unknown e-mails, so they take as long as known ones
}

// NewAccounts returns the accounts service on its stores.
func NewAccounts(users UserStore, throttle ThrottleStore, opts AccountsOptions) *Accounts {
	a := &Accounts{users: users, invitations: opts.Invitations, sessions: opts.Sessions, totp: opts.TOTP, resets: opts.PasswordResets, throttle: throttle, hasher: opts.Hasher, policy: opts.Throttle,
		now: opts.Clock, newID: opts.NewID}
	if a.hasher == nil {
		a.hasher = NewHasher(OWASPParams, 0)
	}
	if a.policy == (ThrottlePolicy{}) {
		a.policy = DefaultThrottlePolicy
	}
	if a.now == nil {
		a.now = time.Now
	}
	if a.newID == nil {
		a.newID = checkout.NewID
	}
	// Made with the same parameters as real hashes, from a password nobody knows.
	a.dummy, _ = a.hasher.Hash(context.Background(), RandomPassword())
	return a
}

// authenticate checks an e-mail and password typed at the sign-in from the client address addr
// (host or host:port; "" when unknown). While the failed sign-ins of the account from that
// address, of the address, or (past a much higher ceiling) of the account impose a wait, it
// refuses with a *ThrottledError without looking at the password. A wrong password and an
// unknown e-mail both give ErrBadCredentials, after the same work, and both count as
// failures of the three. A success forgets the failures of the account from that address.
func (a *Accounts) authenticate(ctx context.Context, email, password, addr string, dev *Device) (*User, error) {
	// The hashing slot is held from the throttle's check to the record of a failure, so that a
	// burst of concurrent guesses cannot all pass the check before the first failure is
	// counted: at most as many as there are slots (per instance) race the count.
	if err := a.hasher.acquire(ctx); err != nil {
		return nil, err
	}
	defer a.hasher.release()
	u, err := a.users.UserByEmail(ctx, NormalizeEmail(email))
	hash := a.dummy
	switch {
	case err == nil:
		hash = u.PasswordHash
	case errors.Is(err, checkout.ErrNotFound):
		u = nil
	default:
		return nil, fmt.Errorf("team: sign-in: %w", err)
	}
	now := a.now()
	keys := a.policy.throttleKeys(email, addr, u, dev)
	if wait, err := a.wait(ctx, keys, now); err != nil {
		return nil, err
	} else if wait > 0 {
		return nil, &ThrottledError{Wait: wait}
	}
	ok, err := a.hasher.verifyHeld(hash, password)
	if err != nil && !errors.Is(err, errBadHash) {
		return nil, fmt.Errorf("team: sign-in: %w", err)
	}
	if !ok || u == nil {
		for _, k := range keys {
			if _, err := a.throttle.RecordLoginFailure(ctx, k.key, now, now.Add(-a.policy.ForgetAfter)); err != nil {
				return nil, fmt.Errorf("team: recording a failed sign-in: %w", err)
			}
		}
		return nil, ErrBadCredentials
	}
	// The address's and the account's counts are left to age: the owner signing in must not
	// hand a stranger elsewhere a fresh allowance.
	if err := a.throttle.ResetLoginFailures(ctx, keys[0].key); err != nil {
		return nil, fmt.Errorf("team: sign-in: %w", err)
	}
	if dev.For(email) {
		if err := a.throttle.ResetLoginFailures(ctx, keys[2].key); err != nil {
			return nil, fmt.Errorf("team: sign-in: %w", err)
		}
	}
	return u, nil
}

// Login checks an e-mail and password typed at the sign-in as authenticate does, and on
// success records the user's sign-in time.
func (a *Accounts) Login(ctx context.Context, email, password, addr string) (*User, error) {
	return a.LoginFrom(ctx, email, password, addr, nil)
}

// LoginFrom is Login from a client that gave a valid device cookie dev (nil: none; see
// Device): one of the account's own browsers is not held by the account-wide lockout.
func (a *Accounts) LoginFrom(ctx context.Context, email, password, addr string, dev *Device) (*User, error) {
	u, err := a.authenticate(ctx, email, password, addr, dev)
	if err != nil {
		return nil, err
	}
	now := a.now()
	if err := a.users.RecordSignIn(ctx, u.ID, now); err != nil {
		return nil, fmt.Errorf("team: sign-in: %w", err)
	}
	u.LastSignInAt = now
	return u, nil
}

// VerifyPassword checks the password of a signed-in user who must type it again (to reveal a
// secret, change their password, turn off their second factor): throttled and counted like a
// sign-in from addr, without counting as one. A wrong password is ErrBadCredentials.
func (a *Accounts) VerifyPassword(ctx context.Context, u *User, password, addr string) error {
	_, err := a.authenticate(ctx, u.Email, password, addr, nil)
	return err
}

// wait returns the longest wait that the failures of keys impose at now (0: none).
func (a *Accounts) wait(ctx context.Context, keys []throttleKey, now time.Time) (time.Duration, error) {
	var wait time.Duration
	for _, k := range keys {
		n, last, err := a.throttle.LoginFailures(ctx, k.key)
		if err != nil {
			return 0, fmt.Errorf("team: reading failed sign-ins: %w", err)
		}
		if n == 0 || now.Sub(last) >= a.policy.ForgetAfter {
			continue
		}
		if left := last.Add(a.policy.Wait(n, k.free)).Sub(now); left > wait {
			wait = left
		}
	}
	if wait > 0 && wait < time.Second {
		wait = time.Second
	}
	return wait.Round(time.Second), nil
}

// SignedInUser returns the user a session names by id, provided the password fingerprint the
// session keeps (PasswordFingerprint at sign-in) still matches; otherwise ErrSessionEnded.
func (a *Accounts) SignedInUser(ctx context.Context, id, fingerprint string) (*User, error) {
	if id == "" {
		return nil, ErrSignInEnded
	}
	u, err := a.users.User(ctx, id)
	if errors.Is(err, checkout.ErrNotFound) {
		return nil, ErrSignInEnded
	}
	if err != nil {
		return nil, fmt.Errorf("team: session user: %w", err)
	}
	if subtle.ConstantTimeCompare([]byte(PasswordFingerprint(u)), []byte(fingerprint)) != 1 {
		return nil, ErrSignInEnded
	}
	return u, nil
}

// AddUser creates a user with a role; invalid input gives a *checkout.ValidationError (fields
// "email", "password" and "role"), a taken e-mail ErrEmailTaken.
func (a *Accounts) AddUser(ctx context.Context, email, password string, role Role) (*User, error) {
	email = NormalizeEmail(email)
	if err := fieldErrors(checkEmail(email), CheckPassword(password, email), checkRole(role)); err != nil {
		return nil, err
	}
	hash, err := a.hasher.Hash(ctx, password)
	if err != nil {
		return nil, err
	}
	now := a.now()
	u := User{ID: a.newID(), Email: email, Role: role, PasswordHash: hash, CreatedAt: now, UpdatedAt: now}
	if err := a.users.CreateUser(ctx, u); err != nil {
		return nil, fmt.Errorf("team: adding %s: %w", email, err)
	}
	return &u, nil
}

// ResetPassword gives the user with that e-mail a new password, which ends their sessions,
// and forgets the account's failed sign-ins (those of each address against the account start
// again with the new password; the addresses' own counts stay). An unknown e-mail gives
// checkout.ErrNotFound.
func (a *Accounts) ResetPassword(ctx context.Context, email, password string) error {
	email = NormalizeEmail(email)
	if err := fieldErrors(CheckPassword(password, email)); err != nil {
		return err
	}
	u, err := a.users.UserByEmail(ctx, email)
	if err != nil {
		return fmt.Errorf("team: resetting the password of %s: %w", email, err)
	}
	hash, err := a.hasher.Hash(ctx, password)
	if err != nil {
		return err
	}
	if err := a.users.SetPasswordHash(ctx, u.ID, hash, a.now()); err != nil {
		return fmt.Errorf("team: resetting the password of %s: %w", email, err)
	}
	return a.throttle.ResetLoginFailures(ctx, accountKey(email))
}

// Users lists the users by e-mail.
func (a *Accounts) Users(ctx context.Context) ([]User, error) { return a.users.Users(ctx) }

// User returns the user with that id, or checkout.ErrNotFound.
func (a *Accounts) User(ctx context.Context, id string) (*User, error) { return a.users.User(ctx, id) }

// UserByEmail returns the user with that e-mail (normalised here), or checkout.ErrNotFound.
func (a *Accounts) UserByEmail(ctx context.Context, email string) (*User, error) {
	return a.users.UserByEmail(ctx, NormalizeEmail(email))
}

// ChangeRole gives the user with that id another role. An unknown role is a
// *checkout.ValidationError on FieldRole, an unknown user checkout.ErrNotFound, demoting the
// last owner ErrLastOwner. The change holds from the user's next request on: the dashboard
// reads the role at every request. The messages out (the user's notice) are written with the
// change.
func (a *Accounts) ChangeRole(ctx context.Context, id string, role Role, out ...checkout.OutboxMessage) error {
	if err := fieldErrors(checkRole(role)); err != nil {
		return err
	}
	if err := a.users.SetUserRole(ctx, id, role, out...); err != nil {
		return fmt.Errorf("team: changing the role of %s: %w", id, err)
	}
	return nil
}

// RemoveUser removes the user with that id: their sessions end at their next request (the
// dashboard finds no user behind them). An unknown user is checkout.ErrNotFound, the last
// owner ErrLastOwner. The messages out (the user's notice) are written with the removal.
func (a *Accounts) RemoveUser(ctx context.Context, id string, out ...checkout.OutboxMessage) error {
	if err := a.users.DeleteUser(ctx, id, out...); err != nil {
		return fmt.Errorf("team: removing user %s: %w", id, err)
	}
	return nil
}

// EnsureAdmin makes the first user, an owner, at start-up. With an e-mail (CHECKOUT_ADMIN_EMAIL), that
// user is created when missing, with password (or, when empty, a random one that is returned);
// an existing user is left as is (use ResetPassword to change a password). Without an e-mail,
// DefaultAdminEmail is created with a random password only when there is no user at all. The
// random password is returned only when this call created the user, to be shown once; an
// instance that loses a race to create the same user returns created false.
func (a *Accounts) EnsureAdmin(ctx context.Context, email, password string) (u *User, generated string, err error) {
	if email == "" {
		users, err := a.users.Users(ctx)
		if err != nil {
			return nil, "", fmt.Errorf("team: listing users: %w", err)
		}
		if len(users) > 0 {
			return nil, "", nil
		}
		email = DefaultAdminEmail
	} else if _, err := a.users.UserByEmail(ctx, NormalizeEmail(email)); err == nil {
		return nil, "", nil
	} else if !errors.Is(err, checkout.ErrNotFound) {
		return nil, "", fmt.Errorf("team: reading %s: %w", email, err)
	}
	if password == "" {
		password = RandomPassword()
		generated = password
	}
	u, err = a.AddUser(ctx, email, password, RoleOwner)
	if errors.Is(err, ErrEmailTaken) {
		return nil, "", nil // another instance made it first
	}
	if err != nil {
		return nil, "", err
	}
	return u, generated, nil
}

// Prune forgets failed sign-ins older than the policy's ForgetAfter.
func (a *Accounts) Prune(ctx context.Context) (int, error) {
	return a.throttle.PruneLoginFailures(ctx, a.now().Add(-a.policy.ForgetAfter))
}

// newToken returns 256 random bits, URL-safe: the secret of an invitation's link.
func newToken() string {
	var b [32]byte
	_, _ = rand.Read(b[:])
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// RandomPassword returns 144 random bits as 24 URL-safe characters: a first user's password,
// or one the user command makes when none is given.
func RandomPassword() string {
	var b [18]byte
	_, _ = rand.Read(b[:])
	return base64.RawURLEncoding.EncodeToString(b[:])
}
