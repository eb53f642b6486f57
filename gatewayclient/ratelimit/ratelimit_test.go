package ratelimit

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestLimiterDropsRefilledBuckets checks that a limiter keyed by remote addresses does not
// grow without end: once it holds maxKeys, the buckets refilled to the full burst go, and
// those still draining stay.
func TestLimiterDropsRefilledBuckets(t *testing.T) {
	const maxKeys = 1000
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	l := NewLimiter(Rate{Requests: 1, Period: time.Minute, Burst: 2}, maxKeys)
	for i := range maxKeys - 1 {
		l.Allow(fmt.Sprintf("addr:%d", i), now)
	}
	l.Allow("drained", now)
	l.Allow("drained", now)
	now = now.Add(time.Minute) // every bucket but "drained" is full again
	l.Allow("newcomer", now)
	if n := len(l.buckets); n != 2 {
		t.Fatalf("%d buckets after pruning, want 2 (drained, newcomer)", n)
	}
	if blocked, _ := l.Blocked("drained", now); blocked {
		t.Fatal("drained refilled one token in a minute, but is blocked")
	}
	if ok, _ := l.Allow("drained", now); !ok {
		t.Fatal("drained refused its refilled token")
	}
	if ok, wait := l.Allow("drained", now); ok || wait != time.Minute {
		t.Fatalf("drained past its token: allowed %v, wait %v", ok, wait)
	}
	if blocked, wait := l.Blocked("drained", now); !blocked || wait != time.Minute {
		t.Fatalf("drained after its token: blocked %v, wait %v", blocked, wait)
	}
}

// TestParse reads both spellings the settings document ("60/min" for the checkout's own
// limits, "3000/m" for the sandbox's), and String writes what Parse reads back.
func TestParse(t *testing.T) {
	for in, want := range map[string]Rate{
		"":                 {},
		"50/s":             {Requests: 50, Period: time.Second, Burst: 100},
		"1000/s":           {Requests: 1000, Period: time.Second, Burst: 2000},
		" 3000/m ":         {Requests: 3000, Period: time.Minute, Burst: 6000},
		"120/min":          {Requests: 120, Period: time.Minute, Burst: 240},
		"10/h":             {Requests: 10, Period: time.Hour, Burst: 20},
		"5/250ms":          {Requests: 5, Period: 250 * time.Millisecond, Burst: 10},
		"50/s burst 200":   {Requests: 50, Period: time.Second, Burst: 200},
		"off":              {Off: true},
		" OFF ":            {Off: true},
		"1/second burst 1": {Requests: 1, Period: time.Second, Burst: 1},
	} {
		got, err := Parse(in)
		if err != nil || got != want {
			t.Errorf("Parse(%q) = %+v, %v; want %+v", in, got, err, want)
			continue
		}
		if back, err := Parse(got.String()); err != nil || back != got {
			t.Errorf("%q: String %q reads back as %+v, %v", in, got.String(), back, err)
		}
	}
	for _, in := range []string{"50", "fast", "0/s", "-5/s", "50/fortnight", "50/0s", "50/s burst 0", "50/s burst x", "1e3/s", "50/s/s"} {
		if _, err := Parse(in); err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("Parse(%q): %v, want a one-line error", in, err)
		}
	}
}
