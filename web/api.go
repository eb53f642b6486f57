package web

import (
	"context"
	"errors"
	"io"
	"mime"
	"net/http"
	"slices"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/apikeys"
	"github.com/pixcheckout/pixcheckout/checkout/audit"
	"github.com/pixcheckout/pixcheckout/checkout/charges"
	"github.com/pixcheckout/pixcheckout/checkout/notify"
	"github.com/pixcheckout/pixcheckout/checkout/subscriptions"
	"github.com/pixcheckout/pixcheckout/gatewayclient/strictjson"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// The merchant API: JSON under /api/v1, authenticated by an API key (Authorization: Bearer),
// every error in the one shape of ErrorBody, never framable, never cached. Its description is
// openapi.json, served at /api/v1/openapi.json and checked against these handlers by a test.

// APIPrefix is the path of the merchant API.
const APIPrefix = "/api/v1"

// MaxAPIBytes bounds an API request's body.
const MaxAPIBytes = 256 << 10

// Codes of the errors of the API's protocol (the domain's errors keep checkout's codes).
const (
	apiCodeInvalidJSON     = "invalid_json"
	apiCodeMediaType       = "unsupported_media_type"
	apiCodeTooLarge        = "payload_too_large"
	apiCodeRouteNotFound   = "not_found"
	apiCodeMethodNotAllowd = "method_not_allowed"
)

type apiKeyCtx struct{}

// merchantAPI holds the merchant API's handlers and their dependencies. Its routes are in the
// server's route table, under /api.
type merchantAPI struct {
	svc           *checkout.Service
	site          *respond.Site
	keys          *apikeys.Keys          // nil: every request is refused with 401
	notifications *notify.DeliveryLog    // nil: no notification is listed
	publicURL     string                 // of the sessions' pages
	audit         *audit.Log             // nil: data subjects' requests are not recorded
	params        routeParams            // the query parameters of each route, from openapi.json
	charges       *charges.Manager       // nil: the charges' routes answer 404
	subscriptions *subscriptions.Manager // nil: the subscriptions' routes answer 404
}

// apiMethodNotAllowed answers a method the API's path does not take: 405 with the Allow header
// RFC 9110 §15.5.6 asks for. The route table answers here too for methods the router does not
// know at all (PURGE), which it refuses before routing into the API.
func apiMethodNotAllowed(w http.ResponseWriter, r *http.Request) {
	allow := allowedMethods(r)
	if len(allow) == 0 { // an unknown method on a path nothing serves
		apiError(w, r, http.StatusNotFound, apiCodeRouteNotFound, "no such API route")
		return
	}
	w.Header().Set("Allow", strings.Join(allow, ", "))
	apiError(w, r, http.StatusMethodNotAllowed, apiCodeMethodNotAllowd,
		"this route takes "+strings.Join(allow, ", ")+", not "+r.Method)
}

// routableMethods are the methods a route may be served for, in the order an Allow header
// lists them.
var routableMethods = []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
	http.MethodDelete, http.MethodOptions, http.MethodTrace}

// allowedMethods lists the methods the route table serves at the request's path: asked of the
// router itself, so that the answer cannot disagree with the routes. HEAD comes with GET, which
// answers it (middleware.GetHead).
func allowedMethods(r *http.Request) []string {
	rctx := chi.RouteContext(r.Context())
	if rctx == nil || rctx.Routes == nil {
		return nil
	}
	path := r.URL.RawPath
	if path == "" {
		path = r.URL.Path
	}
	var allow []string
	for _, m := range routableMethods {
		if rctx.Routes.Match(chi.NewRouteContext(), m, path) ||
			m == http.MethodHead && slices.Contains(allow, http.MethodGet) {
			allow = append(allow, m)
		}
	}
	return allow
}

// isAPI reports whether the request is for the merchant API (its errors are JSON).
func isAPI(r *http.Request) bool {
	return r.URL.Path == "/api" || strings.HasPrefix(r.URL.Path, "/api/")
}

// apiHeaders: never framed (whatever CHECKOUT_FRAME_ANCESTORS allows for shopper pages),
// nothing to run, never stored by a cache.
func apiHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Cache-Control", "no-store")
		next.ServeHTTP(w, r)
	})
}

