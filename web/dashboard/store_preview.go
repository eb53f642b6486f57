package dashboard

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/brand"
	"github.com/pixcheckout/pixcheckout/gatewayclient/brcode"
	"github.com/pixcheckout/pixcheckout/gatewayclient/qr"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// The "Loja" page's preview: the PIX page and the paid page as a shopper will see them, with
// the values typed (saved or not), each in a phone-sized frame of a route that only signed-in
// users with the store permission reach and that only this origin may frame. No JavaScript:
// the page's "Preview" button posts the form, which comes back as typed with the frames
// pointing at the typed values. The values travel in the frames' URLs, and the colours in the
// URL of the frames' stylesheet (the content security policy allows no inline style), signed
// with the session's CSRF token: a link made elsewhere, or in another session, is a 404, so
// that nobody can make the dashboard's origin show words of their own.

// The preview's pages, by the last segment of their path.
const (
	previewPix  = "pix"
	previewPaid = "paid"
)

// Query parameters of a preview's URL: the values (a query string, base64url) and their
// signature.
const (
	previewValues = "p"
	previewSig    = "s"
)

// previewAmount is the sample order's price.
const previewAmount checkout.Cents = 4990

// previewStore is POST /dashboard/store/preview: the page again with the form as typed, its
// contrast and its preview drawn with the typed values; nothing is saved. Wrong values are
// shown beside their fields, as a save shows them, with no preview.
func (d *Dashboard) previewStore(w http.ResponseWriter, r *http.Request) {
	in := storeInput(r)
	v := d.storeView(r)
	v.Store = in
	var fe *checkout.ValidationError
	if errors.As(in.Check(), &fe) {
		storeErrors(&v, fe)
		d.site.Render(w, r, http.StatusUnprocessableEntity, views.StorePage(v))
		return
	}
	saved, err := d.site.Brand.Get(r.Context())
	if err != nil {
		d.site.LogError(r, err, checkout.ErrorCode(err))
	}
	in.LogoKey = saved.LogoKey // the logo has its own form: the saved one
	v.Palette = in.Palette()
	v.Preview = d.previewLinks(r, in)
	v.Notice = views.T(v.Lang, "store.previewing")
	d.site.Render(w, r, http.StatusOK, views.StorePage(v))
}

// previewLinks are the preview frames' URLs for the store's face p.
func (d *Dashboard) previewLinks(r *http.Request, p brand.Profile) views.StorePreview {
	q := d.signPreview(r, profileValues(p))
	base := Path + "/store/preview/"
	return views.StorePreview{PixURL: respond.Link(r, base+previewPix+"?"+q), PaidURL: respond.Link(r, base+previewPaid+"?"+q)}
}

// profileValues are p's fields as the preview's URL carries them (empty ones left out).
func profileValues(p brand.Profile) url.Values {
	vals := url.Values{}
	for _, f := range append(brand.Fields[:len(brand.Fields):len(brand.Fields)], brand.FieldLogo) {
		if x := p.Value(f); x != "" {
			vals.Set(f, x)
		}
	}
	return vals
}

// storePreview is GET /dashboard/store/preview/pix and …/paid: the PIX page or the paid page
// of a sample order, drawn with the store's face the signed URL carries (without one, the
// saved face), framed by this origin only.
func (d *Dashboard) storePreview(w http.ResponseWriter, r *http.Request) {
	page := path.Base(r.URL.Path)
	p, ok := d.previewProfile(r)
	if !ok {
		d.notFound(w, r)
		return
	}
	pg := d.site.PageOf(r, p)
	pg.HomeURL = ""
	if p.BrandColor != "" || p.AccentColor != "" {
		pg.StoreCSS = respond.Link(r, Path+"/store/preview/store.css?"+
			d.signPreview(r, url.Values{brand.FieldBrandColor: {p.BrandColor}, brand.FieldAccentColor: {p.AccentColor}}))
	} else {
		pg.StoreCSS = ""
	}
	h := w.Header()
	h.Set("Content-Security-Policy", respond.SelfFramedPolicy())
	h.Set("X-Frame-Options", "SAMEORIGIN")
	now := d.svc.Now()
	lines := []views.SummaryLine{{Title: views.T(pg.Lang, "store.preview_product"), Quantity: 1, LineTotal: previewAmount}}
	if page == previewPaid {
		o := &checkout.Order{Number: "PX-EXEMPLO1", Amount: previewAmount, Status: checkout.StatusPaid, PaidAt: now}
		d.site.Render(w, r, http.StatusOK, views.PaidPage(views.PaidView{Page: pg, OrderNumber: o.Number, Lines: lines,
			Amount: o.Amount, PaidAt: now, Progress: views.ProgressOf(o)}))
		return
	}
	v := views.PixView{Page: pg, OrderNumber: "PX-EXEMPLO1", Amount: previewAmount, Lines: lines,
		Status: checkout.StatusAwaitingPayment, ExpiresAt: now.Add(30 * time.Minute)}
	v.Code, v.QRImageURL = previewCode(p)
	d.site.Render(w, r, http.StatusOK, views.PixPage(v))
}

