package dashboard

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/team"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// paramKind lists the rows of one divergence alone on the reconciliation page.
const paramKind = "kind"

// reconParams are the parameters of the reconciliation's form.
var reconParams = map[string]bool{paramFrom: true, paramTo: true, paramKind: true}

// maxReconRowsShown is how many rows the page shows; the export holds them all.
const maxReconRowsShown = 500

// reconQuery is a reconciliation as asked: its period and the divergence listed alone.
type reconQuery struct {
	q            url.Values
	from, before time.Time // São Paulo midnights
	kind         Divergence
}

// parseReconQuery reads the reconciliation's query: from and to, São Paulo dates (both
// today when absent; one alone is that day), at most maxReconDays days and none after today
// (the injected clock's), and kind, one of the divergences.
func parseReconQuery(raw string, now time.Time) (reconQuery, *checkout.ValidationError) {
	q, errs := strictQuery(raw)
	r := &queryReader{q: q, errs: errs}
	from, to := r.day(paramFrom), r.day(paramTo)
	today, _ := reconPeriod(now, now)
	switch {
	case from.IsZero() && to.IsZero():
		from, to = today, today
	case from.IsZero():
		from = to
	case to.IsZero():
		to = from
	}
	switch {
	case to.Before(from):
		addFilterError(errs, paramTo, checkout.CodeRange, "before from")
	case from.After(today):
		addFilterError(errs, paramFrom, checkout.CodeFuture, "after today")
	case to.After(today):
		addFilterError(errs, paramTo, checkout.CodeFuture, "after today")
	}
	start, before := reconPeriod(from, to)
	if !errs.Has(paramTo) && before.After(start.AddDate(0, 0, maxReconDays)) {
		addFilterError(errs, paramTo, checkout.CodeRange, "more than the days a reconciliation covers")
	}
	rq := reconQuery{q: q, from: start, before: before}
	if k := Divergence(r.single(paramKind)); k != "" {
		if !slices.Contains(divergences, k) {
			addFilterError(errs, paramKind, checkout.CodeEnum, "not a divergence")
		}
		rq.kind = k
	}
	return rq, errs
}

// reconFilterMessage is a violation of the reconciliation's form in the reader's language.
func reconFilterMessage(lang views.Lang, v checkout.Violation) string {
	switch {
	case v.Field == paramKind:
		return views.T(lang, "filter.err.recon_kind")
	case v.Code == checkout.CodeRange && v.Message != "before from":
		return views.T(lang, "filter.err.recon_days", maxReconDays)
	}
	return orderFilterMessage(lang, v.Field, v)
}

// reconciliation is GET /dashboard/reconciliation: a period's deposits of the gateway beside
// the shop's orders (reconcile.go), with the totals of both sides, the divergences by kind and
// the rows (of one kind alone with kind), each figure a link to the list behind it.
func (d *Dashboard) reconciliation(w http.ResponseWriter, r *http.Request) {
	lang := respond.Lang(r)
	v := views.ReconView{DashPage: d.page(r, "reconciliation")}
	rq, errs := parseReconQuery(r.URL.RawQuery, d.svc.Now())
	status := http.StatusOK
	if errs.OrNil() == nil {
		rc, err := reconSource{svc: d.svc, gw: d.gateway}.reconcile(r.Context(), rq.from, rq.before)
		switch {
		case errors.Is(err, errReconTooLarge):
			status, v.Failed = http.StatusUnprocessableEntity, views.T(lang, "recon.too_large")
		case err != nil:
			status, v.Banner = d.gatewayTrouble(r, err, errs, reconParams)
			if v.Banner == nil && errs.OrNil() == nil {
				v.Failed = views.T(lang, "recon.failed", respond.RequestID(r.Context()))
			}
		default:
			d.reconView(r, &v, rq, rc)
		}
	} else {
		status = http.StatusUnprocessableEntity
	}
	v.Filter = views.FilterView{Action: Path + "/reconciliation", ClearURL: respond.Link(r, Path+"/reconciliation"),
		Values: map[string]string{paramFrom: firstValue(rq.q, paramFrom), paramTo: firstValue(rq.q, paramTo)},
		Bar:    views.FilterBar{Presets: presetLinks(d.svc.Now(), Path+"/reconciliation", rq.q, paramFrom, paramTo)}}
	if v.Filter.Values[paramFrom] == "" && errs.OrNil() == nil {
		v.Filter.Values[paramFrom] = rq.from.Format(time.DateOnly)
		v.Filter.Values[paramTo] = rq.before.AddDate(0, 0, -1).Format(time.DateOnly)
	}
	v.Filter.Errors = views.Localise(errs, func(viol checkout.Violation) string { return reconFilterMessage(lang, viol) })
	d.site.Render(w, r, status, views.ReconciliationPage(v))
}

