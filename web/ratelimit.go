package web

import (
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// keyedLimiter is a token bucket per key (a client address), kept in memory and bounded: keys
// idle long enough for their bucket to be full again are forgotten when the map grows.
type keyedLimiter struct {
	every time.Duration // one token per every
	burst int
	max   int // keys kept before idle ones are swept

	mu   sync.Mutex
	keys map[string]*keyedBucket
}

type keyedBucket struct {
	lim  *rate.Limiter
	seen time.Time
}

func newKeyedLimiter(every time.Duration, burst, max int) *keyedLimiter {
	return &keyedLimiter{every: every, burst: burst, max: max, keys: map[string]*keyedBucket{}}
}

// allow takes a token of key's bucket at now; when there is none it returns false and how long
// until there is one.
func (k *keyedLimiter) allow(key string, now time.Time) (bool, time.Duration) {
	k.mu.Lock()
	defer k.mu.Unlock()
	b := k.keys[key]
	if b == nil {
		if len(k.keys) >= k.max {
			k.sweep(now)
		}
		b = &keyedBucket{lim: rate.NewLimiter(rate.Every(k.every), k.burst)}
		k.keys[key] = b
	}
	b.seen = now
	r := b.lim.ReserveN(now, 1)
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		return false, d
	}
	return true, 0
}

// sweep forgets the keys whose bucket has refilled since they were last seen; if every key is
// still busy, it forgets them all rather than grow without bound.
func (k *keyedLimiter) sweep(now time.Time) {
	full := k.every * time.Duration(k.burst)
	for key, b := range k.keys {
		if now.Sub(b.seen) >= full {
			delete(k.keys, key)
		}
	}
	if len(k.keys) >= k.max {
		clear(k.keys)
	}
}
