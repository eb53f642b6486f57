package web

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// Form field of the cart id on the catalogue's add-to-cart form, and of the line action.
const (
	fieldCartID = "cart_id"
	fieldAction = "action"
)

func cartPath(id string) string     { return "/cart/" + url.PathEscape(id) }
func payPath(id string) string      { return "/pay/" + url.PathEscape(id) }
func checkoutPath(id string) string { return cartPath(id) + "/checkout" }

// cartCookie remembers the shopper's current cart at the top level, as a convenience: no route
// needs it (every page names its cart or order in its URL, so the shop works without cookies,
// in a frame too). It holds the cart's id, the credential its URL holds anyway; nothing is
// stored for it on the server.
const cartCookie = "checkout_cart"

// rememberedCart is the id of the cart the request's cookie remembers, or "".
func rememberedCart(r *http.Request) string {
	c, err := r.Cookie(cartCookie)
	if err != nil {
		return ""
	}
	return c.Value
}

// rememberCart makes id the cart the shopper's browser remembers (until it closes); "" forgets.
func (s *Server) rememberCart(w http.ResponseWriter, id string) {
	c := &http.Cookie{Name: cartCookie, Value: id, Path: "/", HttpOnly: true, Secure: s.secureCookies,
		SameSite: http.SameSiteLaxMode}
	if id == "" {
		c.MaxAge = -1
	}
	http.SetCookie(w, c)
}

// currentCart returns the cart the request names (?cart= on the catalogue) or its cookie
// remembers, or nil.
func (s *Server) currentCart(r *http.Request) *checkout.Cart {
	ids := []string{r.URL.Query().Get("cart"), rememberedCart(r)}
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
		s.site.Fail(w, r, err)
		return
	}
	v := views.CatalogueView{Page: s.site.Page(r), AddToCartURL: respond.Link(r, "/cart")}
	for _, p := range products {
		v.Products = append(v.Products, views.ProductView{ID: string(p.ID), Title: p.Title,
			Description: p.Description, Price: p.UnitPrice, Physical: p.Physical, Image: p.Image})
	}
	if c := s.currentCart(r); c != nil {
		v.AddToCartURL = respond.Link(r, cartPath(c.ID)+"/items")
		v.CartURL = respond.Link(r, cartPath(c.ID))
		for _, l := range c.Lines {
			v.CartCount += l.Quantity
		}
	}
	s.site.Render(w, r, http.StatusOK, views.CataloguePage(v))
}

// quantity reads the quantity field: 1 when absent; ok false when it is not an integer.
func quantity(r *http.Request) (int, bool) {
	q := strings.TrimSpace(r.PostForm.Get(checkout.FieldQuantity))
	if q == "" {
		return 1, true
	}
	n, err := strconv.Atoi(q)
	return n, err == nil
}

// addToNewCart is POST /cart: adds a product to the cart named by the form (or the cookie),
// starting a cart when there is none, then shows the cart.
func (s *Server) addToNewCart(w http.ResponseWriter, r *http.Request) {
	if !s.site.ParseForm(w, r) {
		return
	}
	cartID := ""
	for _, id := range []string{r.PostForm.Get(fieldCartID), rememberedCart(r)} {
		if id == "" {
			continue
		}
		if c, err := s.svc.Cart(r.Context(), id); err == nil {
			cartID = c.ID
			break
		}
	}
	s.addAndShow(w, r, cartID)
}

// addToCart is POST /cart/{cartID}/items.
func (s *Server) addToCart(w http.ResponseWriter, r *http.Request) {
	if !s.site.ParseForm(w, r) {
		return
	}
	s.addAndShow(w, r, chi.URLParam(r, "cartID"))
}

