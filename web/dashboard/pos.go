package dashboard

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/pos"
	"github.com/pixcheckout/pixcheckout/checkout/team"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// The point of sale (/dashboard/pos): the cashier's screen, with the keypad and the
// catalogue's grid, the sale's QR code full-screen and its outcome, and the cashier's own
// sales of the day. Everything is team.PermPOS; a cashier sells only at the terminals it is
// given (pos.Manager.TerminalsOf) and sees only its own sales. The sale's status is the
// order's own, followed on /pay/{orderID}/events and /pay/{orderID}/status by the same
// script as the shopper's PIX page (static/files/follow.js).

// posPath is the point of sale's start.
const posPath = Path + "/pos"

// sessTerminal is the session key of the terminal the user last sold at.
const sessTerminal = "pos_terminal"

// Fields of the point of sale's sale form (besides checkout's FieldSale*).
const (
	fieldTerminal = "terminal"
	fieldCPF      = "customer_document"
	fieldCPFName  = "customer_name"
	fieldQtyPart  = "qty."
	fieldSaleKey  = "sale_key"
)

func salePath(id string) string { return posPath + "/sales/" + url.PathEscape(id) }

// posTerminals returns the terminals the signed-in user may sell at, and the one chosen
// (asked, else the session's last, else the first); nil when it has none.
func (d *Dashboard) posTerminals(r *http.Request, asked string) ([]pos.Terminal, *pos.Terminal, error) {
	ts, err := d.pos.TerminalsOf(r.Context(), userOf(r))
	if err != nil || len(ts) == 0 {
		return ts, nil, err
	}
	for _, want := range []string{asked, d.sessions.GetString(r.Context(), sessTerminal)} {
		for i := range ts {
			if want != "" && ts[i].ID == want {
				return ts, &ts[i], nil
			}
		}
	}
	return ts, &ts[0], nil
}

// posPage is GET /dashboard/pos: the keypad, the catalogue's grid, and the user's sales of
// the day (?terminal= chooses the terminal when there are several).
func (d *Dashboard) posPage(w http.ResponseWriter, r *http.Request) {
	d.renderPOS(w, r, http.StatusOK, r.URL.Query().Get(fieldTerminal), nil, nil)
}

// renderPOS renders the point of sale's start with the form as posted (nil: empty) and its
// violations.
func (d *Dashboard) renderPOS(w http.ResponseWriter, r *http.Request, status int, terminal string, form url.Values, fe *checkout.ValidationError) {
	ctx := r.Context()
	ts, cur, err := d.posTerminals(r, terminal)
	if err != nil {
		d.site.Fail(w, r, err)
		return
	}
	v := views.POSView{DashPage: d.page(r, "pos"), Action: respond.Link(r, posPath+"/sales"), Key: checkout.NewID(),
		Manifest: respond.Link(r, posPath+"/manifest.webmanifest"), ClosingURL: respond.Link(r, closingPath)}
	for _, t := range ts {
		v.Terminals = append(v.Terminals, views.POSTerminal{ID: t.ID, Name: t.Name, URL: respond.Link(r, posPath+"?terminal="+url.QueryEscape(t.ID))})
	}
	if cur != nil {
		v.Terminal = views.POSTerminal{ID: cur.ID, Name: cur.Name}
	}
	if form != nil {
		v.Amount, v.Description = form.Get(checkout.FieldSaleAmount), form.Get(checkout.FieldSaleDescription)
		v.CPF, v.CPFName = form.Get(fieldCPF), form.Get(fieldCPFName)
	}
	if fe != nil {
		v.Errors = views.POSErrors(respond.Lang(r), fe)
	}
	products, err := d.svc.Products(ctx)
	if err != nil {
		d.site.Fail(w, r, err)
		return
	}
	for _, p := range products {
		v.Products = append(v.Products, views.POSProduct{ID: string(p.ID), Title: p.Title, Price: p.UnitPrice,
			Field: fieldQtyPart + string(p.ID)})
	}
	if v.Sales, err = d.todaysSales(r); err != nil {
		d.site.Fail(w, r, err)
		return
	}
	d.site.Render(w, r, status, views.POSPage(v))
}

