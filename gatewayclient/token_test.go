package gatewayclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

func TestNewRejectsBadConfiguration(t *testing.T) {
	cases := []struct {
		name, base, id, secret string
		opts                   []Option
		want                   string
	}{
		{"relative URL", "/v1", "id", "s", nil, "absolute"},
		{"ftp URL", "ftp://x.example.com", "id", "s", nil, "absolute"},
		{"query", "https://x.example.com/v1?a=b", "id", "s", nil, "query"},
		{"user info", "https://u:p@x.example.com/v1", "id", "s", nil, "user info"},
		{"no id", "https://x.example.com", "", "s", nil, "client ID"},
		{"no secret", "https://x.example.com", "id", "", nil, "client secret"},
		{"nil http client", "https://x.example.com", "id", "s", []Option{WithHTTPClient(nil)}, "http.Client"},
		{"nil logger", "https://x.example.com", "id", "s", []Option{WithLogger(nil)}, "Logger"},
		{"nil clock", "https://x.example.com", "id", "s", []Option{WithClock(nil)}, "Clock"},
		{"empty page param", "https://x.example.com", "id", "s", []Option{WithPaginationParams("", "n")}, "parameter"},
		{"negative margin", "https://x.example.com", "id", "s", []Option{WithTokenRefreshMargin(-time.Second)}, "margin"},
		{"negative retry", "https://x.example.com", "id", "s", []Option{WithRetryPolicy(RetryPolicy{MaxAttempts: -1})}, "negative"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := New(tc.base, tc.id, tc.secret, tc.opts...)
			if err == nil || c != nil {
				t.Fatalf("New = %v, %v; want an error", c, err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not mention %q", err, tc.want)
			}
		})
	}
}

func TestNewKeepsPathPrefix(t *testing.T) {
	var paths []string
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths = append(paths, r.Method+" "+r.URL.Path)
		mu.Unlock()
		if r.URL.Path == "/sandbox/gateway/auth/token" {
			writeJSON(w, 200, `{"access_token":"tok","expires_in_sec":600}`)
			return
		}
		writeJSON(w, 200, `{"id":"`+testDepositID+`"}`)
	}))
	defer srv.Close()
	c, err := New(srv.URL+"/sandbox/gateway/", testClientID, testClientSecret)
	if err != nil {
		t.Fatal(err)
	}
	if c.BaseURL() != srv.URL+"/sandbox/gateway" {
		t.Errorf("BaseURL = %q", c.BaseURL())
	}
	if _, err := c.GetDeposit(context.Background(), testDepositID); err != nil {
		t.Fatal(err)
	}
	want := []string{"POST /sandbox/gateway/auth/token", "GET /sandbox/gateway/deposit/" + testDepositID}
	if !slices.Equal(paths, want) {
		t.Errorf("requests = %q, want %q", paths, want)
	}
}

func TestConcurrentCallsShareOneTokenRequest(t *testing.T) {
	release := make(chan struct{})
	g := newTestGateway(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer tok-1" {
			t.Errorf("Authorization = %q", r.Header.Get("Authorization"))
		}
		writeJSON(w, 200, `{"id":"`+testDepositID+`"}`)
	})
	g.setTokenAnswer(func(n int64) (int, string) {
		<-release // hold the token request until every caller is waiting or about to
		return 200, fmt.Sprintf(`{"access_token":"tok-%d","expires_in_sec":3600}`, n)
	})
	c := g.client()
	var wg, started sync.WaitGroup
	errs := make(chan error, 100)
	started.Add(100)
	for range 100 {
		wg.Go(func() {
			started.Done()
			_, err := c.GetDeposit(context.Background(), testDepositID)
			errs <- err
		})
	}
	// Every caller is running before the token request may answer, so that they overlap it.
	started.Wait()
	close(release)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if n := g.tokenRequests.Load(); n != 1 {
		t.Errorf("token requests = %d, want 1", n)
	}
	if n := g.apiRequests.Load(); n != 100 {
		t.Errorf("API requests = %d, want 100", n)
	}
}

