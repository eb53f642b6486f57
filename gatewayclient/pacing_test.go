package gatewayclient

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"
)

// TestPacerLearnsAndForgets drives one pacer on a fake timeline: the first 429 sets the rate
// to what the gateway accepted over the last second and holds calls until Retry-After;
// turns then come one interval apart, in order; a 429 to a call sent before that slow-down
// changes nothing, a later one halves the rate; successes raise it; a minute without a 429
// ends the pacing.
func TestPacerLearnsAndForgets(t *testing.T) {
	t0 := time.Date(2026, 3, 14, 12, 0, 0, 0, time.UTC)
	var p pacer
	for i := range 8 { // eight calls accepted in the last second
		p.succeeded(t0.Add(time.Duration(i) * 100 * time.Millisecond))
	}
	now := t0.Add(time.Second)
	if first, wait, ok, hold := p.reserve(now, time.Time{}); !ok || hold || wait != 0 || !first.at.Equal(now) {
		t.Fatalf("idle pacer: %+v %v %v", first, wait, ok)
	}
	p.limited(0, now, 2*time.Second)
	if p.rate != 8 {
		t.Fatalf("rate %v after the first 429, want 8 (the calls accepted over the last second)", p.rate)
	}
	// Calls accepted before the 429 but answered after it raise the first estimate.
	p.succeeded(now)
	p.succeeded(now)
	if p.rate != 10 {
		t.Fatalf("rate %v after two late answers, want 10", p.rate)
	}
	// During the hold no turn is taken: the caller waits for its end.
	if _, wait, ok, hold := p.reserve(now, time.Time{}); !ok || !hold || wait != 2*time.Second {
		t.Fatalf("during the hold: wait %v ok %v hold %v", wait, ok, hold)
	}
	p.rate = 8 // round numbers below
	var turns []time.Duration
	for range 4 {
		tn, _, _, _ := p.reserve(now.Add(2*time.Second), time.Time{})
		turns = append(turns, tn.at.Sub(now))
	}
	want := []time.Duration{2 * time.Second, 2125 * time.Millisecond, 2250 * time.Millisecond, 2375 * time.Millisecond}
	for i := range want {
		if turns[i] != want[i] {
			t.Fatalf("turns %v, want %v: one at Retry-After, then 1/8 s apart", turns, want)
		}
	}
	// Deadline before the next turn: nothing is taken.
	if _, wait, ok, _ := p.reserve(now.Add(2*time.Second), now.Add(2*time.Second+100*time.Millisecond)); ok || wait != 500*time.Millisecond {
		t.Fatalf("a turn past the deadline was taken (or the wait %v is wrong)", wait)
	}
	p.limited(0, now.Add(10*time.Millisecond), time.Second) // sent before the slow-down
	if p.rate != 8 {
		t.Fatalf("a 429 to an older call changed the rate to %v", p.rate)
	}
	p.limited(1, now.Add(3*time.Second), time.Second)
	if p.rate != 4 {
		t.Fatalf("rate %v after a second 429, want 4", p.rate)
	}
	for range 4 {
		p.succeeded(now.Add(4 * time.Second))
	}
	if p.rate <= 4 || p.rate > 5 {
		t.Fatalf("rate %v after four successes at 4/s, want about one more per second", p.rate)
	}
	if d := p.delay(now.Add(3*time.Second + pacingIdle + time.Second)); d != 0 || p.active {
		t.Fatalf("still pacing a minute after the last 429 (delay %v)", d)
	}
}

