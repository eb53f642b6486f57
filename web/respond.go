package web

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"sort"
	"strconv"
	"sync"

	"github.com/a-h/templ"
	"github.com/go-chi/chi/v5"

	"github.com/pixcheckout/pixcheckout/views"
)

// render writes a page with status. The page is rendered into a buffer first, so that a
// rendering error gives a clean 500 instead of half a page; the buffer comes from a pool (a
// fresh one grown to the page's size allocated twice the page at every request, the largest
// cost of a page after the rendering itself, in the PIX page's profile) and the page goes out
// with its Content-Length, in one piece.
func (s *Server) render(w http.ResponseWriter, r *http.Request, status int, c templ.Component) {
	buf := s.pages.get()
	defer s.pages.put(buf)
	if err := c.Render(r.Context(), buf); err != nil {
		s.log.ErrorContext(r.Context(), "rendering a page", "request_id", RequestID(r.Context()), "err", err)
		s.renderError(w, r, http.StatusInternalServerError)
		return
	}
	writePage(w, status, buf.Bytes())
}

// writePage answers status with the HTML page, in one piece with its length.
func writePage(w http.ResponseWriter, status int, page []byte) {
	h := w.Header()
	h["Content-Type"] = htmlContentType
	// Pages hold carts, orders and customer data: never kept by shared caches.
	h["Cache-Control"] = noStore
	// Dropped by the compressor when it compresses the page.
	h["Content-Length"] = []string{strconv.Itoa(len(page))}
	w.WriteHeader(status)
	_, _ = w.Write(page)
}

// Header values set on every page, shared: a value slice set whole is replaced, never changed
// in place, by anyone after (Header.Set and Add make new ones), and one slice of exactly one
// value cannot be appended to in place.
var (
	htmlContentType = []string{"text/html; charset=utf-8"}
	jsonContentType = []string{"application/json; charset=utf-8"}
	noStore         = []string{"no-store"}
	// The policy of a JSON answer opened as a document: it loads nothing and is framed
	// nowhere (the embedded checkout's pages fetch it; they do not frame it).
	jsonSecurityPolicy = []string{"default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"}
)

// bufferPool recycles the buffers pages and JSON answers are made in.
type bufferPool struct{ p sync.Pool }

// maxPooledBuffer bounds the buffers kept: a rare huge page (a dashboard export is streamed,
// never buffered) does not stay in memory.
const maxPooledBuffer = 256 << 10

func (b *bufferPool) get() *bytes.Buffer {
	if v, ok := b.p.Get().(*bytes.Buffer); ok {
		return v
	}
	return bytes.NewBuffer(make([]byte, 0, 16<<10))
}

func (b *bufferPool) put(buf *bytes.Buffer) {
	if buf.Cap() > maxPooledBuffer {
		return
	}
	buf.Reset()
	b.p.Put(buf)
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

// writeJSON answers v as JSON with status (and a final newline), with its Content-Length.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		// Only a value that cannot be JSON (a programming error) gets here.
		status, b = http.StatusInternalServerError, []byte(`{"error":{"code":"internal","message":"internal error"}}`)
	}
	b = append(b, '\n')
	writeJSONBytes(w, status, b, []string{strconv.Itoa(len(b))})
}

// setJSONHeaders makes h the headers of a JSON answer (see writeJSONBytes): its content type,
// and the security headers that apply to it in place of a page's.
func setJSONHeaders(h http.Header) {
	delete(h, "Referrer-Policy")
	delete(h, "Permissions-Policy")
	delete(h, "Cross-Origin-Opener-Policy")
	h["Content-Security-Policy"] = jsonSecurityPolicy
	h["X-Frame-Options"] = deny
	h["Content-Type"] = jsonContentType
}

// writeJSONBytes answers status with body, JSON ending in a newline, whose length is the one
// value of length.
//
// A JSON answer is not a document: it carries the security headers that still apply to it
// (nosniff, a policy that lets it load nothing and be framed nowhere, X-Frame-Options), and
// not those that only a page's script, subresources and windows use (Referrer-Policy,
// Permissions-Policy, Cross-Origin-Opener-Policy), as OWASP's REST security cheat sheet has it.
// Besides, with three headers fewer the response's header map stays within the size Go keeps
// without a table, which the status JSON, polled by every open PIX page without a stream,
// gains ≈ 8 % by (see the README's performance section).
func writeJSONBytes(w http.ResponseWriter, status int, body []byte, length []string) {
	h := w.Header()
	setJSONHeaders(h)
	h["Cache-Control"] = noStore
	h["Content-Length"] = length
	w.WriteHeader(status)
	_, _ = w.Write(body)
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