// signedJWT makes a JWT with the given exp claim (the client never verifies the signature).
func signedJWT(t *testing.T, exp time.Time, id int64) string {
	t.Helper()
	s, err := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{"exp": exp.Unix(), "sub": "client-123", "jti": id}).
		SignedString([]byte("key of the gateway"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestTokenRenewedBeforeExpiry(t *testing.T) {
	start := newFakeClock().Now()
	// Each case gives a token that expires 600 s after start, stated a different way; the
	// margin is then min(60 s, 600 s / 10) = 60 s, so renewal happens from 540 s on.
	cases := []struct {
		name   string
		answer func(n int64) string
	}{
		{"expires_in as Unix timestamp", func(n int64) string {
			return fmt.Sprintf(`{"access_token":"tok-%d","expires_in":%d}`, n, start.Add(600*time.Second).Unix())
		}},
		{"expires_in as lifetime", func(n int64) string {
			return fmt.Sprintf(`{"access_token":"tok-%d","expires_in":600}`, n)
		}},
		{"expires_in_sec only", func(n int64) string {
			return fmt.Sprintf(`{"access_token":"tok-%d","expires_in_sec":600}`, n)
		}},
		{"JWT exp only", func(n int64) string {
			return fmt.Sprintf(`{"access_token":%q}`, signedJWT(t, start.Add(600*time.Second), n))
		}},
		{"earliest of several", func(n int64) string {
			return fmt.Sprintf(`{"access_token":%q,"expires_in":3600,"expires_in_sec":7200,"refresh_expires_in":60}`,
				signedJWT(t, start.Add(600*time.Second), n))
		}},
		{"past timestamp ignored", func(n int64) string {
			return fmt.Sprintf(`{"access_token":"tok-%d","expires_in":%d,"expires_in_sec":600}`, n, start.Add(-time.Hour).Unix())
		}},
		{"numbers as strings", func(n int64) string {
			return fmt.Sprintf(`{"access_token":"tok-%d","expires_in_sec":"600"}`, n)
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			clock := newFakeClock()
			g := newTestGateway(t, func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, `{}`) })
			g.setTokenAnswer(func(n int64) (int, string) { return 200, tc.answer(n) })
			c := g.client(WithClock(clock))
			ctx := context.Background()
			first, err := c.Token(ctx)
			if err != nil {
				t.Fatal(err)
			}
			clock.Advance(539 * time.Second)
			if tok, err := c.Token(ctx); err != nil || tok != first {
				t.Fatalf("at 539 s: token %q, %v; want the cached one", tok, err)
			}
			if n := g.tokenRequests.Load(); n != 1 {
				t.Fatalf("token requests at 539 s = %d, want 1", n)
			}
			clock.Advance(2 * time.Second)
			second, err := c.Token(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if second == first || g.tokenRequests.Load() != 2 {
				t.Errorf("at 541 s: token requests = %d, token renewed = %v; want a renewal", g.tokenRequests.Load(), second != first)
			}
		})
	}
}

func TestTokenRefreshMarginOption(t *testing.T) {
	clock := newFakeClock()
	g := newTestGateway(t, nil)
	g.setTokenAnswer(func(n int64) (int, string) {
		return 200, fmt.Sprintf(`{"access_token":"tok-%d","expires_in_sec":600}`, n)
	})
	c := g.client(WithClock(clock), WithTokenRefreshMargin(10*time.Second))
	ctx := context.Background()
	if _, err := c.Token(ctx); err != nil {
		t.Fatal(err)
	}
	clock.Advance(589 * time.Second)
	_, _ = c.Token(ctx)
	if n := g.tokenRequests.Load(); n != 1 {
		t.Fatalf("token requests at 589 s = %d, want 1", n)
	}
	clock.Advance(2 * time.Second)
	_, _ = c.Token(ctx)
	if n := g.tokenRequests.Load(); n != 2 {
		t.Fatalf("token requests at 591 s = %d, want 2", n)
	}
}

func TestTokenExpiry(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	num := func(v any) json.Number { return json.Number(fmt.Sprint(v)) }
	cases := []struct {
		name string
		tok  Token
		want time.Time
	}{
		{"timestamp", Token{ExpiresIn: num(now.Unix() + 300)}, now.Add(300 * time.Second)},
		{"lifetime", Token{ExpiresIn: num(300)}, now.Add(300 * time.Second)},
		{"fractional lifetime", Token{ExpiresIn: num(300.5)}, now.Add(300500 * time.Millisecond)},
		{"sec", Token{ExpiresInSec: num(120)}, now.Add(120 * time.Second)},
		{"earliest", Token{ExpiresIn: num(now.Unix() + 300), ExpiresInSec: num(200)}, now.Add(200 * time.Second)},
		{"nothing: fallback", Token{}, now.Add(fallbackTokenLifetime)},
		{"zero and negative ignored", Token{ExpiresIn: num(0), ExpiresInSec: num(-5)}, now.Add(fallbackTokenLifetime)},
		{"beyond a year ignored", Token{ExpiresIn: num(now.AddDate(2, 0, 0).Unix()), ExpiresInSec: num(90)}, now.Add(90 * time.Second)},
		{"not a number ignored", Token{ExpiresIn: "soon", ExpiresInSec: num(90)}, now.Add(90 * time.Second)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := tokenExpiry(&tc.tok, now); !got.Equal(tc.want) {
				t.Errorf("tokenExpiry = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestUnauthorizedRefreshesTokenAndRetriesOnce(t *testing.T) {
	g := newTestGateway(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") == "Bearer tok-1" {
			writeJSON(w, 401, `{"statusCode":401,"message":"token revoked"}`)
			return
		}
		writeJSON(w, 200, `{"id":"`+testDepositID+`"}`)
	})
	c := g.client()
	d, err := c.GetDeposit(context.Background(), testDepositID)
	if err != nil {
		t.Fatal(err)
	}
	if d.ID != testDepositID {
		t.Errorf("ID = %q", d.ID)
	}
	if g.tokenRequests.Load() != 2 || g.apiRequests.Load() != 2 {
		t.Errorf("token requests = %d, API requests = %d; want 2 and 2", g.tokenRequests.Load(), g.apiRequests.Load())
	}
}

func TestSecondUnauthorizedIsReturned(t *testing.T) {
	g := newTestGateway(t, func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 401, `{"statusCode":401,"message":"Unauthorized"}`)
	})
	c := g.client()
	_, err := c.GetDeposit(context.Background(), testDepositID)
	if !errors.Is(err, ErrUnauthorized) {
		t.Fatalf("err = %v; want ErrUnauthorized", err)
	}
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 401 {
		t.Fatalf("err = %#v; want *APIError 401", err)
	}
	if g.tokenRequests.Load() != 2 || g.apiRequests.Load() != 2 {
		t.Errorf("token requests = %d, API requests = %d; want 2 and 2", g.tokenRequests.Load(), g.apiRequests.Load())
	}
	// POST through Do is not retried on failures, but a 401 is resent once all the same.
	g.apiRequests.Store(0)
	if err := c.Do(context.Background(), http.MethodPost, "/sandbox/pay", map[string]int{"a": 1}, nil); !errors.Is(err, ErrUnauthorized) {
		t.Fatalf("Do err = %v", err)
	}
	if n := g.apiRequests.Load(); n != 2 {
		t.Errorf("Do POST API requests = %d, want 2", n)
	}
}

func TestTokenErrorsAreDistinct(t *testing.T) {
	sentinels := []error{ErrMalformedCredentials, ErrInvalidCredentials, ErrAuthProviderUnavailable}
	cases := []struct {
		status    int
		want      error
		alsoMatch error
		requests  int64 // token requests with MaxAttempts 3
	}{
		{400, ErrMalformedCredentials, nil, 1},
		{401, ErrInvalidCredentials, ErrUnauthorized, 1},
		{502, ErrAuthProviderUnavailable, ErrGatewayUnavailable, 3},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprint(tc.status), func(t *testing.T) {
			g := newTestGateway(t, func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, `{}`) })
			g.setTokenAnswer(func(int64) (int, string) {
				return tc.status, `{"statusCode":` + fmt.Sprint(tc.status) + `,"error":"Auth","message":"provider said no"}`
			})
			clock := newFakeClock()
			c := g.client(WithClock(clock), WithRetryPolicy(RetryPolicy{MaxAttempts: 3}))
			_, err := c.GetDeposit(context.Background(), testDepositID)
			var te *TokenError
			if !errors.As(err, &te) || te.StatusCode != tc.status {
				t.Fatalf("err = %v; want *TokenError %d", err, tc.status)
			}
			for _, s := range sentinels {
				if got := errors.Is(err, s); got != (s == tc.want) {
					t.Errorf("errors.Is(err, %v) = %v", s, got)
				}
			}
			if tc.alsoMatch != nil && !errors.Is(err, tc.alsoMatch) {
				t.Errorf("errors.Is(err, %v) = false", tc.alsoMatch)
			}
			if !strings.Contains(err.Error(), "provider said no") {
				t.Errorf("error %q lacks the gateway's message", err)
			}
			if n := g.tokenRequests.Load(); n != tc.requests {
				t.Errorf("token requests = %d, want %d", n, tc.requests)
			}
			if n := g.apiRequests.Load(); n != 0 {
				t.Errorf("API requests = %d, want 0", n)
			}
		})
	}
}

