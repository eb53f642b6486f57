package web

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/merchant"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// The pages of a payment link (/l/{slug}), made in the dashboard or through the merchant API:
// the amount the payer types when the link asks for one (GET, ?amount= as typed), then the
// usual customer form, whose submission places the order and goes to its usual PIX page and
// receipt. The amount, once accepted, travels in cents in the form's address (?cents=), and is
// checked again when the order is placed. A link that takes no new payment answers 410 (409
// when its places are all taken) and says why; its orders' own pages go on.

// payLinkPath is the path of a payment link's page.
func payLinkPath(slug string) string { return merchant.LinkPath(slug) }

// payLink is GET /l/{slug}.
func (s *Server) payLink(w http.ResponseWriter, r *http.Request) {
	l, err := s.svc.LinkBySlug(r.Context(), chi.URLParam(r, "slug"))
	if err != nil {
		s.site.Fail(w, r, err)
		return
	}
	if !l.Open(s.svc.Now()) {
		s.renderLinkClosed(w, r, l, checkout.ErrLinkClosed)
		return
	}
	if l.Kind != checkout.LinkCustom {
		s.renderLinkForm(w, r, l, 0, http.StatusOK, views.CustomerForm{}, nil)
		return
	}
	typed, given := r.URL.Query()["amount"]
	if !given {
		s.renderLinkAmount(w, r, l, http.StatusOK, "", "")
		return
	}
	amount, err := checkout.ParseReais(typed[0])
	if err == nil {
		err = checkout.CheckLinkAmount(l, amount)
	}
	if err != nil {
		s.renderLinkAmount(w, r, l, http.StatusUnprocessableEntity, typed[0], amountCode(err))
		return
	}
	s.renderLinkForm(w, r, l, amount, http.StatusOK, views.CustomerForm{}, nil)
}

// amountCode is the violation code of a refused typed amount ("format" when unreadable).
func amountCode(err error) string {
	var fe *checkout.ValidationError
	if errors.As(err, &fe) {
		return fe.Code(checkout.FieldLinkAmount)
	}
	return "format"
}

// placeLinkOrder is POST /l/{slug}: the customer form's submission.
func (s *Server) placeLinkOrder(w http.ResponseWriter, r *http.Request) {
	if !s.site.ParseForm(w, r) {
		return
	}
	l, err := s.svc.LinkBySlug(r.Context(), chi.URLParam(r, "slug"))
	if err != nil {
		s.site.Fail(w, r, err)
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
	values := parseCustomerForm(r)
	lang := respond.Lang(r)
	o, err := s.svc.PlaceLinkOrder(r.Context(), checkout.PlaceLinkInput{Slug: l.Slug,
		RequestKey: r.PostForm.Get(checkout.FieldRequestKey), Amount: amount, Customer: values.Customer,
		Address: &values.Address, Lang: string(lang), ShopperIP: respond.ClientIP(r)})
	var fe *checkout.ValidationError
	switch {
	case errors.As(err, &fe) && fe.Has(checkout.FieldLinkAmount):
		s.renderLinkAmount(w, r, l, http.StatusUnprocessableEntity, "", fe.Code(checkout.FieldLinkAmount))
	case errors.As(err, &fe):
		s.renderLinkForm(w, r, l, amount, http.StatusUnprocessableEntity, values, views.FormErrors(lang, fe))
	case errors.Is(err, checkout.ErrLinkClosed), errors.Is(err, checkout.ErrLinkFull):
		s.renderLinkClosed(w, r, l, err)
	case err != nil:
		s.site.LogError(r, err, checkout.ErrorCode(err))
		s.renderLinkForm(w, r, l, amount, respond.HTTPStatus(checkout.CodeUnavailable), values,
			views.FieldErrors{"": views.T(lang, views.MsgGatewayDown)})
	default:
		respond.Redirect(w, r, payPath(o.ID))
	}
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

// renderLinkForm renders the customer form of link l (for amount, when typed), with the
// values typed and their errors, and a fresh request key.
func (s *Server) renderLinkForm(w http.ResponseWriter, r *http.Request, l *checkout.PaymentLink, amount checkout.Cents, status int, values views.CustomerForm, errs views.FieldErrors) {
	action := payLinkPath(l.Slug)
	lines := l.Lines
	total := l.Amount
	if l.Kind == checkout.LinkCustom {
		action += "?cents=" + strconv.FormatInt(int64(amount), 10)
		lines = []checkout.OrderLine{{Title: l.Title, UnitPrice: amount, Quantity: 1}}
		total = amount
	}
	v := views.CustomerView{
		Page:        s.site.Page(r),
		Action:      respond.Link(r, action),
		RequestKey:  checkout.NewID(),
		Physical:    l.Physical(),
		Values:      values,
		Errors:      errs,
		Total:       total,
		NotAsked:    l.NotAsked(),
		Heading:     l.Title,
		Description: l.Description,
	}
	if s.svc.LooksUpCEP() {
		v.CEPLookupURL = "/cep/"
	}
	for _, ln := range lines {
		v.Lines = append(v.Lines, views.SummaryLine{Title: ln.Title, Quantity: ln.Quantity, LineTotal: ln.Subtotal()})
	}
	s.site.Render(w, r, status, views.CustomerPage(v))
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
