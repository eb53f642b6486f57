package web

import (
	"errors"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/charges"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/web/apijson"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// The customer's page of a charge with a due date (/c/{chargeID}), the link the merchant sends:
// no sign-in (the id is unguessable), no cookie (it may be framed like the other shopper
// pages). It says who bills, what, and what the charge asks today; "Pagar com Pix" places the
// day's order of the charge (checkout.ChannelCharge: one per São Paulo day and amount asked,
// so posting the form again gives the same order) and goes to its usual PIX page. A paid
// charge shows the receipt of the order that paid it.

// chargePath is the path of a charge's page.
func chargePath(id string) string { return apijson.ChargePath(id) }

// chargePage is GET /c/{chargeID}.
func (s *Server) chargePage(w http.ResponseWriter, r *http.Request) {
	c, ok := s.readCharge(w, r)
	if !ok {
		return
	}
	if c.Status == charges.StatusPaid {
		s.chargeReceipt(w, r, &c)
		return
	}
	s.renderCharge(w, r, &c, http.StatusOK, "")
}

// payCharge is POST /c/{chargeID}: the day's order of the charge, then its PIX page.
func (s *Server) payCharge(w http.ResponseWriter, r *http.Request) {
	if !s.site.ParseForm(w, r) {
		return
	}
	c, ok := s.readCharge(w, r)
	if !ok {
		return
	}
	o, err := s.svc.PlaceOrder(r.Context(), checkout.PlaceOrderInput{
		Channel: checkout.ChannelCharge, Source: c.ID, RequestKey: r.PostForm.Get(checkout.FieldRequestKey),
		Customer: checkout.Customer{Name: c.Customer.Name, Document: c.Customer.Document, Email: c.Customer.Email,
			Phone: c.Customer.Phone},
		Lang: string(respond.Lang(r)), ShopperIP: respond.ClientIP(r),
	})
	var fe *checkout.ValidationError
	switch {
	case err == nil:
		respond.Redirect(w, r, payPath(o.ID))
	case errors.Is(err, charges.ErrFinal):
		// Paid or canceled since the page was shown: the page says which.
		respond.Redirect(w, r, chargePath(c.ID))
	case errors.Is(err, charges.ErrDayEnding):
		w.Header().Set("Retry-After", "60")
		s.renderCharge(w, r, &c, http.StatusServiceUnavailable, "day_ending")
	case errors.As(err, &fe):
		// The charge's own data, which the customer cannot change, was refused.
		s.site.LogError(r, err, checkout.CodeInvalid)
		s.renderCharge(w, r, &c, http.StatusUnprocessableEntity, "refused")
	default:
		code := checkout.ErrorCode(err)
		s.site.LogError(r, err, code)
		s.renderCharge(w, r, &c, respond.HTTPStatus(checkout.CodeUnavailable), "unavailable")
	}
}

// readCharge reads the charge of the request's address, or answers that there is none.
func (s *Server) readCharge(w http.ResponseWriter, r *http.Request) (charges.Charge, bool) {
	if s.charges == nil {
		s.site.Fail(w, r, checkout.ErrNotFound)
		return charges.Charge{}, false
	}
	c, err := s.charges.Charge(r.Context(), chi.URLParam(r, "chargeID"))
	if err != nil {
		s.site.Fail(w, r, err)
		return charges.Charge{}, false
	}
	return c, true
}

// chargeReceipt answers the page of paid charge c: the receipt of the order that paid it last.
func (s *Server) chargeReceipt(w http.ResponseWriter, r *http.Request, c *charges.Charge) {
	paid, err := s.svc.Orders(r.Context(), checkout.OrderFilter{ChargeID: c.ID,
		Statuses: []checkout.OrderStatus{checkout.StatusPaid}, Limit: 1})
	if err != nil {
		s.site.Fail(w, r, err)
		return
	}
	if len(paid) == 0 {
		// Paid through orders refunded since, or marked paid by other means: nothing to show.
		s.site.Fail(w, r, checkout.ErrNotFound)
		return
	}
	respond.Redirect(w, r, payPath(paid[0].ID)+"/paid")
}

// renderCharge renders the page of c as it stands today, with notice ("" none) saying why no
// PIX code was made.
func (s *Server) renderCharge(w http.ResponseWriter, r *http.Request, c *charges.Charge, status int, notice string) {
	now := s.svc.Now()
	day := charges.Today(now)
	due := c.Terms.On(day)
	v := views.CustomerChargeView{Page: s.site.Page(r), Description: c.Description, Customer: c.Customer.Name,
		Due: c.Terms.Due.String(), Status: string(c.Status), Amount: due.Amount, Discount: due.Discount,
		Fine: due.Fine, Interest: due.Interest, DaysLate: due.DaysLate, Paid: c.Paid, Balance: c.Balance(day),
		Action: respond.Link(r, chargePath(c.ID)), Notice: notice}
	if due.Discount > 0 {
		v.DiscountUntil = c.Terms.Discount.Until.String()
	}
	if src, err := c.Source(now); err == nil {
		v.RequestKey = src.NewRequestKey()
	} else if errors.Is(err, charges.ErrDayEnding) {
		v.Notice = "day_ending"
	}
	s.site.Render(w, r, status, views.CustomerChargePage(v))
}
