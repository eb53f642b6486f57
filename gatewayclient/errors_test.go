package gatewayclient

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestErrorBodyVariants(t *testing.T) {
	cases := []struct {
		name     string
		status   int
		ctype    string
		body     string
		kind     UnprocessableKind
		title    string
		messages []string
	}{
		{"NestJS array, validations", 422, "application/json",
			`{"statusCode":422,"error":"Validations","message":["customer.document: invalid CPF","amount: must be at least 1"]}`,
			KindValidation, "Validations", []string{"customer.document: invalid CPF", "amount: must be at least 1"}},
		{"NestJS, invalid data", 422, "application/json",
			`{"statusCode":422,"error":"Invalid or missing data","message":["amount must be a number"]}`,
			KindInvalidData, "Invalid or missing data", []string{"amount must be a number"}},
		{"message as string", 422, "application/json",
			`{"statusCode":422,"error":"Validations","message":"idempotencyKey: too short"}`,
			KindValidation, "Validations", []string{"idempotencyKey: too short"}},
		{"other spelling: invalid", 422, "application/json", `{"error":"INVALID_DATA","message":["x"]}`,
			KindInvalidData, "INVALID_DATA", []string{"x"}},
		{"other spelling: missing", 422, "application/json", `{"error":"Missing fields","message":["x"]}`,
			KindInvalidData, "Missing fields", []string{"x"}},
		{"other spelling: validation", 422, "application/json", `{"error":"validation_failed","message":["x"]}`,
			KindValidation, "validation_failed", []string{"x"}},
		{"unknown kind defaults to validations", 422, "application/json", `{"error":"Unprocessable Entity","message":["x"]}`,
			KindValidation, "Unprocessable Entity", []string{"x"}},
		{"no error field", 422, "application/json", `{"message":["a","b"]}`, KindValidation, "", []string{"a", "b"}},
		{"empty object", 422, "application/json", `{}`, KindValidation, "", nil},
		{"null message", 422, "application/json", `{"error":"Validations","message":null}`, KindValidation, "Validations", nil},
		{"non-string messages", 422, "application/json", `{"message":[{"field":"amount"},7,"plain"]}`,
			KindValidation, "", []string{`{"field":"amount"}`, "7", "plain"}},
		{"HTML from a proxy", 403, "text/html", `<html><body><h1>403 Forbidden</h1></body></html>`, "", "", nil},
		{"empty body", 404, "", ``, "", "", nil},
		{"JSON array body", 403, "application/json", `["nope"]`, "", "", nil},
		{"truncated JSON", 422, "application/json", `{"message":["a"`, KindValidation, "", nil},
		{"OAuth style", 403, "application/json", `{"error":"access_denied","error_description":"scope missing"}`,
			"", "access_denied", []string{"scope missing"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := newTestGateway(t, func(w http.ResponseWriter, r *http.Request) {
				if tc.ctype != "" {
					w.Header().Set("Content-Type", tc.ctype)
				}
				w.WriteHeader(tc.status)
				_, _ = w.Write([]byte(tc.body))
			})
			_, err := g.client().GetDeposit(context.Background(), testDepositID)
			var e *APIError
			if !errors.As(err, &e) {
				t.Fatalf("err = %v; want *APIError", err)
			}
			if e.StatusCode != tc.status || e.Kind != tc.kind || e.Title != tc.title || !slices.Equal(e.Messages, tc.messages) {
				t.Errorf("got status %d kind %q title %q messages %q; want %d %q %q %q",
					e.StatusCode, e.Kind, e.Title, e.Messages, tc.status, tc.kind, tc.title, tc.messages)
			}
			if string(e.Body) != tc.body {
				t.Errorf("Body = %q, want %q", e.Body, tc.body)
			}
			if e.Method != http.MethodGet || e.Path != "/deposit/"+testDepositID {
				t.Errorf("Method, Path = %q, %q", e.Method, e.Path)
			}
			for _, m := range tc.messages {
				if !strings.Contains(e.Error(), m) {
					t.Errorf("Error() = %q lacks message %q", e.Error(), m)
				}
			}
			if strings.Contains(e.Error(), "<html>") {
				t.Errorf("Error() = %q quotes the HTML body", e.Error())
			}
		})
	}
}

func TestAPIErrorViolations(t *testing.T) {
	e := &APIError{StatusCode: 422, Messages: []string{"customer.document: invalid CPF", "items[2].unitPrice: must be at least 1", "something went wrong"}}
	want := []Violation{
		{Field: "customer.document", Message: "invalid CPF"},
		{Field: "items[2].unitPrice", Message: "must be at least 1"},
		{Message: "something went wrong"},
	}
	if got := e.Violations(); !slices.Equal(got, want) {
		t.Errorf("Violations = %#v, want %#v", got, want)
	}
}

func TestAPIErrorIs(t *testing.T) {
	all := []error{ErrUnauthorized, ErrForbidden, ErrNotFound, ErrValidation, ErrRateLimited, ErrGatewayUnavailable}
	cases := map[int]error{401: ErrUnauthorized, 403: ErrForbidden, 404: ErrNotFound, 422: ErrValidation,
		429: ErrRateLimited, 502: ErrGatewayUnavailable, 503: ErrGatewayUnavailable, 504: ErrGatewayUnavailable,
		500: nil, 400: nil, 409: nil}
	for status, want := range cases {
		e := &APIError{StatusCode: status}
		for _, s := range all {
			if got := errors.Is(e, s); got != (s == want) {
				t.Errorf("status %d: errors.Is(%v) = %v", status, s, got)
			}
		}
	}
}