// reconView fills the page's view with rc.
func (d *Dashboard) reconView(r *http.Request, v *views.ReconView, rq reconQuery, rc *reconciliation) {
	lang := respond.Lang(r)
	v.Ran, v.From, v.To = true, rq.from, rq.before.AddDate(0, 0, -1)
	v.Kind, v.Divergent, v.Unchecked = string(rq.kind), rc.Divergent, rc.Unchecked
	v.Outside = views.PaidFigure{Orders: rc.Outside.Orders, Amount: rc.Outside.Amount}
	page := func(kind Divergence) string {
		q := url.Values{paramFrom: {v.From.Format(time.DateOnly)}, paramTo: {v.To.Format(time.DateOnly)}}
		if kind != "" {
			q.Set(paramKind, string(kind))
		}
		return respond.Link(r, withQuery(Path+"/reconciliation", q)) + "#recon-rows-title"
	}
	v.AllURL, v.OutsideURL = page(""), page(DivergenceOutside)
	for _, k := range divergences {
		v.Kinds = append(v.Kinds, views.ReconKind{Key: string(k), Count: rc.Counts[k], URL: page(k), Current: k == rq.kind})
	}
	v.Money = []views.MoneyColumn{
		{ID: "checkout", Label: views.T(lang, "recon.col_checkout"), M: rc.Shop, Links: d.shopLinks(r, v.From, v.To)},
		{ID: "gateway", Label: views.T(lang, "recon.col_gateway"), M: rc.Gateway, Links: d.gatewayLinks(r, rc)},
	}
	for _, row := range rc.Rows {
		if rq.kind != "" && !slices.Contains(row.Issues, rq.kind) {
			continue
		}
		if len(v.Rows) == maxReconRowsShown {
			v.More++
			continue
		}
		v.Rows = append(v.Rows, d.reconRowView(r, row))
	}
	if can(r, team.PermExport) {
		q := url.Values{paramFrom: {v.From.Format(time.DateOnly)}, paramTo: {v.To.Format(time.DateOnly)}}
		if rq.kind != "" {
			q.Set(paramKind, string(rq.kind))
		}
		v.CSVURL = respond.Link(r, withQuery(Path+"/reconciliation.csv", q))
		v.Exports = d.myExports(r)
	}
}

// shopLinks are the order lists behind the checkout's figures of the days from to to.
func (d *Dashboard) shopLinks(r *http.Request, from, to time.Time) map[checkout.MoneyKind]string {
	links := map[checkout.MoneyKind]string{}
	for _, k := range []checkout.MoneyKind{checkout.MoneyReceived, checkout.MoneyRefunded, checkout.MoneyHeld,
		checkout.MoneyFees, checkout.MoneyFeeUnknown} {
		q := url.Values{paramMoney: {string(k)}, paramFrom: {from.Format(time.DateOnly)}, paramTo: {to.Format(time.DateOnly)}}
		links[k] = respond.Link(r, Path+"/orders?"+q.Encode())
	}
	return links
}

// gatewayLinks are the deposit lists behind the gateway's figures: the list the
// reconciliation read (from the day before the period), in the states of each figure.
func (d *Dashboard) gatewayLinks(r *http.Request, rc *reconciliation) map[checkout.MoneyKind]string {
	loc := views.SaoPaulo()
	list := func(states ...gatewayclient.DepositStatus) string {
		q := url.Values{paramStartDate: {rc.ListStart.In(loc).Format(time.DateOnly)},
			paramEndDate: {rc.ListEnd.In(loc).Format(time.DateOnly)}}
		for _, s := range states {
			q.Add(paramStatus, string(s))
		}
		return respond.Link(r, Path+"/deposits?"+q.Encode())
	}
	paid := list(reconPaidStates...)
	return map[checkout.MoneyKind]string{checkout.MoneyReceived: paid, checkout.MoneyFees: paid, checkout.MoneyFeeUnknown: paid,
		checkout.MoneyRefunded: list(gatewayclient.DepositProcessingRefund, gatewayclient.DepositRefunded, gatewayclient.DepositInfraction),
		checkout.MoneyHeld: list(gatewayclient.DepositBlocked, gatewayclient.DepositProcessingInfraction,
			gatewayclient.DepositPendingCompliance)}
}

// reconRowView is a row as the page shows it.
func (d *Dashboard) reconRowView(r *http.Request, row reconRow) views.ReconRowView {
	rv := views.ReconRowView{MatchedBy: row.MatchedBy, Checked: row.Checked, RefundHere: row.RefundHere}
	for _, k := range row.Issues {
		rv.Issues = append(rv.Issues, string(k))
	}
	if dep := row.Deposit; dep != nil {
		rv.DepositID, rv.DepositStatus, rv.PaymentDate = dep.ID, string(dep.Status), dep.PaymentDate
		rv.DepositURL = respond.Link(r, Path+"/deposits/"+url.PathEscape(dep.ID))
		rv.Paid, rv.GatewayRefund, rv.Fee = paidOf(dep), refundOf(dep), dep.FeeAmount
	}
	if o := row.Order; o != nil {
		rv.OrderID, rv.OrderNumber, rv.OrderStatus, rv.OrderAmount, rv.OrderFee = o.ID, o.Number, o.Status, o.Amount, o.Fee
		rv.OrderURL = respond.Link(r, Path+"/orders/"+url.PathEscape(o.ID))
	}
	return rv
}

