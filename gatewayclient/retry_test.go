package gatewayclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// answers returns a handler that gives the i-th answer to the i-th request (the last one
// repeats), and records each request's body.
type answers struct {
	mu     sync.Mutex
	list   []func(w http.ResponseWriter)
	n      int
	bodies []string
}

func (a *answers) handler(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	a.mu.Lock()
	i := min(a.n, len(a.list)-1)
	a.n++
	a.bodies = append(a.bodies, string(body))
	f := a.list[i]
	a.mu.Unlock()
	f(w)
}

func status(code int, headers ...string) func(w http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		for i := 0; i+1 < len(headers); i += 2 {
			w.Header().Set(headers[i], headers[i+1])
		}
		writeJSON(w, code, fmt.Sprintf(`{"statusCode":%d,"message":"answer"}`, code))
	}
}

func ok(body string) func(w http.ResponseWriter) {
	return func(w http.ResponseWriter) { writeJSON(w, 200, body) }
}

func TestRetryAfterSecondsIsHonoured(t *testing.T) {
	a := &answers{list: []func(http.ResponseWriter){status(429, "Retry-After", "2"), ok(transactionJSON)}}
	g := newTestGateway(t, a.handler)
	clock := newFakeClock()
	c := g.client(WithClock(clock))
	tx, err := c.CreateTransaction(context.Background(), fullRequest())
	if err != nil {
		t.Fatal(err)
	}
	if tx.ID != testDepositID {
		t.Errorf("ID = %q", tx.ID)
	}
	if got := clock.Sleeps(); !slices.Equal(got, []time.Duration{2 * time.Second}) {
		t.Errorf("waits = %v, want [2s]", got)
	}
	// The retry carries the very same body, hence the same idempotencyKey.
	if len(a.bodies) != 2 || a.bodies[0] != a.bodies[1] {
		t.Fatalf("bodies = %q", a.bodies)
	}
	var sent map[string]any
	if err := json.Unmarshal([]byte(a.bodies[1]), &sent); err != nil || sent["idempotencyKey"] != "idem-key-0001" {
		t.Errorf("retried body = %s", a.bodies[1])
	}
}

func TestRetryAfterHTTPDateIsHonoured(t *testing.T) {
	clock := newFakeClock()
	when := clock.Now().Add(3 * time.Second).Format(http.TimeFormat)
	a := &answers{list: []func(http.ResponseWriter){status(429, "Retry-After", when), ok(transactionJSON)}}
	g := newTestGateway(t, a.handler)
	c := g.client(WithClock(clock))
	if _, err := c.CreateTransaction(context.Background(), fullRequest()); err != nil {
		t.Fatal(err)
	}
	if got := clock.Sleeps(); !slices.Equal(got, []time.Duration{3 * time.Second}) {
		t.Errorf("waits = %v, want [3s]", got)
	}
}

func TestRetryAfterBeyondMaxDelayIsReturned(t *testing.T) {
	a := &answers{list: []func(http.ResponseWriter){status(429, "Retry-After", "60")}}
	g := newTestGateway(t, a.handler)
	clock := newFakeClock()
	c := g.client(WithClock(clock))
	_, err := c.CreateTransaction(context.Background(), fullRequest())
	var e *APIError
	if !errors.As(err, &e) || !errors.Is(err, ErrRateLimited) || e.RetryAfter != time.Minute {
		t.Fatalf("err = %v; want a 429 with RetryAfter 1m", err)
	}
	if g.apiRequests.Load() != 1 || len(clock.Sleeps()) != 0 {
		t.Errorf("requests = %d, waits = %v; want 1 and none", g.apiRequests.Load(), clock.Sleeps())
	}
}

func TestServerErrorsThenSuccess(t *testing.T) {
	a := &answers{list: []func(http.ResponseWriter){status(503), status(502), status(504), ok(`{"id":"` + testDepositID + `"}`)}}
	g := newTestGateway(t, a.handler)
	clock := newFakeClock()
	c := g.client(WithClock(clock), WithRetryPolicy(RetryPolicy{MaxAttempts: 4, BaseDelay: 100 * time.Millisecond,
		MaxDelay: 300 * time.Millisecond, Jitter: func(max time.Duration) time.Duration { return max }}))
	if _, err := c.GetDeposit(context.Background(), testDepositID); err != nil {
		t.Fatal(err)
	}
	// Caps double from BaseDelay and stop at MaxDelay.
	want := []time.Duration{100 * time.Millisecond, 200 * time.Millisecond, 300 * time.Millisecond}
	if got := clock.Sleeps(); !slices.Equal(got, want) {
		t.Errorf("waits = %v, want %v", got, want)
	}
	if n := g.apiRequests.Load(); n != 4 {
		t.Errorf("requests = %d, want 4", n)
	}
}

