package respond

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// TestHTTPStatusOfEveryCode: one status per code, and anything unknown is a 500.
func TestHTTPStatusOfEveryCode(t *testing.T) {
	want := map[checkout.Code]int{
		checkout.CodeInvalid: 422, checkout.CodeNotFound: 404, checkout.CodeConflict: 409,
		checkout.CodeEmptyCart: 409, checkout.CodeRateLimited: 503, checkout.CodeUnavailable: 503,
		checkout.CodeCanceled: 503, checkout.CodeGatewayAuth: 502, checkout.CodeInternal: 500, "whatever": 500,
		checkout.CodeUnauthorized: 401, checkout.CodeIdempotencyReused: 422,
		checkout.CodeTooManyAttempts: 429, checkout.CodeForbidden: 403,
	}
	for code, status := range want {
		if got := HTTPStatus(code); got != status {
			t.Errorf("HTTPStatus(%q) = %d, want %d", code, got, status)
		}
		if code != "whatever" && errorMessages[code] == "" && code != checkout.CodeInternal {
			t.Errorf("no JSON message for %q", code)
		}
	}
}

// TestFailJSON: the one JSON error shape, with the violations by field path, and nothing of an
// internal error's cause.
func TestFailJSON(t *testing.T) {
	s := &Site{Log: slog.New(slog.DiscardHandler)}
	fe := &checkout.ValidationError{Violations: []checkout.Violation{
		{Field: "customer.document", Code: "document", Message: "must be a valid CPF or CNPJ"},
	}}
	for _, tc := range []struct {
		err    error
		status int
		code   string
		fields int
	}{
		{fmt.Errorf("placing: %w", fe), 422, "invalid", 1},
		{fmt.Errorf("order: %w", checkout.ErrNotFound), 404, "not_found", 0},
		{errors.New("secret database detail"), 500, "internal", 0},
	} {
		w := httptest.NewRecorder()
		s.FailJSON(w, httptest.NewRequest(http.MethodGet, "/", nil), tc.err)
		var body ErrorBody
		if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
			t.Fatalf("%v: body %q: %v", tc.err, w.Body, err)
		}
		if w.Code != tc.status || body.Error.Code != tc.code || len(body.Error.Fields) != tc.fields || body.Error.Message == "" {
			t.Errorf("%v: %d %+v; want %d %s with %d fields", tc.err, w.Code, body, tc.status, tc.code, tc.fields)
		}
		if strings.Contains(w.Body.String(), "secret") {
			t.Errorf("the cause of an internal error leaked: %s", w.Body)
		}
	}
}
