package merchant

import (
	"context"
	"fmt"
	"net/netip"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// ThrottleStore counts failed sign-ins by key ("account:<email>", "addr:<prefix>"), shared by
// every instance. Implementations must pass checkout/storetest.
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

// ThrottlePolicy says how long failed sign-ins make the next one wait.
type ThrottlePolicy struct {
	Free        int           // failures that cost nothing (10)
	FirstWait   time.Duration // the wait after the Free-th failure (1 minute), doubled by each further one
	MaxWait     time.Duration // the longest wait (1 hour)
	ForgetAfter time.Duration // failures older than this are forgotten (24 hours)
}

// DefaultThrottlePolicy: ten failures, then one minute, doubling up to an hour; a day without
// failures starts over.
var DefaultThrottlePolicy = ThrottlePolicy{Free: 10, FirstWait: time.Minute, MaxWait: time.Hour, ForgetAfter: 24 * time.Hour}

// Wait returns how long to wait after the last of n failures.
func (p ThrottlePolicy) Wait(n int) time.Duration {
	if n < p.Free {
		return 0
	}
	w := p.FirstWait
	for i := p.Free; i < n && w < p.MaxWait; i++ {
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
	return fmt.Sprintf("merchant: too many failed sign-ins; retry in %s", e.Wait.Round(time.Second))
}

// Unwrap gives ErrThrottled, whose code is CodeTooManyAttempts.
func (e *ThrottledError) Unwrap() error { return ErrThrottled }

// accountKey is the throttling key of an e-mail as typed (normalised): unknown e-mails are
// throttled like known ones, so the throttle tells nothing either.
func accountKey(email string) string { return "account:" + NormalizeEmail(email) }

// addrKey is the throttling key of a client address: an IPv4 address, or the /64 prefix of an
// IPv6 one (one subscriber usually holds a whole /64). "" when the address cannot be read.
func addrKey(addr string) string {
	a, err := netip.ParseAddr(addr)
	if err != nil {
		if ap, err2 := netip.ParseAddrPort(addr); err2 == nil {
			a = ap.Addr()
		} else {
			return ""
		}
	}
	a = a.Unmap()
	if a.Is6() {
		p, _ := a.Prefix(64)
		return "addr:" + p.String()
	}
	return "addr:" + a.String()
}
