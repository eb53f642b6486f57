package web

import (
	"errors"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/merchant"
	"github.com/pixcheckout/pixcheckout/views"
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
	p.HomeURL = respond.Link(r, merchant.SessionPath(sess.ID))
	p.Embed = views.Embed{Origin: sess.EmbedOrigin, SessionID: sess.ID, View: view,
		Status: checkout.SessionStatus(sess, o, s.svc.Now()), SuccessURL: successURL(sess, o), CancelURL: sess.CancelURL}
	p.Embed.Chromeless, p.Embed.Summary = respond.EmbedMode(r)
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
	sess, err := s.svc.CheckoutSession(r.Context(), chi.URLParam(r, "sessionID"))
	if err != nil {
		s.site.Fail(w, r, err)
		return
	}
	s.frameSession(w, r, sess)
	o, err := s.svc.SessionOrder(r.Context(), sess.ID)
	if err != nil {
		s.site.Fail(w, r, err)
		return
	}
	if o != nil {
		respond.Redirect(w, r, payPath(o.ID))
		return
	}
	if !sess.Open(s.svc.Now()) {
		s.renderSessionClosed(w, r, sess)
		return
	}
	values := views.CustomerForm{Customer: sess.Customer}
	if sess.Address != nil {
		values.Address = *sess.Address
	}
	s.renderSessionForm(w, r, sess, http.StatusOK, values, nil)
}

func (s *Server) renderSessionClosed(w http.ResponseWriter, r *http.Request, sess *checkout.CheckoutSession) {
	s.site.Render(w, r, http.StatusGone, views.SessionClosedPage(views.SessionClosedView{
		Page: s.sessionPage(r, sess, nil, "closed"), CancelURL: sess.CancelURL}))
}

// renderSessionForm renders the customer form of a session with the values and their errors.
func (s *Server) renderSessionForm(w http.ResponseWriter, r *http.Request, sess *checkout.CheckoutSession, status int, values views.CustomerForm, errs views.FieldErrors) {
	v := views.CustomerView{
		Page:      s.sessionPage(r, sess, nil, "form"),
		Action:    respond.Link(r, merchant.SessionPath(sess.ID)),
		Physical:  sess.Physical(),
		Values:    values,
		Errors:    errs,
		Shipping:  views.ShippingLine{Physical: sess.Physical(), Amount: sess.Shipping, Days: sess.DeliveryDays},
		Total:     sess.Amount,
		CancelURL: sess.CancelURL,
	}
	images := s.productImages(r)
	for _, l := range sess.Lines {
		img := images[l.ProductID]
		if l.ProductID == "" {
			img = l.Image
		}
		v.Lines = append(v.Lines, views.SummaryLine{Title: l.Title, Quantity: l.Quantity, LineTotal: l.Subtotal(), Image: img})
	}
	s.site.Render(w, r, status, views.CustomerPage(v))
}

// placeSessionOrder is POST /s/{sessionID}: places the session's order (the same one on every
// submission) and goes to its PIX page; invalid input shows the form again with 422.
func (s *Server) placeSessionOrder(w http.ResponseWriter, r *http.Request) {
	if !s.site.ParseForm(w, r) {
		return
	}
	sess, err := s.svc.CheckoutSession(r.Context(), chi.URLParam(r, "sessionID"))
	if err != nil {
		s.site.Fail(w, r, err)
		return
	}
	s.frameSession(w, r, sess)
	values := parseCustomerForm(r)
	lang := respond.Lang(r)
	o, err := s.svc.PlaceSessionOrder(r.Context(), checkout.PlaceSessionInput{
		SessionID: sess.ID, Customer: values.Customer, Address: &values.Address,
		Lang: string(lang), ShopperIP: respond.ClientIP(r),
	})
	var fe *checkout.ValidationError
	switch {
	case errors.As(err, &fe):
		s.renderSessionForm(w, r, sess, http.StatusUnprocessableEntity, values, views.FormErrors(lang, fe))
		return
	case errors.Is(err, checkout.ErrSessionExpired):
		s.renderSessionClosed(w, r, sess)
		return
	case err != nil:
		s.site.LogError(r, err, checkout.ErrorCode(err))
		s.renderSessionForm(w, r, sess, respond.HTTPStatus(checkout.CodeUnavailable), values, views.FieldErrors{"": views.T(lang, views.MsgGatewayDown)})
		return
	}
	respond.Redirect(w, r, payPath(o.ID))
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
