package brcode

import (
	"errors"
	"fmt"
)

// Sentinels matched with errors.Is against the *Error values this package returns.
var (
	// ErrFormat marks a payload whose structure is broken: a truncated data object, an ID or
	// length that is not two digits, a duplicated field, a character outside printable ASCII,
	// a payload longer than 512 characters, or field 63 missing or not last.
	ErrFormat = errors.New("brcode: malformed payload")
	// ErrCRC marks a payload whose field 63 does not match the CRC16 of what precedes it.
	ErrCRC = errors.New("brcode: CRC mismatch")
	// ErrInvalid marks a field that breaks a rule of the BR Code (see the package doc), or a
	// mandatory field that is missing.
	ErrInvalid = errors.New("brcode: invalid field")
)

// Error is the error of Encode, Decode and ParseTLV: which field, what is wrong with it, and
// which of ErrFormat, ErrCRC or ErrInvalid it is (errors.Is works with all three).
type Error struct {
	// Field is the field's ID path: "59", or "26.01" for a sub-field of a template. It is
	// empty when the error concerns the payload as a whole.
	Field string
	// Reason says what is wrong, in words.
	Reason string
	// Kind is ErrFormat, ErrCRC or ErrInvalid.
	Kind error
}

// Error returns a message naming the field by ID and by name, e.g.
// "brcode: field 59 (merchant name): 26 characters, at most 25".
func (e *Error) Error() string {
	if e.Field == "" {
		return "brcode: " + e.Reason
	}
	if name := FieldName(e.Field); name != "" {
		return fmt.Sprintf("brcode: field %s (%s): %s", e.Field, name, e.Reason)
	}
	return fmt.Sprintf("brcode: field %s: %s", e.Field, e.Reason)
}

// Unwrap returns Kind, so that errors.Is(err, ErrCRC) and the like work.
func (e *Error) Unwrap() error { return e.Kind }

// FieldName returns the name of a field given its ID path ("59", "26.01"), or "" for a field
// this package does not know by name.
func FieldName(path string) string { //nolint:gocyclo // one case per field name of the EMV layout: a lookup table, not logic
	switch path {
	case "00":
		return "payload format indicator"
	case "01":
		return "point of initiation method"
	case "26":
		return "merchant account information"
	case "26.00":
		return "GUI"
	case "26.01":
		return "PIX key"
	case "26.02":
		return "additional information"
	case "26.25":
		return "location URL"
	case "52":
		return "merchant category code"
	case "53":
		return "transaction currency"
	case "54":
		return "transaction amount"
	case "58":
		return "country code"
	case "59":
		return "merchant name"
	case "60":
		return "merchant city"
	case "61":
		return "postal code"
	case "62":
		return "additional data field template"
	case "62.05":
		return "txid"
	case "63":
		return "CRC16"
	}
	return ""
}

func formatErr(field, format string, args ...any) *Error {
	return &Error{Field: field, Reason: fmt.Sprintf(format, args...), Kind: ErrFormat}
}

func invalidErr(field, format string, args ...any) *Error {
	return &Error{Field: field, Reason: fmt.Sprintf(format, args...), Kind: ErrInvalid}
}