func TestRetriesGiveUpAfterMaxAttempts(t *testing.T) {
	a := &answers{list: []func(http.ResponseWriter){status(503)}}
	g := newTestGateway(t, a.handler)
	c := g.client(WithRetryPolicy(RetryPolicy{MaxAttempts: 3}))
	_, err := c.GetDeposit(context.Background(), testDepositID)
	if !errors.Is(err, ErrGatewayUnavailable) {
		t.Fatalf("err = %v", err)
	}
	if n := g.apiRequests.Load(); n != 3 {
		t.Errorf("requests = %d, want 3", n)
	}
	// MaxAttempts 1 disables retries.
	g.apiRequests.Store(0)
	c = g.client(WithRetryPolicy(RetryPolicy{MaxAttempts: 1}))
	_, _ = c.GetDeposit(context.Background(), testDepositID)
	if n := g.apiRequests.Load(); n != 1 {
		t.Errorf("requests with MaxAttempts 1 = %d, want 1", n)
	}
}

func TestJitterStaysUnderTheCap(t *testing.T) {
	g := newTestGateway(t, nil)
	c, err := New(g.srv.URL, testClientID, testClientSecret,
		WithRetryPolicy(RetryPolicy{BaseDelay: time.Second, MaxDelay: 4 * time.Second}))
	if err != nil {
		t.Fatal(err)
	}
	caps := map[int]time.Duration{1: time.Second, 2: 2 * time.Second, 3: 4 * time.Second, 4: 4 * time.Second, 80: 4 * time.Second}
	seen := map[time.Duration]bool{}
	for attempt, limit := range caps {
		for range 200 {
			d := c.backoff(attempt)
			if d < 0 || d > limit {
				t.Fatalf("backoff(%d) = %v, outside [0, %v]", attempt, d, limit)
			}
			seen[d] = true
		}
	}
	if len(seen) < 100 {
		t.Errorf("only %d distinct waits in 1000: not random", len(seen))
	}
}

func TestInternalErrorRetriedOnGetNotOnPost(t *testing.T) {
	a := &answers{list: []func(http.ResponseWriter){status(500), ok(`{"id":"` + testDepositID + `"}`)}}
	g := newTestGateway(t, a.handler)
	c := g.client()
	if _, err := c.GetDeposit(context.Background(), testDepositID); err != nil {
		t.Fatalf("GET: %v", err)
	}
	if n := g.apiRequests.Load(); n != 2 {
		t.Errorf("GET requests = %d, want 2", n)
	}

	a2 := &answers{list: []func(http.ResponseWriter){status(500), ok(transactionJSON)}}
	g2 := newTestGateway(t, a2.handler)
	_, err := g2.client().CreateTransaction(context.Background(), fullRequest())
	var e *APIError
	if !errors.As(err, &e) || e.StatusCode != 500 {
		t.Fatalf("POST err = %v; want the 500", err)
	}
	if n := g2.apiRequests.Load(); n != 1 {
		t.Errorf("POST requests = %d, want 1", n)
	}
}

func TestDoRetriesOnlyWhatIsSafe(t *testing.T) {
	a := &answers{list: []func(http.ResponseWriter){status(503), status(503), ok(`{"done":true}`)}}
	g := newTestGateway(t, a.handler)
	c := g.client()
	err := c.Do(context.Background(), http.MethodPost, "/sandbox/deposits/x/pay", map[string]string{"k": "v"}, nil)
	if !errors.Is(err, ErrGatewayUnavailable) || g.apiRequests.Load() != 1 {
		t.Fatalf("Do POST: err = %v, requests = %d; want the 503 after 1 request", err, g.apiRequests.Load())
	}
	var out struct{ Done bool }
	if err := c.DoIdempotent(context.Background(), http.MethodPost, "/sandbox/deposits/x/pay", map[string]string{"k": "v"}, &out); err != nil {
		t.Fatalf("DoIdempotent: %v", err)
	}
	if !out.Done || g.apiRequests.Load() != 3 {
		t.Errorf("DoIdempotent: out = %+v, requests = %d; want done after 3 in all", out, g.apiRequests.Load())
	}
}

