package web_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/go-chi/chi/v5"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/web"
	"github.com/pixcheckout/pixcheckout/web/apitest"
)

// The OpenAPI description is held to the real handlers: every exchange of the tests' client
// with the API is checked against it (apitest.Transport, in newEnv), every API route of the
// router is documented and every documented route served, and the document-driven requests of
// openapi_cases_test.go probe every field and parameter it describes.

// TestOpenAPIRoutes: the router's API routes and the description's are the same.
func TestOpenAPIRoutes(t *testing.T) {
	e := newEnv(t)
	spec, err := apitest.Load()
	if err != nil {
		t.Fatal(err)
	}
	served := map[string]bool{}
	err = chi.Walk(e.web.Handler().(chi.Routes), func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		if !strings.HasPrefix(route, web.APIPrefix+"/") || strings.HasSuffix(route, "/*") {
			return nil
		}
		tmpl := strings.TrimPrefix(route, web.APIPrefix)
		tmpl = regexp.MustCompile(`\{[^}]+\}`).ReplaceAllString(tmpl, "{id}")
		served[method+" "+tmpl] = true
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	documented := map[string]bool{}
	for tmpl, item := range spec.Doc.Paths.Map() {
		for method := range item.Operations() {
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
	if len(served) < 6 {
		t.Errorf("only %d API routes found", len(served))
	}
}

// TestOpenAPIDocument: the document is OpenAPI 3.1 with the project's licence (LICENSE, MIT),
// and each of its enums lists a value once.
func TestOpenAPIDocument(t *testing.T) {
	spec, err := apitest.Load()
	if err != nil {
		t.Fatal(err)
	}
	if spec.Doc.OpenAPI != "3.1.0" || spec.Doc.Info.License == nil || spec.Doc.Info.License.Name == "" {
		t.Errorf("openapi %q, license %+v", spec.Doc.OpenAPI, spec.Doc.Info.License)
	}
	licence, err := os.ReadFile("../LICENSE")
	if err != nil {
		t.Fatal(err)
	}
	if l := spec.Doc.Info.License; !bytes.HasPrefix(licence, []byte("MIT License\n")) ||
		!bytes.Contains(licence, []byte("Copyright (c) PIX Checkout contributors")) || l == nil || l.Identifier != "MIT" {
		t.Errorf("LICENSE %.40q and the document's license %+v disagree", licence, l)
	}
	var doc any
	if err := json.Unmarshal(web.OpenAPIDocument(), &doc); err != nil {
		t.Fatal(err)
	}
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch v := v.(type) {
		case map[string]any:
			if enum, ok := v["enum"].([]any); ok {
				seen := map[string]bool{}
				for _, e := range enum {
					if k := fmt.Sprint(e); seen[k] {
						t.Errorf("%s: enum lists %q twice", path, k)
					} else {
						seen[k] = true
					}
				}
			}
			for k, e := range v {
				walk(path+"/"+k, e)
			}
		case []any:
			for i, e := range v {
				walk(path+"/"+strconv.Itoa(i), e)
			}
		}
	}
	walk("", doc)
}

// TestOpenAPIDomainLists: the history's reasonCode lists exactly the domain's reason codes,
// and Channel exactly its channels.
func TestOpenAPIDomainLists(t *testing.T) {
	spec, err := apitest.Load()
	if err != nil {
		t.Fatal(err)
	}
	var codes, channels []string
	for _, c := range checkout.ReasonCodes() {
		codes = append(codes, string(c))
	}
	for _, c := range checkout.Channels() {
		channels = append(channels, string(c))
	}
	schemas := spec.Doc.Components.Schemas
	for _, c := range []struct {
		name   string
		schema *openapi3.Schema
		domain []string
	}{
		{"reasonCode", schemas["Change"].Value.Properties["reasonCode"].Value, codes},
		{"Channel", schemas["Channel"].Value, channels},
	} {
		var documented []string
		for _, e := range c.schema.Enum {
			documented = append(documented, fmt.Sprint(e))
		}
		if strings.Join(documented, " ") != strings.Join(c.domain, " ") {
			t.Errorf("%s documents %v, the domain has %v", c.name, documented, c.domain)
		}
	}
}

// TestOpenAPICatchesDrift: the check sees every way an answer can drift from the description,
// and lets a documented one pass.
func TestOpenAPICatchesDrift(t *testing.T) {
	spec, err := apitest.Load()
	if err != nil {
		t.Fatal(err)
	}
	header := func(kv ...string) http.Header {
		h := http.Header{"Content-Type": {"application/json; charset=utf-8"}, "X-Request-Id": {"0123456789abcdef"}}
		for i := 0; i+1 < len(kv); i += 2 {
			h.Set(kv[i], kv[i+1])
		}
		return h
	}
	jsonH := header()
	notFound := []byte(`{"error":{"code":"not_found","message":"not found","requestId":"0123456789abcdef"}}`)
	order := []byte(`{"id":"x","number":"1","status":"paid","channel":"shop","amount":1,"shipping":0,"amountPaid":1,"refundDue":0,"latePayment":false,
		"currency":"BRL","items":[{"title":"T","unitPrice":1,"quantity":1,"type":"DIGITAL"}],"customer":{},"history":[],"createdAt":"2026-03-14T12:00:00.000Z","updatedAt":"2026-03-14T12:00:00.000Z"}`)
	session := []byte(`{"items":[{"productId":"p"}]}`)
	created := []byte(`{"id":"s","url":"http://x/s/s","status":"open","amount":1,"shipping":0,"currency":"BRL","expiresAt":"2026-03-14T12:00:00.000Z",
		"createdAt":"2026-03-14T12:00:00.000Z","items":[{"title":"T","unitPrice":1,"quantity":1,"type":"DIGITAL"}],"customer":{},"amountPaid":0}`)
	cases := []struct {
		name           string
		method, target string
		reqBody        []byte
		status         int
		header         http.Header
		body           []byte
		drift          bool
	}{
		{"documented", "GET", "/api/v1/orders/x", nil, 200, jsonH, order, false},
		{"documented error", "GET", "/api/v1/orders/x", nil, 404, jsonH, notFound, false},
		{"undocumented route, 404", "GET", "/api/v1/nothing", nil, 404, jsonH, notFound, false},
		{"body off its schema", "GET", "/api/v1/orders/x", nil, 200, jsonH, []byte(`{"id":"x"}`), true},
		{"undocumented status", "GET", "/api/v1/orders/x", nil, 418, jsonH, notFound, true},
		{"undocumented content type", "GET", "/api/v1/orders/x", nil, 200, header("Content-Type", "text/html"), order, true},
		{"error off its schema", "GET", "/api/v1/orders/x", nil, 404, jsonH, []byte(`{"error":"not found"}`), true},
		{"undocumented route, 200", "GET", "/api/v1/nothing", nil, 200, jsonH, order, true},
		{"405 without Allow", "DELETE", "/api/v1/orders", nil, 405, jsonH, notFound, true},
		{"405 with a wrong Allow", "DELETE", "/api/v1/orders", nil, 405,
			header("Allow", "GET, POST"), notFound, true},
		{"405 with Allow", "DELETE", "/api/v1/orders", nil, 405,
			header("Allow", "GET, HEAD"), notFound, false},
		{"a request the document refuses, taken", "GET", "/api/v1/orders?page=0", nil, 200, jsonH,
			[]byte(`{"data":[],"page":1,"perPage":20,"hasMore":false}`), true},
		{"a request the document refuses, refused", "GET", "/api/v1/orders?page=0", nil, 422, jsonH,
			[]byte(`{"error":{"code":"invalid","message":"m","requestId":"r","fields":[{"field":"page","code":"min","message":"m"}]}}`), false},
		{"201 without its Location", "POST", "/api/v1/checkout-sessions", session, 201, jsonH, created, true},
		{"201 with its Location", "POST", "/api/v1/checkout-sessions", session, 201,
			header("Location", "/api/v1/checkout-sessions/s"), created, false},
		{"a replay without Idempotent-Replayed", "POST", "/api/v1/checkout-sessions", session, 200,
			header("Location", "/api/v1/checkout-sessions/s"), created, true},
		{"a replay", "POST", "/api/v1/checkout-sessions", session, 200,
			header("Location", "/api/v1/checkout-sessions/s", "Idempotent-Replayed", "true"), created, false},
		{"an error code the answer does not have", "GET", "/api/v1/orders/x", nil, 404, jsonH,
			[]byte(`{"error":{"code":"invalid","message":"not found","requestId":"0123456789abcdef"}}`), true},
		{"a 401 without WWW-Authenticate", "GET", "/api/v1/orders/x", nil, 401, jsonH,
			[]byte(`{"error":{"code":"unauthorized","message":"key","requestId":"0123456789abcdef"}}`), true},
	}
	for _, c := range cases {
		req, _ := http.NewRequest(c.method, "http://localhost"+c.target, bytes.NewReader(c.reqBody))
		req.Header.Set("Authorization", "Bearer k")
		req.Header.Set("Content-Type", "application/json")
		err := spec.Check(req, c.reqBody, c.status, c.header, c.body)
		if (err != nil) != c.drift {
			t.Errorf("%s: drift %v, want %v", c.name, err, c.drift)
		}
	}
}

// TestAPIUnknownParameters: every API route refuses a query parameter it does not take, with
// 422 unknown_parameter naming it, before reading anything else of the request; the
// parameters a route documents are not refused as unknown.
func TestAPIUnknownParameters(t *testing.T) {
	e := newEnv(t)
	spec, err := apitest.Load()
	if err != nil {
		t.Fatal(err)
	}
	routes := 0
	err = chi.Walk(e.web.Handler().(chi.Routes), func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		if !strings.HasPrefix(route, web.APIPrefix+"/") || strings.HasSuffix(route, "/*") {
			return nil
		}
		routes++
		path := regexp.MustCompile(`\{[^}]+\}`).ReplaceAllString(route, "x1")
		got := e.api(method, path+"?colour=red", nil)
		if got.status != 422 || got.errorCode() != "invalid" || strings.Join(got.fields(), ",") != "colour unknown_parameter" {
			t.Errorf("%s %s?colour=red: %d %s", method, route, got.status, got.body)
		}
		// A documented parameter beside it is not reported.
		tmpl := regexp.MustCompile(`\{[^}]+\}`).ReplaceAllString(strings.TrimPrefix(route, web.APIPrefix), "{id}")
		if op := spec.Doc.Paths.Find(tmpl).GetOperation(method); op != nil {
			for _, p := range op.Parameters {
				if p.Value.In != "query" {
					continue
				}
				got := e.api(method, path+"?colour=red&"+p.Value.Name+"=", nil)
				if strings.Join(got.fields(), ",") != "colour unknown_parameter" {
					t.Errorf("%s %s?colour=red&%s=: %d %s", method, route, p.Value.Name, got.status, got.body)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if routes < 13 {
		t.Errorf("only %d API routes walked", routes)
	}
}
