package sandbox

import (
	"math"
	"time"

	"github.com/pixcheckout/pixcheckout/gatewayclient/ratelimit"
)

// RateLimit is a limit of the sandbox (on POST /transaction per client, on failed console
// sign-ins): the project's one rate type. Its zero fields take the sandbox's defaults.
type RateLimit = ratelimit.Rate

// Default limit on failed console sign-ins: ten in a row, then one every 12 seconds per
// remote address and per client, far too slow to guess a secret, plenty for a person who
// mistyped it.
const (
	defaultLoginRequests = 5
	defaultLoginPeriod   = time.Minute
	defaultLoginBurst    = 10
)

// DefaultRateLimit is the limit on POST /transaction when none is set: generous enough for a
// checkout under load tests, low enough to be reached on purpose.
var DefaultRateLimit = RateLimit{Requests: 50, Period: time.Second, Burst: 100}

// withDefaults fills the unset fields of the POST /transaction limit.
func withDefaults(l RateLimit) RateLimit { return l.Or(DefaultRateLimit) }

// withLoginDefaults fills the unset fields of the console sign-in limit.
func withLoginDefaults(l RateLimit) RateLimit {
	return l.Or(RateLimit{Requests: defaultLoginRequests, Period: defaultLoginPeriod, Burst: defaultLoginBurst})
}

// limiter is a ratelimit.Limiter on the sandbox's clock.
type limiter struct {
	*ratelimit.Limiter
	clock Clock
}

// maxBuckets bounds the buckets a limiter keeps (see ratelimit.Limiter).
const maxBuckets = 10_000

// newLimiter makes a limiter of l (defaults filled by the caller).
func newLimiter(l RateLimit, c Clock) *limiter {
	return &limiter{Limiter: ratelimit.NewLimiter(l, maxBuckets), clock: c}
}

// allow takes one token from key's bucket (see ratelimit.Limiter.Allow).
func (l *limiter) allow(key string) (bool, time.Duration) { return l.Allow(key, l.clock.Now()) }

// blocked reports whether key's bucket is empty (see ratelimit.Limiter.Blocked).
func (l *limiter) blocked(key string) (bool, time.Duration) { return l.Blocked(key, l.clock.Now()) }

// retryAfterSeconds rounds a wait up to whole seconds, at least 1, for the Retry-After header.
func retryAfterSeconds(d time.Duration) int {
	s := int(math.Ceil(d.Seconds()))
	if s < 1 {
		s = 1
	}
	return s
}
