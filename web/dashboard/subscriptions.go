package dashboard

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-chi/chi/v5"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/audit"
	"github.com/pixcheckout/pixcheckout/checkout/charges"
	"github.com/pixcheckout/pixcheckout/checkout/settings"
	"github.com/pixcheckout/pixcheckout/checkout/subscriptions"
	"github.com/pixcheckout/pixcheckout/checkout/team"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/brdoc"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// The subscriptions ("assinaturas", /dashboard/subscriptions): their list, filtered by status
// and search and paged as the charges are, the form of a new subscription, and each
// subscription's page (its schedule, its charges, a new amount, Pause, Resume and Cancel).
// Reading is team.PermChargesRead, every change team.PermChargesWrite, as for charges.

// subscriptionParams are the parameters of the subscription list's form.
var subscriptionParams = map[string]bool{paramSearch: true, paramStatus: true, paramCursor: true, paramPerPage: true}

func subscriptionPath(id string) string { return Path + "/subscriptions/" + url.PathEscape(id) }

// parseSubscriptionQuery reads the subscription list's query as strictly as the charges': the
// filter (one more than a page), where the page starts, the page size and the violations.
func parseSubscriptionQuery(raw string) (url.Values, subscriptions.Filter, checkout.Cursor, int, *checkout.ValidationError) {
	q, errs := strictQuery(raw)
	r := &queryReader{q: q, errs: errs}
	search := r.single(paramSearch)
	if utf8.RuneCountInString(search) > maxSearch {
		addFilterError(errs, paramSearch, checkout.CodeMaxLength, "too long")
		search = ""
	}
	f := subscriptions.Filter{Search: search, Status: list(r, paramStatus, func(s subscriptions.Status) bool {
		return slices.Contains(subscriptions.Statuses(), s)
	})}
	perPage := r.integer(paramPerPage, 1, maxPerPage)
	if perPage == 0 {
		perPage = defaultPerPage
	}
	var cur checkout.Cursor
	if c := r.single(paramCursor); c != "" {
		parsed, err := checkout.ParseCursor(c)
		if err != nil || parsed.Sort != checkout.SortCreatedDesc {
			addFilterError(errs, paramCursor, checkout.CodeFormat, "not a cursor")
		} else {
			cur = parsed
			f.AfterCreated, f.AfterID, f.Backward = cur.Key.CreatedAt, cur.Key.ID, cur.Backward
		}
	}
	f.Limit = perPage + 1
	return q, f, cur, perPage, errs
}

// subscriptionsPage is GET /dashboard/subscriptions.
func (d *Dashboard) subscriptionsPage(w http.ResponseWriter, r *http.Request) {
	d.renderSubscriptions(w, r, http.StatusOK, d.newSubscriptionForm(r))
}

// renderSubscriptions renders the subscription list with the new-subscription form f.
func (d *Dashboard) renderSubscriptions(w http.ResponseWriter, r *http.Request, status int, f views.ChargeFormView) {
	lang := respond.Lang(r)
	q, filter, cur, perPage, errs := parseSubscriptionQuery(r.URL.RawQuery)
	v := views.SubscriptionsView{DashPage: d.page(r, "subscriptions"), Form: f, CanEdit: can(r, team.PermChargesWrite),
		Searched: hasFilters(q)}
	if errs.OrNil() != nil {
		status = max(status, http.StatusUnprocessableEntity)
	} else if list, total, err := d.subscriptions.List(r.Context(), filter, checkout.MaxCounted+1); err != nil {
		d.site.LogError(r, err, checkout.ErrorCode(err))
		v.Failed = views.T(lang, "orders.failed", respond.RequestID(r.Context()))
		status = http.StatusInternalServerError
	} else {
		rows, next, prev := checkout.Paged(list, perPage, cur, func(s subscriptions.Subscription) checkout.OrderKey {
			return checkout.KeyOf(s.CreatedAt, s.ID)
		})
		for _, s := range rows {
			v.Rows = append(v.Rows, views.SubscriptionRow{ID: s.ID, URL: respond.Link(r, subscriptionPath(s.ID)),
				Customer: s.Customer.Name, Email: s.Customer.Email, Description: s.Description, Schedule: scheduleText(lang, s.Schedule),
				NextDue: dayText(s.NextDue), Amount: s.Terms.Amount, Status: string(s.Status),
				StatusText: views.SubscriptionStatusText(lang, string(s.Status))})
		}
		v.Pager = d.cursorPager(Path+"/subscriptions", q, total, perPage, !cur.Key.IsZero(), next, prev)
	}
	v.Filter = views.FilterView{Action: Path + "/subscriptions", ClearURL: respond.Link(r, Path+"/subscriptions"),
		Values: map[string]string{paramSearch: firstValue(q, paramSearch)}, PerPage: perPage,
		Bar: views.FilterBar{Active: activeFilters(q, subscriptionParams)}}
	v.Filter.Errors = views.Localise(errs, func(vi checkout.Violation) string { return orderFilterMessage(lang, vi.Field, vi) })
	checked := listValues(q, paramStatus)
	for _, st := range subscriptions.Statuses() {
		v.Filter.Statuses = append(v.Filter.Statuses, views.Option{Value: string(st),
			Label: views.SubscriptionStatusText(lang, string(st)), Checked: checked[string(st)], Chip: true})
	}
	d.site.Render(w, r, status, views.SubscriptionsPage(v))
}