// closeFirstConnections closes the connection of the first n requests at once, before any
// answer, and hands the others to next.
func closeFirstConnections(t *testing.T, n int32, next http.HandlerFunc) http.HandlerFunc {
	var count atomic.Int32
	return func(w http.ResponseWriter, r *http.Request) {
		if count.Add(1) <= n {
			conn, _, err := http.NewResponseController(w).Hijack()
			if err != nil {
				t.Errorf("hijack: %v", err)
				return
			}
			_ = conn.Close()
			return
		}
		next(w, r)
	}
}

func TestNetworkErrorsAreRetried(t *testing.T) {
	g := newTestGateway(t, closeFirstConnections(t, 2, func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, transactionJSON)
	}))
	c := g.client()
	if _, err := c.CreateTransaction(context.Background(), fullRequest()); err != nil {
		t.Fatal(err)
	}
	if n := g.apiRequests.Load(); n != 3 {
		t.Errorf("requests = %d, want 3", n)
	}

	g2 := newTestGateway(t, closeFirstConnections(t, 100, nil))
	_, err := g2.client(WithRetryPolicy(RetryPolicy{MaxAttempts: 2})).GetDeposit(context.Background(), testDepositID)
	if !errors.Is(err, ErrGatewayUnavailable) {
		t.Errorf("err = %v; want ErrGatewayUnavailable", err)
	}
}

func TestUnreachableGateway(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close() // nothing listens there any more: connections are refused
	c, err := New("http://"+addr, testClientID, testClientSecret, WithClock(newFakeClock()))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.GetDeposit(context.Background(), testDepositID)
	if !errors.Is(err, ErrGatewayUnavailable) {
		t.Fatalf("err = %v; want ErrGatewayUnavailable", err)
	}
	var opErr *net.OpError
	if !errors.As(err, &opErr) || !strings.HasPrefix(err.Error(), "gatewayclient: token request: ") {
		t.Errorf("err = %q; want the refused connection of the token request, wrapped", err)
	}
}

func TestPerAttemptTimeout(t *testing.T) {
	g := newTestGateway(t, func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done() // never answers; the client gives up
	})
	c := g.client(WithTimeout(200*time.Millisecond), WithRetryPolicy(RetryPolicy{MaxAttempts: 2}))
	// The token first, so that only the API calls meet the timeout (a busy machine may need
	// more than one try to get it within 200 ms).
	var err error
	for range 10 {
		if _, err = c.Token(context.Background()); err == nil {
			break
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.GetDeposit(context.Background(), testDepositID)
	if !errors.Is(err, ErrGatewayUnavailable) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v; want a timeout matching ErrGatewayUnavailable", err)
	}
	if n := g.apiRequests.Load(); n != 2 {
		t.Errorf("requests = %d, want 2 (each attempt has its own timeout)", n)
	}
}

func TestCancelledContextStopsAtOnce(t *testing.T) {
	g := newTestGateway(t, func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 503, `{}`) })
	c := g.client()

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := c.GetDeposit(ctx, testDepositID)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v; want context.Canceled", err)
	}
	if g.tokenRequests.Load() != 0 || g.apiRequests.Load() != 0 {
		t.Errorf("requests made with a cancelled context: %d token, %d API", g.tokenRequests.Load(), g.apiRequests.Load())
	}

	// Cancelled while the gateway answers a retryable failure: no further attempt.
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	g2 := newTestGateway(t, func(w http.ResponseWriter, r *http.Request) {
		cancel()
		writeJSON(w, 503, `{}`)
	})
	_, err = g2.client().GetDeposit(ctx, testDepositID)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v; want context.Canceled", err)
	}
	if n := g2.apiRequests.Load(); n != 1 {
		t.Errorf("requests = %d, want 1", n)
	}
}

func TestSystemClockSleepStopsOnCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- systemClock{}.Sleep(ctx, time.Hour) }()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Sleep = %v; want context.Canceled", err)
	}
	if err := (systemClock{}).Sleep(context.Background(), time.Millisecond); err != nil {
		t.Errorf("Sleep = %v", err)
	}
}

