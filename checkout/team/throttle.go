package team

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"net/netip"
	"strconv"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// ThrottleStore counts failed sign-ins by key ("pair:<email> <address>", "addr:<address>",
// "account:<email>"), shared by every instance. Implementations must pass checkout/storetest.
type ThrottleStore interface {
	// LoginFailures returns the count of failures of key and the time of the last one (0 and
	// the zero time when there are none).
	LoginFailures(ctx context.Context, key string) (n int, last time.Time, err error)
	// RecordLoginFailure adds one failure to key at time at, atomically (concurrent failures
	// are all counted); when the last failure was before since, the count starts again at 1.
	// It returns the new count.
	RecordLoginFailure(ctx context.Context, key string, at, since time.Time) (int, error)
	// ResetLoginFailures forgets the failures of key.
	ResetLoginFailures(ctx context.Context, key string) error
	// PruneLoginFailures forgets the keys whose last failure was before t, and says how many.
	PruneLoginFailures(ctx context.Context, before time.Time) (int, error)
}

// ThrottlePolicy says how many failed sign-ins cost nothing, counted three ways, and how long
// the failures past them make the next attempt wait. The counts follow OWASP's
// Authentication and Credential Stuffing cheat sheets: one account guessed from one address
// (the pair) is stopped soon; one address guessing many accounts later; one account guessed
// from many addresses only at a much higher ceiling, so that a stranger's failures from
// elsewhere never refuse the owner's right password from an address that has none.
type ThrottlePolicy struct {
	PerPair     int           // failures of one account from one address that cost nothing (10)
	PerAddress  int           // failures from one address, whatever the accounts (30)
	PerAccount  int           // failures of one account, whatever the addresses (200)
	FirstWait   time.Duration // the wait once a count is reached (1 minute), doubled by each further failure
	MaxWait     time.Duration // the longest wait (1 hour)
	ForgetAfter time.Duration // failures older than this are forgotten (24 hours)
}

// DefaultThrottlePolicy: ten failures of one account from one address, thirty from one
// address, two hundred of one account; then one minute, doubling up to an hour; a day without
// failures starts over.
var DefaultThrottlePolicy = ThrottlePolicy{PerPair: 10, PerAddress: 30, PerAccount: 200,
	FirstWait: time.Minute, MaxWait: time.Hour, ForgetAfter: 24 * time.Hour}

// Wait returns how long to wait after the last of n failures of a count of which free cost
// nothing.
func (p ThrottlePolicy) Wait(n, free int) time.Duration {
	if n < free {
		return 0
	}
	w := p.FirstWait
	for i := free; i < n && w < p.MaxWait; i++ {
		w *= 2
	}
	return min(w, p.MaxWait)
}

// ErrThrottled is the code-carrying error behind a ThrottledError.
var ErrThrottled = &checkout.Error{Code: checkout.CodeTooManyAttempts, Message: "too many failed sign-ins"}

// ThrottledError refuses a sign-in while a wait runs. Its code is checkout.CodeTooManyAttempts.
type ThrottledError struct {
	Wait time.Duration // until the next attempt is allowed (at least one second)
}

// Error says how long to wait.
func (e *ThrottledError) Error() string {
	return fmt.Sprintf("team: too many failed sign-ins; retry in %s", e.Wait.Round(time.Second))
}

// Unwrap gives ErrThrottled, whose code is CodeTooManyAttempts.
func (e *ThrottledError) Unwrap() error { return ErrThrottled }

// throttleKey is one count of failed sign-ins and the failures it lets pass free.
type throttleKey struct {
	key  string
	free int
}

// throttleKeys are the counts a sign-in of email from addr is throttled by: the pair, the
// address and the account, in that order. u is the user with that e-mail (nil: none): the
// pair's count belongs to the user's current password, so that a reset starts it again. A
// client with a valid device cookie for the account (dev, see Device) is counted by its device
// instead of the account: strangers' failures from many addresses never lock the owner's own
// browsers out, and a stolen device cookie is stopped like a pair.
func (p ThrottlePolicy) throttleKeys(email, addr string, u *User, dev *Device) []throttleKey {
	a := AddressKey(addr)
	pair := "pair:" + NormalizeEmail(email) + " " + a
	if u != nil {
		pair += " " + strconv.FormatInt(u.UpdatedAt.UnixMilli(), 10)
	}
	last := throttleKey{accountKey(email), p.PerAccount}
	if dev.For(email) {
		last = throttleKey{"device:" + dev.Nonce, p.PerPair}
	}
	return []throttleKey{{pair, p.PerPair}, {"addr:" + a, p.PerAddress}, last}
}

// Device is a browser that signed in to an account before: OWASP's device cookie ("Slow Down
// Online Guessing Attacks with Device Cookies"). The dashboard leaves one, sealed so that
// nobody can make or change it, at every successful sign-in, and gives it back to Login: the
// account-wide lockout applies only to clients without one for that account, which are counted
// per device instead. The per-address limits apply to every client.
type Device struct {
	Email string // the account it signed in to, normalised
	Nonce string // names the device: 128 random bits
}

// NewDevice is the device cookie's content for a sign-in to email.
func NewDevice(email string) Device {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return Device{Email: NormalizeEmail(email), Nonce: base64.RawURLEncoding.EncodeToString(b[:])}
}

// For reports whether d (nil: none) is a device of the account email.
func (d *Device) For(email string) bool {
	return d != nil && d.Nonce != "" && d.Email == NormalizeEmail(email)
}

// accountKey is the throttling key of an e-mail as typed (normalised): unknown e-mails are
// throttled like known ones, so the throttle tells nothing either.
func accountKey(email string) string { return "account:" + NormalizeEmail(email) }

// AddressKey is how the checkout counts a client address in its limits (sign-in throttling,
// new carts, live streams, connections): an IPv4 address, or the /64 prefix of an IPv6 one
// (one subscriber usually holds a whole /64); "unknown" when the address cannot be read, so
// that such clients share one count rather than escape it.
func AddressKey(addr string) string {
	a, err := netip.ParseAddr(addr)
	if err != nil {
		if ap, err2 := netip.ParseAddrPort(addr); err2 == nil {
			a = ap.Addr()
		} else {
			return "unknown"
		}
	}
	a = a.Unmap()
	if a.Is6() {
		p, _ := a.Prefix(64)
		return p.String()
	}
	return a.String()
}
