package web

import (
	"errors"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/brdoc"
	"github.com/pixcheckout/pixcheckout/views"
)

// sessionCart is the session key of the current cart id.
const sessionCart = "cart"

// Form field of the cart id on the catalogue's add-to-cart form, and of the line action.
const (
	fieldCartID = "cart_id"
	fieldAction = "action"
)

func cartPath(id string) string     { return "/cart/" + url.PathEscape(id) }
func payPath(id string) string      { return "/pay/" + url.PathEscape(id) }
func checkoutPath(id string) string { return cartPath(id) + "/checkout" }

// redirect answers 303 See Other to a local path, keeping ?lang= when it was explicit.
func (s *Server) redirect(w http.ResponseWriter, r *http.Request, path string) {
	http.Redirect(w, r, s.link(r, path), http.StatusSeeOther)
}

// currentCart returns the cart the request names (?cart= on the catalogue) or the session
// remembers, or nil.
func (s *Server) currentCart(r *http.Request) *checkout.Cart {
	ids := []string{r.URL.Query().Get("cart"), s.sessions.GetString(r.Context(), sessionCart)}
	for _, id := range ids {
		if id == "" {
			continue
		}
		if c, err := s.svc.Cart(r.Context(), id); err == nil {
			return c
		}
	}
	return nil
}

// catalogue is GET /: the active products. With a current cart, the add-to-cart forms add to
// it and a link leads to it.
func (s *Server) catalogue(w http.ResponseWriter, r *http.Request) {
	products, err := s.svc.Products(r.Context())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	v := views.CatalogueView{Page: s.page(r), AddToCartURL: s.link(r, "/cart")}
	for _, p := range products {
		v.Products = append(v.Products, views.ProductView{ID: string(p.ID), Title: p.Title,
			Description: p.Description, Price: p.UnitPrice, Physical: p.Physical})
	}
	if c := s.currentCart(r); c != nil {
		v.AddToCartURL = s.link(r, cartPath(c.ID)+"/items")
		v.CartURL = s.link(r, cartPath(c.ID))
		for _, l := range c.Lines {
			v.CartCount += l.Quantity
		}
	}
	s.render(w, r, http.StatusOK, views.CataloguePage(v))
}

// quantity reads the quantity field: 1 when absent; ok false when it is not an integer.
func quantity(r *http.Request) (int, bool) {
	q := strings.TrimSpace(r.PostForm.Get(views.FieldQuantity))
	if q == "" {
		return 1, true
	}
	n, err := strconv.Atoi(q)
	return n, err == nil
}

// addToNewCart is POST /cart: adds a product to the cart named by the form (or the session),
// creating a cart when there is none, then shows the cart.
func (s *Server) addToNewCart(w http.ResponseWriter, r *http.Request) {
	if !s.parseForm(w, r) {
		return
	}
	var cart *checkout.Cart
	for _, id := range []string{r.PostForm.Get(fieldCartID), s.sessions.GetString(r.Context(), sessionCart)} {
		if id == "" {
			continue
		}
		if c, err := s.svc.Cart(r.Context(), id); err == nil {
			cart = c
			break
		}
	}
	pid := checkout.ProductID(r.PostForm.Get(views.FieldProductID))
	if _, err := s.svc.Product(r.Context(), pid); err != nil {
		s.productError(w, r, err)
		return
	}
	qty, ok := quantity(r)
	if !ok || qty < checkout.MinQuantity || qty > checkout.MaxQuantity {
		lang, _ := s.lang(r)
		s.renderErrorMessage(w, r, http.StatusUnprocessableEntity, views.FieldMessage(lang, views.FieldQuantity, "invalid"))
		return
	}
	if cart == nil {
		c, err := s.svc.NewCart(r.Context())
		if err != nil {
			s.fail(w, r, err)
			return
		}
		cart = c
	}
	s.addAndShow(w, r, cart.ID, pid, qty)
}

// addToCart is POST /cart/{cartID}/items.
func (s *Server) addToCart(w http.ResponseWriter, r *http.Request) {
	if !s.parseForm(w, r) {
		return
	}
	cartID := chi.URLParam(r, "cartID")
	pid := checkout.ProductID(r.PostForm.Get(views.FieldProductID))
	qty, ok := quantity(r)
	if !ok {
		qty = 0 // refused below with the quantity message
	}
	s.addAndShow(w, r, cartID, pid, qty)
}

