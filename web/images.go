package web

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/static"
	"github.com/pixcheckout/pixcheckout/views"
)

// ImagePath is where product pictures are served: ImagePath + "{key}-{s|l}.{jpg|png}". The
// key is a digest of the picture's bytes, so a URL never changes content and browsers keep it
// for a year; a new upload gets new URLs.
const ImagePath = views.ImagePath

// productImage is GET /images/{file}: one variant of a product picture, from the database.
func (s *Server) productImage(w http.ResponseWriter, r *http.Request) {
	name := chi.URLParam(r, "file")
	base, ext, ok := strings.Cut(name, ".")
	key, size, ok2 := strings.Cut(base, "-")
	if !ok || !ok2 || (ext != "jpg" && ext != "png") {
		s.site.Error(w, r, http.StatusNotFound)
		return
	}
	v, err := s.svc.ProductImageVariant(r.Context(), key, size)
	if err != nil {
		s.site.Fail(w, r, err)
		return
	}
	if (ext == "png") != (v.ContentType == "image/png") {
		s.site.Error(w, r, http.StatusNotFound)
		return
	}
	writeImage(w, r, v, key+"-"+size)
}

// storeLogo is GET /images/store/{key}-{size}.png: one picture of the store's logo, current or
// former (e-mails already sent show it), from the database; kept like product pictures.
func (s *Server) storeLogo(w http.ResponseWriter, r *http.Request) {
	base, ok := strings.CutSuffix(chi.URLParam(r, "file"), ".png")
	key, size, ok2 := strings.Cut(base, "-")
	if !ok || !ok2 || s.site.Brand == nil {
		s.site.Error(w, r, http.StatusNotFound)
		return
	}
	v, err := s.site.Brand.LogoImage(r.Context(), key, size)
	if err != nil {
		s.site.Fail(w, r, err)
		return
	}
	writeImage(w, r, v, "logo-"+key+"-"+size)
}

// writeImage answers a stored picture whose content never changes under its URL (etag names
// it): kept for a year, revalidated by its ETag.
func writeImage(w http.ResponseWriter, r *http.Request, v *checkout.ImageVariant, etag string) {
	h := w.Header()
	h.Set("Content-Type", v.ContentType)
	h.Set("Content-Length", strconv.Itoa(len(v.Data)))
	h.Set("Cache-Control", static.CacheControl)
	h.Set("ETag", `"`+etag+`"`)
	h.Set("X-Content-Type-Options", "nosniff")
	if r.Header.Get("If-None-Match") == h.Get("ETag") {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	if r.Method == http.MethodHead {
		return
	}
	_, _ = w.Write(v.Data)
}
