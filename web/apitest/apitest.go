// Package apitest holds the merchant API to its OpenAPI document (web.OpenAPIDocument) in
// tests, so that the two cannot drift apart: Transport checks every API exchange a test client
// makes, and Spec.Check one exchange.
//
// An exchange is on the document when:
//   - its route and method are documented, and its status is documented for them, with its
//     content type, its documented headers and a body valid against the documented schema;
//   - a request the API accepted (a 2xx or 3xx) is valid by the document: the document never
//     refuses what the API takes;
//   - a path the document does not have is a 404, and a method its path does not take a 405
//     whose Allow header lists the path's methods (HEAD with GET); both in the error shape.
//
// Validation is kin-openapi's (openapi3filter), which reads OpenAPI 3.1 and validates its
// schemas as JSON Schema 2020-12.
package apitest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"

	"github.com/pixcheckout/pixcheckout/web"
)

// Spec is the merchant API's OpenAPI document, loaded and routed.
type Spec struct {
	// Doc is the document as kin-openapi reads it.
	Doc    *openapi3.T
	paths  []pathTemplate
	errors *openapi3.Schema // the error shape, for 404 and 405 answers
	// requests remembers the verdict on each request validated (requestKey → error or nil):
	// kin-openapi compiles the operation's schemas again on every validation, and a test that
	// asks whether the document takes a request before sending it (TestOpenAPIDrivenRequests)
	// has the same request validated again when the API accepts it (Check). The verdict is a
	// function of the request alone, so the second answer is the first.
	requests sync.Map
}

// pathTemplate is a documented path, as a pattern of the request's path: each {parameter} is
// one non-empty segment. (kin-openapi's routers would add gorilla/mux, or, for the legacy one,
// match /checkout-sessions as /checkout-sessions/{id} with an empty id.)
type pathTemplate struct {
	path   string // "/orders/{id}"
	re     *regexp.Regexp
	params []string
}

// Load returns the document, loaded and checked once per process.
var Load = sync.OnceValues(func() (*Spec, error) {
	ctx := context.Background()
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(web.OpenAPIDocument())
	if err != nil {
		return nil, fmt.Errorf("apitest: loading openapi.json: %w", err)
	}
	if err := doc.Validate(ctx); err != nil {
		return nil, fmt.Errorf("apitest: openapi.json is not a valid OpenAPI document: %w", err)
	}
	if len(doc.Servers) != 1 || doc.Servers[0].URL != web.APIPrefix {
		return nil, fmt.Errorf("apitest: openapi.json's server is not %s", web.APIPrefix)
	}
	errSchema := doc.Components.Schemas["Error"]
	if errSchema == nil {
		return nil, errors.New("apitest: openapi.json has no Error schema")
	}
	s := &Spec{Doc: doc, errors: errSchema.Value}
	for _, path := range doc.Paths.InMatchingOrder() {
		pt, re := pathTemplate{path: path}, "^"+regexp.QuoteMeta(web.APIPrefix)
		for _, seg := range strings.Split(path, "/")[1:] {
			if name, ok := strings.CutPrefix(seg, "{"); ok && strings.HasSuffix(name, "}") {
				pt.params = append(pt.params, strings.TrimSuffix(name, "}"))
				re += "/([^/]+)"
			} else {
				re += "/" + regexp.QuoteMeta(seg)
			}
		}
		pt.re = regexp.MustCompile(re + "$")
		s.paths = append(s.paths, pt)
	}
	return s, nil
})

// find returns the documented operation of method at an API path, with the values of its path
// parameters; a nil route when the path or its method is not documented, with the methods the
// path takes (Allow) when the path is.
func (s *Spec) find(method, path string) (route *routers.Route, params map[string]string, allow []string) {
	for _, pt := range s.paths {
		m := pt.re.FindStringSubmatch(path)
		if m == nil {
			continue
		}
		item := s.Doc.Paths.Value(pt.path)
		for _, am := range []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
			http.MethodDelete, http.MethodOptions, http.MethodTrace} {
			if item.GetOperation(am) != nil || am == http.MethodHead && item.Get != nil {
				allow = append(allow, am)
			}
		}
		op := item.GetOperation(method)
		if op == nil {
			return nil, nil, allow
		}
		params = map[string]string{}
		for i, name := range pt.params {
			params[name] = m[i+1]
		}
		return &routers.Route{Spec: s.Doc, Path: pt.path, PathItem: item, Method: method, Operation: op}, params, allow
	}
	return nil, nil, nil
}