// addAndShow adds qty of pid to the cart and redirects to it, or shows the cart with the error.
func (s *Server) addAndShow(w http.ResponseWriter, r *http.Request, cartID string, pid checkout.ProductID, qty int) {
	_, err := s.svc.AddToCart(r.Context(), cartID, pid, qty)
	if err != nil {
		var fe *checkout.FieldErrors
		if errors.As(err, &fe) {
			s.showCart(w, r, cartID, http.StatusUnprocessableEntity, lineError{product: pid, input: r.PostForm.Get(views.FieldQuantity), fe: fe})
			return
		}
		s.productError(w, r, err)
		return
	}
	s.sessions.Put(r.Context(), sessionCart, cartID)
	s.redirect(w, r, cartPath(cartID))
}

// productError answers a missing product or cart with 404, anything else with 500.
func (s *Server) productError(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, checkout.ErrNotFound) {
		lang, _ := s.lang(r)
		s.renderErrorMessage(w, r, http.StatusNotFound, views.T(lang, views.MsgProductMissing))
		return
	}
	s.fail(w, r, err)
}

// updateLine is POST /cart/{cartID}/items/{productID}: action "remove" removes the line,
// anything else sets its quantity.
func (s *Server) updateLine(w http.ResponseWriter, r *http.Request) {
	if !s.parseForm(w, r) {
		return
	}
	cartID := chi.URLParam(r, "cartID")
	pid := checkout.ProductID(chi.URLParam(r, "productID"))
	var err error
	if r.Form.Get(fieldAction) == "remove" {
		_, err = s.svc.RemoveFromCart(r.Context(), cartID, pid)
	} else {
		qty, ok := quantity(r)
		if !ok {
			qty = 0
		}
		_, err = s.svc.SetQuantity(r.Context(), cartID, pid, qty)
	}
	if err != nil {
		var fe *checkout.FieldErrors
		if errors.As(err, &fe) {
			s.showCart(w, r, cartID, http.StatusUnprocessableEntity, lineError{product: pid, input: r.PostForm.Get(views.FieldQuantity), fe: fe})
			return
		}
		s.notFoundOrFail(w, r, err)
		return
	}
	s.redirect(w, r, cartPath(cartID))
}

// lineError is a refused change of one cart line, shown beside it.
type lineError struct {
	product checkout.ProductID
	input   string
	fe      *checkout.FieldErrors
}

// cart is GET /cart/{cartID}.
func (s *Server) cart(w http.ResponseWriter, r *http.Request) {
	s.showCart(w, r, chi.URLParam(r, "cartID"), http.StatusOK, lineError{})
}

// showCart renders a cart with status, and the refused change beside its line.
func (s *Server) showCart(w http.ResponseWriter, r *http.Request, cartID string, status int, le lineError) {
	c, err := s.svc.Cart(r.Context(), cartID)
	if err != nil {
		s.notFoundOrFail(w, r, err)
		return
	}
	page := s.page(r)
	v := views.CartView{
		Page:         page,
		Total:        c.Total(),
		CatalogueURL: s.link(r, "/?cart="+url.QueryEscape(c.ID)),
		CheckoutURL:  s.link(r, checkoutPath(c.ID)),
	}
	placed := false
	for _, l := range c.Lines {
		base := cartPath(c.ID) + "/items/" + url.PathEscape(string(l.Product.ID))
		lv := views.CartLineView{
			ProductID: string(l.Product.ID), Title: l.Product.Title, UnitPrice: l.Product.UnitPrice,
			Quantity: l.Quantity, LineTotal: l.Subtotal(), Physical: l.Product.Physical,
			UpdateURL: s.link(r, base), RemoveURL: s.link(r, base+"?"+fieldAction+"=remove"),
		}
		if le.fe != nil && l.Product.ID == le.product {
			lv.QuantityInput = le.input
			lv.Error = views.FieldMessage(page.Lang, views.FieldQuantity, firstCode(le.fe, checkout.FieldQuantity))
			placed = true
		}
		v.Lines = append(v.Lines, lv)
	}
	if le.fe != nil && !placed {
		// Adding a product not yet in the cart: the message goes on top.
		v.Error = views.FieldMessage(page.Lang, views.FieldQuantity, firstCode(le.fe, checkout.FieldQuantity))
	}
	s.render(w, r, status, views.CartPage(v))
}

// firstCode returns the code of the first violation of a field, or "".
func firstCode(fe *checkout.FieldErrors, field string) string {
	if vs := fe.Fields[field]; len(vs) > 0 {
		return vs[0].Code
	}
	return ""
}

// notFoundOrFail answers ErrNotFound with 404, anything else with 500.
func (s *Server) notFoundOrFail(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, checkout.ErrNotFound) {
		s.renderError(w, r, http.StatusNotFound)
		return
	}
	s.fail(w, r, err)
}

