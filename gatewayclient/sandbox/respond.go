package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"

	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// maxBodyBytes bounds every request body the sandbox reads.
const maxBodyBytes = 1 << 20

// errorBody is the NestJS-style error body: message is a string, or a list of
// "field: message" strings for 422.
type errorBody struct {
	StatusCode int    `json:"statusCode"`
	Error      string `json:"error"`
	Message    any    `json:"message"`
}

// apiError is an error that maps to one HTTP answer. Handlers return it; respondError writes
// it. Any other error becomes a 500 whose body reveals nothing.
type apiError struct {
	status     int
	kind       string // the "error" field; http.StatusText(status) when empty
	message    any    // string or []string
	retryAfter int    // seconds, for the Retry-After header of a 429 (0: 1 second)
}

func (e *apiError) Error() string { return fmt.Sprintf("%d %v", e.status, e.message) }

func newAPIError(status int, format string, args ...any) *apiError {
	return &apiError{status: status, message: fmt.Sprintf(format, args...)}
}

// unprocessable turns a *gatewayclient.ValidationError into the 422 answer.
func unprocessable(ve *gatewayclient.ValidationError) *apiError {
	msgs := make([]string, len(ve.Violations))
	for i, v := range ve.Violations {
		msgs[i] = v.String()
	}
	kind := ve.Kind
	if kind == "" {
		kind = gatewayclient.KindValidation
	}
	return &apiError{status: http.StatusUnprocessableEntity, kind: string(kind), message: msgs}
}

// violation builds a 422 with one violation.
func violation(kind gatewayclient.UnprocessableKind, field, code, msg string) *apiError {
	return unprocessable(&gatewayclient.ValidationError{Kind: kind,
		Violations: []gatewayclient.Violation{{Field: field, Code: code, Message: msg}}})
}

// writeJSON writes v with the given status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, `{"statusCode":500,"error":"Internal Server Error","message":"internal error"}`, http.StatusInternalServerError)
		return
	}
	writeRawJSON(w, status, b)
}

// writeRawJSON writes an already encoded JSON body.
func writeRawJSON(w http.ResponseWriter, status int, b []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(b)))
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// respondError writes err as the API's error body. Errors that are not *apiError or
// *gatewayclient.ValidationError are logged and answered with a bare 500.
func (s *Sandbox) respondError(w http.ResponseWriter, r *http.Request, err error) {
	var ae *apiError
	var ve *gatewayclient.ValidationError
	switch {
	case errors.As(err, &ae):
	case errors.As(err, &ve):
		ae = unprocessable(ve)
	default:
		s.log.LogAttrs(r.Context(), slog.LevelError, "sandbox: internal error",
			slog.String("method", r.Method), slog.String("path", r.URL.Path), slog.Any("err", err))
		ae = &apiError{status: http.StatusInternalServerError, message: "internal error"}
	}
	if ae.status == http.StatusTooManyRequests && w.Header().Get("Retry-After") == "" {
		w.Header().Set("Retry-After", strconv.Itoa(max(ae.retryAfter, 1)))
	}
	kind := ae.kind
	if kind == "" {
		kind = http.StatusText(ae.status)
	}
	writeJSON(w, ae.status, errorBody{StatusCode: ae.status, Error: kind, Message: ae.message})
}

// violationFromError turns an error worded "field: message" into a 422 of kind Validations.
func violationFromError(err error) *apiError {
	v := gatewayclient.ParseViolation(err.Error())
	return violation(gatewayclient.KindValidation, v.Field, "invalid", v.Message)
}
