package web

import (
	"encoding/json"
	"errors"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// customerForm is GET /cart/{cartID}/checkout: the customer form with a fresh request key.
func (s *Server) customerForm(w http.ResponseWriter, r *http.Request) {
	c, err := s.svc.Cart(r.Context(), chi.URLParam(r, "cartID"))
	if err != nil {
		s.site.Fail(w, r, err)
		return
	}
	if len(c.Lines) == 0 {
		respond.Redirect(w, r, cartPath(c.ID))
		return
	}
	s.renderCustomerForm(w, r, c, http.StatusOK, views.CustomerForm{}, nil)
}

// renderCustomerForm renders the customer form of cart c with the values typed and their
// errors. Every rendering gets a new request key: a key whose submission was refused is spent.
func (s *Server) renderCustomerForm(w http.ResponseWriter, r *http.Request, c *checkout.Cart, status int, values views.CustomerForm, errs views.FieldErrors) {
	ship, err := s.cartShipping(r, c)
	if err != nil {
		s.site.Fail(w, r, err)
		return
	}
	v := views.CustomerView{
		Page:       s.site.Page(r),
		Action:     respond.Link(r, checkoutPath(c.ID)),
		RequestKey: checkout.NewRequestKeyShipping(c, ship.Amount),
		Physical:   c.NeedsAddress(),
		Values:     values,
		Errors:     errs,
		Shipping:   ship,
		Total:      c.Total() + ship.Amount,
		BackURL:    respond.Link(r, cartPath(c.ID)),
	}
	if s.svc.LooksUpCEP() {
		v.CEPLookupURL = "/cep/"
	}
	images := s.productImages(r)
	for _, l := range c.Lines {
		v.Lines = append(v.Lines, views.SummaryLine{Title: l.Product.Title, Quantity: l.Quantity, LineTotal: l.Subtotal(),
			Image: images[l.Product.ID]})
	}
	s.site.Render(w, r, status, views.CustomerPage(v))
}

// parseCustomerForm reads the customer form's fields, by checkout's field names, exactly as
// typed.
func parseCustomerForm(r *http.Request) views.CustomerForm {
	get := r.PostForm.Get
	return views.CustomerForm{
		Customer: checkout.Customer{Name: get(checkout.FieldName), Document: get(checkout.FieldDocument),
			Email: get(checkout.FieldEmail), Phone: get(checkout.FieldPhone)},
		Address: checkout.Address{ZipCode: get(checkout.FieldZipCode), Street: get(checkout.FieldStreet),
			Number: get(checkout.FieldNumber), Complement: get(checkout.FieldComplement),
			Neighborhood: get(checkout.FieldNeighborhood), City: get(checkout.FieldCity),
			State: get(checkout.FieldState), Country: get(checkout.FieldCountry)},
	}
}

// placeOrder is POST /cart/{cartID}/checkout. Invalid input (or the gateway's 422) renders the
// form again with 422, every value kept and each error beside its field; success goes to the
// PIX page.
func (s *Server) placeOrder(w http.ResponseWriter, r *http.Request) {
	if !s.site.ParseForm(w, r) {
		return
	}
	cartID := chi.URLParam(r, "cartID")
	values := parseCustomerForm(r)
	lang := respond.Lang(r)
	o, err := s.svc.PlaceOrder(r.Context(), checkout.PlaceOrderInput{
		CartID:     cartID,
		RequestKey: r.PostForm.Get(checkout.FieldRequestKey),
		Customer:   values.Customer,
		Address:    &values.Address, // ignored by the domain when no product is physical
		Lang:       string(lang),
		ShopperIP:  respond.ClientIP(r),
	})
	var fe *checkout.ValidationError
	switch code := checkout.ErrorCode(err); {
	case errors.As(err, &fe):
		s.showCustomerForm(w, r, cartID, http.StatusUnprocessableEntity, values, views.FormErrors(lang, fe))
		return
	case code == checkout.CodeEmptyCart:
		respond.Redirect(w, r, cartPath(cartID))
		return
	case code == checkout.CodeNotFound:
		s.site.Fail(w, r, err)
		return
	case err != nil:
		// The gateway is unreachable before the order could even be stored, or the store failed:
		// the form again, every value kept, saying to try again.
		s.site.LogError(r, err, code)
		s.showCustomerForm(w, r, cartID, respond.HTTPStatus(checkout.CodeUnavailable), values, views.FieldErrors{"": views.T(lang, views.MsgGatewayDown)})
		return
	}
	// The cart became an order: the next visit to the shop starts a new one.
	if rememberedCart(r) == cartID {
		s.rememberCart(w, "")
	}
	respond.Redirect(w, r, payPath(o.ID))
}

// showCustomerForm reads the cart and renders its form with the values typed and their errors.
func (s *Server) showCustomerForm(w http.ResponseWriter, r *http.Request, cartID string, status int, values views.CustomerForm, errs views.FieldErrors) {
	c, err := s.svc.Cart(r.Context(), cartID)
	if err != nil {
		s.site.Fail(w, r, err)
		return
	}
	s.renderCustomerForm(w, r, c, status, values, errs)
}

// lookupCEP is GET /cep/{cep}: JSON {cep, street, neighborhood, city, state} for the customer
// form's address lookup; 404 when unknown, 422 when not a CEP, 503 when the service is down.
// The answer holds nothing personal, so browsers may keep it for a day.
func (s *Server) lookupCEP(w http.ResponseWriter, r *http.Request) {
	a, err := s.svc.LookupCEP(r.Context(), chi.URLParam(r, "cep"))
	if err != nil {
		s.site.FailJSON(w, r, err)
		return
	}
	respond.SetJSONHeaders(w.Header())
	w.Header().Set("Cache-Control", "public, max-age=86400")
	_ = json.NewEncoder(w).Encode(a)
}
