// Package strictjson reads untrusted JSON strictly, for servers. [Parse] accepts a body only
// when it is exactly one JSON value, no object in it repeats a key (encoding/json would keep
// the last one silently, and two parsers of the same request could then disagree on what it
// says) and nothing in it nests deeper than [MaxDepth]. A [Reader] then reads the values it
// holds into Go values field by field, collecting a violation, named by the value's path
// (items[1].unitPrice), for every value of the wrong type and every unknown field, so that a
// request's problems are all reported at once.
//
// The gateway's request decoding (gatewayclient/decode) and the checkout's merchant API both
// read their bodies with it.
package strictjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// MaxDepth is how deeply arrays and objects may nest in a body: the body's own object or array
// is the first level. The deepest request either API expects nests three levels (a free
// metadata object adds what its sender puts in it), and 64 is also the default of .NET's
// System.Text.Json; a body nested deeper is refused as soon as the reader reaches level 65,
// having kept only one small frame per level (never a path string per level), so that however
// deep the body goes its cost stays that of 64 levels.
const MaxDepth = 64

// maxDuplicates bounds the repeated keys an Error lists: each is a path, and a body of many
// repetitions inside a long path must not cost memory quadratic in its size.
const maxDuplicates = 100

// Problem is what makes a body not strict JSON.
type Problem int

// The problems of Error.
const (
	// Syntax: the body is not well-formed JSON (or is empty).
	Syntax Problem = iota + 1
	// Trailing: the body holds something after its first value.
	Trailing
	// TooDeep: arrays and objects nest deeper than MaxDepth.
	TooDeep
	// Duplicate: an object gives a key more than once.
	Duplicate
)

// Error says why Parse refused a body.
type Error struct {
	Problem Problem
	// Path is where: the value that could not be read (Syntax), the array or object one level
	// too deep (TooDeep), the object that repeats Key (Duplicate); "" is the body itself.
	Path string
	// Key is the first key given twice (Duplicate).
	Key string
	// Detail is encoding/json's reason (Syntax).
	Detail string
	// Duplicates holds the path of each repetition of a key (Duplicate), in the order of the
	// body; the first 100 when there are more.
	Duplicates []string
}

// Error says what is wrong, where, in words for the sender of the body.
func (e *Error) Error() string {
	switch e.Problem {
	case Trailing:
		return "the body must hold one JSON value only"
	case TooDeep:
		return fmt.Sprintf("the body nests arrays and objects deeper than %d levels%s", MaxDepth, near(e.Path))
	case Duplicate:
		return fmt.Sprintf("the key %q appears twice%s", e.Key, near(e.Path))
	}
	return "the body is not valid JSON" + near(e.Path) + ": " + e.Detail
}

func near(path string) string {
	if path == "" {
		return ""
	}
	return " (in " + path + ")"
}

// Kind is the type of a JSON value.
type Kind uint8

// The kinds of Value. Absent is the zero Value: the value of a key an object does not have.
const (
	Absent Kind = iota
	Null
	Bool
	Number
	String
	Object
	Array
)

// Value is one value of a parsed body.
type Value struct {
	kind    Kind
	text    string   // a string's text, a number's literal, "true" or "false"
	members []Member // an object's, in the order of the body
	elems   []Value  // an array's
}

// Member is one key of an object with its value.
type Member struct {
	Key   string
	Value Value
}

// Kind returns the type of v.
func (v Value) Kind() Kind { return v.kind }

// Missing reports whether v is absent or null, which a request means alike: not given.
func (v Value) Missing() bool { return v.kind == Absent || v.kind == Null }

// Get returns the value of key in the object v; Absent when v has no such key or is not an
// object.
func (v Value) Get(key string) Value {
	for _, m := range v.members {
		if m.Key == key {
			return m.Value
		}
	}
	return Value{}
}

// Members returns the members of the object v, in the order of the body.
func (v Value) Members() []Member { return v.members }

// Elems returns the elements of the array v.
func (v Value) Elems() []Value { return v.elems }

// Any returns v as encoding/json would decode it into an any with UseNumber: map[string]any,
// []any, json.Number (the number as written: nothing is rounded), string, bool or nil.
func (v Value) Any() any {
	switch v.kind {
	case Object:
		m := make(map[string]any, len(v.members))
		for _, mb := range v.members {
			m[mb.Key] = mb.Value.Any() // depth bounded by MaxDepth
		}
		return m
	case Array:
		a := make([]any, len(v.elems))
		for i, e := range v.elems {
			a[i] = e.Any()
		}
		return a
	case Number:
		return json.Number(v.text)
	case String:
		return v.text
	case Bool:
		return v.text == "true"
	}
	return nil
}

