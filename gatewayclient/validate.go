package gatewayclient

import (
	"errors"
	"strings"
)

// ErrValidation matches (with errors.Is) every validation failure: a *ValidationError found by
// the client before sending, and an *APIError for a 422 answer of the gateway.
var ErrValidation = errors.New("gatewayclient: validation failed")

// UnprocessableKind tells the two kinds of 422 apart.
type UnprocessableKind string

// The two kinds of 422 (see the package doc): the data could not be read as the API's types
// (malformed JSON, wrong type, missing required field, unknown enum value), or it was read but
// a rule failed.
const (
	KindInvalidData UnprocessableKind = "Invalid or missing data"
	KindValidation  UnprocessableKind = "Validations"
)

// Violation is one failed rule: the field's path in the request (customer.document,
// items[2].unitPrice, status[1]), a machine-readable code and a human-readable message.
type Violation struct {
	Field   string
	Code    string
	Message string
}

// String formats v as the gateway's error messages do: "field: message".
func (v Violation) String() string {
	if v.Field == "" {
		return v.Message
	}
	return v.Field + ": " + v.Message
}

// ParseViolation reads a message written by Violation.String back into a Violation (Code is
// left empty: it does not travel over the wire).
func ParseViolation(s string) Violation {
	field, msg, ok := strings.Cut(s, ": ")
	if !ok || field == "" || strings.ContainsAny(field, " \t") {
		return Violation{Message: s}
	}
	return Violation{Field: field, Message: msg}
}

// ValidationError reports every violation found in a request at once.
type ValidationError struct {
	Kind       UnprocessableKind
	Violations []Violation
}

// Error lists the violations.
func (e *ValidationError) Error() string {
	parts := make([]string, len(e.Violations))
	for i, v := range e.Violations {
		parts[i] = v.String()
	}
	return "gatewayclient: invalid request: " + strings.Join(parts, "; ")
}

// Is makes errors.Is(err, ErrValidation) true.
func (e *ValidationError) Is(target error) bool { return target == ErrValidation }

// Validate checks every rule of the spec and reports every violation at once as a
// *ValidationError (nil when the request is valid).
func (r *CreateTransactionRequest) Validate() error {
	return nil // TODO(validation helper): implement
}