func TestTokenAnswerWithoutToken(t *testing.T) {
	for _, body := range []string{`{"expires_in_sec":60}`, `not json`, ``} {
		g := newTestGateway(t, nil)
		g.setTokenAnswer(func(int64) (int, string) { return 200, body })
		_, err := g.client().Token(context.Background())
		var te *TokenError
		if !errors.As(err, &te) || te.Reason == "" {
			t.Errorf("body %q: err = %v; want a *TokenError with a reason", body, err)
		}
	}
}

func TestTokenWaitHonoursCallerContext(t *testing.T) {
	release := make(chan struct{})
	arrived := make(chan struct{}, 1)
	g := newTestGateway(t, nil)
	g.setTokenAnswer(func(n int64) (int, string) {
		arrived <- struct{}{}
		<-release
		return 200, `{"access_token":"tok","expires_in_sec":600}`
	})
	c := g.client()

	// Cancelled before the call: no token request at all.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Token(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v; want context.Canceled", err)
	}
	if n := g.tokenRequests.Load(); n != 0 {
		t.Fatalf("token requests = %d, want 0", n)
	}

	// Cancelled while the shared token request is held: the caller returns at once, and the
	// request goes on for the others.
	ctx, cancel = context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := c.Token(ctx)
		done <- err
	}()
	<-arrived
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v; want context.Canceled", err)
	}
	waiting := make(chan string, 1)
	go func() {
		tok, _ := c.Token(context.Background())
		waiting <- tok
	}()
	close(release)
	if tok := <-waiting; tok != "tok" {
		t.Errorf("token = %q, want the one of the shared request", tok)
	}
	if n := g.tokenRequests.Load(); n != 1 {
		t.Errorf("token requests = %d, want 1", n)
	}
}

