package sandbox

import (
	"math"
	"sync"
	"time"
)

// RateLimit is the per-client limit on POST /transaction: a token bucket refilled with
// Requests tokens every Period and holding at most Burst.
type RateLimit struct {
	Requests int           // tokens added per Period; 0 means the default (50)
	Period   time.Duration // 0 means one second
	Burst    int           // bucket size; 0 means the default (100)
}

// Default rate limit: generous enough for a checkout under load tests, low enough to be
// reached on purpose.
const (
	defaultRateRequests = 50
	defaultRateBurst    = 100
)

func (l RateLimit) withDefaults() RateLimit {
	if l.Requests <= 0 {
		l.Requests = defaultRateRequests
	}
	if l.Period <= 0 {
		l.Period = time.Second
	}
	if l.Burst <= 0 {
		l.Burst = defaultRateBurst
	}
	return l
}

// limiter holds one token bucket per client. Time comes from the sandbox clock, so tests
// refill a bucket by advancing the clock, not by sleeping.
type limiter struct {
	limit   RateLimit
	clock   Clock
	mu      sync.Mutex
	buckets map[string]*bucket
}

type bucket struct {
	tokens float64
	last   time.Time
}

func newLimiter(l RateLimit, c Clock) *limiter {
	return &limiter{limit: l.withDefaults(), clock: c, buckets: map[string]*bucket{}}
}

// allow takes one token from key's bucket. When none is left it returns false and how long
// until one is.
func (l *limiter) allow(key string) (bool, time.Duration) {
	now := l.clock.Now()
	perNano := float64(l.limit.Requests) / float64(l.limit.Period)
	l.mu.Lock()
	defer l.mu.Unlock()
	b, ok := l.buckets[key]
	if !ok {
		b = &bucket{tokens: float64(l.limit.Burst), last: now}
		l.buckets[key] = b
	}
	if elapsed := now.Sub(b.last); elapsed > 0 {
		b.tokens = math.Min(float64(l.limit.Burst), b.tokens+float64(elapsed)*perNano)
		b.last = now
	}
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	wait := time.Duration(math.Ceil((1 - b.tokens) / perNano))
	return false, wait
}

// retryAfterSeconds rounds a wait up to whole seconds, at least 1, for the Retry-After header.
func retryAfterSeconds(d time.Duration) int {
	s := int(math.Ceil(d.Seconds()))
	if s < 1 {
		s = 1
	}
	return s
}