// options are the validation options: authentication is checked as far as a document can (a
// bearer credential is present), and messages carry the place and the reason, not the schema.
func options() *openapi3filter.Options {
	o := &openapi3filter.Options{
		AuthenticationFunc:    bearerPresent,
		IncludeResponseStatus: true,
		MultiError:            true,
		SkipSettingDefaults:   true,
	}
	o.WithCustomSchemaErrorFunc(schemaError)
	return o
}

func schemaError(err *openapi3.SchemaError) string {
	return "at /" + strings.Join(err.JSONPointer(), "/") + ": " + err.Reason
}

func bearerPresent(_ context.Context, in *openapi3filter.AuthenticationInput) error {
	scheme, token, _ := strings.Cut(in.RequestValidationInput.Request.Header.Get("Authorization"), " ")
	if in.SecurityScheme.Type != "http" || !strings.EqualFold(scheme, in.SecurityScheme.Scheme) || token == "" {
		return in.NewError(nil)
	}
	return nil
}

// relative is req with the URL the document's server (/api/v1) matches: path and query only.
func relative(req *http.Request, body []byte) *http.Request {
	r := req.Clone(context.Background())
	r.URL = &url.URL{Path: req.URL.Path, RawPath: req.URL.RawPath, RawQuery: req.URL.RawQuery}
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	return r
}

// ValidateRequest reports why the request is not valid by the document, or nil. reqBody is the
// body sent (req.Body is not read).
func (s *Spec) ValidateRequest(req *http.Request, reqBody []byte) error {
	r := relative(req, reqBody)
	if r.Method == http.MethodHead {
		r.Method = http.MethodGet
	}
	route, params, _ := s.find(r.Method, r.URL.Path)
	if route == nil {
		return fmt.Errorf("%s %s is not documented", r.Method, r.URL.Path)
	}
	return s.validateRequest(&openapi3filter.RequestValidationInput{Request: r, PathParams: params, Route: route, Options: options()},
		reqBody)
}

// validateRequest is openapi3filter.ValidateRequest of in, whose request's body is body, once
// per distinct request (see Spec.requests).
func (s *Spec) validateRequest(in *openapi3filter.RequestValidationInput, body []byte) error {
	key := requestKey(in.Request, body)
	if v, ok := s.requests.Load(key); ok {
		err, _ := v.(error)
		return err
	}
	err := openapi3filter.ValidateRequest(context.Background(), in)
	s.requests.Store(key, err)
	return err
}

// requestKey is what a request's validation depends on: its method, path and query, headers
// and body.
func requestKey(r *http.Request, body []byte) [sha256.Size]byte {
	h := sha256.New()
	fmt.Fprintf(h, "%s %s\n", r.Method, r.URL.RequestURI())
	for _, name := range slices.Sorted(maps.Keys(r.Header)) {
		fmt.Fprintf(h, "%q: %q\n", name, r.Header[name])
	}
	fmt.Fprintf(h, "\n%d\n", len(body))
	h.Write(body)
	return [sha256.Size]byte(h.Sum(nil))
}

// Check reports how one exchange with the API departs from the document (see the package
// comment), or nil. reqBody is the body sent; req.Body is not read.
func (s *Spec) Check(req *http.Request, reqBody []byte, status int, header http.Header, body []byte) error {
	ctx := context.Background()
	r := relative(req, reqBody)
	route, params, methods := s.find(r.Method, r.URL.Path)
	asGet := r.Method == http.MethodHead && slices.Contains(methods, http.MethodHead)
	if asGet {
		r.Method = http.MethodGet
		route, params, _ = s.find(r.Method, r.URL.Path)
	}
	if route == nil {
		return s.checkUnrouted(req.Method, methods, status, header, body)
	}
	in := &openapi3filter.RequestValidationInput{Request: r, PathParams: params, Route: route, Options: options()}
	var errs []error
	if status < 400 {
		if err := s.validateRequest(in, reqBody); err != nil {
			errs = append(errs, fmt.Errorf("the API took (%d) a request the document refuses: %w", status, err))
		}
	}
	ro := options()
	ro.ExcludeResponseBody = asGet // HEAD: the headers of GET, no body
	res := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: status, Header: header, Options: ro}
	res.SetBodyBytes(body)
	if err := openapi3filter.ValidateResponse(ctx, res); err != nil {
		errs = append(errs, fmt.Errorf("answer %d: %w", status, err))
	}
	if asGet && len(body) > 0 {
		errs = append(errs, errors.New("a body in the answer to HEAD"))
	} else if rr := route.Operation.Responses.Status(status); rr != nil && rr.Value != nil {
		if err := checkErrorCode(rr.Value, body); err != nil {
			errs = append(errs, fmt.Errorf("answer %d: %w", status, err))
		}
	}
	return errors.Join(errs...)
}