func TestHungTokenRequestIsBounded(t *testing.T) {
	g := newTestGateway(t, nil)
	var hung sync.Once
	unblock := make(chan struct{})
	defer close(unblock)
	g.setTokenAnswer(func(n int64) (int, string) {
		first := false
		hung.Do(func() { first = true })
		if first {
			<-unblock // never answers while the test runs: the client must give up by itself
		}
		return 200, fmt.Sprintf(`{"access_token":"tok-%d","expires_in_sec":600}`, n)
	})
	// Long enough for a loopback answer on a loaded machine, short enough for a test.
	c := g.client(WithTimeout(300 * time.Millisecond))
	// A caller that waits gets the timeout of the hung request, then a token on a next try.
	_, err := c.Token(context.Background())
	if !errors.Is(err, ErrGatewayUnavailable) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v; want the token request's timeout", err)
	}
	var tok string
	for range 10 { // a later request may still time out on a very busy machine
		if tok, err = c.Token(context.Background()); err == nil {
			break
		}
	}
	if err != nil || !strings.HasPrefix(tok, "tok-") || tok == "tok-1" {
		t.Fatalf("Token = %q, %v; want a token of a later request", tok, err)
	}
}

func TestFailedRenewalKeepsUnexpiredToken(t *testing.T) {
	clock := newFakeClock()
	g := newTestGateway(t, func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, `{"id":"`+testDepositID+`","auth":"`+r.Header.Get("Authorization")+`"}`)
	})
	g.setTokenAnswer(func(n int64) (int, string) {
		if n > 1 {
			return 502, `{"statusCode":502,"message":"provider down"}`
		}
		return 200, `{"access_token":"tok-1","expires_in_sec":600}`
	})
	c := g.client(WithClock(clock), WithRetryPolicy(RetryPolicy{MaxAttempts: 1}))
	ctx := context.Background()
	if _, err := c.GetDeposit(ctx, testDepositID); err != nil {
		t.Fatal(err)
	}
	// Due for renewal (margin 60 s) but not expired: the renewal fails, the call goes on.
	clock.Advance(545 * time.Second)
	if _, err := c.GetDeposit(ctx, testDepositID); err != nil {
		t.Fatalf("within the margin: %v", err)
	}
	if n := g.tokenRequests.Load(); n != 2 {
		t.Errorf("token requests = %d, want 2 (one renewal tried)", n)
	}
	// Expired: the failure is the caller's.
	clock.Advance(60 * time.Second)
	if _, err := c.GetDeposit(ctx, testDepositID); !errors.Is(err, ErrAuthProviderUnavailable) {
		t.Fatalf("after expiry: err = %v; want ErrAuthProviderUnavailable", err)
	}
}

