package web

import (
	"errors"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/web/apijson"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// The pages of a checkout session made through the merchant API: /s/{sessionID} is the
// customer form, prefilled by the merchant (the shopper may correct every value); its
// submission places the session's one order, paid on the usual PIX page. Like every shopper
// page they work without cookies: the session id in the URL is the shopper's credential.
//
// Framing: a session's pages (and its order's PIX and receipt pages) may be framed by 'self',
// the session's embedOrigin and CHECKOUT_FRAME_ANCESTORS, nothing else (CSP frame-ancestors);
// a browser shows nothing in a frame of any other origin.

// frameSession sets the framing headers of a page of sess: frame-ancestors 'self', the
// session's embedOrigin, the configured ancestors and the merchant settings' frame origins.
// X-Frame-Options cannot name an origin, so it goes.
func (s *Server) frameSession(w http.ResponseWriter, r *http.Request, sess *checkout.CheckoutSession) {
	ancestors := append([]string(nil), s.ancestors(r)...)
	if sess.EmbedOrigin != "" {
		ancestors = append(ancestors, sess.EmbedOrigin)
	}
	h := w.Header()
	h.Set("Content-Security-Policy", respond.ContentSecurityPolicy(ancestors))
	if len(ancestors) > 0 {
		h.Del("X-Frame-Options")
	}
}

// sessionPage is the common part of the view model of a page of sess (and of its order o, or
// nil): the embedding context frame.js reads, and the merchant's name linking to the session.
func (s *Server) sessionPage(r *http.Request, sess *checkout.CheckoutSession, o *checkout.Order, view string) views.Page {
	p := s.site.Page(r)
	p.HomeURL = respond.Link(r, apijson.SessionPath(sess.ID))
	p.Embed = views.Embed{Origin: sess.EmbedOrigin, SessionID: sess.ID, View: view,
		Status: checkout.SessionStatus(sess, o, s.svc.Now()), SuccessURL: successURL(sess, o), CancelURL: sess.CancelURL}
	p.Embed.Chromeless, p.Embed.Summary = respond.EmbedMode(r)
	p.Embed.Logo = respond.EmbedLogo(r)
	if o != nil {
		p.Embed.OrderID = o.ID
	}
	return p
}

// sessionOf returns the session of order o, or nil for a cart's order (or a session that
// cannot be read: the page then shows without its embedding).
func (s *Server) sessionOf(r *http.Request, o *checkout.Order) *checkout.CheckoutSession {
	if o.SessionID == "" {
		return nil
	}
	sess, err := s.svc.CheckoutSession(r.Context(), o.SessionID)
	if err != nil {
		s.site.LogError(r, err, checkout.ErrorCode(err))
		return nil
	}
	return sess
}

// sessionForm is GET /s/{sessionID}: the prefilled customer form; the PIX page once the order
// is placed; a closed page once the session expired unplaced.
func (s *Server) sessionForm(w http.ResponseWriter, r *http.Request) {
	if f, ok := s.sessionFormSource(w, r); ok {
		s.customerForm(w, r, f)
	}
}

// placeSessionOrder is POST /s/{sessionID}: places the session's order (the same one on every
// submission) and goes to its PIX page.
func (s *Server) placeSessionOrder(w http.ResponseWriter, r *http.Request) {
	if f, ok := s.sessionFormSource(w, r); ok {
		s.placeOrder(w, r, f)
	}
}

// sessionFormSource is the form source of the session of the request's address, its framing
// headers set.
func (s *Server) sessionFormSource(w http.ResponseWriter, r *http.Request) (formSource, bool) {
	sess, err := s.svc.CheckoutSession(r.Context(), chi.URLParam(r, "sessionID"))
	if err != nil {
		s.site.Fail(w, r, err)
		return formSource{}, false
	}
	s.frameSession(w, r, sess)
	return formSource{channel: checkout.ChannelSession, id: sess.ID, action: apijson.SessionPath(sess.ID),
		page: s.sessionPage(r, sess, nil, "form"), cancel: sess.CancelURL,
		refused: func(w http.ResponseWriter, r *http.Request, err error) bool {
			if !errors.Is(err, checkout.ErrSessionExpired) {
				return false
			}
			s.renderSessionClosed(w, r, sess)
			return true
		}}, true
}

func (s *Server) renderSessionClosed(w http.ResponseWriter, r *http.Request, sess *checkout.CheckoutSession) {
	s.site.Render(w, r, http.StatusGone, views.SessionClosedPage(views.SessionClosedView{
		Page: s.sessionPage(r, sess, nil, "closed"), CancelURL: sess.CancelURL}))
}

// successURL returns a session's successUrl with {CHECKOUT_SESSION_ID} and {ORDER_ID}
// replaced, as merchants' servers expect to find them there.
func successURL(sess *checkout.CheckoutSession, o *checkout.Order) string {
	u := strings.ReplaceAll(sess.SuccessURL, "{CHECKOUT_SESSION_ID}", sess.ID)
	if o != nil {
		u = strings.ReplaceAll(u, "{ORDER_ID}", o.ID)
	}
	return u
}
