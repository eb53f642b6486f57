// Package respond is how the checkout's HTTP handlers answer, shared by the shopper side
// (package web) and the merchant dashboard (package web/dashboard): the frame of every page's
// view model, a templ page rendered whole (a clean 500 on a rendering error), the error page,
// the domain's error codes as HTTP statuses and as the one JSON error shape, the request's id
// and language (Identify works them out once per request), links that keep ?lang=, form bodies
// read within a limit, and the content security policy.
package respond

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"sync"

	"github.com/a-h/templ"

	"github.com/pixcheckout/pixcheckout/checkout/brand"
	"github.com/pixcheckout/pixcheckout/gatewayclient/health"
	"github.com/pixcheckout/pixcheckout/views"
)

// MaxFormBytes bounds a form body (ParseForm answers 413 beyond).
const MaxFormBytes = 64 << 10

// Site is what every page of the checkout shares: the frame of its view models, and the log
// its answers write to. One Site serves the shopper pages and the dashboard alike.
type Site struct {
	// Log receives the errors of rendering and of the handlers (required).
	Log *slog.Logger
	// Brand, when set, is the store's face as the merchant set it in the dashboard: every
	// page reads its name, payee and contact from it, and Name and Merchant are unused.
	Brand *brand.Manager
	// Name is the merchant's name, in every page's header and title (without Brand).
	Name string
	// Assets resolves the names of the static files.
	Assets views.Assets
	// Sandbox is set when the embedded sandbox gateway is in use: every page says so.
	Sandbox bool
	// Merchant is the payee as the shopper's bank shows it, and the support contact (without
	// Brand).
	Merchant views.Merchant
	// Gateway, when set, tells the gateway's state as this instance knows it (readiness, the
	// dashboard's banner, the PIX page); nil: always working.
	Gateway func() health.State

	pages sync.Pool // Render's buffers
}

// GatewayState is the gateway's state (Gateway's, else working).
func (s *Site) GatewayState() health.State {
	if s.Gateway == nil {
		return health.State{OK: true}
	}
	return s.Gateway()
}

// Profile returns the store's face in force: Brand's (as last read when the store cannot be
// read, the error logged: a page never fails for it), else Name's and Merchant's.
func (s *Site) Profile(ctx context.Context) brand.Profile {
	if s.Brand == nil {
		m := s.Merchant
		return brand.Profile{Name: s.Name, LegalName: m.LegalName, Document: m.Document, SupportEmail: m.SupportEmail,
			SupportPhone: m.SupportPhone, SupportURL: m.SupportURL}
	}
	p, err := s.Brand.Get(ctx)
	if err != nil {
		s.Log.WarnContext(ctx, "reading the store's profile", "request_id", RequestID(ctx), "err", err)
	}
	return p
}

// storeCSS is the path of p's stylesheet (see views.Page.StoreCSS); "" without Brand, whose
// pages are the product's own.
func (s *Site) storeCSS(p brand.Profile) string {
	if s.Brand == nil {
		return ""
	}
	_, hash := p.Stylesheet()
	return views.StoreCSSPrefix + hash + ".css"
}

// Page returns the common part of every page's view model, with the store's face in force.
func (s *Site) Page(r *http.Request) views.Page { return s.PageOf(r, s.Profile(r.Context())) }

// PageOf is Page with the store's face p: the dashboard's preview draws the shopper pages with
// values not saved yet.
func (s *Site) PageOf(r *http.Request, p brand.Profile) views.Page {
	q := r.URL.Query()
	q.Del("lang")
	return views.Page{
		Lang:         Lang(r),
		MerchantName: p.Name,
		HomeURL:      Link(r, "/"),
		Path:         r.URL.EscapedPath(),
		Query:        q.Encode(),
		Assets:       s.Assets,
		Sandbox:      s.Sandbox,
		Merchant: views.Merchant{LegalName: p.LegalName, Document: p.Document, SupportEmail: p.SupportEmail,
			SupportPhone: p.SupportPhone, SupportURL: p.SupportURL, Address: p.Address,
			Note: p.Note, Thanks: p.Thanks},
		StoreCSS: s.storeCSS(p),
		Logo:     views.StoreLogo(p),
	}
}

// Render writes a page with status (see WritePage). The page is rendered into a buffer first,
// so that a rendering error gives a clean 500 instead of half a page; the buffers are the
// site's, reused: a page is tens of kilobytes, which a new buffer grew to at every request.
func (s *Site) Render(w http.ResponseWriter, r *http.Request, status int, c templ.Component) {
	buf, _ := s.pages.Get().(*bytes.Buffer)
	if buf == nil {
		buf = new(bytes.Buffer)
	}
	defer func() {
		if buf.Cap() <= maxKeptPage {
			buf.Reset()
			s.pages.Put(buf)
		}
	}()
	if err := c.Render(r.Context(), buf); err != nil {
		s.Log.ErrorContext(r.Context(), "rendering a page", "request_id", RequestID(r.Context()), "err", err)
		s.Error(w, r, http.StatusInternalServerError)
		return
	}
	WritePage(w, status, buf.Bytes())
}

// maxKeptPage bounds the buffers Render keeps for the next pages: a rare long one (a
// dashboard's list) is not held.
const maxKeptPage = 256 << 10

// WritePage answers status with an HTML page, with its length.
func WritePage(w http.ResponseWriter, status int, page []byte) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	// Pages hold carts, orders and customer data: never kept by shared caches.
	h.Set("Cache-Control", "no-store")
	// Dropped by the compressor when it compresses the page.
	h.Set("Content-Length", strconv.Itoa(len(page)))
	w.WriteHeader(status)
	_, _ = w.Write(page)
}

// Error answers an error page with status; nothing of the cause is shown but the request id.
func (s *Site) Error(w http.ResponseWriter, r *http.Request, status int) {
	s.ErrorMessage(w, r, status, "")
}

// ErrorMessage is Error with a localised explanation (a message of the views' catalogue); the
// plain not-found page is for a 404 without one.
func (s *Site) ErrorMessage(w http.ResponseWriter, r *http.Request, status int, msg string) {
	p := s.Page(r)
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

// ParseForm reads a form body of at most MaxFormBytes. It answers the error itself (413 when
// the body is too large, 400 otherwise) and reports whether the handler may go on.
func (s *Site) ParseForm(w http.ResponseWriter, r *http.Request) bool {
	r.Body = http.MaxBytesReader(w, r.Body, MaxFormBytes)
	if err := r.ParseForm(); err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			s.Error(w, r, http.StatusRequestEntityTooLarge)
			return false
		}
		s.Error(w, r, http.StatusBadRequest)
		return false
	}
	return true
}

// Redirect answers 303 See Other to a local path, keeping ?lang= when it was explicit.
func Redirect(w http.ResponseWriter, r *http.Request, path string) {
	http.Redirect(w, r, Link(r, path), http.StatusSeeOther)
}