// fail logs an unexpected error and answers 500.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	s.log.ErrorContext(r.Context(), "handler", "request_id", RequestID(r.Context()), "err", err)
	s.renderError(w, r, http.StatusInternalServerError)
}

// customerForm is GET /cart/{cartID}/checkout: the customer form with a fresh request key.
func (s *Server) customerForm(w http.ResponseWriter, r *http.Request) {
	c, err := s.svc.Cart(r.Context(), chi.URLParam(r, "cartID"))
	if err != nil {
		s.notFoundOrFail(w, r, err)
		return
	}
	if len(c.Lines) == 0 {
		s.redirect(w, r, cartPath(c.ID))
		return
	}
	s.renderCustomerForm(w, r, c, http.StatusOK, views.CustomerForm{}, nil)
}

// renderCustomerForm renders the customer form of cart c with the values typed and their
// errors. Every rendering gets a new request key: a key whose submission was refused is spent.
func (s *Server) renderCustomerForm(w http.ResponseWriter, r *http.Request, c *checkout.Cart, status int, values views.CustomerForm, errs views.FieldErrors) {
	v := views.CustomerView{
		Page:       s.page(r),
		Action:     s.link(r, checkoutPath(c.ID)),
		RequestKey: checkout.NewRequestKey(c),
		Physical:   c.NeedsAddress(),
		Values:     values,
		Errors:     errs,
		Total:      c.Total(),
		BackURL:    s.link(r, cartPath(c.ID)),
	}
	for _, l := range c.Lines {
		v.Lines = append(v.Lines, views.SummaryLine{Title: l.Product.Title, Quantity: l.Quantity, LineTotal: l.Subtotal()})
	}
	s.render(w, r, status, views.CustomerPage(v))
}

// viewFields maps the domain's form field names to the customer form's input names.
var viewFields = map[string]string{
	checkout.FieldName:         views.FieldName,
	checkout.FieldDocument:     views.FieldDocument,
	checkout.FieldEmail:        views.FieldEmail,
	checkout.FieldPhone:        views.FieldPhone,
	checkout.FieldZipCode:      views.FieldZipCode,
	checkout.FieldStreet:       views.FieldStreet,
	checkout.FieldNumber:       views.FieldNumber,
	checkout.FieldComplement:   views.FieldComplement,
	checkout.FieldNeighborhood: views.FieldNeighborhood,
	checkout.FieldCity:         views.FieldCity,
	checkout.FieldState:        views.FieldState,
	checkout.FieldCountry:      views.FieldCountry,
}

// formErrors localises the domain's field errors onto the customer form: each field's first
// violation beside it, the rest (cart, request key, unplaced rules) in the summary.
func formErrors(lang views.Lang, fe *checkout.FieldErrors) views.FieldErrors {
	errs := views.FieldErrors{}
	var general []string
	for field, vs := range fe.Fields {
		if len(vs) == 0 {
			continue
		}
		if name, ok := viewFields[field]; ok {
			errs[name] = views.FieldMessage(lang, name, vs[0].Code)
			continue
		}
		switch field {
		case checkout.FieldRequestKey:
			general = append(general, views.T(lang, views.MsgFormOutdated))
		case checkout.FieldCart, checkout.FieldQuantity:
			general = append(general, views.T(lang, views.MsgCartUnavailable))
		case checkout.FieldAddress:
			for _, name := range []string{views.FieldZipCode, views.FieldStreet, views.FieldNumber,
				views.FieldNeighborhood, views.FieldCity, views.FieldState} {
				errs[name] = views.FieldMessage(lang, name, "required")
			}
		default:
			for _, v := range vs {
				general = append(general, views.T(lang, "err.other", v.String()))
			}
		}
	}
	if len(general) > 0 {
		errs[""] = strings.Join(dedupe(general), " ")
	}
	return errs
}

