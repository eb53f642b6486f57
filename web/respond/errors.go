package respond

import (
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strings"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/views"
)

// HTTPStatus is the one mapping from the domain's error codes to HTTP statuses, for pages and
// JSON alike. The gateway's own trouble is ours to the client: a 429 of the gateway is a 503
// here (the client did nothing too fast), and refused credentials a 502.
func HTTPStatus(code checkout.Code) int {
	switch code {
	case checkout.CodeInvalid, checkout.CodeIdempotencyReused:
		return http.StatusUnprocessableEntity
	case checkout.CodeUnauthorized:
		return http.StatusUnauthorized
	case checkout.CodeForbidden:
		return http.StatusForbidden
	case checkout.CodeNotFound:
		return http.StatusNotFound
	case checkout.CodeConflict, checkout.CodeEmptyCart:
		return http.StatusConflict
	case checkout.CodeRateLimited, checkout.CodeUnavailable, checkout.CodeCanceled:
		return http.StatusServiceUnavailable
	case checkout.CodeGatewayAuth:
		return http.StatusBadGateway
	case checkout.CodeTooManyAttempts:
		return http.StatusTooManyRequests
	}
	return http.StatusInternalServerError
}

// errorText is the localised explanation a page gives for a code; "" leaves the page's generic
// one (and, for not_found, the not-found page).
func errorText(lang views.Lang, code checkout.Code) string {
	switch code {
	case checkout.CodeRateLimited, checkout.CodeUnavailable, checkout.CodeGatewayAuth:
		return views.T(lang, views.MsgGatewayDown)
	}
	return ""
}

// LogError writes err to the log at the level its code deserves: the gateway's trouble is a
// warning, anything unexpected an error; a client's mistake (not found, invalid) is not logged.
func (s *Site) LogError(r *http.Request, err error, code checkout.Code) {
	ctx := r.Context()
	switch code {
	case checkout.CodeInternal:
		s.Log.ErrorContext(ctx, "handler", "request_id", RequestID(ctx), "route", RoutePattern(ctx), "err", err)
	case checkout.CodeRateLimited, checkout.CodeUnavailable, checkout.CodeGatewayAuth, checkout.CodeConflict:
		s.Log.WarnContext(ctx, "handler", "request_id", RequestID(ctx), "route", RoutePattern(ctx), "code", string(code), "err", err)
	}
}

// Fail answers err with the error page its code calls for (see HTTPStatus). notFound, when
// given, explains a not_found (what was not found) instead of the plain not-found page. The
// cause goes to the log, never to the page.
func (s *Site) Fail(w http.ResponseWriter, r *http.Request, err error, notFound ...string) {
	code := checkout.ErrorCode(err)
	s.LogError(r, err, code)
	text := errorText(Lang(r), code)
	if code == checkout.CodeNotFound && len(notFound) > 0 {
		text = notFound[0]
	}
	s.ErrorMessage(w, r, HTTPStatus(code), text)
}

// ErrorBody is the JSON body of every error answered as JSON: a machine code (checkout's
// codes), a message in English, the violations of invalid input by field, and the request id
// to quote to support. Nothing else of the cause is ever shown.
type ErrorBody struct {
	Error ErrorDetail `json:"error"`
}

// ErrorDetail is the content of an ErrorBody.
type ErrorDetail struct {
	Code      string        `json:"code"`
	Message   string        `json:"message"`
	Fields    []FieldDetail `json:"fields,omitempty"`
	RequestID string        `json:"requestId,omitempty"`
}

// FieldDetail is one violation of invalid input: the field's path in the request (as the
// gateway names it: customer.document, items[1].unitPrice), a code and a message.
type FieldDetail struct {
	Field   string `json:"field"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

// errorMessages are the English messages of the codes, for JSON answers.
var errorMessages = map[checkout.Code]string{
	checkout.CodeInvalid:           "the request is invalid",
	checkout.CodeNotFound:          "not found",
	checkout.CodeConflict:          "the request conflicts with the current state",
	checkout.CodeEmptyCart:         "the cart is empty",
	checkout.CodeRateLimited:       "the payment gateway is busy; retry in a moment",
	checkout.CodeUnavailable:       "the payment gateway is unavailable; retry in a moment",
	checkout.CodeGatewayAuth:       "the payment gateway refused the checkout's credentials",
	checkout.CodeCanceled:          "the request was canceled",
	checkout.CodeUnauthorized:      "a valid API key is required (Authorization: Bearer <key>)",
	checkout.CodeForbidden:         "this API key may not do this",
	checkout.CodeIdempotencyReused: "this Idempotency-Key was used with another request body",
	checkout.CodeTooManyAttempts:   "too many failed attempts; wait before retrying",
	checkout.CodeInternal:          "internal error",
}

// errorBody builds the JSON error of err.
func errorBody(r *http.Request, err error, code checkout.Code) ErrorBody {
	d := ErrorDetail{Code: string(code), Message: errorMessages[code], RequestID: RequestID(r.Context())}
	var ce *checkout.Error
	if code != checkout.CodeInternal && errors.As(err, &ce) {
		d.Message = ce.Message
	}
	if ve := (*checkout.ValidationError)(nil); errors.As(err, &ve) {
		// By field, each field's in the order found: the same request always reads the same.
		for _, v := range slices.SortedStableFunc(slices.Values(ve.Violations), func(a, b checkout.Violation) int {
			return strings.Compare(a.Field, b.Field)
		}) {
			d.Fields = append(d.Fields, FieldDetail{Field: v.Field, Code: v.Code, Message: v.Message})
		}
	}
	return ErrorBody{Error: d}
}

// FailJSON answers err as JSON with the status its code calls for.
func (s *Site) FailJSON(w http.ResponseWriter, r *http.Request, err error) {
	code := checkout.ErrorCode(err)
	s.LogError(r, err, code)
	JSON(w, HTTPStatus(code), errorBody(r, err, code))
}

// JSON answers v as JSON with status (and a final newline).
func JSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		// Only a value that cannot be JSON (a programming error) gets here.
		status, b = http.StatusInternalServerError, []byte(`{"error":{"code":"internal","message":"internal error"}}`)
	}
	h := w.Header()
	SetJSONHeaders(h)
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}
