package dashboard

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/audit"
	"github.com/pixcheckout/pixcheckout/checkout/settings"
	"github.com/pixcheckout/pixcheckout/checkout/team"
	"github.com/pixcheckout/pixcheckout/gatewayclient/qr"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/web/apijson"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// The payment links (/dashboard/links): their list and the new-link form, each link's page
// (its address to copy, a WhatsApp share, its posters, its payments, its form, deactivate and
// duplicate), and its printable posters (/dashboard/links/{id}/poster.svg?size=a4&ink=dark).

// canEditLinks reports whether the signed-in user may create, change, deactivate and
// duplicate payment links (team.PermProductsWrite: owners and operators); the others read
// them. The route table checks the same permission on every route.
func (d *Dashboard) canEditLinks(r *http.Request) bool { return can(r, team.PermProductsWrite) }

// linkExpiryLayout is the value of a datetime-local input, read in São Paulo's time.
const linkExpiryLayout = "2006-01-02T15:04"

// Notices shown on the link pages after an action (?done=…).
var linkNotices = map[string]string{"created": "links.created", "saved": "links.saved", "activated": "links.activated",
	"deactivated": "links.deactivated", "duplicated": "links.duplicated"}

func linkPath(id string) string { return Path + "/links/" + url.PathEscape(id) }

// links is GET /dashboard/links.
func (d *Dashboard) links(w http.ResponseWriter, r *http.Request) {
	d.renderLinks(w, r, http.StatusOK, d.newLinkForm(r))
}

func (d *Dashboard) renderLinks(w http.ResponseWriter, r *http.Request, status int, f views.LinkFormView) {
	lang := respond.Lang(r)
	v := views.LinksView{DashPage: d.page(r, "links"), Form: f, CanEdit: d.canEditLinks(r)}
	if key := linkNotices[r.URL.Query().Get("done")]; key != "" {
		v.Notice = views.T(lang, key)
	}
	list, err := d.svc.Links(r.Context())
	var st map[string]checkout.LinkStats
	if err == nil {
		ids := make([]string, len(list))
		for i := range list {
			ids[i] = list[i].ID
		}
		st, err = d.svc.LinkStats(r.Context(), ids...)
	}
	if err != nil {
		d.site.LogError(r, err, checkout.ErrorCode(err))
		v.Failed = views.T(lang, "orders.failed", respond.RequestID(r.Context()))
	}
	now := d.svc.Now()
	for i := range list {
		l := &list[i]
		v.Links = append(v.Links, views.LinkRow{ID: l.ID, Title: l.Title, URL: apijson.LinkURL(d.publicBase(r), l.Slug),
			PageURL: respond.Link(r, linkPath(l.ID)), Amount: linkAmountText(lang, l), Active: l.Active,
			Status: linkStatus(l, now), Payments: st[l.ID].Payments, Received: st[l.ID].Received})
	}
	d.site.Render(w, r, status, views.LinksPage(v))
}