// todaysSales lists the signed-in user's sales of the São Paulo day, newest first.
func (d *Dashboard) todaysSales(r *http.Request) ([]views.POSSale, error) {
	now := d.svc.Now().In(views.SaoPaulo())
	day := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, now.Location())
	list, err := d.svc.Orders(r.Context(), checkout.OrderFilter{CashierID: userOf(r).ID, CreatedFrom: day,
		CreatedBefore: day.AddDate(0, 0, 1), Limit: 200})
	if err != nil {
		return nil, err
	}
	out := make([]views.POSSale, 0, len(list))
	for _, o := range list {
		if o.Channel != checkout.ChannelPOS {
			continue
		}
		out = append(out, views.POSSale{Number: o.Number, Amount: o.Amount, Status: o.Status, At: o.CreatedAt,
			URL: respond.Link(r, salePath(o.ID))})
	}
	return out, nil
}

// createSale is POST /dashboard/pos/sales: amount in reais (12,34) and an optional
// description, or the catalogue's quantities (qty.{productID}); terminal when there are
// several; optionally a CPF and a name for the receipt. It answers 303 to the sale's page; a
// refused sale draws the form again with the reasons.
func (d *Dashboard) createSale(w http.ResponseWriter, r *http.Request) {
	form := r.PostForm
	ts, cur, err := d.posTerminals(r, form.Get(fieldTerminal))
	if err != nil {
		d.site.Fail(w, r, err)
		return
	}
	fe := &checkout.ValidationError{}
	asked := form.Get(fieldTerminal)
	if cur == nil || (asked != "" && asked != cur.ID) || (asked == "" && len(ts) > 1) {
		fe.Add(pos.FieldTerminalID, checkout.CodeRequired, "choose one of your terminals")
	}
	sale := &checkout.Sale{Cashier: userOf(r).ID, Description: form.Get(checkout.FieldSaleDescription),
		Customer: checkout.Customer{Name: form.Get(fieldCPFName), Document: form.Get(fieldCPF)}}
	if cur != nil {
		sale.Terminal = cur.ID
	}
	sale.Items = saleItems(form, fe)
	if len(sale.Items) == 0 {
		amount, err := checkout.ParseReais(form.Get(checkout.FieldSaleAmount))
		if err != nil {
			fe.Add(checkout.FieldSaleAmount, checkout.CodeFormat, err.Error())
		}
		sale.Amount = amount
	} else if p := d.site.Profile(r.Context()); p.Address != "" {
		sale.Counter = p.CounterAddress()
	}
	if len(fe.Violations) > 0 {
		d.renderPOS(w, r, http.StatusUnprocessableEntity, asked, form, fe)
		return
	}
	d.sessions.Put(r.Context(), sessTerminal, cur.ID)
	key := form.Get(fieldSaleKey)
	o, err := d.svc.PlaceOrder(r.Context(), checkout.PlaceOrderInput{Channel: checkout.ChannelPOS, RequestKey: key,
		Sale: sale, Lang: respond.Lang(r).String()})
	var ve *checkout.ValidationError
	switch {
	case errors.As(err, &ve):
		d.renderPOS(w, r, http.StatusUnprocessableEntity, asked, form, ve)
		return
	case err != nil:
		d.site.Fail(w, r, err)
		return
	}
	respond.Redirect(w, r, salePath(o.ID))
}

// saleItems reads the catalogue's quantities of the form (qty.{productID}, 0 or empty: none).
func saleItems(form url.Values, fe *checkout.ValidationError) []checkout.SaleItem {
	var items []checkout.SaleItem
	for k, vs := range form {
		id, ok := strings.CutPrefix(k, fieldQtyPart)
		if !ok || len(vs) == 0 || strings.TrimSpace(vs[0]) == "" {
			continue
		}
		n, err := strconv.Atoi(strings.TrimSpace(vs[0]))
		switch {
		case err != nil || n < 0 || n > checkout.MaxQuantity:
			fe.Add(checkout.FieldSaleItems, checkout.CodeRange, "quantities are 0 to 100")
		case n > 0:
			items = append(items, checkout.SaleItem{Product: checkout.ProductID(id), Quantity: n})
		}
	}
	return items
}

// sale reads the sale {id} the signed-in user may see: a cashier its own only, the other
// roles with team.PermPOS any. Anything else is not found.
func (d *Dashboard) sale(r *http.Request) (*checkout.Order, error) {
	o, err := d.svc.Snapshot(r.Context(), chi.URLParam(r, "id"))
	if err != nil {
		return nil, err
	}
	u := userOf(r)
	if o.Channel != checkout.ChannelPOS || (u.Role == team.RoleCashier && o.CashierID != u.ID) {
		return nil, checkout.ErrNotFound
	}
	return o, nil
}

