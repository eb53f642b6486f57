package web

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/web/apijson"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// The pages of a payment link (/l/{slug}), made in the dashboard or through the merchant API:
// the amount the payer types when the link asks for one (GET, ?amount= as typed), then the
// usual customer form, whose submission places the order and goes to its usual PIX page and
// receipt. The amount, once accepted, travels in cents in the form's address (?cents=), and is
// checked again when the order is placed. A link that takes no new payment answers 410 (409
// when its places are all taken) and says why; its orders' own pages go on.

// payLinkPath is the path of a payment link's page.
func payLinkPath(slug string) string { return apijson.LinkPath(slug) }

// payLink is GET /l/{slug}: the amount to type when the link asks for one (?amount= as typed),
// then the customer form.
func (s *Server) payLink(w http.ResponseWriter, r *http.Request) {
	l, ok := s.readLink(w, r)
	if !ok {
		return
	}
	var amount checkout.Cents
	if l.Kind == checkout.LinkCustom && l.Open(s.svc.Now()) {
		typed, given := r.URL.Query()["amount"]
		if !given {
			s.renderLinkAmount(w, r, l, http.StatusOK, "", "")
			return
		}
		c, err := checkout.ParseReais(typed[0])
		if err != nil {
			s.renderLinkAmount(w, r, l, http.StatusUnprocessableEntity, typed[0], "format")
			return
		}
		amount = c
	}
	s.customerForm(w, r, s.linkForm(r, l, amount, r.URL.Query().Get("amount")))
}

// placeLinkOrder is POST /l/{slug}: the customer form's submission; the amount of a link that
// asks for one travels in cents in the form's address (?cents=).
func (s *Server) placeLinkOrder(w http.ResponseWriter, r *http.Request) {
	l, ok := s.readLink(w, r)
	if !ok {
		return
	}
	var amount checkout.Cents
	if l.Kind == checkout.LinkCustom {
		c, err := strconv.ParseInt(r.URL.Query().Get("cents"), 10, 64)
		if err != nil {
			s.renderLinkAmount(w, r, l, http.StatusUnprocessableEntity, "", "format")
			return
		}
		amount = checkout.Cents(c)
	}
	s.placeOrder(w, r, s.linkForm(r, l, amount, ""))
}

func (s *Server) readLink(w http.ResponseWriter, r *http.Request) (*checkout.PaymentLink, bool) {
	l, err := s.svc.LinkBySlug(r.Context(), chi.URLParam(r, "slug"))
	if err != nil {
		s.site.Fail(w, r, err)
		return nil, false
	}
	return l, true
}

// linkForm is the form source of link l, for amount when the payer typed it (as typed: the
// amount page shows it again when refused).
func (s *Server) linkForm(r *http.Request, l *checkout.PaymentLink, amount checkout.Cents, typed string) formSource {
	action := payLinkPath(l.Slug)
	if l.Kind == checkout.LinkCustom {
		action += "?cents=" + strconv.FormatInt(int64(amount), 10)
	}
	return formSource{channel: checkout.ChannelLink, id: l.Slug, amount: amount, action: action, page: s.site.Page(r),
		refused: func(w http.ResponseWriter, r *http.Request, err error) bool {
			var fe *checkout.ValidationError
			switch {
			case errors.As(err, &fe) && fe.Has(checkout.FieldLinkAmount):
				s.renderLinkAmount(w, r, l, http.StatusUnprocessableEntity, typed, fe.Code(checkout.FieldLinkAmount))
			case errors.Is(err, checkout.ErrLinkClosed), errors.Is(err, checkout.ErrLinkFull):
				s.renderLinkClosed(w, r, l, err)
			default:
				return false
			}
			return true
		}}
}

// renderLinkAmount renders the page asking for the amount of link l, with the value typed and
// the code of its violation ("" none).
func (s *Server) renderLinkAmount(w http.ResponseWriter, r *http.Request, l *checkout.PaymentLink, status int, typed, code string) {
	lo, hi := l.AmountBounds()
	page := s.site.Page(r)
	v := views.PayLinkAmountView{Page: page, Title: l.Title, Description: l.Description,
		Action: payLinkPath(l.Slug), Amount: typed, Min: lo, Max: hi}
	if lang, explicit := respond.LangOf(r); explicit {
		v.KeepLang = string(lang)
	}
	if code != "" {
		v.Error = views.PayLinkAmountError(page.Lang, code, lo, hi)
	}
	s.site.Render(w, r, status, views.PayLinkAmountPage(v))
}

// renderLinkClosed says why link l takes no new payment: 410 when inactive or expired, 409
// when its places are all taken (err ErrLinkFull).
func (s *Server) renderLinkClosed(w http.ResponseWriter, r *http.Request, l *checkout.PaymentLink, err error) {
	status, reason := http.StatusGone, "inactive"
	switch {
	case errors.Is(err, checkout.ErrLinkFull):
		status, reason = http.StatusConflict, "full"
	case l.Expired(s.svc.Now()):
		reason = "expired"
	}
	s.site.Render(w, r, status, views.PayLinkClosedPage(views.PayLinkClosedView{Page: s.site.Page(r), Title: l.Title, Reason: reason}))
}

// renderOrderLinkFull answers a new QR code refused to order id because every place of its
// payment link is taken: the link's page says why, with 409.
func (s *Server) renderOrderLinkFull(w http.ResponseWriter, r *http.Request, id string) {
	o, err := s.svc.Snapshot(r.Context(), id)
	if err != nil {
		s.site.Fail(w, r, err)
		return
	}
	l, err := s.svc.Link(r.Context(), o.LinkID)
	if err != nil {
		s.site.Fail(w, r, err)
		return
	}
	s.renderLinkClosed(w, r, l, checkout.ErrLinkFull)
}
