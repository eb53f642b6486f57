package dashboard

import (
	"context"
	"net/http"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/team"
)

// ordersExportPage is how many orders an export of orders reads from the store at a time.
const ordersExportPage = 1000

// ordersCols are the columns of the orders' export.
var ordersCols = []sheetCol{
	{key: "number", kind: colCode, width: 14}, {key: "id", kind: colCode}, {key: "createdAt", kind: colTime},
	{key: "paidAt", kind: colTime}, {key: "status", kind: colEnum, enum: "status."},
	{key: "fulfilment", kind: colEnum, enum: "fulfilment."},
	{key: "amountCents", kind: colCents}, {key: "amountBRL", kind: colReais},
	{key: "refundDueCents", kind: colCents}, {key: "refundDueBRL", kind: colReais},
	{key: "customerName", kind: colText, width: 28}, {key: "customerEmail", kind: colText, width: 28},
	{key: "customerDocument", kind: colCode}, {key: "externalCode", kind: colCode}, {key: "merchantReference", kind: colText},
}

// ordersExport is GET /dashboard/orders.csv and .xlsx: every order the list's filters and
// sort select (the list's own query), read from the store by key a page at a time, written as
// every export is; documents masked unless an owner asked them in full (personalData=full,
// recorded). More than checkout.MaxCounted orders (the count the list stops at) run in the
// background.
func (d *Dashboard) ordersExport(w http.ResponseWriter, r *http.Request) {
	full, allowed, raw := unmaskedExport(r)
	if !allowed || !can(r, team.PermOrdersRead) {
		d.forbidden(w, r)
		return
	}
	q, f, _, errs := parseOrderQuery(raw)
	if errs.OrNil() != nil {
		d.orders(w, r) // the list with its errors
		return
	}
	format, err := d.exportFormatOf(r, q)
	if err != nil {
		d.badExport(w, r, "orders", err)
		return
	}
	f.Limit = ordersExportPage
	f.Page = checkout.Cursor{Sort: f.Sort} // every page, from the first
	res, err := d.svc.MerchantOrders(r.Context(), f)
	if err != nil {
		d.site.Fail(w, r, err)
		return
	}
	total := res.Total
	if total > checkout.MaxCounted {
		total = d.exportThreshold + 1 // more than the list counts: a large one
	}
	src := &orderRows{svc: d.svc, f: f, full: full, first: res.Orders}
	d.deliverExport(w, r, exportAsked{name: "orders", format: format, full: full, query: raw}, src, total)
}

// orderRows are the rows of an export of orders, the first page read.
type orderRows struct {
	svc   *checkout.Service
	f     checkout.OrderFilter
	full  bool
	first []checkout.OrderSummary
}

func (o *orderRows) writeRows(ctx context.Context, out sheetWriter, page func(rows int) error) (int, error) {
	if err := out.header(ordersCols); err != nil {
		return 0, err
	}
	rows := 0
	for list := o.first; len(list) > 0; {
		for _, s := range list {
			doc := s.CustomerDocument
			if !o.full {
				doc = maskCustomer(checkout.Customer{Document: doc}).Document
			}
			if err := out.row(ordersCols, sheetRow{s.Number, s.ID, s.CreatedAt, s.PaidAt, string(s.Status), s.Fulfilment(),
				s.Amount, s.Amount, s.RefundDue, s.RefundDue, s.CustomerName, s.CustomerEmail, doc, s.ExternalCode,
				s.MerchantReference}); err != nil {
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
		if len(list) < o.f.Limit {
			break
		}
		last := list[len(list)-1]
		o.f.Page = checkout.Cursor{Key: checkout.OrderKey{CreatedAt: last.CreatedAt, Amount: last.Amount, ID: last.ID}, Sort: o.f.Sort}
		res, err := o.svc.MerchantOrders(ctx, o.f)
		if err != nil {
			return rows, &sourceError{err}
		}
		list = res.Orders
	}
	return rows, nil
}
