package dashboard

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/audit"
	"github.com/pixcheckout/pixcheckout/checkout/team"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// The merchant's actions on an order (checkout/fulfilment.go): each a POST of the order page
// (or of the refunds page, for a refund), allowed to roles with orders.write, recorded in the
// audit log when it changed something. A refusal comes back on the page that was sent: the
// error beside its field, or why the order's state does not allow it.

// Forms of the order page's actions (views.OrderActions.Form).
const (
	formShip   = "ship"
	formCancel = "cancel"
	formNote   = "note"
	formRefund = "refund"
)

// fromRefunds is the value of the hidden "from" of a refund form on the refunds page: its
// answer goes back there.
const fromRefunds = "refunds"

// maxRefundsListed bounds the refunds page (refunds due are few), and maxPayerReads the
// deposits whose payer one visit of the page reads from the gateway (the rest link to their
// deposit's page).
const (
	maxRefundsListed = 500
	maxPayerReads    = 50
)

// orderAction is one of the actions: what it is called in the audit log and in the page's
// notice (?done=), the form it was sent from, and what it does (the order, whether it changed
// anything, the audit entry's detail).
type orderAction struct {
	form, audit, done string
	run               func(r *http.Request, id string) (*checkout.Order, bool, string, error)
}

// shipOrder is POST /dashboard/orders/{id}/ship: carrier and trackingCode.
func (d *Dashboard) shipOrder(w http.ResponseWriter, r *http.Request) {
	d.act(w, r, orderAction{formShip, audit.OrderShipped, "shipped", func(r *http.Request, id string) (*checkout.Order, bool, string, error) {
		in := checkout.ShipInput{Carrier: shipCarrier(r), TrackingCode: r.PostForm.Get(checkout.FieldTrackingCode)}
		o, changed, err := d.svc.MarkShipped(r.Context(), id, in)
		if err != nil {
			return nil, false, "", err
		}
		return o, changed, o.Carrier + " " + o.TrackingCode, nil
	}})
}

// shipCarrier is the ship form's carrier: the one chosen, or the name typed under "Outra".
func shipCarrier(r *http.Request) string {
	if c := r.PostForm.Get(checkout.FieldCarrier); c != views.CarrierOther {
		return c
	}
	return r.PostForm.Get("carrier_other")
}

// deliverOrder is POST /dashboard/orders/{id}/deliver.
func (d *Dashboard) deliverOrder(w http.ResponseWriter, r *http.Request) {
	d.act(w, r, orderAction{"", audit.OrderDelivered, "delivered", func(r *http.Request, id string) (*checkout.Order, bool, string, error) {
		o, changed, err := d.svc.MarkDelivered(r.Context(), id)
		return o, changed, "", err
	}})
}

// cancelOrder is POST /dashboard/orders/{id}/cancel: only with its confirmation ticked.
func (d *Dashboard) cancelOrder(w http.ResponseWriter, r *http.Request) {
	d.act(w, r, orderAction{formCancel, audit.OrderCanceled, "canceled", func(r *http.Request, id string) (*checkout.Order, bool, string, error) {
		if r.PostForm.Get("confirm") != "yes" {
			return nil, false, "", &checkout.ValidationError{Violations: []checkout.Violation{
				{Field: "confirm", Code: checkout.CodeRequired, Message: "tick the confirmation"}}}
		}
		o, changed, err := d.svc.CancelOrder(r.Context(), id)
		return o, changed, "", err
	}})
}

// noteOrder is POST /dashboard/orders/{id}/notes: note, and the form's key.
func (d *Dashboard) noteOrder(w http.ResponseWriter, r *http.Request) {
	d.act(w, r, orderAction{formNote, audit.OrderNoteAdded, "noted", func(r *http.Request, id string) (*checkout.Order, bool, string, error) {
		// The note's text stays in the order: the audit log says that one was added.
		o, changed, err := d.svc.AddNote(r.Context(), id, r.PostForm.Get(checkout.FieldActionKey), r.PostForm.Get(checkout.FieldNote))
		return o, changed, "", err
	}})
}

// recordRefund is POST /dashboard/orders/{id}/refunds: refundDate (YYYY-MM-DD),
// refundAmount (reais), endToEnd.
func (d *Dashboard) recordRefund(w http.ResponseWriter, r *http.Request) {
	d.act(w, r, orderAction{formRefund, audit.OrderRefundRecorded, "refund", func(r *http.Request, id string) (*checkout.Order, bool, string, error) {
		in, fe := readRefund(r)
		if fe != nil {
			return nil, false, "", fe
		}
		o, changed, err := d.svc.RecordRefund(r.Context(), id, in)
		if err != nil {
			return nil, false, "", err
		}
		return o, changed, fmt.Sprintf("%d cents, %s, %s", int64(in.Amount), in.On.Format(time.DateOnly), in.EndToEnd), nil
	}})
}

