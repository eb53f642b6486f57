package web

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// The customer form of every checkout source: the shop's cart (/cart/{cartID}/checkout), a
// checkout session (/s/{sessionID}) and a payment link (/l/{slug}, after the amount when it asks
// for one). One handler shows it and one places its order (checkout.Service.PlaceOrder); a
// formSource says what differs: its address, the page around it, and the page that says why a
// source takes no order.

// formSource is a checkout source as its customer form's handlers see it.
type formSource struct {
	channel checkout.Channel
	id      string         // as checkout.PlaceOrderInput.Source takes it
	amount  checkout.Cents // the amount a payer typed for a payment link that asks for it
	action  string         // the form's path
	page    views.Page
	backURL string // the cart's page
	cancel  string // a checkout session's cancelUrl
	// refused answers an error of the source that has a page of its own (an empty cart, an
	// expired session, a closed link, a refused amount) and reports whether it did.
	refused func(w http.ResponseWriter, r *http.Request, err error) bool
}

// cartForm is the form source of the cart of the request's address.
func (s *Server) cartForm(r *http.Request) formSource {
	id := chi.URLParam(r, "cartID")
	return formSource{channel: checkout.ChannelShop, id: id, action: checkoutPath(id), page: s.site.Page(r),
		backURL: respond.Link(r, cartPath(id)),
		refused: func(w http.ResponseWriter, r *http.Request, err error) bool {
			if checkout.ErrorCode(err) != checkout.CodeEmptyCart {
				return false
			}
			respond.Redirect(w, r, cartPath(id))
			return true
		}}
}

// cartCheckout is GET /cart/{cartID}/checkout.
func (s *Server) cartCheckout(w http.ResponseWriter, r *http.Request) {
	s.customerForm(w, r, s.cartForm(r))
}

// placeCartOrder is POST /cart/{cartID}/checkout.
func (s *Server) placeCartOrder(w http.ResponseWriter, r *http.Request) {
	s.placeOrder(w, r, s.cartForm(r))
}

// customerForm shows the customer form of f, prefilled with what the merchant knows of the
// customer; the PIX page once the source's one order is placed.
func (s *Server) customerForm(w http.ResponseWriter, r *http.Request, f formSource) {
	src, ok := s.formSource(w, r, f)
	if !ok {
		return
	}
	if src.Placed != nil {
		respond.Redirect(w, r, payPath(src.Placed.ID))
		return
	}
	values := views.CustomerForm{Customer: src.Prefill}
	if src.PrefillAddress != nil {
		values.Address = *src.PrefillAddress
	}
	s.renderCustomerForm(w, r, f, src, http.StatusOK, values, checkout.ValidationError{})
}

// formSource reads the checkout source of f, or answers why there is none.
func (s *Server) formSource(w http.ResponseWriter, r *http.Request, f formSource) (*checkout.Source, bool) {
	src, err := s.svc.Source(r.Context(), f.channel, f.id, f.amount)
	if err != nil {
		if !f.refused(w, r, err) {
			s.site.Fail(w, r, err)
		}
		return nil, false
	}
	return src, true
}

// renderCustomerForm renders the customer form of src with the values typed and their
// errors. Every rendering gets a new request key: a key whose submission was refused is spent.
func (s *Server) renderCustomerForm(w http.ResponseWriter, r *http.Request, f formSource, src *checkout.Source, status int, values views.CustomerForm, errs checkout.ValidationError) {
	v := views.CustomerView{
		Page:        f.page,
		Action:      respond.Link(r, f.action),
		RequestKey:  src.NewRequestKey(),
		Physical:    src.Physical(),
		Values:      values,
		Errors:      errs,
		Lines:       summary(src.Lines),
		Shipping:    views.ShippingLine{Physical: src.Physical(), Amount: src.Shipping, Days: src.DeliveryDays},
		Total:       src.Total(),
		BackURL:     f.backURL,
		CancelURL:   f.cancel,
		NotAsked:    src.NotAsked,
		Heading:     src.Title,
		Description: src.Description,
	}
	if s.svc.LooksUpCEP() {
		v.CEPLookupURL = "/cep/"
	}
	s.site.Render(w, r, status, views.CustomerPage(v))
}

