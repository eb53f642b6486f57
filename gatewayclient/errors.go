package gatewayclient

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Sentinels matched with errors.Is against the errors of the client. ErrValidation (in
// validate.go) completes the set for 422 answers and for requests refused before sending.
var (
	// ErrUnauthorized matches a 401 answer of an API call (after the one retry with a fresh
	// token) and a token request refused for invalid credentials.
	ErrUnauthorized = errors.New("gatewayclient: unauthorized")
	// ErrForbidden matches a 403 answer: the credentials lack the permission.
	ErrForbidden = errors.New("gatewayclient: forbidden")
	// ErrNotFound matches a 404 answer (GET /deposit/{id} of an unknown id).
	ErrNotFound = errors.New("gatewayclient: not found")
	// ErrRateLimited matches a 429 answer left after the retries; see APIError.RetryAfter.
	ErrRateLimited = errors.New("gatewayclient: rate limited")
	// ErrGatewayUnavailable matches answers 502, 503 and 504, network failures (connection
	// refused, reset, per-attempt timeout) and an unreachable authentication provider.
	ErrGatewayUnavailable = errors.New("gatewayclient: gateway unavailable")
)

// Token endpoint sentinels, matched with errors.Is against a *TokenError.
var (
	// ErrMalformedCredentials matches a 400 answer of the token endpoint.
	ErrMalformedCredentials = errors.New("gatewayclient: malformed credentials")
	// ErrInvalidCredentials matches a 401 answer of the token endpoint.
	ErrInvalidCredentials = errors.New("gatewayclient: invalid credentials")
	// ErrAuthProviderUnavailable matches a 502 (also 503 and 504) answer of the token
	// endpoint: the gateway could not reach its authentication provider.
	ErrAuthProviderUnavailable = errors.New("gatewayclient: authentication provider unavailable")
)

// maxErrorBody caps the raw body kept in an *APIError or *TokenError.
const maxErrorBody = 64 << 10

// APIError is an answer of the gateway outside 2xx to an API call. Match it with errors.As to
// read the details, or with errors.Is against the sentinels (see Is).
type APIError struct {
	StatusCode int               // HTTP status of the answer
	Kind       UnprocessableKind // for a 422: which of the two kinds (KindValidation by default)
	Title      string            // the body's "error" field, when there is one (e.g. "Validations")
	Messages   []string          // the body's "message" field: one or more messages
	Body       []byte            // raw body, capped at 64 KiB, with any credential or token blanked out
	RetryAfter time.Duration     // from the Retry-After header (429, 503), 0 when absent
	Method     string            // method of the request
	Path       string            // path of the request below the base URL, without the query
}

// Error describes the failure: request, status, and the gateway's messages. It never holds
// the body as such, which may be a large HTML page from a proxy.
func (e *APIError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "gatewayclient: %s %s: %d %s", e.Method, e.Path, e.StatusCode, http.StatusText(e.StatusCode))
	if e.StatusCode == http.StatusUnprocessableEntity && e.Kind != "" {
		fmt.Fprintf(&b, " (%s)", e.Kind)
	} else if e.Title != "" && e.Title != http.StatusText(e.StatusCode) {
		fmt.Fprintf(&b, " (%s)", e.Title)
	}
	if len(e.Messages) > 0 {
		b.WriteString(": ")
		b.WriteString(strings.Join(e.Messages, "; "))
	}
	if e.RetryAfter > 0 {
		fmt.Fprintf(&b, " (retry after %s)", e.RetryAfter)
	}
	return b.String()
}

// Violations reads the messages as "field: message" pairs (see ParseViolation), so that a
// form can show a 422 of the gateway beside the fields it names.
func (e *APIError) Violations() []Violation {
	out := make([]Violation, len(e.Messages))
	for i, m := range e.Messages {
		out[i] = ParseViolation(m)
	}
	return out
}

// Is maps the status to the sentinels: 401 ErrUnauthorized, 403 ErrForbidden, 404 ErrNotFound,
// 422 ErrValidation, 429 ErrRateLimited, 502/503/504 ErrGatewayUnavailable.
func (e *APIError) Is(target error) bool {
	switch e.StatusCode {
	case http.StatusUnauthorized:
		return target == ErrUnauthorized
	case http.StatusForbidden:
		return target == ErrForbidden
	case http.StatusNotFound:
		return target == ErrNotFound
	case http.StatusUnprocessableEntity:
		return target == ErrValidation
	case http.StatusTooManyRequests:
		return target == ErrRateLimited
	case http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return target == ErrGatewayUnavailable
	}
	return false
}

// TokenError is an answer of the token endpoint (POST /auth/token) outside 2xx, or a 2xx
// answer that holds no usable token (StatusCode is then the 2xx status).
type TokenError struct {
	StatusCode int      // HTTP status of the answer
	Title      string   // the body's "error" field, when there is one
	Messages   []string // the body's "message" or "error_description" field
	Body       []byte   // raw body, capped at 64 KiB, with the credentials blanked out
	Reason     string   // set when a 2xx answer was unusable (e.g. "no access_token")
}