// checkUnrouted checks the answer to a path the document does not have (404), or to a method
// it does not give the path (405, Allow listing methods).
func (s *Spec) checkUnrouted(method string, methods []string, status int, header http.Header, body []byte) error {
	allow := strings.Join(methods, ", ")
	switch {
	case allow == "" && status != http.StatusNotFound:
		return fmt.Errorf("answered %d on a path the document does not have (want 404)", status)
	case allow != "" && status != http.StatusMethodNotAllowed:
		return fmt.Errorf("answered %d to a method the document does not give the path (want 405)", status)
	case allow != "" && header.Get("Allow") != allow:
		return fmt.Errorf("405 with Allow %q, want %q", header.Get("Allow"), allow)
	}
	return s.checkError(method, header, body)
}

// checkErrorCode holds an error answer to the codes its documented response lists in
// x-error-codes (the document names them there rather than in an allOf refinement of Error,
// which generated clients read as a type of its own without Error's fields), and an answer
// `invalid` to naming its fields.
func checkErrorCode(res *openapi3.Response, body []byte) error {
	list, ok := res.Extensions["x-error-codes"].([]any)
	if !ok {
		return nil
	}
	var e struct {
		Error struct {
			Code   string            `json:"code"`
			Fields []json.RawMessage `json:"fields"`
		} `json:"error"`
	}
	if err := json.Unmarshal(body, &e); err != nil {
		return fmt.Errorf("an error answer that is not JSON: %w", err)
	}
	if !slices.Contains(list, any(e.Error.Code)) {
		return fmt.Errorf("error code %q, which the response's x-error-codes %v does not list", e.Error.Code, list)
	}
	if e.Error.Code == "invalid" && len(e.Error.Fields) == 0 {
		return errors.New("an error invalid without fields")
	}
	return nil
}

// checkError checks an answer in the error shape (Error), for the routes and methods the
// document does not have.
func (s *Spec) checkError(method string, header http.Header, body []byte) error {
	if method == http.MethodHead {
		return nil
	}
	if ct := header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		return fmt.Errorf("an error answered as %q, not JSON", ct)
	}
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return fmt.Errorf("an error answered with a body that is not JSON: %w", err)
	}
	if err := s.errors.VisitJSON(v, openapi3.EnableJSONSchema2020(), openapi3.SetSchemaErrorMessageCustomizer(schemaError)); err != nil {
		return fmt.Errorf("an error off the Error schema: %w", err)
	}
	return nil
}

// Allow lists the methods the document gives an API path (/api/v1/orders), in the order of an
// Allow header, HEAD with GET; nil for a path it does not have.
func (s *Spec) Allow(path string) []string {
	_, _, allow := s.find("", path)
	return allow
}

// isAPI reports whether a request is for the merchant API.
func isAPI(req *http.Request) bool {
	return req.URL.Path == "/api" || strings.HasPrefix(req.URL.Path, "/api/")
}

// Transport returns a RoundTripper that sends requests through base (http.DefaultTransport when
// nil) and reports to t, as an error of the test, every exchange with the merchant API that is
// off its document. The answer's body is read whole, and given to the caller as it came.
func Transport(t testing.TB, base http.RoundTripper) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	spec, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	return &transport{t: t, base: base, spec: spec}
}

type transport struct {
	t    testing.TB
	base http.RoundTripper
	spec *Spec
}

func (tr *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if !isAPI(req) {
		return tr.base.RoundTrip(req)
	}
	var reqBody []byte
	if req.Body != nil {
		b, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		reqBody = b
		req = req.Clone(req.Context())
		req.Body = io.NopCloser(bytes.NewReader(b))
	}
	res, err := tr.base.RoundTrip(req)
	if err != nil {
		return res, err
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		return nil, err
	}
	res.Body = io.NopCloser(bytes.NewReader(body))
	if err := tr.spec.Check(req, reqBody, res.StatusCode, res.Header, body); err != nil {
		tr.t.Errorf("%s %s: the exchange is off openapi.json: %v\nrequest: %.500s\nanswer: %.1000s",
			req.Method, req.URL.RequestURI(), err, reqBody, body)
	}
	return res, nil
}
