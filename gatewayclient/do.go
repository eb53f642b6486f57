package gatewayclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// maxResponseBody caps the body read from a successful answer.
const maxResponseBody = 10 << 20

// retryMode says which failures of an API call may be retried.
type retryMode int

const (
	retryNever      retryMode = iota // only failures of the token request before sending
	retryIdempotent                  // network, 429, 502, 503, 504
	retrySafe                        // the above and 500 (GET, HEAD)
)

// request is one API call, possibly sent several times.
type request struct {
	method string
	path   string     // below the base URL, without the query
	query  url.Values // nil: none
	body   []byte     // JSON; nil: no body
	out    any        // decoded from a successful answer; nil: discarded
	retry  retryMode
}

// Do sends an authenticated JSON request to {base}{path} and decodes a successful answer
// into out, with the token, 401, retry and error handling of the API methods. path starts
// with "/" and may carry a query ("/deposit?page=2"). body, unless nil, is sent as JSON; out,
// unless nil, receives the JSON answer (an empty answer leaves it untouched).
//
// Do is for endpoints the client has no method for, such as the sandbox's own controls.
// Failures are retried as RetryPolicy says for GET, HEAD, OPTIONS, PUT and DELETE; other
// methods (POST, PATCH) are never resent, since the client cannot know whether resending
// duplicates an effect, except after a 401 answer (the request was refused, so it is resent
// once with a fresh token) or a failed token request (nothing was sent). Use DoIdempotent for
// a POST that is safe to resend.
func (c *Client) Do(ctx context.Context, method, path string, body, out any) error {
	return c.doWith(ctx, method, path, body, out, false)
}

// DoIdempotent is Do for a request the caller knows is safe to send more than once (for
// example a POST carrying an idempotency key): its failures are retried as for a PUT.
func (c *Client) DoIdempotent(ctx context.Context, method, path string, body, out any) error {
	return c.doWith(ctx, method, path, body, out, true)
}

func (c *Client) doWith(ctx context.Context, method, path string, body, out any, idempotent bool) error {
	if !strings.HasPrefix(path, "/") {
		return fmt.Errorf("gatewayclient: path %q must start with /", path)
	}
	method = strings.ToUpper(method)
	r := &request{method: method, out: out}
	p, rawQuery, _ := strings.Cut(path, "?")
	r.path = p
	if rawQuery != "" {
		q, err := url.ParseQuery(rawQuery)
		if err != nil {
			return fmt.Errorf("gatewayclient: query of %q: %w", path, err)
		}
		r.query = q
	}
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return fmt.Errorf("gatewayclient: %s %s: encoding the body: %w", method, r.path, err)
		}
		r.body = b
	}
	switch {
	case method == http.MethodGet || method == http.MethodHead:
		r.retry = retrySafe
	case idempotent || method == http.MethodPut || method == http.MethodDelete || method == http.MethodOptions:
		r.retry = retryIdempotent
	default:
		r.retry = retryNever
	}
	return c.send(ctx, r)
}

// send performs r with retries. See RetryPolicy for what is retried, and pacing.go for how
// calls wait their turn after a 429.
func (c *Client) send(ctx context.Context, r *request) error {
	refreshed := false // a 401 drops the token and resends once
	var last429 error  // the 429 this call got, for a *PacedError
	for attempt := 1; ; attempt++ {
		p, t, err := c.waitTurn(ctx, r, last429)
		if err != nil {
			return err
		}
		used, err := c.attempt(ctx, r, attempt)
		paced(p, t, c.clock.Now(), err)
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return fmt.Errorf("gatewayclient: %s %s: %w", r.method, r.path, ctx.Err())
		}
		var apiErr *APIError
		status := 0
		if errors.As(err, &apiErr) {
			status = apiErr.StatusCode
		}
		if status == http.StatusUnauthorized && !refreshed {
			refreshed = true
			c.dropToken(used)
			attempt-- // the refused request does not count against the retries
			continue
		}
		if attempt >= c.retry.MaxAttempts || !c.retryable(err, r) {
			return err
		}
		wait, ok := c.retryWait(apiErr, attempt)
		if !ok {
			return err
		}
		if status == http.StatusTooManyRequests && p != nil {
			// The pacer holds the retry until its turn, after Retry-After (waitTurn).
			last429 = err
			continue
		}
		if err := c.pause(ctx, r, attempt, wait, err); err != nil {
			return err
		}
	}
}

// retryWait is the wait before the retry that follows attempt, whose answer was apiErr (nil
// when there was none): the backoff, or the gateway's Retry-After, never sooner. False when
// the gateway asks for more than MaxDelay.
func (c *Client) retryWait(apiErr *APIError, attempt int) (time.Duration, bool) {
	wait := c.backoff(attempt)
	if apiErr == nil || apiErr.RetryAfter <= 0 {
		return wait, true
	}
	return apiErr.RetryAfter, apiErr.RetryAfter <= c.retry.MaxDelay
}