// previewCode is a sample BR Code for the preview, and its QR image as a data: URI; both ""
// if it cannot be made. It pays nobody: its key is an e-mail address of a reserved domain.
func previewCode(p brand.Profile) (code, image string) {
	code, err := brcode.Payload{Key: "exemplo@loja.example", MerchantName: brcode.Sanitize(p.PayeeName(), brcode.MaxNameLength),
		MerchantCity: "SAO PAULO", Amount: int64(previewAmount)}.Encode()
	if err != nil {
		return "", ""
	}
	png, err := (*qr.Images)(nil).PNG(code, 4)
	if err != nil {
		return "", ""
	}
	return code, "data:image/png;base64," + base64.StdEncoding.EncodeToString(png)
}

// storePreviewCSS is GET /dashboard/store/preview/store.css: the stylesheet of the colours its
// signed URL carries (without one, the saved ones), made as the shopper pages' own
// (brand.Profile.Stylesheet).
func (d *Dashboard) storePreviewCSS(w http.ResponseWriter, r *http.Request) {
	p, ok := d.previewProfile(r)
	if !ok {
		d.notFound(w, r)
		return
	}
	css, _ := p.Stylesheet()
	h := w.Header()
	h.Set("Content-Type", "text/css; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(css)))
	h.Set("X-Content-Type-Options", "nosniff")
	_, _ = w.Write([]byte(css))
}

// previewProfile is the store's face a preview's URL carries, signed by this session (ok
// false when the signature is not); without values, the saved one.
func (d *Dashboard) previewProfile(r *http.Request) (brand.Profile, bool) {
	q := r.URL.Query()
	if !q.Has(previewValues) && !q.Has(previewSig) {
		p, err := d.site.Brand.Get(r.Context())
		if err != nil {
			d.site.LogError(r, err, checkout.ErrorCode(err))
		}
		return p, true
	}
	vals, ok := d.openPreview(r)
	if !ok {
		return brand.Profile{}, false
	}
	p := brand.FromForm(vals.Get)
	p.LogoKey = vals.Get(brand.FieldLogo)
	return p, true
}

// signPreview returns the query string of a preview's URL carrying vals, signed.
func (d *Dashboard) signPreview(r *http.Request, vals url.Values) string {
	payload := base64.RawURLEncoding.EncodeToString([]byte(vals.Encode()))
	return url.Values{previewValues: {payload}, previewSig: {d.previewMAC(r, payload)}}.Encode()
}

// openPreview returns the values of a preview's URL when its signature is this session's.
func (d *Dashboard) openPreview(r *http.Request) (url.Values, bool) {
	q := r.URL.Query()
	payload, sig := q.Get(previewValues), q.Get(previewSig)
	want := d.previewMAC(r, payload)
	if want == "" || !hmac.Equal([]byte(sig), []byte(want)) {
		return nil, false
	}
	raw, err := base64.RawURLEncoding.DecodeString(payload)
	if err != nil {
		return nil, false
	}
	vals, err := url.ParseQuery(string(raw))
	return vals, err == nil
}

// previewMAC is the signature of a preview's payload: an HMAC-SHA256 keyed with the session's
// CSRF token, which no other session and no other site knows; "" without one.
func (d *Dashboard) previewMAC(r *http.Request, payload string) string {
	key := d.sessions.GetString(r.Context(), sessCSRF)
	if key == "" {
		return ""
	}
	m := hmac.New(sha256.New, []byte(key))
	m.Write([]byte("store-preview\n" + payload))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}