// salePage is GET /dashboard/pos/sales/{id}: the QR code full-screen while it waits, then the
// outcome (paid, expired, canceled) as the server knows it.
func (d *Dashboard) salePage(w http.ResponseWriter, r *http.Request) {
	o, err := d.sale(r)
	if err != nil {
		d.site.Fail(w, r, err, views.T(respond.Lang(r), "pos.sale_missing"))
		return
	}
	v := d.saleView(r, o)
	if v.Status.WasPaid() {
		v.Send = d.sendReceiptView(r, o)
		if to := d.sessions.PopString(r.Context(), sessReceiptSent); to != "" {
			v.Send.MailTo, v.Send.MailSent = to, true
		}
	}
	d.site.Render(w, r, http.StatusOK, views.POSSalePage(v))
}

// saleView is sale o's page as the server knows it.
func (d *Dashboard) saleView(r *http.Request, o *checkout.Order) views.POSSaleView {
	v := views.POSSaleView{DashPage: d.page(r, "pos"), Number: o.Number, Amount: o.Amount, Status: o.Status,
		NewSaleURL: respond.Link(r, posPath), CancelURL: respond.Link(r, salePath(o.ID)+"/cancel"),
		RenewURL: respond.Link(r, salePath(o.ID)+"/renew"), EventsURL: respond.Link(r, "/pay/"+url.PathEscape(o.ID)+"/events"),
		StatusURL: respond.Link(r, "/pay/"+url.PathEscape(o.ID)+"/status"), RefundDue: o.RefundDue,
		Manifest: respond.Link(r, posPath+"/manifest.webmanifest"), Now: d.svc.Now()}
	if a := o.QR(); a != nil {
		v.QRURL, v.Code, v.ExpiresAt = respond.Link(r, "/pay/"+url.PathEscape(o.ID)+"/qr.png"), a.BRCode, a.ExpiresAt
		if d.site.Sandbox {
			v.SandboxPayURL = respond.Link(r, "/pay/"+url.PathEscape(o.ID)+"/sandbox-pay")
		}
	}
	if a := o.PaidAttempt(); a != nil {
		v.PaidAt, v.EndToEnd = o.PaidAt, a.EndToEnd
	}
	v.Terminal = d.terminalName(r, o.TerminalID)
	return v
}

// terminalName is the name of the terminal id ("" when it cannot be read).
func (d *Dashboard) terminalName(r *http.Request, id string) string {
	ts, err := d.pos.Terminals(r.Context())
	if err != nil {
		d.site.LogError(r, err, checkout.ErrorCode(err))
		return ""
	}
	for _, t := range ts {
		if t.ID == id {
			return t.Name
		}
	}
	return ""
}

// cancelSale is POST /dashboard/pos/sales/{id}/cancel: the sale is canceled here only (the
// gateway has no cancel: a payment that still arrives is a refund due, as for any canceled
// order).
func (d *Dashboard) cancelSale(w http.ResponseWriter, r *http.Request) {
	o, err := d.sale(r)
	if err != nil {
		d.site.Fail(w, r, err)
		return
	}
	if _, _, err := d.svc.CancelOrder(r.Context(), o.ID); err != nil && checkout.ErrorCode(err) != checkout.CodeConflict {
		d.site.Fail(w, r, err)
		return
	}
	respond.Redirect(w, r, salePath(o.ID))
}

// renewSale is POST /dashboard/pos/sales/{id}/renew: a sale whose QR code expired (or
// failed) is charged again, a new QR code for the same sale.
func (d *Dashboard) renewSale(w http.ResponseWriter, r *http.Request) {
	o, err := d.sale(r)
	if err != nil {
		d.site.Fail(w, r, err)
		return
	}
	if _, err := d.svc.RegenerateQR(r.Context(), o.ID); err != nil && !errors.Is(err, checkout.ErrNotRenewable) {
		d.site.Fail(w, r, err)
		return
	}
	respond.Redirect(w, r, salePath(o.ID))
}

// posManifest is GET /dashboard/pos/manifest.webmanifest: the point of sale installed as an
// app, named after the store, its icons the store's logo (the product's own without one).
func (d *Dashboard) posManifest(w http.ResponseWriter, r *http.Request) {
	b, err := json.Marshal(views.POSManifest(d.site.Page(r), respond.Link(r, posPath)))
	if err != nil {
		d.site.Fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/manifest+json")
	_, _ = w.Write(b)
}