// TestPacedCallsWaitTheirTurn: after a 429 with Retry-After 2, the next call waits until the
// 2 s have passed before it is sent; a call whose deadline comes first fails at once with
// ErrPaced and sends nothing; PacingDelay says how long a call would wait; other endpoints
// are not held.
func TestPacedCallsWaitTheirTurn(t *testing.T) {
	a := &answers{list: []func(http.ResponseWriter){status(429, "Retry-After", "2"), status(429, "Retry-After", "2"),
		ok(transactionJSON)}}
	g := newTestGateway(t, a.handler)
	clock := newFakeClock()
	c := g.client(WithClock(clock), WithRetryPolicy(RetryPolicy{MaxAttempts: 1}))
	ctx := context.Background()
	if _, err := c.CreateTransaction(ctx, fullRequest()); !errors.Is(err, ErrRateLimited) {
		t.Fatalf("first call: %v, want the 429", err)
	}
	if d := c.PacingDelay("POST", "/transaction"); d != 2*time.Second {
		t.Fatalf("PacingDelay %v, want 2s", d)
	}
	if d := c.PacingDelay("GET", "/deposit/"+testDepositID); d != 0 {
		t.Fatalf("another endpoint is paced too: %v", d)
	}
	short, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
	defer cancel()
	sent := g.apiRequests.Load()
	_, err := c.CreateTransaction(short, fullRequest())
	var pe *PacedError
	if !errors.Is(err, ErrPaced) || !errors.As(err, &pe) || pe.Wait != 2*time.Second || errors.Is(err, ErrRateLimited) {
		t.Fatalf("call with a 500 ms deadline: %v, want a *PacedError of 2s", err)
	}
	if g.apiRequests.Load() != sent || len(clock.Sleeps()) != 0 {
		t.Fatalf("a paced call was sent (%d requests) or waited (%v)", g.apiRequests.Load()-sent, clock.Sleeps())
	}
	// Without a deadline the call waits its turn, then is sent (and gets the second 429).
	if _, err := c.CreateTransaction(ctx, fullRequest()); !errors.Is(err, ErrRateLimited) {
		t.Fatalf("second call: %v", err)
	}
	if got := clock.Sleeps(); len(got) != 1 || got[0] != 2*time.Second {
		t.Fatalf("waits %v, want [2s]", got)
	}
	// A retry after a 429 waits in the queue too, and a deadline that cuts it gives a
	// *PacedError wrapping that 429.
	c2 := g.client(WithClock(clock))
	// The deadline leaves the first request time to be answered on a loaded machine, and is
	// still shorter than the 2 s the retry would wait.
	short2, cancel2 := context.WithTimeout(ctx, time.Second)
	defer cancel2()
	a.mu.Lock()
	a.n = 0 // 429 again
	a.mu.Unlock()
	_, err = c2.CreateTransaction(short2, fullRequest())
	if !errors.Is(err, ErrPaced) || !errors.Is(err, ErrRateLimited) {
		t.Fatalf("retry held past the deadline: %v, want ErrPaced wrapping the 429", err)
	}
	// Pacing off: nothing waits.
	c3 := g.client(WithClock(clock), WithPacing(false), WithRetryPolicy(RetryPolicy{MaxAttempts: 1}))
	a.mu.Lock()
	a.n = 0
	a.mu.Unlock()
	c3.CreateTransaction(ctx, fullRequest())
	if d := c3.PacingDelay("POST", "/transaction"); d != 0 {
		t.Fatalf("pacing off, yet a delay of %v", d)
	}
}

// TestMaxPacingWait: a call under WithMaxPacingWait fails at once with ErrPaced when its turn
// is further away than the bound, sends nothing, and waits when it is within it; it has no
// deadline, so a call that is sent is not cut short.
func TestMaxPacingWait(t *testing.T) {
	a := &answers{list: []func(http.ResponseWriter){status(429, "Retry-After", "1"), ok(transactionJSON)}}
	g := newTestGateway(t, a.handler)
	clock := newFakeClock()
	c := g.client(WithClock(clock), WithRetryPolicy(RetryPolicy{MaxAttempts: 1}))
	ctx := context.Background()
	if _, err := c.CreateTransaction(ctx, fullRequest()); !errors.Is(err, ErrRateLimited) {
		t.Fatalf("first call: %v, want the 429", err)
	}
	sent := g.apiRequests.Load()
	_, err := c.CreateTransaction(WithMaxPacingWait(ctx, 250*time.Millisecond), fullRequest())
	var pe *PacedError
	if !errors.As(err, &pe) || pe.Wait != time.Second {
		t.Fatalf("bounded call: %v, want a *PacedError of 1s", err)
	}
	if g.apiRequests.Load() != sent || len(clock.Sleeps()) != 0 {
		t.Fatalf("a paced call was sent or waited")
	}
	if _, has := WithMaxPacingWait(ctx, time.Second).Deadline(); has {
		t.Fatal("WithMaxPacingWait set a deadline")
	}
	// Within the bound, the call waits its turn and is sent.
	if _, err := c.CreateTransaction(WithMaxPacingWait(ctx, 2*time.Second), fullRequest()); err != nil {
		t.Fatalf("call within the bound: %v", err)
	}
	if got := clock.Sleeps(); len(got) != 1 || got[0] != time.Second {
		t.Fatalf("waits %v, want [1s]", got)
	}
}
