package web_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/pixcheckout/pixcheckout/web"
	"github.com/pixcheckout/pixcheckout/web/apitest"
)

// The document-driven requests: every operation's example request (from the document) is
// changed one field or parameter at a time, in every way the document's schema for it
// suggests (missing, of the wrong type, below its minimum, at it, above its maximum, at it,
// much longer or larger when the document sets no limit, empty, breaking its pattern, enum or
// format, an unknown field), and sent. The document itself is the judge of each request:
//   - one it takes must be taken (2xx): the document says no less than the API checks; only
//     the rules it states in words (semanticRefusals) may refuse it;
//   - one it refuses must be refused (4xx), and a 422 must name the field changed;
//   - no answer is a 5xx, and every answer is documented and on its schema (apitest.Transport).

// semanticRefusals are the rules the document states in words, not in schemas (a catalogue's
// products, check digits, a total over items, a public host): a request the schemas take may be
// refused by them, with these codes on these fields.
var semanticRefusals = []struct {
	field *regexp.Regexp
	codes []string
}{
	{regexp.MustCompile(`^items\[\d+\]\.productId$`), []string{"unknown_product"}},
	{regexp.MustCompile(`^items$`), []string{"min", "max"}},
	{regexp.MustCompile(`^customer\.document$`), []string{"document"}},
	{regexp.MustCompile(`^customer\.(email|phone)$`), []string{"format"}},
	{regexp.MustCompile(`^(successUrl|cancelUrl)$`), []string{"url", "https_required"}},
	{regexp.MustCompile(`^embedOrigin$`), []string{"format"}},
	{regexp.MustCompile(`^createdTo$`), []string{"range"}},
	// A charge's amount with its fine and interest, its discount's one of bps and amount.
	{regexp.MustCompile(`^amount$`), []string{"max"}},
	{regexp.MustCompile(`^discount$`), []string{"required", "duplicate"}},
	// A subscription's schedule: one of dayOfMonth and everyWeeks, an end after its first due date.
	{regexp.MustCompile(`^(dayOfMonth|everyWeeks)$`), []string{"required", "duplicate"}},
	{regexp.MustCompile(`^endDate$`), []string{"min"}},
	// A cursor is a token the API gave: one made up is refused.
	{regexp.MustCompile(`^cursor$`), []string{"format"}},
}

// docCase is one request derived from the document.
type docCase struct {
	name  string // "items[1].unitPrice: above the maximum"
	field string // the field or parameter changed, as the API names it ("" for the example itself)
	// The request: the operation's example with one change.
	query  url.Values
	header http.Header
	body   any // nil: no body
}

func TestOpenAPIDrivenRequests(t *testing.T) {
	e := newEnv(t)
	spec, err := apitest.Load()
	if err != nil {
		t.Fatal(err)
	}
	paths := spec.Doc.Paths.Map()
	total := 0
	for _, tmpl := range slices.Sorted(func(yield func(string) bool) {
		for p := range paths {
			if !yield(p) {
				return
			}
		}
	}) {
		for method, op := range paths[tmpl].Operations() {
			if strings.Contains(tmpl, "{") || len(op.Parameters) == 0 && op.RequestBody == nil {
				continue // path parameters only: the other tests read unknown ids
			}
			cases := operationCases(t, op)
			total += len(cases)
			for i, c := range cases {
				checkDocCase(t, e, spec, method, tmpl, i, c)
			}
		}
	}
	if total < 200 {
		t.Errorf("only %d cases derived from the document", total)
	}
	t.Logf("%d requests derived from the document", total)
}

