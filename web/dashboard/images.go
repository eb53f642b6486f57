package dashboard

import (
	"errors"
	"mime"
	"net/http"
	"net/url"

	"github.com/go-chi/chi/v5"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/imaging"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// Product pictures: uploaded from the product's edit page (its own multipart form), turned into
// the shop's pictures by checkout.Service.SetProductImage.

// maxUploadBody bounds a multipart body: a picture of imaging.MaxBytes and the form around
// it. A larger file gets the page's own "too large" message up to twice the limit, 413 beyond.
const maxUploadBody = 2 * imaging.MaxBytes

// parseForm reads a POST's form: multipart (a picture upload) or URL-encoded, each within its
// limit, answering the error itself.
func (d *Dashboard) parseForm(w http.ResponseWriter, r *http.Request) bool {
	if ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); ct != "multipart/form-data" {
		return d.site.ParseForm(w, r)
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxUploadBody)
	if err := r.ParseMultipartForm(imaging.MaxBytes + 1<<20); err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			d.site.Error(w, r, http.StatusRequestEntityTooLarge)
			return false
		}
		d.site.Error(w, r, http.StatusBadRequest)
		return false
	}
	return true
}

// imageForm is the picture form of product p.
func imageForm(r *http.Request, p *checkout.Product) views.ProductImageForm {
	return views.ProductImageForm{Action: respond.Link(r, Path+"/products/"+url.PathEscape(string(p.ID))+"/image"),
		Current: p.Image, Alt: p.Title}
}

// uploadImage is POST /dashboard/products/{id}/image (multipart, field "image").
func (d *Dashboard) uploadImage(w http.ResponseWriter, r *http.Request) {
	id := checkout.ProductID(chi.URLParam(r, "id"))
	p, err := d.svc.MerchantProduct(r.Context(), id)
	if err != nil {
		d.productTrouble(w, r, err)
		return
	}
	lang := respond.Lang(r)
	msg := ""
	file, _, err := r.FormFile("image")
	switch {
	case err != nil:
		msg = views.T(lang, "products.image_missing")
	default:
		defer file.Close()
		_, err = d.svc.SetProductImage(r.Context(), id, file)
		if msg = pictureRefusal(lang, err); msg == "" && err != nil {
			d.pictureTrouble(w, r, err)
			return
		}
	}
	if msg == "" {
		respond.Redirect(w, r, Path+"/products/"+url.PathEscape(string(id))+"?done=image")
		return
	}
	f := d.editForm(r, p)
	f.Values = map[string]string{checkout.FieldTitle: p.Title, checkout.FieldDescription: p.Description,
		checkout.FieldUnitPrice: formatReaisInput(p.UnitPrice)}
	f.Physical, f.Active = p.Physical, p.Active
	img := imageForm(r, p)
	img.Error = msg
	d.site.Render(w, r, http.StatusUnprocessableEntity, views.ProductEditPage(views.ProductEditView{DashPage: d.page(r, "products"),
		BackURL: respond.Link(r, Path+"/products"), Form: f, Image: img}))
}

// pictureRefusal is the message of an upload the checkout refused (checkout.ErrImageNotImage,
// ErrImageTooLarge, ErrImageTooHeavy), in lang; "" for any other error, and nil.
func pictureRefusal(lang views.Lang, err error) string {
	var heavy *imaging.TooLargeError
	switch {
	case errors.As(err, &heavy):
		return views.T(lang, "products.image_too_heavy", heavy.Width, heavy.Height, (heavy.Bytes+1<<19)>>20, imaging.MaxDecodeBytes>>20)
	case errors.Is(err, checkout.ErrImageNotImage):
		return views.T(lang, "products.image_not_image")
	case errors.Is(err, checkout.ErrImageTooLarge):
		return views.T(lang, "products.image_too_large")
	}
	return ""
}

// pictureTrouble answers an upload that failed for another reason than its file: busy (a 503
// with Retry-After, the decodes under way end within seconds) or the store's error.
func (d *Dashboard) pictureTrouble(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, checkout.ErrImageBusy) {
		w.Header().Set("Retry-After", "3")
	}
	d.site.Fail(w, r, err)
}
