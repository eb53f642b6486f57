package web_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/go-chi/chi/v5"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/pixcheckout/pixcheckout/web"
)

// The OpenAPI description is checked against the real handlers: every answer of every API
// request made by the tests of this package (newEnv checks them when the test ends) must be
// documented for its route, method and status, and valid against the documented schema; so
// must every request body the handlers accepted; and every API route of the router must be
// documented, and every documented route served.

// openAPI is the description compiled once: the document, and its schemas by JSON pointer.
type openAPI struct {
	doc      map[string]any
	compiler *jsonschema.Compiler
	mu       sync.Mutex
	schemas  map[string]*jsonschema.Schema
}

var loadOpenAPI = sync.OnceValues(func() (*openAPI, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(web.OpenAPIDocument()))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource("openapi.json", doc); err != nil {
		return nil, err
	}
	var plain map[string]any
	if err := json.Unmarshal(web.OpenAPIDocument(), &plain); err != nil {
		return nil, err
	}
	return &openAPI{doc: plain, compiler: c, schemas: map[string]*jsonschema.Schema{}}, nil
})

// schema compiles (once) the schema at a JSON pointer of the document.
func (o *openAPI) schema(pointer string) (*jsonschema.Schema, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if s, ok := o.schemas[pointer]; ok {
		return s, nil
	}
	s, err := o.compiler.Compile("openapi.json#" + pointer)
	if err != nil {
		return nil, err
	}
	o.schemas[pointer] = s
	return s, nil
}

// escape is a JSON pointer token.
func escape(s string) string { return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1") }

// route finds the documented path template matching an API path ("/checkout-sessions/{id}").
func (o *openAPI) route(path string) (string, bool) {
	paths, _ := o.doc["paths"].(map[string]any)
	rel := strings.TrimPrefix(path, web.APIPrefix)
	for tmpl := range paths {
		re := "^" + regexp.MustCompile(`\\\{[^/]+\\\}`).ReplaceAllString(regexp.QuoteMeta(tmpl), `[^/]+`) + "$"
		if regexp.MustCompile(re).MatchString(rel) {
			return tmpl, true
		}
	}
	return "", false
}

// checkExchanges validates the API exchanges of a test against the description.
func checkExchanges(t testing.TB, exchanges []apiExchange) {
	t.Helper()
	o, err := loadOpenAPI()
	if err != nil {
		t.Fatalf("openapi.json: %v", err)
	}
	for _, x := range exchanges {
		path, _, _ := strings.Cut(x.path, "?")
		tmpl, ok := o.route(path)
		if !ok {
			if x.status != http.StatusNotFound {
				t.Errorf("%s %s: answered %d on an undocumented route", x.method, path, x.status)
			}
			continue
		}
		op, _ := o.doc["paths"].(map[string]any)[tmpl].(map[string]any)[strings.ToLower(x.method)].(map[string]any)
		if op == nil {
			if x.status != http.StatusMethodNotAllowed {
				t.Errorf("%s %s: answered %d for an undocumented method", x.method, path, x.status)
			}
			continue
		}
		base := "/paths/" + escape(tmpl) + "/" + strings.ToLower(x.method)
		code := strconv.Itoa(x.status)
		if _, ok := op["responses"].(map[string]any)[code]; !ok {
			t.Errorf("%s %s: status %d is not documented", x.method, tmpl, x.status)
			continue
		}
		validate(t, o, base+"/responses/"+code+"/content/application~1json/schema", x.body, x.method+" "+tmpl+" → "+code)
		if x.status < 300 && len(x.reqBody) > 0 {
			validate(t, o, base+"/requestBody/content/application~1json/schema", x.reqBody, x.method+" "+tmpl+" request")
		}
	}
}

func validate(t testing.TB, o *openAPI, pointer string, body []byte, what string) {
	t.Helper()
	s, err := o.schema(pointer)
	if err != nil {
		t.Errorf("%s: schema %s: %v", what, pointer, err)
		return
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
	if err != nil {
		t.Errorf("%s: not JSON: %v", what, err)
		return
	}
	if err := s.Validate(v); err != nil {
		t.Errorf("%s does not match the description: %v\n%s", what, err, body)
	}
}

// TestOpenAPIRoutes: the router's API routes and the description's are the same.
func TestOpenAPIRoutes(t *testing.T) {
	e := newEnv(t)
	o, err := loadOpenAPI()
	if err != nil {
		t.Fatal(err)
	}
	if o.doc["openapi"] != "3.1.0" {
		t.Errorf("openapi %v", o.doc["openapi"])
	}
	served := map[string]bool{}
	err = chi.Walk(e.web.Handler().(chi.Routes), func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		if !strings.HasPrefix(route, web.APIPrefix+"/") || strings.HasSuffix(route, "/*") {
			return nil
		}
		tmpl := strings.TrimPrefix(route, web.APIPrefix)
		tmpl = regexp.MustCompile(`\{[^}]+\}`).ReplaceAllString(tmpl, "{id}")
		served[strings.ToLower(method)+" "+tmpl] = true
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	documented := map[string]bool{}
	for tmpl, item := range o.doc["paths"].(map[string]any) {
		for method := range item.(map[string]any) {
			documented[method+" "+tmpl] = true
		}
	}
	for r := range served {
		if !documented[r] {
			t.Errorf("route %s is served but not documented", r)
		}
	}
	for r := range documented {
		if !served[r] {
			t.Errorf("route %s is documented but not served", r)
		}
	}
	if len(served) < 5 {
		t.Errorf("only %d API routes found", len(served))
	}
}

// TestOpenAPICatchesDrift: the check would see an answer that drifts from the description.
func TestOpenAPICatchesDrift(t *testing.T) {
	rec := &recordingT{TB: t}
	checkExchanges(rec, []apiExchange{
		{method: "GET", path: "/api/v1/orders/x", status: 200, body: []byte(`{"id": "x"}`)},
		{method: "GET", path: "/api/v1/orders/x", status: 418, body: []byte(`{}`)},
	})
	if rec.errors != 2 {
		t.Errorf("%d drifts reported, want 2", rec.errors)
	}
}

// recordingT counts errors instead of failing.
type recordingT struct {
	testing.TB
	errors int
}

func (r *recordingT) Errorf(string, ...any) { r.errors++ }
func (r *recordingT) Helper()               {}
