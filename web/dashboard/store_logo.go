package dashboard

import (
	"net/http"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/audit"
	"github.com/pixcheckout/pixcheckout/checkout/brand"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// The store's logo, on the "Loja" page: uploaded in its own multipart form, decoded within the
// product pictures' limits and made at the sizes of the pages, e-mails and favicons
// (checkout.Catalogue.ProcessLogo), stored by package brand; each change audited.

// uploadLogo is POST /dashboard/store/logo (multipart, the file in "logo").
func (d *Dashboard) uploadLogo(w http.ResponseWriter, r *http.Request) {
	lang := respond.Lang(r)
	file, _, err := r.FormFile(brand.FieldLogo)
	if err != nil {
		d.logoRefused(w, r, views.T(lang, "store.logo_missing"))
		return
	}
	defer file.Close()
	logo, err := d.svc.ProcessLogo(r.Context(), file)
	if msg := pictureRefusal(lang, err); msg != "" {
		d.logoRefused(w, r, msg)
		return
	}
	if err != nil {
		d.pictureTrouble(w, r, err)
		return
	}
	before, after, err := d.site.Brand.UseLogo(r.Context(), logo)
	if err != nil {
		d.site.Fail(w, r, err)
		return
	}
	d.recordLogo(r, before, after)
	respond.Redirect(w, r, Path+"/store?done=logo")
}

// removeLogo is POST /dashboard/store/logo/remove: the pages show the store's name alone.
func (d *Dashboard) removeLogo(w http.ResponseWriter, r *http.Request) {
	before, after, err := d.site.Brand.SetLogo(r.Context(), "")
	if err != nil {
		d.site.Fail(w, r, err)
		return
	}
	d.recordLogo(r, before, after)
	respond.Redirect(w, r, Path+"/store?done=logo_removed")
}

// recordLogo audits a change of the logo, its keys before and after.
func (d *Dashboard) recordLogo(r *http.Request, before, after brand.Profile) {
	if before.LogoKey != after.LogoKey {
		d.record(r, audit.StoreChanged, "store", audit.Change(brand.FieldLogo, before.LogoKey, after.LogoKey))
	}
}

// logoRefused shows the "Loja" page again with why the upload was refused beside the logo's
// field (422).
func (d *Dashboard) logoRefused(w http.ResponseWriter, r *http.Request, msg string) {
	v := d.storeView(r)
	p, err := d.site.Brand.Get(r.Context())
	if err != nil {
		d.site.LogError(r, err, checkout.ErrorCode(err))
	}
	v.Store, v.Palette, v.Preview = p, p.Palette(), d.previewLinks(r, p)
	v.Logo.Error = msg
	d.site.Render(w, r, http.StatusUnprocessableEntity, views.StorePage(v))
}

// storeLogoForm is the logo's part of the "Loja" page.
func storeLogoForm(r *http.Request) views.StoreLogoForm {
	return views.StoreLogoForm{Action: respond.Link(r, Path+"/store/logo"), RemoveAction: respond.Link(r, Path+"/store/logo/remove")}
}