// Error describes the failure without the credentials.
func (e *TokenError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "gatewayclient: token request: %d %s", e.StatusCode, http.StatusText(e.StatusCode))
	if s := e.sentinel(); s != nil {
		b.WriteString(": ")
		b.WriteString(strings.TrimPrefix(s.Error(), "gatewayclient: "))
	}
	if e.Reason != "" {
		b.WriteString(": ")
		b.WriteString(e.Reason)
	}
	if len(e.Messages) > 0 {
		b.WriteString(": ")
		b.WriteString(strings.Join(e.Messages, "; "))
	}
	return b.String()
}

func (e *TokenError) sentinel() error {
	switch e.StatusCode {
	case http.StatusBadRequest:
		return ErrMalformedCredentials
	case http.StatusUnauthorized:
		return ErrInvalidCredentials
	case http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return ErrAuthProviderUnavailable
	}
	return nil
}

// Is maps the status to the sentinels: 400 ErrMalformedCredentials, 401 ErrInvalidCredentials
// (and ErrUnauthorized), 502/503/504 ErrAuthProviderUnavailable (and ErrGatewayUnavailable).
func (e *TokenError) Is(target error) bool {
	s := e.sentinel()
	if s == nil {
		return false
	}
	if target == s {
		return true
	}
	switch s {
	case ErrInvalidCredentials:
		return target == ErrUnauthorized
	case ErrAuthProviderUnavailable:
		return target == ErrGatewayUnavailable
	}
	return false
}

// transportError is a failure to get any answer: connection refused or reset, DNS, TLS, a
// per-attempt timeout, an unreadable body. It matches ErrGatewayUnavailable.
type transportError struct {
	op  string // "POST /transaction" or "token request"
	err error
}

func (e *transportError) Error() string { return "gatewayclient: " + e.op + ": " + e.err.Error() }
func (e *transportError) Unwrap() error { return e.err }
func (e *transportError) Is(target error) bool {
	return target == ErrGatewayUnavailable
}

// errorBody is what the client reads from an error answer. Every field is optional and
// tolerated in several shapes (see parseErrorBody).
type errorBody struct {
	title    string
	messages []string
}

// parseErrorBody reads the common shape {"statusCode":422,"error":"…","message":[…]}
// leniently: message may be a string, an array of strings or of other values, or absent;
// OAuth-style bodies ({"error":"invalid_client","error_description":"…"}) are read too;
// a body that is not a JSON object (an HTML page of a proxy, an empty body) gives nothing.
func parseErrorBody(b []byte) errorBody {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return errorBody{}
	}
	var out errorBody
	if v, ok := raw["error"]; ok {
		var s string
		if json.Unmarshal(v, &s) == nil {
			out.title = s
		}
	}
	for _, key := range []string{"message", "error_description"} {
		if v, ok := raw[key]; ok {
			out.messages = append(out.messages, jsonStrings(v)...)
		}
	}
	return out
}

// jsonStrings turns a JSON value into messages: a string, the elements of an array (strings
// as they are, other values as JSON text), or any other value as its JSON text. Null gives none.
func jsonStrings(v json.RawMessage) []string {
	var s string
	if json.Unmarshal(v, &s) == nil {
		if s == "" {
			return nil
		}
		return []string{s}
	}
	var arr []json.RawMessage
	if json.Unmarshal(v, &arr) == nil {
		var out []string
		for _, el := range arr {
			out = append(out, jsonStrings(el)...)
		}
		return out
	}
	t := strings.TrimSpace(string(v))
	if t == "" || t == "null" {
		return nil
	}
	return []string{t}
}

// kindOf reads the kind of a 422 from the body's "error" field. The sandbox spells the two
// kinds as KindInvalidData and KindValidation; other spellings are recognised by keyword.
func kindOf(title string) UnprocessableKind {
	t := strings.ToLower(title)
	switch {
	case t == strings.ToLower(string(KindInvalidData)):
		return KindInvalidData
	case t == strings.ToLower(string(KindValidation)):
		return KindValidation
	case strings.Contains(t, "validation"):
		return KindValidation
	case strings.Contains(t, "invalid") || strings.Contains(t, "missing"):
		return KindInvalidData
	}
	return KindValidation
}

// parseRetryAfter reads a Retry-After header: delay in seconds or an HTTP date (relative to
// now). Absent, malformed or past values give 0.
func parseRetryAfter(h string, now time.Time) time.Duration {
	h = strings.TrimSpace(h)
	if h == "" {
		return 0
	}
	if secs, err := strconv.ParseInt(h, 10, 64); err == nil {
		if secs <= 0 {
			return 0
		}
		const maxSecs = int64(365 * 24 * 3600) // avoid overflow on absurd values
		return time.Duration(min(secs, maxSecs)) * time.Second
	}
	if t, err := http.ParseTime(h); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}
