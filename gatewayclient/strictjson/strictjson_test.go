package strictjson_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	gc "github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/strictjson"
)

// parseError returns the *strictjson.Error of Parse(body), failing when there is none.
func parseError(t *testing.T, body string) *strictjson.Error {
	t.Helper()
	_, err := strictjson.Parse([]byte(body))
	var je *strictjson.Error
	if !errors.As(err, &je) {
		t.Fatalf("Parse(%.80q) = %v, want a *strictjson.Error", body, err)
	}
	return je
}

// TestParseRefusals: what is refused, and the message naming the problem and where it is (the
// merchant API answers it as it is).
func TestParseRefusals(t *testing.T) {
	for body, want := range map[string]string{
		``:                             "the body is not valid JSON: EOF",
		`{"items": [`:                  "the body is not valid JSON (in items): EOF",
		`{"a":1,}`:                     "the body is not valid JSON: invalid character '}' looking for beginning of object key string",
		`{"a" 1}`:                      "the body is not valid JSON (in a): invalid character '1' after object key",
		`[1 2]`:                        "the body is not valid JSON (in [1]): invalid character '2' after array element",
		`{"a":[1,{"b":tru}]}`:          "the body is not valid JSON (in a[1].b): invalid character '}' in literal true (expecting 'e')",
		`"x`:                           "the body is not valid JSON: unexpected EOF",
		`{} {}`:                        "the body must hold one JSON value only",
		`{"a":1}}`:                     "the body must hold one JSON value only",
		`01`:                           "the body must hold one JSON value only",
		`{"a":1,"a":2}`:                `the key "a" appears twice`,
		`{"a":{"b":[{"c":1,"c":2}]}}`:  `the key "c" appears twice (in a.b[0])`,
		`[{"k":1},{"k":1,"k":2}]`:      `the key "k" appears twice (in [1])`,
		`{"a":{"b":` + nest(63) + `}}`: "the body nests arrays and objects deeper than 64 levels (in a.b" + strings.Repeat("[0]", 62) + ")",
	} {
		if got := parseError(t, body).Error(); got != want {
			t.Errorf("Parse(%.80q):\n got %s\nwant %s", body, got, want)
		}
	}
}

// nest returns n arrays nested in each other: [[[]]] for 3.
func nest(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }

// nestObjects returns n objects nested in each other under the key "k".
func nestObjects(n int) string { return strings.Repeat(`{"k":`, n-1) + "{}" + strings.Repeat("}", n-1) }

// TestParseDepthLimit: MaxDepth levels are read, one more is refused at the level that goes
// past, for arrays and objects alike, however deep the body goes on.
func TestParseDepthLimit(t *testing.T) {
	for _, c := range []struct {
		name    string
		nest    func(int) string
		tooDeep string
	}{
		{"arrays", nest, strings.Repeat("[0]", strictjson.MaxDepth)},
		{"objects", nestObjects, strings.TrimPrefix(strings.Repeat(".k", strictjson.MaxDepth), ".")},
	} {
		if _, err := strictjson.Parse([]byte(c.nest(strictjson.MaxDepth))); err != nil {
			t.Errorf("%s: %d levels refused: %v", c.name, strictjson.MaxDepth, err)
		}
		for _, levels := range []int{strictjson.MaxDepth + 1, 40_000} {
			je := parseError(t, c.nest(levels))
			if je.Problem != strictjson.TooDeep || je.Path != c.tooDeep {
				t.Errorf("%s: %d levels: %+v, want TooDeep at %s", c.name, levels, je, c.tooDeep)
			}
		}
	}
	// A syntax error past the limit is not reached: the depth stops the reading first.
	if je := parseError(t, nest(strictjson.MaxDepth + 1)[:100]+"x"); je.Problem != strictjson.TooDeep {
		t.Errorf("%+v, want TooDeep", je)
	}
}