// readRefund reads the refund form; a date or amount that does not read is a field error
// (the domain checks the rest).
func readRefund(r *http.Request) (checkout.RefundInput, *checkout.ValidationError) {
	fe := &checkout.ValidationError{}
	bad := func(field, code string) { fe.Add(field, code, "") }
	in := checkout.RefundInput{EndToEnd: r.PostForm.Get(checkout.FieldRefundE2E)}
	if s := r.PostForm.Get(checkout.FieldRefundOn); s == "" {
		bad(checkout.FieldRefundOn, checkout.CodeRequired)
	} else if day, err := time.ParseInLocation(time.DateOnly, s, views.SaoPaulo()); err != nil {
		bad(checkout.FieldRefundOn, checkout.CodeFormat)
	} else {
		in.On = day
	}
	if s := r.PostForm.Get(checkout.FieldRefundAmount); s == "" {
		bad(checkout.FieldRefundAmount, checkout.CodeRequired)
	} else if c, err := checkout.ParseReais(s); err != nil {
		bad(checkout.FieldRefundAmount, checkout.CodeFormat)
	} else {
		in.Amount = c
	}
	return in, fe.OrNil()
}

// act runs an action and answers: back to the page it was sent from with a notice, or that
// page again with why it was refused.
func (d *Dashboard) act(w http.ResponseWriter, r *http.Request, a orderAction) {
	id := chi.URLParam(r, "id")
	refunds := r.PostForm.Get("from") == fromRefunds
	o, changed, detail, err := a.run(r, id)
	if err == nil {
		if changed {
			d.record(r, a.audit, o.Number, detail)
		}
		if refunds {
			respond.Redirect(w, r, Path+"/refunds?done="+a.done)
			return
		}
		respond.Redirect(w, r, Path+"/orders/"+url.PathEscape(id)+"?done="+a.done)
		return
	}
	lang := respond.Lang(r)
	code := checkout.ErrorCode(err)
	if code == checkout.CodeNotFound {
		d.errorPage(w, r, http.StatusNotFound, views.T(lang, "notfound.title"), views.T(lang, "notfound.text"), "",
			respond.Link(r, Path+"/orders"))
		return
	}
	if code != checkout.CodeInvalid && code != checkout.CodeConflict {
		d.site.Fail(w, r, err)
		return
	}
	cur, rerr := d.svc.Order(r.Context(), id)
	if rerr != nil {
		d.site.Fail(w, r, rerr)
		return
	}
	sent := views.OrderActions{Form: a.form, Values: map[string]string{}}
	for _, f := range []string{checkout.FieldCarrier, checkout.FieldTrackingCode, checkout.FieldNote, checkout.FieldRefundOn,
		checkout.FieldRefundAmount, checkout.FieldRefundE2E} {
		sent.Values[f] = r.PostForm.Get(f)
	}
	sent.Values[checkout.FieldCarrier] = shipCarrier(r)
	status := http.StatusUnprocessableEntity
	var fe *checkout.ValidationError
	if errors.As(err, &fe) {
		sent.Errors = views.Localise(fe, func(v checkout.Violation) string { return actionMessage(lang, v.Field, v.Code, cur) })
	} else {
		status = http.StatusConflict
		sent.Failed = conflictMessage(lang, err)
	}
	if refunds {
		sent.Form = "r-" + cur.ID
		d.renderRefunds(w, r, status, &sent, cur.ID)
		return
	}
	d.renderOrder(w, r, status, cur, sent, false)
}

// actionMessage is the localised message of a violation of an action's field.
func actionMessage(lang views.Lang, field, code string, o *checkout.Order) string {
	switch {
	case field == checkout.FieldActionKey:
		return views.T(lang, "actions.err.outdated")
	case field == "confirm":
		return views.T(lang, "actions.err.confirm")
	case code == checkout.CodeRequired:
		return views.T(lang, "actions.err.required")
	case code == checkout.CodeText:
		return views.T(lang, "actions.err.text")
	}
	if m := fulfilmentMessage(lang, field, code); m != "" {
		return m
	}
	if m := refundMessage(lang, field, code, o); m != "" {
		return m
	}
	return views.T(lang, "actions.err.required")
}

