// Package contracttest holds the gateway client and the sandbox to the gateway's contract as
// an OpenAPI document (gatewayclient/openapi.json), in tests: Transport checks the exchanges a
// test's HTTP client makes with a gateway, and Spec.CheckWebhook one webhook delivery.
//
// What is checked, by kin-openapi (openapi3filter, OpenAPI 3.1 with JSON Schema 2020-12):
//   - every request to a documented path and method is valid by the document (body, query,
//     path, a bearer token where one is required): the client never sends what the gateway
//     does not take;
//   - with Answers, every answer to such a request has a documented status, content type and
//     a body on its schema (the sandbox answers as the contract, and its assumptions, say).
//
// Requests to paths the document does not have (the sandbox's controls) are not checked. The
// package reads the document from the source tree, so it serves tests only; it imports nothing
// of gatewayclient, whose own tests use it.
package contracttest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
)

// Spec is the gateway's contract, loaded and routed.
type Spec struct {
	// Doc is the document as kin-openapi reads it.
	Doc   *openapi3.T
	paths []pathTemplate
}

type pathTemplate struct {
	path   string // "/deposit/{id}"
	re     *regexp.Regexp
	params []string
}

// Path is where the document is, in the source tree.
func Path() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "openapi.json")
}

// Load returns the contract, loaded and checked once per process.
var Load = sync.OnceValues(func() (*Spec, error) {
	b, err := os.ReadFile(Path())
	if err != nil {
		return nil, fmt.Errorf("contracttest: %w", err)
	}
	doc, err := openapi3.NewLoader().LoadFromData(b)
	if err != nil {
		return nil, fmt.Errorf("contracttest: loading the contract: %w", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		return nil, fmt.Errorf("contracttest: the contract is not a valid OpenAPI document: %w", err)
	}
	s := &Spec{Doc: doc}
	for _, path := range doc.Paths.InMatchingOrder() {
		pt, re := pathTemplate{path: path}, "^"
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

// route returns the documented operation of method at path (relative to the gateway's base
// URL), or nil.
func (s *Spec) route(method, path string) (*routers.Route, map[string]string) {
	for _, pt := range s.paths {
		m := pt.re.FindStringSubmatch(path)
		if m == nil {
			continue
		}
		item := s.Doc.Paths.Value(pt.path)
		op := item.GetOperation(method)
		if op == nil {
			return nil, nil
		}
		params := map[string]string{}
		for i, name := range pt.params {
			params[name] = m[i+1]
		}
		return &routers.Route{Spec: s.Doc, Path: pt.path, PathItem: item, Method: method, Operation: op}, params
	}
	return nil, nil
}

func options() *openapi3filter.Options {
	o := &openapi3filter.Options{AuthenticationFunc: bearerPresent, IncludeResponseStatus: true, MultiError: true,
		SkipSettingDefaults: true}
	o.WithCustomSchemaErrorFunc(func(err *openapi3.SchemaError) string {
		return "at /" + strings.Join(err.JSONPointer(), "/") + ": " + err.Reason
	})
	return o
}

func bearerPresent(_ context.Context, in *openapi3filter.AuthenticationInput) error {
	scheme, token, _ := strings.Cut(in.RequestValidationInput.Request.Header.Get("Authorization"), " ")
	if in.SecurityScheme.Type != "http" || !strings.EqualFold(scheme, in.SecurityScheme.Scheme) || token == "" {
		return in.NewError(nil)
	}
	return nil
}

// Check reports how one exchange departs from the contract, or nil; documented reports
// whether the contract has the request's path and method at all (an exchange it does not
// have is not checked). path is the request's path below the gateway's base URL. With
// answers false only the request is checked; with answers true the answer is, and the request
// only when it was taken (a 2xx): the sandbox is asked invalid things on purpose.
func (s *Spec) Check(req *http.Request, path string, reqBody []byte, answers bool, status int, header http.Header,
	body []byte) (documented bool, err error) {
	route, params := s.route(req.Method, path)
	if route == nil {
		return false, nil
	}
	r := req.Clone(context.Background())
	r.URL = &url.URL{Path: path, RawQuery: req.URL.RawQuery}
	r.Body = io.NopCloser(bytes.NewReader(reqBody))
	r.ContentLength = int64(len(reqBody))
	in := &openapi3filter.RequestValidationInput{Request: r, PathParams: params, Route: route, Options: options()}
	var errs []error
	if !answers || status < 300 {
		if err := openapi3filter.ValidateRequest(context.Background(), in); err != nil {
			errs = append(errs, fmt.Errorf("the request is off the contract: %w", err))
		}
	}
	if answers {
		res := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: status, Header: header,
			Options: options()}
		res.SetBodyBytes(body)
		if err := openapi3filter.ValidateResponse(context.Background(), res); err != nil {
			errs = append(errs, fmt.Errorf("the answer %d is off the contract: %w", status, err))
		}
	}
	return true, errors.Join(errs...)
}

// CheckWebhook reports how a webhook delivery (its headers and body) departs from the
// contract's webhook of kind ("deposit" or "withdrawal"), or nil.
func (s *Spec) CheckWebhook(kind string, header http.Header, body []byte) error {
	item := s.Doc.Webhooks[kind]
	if item == nil || item.Post == nil {
		return fmt.Errorf("the contract has no webhook %q", kind)
	}
	r, err := http.NewRequest(http.MethodPost, "/", bytes.NewReader(body))
	if err != nil {
		return err
	}
	r.Header = header.Clone()
	in := &openapi3filter.RequestValidationInput{Request: r, PathParams: map[string]string{},
		Route: &routers.Route{Spec: s.Doc, Path: "/", PathItem: item, Method: http.MethodPost, Operation: item.Post}, Options: options()}
	if err := openapi3filter.ValidateRequest(context.Background(), in); err != nil {
		return fmt.Errorf("the %s webhook is off the contract: %w", kind, err)
	}
	return nil
}

// Mode says what Transport checks.
type Mode int

const (
	// Requests checks every request (a client's tests, whose fake gateways answer as each test
	// needs).
	Requests Mode = iota
	// Answers checks every answer, and every request that was taken (the sandbox's tests).
	Answers
)

// Transport returns a RoundTripper that sends requests through base (http.DefaultTransport
// when nil) and reports to t, as an error of the test, every exchange with the gateway whose
// base URL is baseURL that is off the contract. The answer's body is read whole and given to
// the caller as it came.
func Transport(t testing.TB, base http.RoundTripper, baseURL string, mode Mode) http.RoundTripper {
	t.Helper()
	if base == nil {
		base = http.DefaultTransport
	}
	spec, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(baseURL)
	if err != nil {
		t.Fatal(err)
	}
	return &transport{t: t, base: base, spec: spec, host: u.Host, prefix: strings.TrimSuffix(u.Path, "/"), mode: mode}
}

type transport struct {
	t      testing.TB
	base   http.RoundTripper
	spec   *Spec
	host   string
	prefix string
	mode   Mode
}

func (tr *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	path, ok := strings.CutPrefix(req.URL.Path, tr.prefix)
	if req.URL.Host != tr.host || !ok {
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
	if tr.mode == Requests {
		if _, err := tr.spec.Check(req, path, reqBody, false, 0, nil, nil); err != nil {
			tr.t.Errorf("%s %s: %v\nrequest: %.500s", req.Method, req.URL.RequestURI(), err, reqBody)
		}
		return tr.base.RoundTrip(req)
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
	if _, err := tr.spec.Check(req, path, reqBody, true, res.StatusCode, res.Header, body); err != nil {
		tr.t.Errorf("%s %s: %v\nrequest: %.500s\nanswer: %.1000s", req.Method, req.URL.RequestURI(), err, reqBody, body)
	}
	return res, nil
}
