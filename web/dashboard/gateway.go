package dashboard

import (
	"context"
	"errors"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// deposits is GET /dashboard/deposits: one page of the gateway's deposits matching the
// filters in the URL (the API's parameters). Every rule of the API is checked first: a
// violation is shown beside its field, with the other values kept, and the gateway is not
// called. A 422 of the gateway is shown the same way; any other trouble of the gateway as a
// banner, the form still usable.
func (d *Dashboard) deposits(w http.ResponseWriter, r *http.Request) {
	q, f, errs := parseDepositQuery(r.URL.RawQuery)
	v := views.DepositsView{DashPage: d.page(r, "deposits"), Searched: hasFilters(q)}
	l := listGateway(d, r, "deposits", q, errs, depositParams, f.StartDate, f.EndDate, f.Page, f.PerPage,
		func(ctx context.Context) (*gatewayclient.Page[gatewayclient.Deposit], error) {
			return d.gateway.ListDeposits(ctx, f)
		},
		func(dep *gatewayclient.Deposit) {
			v.Rows = append(v.Rows, views.DepositRow{ID: dep.ID, URL: respond.Link(r, Path+"/deposits/"+url.PathEscape(dep.ID)),
				CreatedAt: dep.CreatedAt, Amount: dep.Amount, Status: dep.Status, Origin: dep.DepositOrigin,
				Payer: views.HolderLine(dep.Payer), EndToEnd: dep.EndToEnd, PaymentDate: dep.PaymentDate})
		})
	v.Listed, v.Pager, v.CSVURL, v.Banner, v.Filter = l.listed, l.pager, l.csvURL, l.banner, l.filter
	v.Exports = d.myExports(r)
	v.CSVFullURL = unmaskedExportURL(r, v.CSVURL)
	v.Filter.Statuses = chips(checkboxes(q, paramStatus, gatewayclient.DepositStatuses(),
		func(s gatewayclient.DepositStatus) string { return views.DepositStatusText(v.Lang, s) }), depositChips)
	v.Filter.Origins = checkboxes(q, paramDepositOrigin, []gatewayclient.DepositOrigin{gatewayclient.OriginQRCode, gatewayclient.OriginPixKey},
		func(o gatewayclient.DepositOrigin) string { return views.OriginText(v.Lang, o) })
	d.site.Render(w, r, l.status, views.DepositsPage(v))
}

// withdrawals is GET /dashboard/withdrawals, as deposits for the withdrawal filters.
func (d *Dashboard) withdrawals(w http.ResponseWriter, r *http.Request) {
	q, f, errs := parseWithdrawalQuery(r.URL.RawQuery)
	v := views.WithdrawalsView{DashPage: d.page(r, "withdrawals"), Searched: hasFilters(q)}
	l := listGateway(d, r, "withdrawals", q, errs, withdrawalParams, f.StartDate, f.EndDate, f.Page, f.PerPage,
		func(ctx context.Context) (*gatewayclient.Page[gatewayclient.Withdrawal], error) {
			return d.gateway.ListWithdrawals(ctx, f)
		},
		func(wd *gatewayclient.Withdrawal) {
			row := views.WithdrawalRow{ID: wd.ID, URL: respond.Link(r, Path+"/withdrawals/"+url.PathEscape(wd.ID)),
				CreatedAt: wd.CreatedAt, Amount: wd.Amount, Status: wd.Status, Receiver: views.HolderLine(wd.Receiver),
				EndToEnd: wd.EndToEnd}
			if wd.PixKey != nil {
				row.PixKey = *wd.PixKey
			}
			v.Rows = append(v.Rows, row)
		})
	v.Listed, v.Pager, v.CSVURL, v.Banner, v.Filter = l.listed, l.pager, l.csvURL, l.banner, l.filter
	v.Exports = d.myExports(r)
	v.CSVFullURL = unmaskedExportURL(r, v.CSVURL)
	v.Filter.Statuses = chips(checkboxes(q, paramStatus, gatewayclient.WithdrawalStatuses(),
		func(s gatewayclient.WithdrawalStatus) string { return views.WithdrawalStatusText(v.Lang, s) }), withdrawalChips)
	d.site.Render(w, r, l.status, views.WithdrawalsPage(v))
}

// gatewayListing is what the deposits and withdrawals pages show besides their rows.
type gatewayListing struct {
	status int // of the page: 200, 422 for a filter the API refuses, the gateway's trouble
	listed bool
	pager  views.Pager
	csvURL string
	banner *views.GatewayBanner
	filter views.FilterView // without its checkboxes, which differ by record
}

// listGateway lists one page of a record (name: "deposits" or "withdrawals") through list,
// unless the query broke a rule of the API (errs), handing each row to add; then it fills what
// both pages share: the pager, the export link, the trouble banner and the filter form, with
// the times as read (start, end) and the page size.
func listGateway[T any](d *Dashboard, r *http.Request, name string, q url.Values, errs *checkout.ValidationError, known map[string]bool,
	start, end time.Time, page, perPage int,
	list func(context.Context) (*gatewayclient.Page[T], error), add func(*T)) gatewayListing {
	l := gatewayListing{status: http.StatusOK}
	if errs.OrNil() == nil {
		p, err := list(r.Context())
		if err == nil {
			l.listed = true
			for i := range p.Data {
				add(&p.Data[i])
			}
			l.pager = d.pager(r, "/"+name, q, p.Total, p.TotalPages, p.CurrentPage, p.PerPage, page, perPage)
			l.csvURL = exportURL(Path+"/"+name+".csv", q)
		} else {
			l.status, l.banner = d.gatewayTrouble(r, err, errs, known)
		}
	} else {
		l.status = http.StatusUnprocessableEntity
	}
	l.filter = d.filterView(r, "/"+name, q, errs, name == "withdrawals")
	l.filter.Values[paramStartDate] = timeValue(q, paramStartDate, start, errs)
	l.filter.Values[paramEndDate] = timeValue(q, paramEndDate, end, errs)
	l.filter.PerPage = perPage
	l.filter.Bar = views.FilterBar{Presets: presetLinks(d.svc.Now(), Path+"/"+name, q, paramStartDate, paramEndDate),
		Active: activeFilters(q, known)}
	return l
}

// The states the filter bar of each gateway list offers as chips (the common ones); the others
// are under "more filters".
var (
	depositChips = []string{string(gatewayclient.DepositPaid), string(gatewayclient.DepositPending),
		string(gatewayclient.DepositRefunded), string(gatewayclient.DepositFailed)}
	withdrawalChips = []string{string(gatewayclient.WithdrawalProcessed), string(gatewayclient.WithdrawalPending),
		string(gatewayclient.WithdrawalFailed)}
)

// chips marks the options of values as the bar's chips.
func chips(opts []views.Option, values []string) []views.Option {
	for i := range opts {
		opts[i].Chip = slices.Contains(values, opts[i].Value)
	}
	return opts
}

// checkboxes makes the checkboxes of the repeatable parameter name, one per value of all,
// checked when the query holds it.
func checkboxes[S ~string](q url.Values, name string, all []S, label func(S) string) []views.Option {
	checked := listValues(q, name)
	opts := make([]views.Option, 0, len(all))
	for _, s := range all {
		opts = append(opts, views.Option{Value: string(s), Label: label(s), Checked: checked[string(s)]})
	}
	return opts
}

// gatewayTrouble turns a failed list call into the page's status and what it shows: a 422 of
// the gateway (or of its client's validation) beside the fields it names, anything else a
// banner saying what happened and what to do. The cause goes to the log, never to the page.
func (d *Dashboard) gatewayTrouble(r *http.Request, err error, errs *checkout.ValidationError, known map[string]bool) (int, *views.GatewayBanner) {
	code := checkout.ErrorCode(err)
	d.site.LogError(r, err, code)
	lang := respond.Lang(r)
	var ve *checkout.ValidationError
	var ae *gatewayclient.APIError
	switch {
	case errors.As(err, &ve):
		addFilterViolations(errs, ve.Violations, known)
		return http.StatusUnprocessableEntity, nil
	case code == checkout.CodeInvalid && errors.As(err, &ae):
		vs := ae.Violations()
		if len(vs) == 0 {
			vs = []checkout.Violation{{Message: ae.Title}}
		}
		addFilterViolations(errs, vs, known)
		return http.StatusUnprocessableEntity, nil
	}
	var msg string
	switch code {
	case checkout.CodeNotFound:
		// A list never answers 404 (an unknown record's 404 is recordTrouble's): the gateway's
		// URL is wrong, its path prefix most likely. Not this checkout's 404: a bad gateway.
		return http.StatusBadGateway, &views.GatewayBanner{Message: views.T(lang, "gateway.not_found")}
	case checkout.CodeRateLimited:
		msg = views.T(lang, "gateway.rate_limited")
	case checkout.CodeUnavailable, checkout.CodeCanceled:
		msg = views.T(lang, "gateway.unavailable")
	case checkout.CodeGatewayAuth:
		msg = views.T(lang, "gateway.auth")
	default:
		msg = views.T(lang, "gateway.internal", respond.RequestID(r.Context()))
	}
	return respond.HTTPStatus(code), &views.GatewayBanner{Message: msg}
}

// filterView is the filter form with the values as typed and the errors localised.
func (d *Dashboard) filterView(r *http.Request, path string, q url.Values, errs *checkout.ValidationError, withdrawal bool) views.FilterView {
	lang := respond.Lang(r)
	fv := views.FilterView{
		Action:     Path + path,
		ClearURL:   respond.Link(r, Path+path),
		Values:     map[string]string{},
		Withdrawal: withdrawal,
	}
	for _, name := range []string{paramMinAmount, paramMaxAmount, paramID, paramPixKey, paramEndToEnd,
		paramEndToEndRefund, paramExternalCode, paramPage} {
		fv.Values[name] = firstValue(q, name)
	}
	minAmount := gatewayclient.MinAmount
	if withdrawal {
		minAmount = gatewayclient.MinWithdrawalFilterAmount
	}
	fv.Errors = views.Localise(errs, func(v checkout.Violation) string { return filterMessage(lang, v.Field, v, minAmount) })
	return fv
}

// codeUnreadable is the code strictQuery gives a parameter it cannot read.
const codeUnreadable = "unreadable"

// filterMessage is the localised message of a filter parameter's violation.
func filterMessage(lang views.Lang, param string, v checkout.Violation, minAmount checkout.Cents) string {
	t := func(key string, args ...any) string { return views.T(lang, key, args...) }
	date := param == paramStartDate || param == paramEndDate
	switch v.Code {
	case codeUnreadable:
		return t("filter.err.unreadable", param)
	case checkout.CodeFormat:
		return t(formatKey(param, date))
	case checkout.CodeRange:
		if date {
			return t("filter.err.date_range")
		}
		return t("filter.err.amount_range")
	case checkout.CodeDuplicate:
		if val := quoted(v.Message); val != "" {
			return t("filter.err.repeated", val)
		}
		return t("filter.err.duplicate")
	case checkout.CodeEnum:
		return t("filter.err.enum", quoted(v.Message))
	case checkout.CodeMin, checkout.CodeMax, checkout.CodeInteger:
		return boundMessage(lang, param, v.Code, minAmount)
	case checkout.CodeUUID:
		return t("filter.err.uuid")
	case checkout.CodePixKey:
		return t("filter.err.pix_key")
	case checkout.CodeMinLength, checkout.CodeMaxLength:
		return t("filter.err.length")
	}
	// The gateway's own 422 message, which the client has no code for.
	return t("filter.err.gateway", v.Message)
}

// isAmountParam reports whether the filter parameter param is one of the amounts.
func isAmountParam(param string) bool { return param == paramMinAmount || param == paramMaxAmount }

// formatKey is the message key of a filter parameter written in the wrong format.
func formatKey(param string, date bool) string {
	switch {
	case date:
		return "filter.err.date"
	case isAmountParam(param):
		return "filter.err.amount"
	}
	return "filter.err.format"
}

// boundMessage is filterMessage for a number out of its bounds (or not an integer): an amount
// or a page.
func boundMessage(lang views.Lang, param, code string, minAmount checkout.Cents) string {
	amount := isAmountParam(param)
	switch {
	case amount && code == checkout.CodeMax:
		return views.T(lang, "filter.err.amount_max", views.FormatMoney(lang, gatewayclient.MaxAmount))
	case amount:
		return views.T(lang, "filter.err.amount_min", views.FormatMoney(lang, minAmount))
	case param == paramPerPage:
		return views.T(lang, "filter.err.per_page")
	}
	return views.T(lang, "filter.err.page")
}

// quoted returns the first "quoted" part of a violation's message (the value it is about).
func quoted(msg string) string {
	s, err := strconv.QuotedPrefix(msg)
	if err != nil {
		return ""
	}
	u, _ := strconv.Unquote(s)
	return u
}

// hasFilters reports whether the query sets any filter (not only the language): the results
// then take the focus.
func hasFilters(q url.Values) bool {
	for k, vs := range q {
		if k == "lang" {
			continue
		}
		for _, v := range vs {
			if strings.TrimSpace(v) != "" {
				return true
			}
		}
	}
	return false
}

// firstValue is the first non-blank value of a parameter, as typed.
func firstValue(q url.Values, name string) string {
	for _, v := range q[name] {
		if strings.TrimSpace(v) != "" {
			return v
		}
	}
	return ""
}

// listValues is the set of the values of a repeated parameter (comma-separated ones split).
func listValues(q url.Values, name string) map[string]bool {
	out := map[string]bool{}
	for _, v := range q[name] {
		for part := range strings.SplitSeq(v, ",") {
			if part = strings.TrimSpace(part); part != "" {
				out[part] = true
			}
		}
	}
	return out
}

// timeValue is what a date-time input shows: the time read, in São Paulo, in the form a
// datetime-local input takes (seconds only when set); the value as typed when it could not be
// read.
func timeValue(q url.Values, name string, t time.Time, errs *checkout.ValidationError) string {
	if errs.Has(name) || t.IsZero() {
		return firstValue(q, name)
	}
	t = t.In(views.SaoPaulo())
	if t.Second() != 0 || t.Nanosecond() != 0 {
		return t.Format("2006-01-02T15:04:05")
	}
	return t.Format("2006-01-02T15:04")
}

// withQuery returns path with q as its query.
func withQuery(path string, q url.Values) string {
	if e := q.Encode(); e != "" {
		return path + "?" + e
	}
	return path
}

// exportURL is the CSV of the current filters: every page, so page and perPage are dropped.
func exportURL(path string, q url.Values) string {
	c := cloneValues(q)
	c.Del(paramPage)
	c.Del(paramPerPage)
	return withQuery(path, c)
}

func cloneValues(q url.Values) url.Values {
	c := url.Values{}
	for k, vs := range q {
		c[k] = slices.Clone(vs)
	}
	return c
}

// pager builds the pagination from the gateway's envelope; the links keep every other
// parameter of the query.
func (d *Dashboard) pager(r *http.Request, path string, q url.Values, total, totalPages, current, perPage, askedPage, askedPerPage int) views.Pager {
	if current <= 0 {
		current = max(askedPage, 1)
	}
	if perPage <= 0 {
		perPage = askedPerPage
	}
	pg := views.Pager{Total: total, TotalPages: totalPages, Page: current, PerPage: perPage,
		SizeAction: Path + path, Sizes: views.PerPageChoices()}
	link := func(n int) string {
		c := cloneValues(q)
		c.Set(paramPage, strconv.Itoa(n))
		return withQuery(Path+path, c)
	}
	if current > 1 {
		pg.First = link(1)
		pg.Prev = link(min(current-1, max(totalPages, 1)))
	}
	if current < totalPages {
		pg.Next = link(current + 1)
		pg.Last = link(totalPages)
	}
	for _, k := range slices.Sorted(maps.Keys(q)) {
		if k == paramPage || k == paramPerPage {
			continue
		}
		for _, v := range q[k] {
			pg.SizeHidden = append(pg.SizeHidden, views.Hidden{Name: k, Value: v})
		}
	}
	return pg
}

// deposit is GET /dashboard/deposits/{id}: every field of one deposit, its timeline, payer,
// receiver, refund, errors, and the shop's order it pays. An unknown id is a 404 page; a
// malformed one shows the API's 422 message.
func (d *Dashboard) deposit(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	back := respond.Link(r, Path+"/deposits")
	dep, err := d.gateway.GetDeposit(ctx, chi.URLParam(r, "id"))
	if err != nil {
		d.recordTrouble(w, r, err, back)
		return
	}
	v := views.DepositView{DashPage: d.page(r, "deposits"), D: dep, BackURL: back}
	for i, h := range dep.StatusHistory {
		s := gatewayclient.DepositStatus(h.Status)
		v.Timeline = append(v.Timeline, views.TimelineEntry{Status: h.Status, Label: views.DepositStatusText(v.Lang, s),
			Tone: views.DepositTone(s), At: h.Date, Duration: time.Duration(h.DurationInMilliseconds) * time.Millisecond,
			Current: i == len(dep.StatusHistory)-1 && s == dep.Status})
	}
	if o, err := d.svc.OrderByDeposit(ctx, dep.ID); err == nil {
		v.Order = &views.LinkedOrder{Number: o.Number, URL: respond.Link(r, Path+"/orders/"+url.PathEscape(o.ID)),
			Status: views.StatusText(v.Lang, o.Status)}
	} else if !errors.Is(err, checkout.ErrNotFound) {
		d.site.LogError(r, err, checkout.ErrorCode(err))
	}
	d.site.Render(w, r, http.StatusOK, views.DepositPage(v))
}

// withdrawal is GET /dashboard/withdrawals/{id}. The API has no GET /withdrawal/{id}: the
// record is the one the list's id filter returns.
func (d *Dashboard) withdrawal(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	back := respond.Link(r, Path+"/withdrawals")
	id := chi.URLParam(r, "id")
	p, err := d.gateway.ListWithdrawals(ctx, gatewayclient.WithdrawalFilter{ID: strings.ToLower(id), PerPage: 1})
	if err == nil && len(p.Data) == 0 {
		err = checkout.ErrNotFound
	}
	if err != nil {
		d.recordTrouble(w, r, err, back)
		return
	}
	wd := p.Data[0]
	v := views.WithdrawalView{DashPage: d.page(r, "withdrawals"), W: &wd, BackURL: back}
	for i, h := range wd.StatusHistory {
		s := gatewayclient.WithdrawalStatus(h.Status)
		v.Timeline = append(v.Timeline, views.TimelineEntry{Status: h.Status, Label: views.WithdrawalStatusText(v.Lang, s),
			Tone: views.WithdrawalTone(s), At: h.Date, Duration: time.Duration(h.DurationInMilliseconds) * time.Millisecond,
			Current: i == len(wd.StatusHistory)-1 && s == wd.Status})
	}
	d.site.Render(w, r, http.StatusOK, views.WithdrawalPage(v))
}

// recordTrouble answers a failed read of one record: 404 for an unknown id, 422 with the
// API's message for a malformed one, the gateway's trouble explained otherwise.
func (d *Dashboard) recordTrouble(w http.ResponseWriter, r *http.Request, err error, back string) {
	lang := respond.Lang(r)
	code := checkout.ErrorCode(err)
	switch code {
	case checkout.CodeNotFound:
		d.errorPage(w, r, http.StatusNotFound, views.T(lang, "notfound.title"), views.T(lang, "detail.not_found"), "", back)
		return
	case checkout.CodeInvalid:
		var ve *checkout.ValidationError
		var ae *gatewayclient.APIError
		var msgs []string
		switch {
		case errors.As(err, &ve):
			for _, v := range ve.Violations {
				msgs = append(msgs, v.String())
			}
		case errors.As(err, &ae):
			msgs = ae.Messages
		}
		detail := strings.Join(msgs, "; ")
		d.errorPage(w, r, http.StatusUnprocessableEntity, views.T(lang, "error.title"), views.T(lang, "detail.bad_id", detail), detail, back)
		return
	}
	status, banner := d.gatewayTrouble(r, err, &checkout.ValidationError{}, nil)
	d.errorPage(w, r, status, views.T(lang, "gateway.banner_title"), banner.Message, "", back)
}
