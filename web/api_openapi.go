package web

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/go-chi/chi/v5"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// openAPIDocument is the OpenAPI 3.1 description of the merchant API (openapi.json beside this
// file). The tests hold it to the handlers: see package apitest.
//
//go:embed openapi.json
var openAPIDocument []byte

// OpenAPIDocument returns the OpenAPI 3.1 description of the merchant API.
func OpenAPIDocument() []byte { return append([]byte(nil), openAPIDocument...) }

// routeParams are the query parameters each API operation takes, read from the API's own
// description so that the handlers and the document cannot disagree: keyed by "GET /orders/{}"
// (the method and the path under APIPrefix, each path parameter written {}).
type routeParams map[string][]string

var pathParam = regexp.MustCompile(`\{[^}]*\}`)

// routeKey is the key of routeParams for a method and a path template.
func routeKey(method, tmpl string) string {
	return method + " " + pathParam.ReplaceAllString(tmpl, "{}")
}

// documentParams are the query parameters of openapi.json's operations, read on the first
// server's start: the document is embedded, so every server of the process reads the same
// table, which nothing writes after.
var documentParams = sync.OnceValues(func() (routeParams, error) { return queryParamsOf(openAPIDocument) })

// queryParamsOf reads the query parameters of every operation of an OpenAPI document (those
// declared on the operation and on its path; parameters are written inline, not by $ref).
func queryParamsOf(doc []byte) (routeParams, error) {
	type param struct {
		Name string `json:"name"`
		In   string `json:"in"`
	}
	var d struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		return nil, fmt.Errorf("openapi.json: %w", err)
	}
	out := routeParams{}
	for tmpl, item := range d.Paths {
		var shared []param
		if raw, ok := item["parameters"]; ok {
			if err := json.Unmarshal(raw, &shared); err != nil {
				return nil, fmt.Errorf("openapi.json: %s parameters: %w", tmpl, err)
			}
		}
		for method, raw := range item {
			switch method {
			case "get", "put", "post", "delete", "options", "head", "patch", "trace":
			default:
				continue
			}
			var op struct {
				Parameters []param `json:"parameters"`
			}
			if err := json.Unmarshal(raw, &op); err != nil {
				return nil, fmt.Errorf("openapi.json: %s %s: %w", method, tmpl, err)
			}
			names := []string{}
			for _, p := range append(slices.Clone(shared), op.Parameters...) {
				if p.In == "query" {
					names = append(names, p.Name)
				}
			}
			out[routeKey(strings.ToUpper(method), tmpl)] = names
		}
	}
	return out, nil
}

// knownParams refuses a request whose query names a parameter its route does not take: 422
// invalid, each such parameter a field with code unknown_parameter. One rule for every API
// route, so that a misspelt filter (?stauts=paid) is never silently ignored.
func (a *merchantAPI) knownParams(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if len(q) == 0 {
			next.ServeHTTP(w, r)
			return
		}
		method := r.Method
		if method == http.MethodHead {
			method = http.MethodGet // answered by the GET route (middleware.GetHead)
		}
		tmpl := strings.TrimPrefix(chi.RouteContext(r.Context()).RoutePattern(), APIPrefix)
		takes := a.params[routeKey(method, tmpl)]
		rd := &checkout.ValidationError{}
		for _, k := range slices.Sorted(maps.Keys(q)) {
			if slices.Contains(takes, k) {
				continue
			}
			if len(takes) == 0 {
				rd.Add(k, codeUnknownParameter, "is not a parameter of this route, which takes none")
			} else {
				rd.Add(k, codeUnknownParameter, "is not a parameter of this route ("+strings.Join(takes, ", ")+")")
			}
		}
		if err := rd.Err(); err != nil {
			a.site.FailJSON(w, r, err)
			return
		}
		if err := checkout.CheckParams(q); err != nil {
			a.site.FailJSON(w, r, err)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// codeUnknownParameter: a query parameter the route does not take.
const codeUnknownParameter = "unknown_parameter"