// parseCustomerForm reads the customer form's fields, by checkout's field names, exactly as
// typed.
func parseCustomerForm(r *http.Request) views.CustomerForm {
	get := r.PostForm.Get
	number := get(checkout.FieldNumber)
	if get("no_number") == "true" {
		number = views.NoNumber // "sem número": the gateway takes digits only
	}
	return views.CustomerForm{
		Customer: checkout.Customer{Name: get(checkout.FieldName), Document: get(checkout.FieldDocument),
			Email: get(checkout.FieldEmail), Phone: get(checkout.FieldPhone)},
		Address: checkout.Address{ZipCode: get(checkout.FieldZipCode), Street: get(checkout.FieldStreet),
			Number: number, Complement: get(checkout.FieldComplement),
			Neighborhood: get(checkout.FieldNeighborhood), City: get(checkout.FieldCity),
			State: get(checkout.FieldState), Country: get(checkout.FieldCountry)},
	}
}

// placeOrder is the customer form's submission: the order of f, then its PIX page. Invalid
// input (or the gateway's 422) renders the form again with 422, every value kept and each
// error beside its field.
func (s *Server) placeOrder(w http.ResponseWriter, r *http.Request, f formSource) {
	if !s.site.ParseForm(w, r) {
		return
	}
	values := parseCustomerForm(r)
	lang := respond.Lang(r)
	o, err := s.svc.PlaceOrder(r.Context(), checkout.PlaceOrderInput{
		Channel:    f.channel,
		Source:     f.id,
		Amount:     f.amount,
		RequestKey: r.PostForm.Get(checkout.FieldRequestKey),
		Customer:   values.Customer,
		Address:    &values.Address, // ignored by the domain when no product is physical
		Lang:       string(lang),
		ShopperIP:  respond.ClientIP(r),
	})
	var fe *checkout.ValidationError
	switch code := checkout.ErrorCode(err); {
	case err == nil:
	case f.refused(w, r, err):
		return
	case errors.As(err, &fe):
		s.showCustomerForm(w, r, f, http.StatusUnprocessableEntity, values, views.FormErrors(lang, fe))
		return
	case code == checkout.CodeNotFound:
		s.site.Fail(w, r, err)
		return
	default:
		// The gateway is unreachable before the order could even be stored, or the store failed:
		// the form again, every value kept, saying to try again.
		s.site.LogError(r, err, code)
		s.showCustomerForm(w, r, f, respond.HTTPStatus(checkout.CodeUnavailable), values, checkout.ValidationError{Violations: []checkout.Violation{{Message: views.T(lang, views.MsgGatewayDown)}}})
		return
	}
	// The cart became an order: the next visit to the shop starts a new one.
	if f.channel == checkout.ChannelShop && rememberedCart(r) == f.id {
		s.rememberCart(w, "")
	}
	respond.Redirect(w, r, payPath(o.ID))
}

// showCustomerForm reads the source of f and renders its form with the values typed and their
// errors.
func (s *Server) showCustomerForm(w http.ResponseWriter, r *http.Request, f formSource, status int, values views.CustomerForm, errs checkout.ValidationError) {
	if src, ok := s.formSource(w, r, f); ok {
		s.renderCustomerForm(w, r, f, src, status, values, errs)
	}
}

// lookupCEP is GET /cep/{cep}: JSON {cep, street, neighborhood, city, state} for the customer
// form's address lookup; 404 when unknown, 422 when not a CEP, 503 when the service is down.
// The answer holds nothing personal, so browsers may keep it for a day.
func (s *Server) lookupCEP(w http.ResponseWriter, r *http.Request) {
	if ok, wait := s.ceps.Allow(clientKey(r), s.clock()); !ok {
		w.Header().Set("Retry-After", strconv.Itoa(max(int(wait.Round(time.Second)/time.Second), 1)))
		s.site.FailJSON(w, r, &checkout.Error{Code: checkout.CodeRateLimited, Message: "too many CEP lookups from this address; retry in a moment"})
		return
	}
	a, err := s.svc.LookupCEP(r.Context(), chi.URLParam(r, "cep"))
	if err != nil {
		s.site.FailJSON(w, r, err)
		return
	}
	respond.SetJSONHeaders(w.Header())
	w.Header().Set("Cache-Control", "public, max-age=86400")
	_ = json.NewEncoder(w).Encode(a)
}
