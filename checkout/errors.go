package checkout

import (
	"context"
	"errors"
	"strings"

	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// Code says what kind of failure an error of the checkout is, so that every caller (the shopper
// pages, the dashboard, the merchant API) answers it the same way: web maps each code to one
// HTTP status and one message. ErrorCode finds the code of any error.
type Code string

// Error codes.
const (
	// CodeInvalid: the input breaks a rule; the error is a *ValidationError naming each field.
	CodeInvalid Code = "invalid"
	// CodeNotFound: no product, cart, order (or deposit of ours) has that id.
	CodeNotFound Code = "not_found"
	// CodeConflict: the request cannot be done in the record's present state (a concurrent
	// update, a transition the table refuses, a new QR code for a paid order...).
	CodeConflict Code = "conflict"
	// CodeEmptyCart: an order cannot be placed from an empty cart.
	CodeEmptyCart Code = "empty_cart"
	// CodeRateLimited: the gateway asks us to slow down (its 429); retry later.
	CodeRateLimited Code = "rate_limited"
	// CodeUnavailable: the gateway did not answer, or answered with a server error. Nothing was
	// lost: the order is stored and its attempt retried with the same idempotency key.
	CodeUnavailable Code = "unavailable"
	// CodeGatewayAuth: the gateway refused the checkout's credentials or their permissions (its
	// 401 or 403): the merchant must fix the configuration.
	CodeGatewayAuth Code = "gateway_auth"
	// CodeTooManyAttempts: the caller failed too often and must wait (the dashboard's sign-in
	// throttling); unlike CodeRateLimited, it is the caller's doing, not the gateway's.
	CodeTooManyAttempts Code = "too_many_attempts"
	// CodeCanceled: the caller went away (its context ended) before the work was done.
	CodeCanceled Code = "canceled"
	// CodeUnauthorized: the caller did not prove who it is: the merchant API was called without
	// a valid API key, or the dashboard's sign-in got a wrong e-mail or password (the same
	// answer whatever was wrong, so it tells nothing).
	CodeUnauthorized Code = "unauthorized"
	// CodeForbidden: the caller is who it says but may not do this: a read-only API key asked
	// to write.
	CodeForbidden Code = "forbidden"
	// CodeIdempotencyReused: an Idempotency-Key was sent again with another request body.
	CodeIdempotencyReused Code = "idempotency_key_reused"
	// CodeInternal: anything else; the cause goes to the log only, never to the user.
	CodeInternal Code = "internal"
)

// Error is an error of the checkout with a code. Message is plain English for logs and for
// developers (the merchant API shows it); pages show their own localised text by code.
type Error struct {
	Code    Code
	Message string
}

// Error returns "checkout: " and the message.
func (e *Error) Error() string { return "checkout: " + e.Message }

// Errors of the store and the service. Match them with errors.Is; ErrorCode gives their code.
var (
	// ErrNotFound: no product, cart or order has that id.
	ErrNotFound = &Error{Code: CodeNotFound, Message: "not found"}
	// ErrConflict: the order changed since it was read (stale Version); read it again.
	ErrConflict = &Error{Code: CodeConflict, Message: "concurrent update"}
	// ErrInvalidTransition: the order may not move to that state (see CanTransition).
	ErrInvalidTransition = &Error{Code: CodeConflict, Message: "invalid status transition"}
	// ErrEmptyCart: an order cannot be placed from an empty cart.
	ErrEmptyCart = &Error{Code: CodeEmptyCart, Message: "the cart is empty"}
	// ErrNotRenewable: a new QR code is only made for an expired or failed order.
	ErrNotRenewable = &Error{Code: CodeConflict, Message: "the order cannot get a new QR code"}
)

// ErrorCode returns the code of err: its *Error's or *ValidationError' own; for an error of the
// gateway client, CodeInvalid (a request refused by validation or by the gateway's 422),
// CodeNotFound (404), CodeRateLimited (429), CodeUnavailable (5xx, network, timeout) or
// CodeGatewayAuth (credentials); a done context as CodeCanceled; CodeInternal for anything
// else. A nil error has no code ("").
func ErrorCode(err error) Code {
	var fe *ValidationError
	var e *Error
	switch {
	case err == nil:
		return ""
	case errors.As(err, &fe):
		return CodeInvalid
	case errors.As(err, &e):
		return e.Code
	case errors.Is(err, gatewayclient.ErrValidation):
		return CodeInvalid
	case errors.Is(err, gatewayclient.ErrNotFound):
		return CodeNotFound
	case errors.Is(err, gatewayclient.ErrRateLimited):
		return CodeRateLimited
	case errors.Is(err, gatewayclient.ErrUnauthorized), errors.Is(err, gatewayclient.ErrForbidden),
		errors.Is(err, gatewayclient.ErrInvalidCredentials), errors.Is(err, gatewayclient.ErrMalformedCredentials):
		return CodeGatewayAuth
	case errors.Is(err, gatewayclient.ErrGatewayUnavailable), errors.Is(err, context.DeadlineExceeded):
		return CodeUnavailable
	case errors.Is(err, context.Canceled):
		return CodeCanceled
	}
	return CodeInternal
}

// GatewayProblem says in a few words of English what a failed gateway call met, for the log
// line that reports it: a refusal of the credentials is never "did not answer".
func GatewayProblem(err error) string {
	switch {
	case errors.Is(err, gatewayclient.ErrInvalidCredentials), errors.Is(err, gatewayclient.ErrMalformedCredentials),
		errors.Is(err, gatewayclient.ErrUnauthorized):
		return "gateway refused the credentials"
	case errors.Is(err, gatewayclient.ErrForbidden):
		return "gateway refused the permission"
	case errors.Is(err, gatewayclient.ErrNotFound):
		return "gateway answered 404 (check the URL's path prefix)"
	case errors.Is(err, gatewayclient.ErrRateLimited), errors.Is(err, gatewayclient.ErrPaced):
		return "gateway asked to slow down"
	case errors.Is(err, context.DeadlineExceeded):
		return "gateway did not answer in time"
	case errors.Is(err, gatewayclient.ErrGatewayUnavailable):
		var api *gatewayclient.APIError
		if errors.As(err, &api) {
			return "gateway answered a server error"
		}
		return "gateway did not answer"
	case errors.Is(err, context.Canceled):
		return "gateway call canceled"
	}
	return "gateway call failed"
}

// Names of the input fields of the shopper's forms: the Field of the checkout's own violations
// and the names of the form inputs themselves. FormField maps the gateway's field paths onto
// them.
const (
	FieldProductID    = "product_id" // the product to add to a cart
	FieldQuantity     = "quantity"   // a cart line's quantity
	FieldRequestKey   = "request_key"
	FieldName         = "name"
	FieldDocument     = "document"
	FieldEmail        = "email"
	FieldPhone        = "phone"
	FieldZipCode      = "zip_code"
	FieldStreet       = "street"
	FieldNumber       = "number"
	FieldComplement   = "complement"
	FieldNeighborhood = "neighborhood"
	FieldCity         = "city"
	FieldState        = "state"
	FieldCountry      = "country"
	FieldAddress      = "address" // the whole address block (missing for a physical cart)
	FieldCart         = "cart"    // the cart as a whole: amount, items, unavailable products
	FieldForm         = ""        // anything else: shown in the summary only
)

// CustomerFields are the customer's fields of the order form, in the order a form shows them.
func CustomerFields() []string {
	return []string{FieldName, FieldDocument, FieldEmail, FieldPhone}
}

// AddressFields are the shipping address's fields of the order form, in the order a form shows
// them: the CEP first (its lookup fills the street, neighbourhood, city and state), the number
// beside it. Complement is the only optional one. The country is not asked: a PIX payment is
// Brazilian, and the order records Brasil (FieldCountry only names the gateway's field).
func AddressFields() []string {
	return []string{FieldZipCode, FieldNumber, FieldStreet, FieldComplement, FieldNeighborhood,
		FieldCity, FieldState}
}

// formFields maps the gateway's request paths to form field names.
var formFields = map[string]string{
	"customer.name":        FieldName,
	"customer.document":    FieldDocument,
	"customer.email":       FieldEmail,
	"customer.mobilePhone": FieldPhone,
	"customer.landline":    FieldPhone,
	"address":              FieldAddress,
	"address.zipCode":      FieldZipCode,
	"address.street":       FieldStreet,
	"address.number":       FieldNumber,
	"address.complement":   FieldComplement,
	"address.neighborhood": FieldNeighborhood,
	"address.city":         FieldCity,
	"address.state":        FieldState,
	"address.country":      FieldCountry,
	"amount":               FieldCart,
	"items":                FieldCart,
	"idempotencyKey":       FieldRequestKey,
	// The checkout's own rules name the form's fields.
	FieldName: FieldName, FieldDocument: FieldDocument, FieldEmail: FieldEmail, FieldPhone: FieldPhone,
	FieldZipCode: FieldZipCode, FieldStreet: FieldStreet, FieldNumber: FieldNumber, FieldComplement: FieldComplement,
	FieldNeighborhood: FieldNeighborhood, FieldCity: FieldCity, FieldState: FieldState, FieldCountry: FieldCountry,
	FieldCart: FieldCart, FieldRequestKey: FieldRequestKey, FieldQuantity: FieldQuantity,
	FieldProductID: FieldProductID,
}

// FormField returns the customer form's field for the path of a violation: customer.document ->
// "document", address.zipCode -> "zip_code", amount and items[i].* -> "cart", a form field's
// own name (zip_code) -> itself; FieldForm for a path the form has no field for.
func FormField(path string) string {
	if f, ok := formFields[path]; ok {
		return f
	}
	if strings.HasPrefix(path, "items[") || strings.HasPrefix(path, "items.") {
		return FieldCart
	}
	return FieldForm
}

// FormViolations groups the violations of ve by the customer form's field they concern
// (FormField of their path), each field's in the order found.
func FormViolations(ve *ValidationError) map[string][]Violation {
	out := map[string][]Violation{}
	if ve != nil {
		for _, v := range ve.Violations {
			f := FormField(v.Field)
			out[f] = append(out[f], v)
		}
	}
	return out
}

// fieldErrors returns the violations vs as an error; nil when there are none.
func fieldErrors(vs []Violation) *ValidationError {
	return (&ValidationError{Kind: gatewayclient.KindValidation, Violations: vs}).OrNil()
}

// fieldError is one violation of one field.
func fieldError(field, code, msg string) *ValidationError {
	return fieldErrors([]Violation{{Field: field, Code: code, Message: msg}})
}
