// Package health knows whether the gateway works, from every call made to it: a Monitor
// wraps the gateway client's HTTP transport (Transport), classifies each answer — or its
// absence — and keeps the gateway's state with its cause; when no call has been made for a
// while, Run makes a light one (a probe) so that the state never grows stale. The program
// starts with Check: a token and one harmless read, with bounded retries, each failure named
// so that an operator knows what to fix.
//
// Which answers say the gateway fails, and why:
//   - no answer (connection refused, DNS, TLS, reset): CauseUnreachable, naming the address;
//   - no answer in time: CauseTimeout;
//   - 401 from the token endpoint: CauseCredentials (a 401 of an API call is an expired token,
//     which the client renews by itself: it says nothing about the gateway);
//   - 403: CauseForbidden, the credentials lack a permission;
//   - 404 from the token endpoint or a list: CauseNotFound, the base URL's path prefix is
//     wrong (a 404 of GET /deposit/{id} is an answer about that deposit);
//   - 500 and above: CauseServerError.
//
// Every other answer, 429 included (the gateway answers, only slower), says it works.
package health

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// Cause is why the gateway fails, as a stable word (the /readyz body, logs, metrics' labels).
type Cause string

// The causes; CauseNone while the gateway works.
const (
	CauseNone        Cause = ""
	CauseUnreachable Cause = "unreachable"
	CauseTimeout     Cause = "timeout"
	CauseCredentials Cause = "credentials"
	CauseForbidden   Cause = "forbidden"
	CauseNotFound    Cause = "not_found"
	CauseServerError Cause = "server_error"
)

// State is what the Monitor knows of the gateway.
type State struct {
	OK    bool
	Cause Cause // why it fails; CauseNone when OK
	// Detail says what was seen, for an operator: "POST /auth/token answered 401",
	// "dial tcp 10.0.0.1:443: connection refused". Never a secret: no query, no body.
	Detail string
	Since  time.Time // when the state began (OK or failing)
	Seen   time.Time // the last call that told something, zero before any
}

// Call is one HTTP exchange with the gateway, as the Monitor saw it (for metrics).
type Call struct {
	Operation string        // a stable name of the endpoint: see Operation
	Status    int           // the answer's status, 0 without an answer
	Duration  time.Duration // from sending to the answer's headers
	Cause     Cause         // why this call says the gateway fails; CauseNone otherwise
	Err       error         // the transport's error, nil with an answer
}

// Options tune a Monitor.
type Options struct {
	// OnChange, when set, is called (outside the Monitor's lock, in order) each time the state
	// turns from working to failing, back, or to another cause.
	OnChange func(State)
	// OnCall, when set, is called after each exchange (metrics).
	OnCall func(Call)
	// Clock is the time (default time.Now).
	Clock func() time.Time
}

// Monitor keeps the gateway's state. Make it with New; its zero value is not usable.
type Monitor struct {
	base  *url.URL
	opts  Options
	mu    sync.Mutex
	state State
	// workedAt is when a call last told that the gateway works: a call sent before then that
	// fails afterwards (one left hanging by an outage, timing out after the gateway came
	// back) tells nothing new, and must not turn the state back to failing.
	workedAt time.Time
	failing  chan struct{} // closed while the gateway fails; a new one each time it works again
	changeMu sync.Mutex    // keeps OnChange calls in order
}

// New returns a Monitor of the gateway at baseURL (the client's base URL, path prefix
// included). It starts working: nothing is known against it yet.
func New(baseURL string, opts Options) (*Monitor, error) {
	u, err := url.Parse(baseURL)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("health: base URL %q: must be absolute", baseURL)
	}
	if opts.Clock == nil {
		opts.Clock = time.Now
	}
	m := &Monitor{base: u, opts: opts, failing: make(chan struct{})}
	m.state = State{OK: true, Since: opts.Clock()}
	return m, nil
}