// auth admits requests carrying a valid API key (Authorization: Bearer <key>); others get
// 401 with WWW-Authenticate. A read key (apikeys.ScopeRead) may only read: any other method
// gets 403 forbidden.
func (a *merchantAPI) auth(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		secret, ok := bearer(r.Header.Get("Authorization"))
		if !ok || a.keys == nil {
			a.unauthorized(w, r, apikeys.ErrUnauthorized)
			return
		}
		key, err := a.keys.Authenticate(r.Context(), secret, respond.ClientIP(r))
		if err != nil {
			if checkout.ErrorCode(err) == checkout.CodeUnauthorized {
				a.unauthorized(w, r, err)
				return
			}
			a.site.FailJSON(w, r, err)
			return
		}
		if !key.Scope.Allows(r.Method) {
			// A read key: the API's GET endpoints only, whatever the route.
			a.site.FailJSON(w, r, &checkout.Error{Code: checkout.CodeForbidden,
				Message: "this API key is read-only (scope read): it may only make GET requests"})
			return
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), apiKeyCtx{}, key)))
	})
}

func (a *merchantAPI) unauthorized(w http.ResponseWriter, r *http.Request, err error) {
	w.Header().Set("WWW-Authenticate", `Bearer realm="pix-checkout"`)
	a.site.FailJSON(w, r, err)
}

// bearer returns the token of an "Authorization: Bearer <token>" header.
func bearer(h string) (string, bool) {
	scheme, token, ok := strings.Cut(strings.TrimSpace(h), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	token = strings.TrimSpace(token)
	return token, token != ""
}

// personalInFull reports whether the answer to r may hold a shopper's document and phone in
// full: for a write key carrying the personal-data right (its maker has it), the integration
// that places and fulfils orders; any other key (reports, dashboards of other tools, a key
// made by a developer) gets them masked ("***.982.247-**", "(11) *****-4321").
func personalInFull(r *http.Request) bool {
	k := apiKeyOf(r)
	return k != nil && k.Scope == apikeys.ScopeWrite && k.PersonalData
}

// personalDataRight lets through only keys that carry the personal-data right (apikeys.Key
// PersonalData): the data-subject routes find and erase a person's data, which the dashboard
// allows only to users with team.PermPersonalData, and a key never holds more than its maker.
func (a *merchantAPI) personalDataRight(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if k := apiKeyOf(r); k == nil || !k.PersonalData {
			a.site.FailJSON(w, r, &checkout.Error{Code: checkout.CodeForbidden,
				Message: "this API key does not carry the personal-data right: only keys made by a user with that right (an owner), on the server's shell or by CHECKOUT_MERCHANT_API_KEY do"})
			return
		}
		next.ServeHTTP(w, r)
	})
}

// apiKeyOf returns the API key that authenticated the request.
func apiKeyOf(r *http.Request) *apikeys.Key {
	k, _ := r.Context().Value(apiKeyCtx{}).(*apikeys.Key)
	return k
}

// apiError answers an error of the API's protocol in the one error shape.
func apiError(w http.ResponseWriter, r *http.Request, status int, code, msg string) {
	respond.JSON(w, status, respond.ErrorBody{Error: respond.ErrorDetail{Code: code, Message: msg, RequestID: respond.RequestID(r.Context())}})
}

// readJSON reads a JSON request body: Content-Type application/json, at most MaxAPIBytes, one
// strict JSON value (gatewayclient/strictjson: no repeated key, nested at most
// strictjson.MaxDepth levels). It answers the error itself and reports whether the handler may
// go on.
func readJSON(w http.ResponseWriter, r *http.Request) (strictjson.Value, bool) {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "application/json" {
		apiError(w, r, http.StatusUnsupportedMediaType, apiCodeMediaType, "the body must be JSON (Content-Type: application/json)")
		return strictjson.Value{}, false
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxAPIBytes))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			apiError(w, r, http.StatusRequestEntityTooLarge, apiCodeTooLarge, "the body is larger than 256 KiB")
			return strictjson.Value{}, false
		}
		apiError(w, r, http.StatusBadRequest, apiCodeInvalidJSON, "the body could not be read")
		return strictjson.Value{}, false
	}
	doc, err := strictjson.Parse(body)
	if err != nil {
		apiError(w, r, http.StatusBadRequest, apiCodeInvalidJSON, err.Error())
		return strictjson.Value{}, false
	}
	return doc, true
}