func TestDeadlineShorterThanWaitReturnsEarly(t *testing.T) {
	// A Retry-After longer than what is left of the deadline.
	a := &answers{list: []func(http.ResponseWriter){status(503, "Retry-After", "4")}}
	g := newTestGateway(t, a.handler)
	clock := newFakeClock()
	c := g.client(WithClock(clock), WithRetryPolicy(RetryPolicy{MaxDelay: time.Hour}))
	ctx2, cancel2 := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel2()
	_, err := c.GetDeposit(ctx2, testDepositID)
	var e *APIError
	if !errors.As(err, &e) || e.StatusCode != 503 {
		t.Fatalf("err = %v; want the 503 at once", err)
	}
	if g.apiRequests.Load() != 1 || len(clock.Sleeps()) != 0 {
		t.Errorf("requests = %d, waits = %v; want 1 and none", g.apiRequests.Load(), clock.Sleeps())
	}

	// A backoff longer than what is left of the deadline.
	b := &answers{list: []func(http.ResponseWriter){status(502)}}
	g2 := newTestGateway(t, b.handler)
	clock2 := newFakeClock()
	c2 := g2.client(WithClock(clock2), WithRetryPolicy(RetryPolicy{BaseDelay: 10 * time.Second, MaxDelay: 20 * time.Second,
		Jitter: func(max time.Duration) time.Duration { return max }}))
	ctx3, cancel3 := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel3()
	_, err = c2.GetDeposit(ctx3, testDepositID)
	if !errors.As(err, &e) || e.StatusCode != 502 {
		t.Fatalf("err = %v; want the 502 at once", err)
	}
	if g2.apiRequests.Load() != 1 || len(clock2.Sleeps()) != 0 {
		t.Errorf("requests = %d, waits = %v; want 1 and none", g2.apiRequests.Load(), clock2.Sleeps())
	}
}

// TestRetryAfterOnTheSystemClock checks the real wait: with "Retry-After: 2" the retry
// reaches the gateway no sooner than 2 seconds after the 429 was sent.
func TestRetryAfterOnTheSystemClock(t *testing.T) {
	var mu sync.Mutex
	var sentAt []time.Time
	a := &answers{list: []func(http.ResponseWriter){status(429, "Retry-After", "2"), ok(transactionJSON)}}
	g := newTestGateway(t, func(w http.ResponseWriter, r *http.Request) {
		a.handler(w, r)
		mu.Lock()
		sentAt = append(sentAt, time.Now()) // after the answer was written
		mu.Unlock()
	})
	c, err := New(g.srv.URL, testClientID, testClientSecret)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.CreateTransaction(context.Background(), fullRequest()); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(sentAt) != 2 {
		t.Fatalf("requests = %d, want 2", len(sentAt))
	}
	if d := sentAt[1].Sub(sentAt[0]); d < 2*time.Second {
		t.Errorf("retried %v after the 429; want at least 2s", d)
	}
}

// signalHandler is a slog.Handler that reports each record's message on a channel, so that
// a test learns when the client reached a given step (such as "gateway request retry").
type signalHandler struct{ msgs chan string }

func (h signalHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h signalHandler) Handle(_ context.Context, r slog.Record) error {
	select {
	case h.msgs <- r.Message:
	default: // nobody listens: drop
	}
	return nil
}
func (h signalHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h signalHandler) WithGroup(string) slog.Handler      { return h }

// TestCancelStopsWaitsAndRequests checks, on the system clock, that cancelling the context
// ends a call at once both while it waits to retry and while a request is in flight.
func TestCancelStopsWaitsAndRequests(t *testing.T) {
	// Far longer than any delay of a busy machine: a call that returns well before it was
	// stopped by the cancellation.
	const long = 30 * time.Second
	for _, tc := range []struct {
		name   string
		answer func(w http.ResponseWriter, r *http.Request)
		step   string // the log message after which the test cancels
	}{
		{"waiting for Retry-After", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Retry-After", "30")
			writeJSON(w, 503, `{}`)
		}, "gateway request retry"},
		{"request in flight", func(w http.ResponseWriter, r *http.Request) {
			<-r.Context().Done() // never answers
		}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			arrived := make(chan struct{}, 10)
			g := newTestGateway(t, func(w http.ResponseWriter, r *http.Request) {
				arrived <- struct{}{}
				tc.answer(w, r)
			})
			logged := make(chan string, 100)
			c, err := New(g.srv.URL, testClientID, testClientSecret, WithTimeout(2*long),
				WithRetryPolicy(RetryPolicy{MaxDelay: 2 * long}), WithLogger(slog.New(signalHandler{logged})))
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			done := make(chan error, 1)
			start := time.Now()
			go func() {
				_, err := c.GetDeposit(ctx, testDepositID)
				done <- err
			}()
			<-arrived
			if tc.step != "" {
				for msg := range logged {
					if msg == tc.step {
						break
					}
				}
			}
			cancel()
			err = <-done
			if !errors.Is(err, context.Canceled) {
				t.Errorf("err = %v; want context.Canceled", err)
			}
			if d := time.Since(start); d >= long {
				t.Errorf("the call took %v after its cancellation", d)
			}
			if n := g.apiRequests.Load(); n != 1 {
				t.Errorf("requests = %d, want 1", n)
			}
		})
	}
}
