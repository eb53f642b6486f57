package dashboard

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/audit"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// Notices shown on the products page after an action (?done=…).
var productNotices = map[string]string{
	"created": "products.created", "created_inactive": "products.created_inactive", "saved": "products.saved",
	"activated": "products.activated", "deactivated": "products.deactivated",
}

// products is GET /dashboard/products: the whole catalogue and the new-product form.
func (d *Dashboard) products(w http.ResponseWriter, r *http.Request) {
	v := d.productsView(r, newProductForm(d, r), nil)
	if key := productNotices[r.URL.Query().Get("done")]; key != "" {
		v.Notice = views.T(v.Lang, key)
	}
	d.site.Render(w, r, http.StatusOK, views.ProductsPage(v))
}

// productsView is the products page with the form f.
func (d *Dashboard) productsView(r *http.Request, f views.ProductFormView, listErr error) views.ProductsView {
	v := views.ProductsView{DashPage: d.page(r, "products"), Form: f}
	ps, err := d.svc.AllProducts(r.Context())
	if err == nil {
		err = listErr
	}
	if err != nil {
		d.site.LogError(r, err, checkout.ErrorCode(err))
		v.Failed = views.T(v.Lang, "orders.failed", respond.RequestID(r.Context()))
	}
	for _, p := range ps {
		base := Path + "/products/" + url.PathEscape(string(p.ID))
		v.Products = append(v.Products, views.ProductRow{ID: string(p.ID), Title: p.Title, Description: p.Description,
			Price: p.UnitPrice, Physical: p.Physical, Active: p.Active, EditURL: respond.Link(r, base),
			ToggleURL: respond.Link(r, base+"/active"), Image: p.Image})
	}
	return v
}

// newProductForm is the empty new-product form (on sale by default).
func newProductForm(d *Dashboard, r *http.Request) views.ProductFormView {
	lang := respond.Lang(r)
	return views.ProductFormView{Action: respond.Link(r, Path+"/products"), Title: views.T(lang, "products.new"),
		Values: map[string]string{}, Active: true, Submit: views.T(lang, "products.create")}
}

// readProductForm reads a posted product form: the values as typed (to show again) and the
// input, the price in reais read into cents. A price that cannot be read is a field error.
func readProductForm(r *http.Request, f *views.ProductFormView) (checkout.ProductInput, *checkout.ValidationError) {
	get := r.PostForm.Get
	f.Values = map[string]string{checkout.FieldTitle: get(checkout.FieldTitle),
		checkout.FieldDescription: get(checkout.FieldDescription), checkout.FieldUnitPrice: get(checkout.FieldUnitPrice)}
	f.Physical, f.Active = get("physical") == "true", get("active") == "true"
	in := checkout.ProductInput{Title: get(checkout.FieldTitle), Description: get(checkout.FieldDescription),
		Physical: f.Physical, Active: f.Active}
	price := get(checkout.FieldUnitPrice)
	if price == "" {
		return in, &checkout.ValidationError{Violations: []checkout.Violation{{
			Field: checkout.FieldUnitPrice, Code: checkout.CodeRequired, Message: "is required"}}}
	}
	c, err := checkout.ParseReais(price)
	if err != nil {
		return in, &checkout.ValidationError{Violations: []checkout.Violation{{
			Field: checkout.FieldUnitPrice, Code: checkout.CodeFormat, Message: err.Error()}}}
	}
	in.UnitPrice = c
	return in, nil
}

// productErrors puts a product's field errors, localised, into its form.
func productErrors(lang views.Lang, f *views.ProductFormView, fe *checkout.ValidationError) {
	f.Errors = views.Localise(fe, func(v checkout.Violation) string { return views.FieldMessage(lang, v.Field, v.Code) })
}

// createProduct is POST /dashboard/products.
func (d *Dashboard) createProduct(w http.ResponseWriter, r *http.Request) {
	lang := respond.Lang(r)
	f := newProductForm(d, r)
	in, fe := readProductForm(r, &f)
	var p *checkout.Product
	var err error
	if fe == nil {
		p, err = d.svc.CreateProduct(r.Context(), in)
	}
	if fe != nil || errors.As(err, &fe) {
		// The price typed goes back with the other fields' errors, all at once.
		mergeFieldErrors(fe, checkout.CheckProduct(in))
		productErrors(lang, &f, fe)
		d.site.Render(w, r, http.StatusUnprocessableEntity, views.ProductsPage(d.productsView(r, f, nil)))
		return
	}
	if err != nil {
		d.site.Fail(w, r, err)
		return
	}
	d.record(r, audit.ProductCreated, p.Title, fmt.Sprintf("price: %d cents; on sale: %t", p.UnitPrice, p.Active))
	done := "created"
	if !p.Active {
		done = "created_inactive"
	}
	respond.Redirect(w, r, Path+"/products?done="+done)
}

