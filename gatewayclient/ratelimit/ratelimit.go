// Package ratelimit is the one rate limit of the project: a Rate ("60/min", "50/s burst 200",
// "off"), its parser, and a Limiter holding a token bucket per key (a client, an address),
// used by the checkout's pages and by the sandbox gateway alike.
package ratelimit

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Rate is a token bucket's limit: Requests tokens added every Period, at most Burst held. A
// field left zero takes its taker's default (see Or); Off lifts the limit.
type Rate struct {
	Requests int           // tokens added per Period
	Period   time.Duration // the period of Requests
	Burst    int           // bucket size
	Off      bool          // no limit at all; the other fields are ignored
}

// The spellings of Period that Parse reads and String writes (besides any duration).
var periods = map[string]time.Duration{
	"s": time.Second, "sec": time.Second, "second": time.Second,
	"m": time.Minute, "min": time.Minute, "minute": time.Minute,
	"h": time.Hour, "hour": time.Hour,
}

// Parse reads a rate setting: "off" (no limit), or requests per period — "60/min", "50/s",
// "3000/m", "1000/h", "10/250ms" — with bursts of twice the requests unless followed by
// "burst N" ("50/s burst 200"). "" is the zero Rate: the taker's default. Errors say what is
// wrong in one line.
func Parse(s string) (Rate, error) {
	s = strings.TrimSpace(s)
	switch strings.ToLower(s) {
	case "":
		return Rate{}, nil
	case "off", "none", "unlimited":
		return Rate{Off: true}, nil
	}
	bad := func(why string) (Rate, error) {
		return Rate{}, fmt.Errorf(`rate %q: %s (want "off", or requests per period such as "60/min", "50/s", "50/s burst 200")`, s, why)
	}
	perSpec, burstText, hasBurst := strings.Cut(strings.ToLower(s), " burst ")
	reqText, perText, ok := strings.Cut(strings.TrimSpace(perSpec), "/")
	if !ok {
		return bad("no /period")
	}
	n, err := strconv.Atoi(strings.TrimSpace(reqText))
	if err != nil || n < 1 || n > 1_000_000_000 {
		return bad("the number of requests must be a whole number from 1 to 1000000000")
	}
	r := Rate{Requests: n, Burst: 2 * n}
	per := strings.TrimSpace(perText)
	if r.Period = periods[per]; r.Period == 0 {
		d, err := time.ParseDuration(per)
		if err != nil || d < time.Millisecond || d > 24*time.Hour {
			return bad("the period must be s, min, h or a duration from 1ms to 24h")
		}
		r.Period = d
	}
	if hasBurst {
		b, err := strconv.Atoi(strings.TrimSpace(burstText))
		if err != nil || b < 1 || b > 2_000_000_000 {
			return bad("the burst must be a whole number from 1 to 2000000000")
		}
		r.Burst = b
	}
	return r, nil
}

// String writes r as Parse reads it ("" for the zero Rate).
func (r Rate) String() string {
	switch {
	case r.Off:
		return "off"
	case r.Requests <= 0 || r.Period <= 0:
		return ""
	}
	per := r.Period.String()
	switch r.Period {
	case time.Second:
		per = "s"
	case time.Minute:
		per = "min"
	case time.Hour:
		per = "h"
	}
	out := strconv.Itoa(r.Requests) + "/" + per
	if r.Burst != 2*r.Requests {
		out += " burst " + strconv.Itoa(r.Burst)
	}
	return out
}

// Or fills the fields of r left zero from def.
func (r Rate) Or(def Rate) Rate {
	if r.Requests <= 0 {
		r.Requests = def.Requests
	}
	if r.Period <= 0 {
		r.Period = def.Period
	}
	if r.Burst <= 0 {
		r.Burst = def.Burst
	}
	return r
}

// Limiter holds a token bucket of one Rate per key, in memory and bounded: past maxKeys keys,
// those whose bucket has refilled (as good as new) are forgotten, and all of them if every
// bucket is still in use, so that keys made of remote addresses cannot grow it without end.
// Time is the caller's (now), so that a test's clock refills a bucket without sleeping.
type Limiter struct {
	rate    Rate
	maxKeys int

	mu      sync.Mutex
	buckets map[string]*rate.Limiter
}

// NewLimiter makes a Limiter of r, whose fields must all be set (see Or), keeping up to
// maxKeys buckets.
func NewLimiter(r Rate, maxKeys int) *Limiter {
	return &Limiter{rate: r, maxKeys: maxKeys, buckets: map[string]*rate.Limiter{}}
}

// Allow takes one token from key's bucket at now. When none is left it returns false and how
// long until one is.
func (l *Limiter) Allow(key string, now time.Time) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	res := l.bucket(key, now).ReserveN(now, 1)
	if d := res.DelayFrom(now); d > 0 {
		res.CancelAt(now)
		return false, d
	}
	return true, 0
}

// Blocked reports whether key's bucket is empty at now, and how long until it holds a token,
// without taking one (for limits that only failures count against: take one with Allow).
func (l *Limiter) Blocked(key string, now time.Time) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.bucket(key, now)
	tokens := b.TokensAt(now)
	if tokens >= 1 {
		return false, 0
	}
	return true, time.Duration(math.Ceil((1 - tokens) / float64(b.Limit()) * float64(time.Second)))
}

// bucket returns key's bucket. l.mu must be held.
func (l *Limiter) bucket(key string, now time.Time) *rate.Limiter {
	b, ok := l.buckets[key]
	if !ok {
		if len(l.buckets) >= l.maxKeys {
			l.sweep(now)
		}
		b = rate.NewLimiter(rate.Limit(float64(l.rate.Requests)/l.rate.Period.Seconds()), l.rate.Burst)
		l.buckets[key] = b
	}
	return b
}

// sweep forgets the buckets that have refilled; if every one is still in use, it forgets them
// all rather than grow without bound.
func (l *Limiter) sweep(now time.Time) {
	for k, b := range l.buckets {
		if b.TokensAt(now) >= float64(l.rate.Burst) {
			delete(l.buckets, k)
		}
	}
	if len(l.buckets) >= l.maxKeys {
		clear(l.buckets)
	}
}
