package gatewayclient

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"
)

// Pacing. When the gateway answers 429, every caller of the client that was about to send to
// the same endpoint would hit the same wall, and, told to retry after N seconds, would all
// come back at once and hit it again. Instead the client paces its own calls to that
// endpoint: after a 429 with Retry-After N no call is sent before N has passed, and then
// calls are sent one at a time, in the order they asked, at a rate the client learns — at
// first the rate the gateway accepted just before it refused, halved at each later 429, and
// raised by about one call per second every second without one (additive increase,
// multiplicative decrease, as TCP does). A minute without a 429 ends the pacing.
//
// A call never waits for its turn past its context's deadline: it fails at once with an
// error matching ErrPaced (a *PacedError saying how long the wait would be), and sends
// nothing. A shopper-facing caller can give a short deadline and, on ErrPaced, say "the QR
// code is being generated" while a background call with a longer deadline waits its turn;
// PacingDelay tells beforehand how long a call would wait.

// ErrPaced matches the error of a call that did not wait for its turn because its context's
// deadline would pass first; nothing was sent. See PacedError.
var ErrPaced = errors.New("gatewayclient: paced after a 429")

// PacedError is the error of a call that the client's pacing would have held past its
// context's deadline. It matches ErrPaced, and ErrRateLimited too when it follows a 429
// answer to this very call (Last).
type PacedError struct {
	Method, Path string
	Wait         time.Duration // how long the call would have waited for its turn
	Last         error         // the 429 this call received before, if any
}

func (e *PacedError) Error() string {
	return fmt.Sprintf("gatewayclient: %s %s: rate limited by the gateway; its turn comes in %s, after the context's deadline",
		e.Method, e.Path, e.Wait.Round(time.Millisecond))
}

// Is matches ErrPaced.
func (e *PacedError) Is(target error) bool { return target == ErrPaced }

// Unwrap gives the 429 received before, if any.
func (e *PacedError) Unwrap() error { return e.Last }

// maxPacingWaitKey is the context key of WithMaxPacingWait.
type maxPacingWaitKey struct{}

// WithMaxPacingWait returns a context under which a call waits at most d for its turn while
// the client paces after a 429, and fails at once with ErrPaced when its turn comes later,
// as if its deadline were that close. Unlike a deadline, it bounds only the wait for the turn:
// the call, once sent, runs under ctx's own deadline and the client's timeout. A shopper's
// request uses it to answer at once ("the QR code is being generated") instead of holding the
// shopper for the whole Retry-After.
func WithMaxPacingWait(ctx context.Context, d time.Duration) context.Context {
	return context.WithValue(ctx, maxPacingWaitKey{}, d)
}

// WithPacing turns pacing after a 429 on (the default) or off. Off, every call is sent at
// once and a 429 is retried after its Retry-After as any failure is.
func WithPacing(on bool) Option { return func(c *Client) { c.pacing.off = !on } }

// PacingDelay returns how long a call to method and path started now would wait for its
// turn: 0 unless the gateway answered that endpoint 429 recently.
func (c *Client) PacingDelay(method, path string) time.Duration {
	p := c.pacing.get(method, path, false)
	if p == nil {
		return 0
	}
	return p.delay(c.clock.Now())
}

// Pacing constants.
const (
	pacingMinRate     = 0.5                // calls per second: never slower
	pacingIdle        = time.Minute        // without a 429 this long, pacing ends
	pacingDefaultWait = time.Second        // a 429 without Retry-After holds calls this long
	pacingWindow      = time.Second        // successes counted for the first estimate
	pacingMaxSeen     = 4096               // successes remembered for it
	pacingMaxEstimate = 1_000_000.0        // calls per second: an estimate is capped here
	pacingAnyPath     = "(other endpoint)" // the key of paths outside the API's endpoints
)

// pacers holds one pacer per endpoint (method and first path segment: "POST /transaction",
// "GET /deposit"), made at the first call.
type pacers struct {
	off bool
	mu  sync.Mutex
	m   map[string]*pacer
}

// endpointKey names the endpoint of a call.
func endpointKey(method, path string) string {
	seg := strings.TrimPrefix(path, "/")
	seg, _, _ = strings.Cut(seg, "/")
	switch seg {
	case "transaction", "deposit", "withdrawal":
		return strings.ToUpper(method) + " /" + seg
	}
	return strings.ToUpper(method) + " " + pacingAnyPath
}

// get returns the pacer of an endpoint, making it when create is true (nil otherwise).
func (ps *pacers) get(method, path string, create bool) *pacer {
	if ps.off {
		return nil
	}
	key := endpointKey(method, path)
	ps.mu.Lock()
	defer ps.mu.Unlock()
	p := ps.m[key]
	if p == nil && create {
		if ps.m == nil {
			ps.m = map[string]*pacer{}
		}
		p = &pacer{}
		ps.m[key] = p
	}
	return p
}

// pacer spaces the calls to one endpoint. Its zero value is an idle pacer.
type pacer struct {
	mu     sync.Mutex
	active bool
	until  time.Time // no call starts before
	next   time.Time // the next free turn
	rate   float64   // calls per second while active
	gen    uint64    // bumped at every slow-down; a 429 to a call of an older generation does not slow down again
	// estimating: between the first 429 and the end of its hold, the rate is raised to the
	// calls accepted over the last second as their answers come in.
	estimating bool
	lastSlow   time.Time // the last slow-down
	seen       []time.Time
	seenAt     int
}

// turn is a call's place in the queue.
type turn struct {
	at  time.Time
	gen uint64
}