// pause waits wait before the retry that follows attempt of r. It returns failed, the
// attempt's error, when the retry could not finish before ctx's deadline, and ctx's error when
// ctx ends during the wait.
func (c *Client) pause(ctx context.Context, r *request, attempt int, wait time.Duration, failed error) error {
	if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) < wait {
		return failed
	}
	c.logger.LogAttrs(ctx, slog.LevelDebug, "gateway request retry",
		slog.String("method", r.method), slog.String("path", r.path),
		slog.Int("attempt", attempt), slog.Duration("wait", wait))
	if err := c.clock.Sleep(ctx, wait); err != nil {
		return fmt.Errorf("gatewayclient: %s %s: %w", r.method, r.path, err)
	}
	return nil
}

// retryable tells whether err, the failure of one attempt of r, may be retried.
func (c *Client) retryable(err error, r *request) bool {
	var tokErr *TokenError
	if errors.As(err, &tokErr) {
		return errors.Is(tokErr, ErrAuthProviderUnavailable) // nothing was sent yet
	}
	var tErr *transportError
	if errors.As(err, &tErr) {
		if tErr.op == "token request" {
			return true // nothing was sent yet
		}
		return r.retry >= retryIdempotent
	}
	var apiErr *APIError
	if errors.As(err, &apiErr) {
		switch apiErr.StatusCode {
		case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
			return r.retry >= retryIdempotent
		case http.StatusInternalServerError:
			return r.retry >= retrySafe
		}
	}
	return false
}

// backoff is the wait before the retry that follows attempt: full jitter under a cap that
// doubles from BaseDelay up to MaxDelay.
func (c *Client) backoff(attempt int) time.Duration {
	limit := c.retry.MaxDelay
	if attempt-1 < 62 {
		if d := c.retry.BaseDelay << (attempt - 1); d > 0 && d < limit {
			limit = d
		}
	}
	if c.retry.Jitter != nil {
		return min(max(c.retry.Jitter(limit), 0), limit)
	}
	return c.rng.upTo(limit)
}

// attempt sends r once, with a token, and returns the token it used.
func (c *Client) attempt(ctx context.Context, r *request, n int) (secret, error) {
	tok, err := c.token(ctx)
	if err != nil {
		return "", err
	}
	actx := ctx
	if c.timeout > 0 {
		var cancel context.CancelFunc
		actx, cancel = context.WithTimeout(ctx, c.timeout)
		defer cancel()
	}
	req, err := c.newHTTPRequest(actx, r, tok)
	if err != nil {
		return tok, err
	}

	start := time.Now()
	resp, err := c.http.Do(req)
	if err != nil {
		c.logger.LogAttrs(ctx, slog.LevelDebug, "gateway request failed",
			slog.String("method", r.method), slog.String("path", r.path), slog.Int("attempt", n),
			slog.Duration("duration", time.Since(start)), slog.String("error", withoutURL(err).Error()))
		return tok, &transportError{op: r.method + " " + r.path, err: err}
	}
	defer resp.Body.Close()
	c.logger.LogAttrs(ctx, slog.LevelDebug, "gateway request",
		slog.String("method", r.method), slog.String("path", r.path), slog.Int("attempt", n),
		slog.Int("status", resp.StatusCode), slog.Duration("duration", time.Since(start)))

	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return tok, c.apiError(resp, r, tok)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBody+1))
	if err != nil {
		return tok, &transportError{op: r.method + " " + r.path, err: err}
	}
	if len(b) > maxResponseBody {
		return tok, fmt.Errorf("gatewayclient: %s %s: answer larger than %d bytes", r.method, r.path, maxResponseBody)
	}
	if r.out == nil || len(bytes.TrimSpace(b)) == 0 {
		return tok, nil
	}
	if err := json.Unmarshal(b, r.out); err != nil {
		return tok, fmt.Errorf("gatewayclient: %s %s: decoding the answer: %w", r.method, r.path, err)
	}
	return tok, nil
}

// newHTTPRequest is the HTTP request of r, authorised with tok.
func (c *Client) newHTTPRequest(ctx context.Context, r *request, tok secret) (*http.Request, error) {
	u := c.base + r.path
	if len(r.query) > 0 {
		u += "?" + r.query.Encode()
	}
	var body io.Reader
	if r.body != nil {
		body = bytes.NewReader(r.body)
	}
	req, err := http.NewRequestWithContext(ctx, r.method, u, body)
	if err != nil {
		return nil, fmt.Errorf("gatewayclient: %s %s: %w", r.method, r.path, err)
	}
	req.Header.Set("Authorization", "Bearer "+tok.reveal())
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.userAgent)
	if r.body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return req, nil
}

// apiError reads the gateway's answer resp to r, not a success, into an *APIError without tok.
func (c *Client) apiError(resp *http.Response, r *request, tok secret) *APIError {
	b, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody+1024)) // what arrived is enough
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxErrorBody))
	b = c.scrub(b, tok)
	eb := parseErrorBody(b)
	e := &APIError{StatusCode: resp.StatusCode, Title: eb.title, Messages: eb.messages,
		Body: capBody(b), Method: r.method, Path: r.path,
		RetryAfter: parseRetryAfter(resp.Header.Get("Retry-After"), c.clock.Now())}
	if e.StatusCode == http.StatusUnprocessableEntity {
		e.Kind = kindOf(eb.title)
	}
	return e
}

// withoutURL strips the URL that net/http puts in its errors, for logs: the query may hold
// personal data (a PIX key, a document), and the method and path are logged apart.
func withoutURL(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}
