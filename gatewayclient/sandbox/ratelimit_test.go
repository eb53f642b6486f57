package sandbox

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestLimiterDropsRefilledBuckets checks that a limiter keyed by remote addresses does not
// grow without end: once it holds maxBuckets, the buckets refilled to the full burst go, and
// those still draining stay.
func TestLimiterDropsRefilledBuckets(t *testing.T) {
	clock := NewManualClock(testStart)
	l := newLimiter(RateLimit{Requests: 1, Period: time.Minute, Burst: 2}, clock)
	for i := range maxBuckets - 1 {
		l.allow(fmt.Sprintf("addr:%d", i))
	}
	l.allow("drained")
	l.allow("drained")
	clock.Advance(time.Minute) // every bucket but "drained" is full again
	l.allow("newcomer")
	if n := len(l.buckets); n != 2 {
		t.Fatalf("%d buckets after pruning, want 2 (drained, newcomer)", n)
	}
	if blocked, _ := l.blocked("drained"); blocked {
		t.Fatal("drained refilled one token in a minute, but is blocked")
	}
	l.allow("drained")
	if blocked, wait := l.blocked("drained"); !blocked || wait != time.Minute {
		t.Fatalf("drained after its token: blocked %v, wait %v", blocked, wait)
	}
}

func TestRateLimitDefaults(t *testing.T) {
	if got := (RateLimit{}).withDefaults(); got != (RateLimit{Requests: 50, Period: time.Second, Burst: 100}) {
		t.Fatalf("transaction defaults %+v", got)
	}
	if got := (RateLimit{Burst: 3}).withLoginDefaults(); got != (RateLimit{Requests: 5, Period: time.Minute, Burst: 3}) {
		t.Fatalf("login defaults %+v", got)
	}
}

func TestParseRateLimit(t *testing.T) {
	for in, want := range map[string]RateLimit{
		"":                 {Requests: 50, Period: time.Second, Burst: 100},
		"50/s":             {Requests: 50, Period: time.Second, Burst: 100},
		"1000/s":           {Requests: 1000, Period: time.Second, Burst: 2000},
		" 3000/m ":         {Requests: 3000, Period: time.Minute, Burst: 6000},
		"10/h":             {Requests: 10, Period: time.Hour, Burst: 20},
		"5/250ms":          {Requests: 5, Period: 250 * time.Millisecond, Burst: 10},
		"50/s burst 200":   {Requests: 50, Period: time.Second, Burst: 200},
		"off":              {Off: true},
		"OFF":              {Off: true},
		"1/second burst 1": {Requests: 1, Period: time.Second, Burst: 1},
	} {
		got, err := ParseRateLimit(in)
		if err != nil || got != want {
			t.Errorf("ParseRateLimit(%q) = %+v, %v; want %+v", in, got, err, want)
			continue
		}
		// String writes what ParseRateLimit reads back.
		if back, err := ParseRateLimit(got.String()); err != nil || back != got {
			t.Errorf("%q: String %q reads back as %+v, %v", in, got.String(), back, err)
		}
	}
	for _, in := range []string{"50", "fast", "0/s", "-5/s", "50/fortnight", "50/0s", "50/s burst 0", "50/s burst x", "1e3/s", "50/s/s"} {
		if _, err := ParseRateLimit(in); err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("ParseRateLimit(%q): %v, want a one-line error", in, err)
		}
	}
}

// TestRateLimitOff: with the limit off, POST /transaction is never answered 429, whatever the
// other fields say.
func TestRateLimitOff(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.RateLimit = RateLimit{Off: true, Requests: 1, Burst: 1} })
	tok := e.token()
	for i := range 4 {
		e.createTx(tok, fmt.Sprintf("no-limit-%04d", i), 100)
	}
}