// publicBase is the checkout's public address: the configured one, else the request's own.
func (d *Dashboard) publicBase(r *http.Request) string {
	if d.publicURL != "" {
		return d.publicURL
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// loopbackURL reports whether the address u names this machine (a public URL left to its
// default), which no shopper's phone can open.
func loopbackURL(u string) bool {
	p, err := url.Parse(u)
	return err == nil && settings.IsLoopbackHost(p.Hostname())
}

func linkStatus(l *checkout.PaymentLink, now time.Time) string {
	switch {
	case !l.Active:
		return "inactive"
	case l.Expired(now):
		return "expired"
	}
	return "active"
}

// linkAmountText is what a link's payer pays, as the dashboard shows it.
func linkAmountText(lang views.Lang, l *checkout.PaymentLink) string {
	if l.Kind != checkout.LinkCustom {
		return views.FormatMoney(lang, l.Amount)
	}
	if l.MinAmount == 0 && l.MaxAmount == 0 {
		return views.T(lang, "links.amount_custom")
	}
	lo, hi := l.AmountBounds()
	return views.T(lang, "links.amount_between", views.FormatMoney(lang, lo), views.FormatMoney(lang, hi))
}

// newLinkForm is the empty new-link form: a fixed amount, active.
func (d *Dashboard) newLinkForm(r *http.Request) views.LinkFormView {
	lang := respond.Lang(r)
	f := views.LinkFormView{Action: respond.Link(r, Path+"/links"), Title: views.T(lang, "links.new"),
		Submit: views.T(lang, "links.create"), Values: map[string]string{"kind": "fixed",
			"ask_email": "true", "ask_phone": "true", views.LinkItemField("quantity", 1): "1"}, Rows: linkFormRows}
	d.linkProducts(r, &f)
	return f
}

// linkFormRows is the least number of product rows the link form shows; a link of more
// products shows one blank row more than it has, up to checkout.MaxSessionItems.
const linkFormRows = 4

// linkRows is how many product rows a form of n products shows.
func linkRows(n int) int { return min(max(linkFormRows, n+1), checkout.MaxSessionItems) }

// linkProducts lists the active products for the form's product choice.
func (d *Dashboard) linkProducts(r *http.Request, f *views.LinkFormView) {
	ps, err := d.svc.Products(r.Context())
	if err != nil {
		d.site.LogError(r, err, checkout.ErrorCode(err))
		return
	}
	for _, p := range ps {
		f.Products = append(f.Products, views.Option{Value: string(p.ID), Label: p.Title})
	}
}

// linkFormOf is the form of link l, filled with its values.
func (d *Dashboard) linkFormOf(r *http.Request, l *checkout.PaymentLink) views.LinkFormView {
	lang := respond.Lang(r)
	f := views.LinkFormView{Action: respond.Link(r, linkPath(l.ID)), Title: views.T(lang, "links.edit"),
		Submit: views.T(lang, "links.save"), Values: map[string]string{
			"title": l.Title, "kind": l.Kind, "description": l.Description, "slug": l.Slug}, Rows: linkRows(0)}
	switch l.Kind {
	case checkout.LinkFixed:
		f.Values["amount"] = formatReaisInput(l.Amount)
	case checkout.LinkCustom:
		if l.MinAmount > 0 {
			f.Values["min"] = formatReaisInput(l.MinAmount)
		}
		if l.MaxAmount > 0 {
			f.Values["max"] = formatReaisInput(l.MaxAmount)
		}
	case checkout.LinkItems:
		f.Rows = linkRows(len(l.Lines))
		for i, ln := range l.Lines {
			f.Values[views.LinkItemField("product", i+1)] = string(ln.ProductID)
			f.Values[views.LinkItemField("quantity", i+1)] = strconv.Itoa(ln.Quantity)
		}
	}
	if l.MaxPayments > 0 {
		f.Values["max_payments"] = strconv.Itoa(l.MaxPayments)
	}
	if !l.ExpiresAt.IsZero() {
		f.Values["expires_at"] = l.ExpiresAt.In(views.SaoPaulo()).Format(linkExpiryLayout)
	}
	if l.RequireAddress {
		f.Values["require_address"] = "true"
	}
	if l.AskEmail {
		f.Values["ask_email"] = "true"
	}
	if l.AskPhone {
		f.Values["ask_phone"] = "true"
	}
	d.linkProducts(r, &f)
	return f
}

// readLinkForm reads a posted link form into f's values and onto in (what is paid replaced
// whole), with the errors of the values that cannot be read (amounts, numbers, the date) and,
// for each of in.Items, the form's row it came from (blank rows are skipped).
func readLinkForm(r *http.Request, f *views.LinkFormView, in *checkout.LinkInput) (checkout.ValidationError, []int) {
	posted := postedLinkValues(r, f)
	lr := linkReader{lang: respond.Lang(r), values: f.Values}
	var rows []int
	in.Title, in.Description, in.Slug = f.Values["title"], f.Values["description"], f.Values["slug"]
	in.Items, in.Amount, in.CustomAmount = nil, 0, nil
	switch f.Values["kind"] {
	case checkout.LinkCustom:
		in.CustomAmount = &checkout.CustomAmount{Min: lr.reais("min"), Max: lr.reais("max")}
	case checkout.LinkItems:
		in.Items, rows = lr.items(posted)
	default:
		in.Amount = lr.reais("amount")
	}
	in.MaxPayments = lr.number("max_payments")
	in.ExpiresAt = lr.date("expires_at")
	in.RequireAddress = f.Values["require_address"] == "true"
	in.CustomerFields = []string{}
	if f.Values["ask_email"] == "true" {
		in.CustomerFields = append(in.CustomerFields, checkout.LinkAskEmail)
	}
	if f.Values["ask_phone"] == "true" {
		in.CustomerFields = append(in.CustomerFields, checkout.LinkAskPhone)
	}
	return lr.errs, rows
}

// postedLinkValues puts the posted values of a link form into f, the item rows posted
// (product_1, product_2, … without a gap) shown again as posted, and returns how many rows
// were posted.
func postedLinkValues(r *http.Request, f *views.LinkFormView) int {
	get := func(k string) string { return strings.TrimSpace(r.PostForm.Get(k)) }
	for _, k := range views.LinkFormFields() {
		f.Values[k] = get(k)
	}
	posted := 0
	for posted < checkout.MaxSessionItems && r.PostForm.Has(views.LinkItemField("product", posted+1)) {
		posted++
		for _, field := range []string{"product", "quantity"} {
			k := views.LinkItemField(field, posted)
			f.Values[k] = get(k)
		}
	}
	f.Rows = max(f.Rows, posted)
	return posted
}

// linkReader reads the typed values of a link form, each that cannot be read an error in
// words; an empty value reads as zero.
type linkReader struct {
	lang   views.Lang
	values map[string]string
	errs   checkout.ValidationError
}

func (lr *linkReader) reais(k string) checkout.Cents {
	if lr.values[k] == "" {
		return 0
	}
	c, err := checkout.ParseReais(lr.values[k])
	if err != nil {
		lr.errs.Add(k, checkout.CodeFormat, views.T(lr.lang, "links.err_amount"))
	}
	return c
}

func (lr *linkReader) number(k string) int {
	if lr.values[k] == "" {
		return 0
	}
	n, err := strconv.Atoi(lr.values[k])
	if err != nil {
		lr.errs.Add(k, checkout.CodeInteger, views.T(lr.lang, "links.err_number"))
	}
	return n
}

func (lr *linkReader) date(k string) *time.Time {
	if lr.values[k] == "" {
		return nil
	}
	t, err := time.ParseInLocation(linkExpiryLayout, lr.values[k], views.SaoPaulo())
	if err != nil {
		lr.errs.Add(k, checkout.CodeFormat, views.T(lr.lang, "links.err_date"))
		return nil
	}
	return &t
}

// items reads the posted item rows, blank ones skipped, with the row of each item.
func (lr *linkReader) items(posted int) ([]checkout.CheckoutSessionItem, []int) {
	var items []checkout.CheckoutSessionItem
	var rows []int
	for n := 1; n <= posted; n++ {
		pk, qk := views.LinkItemField("product", n), views.LinkItemField("quantity", n)
		switch {
		case lr.values[pk] == "" && lr.values[qk] == "":
			continue // a blank row
		case lr.values[pk] == "":
			lr.errs.Add(pk, checkout.CodeRequired, views.T(lr.lang, "links.err_product"))
			continue
		}
		q := 1 // a product without a quantity is one of it
		if lr.values[qk] != "" {
			q = lr.number(qk)
		}
		items = append(items, checkout.CheckoutSessionItem{ProductID: checkout.ProductID(lr.values[pk]), Quantity: q})
		rows = append(rows, n)
	}
	return items, rows
}

// linkFormField is the form field of a violation of a link's input; rows are the form's rows
// of the input's items, in order.
func linkFormField(path string, rows []int) string {
	if rest, ok := strings.CutPrefix(path, "items["); ok {
		i, err := strconv.Atoi(rest[:max(strings.IndexByte(rest, ']'), 0)])
		n := 1
		if err == nil && i >= 0 && i < len(rows) {
			n = rows[i]
		}
		if strings.HasSuffix(path, ".quantity") {
			return views.LinkItemField("quantity", n)
		}
		return views.LinkItemField("product", n)
	}
	switch {
	case path == "customAmount.min":
		return "min"
	case path == "customAmount.max":
		return "max"
	case path == "maxPayments":
		return "max_payments"
	case path == "expiresAt":
		return "expires_at"
	case path == "items":
		return views.LinkItemField("product", 1)
	}
	return path
}

// linkErrors puts a link's violations, in words, into its form (an error of a value that could
// not be read stays).
func linkErrors(lang views.Lang, f *views.LinkFormView, fe *checkout.ValidationError, rows []int) {
	kind := f.Values["kind"]
	for _, v := range fe.Violations {
		field := linkFormField(v.Field, rows)
		if field == "amount" && v.Code == checkout.CodeRequired && kind == checkout.LinkItems {
			field = views.LinkItemField("product", 1) // products chosen, none given
		}
		if !f.Errors.Has(field) {
			f.Errors.Add(field, v.Code, linkMessage(lang, field, v.Code, kind))
		}
	}
}

// linkWords are the words of a link form's violations that are not the field's usual ones:
// the first rule matching the field (a name ending in "_" is the prefix of an item row's),
// the code and the link's kind ("" matches any) gives the message's key.
var linkWords = []struct{ field, code, kind, key string }{
	{"", "taken", "", "links.err_taken"},
	{"expires_at", checkout.CodeMin, "", "links.err_future"},
	{"min", checkout.CodeMax, "", "links.err_bounds"},
	{"amount", checkout.CodeRequired, checkout.LinkFixed, "links.err_fixed_missing"},
	{"product_", checkout.CodeRequired, checkout.LinkItems, "links.err_items_missing"},
	{"amount", checkout.CodeRequired, "", "links.err_kind"},
	{"product_", checkout.CodeRequired, "", "links.err_kind"},
	{"product_", "", "", "links.err_product"},
}

// linkMessage is the message of a link form's violation of field with code.
func linkMessage(lang views.Lang, field, code, kind string) string {
	for _, w := range linkWords {
		fieldOK := w.field == "" || w.field == field || strings.HasSuffix(w.field, "_") && strings.HasPrefix(field, w.field)
		if fieldOK && (w.code == "" || w.code == code) && (w.kind == "" || w.kind == kind) {
			return views.T(lang, w.key)
		}
	}
	switch {
	case strings.HasPrefix(field, "quantity_"):
		return views.FieldMessage(lang, "quantity", code)
	case field == "amount" || field == "min" || field == "max":
		return views.T(lang, "paylink.amount_bounds", views.FormatMoney(lang, 1), views.FormatMoney(lang, 10000000))
	}
	return views.FieldMessage(lang, field, code)
}

// createLink is POST /dashboard/links.
func (d *Dashboard) createLink(w http.ResponseWriter, r *http.Request) {
	if !d.canEditLinks(r) {
		d.site.Error(w, r, http.StatusForbidden)
		return
	}
	f := d.newLinkForm(r)
	var in checkout.LinkInput
	var rows []int
	f.Errors, rows = readLinkForm(r, &f, &in)
	var l *checkout.PaymentLink
	var err error
	if len(f.Errors.Violations) == 0 {
		l, _, err = d.svc.CreateLink(r.Context(), in)
	}
	var fe *checkout.ValidationError
	if len(f.Errors.Violations) > 0 || errors.As(err, &fe) {
		if fe != nil {
			linkErrors(respond.Lang(r), &f, fe, rows)
		}
		d.renderLinks(w, r, http.StatusUnprocessableEntity, f)
		return
	}
	if err != nil {
		d.site.Fail(w, r, err)
		return
	}
	d.record(r, audit.LinkCreated, l.Title, "/l/"+l.Slug)
	respond.Redirect(w, r, linkPath(l.ID)+"?done=created")
}

// readLink reads the link of the request's {id}, answering 404 itself when there is none.
func (d *Dashboard) readLink(w http.ResponseWriter, r *http.Request) (*checkout.PaymentLink, bool) {
	l, err := d.svc.Link(r.Context(), chi.URLParam(r, "id"))
	if err != nil {
		if checkout.ErrorCode(err) == checkout.CodeNotFound {
			d.notFound(w, r)
			return nil, false
		}
		d.site.Fail(w, r, err)
		return nil, false
	}
	return l, true
}

// link is GET /dashboard/links/{id}.
func (d *Dashboard) link(w http.ResponseWriter, r *http.Request) {
	l, ok := d.readLink(w, r)
	if !ok {
		return
	}
	d.renderLink(w, r, http.StatusOK, l, d.linkFormOf(r, l))
}

func (d *Dashboard) renderLink(w http.ResponseWriter, r *http.Request, status int, l *checkout.PaymentLink, f views.LinkFormView) {
	lang := respond.Lang(r)
	u := apijson.LinkURL(d.publicBase(r), l.Slug)
	v := views.LinkView{DashPage: d.page(r, "links"), ID: l.ID, Title: l.Title, Slug: l.Slug, URL: u,
		Amount: linkAmountText(lang, l), Status: linkStatus(l, d.svc.Now()), Active: l.Active,
		WhatsAppURL: waMe("", l.Title+" "+u),
		Form:        f, CanEdit: d.canEditLinks(r), ToggleURL: respond.Link(r, linkPath(l.ID)+"/active"),
		DuplicateURL: respond.Link(r, linkPath(l.ID)+"/duplicate"), BackURL: respond.Link(r, Path+"/links"),
		OrdersURL:  respond.Link(r, Path+"/orders?"+url.Values{paramLink: {l.ID}}.Encode()),
		CopyScript: d.site.Assets.Path("copy.js"), Loopback: loopbackURL(u)}
	if code, err := qr.Encode(u); err == nil {
		v.QRPath, v.QRModules = code.SVGPath(), code.Size+2*qr.QuietZone
	}
	if key := linkNotices[r.URL.Query().Get("done")]; key != "" {
		v.Notice = views.T(lang, key)
	}
	for _, size := range views.PosterSizes() {
		for _, ink := range views.PosterInks() {
			v.Posters = append(v.Posters, views.PosterLink{
				Label: views.T(lang, "links.poster_label", strings.ToUpper(size), views.T(lang, "links.ink_"+ink)),
				URL:   respond.Link(r, linkPath(l.ID)+"/poster.svg?size="+size+"&ink="+ink)})
		}
	}
	st, err := d.svc.LinkStats(r.Context(), l.ID)
	if err != nil {
		d.site.Fail(w, r, err)
		return
	}
	v.Payments, v.Received = st[l.ID].Payments, st[l.ID].Received
	orders, err := d.svc.Orders(r.Context(), checkout.OrderFilter{LinkID: l.ID, Limit: 200})
	if err != nil {
		d.site.Fail(w, r, err)
		return
	}
	for _, o := range orders {
		v.Orders = append(v.Orders, views.OrderRow{ID: o.ID, Number: o.Number,
			URL: respond.Link(r, Path+"/orders/"+url.PathEscape(o.ID)), CreatedAt: o.CreatedAt, Amount: o.Amount,
			Status: string(o.Status), StatusText: views.StatusText(lang, o.Status)})
	}
	d.site.Render(w, r, status, views.LinkPage(v))
}

// updateLink is POST /dashboard/links/{id}: the edit form.
func (d *Dashboard) updateLink(w http.ResponseWriter, r *http.Request) {
	if !d.canEditLinks(r) {
		d.site.Error(w, r, http.StatusForbidden)
		return
	}
	l, ok := d.readLink(w, r)
	if !ok {
		return
	}
	f := d.linkFormOf(r, l)
	typed := l.Input()
	read, rows := readLinkForm(r, &f, &typed)
	var changed *checkout.PaymentLink
	var err error
	if len(read.Violations) == 0 {
		changed, err = d.svc.UpdateLink(r.Context(), l.ID, func(in *checkout.LinkInput) { *in = typed })
	}
	var fe *checkout.ValidationError
	if len(read.Violations) > 0 || errors.As(err, &fe) {
		f.Errors = read
		if fe != nil {
			linkErrors(respond.Lang(r), &f, fe, rows)
		}
		d.renderLink(w, r, http.StatusUnprocessableEntity, l, f)
		return
	}
	if err != nil {
		d.site.Fail(w, r, err)
		return
	}
	d.record(r, audit.LinkChanged, changed.Title, linkChange(l, changed))
	respond.Redirect(w, r, linkPath(changed.ID)+"?done=saved")
}

// toggleLink is POST /dashboard/links/{id}/active: active=false deactivates, true reactivates.
func (d *Dashboard) toggleLink(w http.ResponseWriter, r *http.Request) {
	if !d.canEditLinks(r) {
		d.site.Error(w, r, http.StatusForbidden)
		return
	}
	active := r.PostForm.Get("active") == "true"
	l, err := d.svc.UpdateLink(r.Context(), chi.URLParam(r, "id"), func(in *checkout.LinkInput) { in.Active = &active })
	if err != nil {
		if checkout.ErrorCode(err) == checkout.CodeNotFound {
			d.notFound(w, r)
			return
		}
		d.site.Fail(w, r, err)
		return
	}
	done := "deactivated"
	if active {
		done = "activated"
	}
	d.record(r, audit.LinkChanged, l.Title, audit.Change("active", strconv.FormatBool(!active), strconv.FormatBool(active)))
	respond.Redirect(w, r, linkPath(l.ID)+"?done="+done)
}

// duplicateLink is POST /dashboard/links/{id}/duplicate: a copy, active, with a new slug
// and without a past expiry, then its page.
func (d *Dashboard) duplicateLink(w http.ResponseWriter, r *http.Request) {
	if !d.canEditLinks(r) {
		d.site.Error(w, r, http.StatusForbidden)
		return
	}
	l, ok := d.readLink(w, r)
	if !ok {
		return
	}
	in := l.Input()
	active := true
	in.Slug, in.Active = "", &active
	if title := views.T(respond.Lang(r), "links.copy_of", l.Title); len([]rune(title)) <= checkout.MaxLinkTitleLength {
		in.Title = title
	}
	if in.ExpiresAt != nil && !in.ExpiresAt.After(d.svc.Now()) {
		in.ExpiresAt = nil
	}
	c, _, err := d.svc.CreateLink(r.Context(), in)
	if err != nil {
		d.site.Fail(w, r, err)
		return
	}
	d.record(r, audit.LinkCreated, c.Title, "/l/"+c.Slug+" ← /l/"+l.Slug)
	respond.Redirect(w, r, linkPath(c.ID)+"?done=duplicated")
}

// poster is GET /dashboard/links/{id}/poster.svg?size=a4|a6&ink=light|dark: the printable
// poster, an SVG document of the paper's size.
func (d *Dashboard) poster(w http.ResponseWriter, r *http.Request) {
	l, ok := d.readLink(w, r)
	if !ok {
		return
	}
	q := r.URL.Query()
	size, ink := q.Get("size"), q.Get("ink")
	if size == "" {
		size = "a4"
	}
	if ink == "" {
		ink = "dark"
	}
	if (size != "a4" && size != "a6") || (ink != "light" && ink != "dark") {
		d.notFound(w, r)
		return
	}
	u := apijson.LinkURL(d.publicBase(r), l.Slug)
	code, err := qr.Encode(u)
	if err != nil {
		d.site.Fail(w, r, err)
		return
	}
	store := d.site.Profile(r.Context())
	v := views.PosterView{Lang: respond.Lang(r), Merchant: store.Name, Title: l.Title, URL: u,
		QRPath: code.SVGPath(), QRModules: code.Size + 2*qr.QuietZone, Size: size, Ink: ink, Loopback: loopbackURL(u),
		Logo: views.StoreLogo(store)}
	if pal := store.Palette(); store.BrandColor != "" && len(pal) > 0 {
		v.Colour = pal[0].Primary // the light scheme's: readable under white text
	}
	if l.Kind == checkout.LinkFixed {
		v.Amount = views.FormatMoney(v.Lang, l.Amount)
	}
	w.Header().Set("Content-Type", "image/svg+xml; charset=utf-8")
	if err := views.Poster(w, v); err != nil {
		d.site.LogError(r, err, checkout.CodeInternal)
	}
}

// linkChange says what an edit changed of a link, for the audit log.
func linkChange(before, after *checkout.PaymentLink) string {
	var parts []string
	add := func(name, b, a string) {
		if b != a {
			parts = append(parts, audit.Change(name, b, a))
		}
	}
	add("title", before.Title, after.Title)
	add("slug", before.Slug, after.Slug)
	add("kind", before.Kind, after.Kind)
	add("amount (cents)", strconv.FormatInt(int64(before.Amount), 10), strconv.FormatInt(int64(after.Amount), 10))
	add("min (cents)", strconv.FormatInt(int64(before.MinAmount), 10), strconv.FormatInt(int64(after.MinAmount), 10))
	add("max (cents)", strconv.FormatInt(int64(before.MaxAmount), 10), strconv.FormatInt(int64(after.MaxAmount), 10))
	add("max payments", strconv.Itoa(before.MaxPayments), strconv.Itoa(after.MaxPayments))
	when := func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.In(views.SaoPaulo()).Format(linkExpiryLayout)
	}
	add("expires", when(before.ExpiresAt), when(after.ExpiresAt))
	return strings.Join(parts, "; ")
}