// interval is the time between two turns. p.mu is held.
func (p *pacer) interval() time.Duration {
	return time.Duration(float64(time.Second) / p.rate)
}

// idle ends pacing after pacingIdle without a 429. p.mu is held.
func (p *pacer) expire(now time.Time) {
	if p.active && now.Sub(p.lastSlow) > pacingIdle && !now.Before(p.until) {
		p.active = false
	}
}

// delay is how long a call starting at now would wait.
func (p *pacer) delay(now time.Time) time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.expire(now)
	if !p.active {
		return 0
	}
	return max(p.until.Sub(now), p.next.Sub(now), 0)
}

// reserve takes the next turn at or after now, unless it comes later than latest (a zero
// latest: no limit); then it takes nothing and reports the wait. While calls are held
// (before Retry-After has passed) it takes no turn either but reports hold: the caller waits
// for the end of the hold, then asks again, so that turns are spaced at the rate known then
// (calls accepted just before the 429 may be answered after it).
func (p *pacer) reserve(now, latest time.Time) (t turn, wait time.Duration, ok, hold bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.expire(now)
	if !p.active {
		return turn{at: now, gen: p.gen}, 0, true, false
	}
	if now.Before(p.until) {
		if !latest.IsZero() && p.until.After(latest) {
			return turn{}, p.until.Sub(now), false, false
		}
		return turn{}, p.until.Sub(now), true, true
	}
	p.estimating = false
	at := now
	if at.Before(p.next) {
		at = p.next
	}
	if !latest.IsZero() && at.After(latest) {
		return turn{}, at.Sub(now), false, false
	}
	p.next = at.Add(p.interval())
	return turn{at: at, gen: p.gen}, at.Sub(now), true, false
}

// limited records a 429 to a call of generation gen at now, with its Retry-After (0 when
// absent): calls are held until it has passed, and the rate is set (or halved) once per
// generation.
func (p *pacer) limited(gen uint64, now time.Time, retryAfter time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if retryAfter <= 0 {
		retryAfter = pacingDefaultWait
	}
	if until := now.Add(retryAfter); until.After(p.until) {
		p.until = until
	}
	if gen != p.gen {
		return // sent before the last slow-down: it says nothing new about the rate
	}
	if !p.active {
		p.rate = max(p.acceptedRate(now), pacingMinRate)
		p.active, p.estimating = true, true
	} else {
		p.rate = max(p.rate/2, pacingMinRate)
	}
	p.gen++
	p.lastSlow = now
	p.next = p.until
}

// succeeded records a call the gateway accepted at now: it counts for the first estimate,
// and, while pacing, raises the rate by 1/rate, about one call per second every second.
func (p *pacer) succeeded(now time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.seen) < pacingMaxSeen {
		p.seen = append(p.seen, now)
	} else {
		p.seen[p.seenAt] = now
		p.seenAt = (p.seenAt + 1) % pacingMaxSeen
	}
	switch {
	case p.active && p.estimating && now.Before(p.until):
		p.rate = max(p.rate, p.acceptedRate(now))
	case p.active:
		p.estimating = false
		p.rate = min(p.rate+1/p.rate, pacingMaxEstimate)
	}
}

// acceptedRate is the calls per second the gateway accepted over the window before now.
// p.mu is held.
func (p *pacer) acceptedRate(now time.Time) float64 {
	n := 0
	for _, t := range p.seen {
		if d := now.Sub(t); d >= 0 && d <= pacingWindow {
			n++
		}
	}
	return min(float64(n)/pacingWindow.Seconds(), pacingMaxEstimate)
}

// waitTurn waits for r's turn at its endpoint, unless that would pass ctx's deadline: then
// it returns a *PacedError (with last, the 429 this call got before, if any).
func (c *Client) waitTurn(ctx context.Context, r *request, last error) (*pacer, turn, error) {
	p := c.pacing.get(r.method, r.path, true)
	if p == nil {
		return nil, turn{}, nil
	}
	var latest time.Time
	if deadline, ok := ctx.Deadline(); ok {
		// Deadlines are on the system clock; the wait is measured on the client's.
		latest = c.clock.Now().Add(time.Until(deadline))
	}
	if d, ok := ctx.Value(maxPacingWaitKey{}).(time.Duration); ok {
		if bound := c.clock.Now().Add(max(d, 0)); latest.IsZero() || bound.Before(latest) {
			latest = bound
		}
	}
	for {
		now := c.clock.Now()
		t, wait, ok, hold := p.reserve(now, latest)
		if !ok {
			return nil, turn{}, &PacedError{Method: r.method, Path: r.path, Wait: wait, Last: last}
		}
		if wait > 0 {
			c.logger.LogAttrs(ctx, slog.LevelDebug, "gateway request paced",
				slog.String("method", r.method), slog.String("path", r.path), slog.Duration("wait", wait))
			if err := c.clock.Sleep(ctx, wait); err != nil {
				return nil, turn{}, fmt.Errorf("gatewayclient: %s %s: %w", r.method, r.path, err)
			}
		}
		if !hold {
			return p, t, nil
		}
	}
}

// paced tells r's pacer how its attempt went.
func paced(p *pacer, t turn, now time.Time, err error) {
	if p == nil {
		return
	}
	var apiErr *APIError
	switch {
	case err == nil:
		p.succeeded(now)
	case errors.As(err, &apiErr) && apiErr.StatusCode == 429:
		p.limited(t.gen, now, apiErr.RetryAfter)
	}
}