// checkDocCase sends one derived request and judges its answer by the document.
func checkDocCase(t *testing.T, e *env, spec *apitest.Spec, method, tmpl string, i int, c docCase) {
	t.Helper()
	var body []byte
	if c.body != nil {
		body, _ = json.Marshal(c.body)
	}
	u := e.srv.URL + web.APIPrefix + tmpl
	if len(c.query) > 0 {
		u += "?" + c.query.Encode()
	}
	req, err := http.NewRequest(method, u, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header = c.header.Clone()
	req.Header.Set("Authorization", "Bearer "+testConfiguredKey)
	if c.body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if key, ok := c.header["Idempotency-Key"]; ok && c.field != "Idempotency-Key" {
		// Each request its own key: the same one with another body is refused, rightly.
		req.Header.Set("Idempotency-Key", key[0]+"-"+strconv.Itoa(i))
	}
	name := method + " " + tmpl + " " + c.name
	docErr := spec.ValidateRequest(req, body)
	res, err := e.http.Do(req)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	answer, _ := io.ReadAll(res.Body)
	res.Body.Close()
	var out struct {
		Error struct {
			Code   string `json:"code"`
			Fields []struct{ Field, Code string }
		} `json:"error"`
	}
	_ = json.Unmarshal(answer, &out)
	switch st := res.StatusCode; {
	case st >= 500:
		t.Errorf("%s: %d %s", name, st, answer)
	case docErr == nil && st >= 300:
		semantic := st == http.StatusUnprocessableEntity && out.Error.Code == "invalid" && len(out.Error.Fields) > 0
		for _, f := range out.Error.Fields {
			semantic = semantic && slices.ContainsFunc(semanticRefusals, func(r struct {
				field *regexp.Regexp
				codes []string
			}) bool {
				return r.field.MatchString(f.Field) && slices.Contains(r.codes, f.Code)
			})
		}
		if !semantic {
			t.Errorf("%s: the document takes it, the API refuses it: %d %s", name, st, answer)
		}
	case docErr != nil && st < 400:
		t.Errorf("%s: the document refuses it (%v), the API takes it: %d", name, docErr, st)
	case docErr != nil && st == http.StatusUnprocessableEntity && out.Error.Code == "invalid" &&
		!slices.ContainsFunc(out.Error.Fields, func(f struct{ Field, Code string }) bool { return related(f.Field, c.field) }):
		t.Errorf("%s: refused without naming %s: %s", name, c.field, answer)
	}
}

// related reports whether a violation's field is about the field changed: the same, one
// within the other, or a sibling (a missing productId makes an item ad-hoc, whose title is
// then missing).
func related(violation, changed string) bool {
	within := func(a, b string) bool {
		return b == "" || strings.HasPrefix(a, b+".") || strings.HasPrefix(a, b+"[")
	}
	parent := func(p string) string {
		if i := strings.LastIndexAny(p, ".["); i > 0 {
			return p[:i]
		}
		return ""
	}
	return violation == changed || within(violation, changed) || within(changed, violation) ||
		parent(changed) != "" && parent(violation) == parent(changed)
}

// operationCases derives the cases of an operation from its example request.
func operationCases(t *testing.T, op *openapi3.Operation) []docCase {
	t.Helper()
	base := docCase{name: "the document's example", query: url.Values{}, header: http.Header{}}
	for _, pr := range op.Parameters {
		p := pr.Value
		if p.Example == nil {
			t.Fatalf("%s: parameter %s has no example", op.OperationID, p.Name)
		}
		switch p.In {
		case "query":
			for _, v := range asList(p.Example) {
				base.query.Add(p.Name, fmt.Sprint(v))
			}
		case "header":
			base.header.Set(p.Name, fmt.Sprint(p.Example))
		}
	}
	if rb := op.RequestBody; rb != nil {
		mt := rb.Value.Content.Get("application/json")
		if mt == nil || mt.Example == nil {
			t.Fatalf("%s: the request body has no example", op.OperationID)
		}
		base.body = mt.Example
	}
	cases := []docCase{base}
	with := func(name, field string, change func(c *docCase)) {
		c := docCase{name: field + ": " + name, field: field, query: cloneValues(base.query), header: base.header.Clone(),
			body: clone(base.body)}
		change(&c)
		cases = append(cases, c)
	}
	for _, pr := range op.Parameters {
		p := pr.Value
		s := p.Schema.Value
		if s.Items != nil { // a repeatable parameter: its values are of the items' schema
			s = s.Items.Value
		}
		for _, v := range valueChanges(s, fmt.Sprint(asList(p.Example)[0]), p.In) {
			with(v.name, p.Name, func(c *docCase) {
				switch {
				case p.In == "query" && v.missing:
					c.query.Del(p.Name)
				case p.In == "query":
					c.query.Set(p.Name, queryText(v.value))
				case v.missing:
					c.header.Del(p.Name)
				default:
					c.header[p.Name] = []string{queryText(v.value)}
				}
			})
		}
	}
	if op.RequestBody != nil {
		with("not an object", "", func(c *docCase) { c.body = []any{1, 2} })
		schema := op.RequestBody.Value.Content.Get("application/json").Schema.Value
		bodyCases(schema, base.body, nil, func(name string, path []any, missing bool, v any) {
			with(name, apiPath(path), func(c *docCase) { c.body = setAt(c.body, path, v, missing) })
		})
	}
	return cases
}

// change is one way of changing a value: to value, or leaving it out.
type change struct {
	name    string
	value   any
	missing bool
}

// constraints gathers a schema's own keywords and those of its allOf, anyOf and oneOf branches
// (the document's request is the judge of which combination is valid: this only suggests
// values worth trying).
func constraints(s *openapi3.Schema) []*openapi3.Schema {
	out := []*openapi3.Schema{s}
	for _, refs := range []openapi3.SchemaRefs{s.AllOf, s.AnyOf, s.OneOf} {
		for _, r := range refs {
			out = append(out, constraints(r.Value)...)
		}
	}
	return out
}

// valueChanges are the changes worth trying on a value of schema s whose example is base, in
// a body, a query or a header.
func valueChanges(s *openapi3.Schema, base any, in string) []change {
	cs := []change{{name: "missing", missing: true}}
	all := constraints(s)
	is := func(typ string) bool {
		return slices.ContainsFunc(all, func(c *openapi3.Schema) bool { return c.Type != nil && c.Type.Is(typ) })
	}
	switch {
	case is("integer"):
		notInteger := any(fmt.Sprint(base)) // in a body: a string
		if in != "body" {
			notInteger = "x" + fmt.Sprint(base)
		}
		cs = append(cs, change{"not an integer", notInteger, false}, change{"a fraction", 1.5, false})
		hasMax := false
		for _, c := range all {
			if c.Min != nil {
				cs = append(cs, change{"below the minimum", int64(*c.Min) - 1, false}, change{"at the minimum", int64(*c.Min), false})
			}
			if c.Max != nil {
				hasMax = true
				cs = append(cs, change{"above the maximum", int64(*c.Max) + 1, false}, change{"at the maximum", int64(*c.Max), false})
			}
		}
		if !hasMax { // a limit the document does not state would refuse it
			cs = append(cs, change{"very large", int64(1<<53 - 1), false}) // the largest integer JSON carries exactly
		}
	case is("string"):
		text, _ := base.(string)
		fill := "a"
		if text != "" {
			fill = text[:1]
		}
		cs = append(cs, change{"a number", 12345, false}, change{"empty", "", false})
		hasMax := false
		for _, c := range all {
			if c.MinLength > 1 {
				cs = append(cs, change{"shorter than its minimum", strings.Repeat(fill, int(c.MinLength)-1), false},
					change{"as short as its minimum", strings.Repeat(fill, int(c.MinLength)), false})
			}
			if c.MaxLength != nil && *c.MaxLength > 0 {
				hasMax = true
				cs = append(cs, change{"longer than its maximum", strings.Repeat(fill, int(*c.MaxLength)+1), false},
					change{"as long as its maximum", strings.Repeat(fill, int(*c.MaxLength)), false})
			}
			if c.Enum != nil {
				cs = append(cs, change{"not in its enum", "NOT_" + strings.ToUpper(text), false})
			}
			if c.Format != "" {
				cs = append(cs, change{"not a " + c.Format, "not-a-" + c.Format, false})
			}
		}
		if !hasMax { // a limit the document does not state would refuse it
			cs = append(cs, change{"very long", strings.Repeat(fill, 3000), false})
		}
		// Every pattern of the document refuses control characters, and a pattern it does not
		// state would (a client cannot send one in a header: a character out of ASCII there).
		odd := change{"with a control character", "\u0001" + text, false}
		if in == "header" {
			odd = change{"with a character out of ASCII", "é" + text, false}
		}
		cs = append(cs, odd)
	}
	if in == "header" { // a header is text
		cs = slices.DeleteFunc(cs, func(c change) bool { _, text := c.value.(string); return !text && !c.missing })
	}
	return cs
}

// bodyCases calls add with every change of the JSON value v, whose schema is s, at path.
func bodyCases(s *openapi3.Schema, v any, path []any, add func(name string, path []any, missing bool, v any)) {
	if len(path) > 0 {
		add("missing", path, true, nil)
	}
	all := constraints(s)
	// For a oneOf, the branch the example follows says what its fields are.
	if len(s.OneOf) > 0 {
		for _, b := range s.OneOf {
			if b.Value.VisitJSON(v, openapi3.EnableJSONSchema2020()) == nil {
				s, all = b.Value, constraints(b.Value)
				break
			}
		}
	}
	switch v := v.(type) {
	case map[string]any:
		add("not an object", path, false, "x")
		add("empty", path, false, map[string]any{})
		if s.AdditionalProperties.Has != nil && !*s.AdditionalProperties.Has {
			add("with an unknown field", path, false, merged(v, map[string]any{"unknownField": "x"}))
		}
		for _, k := range slices.Sorted(mapKeys(v)) {
			if p := s.Properties[k]; p != nil {
				bodyCases(p.Value, v[k], append(slices.Clone(path), k), add)
			} else if ap := s.AdditionalProperties.Schema; ap != nil {
				bodyCases(ap.Value, v[k], append(slices.Clone(path), k), add)
			}
		}
		for _, c := range all {
			if c.MaxProps != nil {
				keys := func(n int) map[string]any {
					m := map[string]any{}
					for i := range n {
						m["key"+strconv.Itoa(i)] = "v"
					}
					return m
				}
				add("with more keys than its maximum", path, false, keys(int(*c.MaxProps)+1))
				add("with as many keys as its maximum", path, false, keys(int(*c.MaxProps)))
			}
			if pn := c.PropertyNames; pn != nil {
				add("with an empty key", path, false, merged(v, map[string]any{"": "v"}))
				if m := pn.Value.MaxLength; m != nil {
					add("with a key longer than its maximum", path, false, merged(v, map[string]any{strings.Repeat("k", int(*m)+1): "v"}))
					add("with a key as long as its maximum", path, false, merged(v, map[string]any{strings.Repeat("k", int(*m)): "v"}))
				}
			}
		}
	case []any:
		add("not an array", path, false, "x")
		add("empty", path, false, []any{})
		for _, c := range all {
			if c.MaxItems != nil && len(v) > 0 {
				add("with more elements than its maximum", path, false, slices.Repeat(v[:1], int(*c.MaxItems)+1))
				add("with as many elements as its maximum", path, false, slices.Repeat(v[:1], int(*c.MaxItems)))
			}
		}
		if s.Items != nil {
			for i, el := range v {
				bodyCases(s.Items.Value, el, append(slices.Clone(path), i), add)
			}
		}
	default:
		for _, c := range valueChanges(s, v, "body")[1:] { // missing: added above
			add(c.name, path, c.missing, c.value)
		}
	}
}

// apiPath is the API's name of a body path: items[1].unitPrice.
func apiPath(path []any) string {
	var b strings.Builder
	for _, p := range path {
		switch p := p.(type) {
		case int:
			fmt.Fprintf(&b, "[%d]", p)
		case string:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(p)
		}
	}
	return b.String()
}

// setAt returns doc with the value at path set to v, or removed.
func setAt(doc any, path []any, v any, remove bool) any {
	if len(path) == 0 {
		return v
	}
	switch d := doc.(type) {
	case map[string]any:
		k := path[0].(string)
		if len(path) == 1 && remove {
			delete(d, k)
		} else {
			d[k] = setAt(d[k], path[1:], v, remove)
		}
	case []any:
		i := path[0].(int)
		if len(path) == 1 && remove {
			return slices.Delete(d, i, i+1)
		}
		d[i] = setAt(d[i], path[1:], v, remove)
	}
	return doc
}

// clone is a deep copy of a JSON value.
func clone(v any) any {
	if v == nil {
		return nil
	}
	b, _ := json.Marshal(v)
	var out any
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	_ = d.Decode(&out)
	return out
}

func merged(a, b map[string]any) map[string]any {
	out := clone(a).(map[string]any)
	for k, v := range b {
		out[k] = v
	}
	return out
}

func mapKeys(m map[string]any) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func cloneValues(v url.Values) url.Values {
	out := url.Values{}
	for k, vs := range v {
		out[k] = slices.Clone(vs)
	}
	return out
}

// asList is a parameter's example as its list of values.
func asList(v any) []any {
	if l, ok := v.([]any); ok {
		return l
	}
	return []any{v}
}

// queryText is a value as a query or header parameter writes it.
func queryText(v any) string {
	if f, ok := v.(float64); ok {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return fmt.Sprint(v)
}