// fulfilmentMessage is actionMessage for the shipping and note fields; "" for another field.
func fulfilmentMessage(lang views.Lang, field, code string) string {
	switch {
	case field == checkout.FieldCarrier && (code == checkout.CodeMinLength || code == checkout.CodeMaxLength):
		return views.T(lang, "actions.err.length", checkout.MinCarrierLength, checkout.MaxCarrierLength)
	case field == checkout.FieldTrackingCode && code == checkout.CodeFormat:
		return views.T(lang, "actions.err.tracking_spaces")
	case field == checkout.FieldTrackingCode:
		return views.T(lang, "actions.err.length", checkout.MinTrackingCodeLength, checkout.MaxTrackingCodeLength)
	case field == checkout.FieldNote:
		return views.T(lang, "actions.err.length", 1, checkout.MaxNoteLength)
	}
	return ""
}

// refundMessage is actionMessage for the fields of a refund recorded; "" for another field.
func refundMessage(lang views.Lang, field, code string, o *checkout.Order) string {
	switch {
	case field == checkout.FieldRefundOn && code == checkout.CodeFuture:
		return views.T(lang, "actions.err.date_future")
	case field == checkout.FieldRefundOn:
		return views.T(lang, "actions.err.date")
	case field == checkout.FieldRefundAmount && code == checkout.CodeMax:
		return views.T(lang, "actions.err.amount_max", views.FormatMoney(lang, o.RefundDue))
	case field == checkout.FieldRefundAmount:
		return views.T(lang, "actions.err.amount")
	case field == checkout.FieldRefundE2E && code == checkout.CodeDuplicate:
		return views.T(lang, "actions.err.e2e_used")
	case field == checkout.FieldRefundE2E:
		return views.T(lang, "actions.err.e2e")
	}
	return ""
}

// conflictMessage says why the order's state refused an action.
func conflictMessage(lang views.Lang, err error) string {
	for e, key := range map[error]string{checkout.ErrNotShippable: "actions.err.not_shippable",
		checkout.ErrAlreadyShipped: "actions.err.already_shipped", checkout.ErrNotShipped: "actions.err.not_shipped",
		checkout.ErrNotCancelable: "actions.err.not_cancelable", checkout.ErrNoRefundDue: "actions.err.no_refund_due"} {
		if errors.Is(err, e) {
			return views.T(lang, key)
		}
	}
	return views.T(lang, "actions.err.conflict")
}

// orderActions are the actions of o's page for the user of r: those o's state allows, to a
// role with orders.write.
func (d *Dashboard) orderActions(r *http.Request, o *checkout.Order) views.OrderActions {
	base := Path + "/orders/" + url.PathEscape(o.ID)
	a := views.OrderActions{
		Write:   can(r, team.PermOrdersWrite),
		CanShip: o.CanShip(), CanDeliver: o.CanDeliver(), CanCancel: o.CanCancel(), CanRefund: o.CanRecordRefund(),
		ShipURL: respond.Link(r, base+"/ship"), DeliverURL: respond.Link(r, base+"/deliver"),
		CancelURL: respond.Link(r, base+"/cancel"), NoteURL: respond.Link(r, base+"/notes"),
		RefundURL: respond.Link(r, base+"/refunds"), NoteKey: checkout.NewID(),
		Physical: o.Physical, AwaitingShipment: o.Fulfilment() == checkout.FulfilmentAwaitingShipment,
		Carrier: o.Carrier, TrackingCode: o.TrackingCode, ShippedAt: o.ShippedAt, DeliveredAt: o.DeliveredAt,
		TrackingURL: checkout.TrackingURL(o.Carrier, o.TrackingCode),
		Refunds:     o.RefundsRecorded(), RefundDue: o.RefundDue,
		Today: d.svc.Now().In(views.SaoPaulo()).Format(time.DateOnly),
	}
	for _, c := range checkout.Carriers() {
		a.Carriers = append(a.Carriers, c.Name)
	}
	return a
}

