package dashboard

import (
	"errors"
	"net/http"
	"strings"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/audit"
	"github.com/pixcheckout/pixcheckout/checkout/brand"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// The "Loja" page: the store's face (package brand), owners only. A save applies at once on
// this instance, and on the others when the change feed tells them (PostgreSQL).

// storePage is GET /dashboard/store.
func (d *Dashboard) storePage(w http.ResponseWriter, r *http.Request) {
	v := d.storeView(r)
	p, err := d.site.Brand.Get(r.Context())
	if err != nil {
		d.site.LogError(r, err, checkout.ErrorCode(err))
		v.Failed = views.T(v.Lang, "orders.failed", respond.RequestID(r.Context()))
	}
	v.Store, v.Palette, v.Preview = p, p.Palette(), d.previewLinks(r, p)
	switch r.URL.Query().Get("done") {
	case "saved":
		v.Notice = views.T(v.Lang, "store.saved")
	case "logo":
		v.Notice = views.T(v.Lang, "store.logo_saved")
	case "logo_removed":
		v.Notice = views.T(v.Lang, "store.logo_removed")
	}
	d.site.Render(w, r, http.StatusOK, views.StorePage(v))
}

// storeView is the page's frame, without the profile: with the name the shopper's bank shows
// (field 59 of the newest PIX code), which the gateway account sets.
func (d *Dashboard) storeView(r *http.Request) views.StoreView {
	v := views.StoreView{DashPage: d.page(r, "store"), Action: respond.Link(r, Path+"/store"),
		PreviewAction: respond.Link(r, Path+"/store/preview"), Logo: storeLogoForm(r)}
	name, at, err := d.svc.GatewayMerchantName(r.Context())
	if err != nil {
		d.site.LogError(r, err, checkout.ErrorCode(err))
		v.Failed = views.T(v.Lang, "orders.failed", respond.RequestID(r.Context()))
	}
	v.GatewayName, v.GatewayNameAt = name, at
	return v
}

// saveStore is POST /dashboard/store: every field of the form (brand.Fields); a colour's
// "none" box empties it. Each problem is shown beside its field with what was typed kept; a
// save is audited with each field changed, before and after.
func (d *Dashboard) saveStore(w http.ResponseWriter, r *http.Request) {
	in := storeInput(r)
	before, after, err := d.site.Brand.Save(r.Context(), in)
	var fe *checkout.ValidationError
	if errors.As(err, &fe) {
		v := d.storeView(r)
		v.Store = in
		storeErrors(&v, fe)
		d.site.Render(w, r, http.StatusUnprocessableEntity, views.StorePage(v))
		return
	}
	if err != nil {
		d.site.Fail(w, r, err)
		return
	}
	var changes []string
	for _, f := range before.Changes(after) {
		changes = append(changes, audit.Change(f, before.Value(f), after.Value(f)))
	}
	if len(changes) > 0 {
		d.record(r, audit.StoreChanged, "store", strings.Join(changes, "; "))
	}
	respond.Redirect(w, r, Path+"/store?done=saved")
}

// storeInput is the store's face as the form typed it; a colour's "none" box empties it.
func storeInput(r *http.Request) brand.Profile {
	in := brand.FromForm(r.PostForm.Get)
	if r.PostForm.Get("no_brand_color") == "true" {
		in.BrandColor = ""
	}
	if r.PostForm.Get("no_accent_color") == "true" {
		in.AccentColor = ""
	}
	return in
}

// storeErrors shows each problem of fe beside its field, in v's language.
func storeErrors(v *views.StoreView, fe *checkout.ValidationError) {
	for _, f := range brand.Fields {
		if fe.Has(f) {
			v.Errors.Add(f, fe.Code(f), views.T(v.Lang, "store.err_"+f))
		}
	}
}
