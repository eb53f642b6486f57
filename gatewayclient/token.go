package gatewayclient

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// fallbackTokenLifetime is how long a token is reused when its answer tells no credible
// expiry; a 401 drops it sooner.
const fallbackTokenLifetime = 5 * time.Minute

// maxTokenBody caps the body read from the token endpoint.
const maxTokenBody = 1 << 20

// tokenCache holds the current token and the one token request in flight, if any.
type tokenCache struct {
	mu        sync.Mutex
	token     secret
	refreshAt time.Time   // renew from this moment on (expiry minus the margin)
	expiresAt time.Time   // the token's own expiry: until then it still serves if renewal fails
	inflight  *tokenFetch // shared by every caller while a token request runs
}

// tokenFetch is one token request, awaited by every caller that needed a token meanwhile.
type tokenFetch struct {
	done  chan struct{} // closed when token and err are set
	token secret
	err   error
}

// Token returns a valid bearer token, from the cache when the cached one is not due for
// renewal, or else from POST {base}/auth/token. Concurrent callers share one token request.
// The API methods call it themselves; it is exported for requests made outside the client
// (Do covers most such needs). Treat the token as a secret: never log it.
func (c *Client) Token(ctx context.Context) (string, error) {
	t, err := c.token(ctx)
	return t.reveal(), err
}

func (c *Client) token(ctx context.Context) (secret, error) {
	if err := ctx.Err(); err != nil {
		return "", fmt.Errorf("gatewayclient: token request: %w", err)
	}
	tc := c.tokens
	tc.mu.Lock()
	if tc.token != "" && c.clock.Now().Before(tc.refreshAt) {
		t := tc.token
		tc.mu.Unlock()
		return t, nil
	}
	f := tc.inflight
	if f == nil {
		f = &tokenFetch{done: make(chan struct{})}
		tc.inflight = f
		// The request runs detached from the caller's cancellation: the other callers
		// waiting on it must not fail because the first one gave up. A timeout bounds it
		// (see fetchToken).
		go c.runTokenFetch(context.WithoutCancel(ctx), f)
	}
	tc.mu.Unlock()
	select {
	case <-f.done:
		if f.err != nil {
			// A renewal started ahead of expiry failed: the current token is still good
			// until it expires, so the call goes on with it rather than fail.
			if t, ok := c.unexpiredToken(); ok {
				c.logger.LogAttrs(ctx, slog.LevelDebug, "gateway token renewal failed; using the current token",
					slog.String("error", f.err.Error()))
				return t, nil
			}
		}
		return f.token, f.err
	case <-ctx.Done():
		return "", fmt.Errorf("gatewayclient: token request: %w", ctx.Err())
	}
}

// runTokenFetch performs the token request of f and publishes its outcome.
func (c *Client) runTokenFetch(ctx context.Context, f *tokenFetch) {
	tok, expiresAt, err := c.fetchToken(ctx)
	tc := c.tokens
	tc.mu.Lock()
	if err == nil {
		now := c.clock.Now()
		margin := min(c.margin, expiresAt.Sub(now)/10)
		tc.token, tc.refreshAt, tc.expiresAt = tok, expiresAt.Add(-margin), expiresAt
	}
	tc.inflight = nil
	f.token, f.err = tok, err
	tc.mu.Unlock()
	close(f.done)
}

// unexpiredToken returns the cached token when it has not expired yet, even though it is
// due for renewal.
func (c *Client) unexpiredToken() (secret, bool) {
	tc := c.tokens
	tc.mu.Lock()
	defer tc.mu.Unlock()
	if tc.token != "" && c.clock.Now().Before(tc.expiresAt) {
		return tc.token, true
	}
	return "", false
}

// dropToken forgets the cached token after the gateway refused it, unless another caller
// already replaced it.
func (c *Client) dropToken(used secret) {
	tc := c.tokens
	tc.mu.Lock()
	defer tc.mu.Unlock()
	if tc.token == used {
		tc.token = ""
	}
}