// frame is an object or array being read.
type frame struct {
	v       Value
	key     string              // an object's key whose value is being read
	inValue bool                // whether a member's or an element's value is being read
	seen    map[string]struct{} // an object's keys so far
}

// Parse reads body as one strict JSON value (see the package doc). A body that is not is
// refused with an *Error; repeated keys are all listed (up to 100), while a syntax error or a
// nesting too deep stops the reading where it is found. Strings are read as encoding/json
// reads them (an invalid UTF-8 byte becomes U+FFFD) and numbers keep their literal. The
// caller limits the size of body.
func Parse(body []byte) (Value, error) {
	p := &parser{dec: json.NewDecoder(bytes.NewReader(body))}
	p.dec.UseNumber()
	for done := false; !done; {
		var err error
		if done, err = p.step(); err != nil {
			return Value{}, err
		}
	}
	if _, err := p.dec.Token(); !errors.Is(err, io.EOF) {
		return Value{}, &Error{Problem: Trailing}
	}
	if p.dup != nil {
		return Value{}, p.dup
	}
	return p.root, nil
}

// parser is Parse's state: the objects and arrays being read, the repeated keys so far, and
// the body's value once complete.
type parser struct {
	dec   *json.Decoder
	stack []frame
	dup   *Error
	root  Value
}

// step reads the next token: a container's end, or a value (after its key in an object). It
// reports whether the body's value is complete.
func (p *parser) step() (bool, error) {
	if n := len(p.stack); n > 0 {
		f := &p.stack[n-1]
		if !p.dec.More() {
			if _, err := p.dec.Token(); err != nil { // the closing ] or }
				return false, syntaxError(p.stack, err)
			}
			p.stack = p.stack[:n-1]
			return p.put(f.v), nil
		}
		if f.v.kind == Object {
			if err := p.key(f); err != nil {
				return false, err
			}
		}
		f.inValue = true
	}
	tok, err := p.dec.Token()
	if err != nil {
		return false, syntaxError(p.stack, err)
	}
	switch t := tok.(type) {
	case json.Delim: // { or [: the closing ones are read above
		if len(p.stack) == MaxDepth {
			return false, &Error{Problem: TooDeep, Path: pathOf(p.stack)}
		}
		f := frame{v: Value{kind: Array}}
		if t == '{' {
			f = frame{v: Value{kind: Object}, seen: map[string]struct{}{}}
		}
		p.stack = append(p.stack, f)
		return false, nil
	case string:
		return p.put(Value{kind: String, text: t}), nil
	case json.Number:
		return p.put(Value{kind: Number, text: string(t)}), nil
	case bool:
		return p.put(Value{kind: Bool, text: strconv.FormatBool(t)}), nil
	}
	return p.put(Value{kind: Null}), nil
}

// key reads the key of the object f's next member, noting a repeated one.
func (p *parser) key(f *frame) error {
	tok, err := p.dec.Token()
	if err != nil {
		return syntaxError(p.stack, err)
	}
	key, _ := tok.(string) // the decoder gives nothing else here
	if _, seen := f.seen[key]; seen {
		p.dup = duplicate(p.dup, p.stack, key)
	}
	f.seen[key] = struct{}{}
	f.key = key
	return nil
}

// put places a value read whole into its container, or makes it the root; it reports whether
// the body's value is complete.
func (p *parser) put(v Value) bool {
	if len(p.stack) == 0 {
		p.root = v
		return true
	}
	f := &p.stack[len(p.stack)-1]
	if f.v.kind == Object {
		f.v.members = append(f.v.members, Member{Key: f.key, Value: v})
	} else {
		f.v.elems = append(f.v.elems, v)
	}
	f.inValue = false
	return false
}

// syntaxError is the *Error of a token that could not be read.
func syntaxError(stack []frame, err error) *Error {
	return &Error{Problem: Syntax, Path: pathOf(stack), Detail: strings.TrimPrefix(err.Error(), "json: ")}
}

// duplicate adds the repetition of key in the innermost object of stack to dup.
func duplicate(dup *Error, stack []frame, key string) *Error {
	object := pathOf(stack[:len(stack)-1])
	if dup == nil {
		dup = &Error{Problem: Duplicate, Path: object, Key: key}
	}
	if len(dup.Duplicates) < maxDuplicates {
		dup.Duplicates = append(dup.Duplicates, joinPath(object, key))
	}
	return dup
}

// pathOf names the value being read: items[1].title. It is built only for an error.
func pathOf(stack []frame) string {
	var b strings.Builder
	for _, f := range stack {
		if !f.inValue {
			break
		}
		if f.v.kind == Object {
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(f.key)
		} else {
			fmt.Fprintf(&b, "[%d]", len(f.v.elems))
		}
	}
	return b.String()
}

// joinPath names key in the object at path.
func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}