// TestParseListsEveryDuplicate: every repeated key, by path, in the order of the body, up to
// 100 of them; the message names the first.
func TestParseListsEveryDuplicate(t *testing.T) {
	je := parseError(t, `{"a":1,"b":{"c":[{"d":1,"d":2,"d":3}]},"a":2,"metadata":{"x":{},"x":[]}}`)
	want := []string{"b.c[0].d", "b.c[0].d", "a", "metadata.x"}
	if je.Problem != strictjson.Duplicate || !reflect.DeepEqual(je.Duplicates, want) || je.Key != "d" || je.Path != "b.c[0]" {
		t.Errorf("%+v, want the duplicates %v, the first d in b.c[0]", je, want)
	}
	var b strings.Builder
	b.WriteString(`{"` + strings.Repeat("long", 1000) + `":{`)
	for i := range 5000 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"k":1`)
	}
	b.WriteString("}}")
	if je := parseError(t, b.String()); len(je.Duplicates) != 100 {
		t.Errorf("%d duplicates listed, want the first 100", len(je.Duplicates))
	}
	// The same key in different objects is no duplicate.
	if _, err := strictjson.Parse([]byte(`{"a":{"k":1},"b":{"k":1},"k":[{"k":1},{"k":2}]}`)); err != nil {
		t.Errorf("the same key in different objects: %v", err)
	}
}

// TestParseValues: what is read is what encoding/json reads, with numbers as written.
func TestParseValues(t *testing.T) {
	body := `{"s":"a\u00e7\"b","n":12345678901234567890,"f":-1.5e3,"t":true,"F":false,"z":null,"o":{"a":[1,"x",null,{}]},"e":[]}`
	v, err := strictjson.Parse([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"s": "aç\"b", "n": json.Number("12345678901234567890"), "f": json.Number("-1.5e3"), "t": true,
		"F": false, "z": nil, "o": map[string]any{"a": []any{json.Number("1"), "x", nil, map[string]any{}}}, "e": []any{}}
	if got := v.Any(); !reflect.DeepEqual(got, want) {
		t.Errorf("Any\n got %#v\nwant %#v", got, want)
	}
	if v.Kind() != strictjson.Object || v.Get("z").Kind() != strictjson.Null || !v.Get("z").Missing() ||
		v.Get("nope").Kind() != strictjson.Absent || !v.Get("nope").Missing() || v.Get("s").Missing() {
		t.Errorf("kinds: %v %v %v", v.Kind(), v.Get("z").Kind(), v.Get("nope").Kind())
	}
	var keys []string
	for _, m := range v.Members() {
		keys = append(keys, m.Key)
	}
	if want := []string{"s", "n", "f", "t", "F", "z", "o", "e"}; !reflect.DeepEqual(keys, want) {
		t.Errorf("members %v, want the body's order %v", keys, want)
	}
	if n := len(v.Get("o").Get("a").Elems()); n != 4 {
		t.Errorf("%d elements, want 4", n)
	}
}

// FuzzParse: Parse accepts exactly the well-formed bodies (json.Valid) without a repeated key
// and no deeper than MaxDepth, and reads them as encoding/json does.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`{"a":[1,2,{"b":null}],"c":"d"}`, `{"a":1,"a":2}`, `[[[[]]]]`, `{} {}`, `"\ud800"`,
		"\"\xff\"", `{"a":{"a":{"a":1}}}`, `{"\u0061":1,"a":2}`, `1e400`, `-0`, nest(strictjson.MaxDepth + 1)} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		v, err := strictjson.Parse(body)
		valid := json.Valid(body)
		if !valid {
			if err == nil {
				t.Fatalf("Parse accepted what json.Valid refuses: %q", body)
			}
			return
		}
		var je *strictjson.Error
		if err != nil {
			if !errors.As(err, &je) || je.Problem == strictjson.Syntax || je.Problem == strictjson.Trailing {
				t.Fatalf("Parse refused a valid body %q: %v", body, err)
			}
			if je.Problem == strictjson.TooDeep && depth(body) <= strictjson.MaxDepth {
				t.Fatalf("%q: TooDeep at depth %d", body, depth(body))
			}
			return
		}
		if depth(body) > strictjson.MaxDepth {
			t.Fatalf("%q: accepted at depth %d", body, depth(body))
		}
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.UseNumber()
		var want any
		if err := dec.Decode(&want); err != nil {
			t.Fatal(err)
		}
		if got := v.Any(); !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: Any %#v, encoding/json %#v", body, got, want)
		}
	})
}

// depth is the deepest nesting of arrays and objects in the valid JSON body.
func depth(body []byte) int {
	dec := json.NewDecoder(bytes.NewReader(body))
	d, deepest := 0, 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return deepest
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			d++
			deepest = max(deepest, d)
		case json.Delim('}'), json.Delim(']'):
			d--
		}
	}
}

// TestReader: wrong types, unknown fields and non-integers, each with its path and code, all
// at once; absent and null read as nothing.
func TestReader(t *testing.T) {
	v, err := strictjson.Parse([]byte(`{"s":1,"n":"1","i":1.5,"e":1e3,"big":99999999999999999999,"neg":-99999999999999999999,` +
		`"a":{},"o":[],"b":"true","c":10.0,"x":1,"y":2,"ok":{"s":"t","n":7,"b":false,"a":[1]}}`))
	if err != nil {
		t.Fatal(err)
	}
	r := &strictjson.Reader{}
	top, ok := r.Object("", v, "s", "n", "i", "e", "big", "neg", "a", "o", "b", "c", "ok")
	if !ok {
		t.Fatal("not an object")
	}
	r.String("s", top.Get("s"))
	r.Int("n", top.Get("n"), 64)
	r.Int("i", top.Get("i"), 64)
	r.Int("e", top.Get("e"), 64)
	if n, ok := r.Int("big", top.Get("big"), 32); !ok || n != 1<<31-1 {
		t.Errorf("big: %d %v, want the largest int32", n, ok)
	}
	if n, ok := r.Int("neg", top.Get("neg"), 64); !ok || n != -1<<63 {
		t.Errorf("neg: %d %v, want the smallest int64", n, ok)
	}
	r.Array("a", top.Get("a"))
	r.Object("o", top.Get("o"))
	r.Bool("b", top.Get("b"))
	r.Cents("c", top.Get("c"))
	ok1, _ := r.Object("ok", top.Get("ok"), "s")
	if s, n, b, a := r.String("ok.s", ok1.Get("s")), must(r.Cents("ok.n", ok1.Get("n"))), must(r.Bool("ok.b", ok1.Get("b"))),
		r.Array("ok.a", ok1.Get("a")); s != "t" || n != 7 || b || len(a) != 1 {
		t.Errorf("ok: %q %d %v %v", s, n, b, a)
	}
	for _, m := range []strictjson.Value{top.Get("nope"), v.Get("z")} {
		if r.String("absent", m) != "" || must(r.Int("absent", m, 64)) != 0 || r.Array("absent", m) != nil {
			t.Error("absent values read as something")
		}
		if _, ok := r.Object("absent", m); ok {
			t.Error("an absent object read as one")
		}
	}
	r.Add("mine", "rule", "is the caller's")
	var got []string
	for _, vi := range r.Violations {
		got = append(got, fmt.Sprintf("%s %s: %s", vi.Field, vi.Code, vi.Message))
	}
	want := []string{
		"x unknown_field: is not a field of this object (fields: s, n, i, e, big, neg, a, o, b, c, ok)",
		"y unknown_field: is not a field of this object (fields: s, n, i, e, big, neg, a, o, b, c, ok)",
		"s type: must be a string", "n type: must be a number", "i integer: must be an integer", "e integer: must be an integer",
		"a type: must be an array", "o type: must be an object", "b type: must be a boolean",
		"c integer: must be an integer number of cents",
		"ok.n unknown_field: is not a field of this object (fields: s)", "ok.b unknown_field: is not a field of this object (fields: s)",
		"ok.a unknown_field: is not a field of this object (fields: s)",
		"mine rule: is the caller's",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("violations\n got %q\nwant %q", got, want)
	}
	if gc.CodeType != "type" || gc.CodeInteger != "integer" {
		t.Fatal("the codes changed")
	}
}

func must[T any](v T, _ bool) T { return v }

// BenchmarkParseDeepBody reads an 80 KB body nesting 40,000 arrays in a session's metadata,
// the body that took 4.3 GB and 18 s to refuse before the depth limit.
func BenchmarkParseDeepBody(b *testing.B) {
	body := []byte(`{"items":[],"metadata":` + nest(40_000) + `}`)
	b.ReportAllocs()
	for range b.N {
		if _, err := strictjson.Parse(body); err == nil {
			b.Fatal("accepted")
		}
	}
}