// fetchToken performs one token request and returns the token and its expiry.
func (c *Client) fetchToken(ctx context.Context) (secret, time.Time, error) {
	// Always bounded: callers share this request, and one that never ends would leave every
	// later caller waiting on it.
	timeout := c.timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	form := url.Values{
		"client_id":     {c.creds.id},
		"client_secret": {c.creds.secret.reveal()},
		"grant_type":    {"client_credentials"},
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/auth/token", strings.NewReader(form.Encode()))
	if err != nil {
		return "", time.Time{}, fmt.Errorf("gatewayclient: token request: %w", err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.userAgent)

	start := time.Now()
	resp, err := c.http.Do(req)
	if err != nil {
		c.logger.LogAttrs(ctx, slog.LevelDebug, "gateway token request failed",
			slog.Duration("duration", time.Since(start)), slog.String("error", err.Error()))
		return "", time.Time{}, &transportError{op: "token request", err: err}
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxTokenBody))
	if err != nil {
		return "", time.Time{}, &transportError{op: "token request", err: err}
	}
	c.logger.LogAttrs(ctx, slog.LevelDebug, "gateway token request",
		slog.Int("status", resp.StatusCode), slog.Duration("duration", time.Since(start)))

	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		body = c.scrub(body, "")
		eb := parseErrorBody(body)
		return "", time.Time{}, &TokenError{StatusCode: resp.StatusCode, Title: eb.title,
			Messages: eb.messages, Body: capBody(body)}
	}
	var t Token
	if err := json.Unmarshal(body, &t); err != nil {
		// The body may hold a token: it is neither kept nor quoted.
		return "", time.Time{}, &TokenError{StatusCode: resp.StatusCode, Reason: "the answer is not a token response"}
	}
	if t.AccessToken == "" {
		return "", time.Time{}, &TokenError{StatusCode: resp.StatusCode, Reason: "the answer has no access_token"}
	}
	return secret(t.AccessToken), tokenExpiry(&t, c.clock.Now()), nil
}

// tokenExpiry takes the earliest credible expiry among expires_in (a Unix timestamp as the
// spec says, or a lifetime in seconds when it is too small to be a timestamp), expires_in_sec
// (a lifetime) and the JWT's exp claim (read without verifying the signature: the client has
// no key, and the gateway checks the token anyway). Credible means in the future and within a
// year. When none is, the token is reused for fallbackTokenLifetime.
func tokenExpiry(t *Token, now time.Time) time.Time {
	var candidates []time.Time
	if f, err := t.ExpiresIn.Float64(); err == nil && f > 0 {
		if f < 1e9 { // before 2001 as a timestamp: a lifetime in seconds
			candidates = append(candidates, now.Add(seconds(f)))
		} else {
			candidates = append(candidates, time.Unix(0, 0).Add(seconds(f)))
		}
	}
	if f, err := t.ExpiresInSec.Float64(); err == nil && f > 0 {
		candidates = append(candidates, now.Add(seconds(f)))
	}
	claims := jwt.MapClaims{}
	if _, _, err := jwt.NewParser().ParseUnverified(t.AccessToken, claims); err == nil {
		if exp, err := claims.GetExpirationTime(); err == nil && exp != nil {
			candidates = append(candidates, exp.Time)
		}
	}
	var best time.Time
	for _, c := range candidates {
		if !c.After(now) || c.After(now.AddDate(1, 0, 0)) {
			continue
		}
		if best.IsZero() || c.Before(best) {
			best = c
		}
	}
	if best.IsZero() {
		return now.Add(fallbackTokenLifetime)
	}
	return best
}

// seconds converts a number of seconds, capped to avoid overflow, to a Duration.
func seconds(f float64) time.Duration {
	const maxSecs = 1 << 32
	return time.Duration(min(f, maxSecs) * float64(time.Second))
}

// minScrubLen is the shortest value scrub blanks out: shorter ones are no real secret, and
// blanking them out would garble every word of the body that contains them.
const minScrubLen = 8

// scrub blanks out the client secret (as is and form-encoded) and the given token from an
// answer's body before it is kept in an error: a misbehaving server may echo them.
func (c *Client) scrub(body []byte, token secret) []byte {
	for _, s := range []string{c.creds.secret.reveal(), url.QueryEscape(c.creds.secret.reveal()), token.reveal()} {
		if len(s) >= minScrubLen && bytes.Contains(body, []byte(s)) {
			body = bytes.ReplaceAll(body, []byte(s), []byte(redacted))
		}
	}
	return body
}

// capBody keeps at most maxErrorBody bytes of a body.
func capBody(b []byte) []byte {
	if len(b) > maxErrorBody {
		b = b[:maxErrorBody]
	}
	return bytes.Clone(b)
}
