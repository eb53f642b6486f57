package web

import (
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5"

	"github.com/pixcheckout/pixcheckout/static"
)

// storeCSS is GET /static/store-{hash}.css: the stylesheet of the store's colours (package
// brand), linked by every shopper page (the content security policy allows no inline style).
// Its URL carries a digest of its content: the current one is kept for a year; an older URL,
// which a page rendered before a save may still ask for, gets the current stylesheet, never
// kept.
func (s *Server) storeCSS(w http.ResponseWriter, r *http.Request) {
	css, hash := s.site.Profile(r.Context()).Stylesheet()
	h := w.Header()
	h.Set("Content-Type", "text/css; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(css)))
	h.Set("X-Content-Type-Options", "nosniff")
	if chi.URLParam(r, "hash") != hash {
		h.Set("Cache-Control", "no-cache")
	} else {
		h.Set("Cache-Control", static.CacheControl)
		h.Set("ETag", `"`+hash+`"`)
		if r.Header.Get("If-None-Match") == h.Get("ETag") {
			w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	if r.Method == http.MethodHead {
		return
	}
	_, _ = w.Write([]byte(css))
}