// addAndShow adds the posted product and quantity to the cart (a new one when cartID is "") and
// redirects to it; a refused quantity is shown beside its line, or on its own without a cart.
func (s *Server) addAndShow(w http.ResponseWriter, r *http.Request, cartID string) {
	pid := checkout.ProductID(r.PostForm.Get(checkout.FieldProductID))
	qty, ok := quantity(r)
	if !ok {
		qty = 0 // refused by the domain with the quantity's message
	}
	if cartID == "" && s.newCarts != nil {
		// Every new cart is a row until retention removes it: one address may not start them
		// by the thousand.
		if ok, wait := s.newCarts.Allow(clientKey(r), s.clock()); !ok {
			secs := int(wait.Round(time.Second) / time.Second)
			w.Header().Set("Retry-After", strconv.Itoa(max(secs, 1)))
			s.site.ErrorMessage(w, r, http.StatusTooManyRequests, views.T(respond.Lang(r), views.MsgTooManyCarts, max(secs, 1)))
			return
		}
	}
	c, err := s.svc.AddToCart(r.Context(), cartID, pid, qty)
	var fe *checkout.ValidationError
	switch {
	case errors.As(err, &fe) && cartID != "":
		s.showCart(w, r, cartID, http.StatusUnprocessableEntity, lineError{product: pid, input: r.PostForm.Get(checkout.FieldQuantity), fe: fe})
		return
	case errors.As(err, &fe):
		s.site.ErrorMessage(w, r, http.StatusUnprocessableEntity,
			views.FieldMessage(respond.Lang(r), checkout.FieldQuantity, fe.Code(checkout.FieldQuantity)))
		return
	case err != nil:
		s.site.Fail(w, r, err, views.T(respond.Lang(r), views.MsgProductMissing))
		return
	}
	if rememberedCart(r) != c.ID {
		s.rememberCart(w, c.ID)
	}
	respond.Redirect(w, r, cartPath(c.ID))
}

// updateLine is POST /cart/{cartID}/items/{productID}: action "remove" removes the line,
// anything else sets its quantity.
func (s *Server) updateLine(w http.ResponseWriter, r *http.Request) {
	if !s.site.ParseForm(w, r) {
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
		var fe *checkout.ValidationError
		if errors.As(err, &fe) {
			s.showCart(w, r, cartID, http.StatusUnprocessableEntity, lineError{product: pid, input: r.PostForm.Get(checkout.FieldQuantity), fe: fe})
			return
		}
		s.site.Fail(w, r, err)
		return
	}
	respond.Redirect(w, r, cartPath(cartID))
}

// lineError is a refused change of one cart line, shown beside it.
type lineError struct {
	product checkout.ProductID
	input   string
	fe      *checkout.ValidationError
}

// cartShipping is the shipping cart c would pay now, by the merchant's shipping settings (the
// order placed from it pays the settings in force then).
func (s *Server) cartShipping(r *http.Request, c *checkout.Cart) (views.ShippingLine, error) {
	rule, err := s.svc.ShippingRule(r.Context())
	if err != nil {
		return views.ShippingLine{}, err
	}
	physical := c.NeedsAddress()
	ship := views.ShippingLine{Physical: physical, Amount: rule.For(c.Total(), physical)}
	if physical {
		ship.Days = rule.DeliveryDays
	}
	return ship, nil
}

// cart is GET /cart/{cartID}.
func (s *Server) cart(w http.ResponseWriter, r *http.Request) {
	s.showCart(w, r, chi.URLParam(r, "cartID"), http.StatusOK, lineError{})
}

// showCart renders a cart with status, and the refused change beside its line.
func (s *Server) showCart(w http.ResponseWriter, r *http.Request, cartID string, status int, le lineError) {
	c, err := s.svc.Cart(r.Context(), cartID)
	if err != nil {
		s.site.Fail(w, r, err)
		return
	}
	ship, err := s.cartShipping(r, c)
	if err != nil {
		s.site.Fail(w, r, err)
		return
	}
	page := s.site.Page(r)
	v := views.CartView{
		Page:         page,
		Shipping:     ship,
		Total:        c.Total() + ship.Amount,
		CatalogueURL: respond.Link(r, "/?cart="+url.QueryEscape(c.ID)),
		CheckoutURL:  respond.Link(r, checkoutPath(c.ID)),
	}
	placed := false
	for _, l := range c.Lines {
		base := cartPath(c.ID) + "/items/" + url.PathEscape(string(l.Product.ID))
		lv := views.CartLineView{
			ProductID: string(l.Product.ID), Title: l.Product.Title, UnitPrice: l.Product.UnitPrice,
			Quantity: l.Quantity, LineTotal: l.Subtotal(), Physical: l.Product.Physical, Image: l.Product.Image,
			UpdateURL: respond.Link(r, base), RemoveURL: respond.Link(r, base+"?"+fieldAction+"=remove"),
		}
		if le.fe != nil && l.Product.ID == le.product {
			lv.QuantityInput = le.input
			lv.Error = views.FieldMessage(page.Lang, checkout.FieldQuantity, le.fe.Code(checkout.FieldQuantity))
			placed = true
		}
		v.Lines = append(v.Lines, lv)
	}
	if le.fe != nil && !placed {
		// Adding a product not yet in the cart: the message goes on top.
		v.Error = views.FieldMessage(page.Lang, checkout.FieldQuantity, le.fe.Code(checkout.FieldQuantity))
	}
	s.site.Render(w, r, status, views.CartPage(v))
}
