package web

import (
	"bytes"
	"encoding/json"
	"net/http"
	"sort"

	"github.com/a-h/templ"
	"github.com/go-chi/chi/v5"

	"github.com/pixcheckout/pixcheckout/views"
)

// render writes a page with status. The page is rendered into a buffer first, so that a
// rendering error gives a clean 500 instead of half a page.
func (s *Server) render(w http.ResponseWriter, r *http.Request, status int, c templ.Component) {
	var buf bytes.Buffer
	if err := c.Render(r.Context(), &buf); err != nil {
		s.log.ErrorContext(r.Context(), "rendering a page", "request_id", RequestID(r.Context()), "err", err)
		s.renderError(w, r, http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	// Pages hold carts, orders and customer data: never kept by shared caches.
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// renderError answers an error page with status; nothing of the cause is shown but the
// request id.
func (s *Server) renderError(w http.ResponseWriter, r *http.Request, status int) {
	s.renderErrorMessage(w, r, status, "")
}

// renderErrorMessage is renderError with a localised explanation (a message of the views'
// catalogue); the plain not-found page is for a 404 without one.
func (s *Server) renderErrorMessage(w http.ResponseWriter, r *http.Request, status int, msg string) {
	p := s.page(r)
	var c templ.Component
	if status == http.StatusNotFound && msg == "" {
		c = views.NotFoundPage(p)
	} else {
		c = views.ErrorPage(views.ErrorView{Page: p, StatusCode: status, Message: msg, RequestID: RequestID(r.Context())})
	}
	var buf bytes.Buffer
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	if err := c.Render(r.Context(), &buf); err != nil {
		h.Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(status)
		_, _ = w.Write([]byte(http.StatusText(status) + "\n"))
		return
	}
	h.Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// writeJSON answers v as JSON with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// redirect answers 303 See Other to a local path, keeping ?lang= when it was explicit.
func (s *Server) redirect(w http.ResponseWriter, r *http.Request, path string) {
	http.Redirect(w, r, s.link(r, path), http.StatusSeeOther)
}

// pageLang is the language of the request's page (see lang).
func (s *Server) pageLang(r *http.Request) views.Lang {
	l, _ := s.lang(r)
	return l
}

// routePattern is the request's route ("/pay/{orderID}"), never its path: ids in paths are the
// shoppers' credentials and stay out of the logs.
func routePattern(r *http.Request) string {
	if rc := chi.RouteContext(r.Context()); rc != nil && rc.RoutePattern() != "" {
		return rc.RoutePattern()
	}
	return "unmatched"
}

// sortedKeys returns the keys of m in order, so that what is built from a map is stable.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