// TestConcurrentUseThroughRenewalsAnd401s runs many callers at once while the clock moves
// past several renewals and the gateway revokes the first token: every call succeeds, the
// callers share the token requests, and the race detector sees the token cache from all
// sides.
func TestConcurrentUseThroughRenewalsAnd401s(t *testing.T) {
	clock := newFakeClock()
	g := newTestGateway(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") == "Bearer tok-1" {
			writeJSON(w, 401, `{"statusCode":401,"message":"revoked"}`)
			return
		}
		writeJSON(w, 200, `{"id":"`+testDepositID+`"}`)
	})
	g.setTokenAnswer(func(n int64) (int, string) {
		return 200, fmt.Sprintf(`{"access_token":"tok-%d","expires_in_sec":600}`, n)
	})
	c := g.client(WithClock(clock))
	const callers, calls, advances = 20, 15, 10
	var wg sync.WaitGroup
	errs := make(chan error, callers*calls)
	for range callers {
		wg.Go(func() {
			for range calls {
				if _, err := c.GetDeposit(context.Background(), testDepositID); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Go(func() {
		for range advances {
			clock.Advance(200 * time.Second) // a renewal every third step (margin 60 s)
			_, _ = c.Token(context.Background())
		}
	})
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	// One request for the revoked token, one to replace it, and at most one per clock step.
	if n := g.tokenRequests.Load(); n < 2 || n > 2+advances {
		t.Errorf("token requests = %d, want 2 to %d", n, 2+advances)
	}
}
