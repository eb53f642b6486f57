package sandbox

import (
	"fmt"
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
