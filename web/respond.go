package web

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"sort"
	"strconv"

	"github.com/a-h/templ"
	"github.com/go-chi/chi/v5"

	"github.com/pixcheckout/pixcheckout/views"
)

// render writes a page with status (see renderPage and writePage).
func (s *Server) render(w http.ResponseWriter, r *http.Request, status int, c templ.Component) {
	if page, ok := s.renderPage(w, r, c); ok {
		writePage(w, status, page)
	}
}

// renderPage renders c. The page is rendered into a buffer first, so that a rendering error
// gives a clean 500 (answered here, with ok false) instead of half a page.
func (s *Server) renderPage(w http.ResponseWriter, r *http.Request, c templ.Component) (page []byte, ok bool) {
	var buf bytes.Buffer
	if err := c.Render(r.Context(), &buf); err != nil {
		s.log.ErrorContext(r.Context(), "rendering a page", "request_id", RequestID(r.Context()), "err", err)
		s.renderError(w, r, http.StatusInternalServerError)
		return nil, false
	}
	return buf.Bytes(), true
}

// writePage answers status with an HTML page, with its length.
func writePage(w http.ResponseWriter, status int, page []byte) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	// Pages hold carts, orders and customer data: never kept by shared caches.
	h.Set("Cache-Control", "no-store")
	// Dropped by the compressor when it compresses the page.
	h.Set("Content-Length", strconv.Itoa(len(page)))
	w.WriteHeader(status)
	_, _ = w.Write(page)
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

// writeJSON answers v as JSON with status (and a final newline).
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		// Only a value that cannot be JSON (a programming error) gets here.
		status, b = http.StatusInternalServerError, []byte(`{"error":{"code":"internal","message":"internal error"}}`)
	}
	h := w.Header()
	setJSONHeaders(h)
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}

// setJSONHeaders makes h the headers of a JSON answer: its content type, and the security
// headers that apply to it in place of a page's. A JSON answer is not a document: it keeps
// nosniff, gets a policy that lets it load nothing and be framed nowhere (the embedded
// checkout's pages fetch it; they do not frame it) and X-Frame-Options, and loses those that
// only a page's script, subresources and windows use (Referrer-Policy, Permissions-Policy,
// Cross-Origin-Opener-Policy), as OWASP's REST security cheat sheet has it.
func setJSONHeaders(h http.Header) {
	h.Del("Referrer-Policy")
	h.Del("Permissions-Policy")
	h.Del("Cross-Origin-Opener-Policy")
	h.Set("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Content-Type", "application/json; charset=utf-8")
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
func routePattern(ctx context.Context) string {
	if rc := chi.RouteContext(ctx); rc != nil && rc.RoutePattern() != "" {
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
