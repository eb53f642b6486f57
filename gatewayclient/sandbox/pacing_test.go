package sandbox

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	gc "github.com/pixcheckout/pixcheckout/gatewayclient"
)

// TestClientPacingAgainstTheRateLimit sends 20 transactions at once to a sandbox that accepts
// 2 a second (burst 2: far below what it can serve, even under the race detector), through
// the real client, twice: paced (the default) and not. Paced, every call succeeds and the
// gateway sees 429s only for the first wave, sent before any 429 was known; unpaced, the
// callers come back together after each Retry-After and hit the wall again, so more than
// twice as many 429s reach the gateway and some calls give up. Each run is a synctest
// bubble, the client reaching the sandbox's handler in process: the seconds of Retry-After
// and of refilling pass on the bubble's clock when every caller waits, at no real cost.
func TestClientPacingAgainstTheRateLimit(t *testing.T) {
	t.Parallel()
	const calls = 20
	run := func(pacing bool) (limited int64, failed int) {
		synctest.Test(t, func(t *testing.T) {
			sb, err := New(context.Background(), Options{DataDir: t.TempDir(),
				Clients: []ClientConfig{{ID: testClientID, Secret: testSecret}}, RateLimit: RateLimit{Requests: 2, Burst: 2}})
			if err != nil {
				t.Fatal(err)
			}
			defer sb.Close()
			var n429 atomic.Int64
			sandbox := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				rec := &statusRecorder{ResponseWriter: w}
				sb.ServeHTTP(rec, r)
				if rec.status == http.StatusTooManyRequests {
					n429.Add(1)
				}
			})
			c, err := gc.New("http://sandbox.test", testClientID, testSecret, gc.WithPacing(pacing),
				gc.WithHTTPClient(&http.Client{Transport: inProcess{sandbox}}))
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
					if _, err := c.CreateTransaction(ctx, txRequest(fmt.Sprintf("paced-%v-%04d", pacing, i), 1000)); err != nil {
						mu.Lock()
						failed++
						mu.Unlock()
						if pacing {
							// Rare and not reproduced: say why the call failed, at what point of the bubble's clock.
							t.Logf("paced call %d failed at %s: %v", i, time.Now().Format("15:04:05.000"), err)
						}
					}
				})
			}
			wg.Wait()
			limited = n429.Load()
		})
		return limited, failed
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

// inProcess is an http.RoundTripper that serves each request with a handler in the caller's
// goroutine, as a synctest bubble needs (a goroutine waiting on a socket would hold its clock).
type inProcess struct{ h http.Handler }

func (p inProcess) RoundTrip(r *http.Request) (*http.Response, error) {
	rec := httptest.NewRecorder()
	p.h.ServeHTTP(rec, r)
	res := rec.Result()
	res.Request = r
	return res, nil
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