// renderRefunds renders the refunds page; sent, when not nil, is the refund form just refused
// for order id.
func (d *Dashboard) renderRefunds(w http.ResponseWriter, r *http.Request, status int, sent *views.OrderActions, id string) {
	lang := respond.Lang(r)
	v := views.RefundsView{DashPage: d.page(r, "refunds")}
	if r.Method == http.MethodGet && r.URL.Query().Get("done") == "refund" {
		v.Notice = views.T(lang, "actions.done.refund")
	}
	if sent != nil && sent.Failed != "" {
		v.Failed = sent.Failed // the order's state refused it: said above the list (the order may have left it)
	}
	orders, err := d.svc.Orders(r.Context(), checkout.OrderFilter{RefundDue: true, Limit: maxRefundsListed + 1})
	if err != nil {
		code := checkout.ErrorCode(err)
		d.site.LogError(r, err, code)
		v.Failed = views.T(lang, "refunds.failed", respond.RequestID(r.Context()))
		d.site.Render(w, r, respond.HTTPStatus(code), views.RefundsPage(v))
		return
	}
	if len(orders) > maxRefundsListed {
		orders, v.More = orders[:maxRefundsListed], maxRefundsListed
	}
	reads := 0
	for _, o := range orders {
		row := views.RefundDueRow{OrderID: o.ID, Number: o.Number, OrderURL: respond.Link(r, Path+"/orders/"+url.PathEscape(o.ID)),
			Status: string(o.Status), StatusText: views.StatusText(lang, o.Status), RefundDue: o.RefundDue,
			Form: d.orderActions(r, o)}
		if sent != nil && o.ID == id {
			row.Form.Form, row.Form.Values, row.Form.Errors, row.Form.Failed = sent.Form, sent.Values, sent.Errors, sent.Failed
		} else {
			// The amount due, filled in: a refund made in the bank app takes one form.
			row.Form.Form, row.Form.Values = "r-"+o.ID, map[string]string{"refundAmount": formatReaisInput(o.RefundDue),
				"refundDate": row.Form.Today}
		}
		for _, p := range o.DuePayments() {
			pv := views.DuePaymentView{DepositID: p.DepositID, Amount: p.Amount, At: p.At,
				Reason: checkout.Reason{Code: p.Reason, Paid: p.Amount, DepositID: p.DepositID}}
			if p.DepositID != "" {
				pv.DepositURL = respond.Link(r, Path+"/deposits/"+url.PathEscape(p.DepositID))
			}
			if p.DepositID != "" && reads < maxPayerReads {
				reads++
				// The payer as the gateway gave it: the checkout keeps no copy of it.
				if dep, err := d.gateway.GetDeposit(r.Context(), p.DepositID); err == nil {
					pv.Payer = dep.Payer
				} else {
					d.site.LogError(r, err, checkout.ErrorCode(err))
				}
			}
			row.Payments = append(row.Payments, pv)
		}
		v.Rows = append(v.Rows, row)
	}
	d.site.Render(w, r, status, views.RefundsPage(v))
}

// refunds is GET /dashboard/refunds: every order with a late or double payment to refund.
func (d *Dashboard) refunds(w http.ResponseWriter, r *http.Request) {
	d.renderRefunds(w, r, http.StatusOK, nil, "")
}

// attention is the overview's figures that need the merchant, read with the overview's.
func attention(r *http.Request, ov *checkout.Overview) views.AttentionView {
	return views.AttentionView{RefundsDue: ov.RefundsDue, RefundAmount: ov.RefundDue, RefundsURL: respond.Link(r, Path+"/refunds"),
		AwaitingShipment:    ov.AwaitingShipment,
		AwaitingShipmentURL: respond.Link(r, Path+"/orders?"+paramFulfilment+"="+checkout.FulfilmentAwaitingShipment)}
}

// refundsDue counts the orders with a refund due, for the navigation (0 when it cannot).
func (d *Dashboard) refundsDue(r *http.Request) int {
	res, err := d.svc.MerchantOrders(r.Context(), checkout.OrderFilter{RefundDue: true, Limit: 1})
	if err != nil {
		d.site.LogError(r, err, checkout.ErrorCode(err))
		return 0
	}
	return res.Total
}

// actionNotices are the notices of the order page after an action (?done=…).
var actionNotices = map[string]string{"shipped": "actions.done.shipped", "delivered": "actions.done.delivered",
	"canceled": "actions.done.canceled", "noted": "actions.done.noted", "refund": "actions.done.refund"}

// fulfilmentParam reads the order list's fulfilment filter: one of checkout.Fulfilments.
func fulfilmentParam(r *queryReader) string {
	v := r.single(paramFulfilment)
	if v != "" && !slices.Contains(checkout.Fulfilments(), v) {
		addFilterError(r.errs, paramFulfilment, checkout.CodeEnum, fmt.Sprintf("%q is not a known value", v))
		return ""
	}
	return v
}