// productForm is GET /dashboard/products/{id}: the product's edit form.
func (d *Dashboard) productForm(w http.ResponseWriter, r *http.Request) {
	p, err := d.svc.MerchantProduct(r.Context(), checkout.ProductID(chi.URLParam(r, "id")))
	if err != nil {
		d.productTrouble(w, r, err)
		return
	}
	f := d.editForm(r, p)
	f.Values = map[string]string{checkout.FieldTitle: p.Title, checkout.FieldDescription: p.Description,
		checkout.FieldUnitPrice: formatReaisInput(p.UnitPrice)}
	f.Physical, f.Active = p.Physical, p.Active
	img := imageForm(r, p)
	if r.URL.Query().Get("done") == "image" {
		img.Notice = views.T(respond.Lang(r), "products.image_saved")
	}
	d.site.Render(w, r, http.StatusOK, views.ProductEditPage(views.ProductEditView{DashPage: d.page(r, "products"),
		BackURL: respond.Link(r, Path+"/products"), Form: f, Image: img}))
}

// editForm is the edit form of p, without values.
func (d *Dashboard) editForm(r *http.Request, p *checkout.Product) views.ProductFormView {
	lang := respond.Lang(r)
	return views.ProductFormView{Action: respond.Link(r, Path+"/products/"+url.PathEscape(string(p.ID))), ID: string(p.ID),
		Title: views.T(lang, "products.edit_title", p.Title), Submit: views.T(lang, "products.save")}
}

// updateProduct is POST /dashboard/products/{id}.
func (d *Dashboard) updateProduct(w http.ResponseWriter, r *http.Request) {
	id := checkout.ProductID(chi.URLParam(r, "id"))
	p, err := d.svc.MerchantProduct(r.Context(), id)
	if err != nil {
		d.productTrouble(w, r, err)
		return
	}
	f := d.editForm(r, p)
	in, fe := readProductForm(r, &f)
	var after *checkout.Product
	if fe == nil {
		after, err = d.svc.UpdateProduct(r.Context(), id, in)
	}
	if fe != nil || errors.As(err, &fe) {
		mergeFieldErrors(fe, checkout.CheckProduct(in))
		productErrors(respond.Lang(r), &f, fe)
		d.site.Render(w, r, http.StatusUnprocessableEntity, views.ProductEditPage(views.ProductEditView{DashPage: d.page(r, "products"),
			BackURL: respond.Link(r, Path+"/products"), Form: f, Image: imageForm(r, p)}))
		return
	}
	if err != nil {
		d.productTrouble(w, r, err)
		return
	}
	d.record(r, audit.ProductChanged, after.Title, productChange(p, after))
	respond.Redirect(w, r, Path+"/products?done=saved")
}

// toggleProduct is POST /dashboard/products/{id}/active: active=true puts the product on sale,
// false takes it off.
func (d *Dashboard) toggleProduct(w http.ResponseWriter, r *http.Request) {
	active := r.PostForm.Get("active") == "true"
	p, err := d.svc.SetProductActive(r.Context(), checkout.ProductID(chi.URLParam(r, "id")), active)
	if err != nil {
		d.productTrouble(w, r, err)
		return
	}
	d.record(r, audit.ProductChanged, p.Title, audit.Change("on sale", strconv.FormatBool(!active), strconv.FormatBool(active)))
	done := "deactivated"
	if active {
		done = "activated"
	}
	respond.Redirect(w, r, Path+"/products?done="+done)
}

// productTrouble answers a failed read or write of one product.
func (d *Dashboard) productTrouble(w http.ResponseWriter, r *http.Request, err error) {
	lang := respond.Lang(r)
	if checkout.ErrorCode(err) == checkout.CodeNotFound {
		d.errorPage(w, r, http.StatusNotFound, views.T(lang, "notfound.title"), views.T(lang, "notfound.text"), "",
			respond.Link(r, Path+"/products"))
		return
	}
	d.site.Fail(w, r, err)
}

// mergeFieldErrors adds to fe the violations of other's fields that fe has none for.
func mergeFieldErrors(fe, other *checkout.ValidationError) {
	if other == nil {
		return
	}
	had := map[string]bool{}
	for _, v := range fe.Violations {
		had[v.Field] = true
	}
	for _, v := range other.Violations {
		if !had[v.Field] {
			fe.Violations = append(fe.Violations, v)
		}
	}
}

// productChange says what an update changed of a product, before → after.
func productChange(before, after *checkout.Product) string {
	var parts []string
	if before.Title != after.Title {
		parts = append(parts, audit.Change("title", before.Title, after.Title))
	}
	if before.Description != after.Description {
		parts = append(parts, audit.Change("description", before.Description, after.Description))
	}
	if before.UnitPrice != after.UnitPrice {
		parts = append(parts, audit.Change("price (cents)", strconv.FormatInt(int64(before.UnitPrice), 10), strconv.FormatInt(int64(after.UnitPrice), 10)))
	}
	if before.Physical != after.Physical {
		parts = append(parts, audit.Change("physical", strconv.FormatBool(before.Physical), strconv.FormatBool(after.Physical)))
	}
	if before.Active != after.Active {
		parts = append(parts, audit.Change("on sale", strconv.FormatBool(before.Active), strconv.FormatBool(after.Active)))
	}
	return strings.Join(parts, "; ")
}
