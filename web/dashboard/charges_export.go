package dashboard

import (
	"context"
	"net/http"
	"net/url"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/charges"
	"github.com/pixcheckout/pixcheckout/checkout/team"
	"github.com/pixcheckout/pixcheckout/gatewayclient/brdoc"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// chargesExportPage is how many charges an export reads from the store at a time.
const chargesExportPage = 1000

// chargesCols are the columns of the charges' export: what the list shows and the charge's
// page adds (its balance on the day of the export, in São Paulo).
var chargesCols = []sheetCol{
	{key: "id", kind: colCode}, {key: "createdAt", kind: colTime}, {key: "status", kind: colEnum, enum: "charges.status_"},
	{key: "dueDate", kind: colCode, width: 12},
	{key: "amountCents", kind: colCents}, {key: "amountBRL", kind: colReais},
	{key: "balanceCents", kind: colCents}, {key: "balanceBRL", kind: colReais},
	{key: "amountPaidCents", kind: colCents}, {key: "amountPaidBRL", kind: colReais}, {key: "paidAt", kind: colTime},
	{key: "customerName", kind: colText, width: 28}, {key: "customerEmail", kind: colText, width: 28},
	{key: "customerDocument", kind: colCode}, {key: "customerPhone", kind: colCode},
	{key: "description", kind: colText, width: 32}, {key: "externalCode", kind: colCode},
}

// chargesExport is GET /dashboard/charges.csv and .xlsx: every charge the list's filters select
// (the list's own query, its page aside), newest first, read from the store by key a page at a
// time and written as every export is; documents and phones masked unless a role that may asked
// them in full (personalData=full, recorded). More than checkout.MaxCounted charges run in the
// background.
func (d *Dashboard) chargesExport(w http.ResponseWriter, r *http.Request) {
	full, allowed, raw := unmaskedExport(r)
	if !allowed {
		d.forbidden(w, r)
		return
	}
	q, f, _, _, errs := parseChargeQuery(raw)
	if errs.OrNil() != nil {
		d.chargesPage(w, r) // the list with its errors
		return
	}
	format, err := d.exportFormatOf(r, q)
	if err != nil {
		d.badExport(w, r, "charges", err)
		return
	}
	f.AfterCreated, f.AfterID, f.Backward = time.Time{}, "", false // every page, from the first
	f.Limit = chargesExportPage
	first, total, err := d.charges.List(r.Context(), f, checkout.MaxCounted+1)
	if err != nil {
		d.site.Fail(w, r, err)
		return
	}
	if total > checkout.MaxCounted {
		total = d.exportThreshold + 1 // more than the list counts: a large one
	}
	src := &chargeRows{m: d.charges, f: f, full: full, first: first, today: d.charges.Today()}
	d.deliverExport(w, r, exportAsked{name: "charges", format: format, full: full, query: raw}, src, total)
}

// chargeRows are the rows of an export of charges, the first page read; balances are those of
// today, the day the export was asked.
type chargeRows struct {
	m     *charges.Manager
	f     charges.Filter
	full  bool
	first []charges.Charge
	today charges.Date
}

func (c *chargeRows) writeRows(ctx context.Context, out sheetWriter, page func(rows int) error) (int, error) {
	if err := out.header(chargesCols); err != nil {
		return 0, err
	}
	rows := 0
	for list := c.first; len(list) > 0; {
		for i := range list {
			if err := out.row(chargesCols, c.row(&list[i])); err != nil {
				return rows, err
			}
		}
		rows += len(list)
		if err := out.flush(); err != nil {
			return rows, err
		}
		if err := page(rows); err != nil {
			return rows, err
		}
		if len(list) < c.f.Limit {
			break
		}
		last := list[len(list)-1]
		c.f.AfterCreated, c.f.AfterID = last.CreatedAt, last.ID
		next, _, err := c.m.List(ctx, c.f, 0) // no count: the first page had it
		if err != nil {
			return rows, &sourceError{err}
		}
		list = next
	}
	return rows, nil
}

// row is one charge's values, its document and phone masked unless the export is in full.
func (c *chargeRows) row(ch *charges.Charge) sheetRow {
	doc, phone := ch.Customer.Document, ch.Customer.Phone
	if !c.full {
		doc, phone = brdoc.MaskDocument(brdoc.FormatDocument(doc)), brdoc.MaskPhone(brdoc.FormatPhone(phone))
	}
	balance := ch.Balance(c.today)
	return sheetRow{ch.ID, ch.CreatedAt, string(ch.Status), ch.Terms.Due.String(), ch.Terms.Amount, ch.Terms.Amount,
		balance, balance, ch.Paid, ch.Paid, ch.PaidAt, ch.Customer.Name, ch.Customer.Email, doc, phone, ch.Description,
		ch.ExternalCode}
}

// chargeListLinks gives the charge list v, for the roles that may, the import and the export
// of every charge of the list's query q.
func (d *Dashboard) chargeListLinks(r *http.Request, v *views.ChargesView, q url.Values) {
	if can(r, team.PermChargesWrite) {
		v.ImportURL = respond.Link(r, Path+importPath)
	}
	if can(r, team.PermExport) {
		eq := cloneValues(q)
		eq.Del(paramCursor)
		v.CSVURL = exportURL(Path+"/charges.csv", eq)
		v.CSVFullURL = unmaskedExportURL(r, v.CSVURL)
		v.Exports = d.myExports(r)
	}
}