// reconCols are the columns of the reconciliation's export: a row's first divergence ("ok"
// when none), the deposit and the order, and both sides' amounts, refunds and fees.
var reconCols = []sheetCol{
	{key: "divergence", kind: colEnum, enum: "recon.kind."}, {key: "depositId", kind: colCode},
	{key: "depositStatus", kind: colEnum, enum: "dstatus."}, {key: "paymentDate", kind: colTime},
	{key: "depositPaidCents", kind: colCents}, {key: "depositPaidBRL", kind: colReais},
	{key: "orderNumber", kind: colCode, width: 14}, {key: "orderId", kind: colCode},
	{key: "orderStatus", kind: colEnum, enum: "status."}, {key: "paidAt", kind: colTime},
	{key: "matchedBy", kind: colEnum, enum: "recon.by."}, {key: "externalCode", kind: colCode},
	{key: "orderAmountCents", kind: colCents}, {key: "orderAmountBRL", kind: colReais},
	{key: "refundHereCents", kind: colCents}, {key: "refundHereBRL", kind: colReais},
	{key: "gatewayRefundCents", kind: colCents}, {key: "gatewayRefundBRL", kind: colReais},
	{key: "orderFeeCents", kind: colFee}, {key: "depositFeeCents", kind: colFee},
}

// reconRows are the rows of a reconciliation's export (all read already).
type reconRows struct{ rows []reconRow }

func (s reconRows) writeRows(_ context.Context, out sheetWriter, page func(rows int) error) (int, error) {
	if err := out.header(reconCols); err != nil {
		return 0, err
	}
	for _, row := range s.rows {
		kind := "ok"
		if !row.Checked {
			kind = "unchecked"
		} else if len(row.Issues) > 0 {
			kind = string(row.Issues[0])
		}
		vals := sheetRow{kind, "", "", time.Time{}, checkout.Cents(0), (*checkout.Cents)(nil), "", "", "", time.Time{},
			row.MatchedBy, "", (*checkout.Cents)(nil), (*checkout.Cents)(nil), row.RefundHere, row.RefundHere,
			(*checkout.Cents)(nil), (*checkout.Cents)(nil), (*checkout.Cents)(nil), (*checkout.Cents)(nil)}
		if dep := row.Deposit; dep != nil {
			paid, refund := paidOf(dep), refundOf(dep)
			vals[1], vals[2], vals[3], vals[4], vals[5] = dep.ID, string(dep.Status), dep.PaymentDate, paid, paid
			vals[11], vals[16], vals[17], vals[19] = dep.ExternalCode, refund, refund, dep.FeeAmount
		} else {
			vals[4] = (*checkout.Cents)(nil)
		}
		if o := row.Order; o != nil {
			vals[6], vals[7], vals[8], vals[9], vals[11] = o.Number, o.ID, string(o.Status), o.PaidAt, o.ExternalCode
			vals[12], vals[13], vals[18] = o.Amount, o.Amount, o.Fee
		}
		if err := out.row(reconCols, vals); err != nil {
			return 0, err
		}
	}
	if err := out.flush(); err != nil {
		return 0, err
	}
	return len(s.rows), page(len(s.rows))
}

// reconciliationExport is GET /dashboard/reconciliation.csv and .xlsx: the rows of the page's
// period (of one divergence alone with kind), through the exports' one writer. It holds no
// personal data: ids, order numbers, states, amounts.
func (d *Dashboard) reconciliationExport(w http.ResponseWriter, r *http.Request) {
	rq, errs := parseReconQuery(r.URL.RawQuery, d.svc.Now())
	if errs.OrNil() != nil {
		d.reconciliation(w, r) // the page with its errors
		return
	}
	format, err := d.exportFormatOf(r, rq.q)
	if err != nil {
		d.badExport(w, r, "reconciliation", err)
		return
	}
	rc, err := reconSource{svc: d.svc, gw: d.gateway}.reconcile(r.Context(), rq.from, rq.before)
	if err != nil {
		d.reconciliation(w, r) // the page says what failed
		return
	}
	rows := rc.Rows
	if rq.kind != "" {
		rows = slices.DeleteFunc(slices.Clone(rows), func(row reconRow) bool { return !slices.Contains(row.Issues, rq.kind) })
	}
	d.deliverExport(w, r, exportAsked{name: "reconciliation", format: format, query: r.URL.RawQuery}, reconRows{rows}, len(rows))
}

// needs wraps h so that it also needs perm, for a route that needs two permissions (the route
// table's own check is the other).
func (d *Dashboard) needs(perm team.Permission, h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !can(r, perm) {
			d.forbidden(w, r)
			return
		}
		h(w, r)
	}
}
