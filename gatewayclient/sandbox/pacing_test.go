package sandbox

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	gc "github.com/pixcheckout/pixcheckout/gatewayclient"
)

// TestClientPacingAgainstTheRateLimit sends 20 transactions at once to a sandbox that accepts
// 2 a second (burst 2: far below what it can serve, even under the race detector), through
// the real client, twice: paced (the default) and not. Paced,
// every call succeeds and the gateway sees 429s only for the first wave, sent before any 429
// was known; unpaced, the callers come back together after each Retry-After and hit the wall
// again, so more than twice as many 429s reach the gateway and some calls give up. The
// sandbox and the client share a simulated clock, so the seconds of Retry-After and of
// refilling cost no real time.
func TestClientPacingAgainstTheRateLimit(t *testing.T) {
	const calls = 20
	run := func(pacing bool) (limited int64, failed int) {
		clock := newSimClock(time.Now(), calls)
		e := newEnv(t, func(o *Options) {
			o.Clock = clock // the limit refills on the callers' time
			o.RateLimit = RateLimit{Requests: 2, Burst: 2}
		})
		var n429 atomic.Int64
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			rec := &statusRecorder{ResponseWriter: w}
			e.sb.ServeHTTP(rec, r)
			if rec.status == http.StatusTooManyRequests {
				n429.Add(1)
			}
		}))
		defer srv.Close()
		c, err := gc.New(srv.URL, testClientID, testSecret, gc.WithPacing(pacing), gc.WithClock(clock))
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		if _, err := c.Token(ctx); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		var mu sync.Mutex
		for i := range calls {
			wg.Go(func() {
				defer clock.finished()
				if _, err := c.CreateTransaction(ctx, txRequest(fmt.Sprintf("paced-%v-%04d", pacing, i), 1000)); err != nil {
					mu.Lock()
					failed++
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		return n429.Load(), failed
	}
	paced429, pacedFailed := run(true)
	unpaced429, unpacedFailed := run(false)
	t.Logf("429s at the gateway: %d paced (%d calls failed), %d unpaced (%d calls failed)", paced429, pacedFailed, unpaced429, unpacedFailed)
	if pacedFailed != 0 {
		t.Errorf("%d paced calls failed, want none", pacedFailed)
	}
	if paced429 > calls || 2*paced429 > unpaced429 {
		t.Errorf("paced: %d 429s reached the gateway, unpaced %d: want at most the first wave (%d), and less than half",
			paced429, unpaced429, calls)
	}
}

// statusRecorder remembers the status a handler wrote.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (r *statusRecorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *statusRecorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	return r.ResponseWriter.Write(b)
}

// simClock is simulated time for a known number of goroutines (actors): it moves only when
// every actor still running is asleep on it, and then straight to the earliest wake-up. What
// an actor does between two sleeps (an HTTP round trip) takes no simulated time, and no real
// time is spent waiting.
type simClock struct {
	mu       sync.Mutex
	now      time.Time
	actors   int // actors not finished
	sleepers []*sleeper
}

type sleeper struct {
	at   time.Time
	wake chan struct{}
}

func newSimClock(start time.Time, actors int) *simClock {
	return &simClock{now: start, actors: actors}
}

func (c *simClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Sleep waits until the simulated time has moved d forward.
func (c *simClock) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	c.mu.Lock()
	s := &sleeper{at: c.now.Add(d), wake: make(chan struct{})}
	c.sleepers = append(c.sleepers, s)
	c.advance()
	c.mu.Unlock()
	select {
	case <-s.wake:
		return nil
	case <-ctx.Done():
		c.mu.Lock()
		for i, o := range c.sleepers {
			if o == s {
				c.sleepers = append(c.sleepers[:i], c.sleepers[i+1:]...)
				break
			}
		}
		c.mu.Unlock()
		return ctx.Err()
	}
}

// finished tells that an actor is done: it no longer holds the time back.
func (c *simClock) finished() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.actors--
	c.advance()
}

// advance moves the time to the earliest wake-up once every running actor sleeps, and wakes
// the sleepers due. c.mu is held.
func (c *simClock) advance() {
	if len(c.sleepers) == 0 || len(c.sleepers) < c.actors {
		return
	}
	next := c.sleepers[0].at
	for _, s := range c.sleepers[1:] {
		if s.at.Before(next) {
			next = s.at
		}
	}
	if next.After(c.now) {
		c.now = next
	}
	due := c.sleepers[:0]
	for _, s := range c.sleepers {
		if s.at.After(c.now) {
			due = append(due, s)
			continue
		}
		close(s.wake)
	}
	c.sleepers = due
}
