package dashboard

import (
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-chi/chi/v5"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/audit"
	"github.com/pixcheckout/pixcheckout/checkout/charges"
	"github.com/pixcheckout/pixcheckout/checkout/team"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/brdoc"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// The charges with due dates (/dashboard/charges): their list, filtered and paged as the
// orders are (the same query reading, cursor and pager), the form of a new charge, and each
// charge's page (its amounts today, its timeline, the customer's page, a WhatsApp link and
// Cancel). Reading is team.PermChargesRead, creating and canceling team.PermChargesWrite.

// Parameters of the charge list besides the orders' (q, status, minAmount, maxAmount, cursor,
// perPage): the due dates, São Paulo days, both included.
const (
	paramDueFrom = "dueFrom"
	paramDueTo   = "dueTo"
)

// chargeParams are the parameters of the charge list's form.
var chargeParams = map[string]bool{paramSearch: true, paramStatus: true, paramDueFrom: true, paramDueTo: true,
	paramMinAmount: true, paramMaxAmount: true, paramCursor: true, paramPerPage: true}

func chargePath(id string) string { return Path + "/charges/" + url.PathEscape(id) }

// validChargeStatus reports whether s is a charge's status.
func validChargeStatus(s charges.Status) bool { return slices.Contains(charges.Statuses(), s) }

// parseChargeQuery reads the charge list's query as strictly as the order list's: the filter
// (one more than a page, to tell whether another follows), where the page starts, the page
// size and the violations.
func parseChargeQuery(raw string) (url.Values, charges.Filter, checkout.Cursor, int, *checkout.ValidationError) {
	q, errs := strictQuery(raw)
	r := &queryReader{q: q, errs: errs}
	search := r.single(paramSearch)
	if utf8.RuneCountInString(search) > maxSearch {
		addFilterError(errs, paramSearch, checkout.CodeMaxLength, "too long")
		search = ""
	}
	f := charges.Filter{Search: search, Status: list(r, paramStatus, validChargeStatus),
		MinAmount: r.amount(paramMinAmount), MaxAmount: r.amount(paramMaxAmount),
		DueFrom: dateOf(r.day(paramDueFrom)), DueTo: dateOf(r.day(paramDueTo))}
	if f.MinAmount > 0 && f.MaxAmount > 0 && f.MaxAmount < f.MinAmount {
		addFilterError(errs, paramMaxAmount, checkout.CodeRange, "below minAmount")
	}
	if !f.DueFrom.IsZero() && !f.DueTo.IsZero() && charges.DaysBetween(f.DueFrom, f.DueTo) < 0 {
		addFilterError(errs, paramDueTo, checkout.CodeRange, "before dueFrom")
	}
	perPage := r.integer(paramPerPage, 1, maxPerPage)
	if perPage == 0 {
		perPage = defaultPerPage
	}
	var cur checkout.Cursor
	if c := r.single(paramCursor); c != "" {
		parsed, err := checkout.ParseCursor(c)
		if err != nil || parsed.Sort != checkout.SortCreatedDesc {
			// The charges are listed newest first only: a key of another order means nothing.
			addFilterError(errs, paramCursor, checkout.CodeFormat, "not a cursor")
		} else {
			cur = parsed
			f.AfterCreated, f.AfterID, f.Backward = cur.Key.CreatedAt, cur.Key.ID, cur.Backward
		}
	}
	f.Limit = perPage + 1
	return q, f, cur, perPage, errs
}

// dateOf is the calendar day of t (a São Paulo day's first instant); zero for zero.
func dateOf(t time.Time) charges.Date {
	if t.IsZero() {
		return charges.Date{}
	}
	y, m, d := t.Date()
	return charges.Date{Year: y, Month: m, Day: d}
}

// chargesPage is GET /dashboard/charges: a page of the charges matching the filters, newest
// first, and the form of a new charge for those who may make one.
func (d *Dashboard) chargesPage(w http.ResponseWriter, r *http.Request) {
	d.renderCharges(w, r, http.StatusOK, d.newChargeForm(r))
}

// renderCharges renders the charge list with the new-charge form f (as posted, with its errors,
// when status says it was refused).
func (d *Dashboard) renderCharges(w http.ResponseWriter, r *http.Request, status int, f views.ChargeFormView) {
	lang := respond.Lang(r)
	q, filter, cur, perPage, errs := parseChargeQuery(r.URL.RawQuery)
	v := views.ChargesView{DashPage: d.page(r, "charges"), Form: f, CanEdit: can(r, team.PermChargesWrite),
		Searched: hasFilters(q)}
	if errs.OrNil() != nil {
		status = max(status, http.StatusUnprocessableEntity)
	} else if list, total, err := d.charges.List(r.Context(), filter, checkout.MaxCounted+1); err != nil {
		d.site.LogError(r, err, checkout.ErrorCode(err))
		v.Failed = views.T(lang, "orders.failed", respond.RequestID(r.Context()))
		status = http.StatusInternalServerError
	} else {
		rows, next, prev := checkout.Paged(list, perPage, cur, func(c charges.Charge) checkout.OrderKey {
			return checkout.KeyOf(c.CreatedAt, c.ID)
		})
		today := d.charges.Today()
		for _, c := range rows {
			v.Rows = append(v.Rows, views.ChargeRow{ID: c.ID, URL: respond.Link(r, chargePath(c.ID)),
				Customer: c.Customer.Name, Email: c.Customer.Email, Description: c.Description,
				Due: c.Terms.Due.String(), Amount: c.Terms.Amount, Balance: c.Balance(today),
				Status: string(c.Status), StatusText: views.ChargeStatusText(lang, string(c.Status))})
		}
		v.Pager = d.cursorPager(Path+"/charges", q, total, perPage, !cur.Key.IsZero(), next, prev)
		d.chargeListLinks(r, &v, q)
	}
	v.Filter = chargeFilter(r, d.charges.Today(), q, perPage, errs)
	d.site.Render(w, r, status, views.ChargesPage(v))
}

// chargeFilter is the charge list's filter bar and form for the query q, its due-date presets
// as of today.
func chargeFilter(r *http.Request, today charges.Date, q url.Values, perPage int, errs *checkout.ValidationError) views.FilterView {
	lang := respond.Lang(r)
	f := views.FilterView{Action: Path + "/charges", ClearURL: respond.Link(r, Path+"/charges"), Values: map[string]string{},
		PerPage: perPage, Bar: views.FilterBar{Presets: chargePresets(today, q), Active: activeFilters(q, chargeParams)}}
	for _, name := range []string{paramSearch, paramDueFrom, paramDueTo, paramMinAmount, paramMaxAmount, paramCursor} {
		f.Values[name] = firstValue(q, name)
	}
	f.Errors = views.Localise(errs, func(v checkout.Violation) string { return chargeFilterMessage(lang, v) })
	checked := listValues(q, paramStatus)
	for _, st := range charges.Statuses() {
		f.Statuses = append(f.Statuses, views.Option{Value: string(st), Label: views.ChargeStatusText(lang, string(st)),
			Checked: checked[string(st)], Chip: true})
	}
	return f
}

// chargePresets are the due-date presets of the charge list, each what is still to collect:
// open charges due today ("vence hoje"), overdue ones ("vencidas": the status, since only an
// unpaid charge is overdue) and open ones due in the next 7 days, today included ("próximos 7
// dias"). Each replaces the query's due dates and statuses.
func chargePresets(today charges.Date, q url.Values) []views.PresetLink {
	day := today.String()
	presets := []struct {
		key, from, to string
		status        charges.Status
	}{
		{"due_today", day, day, charges.StatusOpen},
		{"overdue", "", "", charges.StatusOverdue},
		{"due_7d", day, charges.AddDays(today, 6).String(), charges.StatusOpen},
	}
	out := make([]views.PresetLink, 0, len(presets))
	for _, p := range presets {
		v := cloneValues(q)
		for _, k := range []string{paramCursor, paramDueFrom, paramDueTo, paramStatus} {
			v.Del(k)
		}
		if p.from != "" {
			v.Set(paramDueFrom, p.from)
			v.Set(paramDueTo, p.to)
		}
		v.Set(paramStatus, string(p.status))
		status := listValues(q, paramStatus)
		current := firstValue(q, paramDueFrom) == p.from && firstValue(q, paramDueTo) == p.to &&
			len(status) == 1 && status[string(p.status)]
		out = append(out, views.PresetLink{Key: p.key, URL: withQuery(Path+"/charges", v), Current: current})
	}
	return out
}

// chargeFilterMessage is the localised message of a charge filter's violation.
func chargeFilterMessage(lang views.Lang, v checkout.Violation) string {
	if v.Field == paramDueFrom || v.Field == paramDueTo {
		switch v.Code {
		case checkout.CodeRange:
			return views.T(lang, "filter.err.day_range")
		case checkout.CodeFormat:
			return views.T(lang, "filter.err.day")
		}
	}
	return orderFilterMessage(lang, v.Field, v)
}

// newChargeForm is the empty new-charge form, its due date a week from today.
func (d *Dashboard) newChargeForm(r *http.Request) views.ChargeFormView {
	return views.ChargeFormView{Action: respond.Link(r, Path+"/charges"), Fields: views.ChargeFormFields,
		Values: map[string]string{"dueDate": charges.AddDays(d.charges.Today(), 7).String()}}
}

// readChargeForm reads a posted new-charge form into f's values and an input; a value that does
// not read (an amount, a rate, a date) is an error of its field.
func readChargeForm(r *http.Request, f *views.ChargeFormView) (charges.Input, checkout.ValidationError) {
	lang := respond.Lang(r)
	for _, k := range views.ChargeFormFields {
		f.Values[k] = strings.TrimSpace(r.PostForm.Get(k))
	}
	var errs checkout.ValidationError
	val := f.Values
	// A percentage typed as "2" or "1,5" reads, as reais do, in hundredths: basis points.
	hundredths := func(k string) int64 {
		if val[k] == "" {
			return 0
		}
		n, err := checkout.ParseReais(val[k])
		if err != nil {
			errs.Add(k, checkout.CodeFormat, views.T(lang, "charges.err."+k))
		}
		return int64(n)
	}
	day := func(k string) charges.Date {
		if val[k] == "" {
			return charges.Date{}
		}
		d, err := gatewayclient.ParseDate(val[k])
		if err != nil {
			errs.Add(k, checkout.CodeFormat, views.T(lang, "charges.err.date"))
		}
		return d
	}
	in := charges.Input{Customer: charges.Customer{Name: val["customer.name"], Document: val["customer.document"],
		Email: val["customer.email"], Phone: val["customer.phone"]}, Description: val["description"],
		ExternalCode: val["externalCode"]}
	in.Terms = charges.Terms{Amount: charges.Cents(hundredths("amount")), Due: day("dueDate"),
		FineBps: int(hundredths("fine")), InterestBpsPerMonth: int(hundredths("interest")),
		Discount: charges.Discount{Bps: int(hundredths("discount.percent")), Amount: charges.Cents(hundredths("discount.amount")),
			Until: day("discount.until")}}
	return in, errs
}

// chargeFormField is the form's field of a violation of a charge's input (the API's names).
func chargeFormField(path string) string {
	switch path {
	case "fineBps":
		return "fine"
	case "interestBpsPerMonth":
		return "interest"
	case "discount", "discount.bps":
		return "discount.percent"
	}
	return path
}

// addChargeViolations adds the violations of err, a charge's or a subscription's refused input,
// to the form's errors, each beside its field in words (a field's first error only).
func addChargeViolations(lang views.Lang, errs *checkout.ValidationError, err error) {
	var ve *gatewayclient.ValidationError
	if !errors.As(err, &ve) {
		return
	}
	for _, v := range ve.Violations {
		field := chargeFormField(v.Field)
		if !errs.Has(field) {
			errs.Add(field, v.Code, chargeMessage(lang, field, v.Code))
		}
	}
}

// chargeMessage is the message, in words, of a violation of the new-charge form's field with
// code: the customer's fields as the checkout's, the others the charge's own.
func chargeMessage(lang views.Lang, field, code string) string {
	if name, ok := strings.CutPrefix(field, "customer."); ok {
		return views.FieldMessage(lang, name, code)
	}
	for _, key := range []string{"charges.err." + field + "." + code, "charges.err." + field} {
		if views.HasKey(key) {
			return views.T(lang, key)
		}
	}
	return views.FieldMessage(lang, field, code)
}

// createCharge is POST /dashboard/charges: a new open charge, made by the signed-in user; a
// refused one shows the form again, each error beside its field (422).
func (d *Dashboard) createCharge(w http.ResponseWriter, r *http.Request) {
	f := d.newChargeForm(r)
	in, errs := readChargeForm(r, &f)
	d.submitNew(w, r, f, errs, func() (string, error) {
		c, err := d.charges.Create(r.Context(), userOf(r).Email, respond.ClientIP(r), in)
		return c.ID, err
	}, d.renderCharges, chargePath)
}

// submitNew answers a posted form f of a new charge or subscription, errs what of it did not
// read: create makes the record unless errs has errors, and says its id; a refused form is
// shown again through render, each error beside its field (422); a record made redirects to
// its page (path) with the notice of its creation.
func (d *Dashboard) submitNew(w http.ResponseWriter, r *http.Request, f views.ChargeFormView, errs checkout.ValidationError,
	create func() (string, error), render func(http.ResponseWriter, *http.Request, int, views.ChargeFormView), path func(string) string) {
	f.Errors = errs
	var id string
	var err error
	if len(errs.Violations) == 0 {
		id, err = create()
	}
	addChargeViolations(respond.Lang(r), &f.Errors, err)
	if len(f.Errors.Violations) > 0 {
		render(w, r, http.StatusUnprocessableEntity, f)
		return
	}
	if err != nil {
		d.site.Fail(w, r, err)
		return
	}
	respond.Redirect(w, r, path(id)+"?done=created")
}

// Notices of the charge's page after an action (?done=…).
var chargeNotices = map[string]string{"created": "charges.created", "canceled": "charges.canceled"}

// chargePage is GET /dashboard/charges/{id}, the customer's document and phone masked.
func (d *Dashboard) chargePage(w http.ResponseWriter, r *http.Request) { d.showCharge(w, r, false) }

// showChargePersonal is POST /dashboard/charges/{id}/personal-data (team.PermPersonalData): the
// charge's page with the customer's document and phone in full, in this answer only, which the
// audit log records with the charge, as for orders.
func (d *Dashboard) showChargePersonal(w http.ResponseWriter, r *http.Request) {
	d.showCharge(w, r, true)
}

// showCharge answers the page of the charge of the URL, its customer's document and phone in
// full when full (recorded in the audit log), else masked.
func (d *Dashboard) showCharge(w http.ResponseWriter, r *http.Request, full bool) {
	c, ok := d.readCharge(w, r)
	if !ok {
		return
	}
	v := views.ChargeView{PersonalShown: full}
	if key := chargeNotices[r.URL.Query().Get("done")]; key != "" {
		v.Notice = views.T(respond.Lang(r), key)
	}
	if full {
		d.record(r, audit.PersonalShown, "charge "+c.ID, "")
	}
	d.renderCharge(w, r, http.StatusOK, c, v)
}

// sendWhatsApp is POST /dashboard/charges/{id}/whatsapp: a redirect to WhatsApp's chat with the
// customer's mobile phone, its text the charge and its link. The page holds only this form, so
// that no page shows the phone in full; 404 when the charge has no mobile phone or is over.
func (d *Dashboard) sendWhatsApp(w http.ResponseWriter, r *http.Request) {
	c, ok := d.readCharge(w, r)
	if !ok {
		return
	}
	target := whatsAppURL(respond.Lang(r), c, d.customerURL(r, c.ID))
	if target == "" {
		d.notFound(w, r)
		return
	}
	http.Redirect(w, r, target, http.StatusSeeOther)
}

// customerURL is the address of the customer's page of the charge id, to send them.
func (d *Dashboard) customerURL(r *http.Request, id string) string {
	return d.publicBase(r) + "/c/" + url.PathEscape(id)
}

// readCharge reads the charge of the request's {id}, answering 404 itself when there is none.
func (d *Dashboard) readCharge(w http.ResponseWriter, r *http.Request) (charges.Charge, bool) {
	c, err := d.charges.Charge(r.Context(), chi.URLParam(r, "id"))
	if err != nil {
		if errors.Is(err, checkout.ErrNotFound) {
			d.notFound(w, r)
			return c, false
		}
		d.site.Fail(w, r, err)
		return c, false
	}
	return c, true
}

// renderCharge renders the page of c with status, v holding the notice or the cancel form's
// error and whether the customer's document and phone are shown in full (else masked, with the
// form that shows them to a role that may). Sending by WhatsApp is for those who act on charges.
func (d *Dashboard) renderCharge(w http.ResponseWriter, r *http.Request, status int, c charges.Charge, v views.ChargeView) {
	lang := respond.Lang(r)
	today := d.charges.Today()
	v.DashPage, v.BackURL = d.page(r, "charges"), respond.Link(r, Path+"/charges")
	v.ID, v.Status, v.StatusText = c.ID, string(c.Status), views.ChargeStatusText(lang, string(c.Status))
	v.Customer, v.Email, v.Description, v.ExternalCode = c.Customer.Name, c.Customer.Email, c.Description, c.ExternalCode
	v.Document, v.Phone = brdoc.FormatDocument(c.Customer.Document), brdoc.FormatPhone(c.Customer.Phone)
	if !v.PersonalShown {
		v.Document, v.Phone = brdoc.MaskDocument(v.Document), brdoc.MaskPhone(v.Phone)
		if can(r, team.PermPersonalData) {
			v.PersonalAction = respond.Link(r, chargePath(c.ID)+"/personal-data")
		}
	}
	v.Due, v.FineBps, v.InterestBps = c.Terms.Due.String(), c.Terms.FineBps, c.Terms.InterestBpsPerMonth
	v.DiscountBps, v.DiscountAmount = c.Terms.Discount.Bps, c.Terms.Discount.Amount
	if !c.Terms.Discount.IsZero() {
		v.DiscountUntil = c.Terms.Discount.Until.String()
	}
	due := c.Terms.On(today)
	v.Today = views.ChargeDue{Day: today.String(), Amount: due.Amount, Discount: due.Discount, Fine: due.Fine,
		Interest: due.Interest, DaysLate: due.DaysLate, Total: due.Total}
	v.Paid, v.Balance, v.Final, v.PaidAt, v.CreatedAt = c.Paid, c.Balance(today), c.Status.Final(), c.PaidAt, c.CreatedAt
	v.CustomerURL = d.customerURL(r, c.ID)
	if can(r, team.PermChargesWrite) {
		if whatsAppURL(lang, c, v.CustomerURL) != "" {
			v.WhatsAppAction = respond.Link(r, chargePath(c.ID)+"/whatsapp")
		}
		if !c.Status.Final() {
			v.CancelURL = respond.Link(r, chargePath(c.ID)+"/cancel")
		}
	}
	events, err := d.charges.Timeline(r.Context(), c.ID)
	if err != nil {
		d.site.LogError(r, err, checkout.ErrorCode(err))
	}
	for _, e := range events {
		ev := views.ChargeEventView{At: e.At, Status: string(e.Status), StatusText: views.ChargeStatusText(lang, string(e.Status)),
			Reason: string(e.Reason), Actor: e.Actor, Paid: e.Paid, Refund: e.Refund}
		if e.OrderID != "" {
			ev.OrderURL = respond.Link(r, Path+"/orders/"+url.PathEscape(e.OrderID))
		}
		v.Timeline = append(v.Timeline, ev)
	}
	d.site.Render(w, r, status, views.ChargePage(v))
}

// whatsAppURL is the wa.me link that opens a chat with the customer's mobile phone, its text
// the charge with its link; "" without a mobile phone (a landline has no WhatsApp to open), or
// once the charge is paid or canceled.
func whatsAppURL(lang views.Lang, c charges.Charge, link string) string {
	if c.Status.Final() || !brdoc.ValidMobile(c.Customer.Phone) {
		return ""
	}
	return waMe(c.Customer.Phone, views.T(lang, "charges.whatsapp_text", c.Customer.Name, c.Description,
		views.FormatDay(lang, c.Terms.Due.String()), link))
}

// waMe is WhatsApp's link that opens a chat with text written: to the Brazilian mobile phone,
// or, with phone "", to a contact chosen in WhatsApp. Spaces are %20: wa.me shows a "+" as is.
func waMe(phone, text string) string {
	return "https://wa.me/" + strings.TrimPrefix(brdoc.NormalizePhone(phone), "+") + "?text=" +
		strings.ReplaceAll(url.QueryEscape(text), "+", "%20")
}

// cancelCharge is POST /dashboard/charges/{id}/cancel with confirm=yes (a ticked box): the
// charge is canceled, by the signed-in user. Without the box the page says so beside it (422);
// a charge paid or canceled already is refused with a banner (409).
func (d *Dashboard) cancelCharge(w http.ResponseWriter, r *http.Request) {
	lang := respond.Lang(r)
	c, ok := d.readCharge(w, r)
	if !ok {
		return
	}
	if r.PostForm.Get("confirm") != "yes" {
		d.renderCharge(w, r, http.StatusUnprocessableEntity, c, views.ChargeView{CancelError: views.T(lang, "charges.cancel_confirm_missing")})
		return
	}
	c, err := d.charges.Cancel(r.Context(), userOf(r).Email, respond.ClientIP(r), c.ID)
	switch {
	case errors.Is(err, charges.ErrFinal):
		d.renderCharge(w, r, http.StatusConflict, c, views.ChargeView{Failed: views.T(lang, "charges.cancel_final")})
	case err != nil:
		d.site.Fail(w, r, err)
	default:
		respond.Redirect(w, r, chargePath(c.ID)+"?done=canceled")
	}
}
