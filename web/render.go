package web

import (
	"bytes"
	"net/http"

	"github.com/a-h/templ"

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