func TestAPIErrorBodyCapped(t *testing.T) {
	big := "<html>" + strings.Repeat("x", 100<<10) + "</html>"
	g := newTestGateway(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(403)
		_, _ = w.Write([]byte(big))
	})
	_, err := g.client().GetDeposit(context.Background(), testDepositID)
	var e *APIError
	if !errors.As(err, &e) {
		t.Fatalf("err = %v", err)
	}
	if len(e.Body) != 64<<10 || string(e.Body) != big[:64<<10] {
		t.Errorf("len(Body) = %d, want %d", len(e.Body), 64<<10)
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 3, 14, 15, 9, 26, 0, time.UTC)
	cases := map[string]time.Duration{
		"":                              0,
		"2":                             2 * time.Second,
		" 120 ":                         2 * time.Minute,
		"0":                             0,
		"-3":                            0,
		"soon":                          0,
		"Sat, 14 Mar 2026 15:09:29 GMT": 3 * time.Second,
		"Sat, 14 Mar 2026 15:09:00 GMT": 0, // in the past
		"99999999999999999999":          0, // overflows int64: malformed
	}
	for h, want := range cases {
		if got := parseRetryAfter(h, now); got != want {
			t.Errorf("parseRetryAfter(%q) = %v, want %v", h, got, want)
		}
	}
}

func TestErrorMessages(t *testing.T) {
	e := &APIError{StatusCode: 422, Kind: KindValidation, Title: "Validations", Method: "POST", Path: "/transaction",
		Messages: []string{"amount: must be at least 1"}}
	if got, want := e.Error(), "gatewayclient: POST /transaction: 422 Unprocessable Entity (Validations): amount: must be at least 1"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	r := &APIError{StatusCode: 429, Method: "POST", Path: "/transaction", RetryAfter: 30 * time.Second}
	if got := r.Error(); !strings.Contains(got, "429 Too Many Requests") || !strings.Contains(got, "retry after 30s") {
		t.Errorf("Error() = %q", got)
	}
	te := &TokenError{StatusCode: 401, Messages: []string{"Invalid credentials"}}
	if got, want := te.Error(), "gatewayclient: token request: 401 Unauthorized: invalid credentials: Invalid credentials"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

// TestSentinelsThroughCalls checks errors.Is against every sentinel on the errors that real
// calls return, each error matching its own sentinels and no other.
func TestSentinelsThroughCalls(t *testing.T) {
	all := []error{ErrUnauthorized, ErrForbidden, ErrNotFound, ErrValidation, ErrRateLimited, ErrGatewayUnavailable,
		ErrMalformedCredentials, ErrInvalidCredentials, ErrAuthProviderUnavailable}
	api := func(status int) func(*testGateway) {
		return func(g *testGateway) {
			g.api = func(w http.ResponseWriter, r *http.Request) { writeJSON(w, status, `{"message":"x"}`) }
		}
	}
	tokenStatus := func(status int) func(*testGateway) {
		return func(g *testGateway) {
			g.setTokenAnswer(func(int64) (int, string) { return status, `{"message":"x"}` })
		}
	}
	cases := []struct {
		name  string
		setup func(*testGateway)
		id    string
		want  []error
	}{
		{"401", api(401), testDepositID, []error{ErrUnauthorized}},
		{"403", api(403), testDepositID, []error{ErrForbidden}},
		{"404", api(404), testDepositID, []error{ErrNotFound}},
		{"422", api(422), testDepositID, []error{ErrValidation}},
		{"429", api(429), testDepositID, []error{ErrRateLimited}},
		{"500", api(500), testDepositID, nil},
		{"502", api(502), testDepositID, []error{ErrGatewayUnavailable}},
		{"503", api(503), testDepositID, []error{ErrGatewayUnavailable}},
		{"504", api(504), testDepositID, []error{ErrGatewayUnavailable}},
		{"token 400", tokenStatus(400), testDepositID, []error{ErrMalformedCredentials}},
		{"token 401", tokenStatus(401), testDepositID, []error{ErrInvalidCredentials, ErrUnauthorized}},
		{"token 502", tokenStatus(502), testDepositID, []error{ErrAuthProviderUnavailable, ErrGatewayUnavailable}},
		{"refused before sending", func(*testGateway) {}, "not-a-uuid", []error{ErrValidation}},
		{"connection closed", func(g *testGateway) { g.api = closeFirstConnections(t, 100, nil) }, testDepositID,
			[]error{ErrGatewayUnavailable}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := newTestGateway(t, nil)
			tc.setup(g)
			_, err := g.client(WithRetryPolicy(RetryPolicy{MaxAttempts: 1})).GetDeposit(context.Background(), tc.id)
			if err == nil {
				t.Fatal("no error")
			}
			for _, s := range all {
				if got, want := errors.Is(err, s), slices.Contains(tc.want, s); got != want {
					t.Errorf("errors.Is(%v, %v) = %v, want %v", err, s, got, want)
				}
			}
		})
	}
}