// State returns the gateway's state.
func (m *Monitor) State() State {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.state
}

// Failing returns a channel closed when the gateway fails: at once while it fails now, else
// when it next turns failing. Work that calls the gateway in the background (the reconciler)
// stops on it instead of waiting out the timeouts of a gateway known to be down.
func (m *Monitor) Failing() <-chan struct{} {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.failing
}

// Transport returns next (nil: http.DefaultTransport) observed by the Monitor: give it to the
// gateway client (gatewayclient.WithHTTPClient) so that every call tells the state.
func (m *Monitor) Transport(next http.RoundTripper) http.RoundTripper {
	if next == nil {
		next = http.DefaultTransport
	}
	return roundTripper{m: m, next: next}
}

type roundTripper struct {
	m    *Monitor
	next http.RoundTripper
}

func (t roundTripper) RoundTrip(r *http.Request) (*http.Response, error) {
	start := t.m.opts.Clock()
	res, err := t.next.RoundTrip(r)
	c := Call{Operation: t.m.Operation(r.Method, r.URL.Path), Duration: t.m.opts.Clock().Sub(start), Err: err}
	var detail string
	switch {
	case err != nil && errors.Is(r.Context().Err(), context.Canceled):
		// The caller gave up (a shopper left, a shutdown): nothing learnt of the gateway.
		t.m.observe(c, false, "", start)
		return res, err
	case err != nil:
		c.Cause, detail = transportCause(r, err)
	default:
		c.Status = res.StatusCode
		c.Cause = t.m.statusCause(c.Operation, res.StatusCode)
		if c.Cause != CauseNone {
			detail = fmt.Sprintf("%s %s answered %d %s", r.Method, r.URL.Path, res.StatusCode, http.StatusText(res.StatusCode))
		}
	}
	neutral := err == nil && c.Cause == CauseNone && !t.m.telling(c.Operation, res.StatusCode)
	t.m.observe(c, !neutral, detail, start)
	return res, err
}

// transportCause tells why no answer came: a timeout, or an unreachable address (named).
func transportCause(r *http.Request, err error) (Cause, string) {
	var ne net.Error
	if errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()) {
		return CauseTimeout, fmt.Sprintf("%s %s: no answer in time from %s", r.Method, r.URL.Path, hostPort(r.URL))
	}
	var oe *net.OpError
	if errors.As(err, &oe) {
		// "dial tcp 127.0.0.1:1: connect: connection refused" names the address tried.
		return CauseUnreachable, fmt.Sprintf("%s %s: %s: %v", r.Method, r.URL.Path, hostPort(r.URL), oe)
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err // without the URL, which may carry a query
	}
	return CauseUnreachable, fmt.Sprintf("%s %s: %s: %v", r.Method, r.URL.Path, hostPort(r.URL), err)
}

// hostPort is the address a URL is reached at, with its default port.
func hostPort(u *url.URL) string {
	if u.Port() != "" {
		return u.Host
	}
	port := "80"
	if u.Scheme == "https" {
		port = "443"
	}
	return net.JoinHostPort(u.Hostname(), port)
}

// Operation names an exchange by its endpoint, without ids: "token", "create_transaction",
// "get_deposit", "list_deposits", "list_withdrawals", or "other".
func (m *Monitor) Operation(method, path string) string {
	p := strings.TrimPrefix(path, strings.TrimRight(m.base.Path, "/"))
	switch {
	case method == http.MethodPost && p == "/auth/token":
		return OpToken
	case method == http.MethodPost && p == "/transaction":
		return OpCreateTransaction
	case method == http.MethodGet && (p == "/deposit" || p == "/deposit/"):
		return OpListDeposits
	case method == http.MethodGet && strings.HasPrefix(p, "/deposit/"):
		return OpGetDeposit
	case method == http.MethodGet && (p == "/withdrawal" || p == "/withdrawal/"):
		return OpListWithdrawals
	}
	return OpOther
}

