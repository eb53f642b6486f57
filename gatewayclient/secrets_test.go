package gatewayclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
)

func TestSecretNeverPrints(t *testing.T) {
	s := secret(testClientSecret)
	for _, verb := range []string{"%s", "%v", "%+v", "%#v", "%q", "%x", "%X", "%d", "%10s"} {
		if got := fmt.Sprintf(verb, s); strings.Contains(got, "s3cr3t") || !strings.Contains(got, redacted) {
			t.Errorf("Sprintf(%q) = %q", verb, got)
		}
	}
	if got := fmt.Sprint(s) + s.String() + s.GoString(); strings.Contains(got, "s3cr3t") {
		t.Errorf("printed %q", got)
	}
	b, err := json.Marshal(struct{ S secret }{s})
	if err != nil || strings.Contains(string(b), "s3cr3t") {
		t.Errorf("json = %s, %v", b, err)
	}
	var buf bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&buf, nil))
	log.Info("creds", "secret", s, "creds", credentials{id: testClientID, secret: s})
	if strings.Contains(buf.String(), "s3cr3t") || !strings.Contains(buf.String(), testClientID) {
		t.Errorf("log = %s", buf.String())
	}
}

func TestClientDoesNotPrintItsSecret(t *testing.T) {
	c, err := New("https://gw.example.com/v1", testClientID, testClientSecret)
	if err != nil {
		t.Fatal(err)
	}
	c.tokens.token = "tok-very-secret-value"
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%d", "%x", "%q"} {
		for _, v := range []any{c, *c, c.creds, *c.creds} {
			got := fmt.Sprintf(verb, v)
			if strings.Contains(got, "s3cr3t") || strings.Contains(got, "very-secret") || !strings.Contains(got, testClientID) {
				t.Errorf("Sprintf(%q) = %s", verb, got)
			}
		}
	}
	var buf bytes.Buffer
	slog.New(slog.NewJSONHandler(&buf, nil)).Info("client", "client", c)
	if strings.Contains(buf.String(), "s3cr3t") || !strings.Contains(buf.String(), "gw.example.com") {
		t.Errorf("log = %s", buf.String())
	}
}

// syncBuffer is a bytes.Buffer safe for the concurrent writes of a logger.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func TestSecretsNeverInLogsOrErrors(t *testing.T) {
	const token = "eyJhbGciOiJIUzI1NiJ9.tok-leak-check.sig"
	forms := []string{testClientSecret, url.QueryEscape(testClientSecret), token, "tok-leak-check"}
	// A misbehaving gateway echoes what it received, in every answer it gives.
	echo := func(r *http.Request) string {
		_ = r.ParseForm()
		return fmt.Sprintf(`{"statusCode":400,"message":["client_secret %s","form %s","auth %s"]}`,
			r.PostForm.Get("client_secret"), url.QueryEscape(r.PostForm.Get("client_secret")), r.Header.Get("Authorization"))
	}
	var mu sync.Mutex
	failToken := true
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		fail := failToken
		mu.Unlock()
		switch {
		case r.URL.Path == "/auth/token" && fail:
			writeJSON(w, 400, echo(r))
		case r.URL.Path == "/auth/token":
			writeJSON(w, 200, `{"access_token":"`+token+`","expires_in_sec":600}`)
		case r.URL.Path == "/deposit":
			writeJSON(w, 422, strings.Replace(echo(r), "400", "422", 1))
		case r.URL.Path == "/withdrawal":
			writeJSON(w, 401, echo(r)) // drops the token: a new token request follows
		default:
			writeJSON(w, 503, echo(r))
		}
	}))
	defer srv.Close()

	var logs syncBuffer
	logger := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c, err := New(srv.URL, testClientID, testClientSecret, WithLogger(logger), WithClock(newFakeClock()),
		WithRetryPolicy(RetryPolicy{MaxAttempts: 2}))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()

	var errs []error
	_, err = c.ListDeposits(ctx, DepositFilter{})
	if !errors.Is(err, ErrMalformedCredentials) {
		t.Fatalf("token failure: err = %v", err)
	}
	errs = append(errs, err)
	mu.Lock()
	failToken = false
	mu.Unlock()
	for _, call := range []func() error{
		func() error { _, err := c.ListDeposits(ctx, DepositFilter{}); return err },
		func() error { _, err := c.ListWithdrawals(ctx, WithdrawalFilter{}); return err },
		func() error { _, err := c.GetDeposit(ctx, testDepositID); return err },
		func() error { return c.Do(ctx, http.MethodPost, "/anything", map[string]string{"a": "b"}, nil) },
	} {
		err := call()
		if err == nil {
			t.Fatal("a call succeeded against a failing gateway")
		}
		errs = append(errs, err)
	}
	if !strings.Contains(logs.String(), `"level":"DEBUG"`) || !strings.Contains(logs.String(), `"attempt"`) {
		t.Fatalf("no debug lines were logged: %s", logs.String())
	}
	for _, s := range forms {
		if strings.Contains(logs.String(), s) {
			t.Errorf("logs contain %q:\n%s", s, logs.String())
		}
		for _, err := range errs {
			if strings.Contains(err.Error(), s) || strings.Contains(fmt.Sprintf("%+v", err), s) {
				t.Errorf("error contains %q: %v", s, err)
			}
			var api *APIError
			var te *TokenError
			if errors.As(err, &api) && (bytes.Contains(api.Body, []byte(s)) || strings.Contains(strings.Join(api.Messages, " "), s)) {
				t.Errorf("APIError body or messages contain %q: %s", s, api.Body)
			}
			if errors.As(err, &te) && (bytes.Contains(te.Body, []byte(s)) || strings.Contains(strings.Join(te.Messages, " "), s)) {
				t.Errorf("TokenError body or messages contain %q: %s", s, te.Body)
			}
		}
	}
	// The scrubbed bodies still say what the gateway said, with the values blanked out.
	var te *TokenError
	if !errors.As(errs[0], &te) || !strings.Contains(string(te.Body), "client_secret "+redacted) {
		t.Errorf("token error body = %s", te.Body)
	}
}
