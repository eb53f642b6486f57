package sandbox

import (
	"fmt"
	"testing"
	"time"
)

func TestRateLimitDefaults(t *testing.T) {
	t.Parallel()
	if got := withDefaults(RateLimit{}); got != (RateLimit{Requests: 50, Period: time.Second, Burst: 100}) {
		t.Fatalf("transaction defaults %+v", got)
	}
	if got := withLoginDefaults(RateLimit{Burst: 3}); got != (RateLimit{Requests: 5, Period: time.Minute, Burst: 3}) {
		t.Fatalf("login defaults %+v", got)
	}
}

// TestRateLimitOff: with the limit off, POST /transaction is never answered 429, whatever the
// other fields say.
func TestRateLimitOff(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *Options) { o.RateLimit = RateLimit{Off: true, Requests: 1, Burst: 1} })
	tok := e.token()
	for i := range 4 {
		e.createTx(tok, fmt.Sprintf("no-limit-%04d", i), 100)
	}
}
