package sandbox

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// RateLimit is the per-client limit on POST /transaction: a token bucket refilled with
// Requests tokens every Period and holding at most Burst. Off lifts it.
type RateLimit struct {
	Requests int           // tokens added per Period; 0 means the default (50)
	Period   time.Duration // 0 means one second
	Burst    int           // bucket size; 0 means the default (100)
	Off      bool          // no limit at all (load tests); the other fields are ignored
}

// String writes l as ParseRateLimit reads it.
func (l RateLimit) String() string {
	if l.Off {
		return "off"
	}
	l = l.withDefaults()
	per := l.Period.String()
	switch l.Period {
	case time.Second:
		per = "s"
	case time.Minute:
		per = "m"
	case time.Hour:
		per = "h"
	}
	out := strconv.Itoa(l.Requests) + "/" + per
	if l.Burst != 2*l.Requests {
		out += " burst " + strconv.Itoa(l.Burst)
	}
	return out
}

// ParseRateLimit reads a rate limit setting (SANDBOX_RATE_LIMIT, CHECKOUT_SANDBOX_RATE_LIMIT):
// "off" (no limit), or requests per period — "50/s", "1000/s", "3000/m", "10/250ms" — with
// bursts of twice the requests unless followed by "burst N" ("50/s burst 200"). "" means
// the default, 50/s burst 100. Errors say what is wrong in one line.
func ParseRateLimit(s string) (RateLimit, error) {
	s = strings.TrimSpace(s)
	switch strings.ToLower(s) {
	case "":
		return RateLimit{}.withDefaults(), nil
	case "off", "none", "unlimited":
		return RateLimit{Off: true}, nil
	}
	bad := func(why string) (RateLimit, error) {
		return RateLimit{}, fmt.Errorf(`rate limit %q: %s (want "off", or requests per period such as "50/s", "3000/m", "50/s burst 200")`, s, why)
	}
	rate, burstText, hasBurst := strings.Cut(s, " burst ")
	reqText, perText, ok := strings.Cut(strings.TrimSpace(rate), "/")
	if !ok {
		return bad("no /period")
	}
	n, err := strconv.Atoi(strings.TrimSpace(reqText))
	if err != nil || n < 1 || n > 1_000_000_000 {
		return bad("the number of requests must be a whole number from 1 to 1000000000")
	}
	l := RateLimit{Requests: n, Burst: 2 * n}
	switch per := strings.TrimSpace(perText); per {
	case "s", "sec", "second":
		l.Period = time.Second
	case "m", "min", "minute":
		l.Period = time.Minute
	case "h", "hour":
		l.Period = time.Hour
	default:
		d, err := time.ParseDuration(per)
		if err != nil || d < time.Millisecond || d > 24*time.Hour {
			return bad("the period must be s, m, h or a duration from 1ms to 24h")
		}
		l.Period = d
	}
	if hasBurst {
		b, err := strconv.Atoi(strings.TrimSpace(burstText))
		if err != nil || b < 1 || b > 2_000_000_000 {
			return bad("the burst must be a whole number from 1 to 2000000000")
		}
		l.Burst = b
	}
	return l, nil
}

// Default rate limit: generous enough for a checkout under load tests, low enough to be
// reached on purpose.
const (
	defaultRateRequests = 50
	defaultRateBurst    = 100
)

// Default limit on failed console sign-ins: ten in a row, then one every 12 seconds per
// remote address and per client, far too slow to guess a secret, plenty for a person who
// mistyped it.
const (
	defaultLoginRequests = 5
	defaultLoginPeriod   = time.Minute
	defaultLoginBurst    = 10
)

// withDefaults fills the unset fields of the POST /transaction limit.
func (l RateLimit) withDefaults() RateLimit {
	return l.or(RateLimit{Requests: defaultRateRequests, Period: time.Second, Burst: defaultRateBurst})
}

// withLoginDefaults fills the unset fields of the console sign-in limit.
func (l RateLimit) withLoginDefaults() RateLimit {
	return l.or(RateLimit{Requests: defaultLoginRequests, Period: defaultLoginPeriod, Burst: defaultLoginBurst})
}

// or fills the unset fields of l from def.
func (l RateLimit) or(def RateLimit) RateLimit {
	if l.Requests <= 0 {
		l.Requests = def.Requests
	}
	if l.Period <= 0 {
		l.Period = def.Period
	}
	if l.Burst <= 0 {
		l.Burst = def.Burst
	}
	return l
}

// limiter holds one token bucket (x/time/rate's) per key: a client, or a remote address. Time
// comes from the sandbox clock, so tests refill a bucket by advancing the clock, not by
// sleeping.
type limiter struct {
	limit   RateLimit
	clock   Clock
	mu      sync.Mutex
	buckets map[string]*rate.Limiter
}

// maxBuckets bounds the buckets a limiter keeps: past it, buckets that have refilled to the
// full burst (as good as new) are dropped, so keys made of remote addresses cannot grow
// the map without end.
const maxBuckets = 10_000

// newLimiter makes a limiter of l (defaults filled by the caller).
func newLimiter(l RateLimit, c Clock) *limiter {
	return &limiter{limit: l, clock: c, buckets: map[string]*rate.Limiter{}}
}

// bucket returns key's bucket. l.mu must be held.
func (l *limiter) bucket(key string, now time.Time) *rate.Limiter {
	b, ok := l.buckets[key]
	if !ok {
		if len(l.buckets) >= maxBuckets {
			for k, old := range l.buckets {
				if old.TokensAt(now) >= float64(l.limit.Burst) {
					delete(l.buckets, k)
				}
			}
		}
		b = rate.NewLimiter(rate.Limit(float64(l.limit.Requests)/l.limit.Period.Seconds()), l.limit.Burst)
		l.buckets[key] = b
	}
	return b
}

// allow takes one token from key's bucket. When none is left it returns false and how long
// until one is.
func (l *limiter) allow(key string) (bool, time.Duration) {
	now := l.clock.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	r := l.bucket(key, now).ReserveN(now, 1)
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		return false, d
	}
	return true, 0
}

// blocked reports whether key's bucket is empty, and how long until it holds a token,
// without taking one (for limits that only failures count against).
func (l *limiter) blocked(key string) (bool, time.Duration) {
	now := l.clock.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.bucket(key, now)
	tokens := b.TokensAt(now)
	if tokens >= 1 {
		return false, 0
	}
	return true, time.Duration(math.Ceil((1 - tokens) / float64(b.Limit()) * float64(time.Second)))
}

// retryAfterSeconds rounds a wait up to whole seconds, at least 1, for the Retry-After header.
func retryAfterSeconds(d time.Duration) int {
	s := int(math.Ceil(d.Seconds()))
	if s < 1 {
		s = 1
	}
	return s
}