func dedupe(ss []string) []string {
	seen := map[string]bool{}
	out := ss[:0]
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// placeOrder is POST /cart/{cartID}/checkout. Invalid input (or the gateway's 422) renders the
// form again with 422, every value kept and each error beside its field; success goes to the
// PIX page.
func (s *Server) placeOrder(w http.ResponseWriter, r *http.Request) {
	if !s.parseForm(w, r) {
		return
	}
	cartID := chi.URLParam(r, "cartID")
	c, err := s.svc.Cart(r.Context(), cartID)
	if err != nil {
		s.notFoundOrFail(w, r, err)
		return
	}
	values := views.ParseCustomerForm(r.PostForm.Get)
	lang, _ := s.lang(r)
	in := checkout.PlaceOrderInput{
		CartID:     cartID,
		RequestKey: r.PostForm.Get(views.FieldRequestKey),
		Customer:   checkout.Customer{Name: values.Name, Document: values.Document, Email: values.Email, Phone: values.Phone},
		Lang:       string(lang),
		ShopperIP:  clientIP(r),
	}
	if c.NeedsAddress() {
		in.Address = &checkout.Address{ZipCode: values.ZipCode, Street: values.Street, Number: values.Number,
			Complement: values.Complement, Neighborhood: values.Neighborhood, City: values.City,
			State: values.State, Country: values.Country}
	}
	if missing := requiredContact(lang, values); len(missing) > 0 {
		// The gateway takes no order without e-mail and phone from this form's point of view,
		// but does not require them itself: check the rest with its validators without placing
		// anything, so that every error shows at once.
		errs := contactErrors(lang, c, in)
		for k, v := range missing {
			errs[k] = v
		}
		s.renderCustomerForm(w, r, c, http.StatusUnprocessableEntity, values, errs)
		return
	}
	o, err := s.svc.PlaceOrder(r.Context(), in)
	var fe *checkout.FieldErrors
	switch {
	case errors.As(err, &fe):
		s.renderCustomerForm(w, r, c, http.StatusUnprocessableEntity, values, formErrors(lang, fe))
		return
	case errors.Is(err, checkout.ErrEmptyCart):
		s.redirect(w, r, cartPath(cartID))
		return
	case err != nil:
		s.log.ErrorContext(r.Context(), "placing an order", "request_id", RequestID(r.Context()), "err", err)
		s.renderCustomerForm(w, r, c, http.StatusServiceUnavailable, values, views.FieldErrors{"": views.T(lang, views.MsgGatewayDown)})
		return
	}
	// The cart became an order: the next visit to the shop starts a new one.
	if s.sessions.GetString(r.Context(), sessionCart) == cartID {
		s.sessions.Remove(r.Context(), sessionCart)
	}
	s.redirect(w, r, payPath(o.ID))
}

// clientIP is the address of the connection's peer.
func clientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return ""
	}
	return host
}

// requiredContact returns the errors of the form's required fields that the gateway treats as
// optional (e-mail and mobile phone).
func requiredContact(lang views.Lang, v views.CustomerForm) views.FieldErrors {
	errs := views.FieldErrors{}
	if strings.TrimSpace(v.Email) == "" {
		errs[views.FieldEmail] = views.FieldMessage(lang, views.FieldEmail, gatewayclient.CodeRequired)
	}
	if strings.TrimSpace(v.Phone) == "" {
		errs[views.FieldPhone] = views.FieldMessage(lang, views.FieldPhone, gatewayclient.CodeRequired)
	}
	return errs
}

// contactErrors checks the customer and address of in with the gateway client's validators,
// without placing an order.
func contactErrors(lang views.Lang, c *checkout.Cart, in checkout.PlaceOrderInput) views.FieldErrors {
	req := gatewayclient.CreateTransactionRequest{
		Amount:        max(c.Total(), gatewayclient.MinAmount),
		PaymentMethod: gatewayclient.PaymentMethodPIX,
		Customer: &gatewayclient.Customer{
			Name:        strings.Join(strings.Fields(in.Customer.Name), " "),
			Document:    brdoc.NormalizeDocument(strings.TrimSpace(in.Customer.Document)),
			Email:       strings.TrimSpace(in.Customer.Email),
			MobilePhone: brdoc.NormalizePhone(strings.TrimSpace(in.Customer.Phone)),
		},
		IsInfoProduct: gatewayclient.Ptr(in.Address == nil),
	}
	if a := in.Address; a != nil {
		t := strings.TrimSpace
		req.Address = &gatewayclient.Address{ZipCode: t(a.ZipCode), Street: t(a.Street), Number: t(a.Number),
			Complement: t(a.Complement), Neighborhood: t(a.Neighborhood), City: t(a.City), State: t(a.State), Country: t(a.Country)}
	}
	var ve *gatewayclient.ValidationError
	if err := req.Validate(); errors.As(err, &ve) {
		// Only the form's own fields: the cart's amount and items are the domain's to judge.
		fe := &checkout.FieldErrors{Fields: map[string][]gatewayclient.Violation{}}
		for _, v := range ve.Violations {
			if strings.HasPrefix(v.Field, "customer.") || strings.HasPrefix(v.Field, "address") {
				f := checkout.FormField(v.Field)
				fe.Fields[f] = append(fe.Fields[f], v)
			}
		}
		return formErrors(lang, fe)
	}
	return views.FieldErrors{}
}