// scheduleText is a schedule in words: "Todo dia 10", "A cada 2 semanas".
func scheduleText(lang views.Lang, s subscriptions.Schedule) string {
	switch {
	case s.DayOfMonth > 0:
		return views.T(lang, "subs.every_month", strconv.Itoa(s.DayOfMonth))
	case s.EveryWeeks == 1:
		return views.T(lang, "subs.every_week")
	}
	return views.T(lang, "subs.every_weeks", strconv.Itoa(s.EveryWeeks))
}

// dayText is a day as YYYY-MM-DD, "" when zero.
func dayText(day charges.Date) string {
	if day.IsZero() {
		return ""
	}
	return day.String()
}

// newSubscriptionForm is the empty new-subscription form: monthly, from today.
func (d *Dashboard) newSubscriptionForm(r *http.Request) views.ChargeFormView {
	today := d.charges.Today()
	return views.ChargeFormView{Action: respond.Link(r, Path+"/subscriptions"), Fields: views.SubscriptionFormFields,
		Values: map[string]string{"startDate": today.String(), "dayOfMonth": strconv.Itoa(today.Day)}}
}

// readSubscriptionForm reads a posted new-subscription form into f's values and an input; a
// value that does not read is an error of its field.
func readSubscriptionForm(r *http.Request, f *views.ChargeFormView) (subscriptions.Input, checkout.ValidationError) {
	lang := respond.Lang(r)
	for _, k := range views.SubscriptionFormFields {
		f.Values[k] = strings.TrimSpace(r.PostForm.Get(k))
	}
	var errs checkout.ValidationError
	val := f.Values
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
	whole := func(k string) int {
		if val[k] == "" {
			return 0
		}
		n, err := strconv.Atoi(val[k])
		if err != nil || n < 1 {
			errs.Add(k, checkout.CodeFormat, views.T(lang, "charges.err."+k))
		}
		return n
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
	in := subscriptions.Input{Customer: charges.Customer{Name: val["customer.name"], Document: val["customer.document"],
		Email: val["customer.email"], Phone: val["customer.phone"]}, Description: val["description"],
		ExternalCode: val["externalCode"], DiscountDays: whole("discount.daysBefore")}
	in.Terms = charges.Terms{Amount: charges.Cents(hundredths("amount")), FineBps: int(hundredths("fine")),
		InterestBpsPerMonth: int(hundredths("interest")),
		Discount:            charges.Discount{Bps: int(hundredths("discount.percent")), Amount: charges.Cents(hundredths("discount.amount"))}}
	in.Schedule = subscriptions.Schedule{DayOfMonth: whole("dayOfMonth"), EveryWeeks: whole("everyWeeks"),
		Start: day("startDate"), End: day("endDate"), Count: whole("count")}
	return in, errs
}

// createSubscription is POST /dashboard/subscriptions: a new active subscription, made by the
// signed-in user; a refused one shows the form again, each error beside its field (422).
func (d *Dashboard) createSubscription(w http.ResponseWriter, r *http.Request) {
	f := d.newSubscriptionForm(r)
	in, errs := readSubscriptionForm(r, &f)
	d.submitNew(w, r, f, errs, func() (string, error) {
		s, err := d.subscriptions.Create(r.Context(), userOf(r).Email, respond.ClientIP(r), in)
		return s.ID, err
	}, d.renderSubscriptions, subscriptionPath)
}

// Notices of the subscription's page after an action (?done=…).
var subscriptionNotices = map[string]string{"created": "subs.created", "paused": "subs.paused", "resumed": "subs.resumed",
	"canceled": "subs.canceled", "amount": "subs.amount_changed"}

// subscriptionPage is GET /dashboard/subscriptions/{id}.
func (d *Dashboard) subscriptionPage(w http.ResponseWriter, r *http.Request) {
	s, ok := d.readSubscription(w, r)
	if !ok {
		return
	}
	var v views.SubscriptionView
	if key := subscriptionNotices[r.URL.Query().Get("done")]; key != "" {
		v.Notice = views.T(respond.Lang(r), key)
	}
	d.renderSubscription(w, r, http.StatusOK, s, v)
}

// readSubscription reads the subscription of the request's {id}, answering 404 itself when there
// is none.
func (d *Dashboard) readSubscription(w http.ResponseWriter, r *http.Request) (subscriptions.Subscription, bool) {
	s, err := d.subscriptions.Subscription(r.Context(), chi.URLParam(r, "id"))
	if err != nil {
		if errors.Is(err, checkout.ErrNotFound) {
			d.notFound(w, r)
			return s, false
		}
		d.site.Fail(w, r, err)
		return s, false
	}
	return s, true
}

// renderSubscription renders the page of s with status, v holding the notice or an action's
// error; the customer's document and phone are always masked here (each charge's page shows
// them to a role that may).
func (d *Dashboard) renderSubscription(w http.ResponseWriter, r *http.Request, status int, s subscriptions.Subscription, v views.SubscriptionView) {
	lang := respond.Lang(r)
	v.DashPage, v.BackURL = d.page(r, "subscriptions"), respond.Link(r, Path+"/subscriptions")
	v.ID, v.Status, v.StatusText = s.ID, string(s.Status), views.SubscriptionStatusText(lang, string(s.Status))
	v.Customer, v.Email, v.Description, v.ExternalCode = s.Customer.Name, s.Customer.Email, s.Description, s.ExternalCode
	v.Document = brdoc.MaskDocument(brdoc.FormatDocument(s.Customer.Document))
	v.Phone = brdoc.MaskPhone(brdoc.FormatPhone(s.Customer.Phone))
	v.Schedule, v.StartDate, v.EndDate = scheduleText(lang, s.Schedule), dayText(s.Schedule.Start), dayText(s.Schedule.End)
	v.Count, v.Issued, v.NextDue, v.Amount = s.Schedule.Count, s.Issued, dayText(s.NextDue), s.Terms.Amount
	v.FineBps, v.InterestBps, v.CreatedAt = s.Terms.FineBps, s.Terms.InterestBpsPerMonth, views.FormatDateTime(lang, s.CreatedAt)
	if disc := s.Terms.Discount; !disc.IsZero() {
		what := views.FormatMoney(lang, disc.Amount)
		if disc.Bps > 0 {
			what = strconv.FormatFloat(float64(disc.Bps)/100, 'f', -1, 64) + " %"
		}
		v.Discount = views.T(lang, "subs.discount_days", what, strconv.Itoa(s.DiscountDays))
	}
	if can(r, team.PermChargesWrite) && !s.Status.Final() {
		base := subscriptionPath(s.ID)
		v.AmountURL, v.CancelURL = respond.Link(r, base+"/amount"), respond.Link(r, base+"/cancel")
		if s.Status == subscriptions.StatusActive {
			v.PauseURL = respond.Link(r, base+"/pause")
		} else {
			v.ResumeURL = respond.Link(r, base+"/resume")
		}
	}
	list, _, err := d.subscriptions.Charges(r.Context(), s.ID, charges.Filter{Limit: maxPerPage})
	if err != nil {
		d.site.LogError(r, err, checkout.ErrorCode(err))
	}
	today := d.charges.Today()
	for _, c := range list {
		v.Charges = append(v.Charges, views.ChargeRow{ID: c.ID, URL: respond.Link(r, chargePath(c.ID)), Due: c.Terms.Due.String(),
			Amount: c.Terms.Amount, Balance: c.Balance(today), Status: string(c.Status),
			StatusText: views.ChargeStatusText(lang, string(c.Status))})
	}
	d.site.Render(w, r, status, views.SubscriptionPage(v))
}

// changeSubscription answers POST /dashboard/subscriptions/{id}/pause, /resume or /cancel
// (cancel with confirm=yes, a ticked box): the change by the signed-in user, then the page with
// the notice done; a change the status no longer allows shows the page as it is now (409).
func (d *Dashboard) changeSubscription(done string, change func(*subscriptions.Manager, context.Context, string, string, string) (subscriptions.Subscription, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		lang := respond.Lang(r)
		s, ok := d.readSubscription(w, r)
		if !ok {
			return
		}
		if done == "canceled" && r.PostForm.Get("confirm") != "yes" {
			d.renderSubscription(w, r, http.StatusUnprocessableEntity, s,
				views.SubscriptionView{CancelError: views.T(lang, "subs.cancel_confirm_missing")})
			return
		}
		_, err := change(d.subscriptions, r.Context(), userOf(r).Email, respond.ClientIP(r), s.ID)
		switch {
		case checkout.ErrorCode(err) == checkout.CodeConflict:
			d.renderSubscription(w, r, http.StatusConflict, s, views.SubscriptionView{Failed: views.T(lang, "subs.conflict")})
		case err != nil:
			d.site.Fail(w, r, err)
		default:
			respond.Redirect(w, r, subscriptionPath(s.ID)+"?done="+done)
		}
	}
}

// setSubscriptionAmount is POST /dashboard/subscriptions/{id}/amount: the amount of the charges
// not issued yet; a bad amount is shown beside its field (422).
func (d *Dashboard) setSubscriptionAmount(w http.ResponseWriter, r *http.Request) {
	lang := respond.Lang(r)
	s, ok := d.readSubscription(w, r)
	if !ok {
		return
	}
	typed := strings.TrimSpace(r.PostForm.Get("amount"))
	amount, perr := checkout.ParseReais(typed)
	if perr != nil || typed == "" {
		d.renderSubscription(w, r, http.StatusUnprocessableEntity, s,
			views.SubscriptionView{AmountValue: typed, AmountError: views.T(lang, "charges.err.amount")})
		return
	}
	_, err := d.subscriptions.SetAmount(r.Context(), userOf(r).Email, respond.ClientIP(r), s.ID, amount)
	var ve *gatewayclient.ValidationError
	switch {
	case err == nil:
		respond.Redirect(w, r, subscriptionPath(s.ID)+"?done=amount")
	case errors.As(err, &ve) && len(ve.Violations) > 0:
		msg := chargeMessage(lang, "amount", ve.Violations[0].Code)
		d.renderSubscription(w, r, http.StatusUnprocessableEntity, s, views.SubscriptionView{AmountValue: typed, AmountError: msg})
	case checkout.ErrorCode(err) == checkout.CodeConflict:
		d.renderSubscription(w, r, http.StatusConflict, s, views.SubscriptionView{Failed: views.T(lang, "subs.conflict")})
	default:
		d.site.Fail(w, r, err)
	}
}

// saveSubscriptionLead is POST /dashboard/settings/subscriptions: how many days before its due
// date a subscription's charge is issued (1 to subscriptions.MaxLeadDays); a value outside
// shows the settings again with the error beside the field (422).
func (d *Dashboard) saveSubscriptionLead(w http.ResponseWriter, r *http.Request) {
	typed := strings.TrimSpace(r.PostForm.Get(settings.FieldSubscriptionLeadDays))
	days, err := strconv.Atoi(typed)
	if err == nil {
		err = d.settings.UpdateSubscriptionLeadDays(r.Context(), days)
	}
	if err != nil && (checkout.ErrorCode(err) == checkout.CodeInvalid || errors.Is(err, strconv.ErrSyntax) || errors.Is(err, strconv.ErrRange)) {
		v := d.settingsView(r, nil)
		v.SubscriptionLead.Value, v.SubscriptionLead.Error = typed, views.T(v.Lang, "settings.subscription_lead_days_error")
		d.site.Render(w, r, http.StatusUnprocessableEntity, views.SettingsPage(v))
		return
	}
	if err != nil {
		d.site.Fail(w, r, err)
		return
	}
	d.record(r, audit.Settings, "subscriptions", "issued "+strconv.Itoa(days)+" days before the due date")
	respond.Redirect(w, r, Path+"/settings?done=subscriptions")
}