// The operations Operation names.
const (
	OpToken             = "token"
	OpCreateTransaction = "create_transaction"
	OpGetDeposit        = "get_deposit"
	OpListDeposits      = "list_deposits"
	OpListWithdrawals   = "list_withdrawals"
	OpOther             = "other"
)

// Operations are every operation Operation names, for a metric to start each at zero.
func Operations() []string {
	return []string{OpToken, OpCreateTransaction, OpGetDeposit, OpListDeposits, OpListWithdrawals, OpOther}
}

// statusCause is what an answer's status says of the gateway.
func (m *Monitor) statusCause(op string, status int) Cause {
	switch {
	case status >= 500:
		return CauseServerError
	case status == http.StatusForbidden:
		return CauseForbidden
	case status == http.StatusUnauthorized && op == OpToken:
		return CauseCredentials
	case status == http.StatusNotFound && (op == OpToken || op == OpListDeposits || op == OpListWithdrawals):
		return CauseNotFound
	}
	return CauseNone
}

// telling reports whether a working answer says the gateway works: not a 401 of an API call
// (a token to renew) nor a 404 of one record, which an unreachable path prefix gives too.
func (m *Monitor) telling(op string, status int) bool {
	if status == http.StatusUnauthorized && op != OpToken {
		return false
	}
	if status == http.StatusNotFound && op != OpToken {
		return false
	}
	return true
}

// observe records one exchange sent at start: when telling, the state follows it, unless it
// is a failure of a call sent before the gateway was last seen working.
func (m *Monitor) observe(c Call, telling bool, detail string, start time.Time) {
	if m.opts.OnCall != nil {
		m.opts.OnCall(c)
	}
	if !telling {
		return
	}
	now := m.opts.Clock()
	m.changeMu.Lock()
	defer m.changeMu.Unlock()
	m.mu.Lock()
	if c.Cause != CauseNone && start.Before(m.workedAt) {
		m.mu.Unlock()
		return
	}
	if c.Cause == CauseNone {
		m.workedAt = now
	}
	prev := m.state
	next := State{OK: c.Cause == CauseNone, Cause: c.Cause, Detail: detail, Since: prev.Since, Seen: now}
	changed := next.OK != prev.OK || next.Cause != prev.Cause
	if changed {
		next.Since = now
	}
	switch {
	case prev.OK && !next.OK:
		close(m.failing)
	case !prev.OK && next.OK:
		m.failing = make(chan struct{})
	}
	m.state = next
	m.mu.Unlock()
	if changed && m.opts.OnChange != nil {
		m.opts.OnChange(next)
	}
}

// Run probes the gateway with probe whenever no call has told the state for every (at most
// every that often), until ctx ends. probe's error is not needed: its exchanges go through
// the Transport like any other call. Each probe gets a deadline of timeout: past it the
// gateway does not answer in time.
func (m *Monitor) Run(ctx context.Context, every, timeout time.Duration, probe func(ctx context.Context) error) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if seen := m.State().Seen; !seen.IsZero() && m.opts.Clock().Sub(seen) < every {
			continue // a call told the state meanwhile
		}
		pctx, cancel := context.WithTimeout(ctx, timeout)
		_ = probe(pctx)
		cancel()
	}
}

// Words says a cause in a few words of English, for logs and the start-up line.
func (c Cause) Words() string {
	switch c {
	case CauseNone:
		return "working"
	case CauseUnreachable:
		return "the gateway cannot be reached"
	case CauseTimeout:
		return "the gateway does not answer in time"
	case CauseCredentials:
		return "the gateway refuses the client id and secret"
	case CauseForbidden:
		return "the credentials lack a permission"
	case CauseNotFound:
		return "the gateway URL's path prefix is wrong (404)"
	case CauseServerError:
		return "the gateway answers with server errors"
	}
	return string(c)
}
