package strictjson

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	gc "github.com/pixcheckout/pixcheckout/gatewayclient"
)

// CodeUnknownField is the code of a key an object may not have (see Reader.Object).
const CodeUnknownField = "unknown_field"

// Reader reads parsed values into Go values. Each value that cannot be read adds a violation
// with the path the caller names it by and a gatewayclient code (CodeType, CodeInteger,
// CodeUnknownField), and reading goes on, so that Violations holds them all. An absent or
// null value reads as the zero value without a violation: whether a field is required is the
// caller's rule, which it adds with Add, in order with the Reader's. The zero Reader is ready
// to use.
type Reader struct {
	gc.ValidationError
}

// Object reads v as an object and reports whether it is one. When fields are given, each
// other key of v is a CodeUnknownField violation (a misspelt field is an error instead of
// being silently ignored). Any other type is a CodeType violation at path.
func (r *Reader) Object(path string, v Value, fields ...string) (Value, bool) {
	switch v.kind {
	case Absent, Null:
		return Value{}, false
	case Object:
	default:
		r.Add(path, gc.CodeType, "must be an object")
		return Value{}, false
	}
	if fields != nil {
		for _, m := range v.members {
			if !slices.Contains(fields, m.Key) {
				r.Add(joinPath(path, m.Key), CodeUnknownField, "is not a field of this object (fields: "+strings.Join(fields, ", ")+")")
			}
		}
	}
	return v, true
}

// Array returns the elements of the array v; any other type is a CodeType violation.
func (r *Reader) Array(path string, v Value) []Value {
	switch v.kind {
	case Absent, Null:
	case Array:
		return v.elems
	default:
		r.Add(path, gc.CodeType, "must be an array")
	}
	return nil
}

// String returns the string v; any other type is a CodeType violation.
func (r *Reader) String(path string, v Value) string {
	switch v.kind {
	case Absent, Null:
	case String:
		return v.text
	default:
		r.Add(path, gc.CodeType, "must be a string")
	}
	return ""
}

// Bool returns the boolean v and whether it was given; any other type is a CodeType
// violation.
func (r *Reader) Bool(path string, v Value) (b, ok bool) {
	switch v.kind {
	case Absent, Null:
	case Bool:
		return v.text == "true", true
	default:
		r.Add(path, gc.CodeType, "must be a boolean")
	}
	return false, false
}

// Int returns the integer v, of bitSize bits, and whether one was read. Another type is a
// CodeType violation; a number with a fraction or an exponent (1.5, 100.0, 1e3) is a
// CodeInteger violation. An integer too large for bitSize bits is read as the nearest value
// that fits, so that the caller's range rule reports it against its own limits.
func (r *Reader) Int(path string, v Value, bitSize int) (int64, bool) {
	return r.integer(path, v, bitSize, "must be an integer")
}

// Cents is Int for an amount of money, in integer cents.
func (r *Reader) Cents(path string, v Value) (gc.Cents, bool) {
	n, ok := r.integer(path, v, 64, "must be an integer number of cents")
	return gc.Cents(n), ok
}

func (r *Reader) integer(path string, v Value, bitSize int, notInteger string) (int64, bool) {
	switch v.kind {
	case Absent, Null:
		return 0, false
	case Number:
	default:
		r.Add(path, gc.CodeType, "must be a number")
		return 0, false
	}
	if strings.ContainsAny(v.text, ".eE") {
		r.Add(path, gc.CodeInteger, notInteger)
		return 0, false
	}
	n, err := strconv.ParseInt(v.text, 10, bitSize)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		r.Add(path, gc.CodeInteger, notInteger)
		return 0, false
	}
	return n, true
}
