package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// Strict JSON for the merchant API: the body must be one JSON value with no key repeated in
// any object (encoding/json would silently keep the last one, and two parsers of the same
// request could then disagree); fields are read one by one so that every wrong type, unknown
// field and missing value is reported at once, with its path.

// errJSON is a body that is not well-formed JSON (or repeats a key).
type errJSON struct{ msg string }

func (e *errJSON) Error() string { return e.msg }

// checkJSON reports whether body is exactly one well-formed JSON value whose objects never
// repeat a key.
func checkJSON(body []byte) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := walkJSON(dec, ""); err != nil {
		return err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return &errJSON{"the body must hold one JSON value only"}
	}
	return nil
}

// walkJSON reads one value from dec; path names it in errors.
func walkJSON(dec *json.Decoder, path string) error {
	tok, err := dec.Token()
	if err != nil {
		return &errJSON{"the body is not valid JSON" + near(path) + ": " + cleanJSONError(err)}
	}
	switch tok {
	case json.Delim('{'):
		seen := map[string]bool{}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return &errJSON{"the body is not valid JSON" + near(path) + ": " + cleanJSONError(err)}
			}
			k, _ := kt.(string)
			if seen[k] {
				return &errJSON{fmt.Sprintf("the key %q appears twice%s", k, near(path))}
			}
			seen[k] = true
			if err := walkJSON(dec, joinPath(path, k)); err != nil {
				return err
			}
		}
		_, err = dec.Token() // }
	case json.Delim('['):
		for i := 0; dec.More(); i++ {
			if err := walkJSON(dec, fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		_, err = dec.Token() // ]
	}
	if err != nil {
		return &errJSON{"the body is not valid JSON" + near(path) + ": " + cleanJSONError(err)}
	}
	return nil
}

func near(path string) string {
	if path == "" {
		return ""
	}
	return " (in " + path + ")"
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// cleanJSONError drops the "json: " prefix of encoding/json's messages.
func cleanJSONError(err error) string {
	return strings.TrimPrefix(err.Error(), "json: ")
}

// fieldReader reads the fields of JSON objects, collecting violations by path.
type fieldReader struct {
	fe checkout.FieldErrors
}

func (r *fieldReader) add(path, code, msg string) {
	if r.fe.Fields == nil {
		r.fe.Fields = map[string][]gatewayclient.Violation{}
	}
	r.fe.Fields[path] = append(r.fe.Fields[path], gatewayclient.Violation{Field: path, Code: code, Message: msg})
}

// err returns the violations, or nil.
func (r *fieldReader) err() error {
	if len(r.fe.Fields) == 0 {
		return nil
	}
	return &r.fe
}

func kindOf(raw json.RawMessage) string {
	raw = bytes.TrimLeft(raw, " \t\r\n")
	if len(raw) == 0 {
		return "absent"
	}
	switch raw[0] {
	case '"':
		return "string"
	case '{':
		return "object"
	case '[':
		return "array"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}

// object reads raw as an object whose keys must be among allowed; absent or null is (nil,
// false) without a violation.
func (r *fieldReader) object(path string, raw json.RawMessage, allowed ...string) (map[string]json.RawMessage, bool) {
	switch kindOf(raw) {
	case "absent", "null":
		return nil, false
	case "object":
	default:
		r.add(pathOr(path), gatewayclient.CodeType, "must be an object")
		return nil, false
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		r.add(pathOr(path), gatewayclient.CodeType, "must be an object")
		return nil, false
	}
	if allowed != nil {
		ok := map[string]bool{}
		for _, k := range allowed {
			ok[k] = true
		}
		for _, k := range sortedKeys(m) {
			if !ok[k] {
				r.add(joinPath(path, k), "unknown_field", "is not a field of this object (fields: "+strings.Join(allowed, ", ")+")")
			}
		}
	}
	return m, true
}

func pathOr(path string) string {
	if path == "" {
		return "body"
	}
	return path
}

// array reads raw as an array; absent or null is nil.
func (r *fieldReader) array(path string, raw json.RawMessage) []json.RawMessage {
	switch kindOf(raw) {
	case "absent", "null":
		return nil
	case "array":
	default:
		r.add(path, gatewayclient.CodeType, "must be an array")
		return nil
	}
	var out []json.RawMessage
	if err := json.Unmarshal(raw, &out); err != nil {
		r.add(path, gatewayclient.CodeType, "must be an array")
	}
	return out
}

// str reads a string; absent or null is "".
func (r *fieldReader) str(path string, raw json.RawMessage) string {
	switch kindOf(raw) {
	case "absent", "null":
		return ""
	case "string":
		var s string
		if err := json.Unmarshal(raw, &s); err == nil {
			return s
		}
	}
	r.add(path, gatewayclient.CodeType, "must be a string")
	return ""
}

// integer reads a JSON integer (no fraction, no exponent); absent or null is 0, false. A value
// out of int64 is a max or min violation.
func (r *fieldReader) integer(path string, raw json.RawMessage) (int64, bool) {
	switch kindOf(raw) {
	case "absent", "null":
		return 0, false
	case "number":
	default:
		r.add(path, gatewayclient.CodeType, "must be a number")
		return 0, false
	}
	s := string(bytes.TrimSpace(raw))
	if strings.ContainsAny(s, ".eE") {
		r.add(path, gatewayclient.CodeInteger, "must be an integer (amounts are in cents)")
		return 0, false
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		code := gatewayclient.CodeMax
		if strings.HasPrefix(s, "-") {
			code = gatewayclient.CodeMin
		}
		r.add(path, code, "is out of range")
		return 0, false
	}
	return v, true
}

// smallInt is integer for counts and seconds, clamped into int's range.
func (r *fieldReader) smallInt(path string, raw json.RawMessage) int {
	v, ok := r.integer(path, raw)
	if !ok {
		return 0
	}
	const limit = 1 << 30
	return int(max(min(v, limit), -limit))
}

// stringMap reads an object of string values.
func (r *fieldReader) stringMap(path string, raw json.RawMessage) map[string]string {
	m, ok := r.object(path, raw)
	if !ok {
		return nil
	}
	out := make(map[string]string, len(m))
	for _, k := range sortedKeys(m) {
		if kindOf(m[k]) != "string" {
			r.add(path+"."+k, gatewayclient.CodeType, "must be a string")
			continue
		}
		out[k] = r.str(path+"."+k, m[k])
	}
	return out
}
