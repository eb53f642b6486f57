package dashboard

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/mail"
	"github.com/pixcheckout/pixcheckout/checkout/mail/shopper"
	"github.com/pixcheckout/pixcheckout/gatewayclient/brdoc"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// A paid sale's receipt: printed on a thermal printer through the browser's print dialog
// (/dashboard/pos/sales/{id}/receipt?width=58|80, ?print=1 opening the dialog), sent by e-mail
// (the order's receipt e-mail, the shopper's "paid" message, to an address typed at the counter)
// or by WhatsApp (a wa.me link with the order page's link). The sale is read as salePage reads
// it: a cashier's own sales only.

// sessReceiptSent is the session key of the address a receipt was just sent to (the notice
// of the sale's page after the redirect).
const sessReceiptSent = "pos_receipt_sent"

// Fields of the receipt's forms.
const (
	fieldReceiptEmail = "email"
	fieldReceiptPhone = "phone"
)

// receiptPath is sale id's receipt at width mm.
func receiptPath(id string, width int) string {
	return salePath(id) + "/receipt?width=" + strconv.Itoa(width)
}

// paidSale reads the sale {id} as sale does, answering itself (404) when there is none the user
// may see or when it was never paid.
func (d *Dashboard) paidSale(w http.ResponseWriter, r *http.Request) (*checkout.Order, bool) {
	lang := respond.Lang(r)
	o, err := d.sale(r)
	if err != nil {
		d.site.Fail(w, r, err, views.T(lang, "pos.sale_missing"))
		return nil, false
	}
	if !o.Status.WasPaid() {
		d.site.Fail(w, r, checkout.ErrNotFound, views.T(lang, "pos.receipt_unpaid"))
		return nil, false
	}
	return o, true
}

// receiptPage is GET /dashboard/pos/sales/{id}/receipt: the paid sale's receipt for a roll of
// ?width= 58 (default) or 80 mm.
func (d *Dashboard) receiptPage(w http.ResponseWriter, r *http.Request) {
	lang := respond.Lang(r)
	q := r.URL.Query()
	width := 58
	switch q.Get("width") {
	case "", "58":
	case "80":
		width = 80
	default:
		d.errorPage(w, r, http.StatusBadRequest, views.T(lang, "params.bad_title"), views.T(lang, "pos.receipt_width_bad"), "", "")
		return
	}
	o, ok := d.paidSale(w, r)
	if !ok {
		return
	}
	v := views.POSReceiptView{DashPage: d.page(r, "pos"), Width: width, Number: o.Number, Amount: o.Amount, PaidAt: o.PaidAt,
		Terminal: d.terminalName(r, o.TerminalID), CustomerDocument: o.Customer.Document, AutoPrint: q.Get("print") == "1",
		BackURL: respond.Link(r, salePath(o.ID)), WidthURLs: map[int]string{}}
	for _, wd := range views.ReceiptWidths {
		v.WidthURLs[wd] = respond.Link(r, receiptPath(o.ID, wd))
	}
	if a := o.PaidAttempt(); a != nil {
		v.EndToEnd = a.EndToEnd
	}
	for _, l := range o.Lines {
		v.Lines = append(v.Lines, views.POSReceiptLine{Title: l.Title, Quantity: l.Quantity, UnitPrice: l.UnitPrice, Total: l.Subtotal()})
	}
	if u, err := d.accounts.User(r.Context(), o.CashierID); err == nil {
		v.Cashier = cashierName(u.Email)
	} else if !errors.Is(err, checkout.ErrNotFound) {
		d.site.LogError(r, err, checkout.ErrorCode(err))
	}
	d.site.Render(w, r, http.StatusOK, views.POSReceiptPage(v))
}

// cashierName is how a receipt names its cashier: the e-mail's local part (the team has no
// names), not the whole address a shopper could write to.
func cashierName(email string) string {
	local, _, _ := strings.Cut(email, "@")
	return local
}

// shopperOrderURL is the shopper's page of order id, under the public URL: the link the receipt
// e-mail gives (shopper.OrderPath).
func (d *Dashboard) shopperOrderURL(r *http.Request, id string) string {
	return d.publicBase(r) + shopper.OrderPath(id)
}

// sendReceiptView is the paid sale o's "send the receipt".
func (d *Dashboard) sendReceiptView(r *http.Request, o *checkout.Order) views.POSSendReceipt {
	lang := respond.Lang(r)
	v := views.POSSendReceipt{PrintURLs: map[int]string{}, WhatsAppAction: respond.Link(r, salePath(o.ID)+"/receipt/whatsapp"),
		WhatsAppURL: waMe("", d.receiptText(r, lang, o))}
	for _, wd := range views.ReceiptWidths {
		v.PrintURLs[wd] = respond.Link(r, receiptPath(o.ID, wd)+"&print=1")
	}
	if d.receiptMail != nil && d.mail != nil {
		v.MailAction = respond.Link(r, salePath(o.ID)+"/receipt/email")
	}
	return v
}

// receiptText is the WhatsApp message of paid sale o: the store, the amount, the order's page.
func (d *Dashboard) receiptText(r *http.Request, lang views.Lang, o *checkout.Order) string {
	return views.T(lang, "pos.whatsapp_text", d.site.Profile(r.Context()).Name, views.FormatMoney(lang, o.Amount), d.shopperOrderURL(r, o.ID))
}

// mailReceipt is POST /dashboard/pos/sales/{id}/receipt/email with email: the order's receipt
// e-mail is queued to that address, through the e-mails' outbox. Its Message-ID is the order's
// and the address's, so a double click, or the same address again, sends one message. A bad
// address draws the sale's page again naming the field (422).
func (d *Dashboard) mailReceipt(w http.ResponseWriter, r *http.Request) {
	o, ok := d.paidSale(w, r)
	if !ok {
		return
	}
	if d.receiptMail == nil || d.mail == nil {
		d.notFound(w, r)
		return
	}
	to := strings.TrimSpace(r.PostForm.Get(fieldReceiptEmail))
	if addr, err := mail.ParseAddress(to); err != nil || addr.Name != "" || checkout.CheckText(to) != nil {
		d.renderSaleSend(w, r, o, func(v *views.POSSendReceipt) {
			v.MailTo, v.MailError = to, views.T(respond.Lang(r), "pos.send_email_bad")
		})
		return
	}
	msg, err := d.receiptMail(r.Context(), o, to)
	if err == nil {
		err = d.mail.Enqueue(r.Context(), msg)
	}
	if err != nil {
		d.site.Fail(w, r, err)
		return
	}
	d.sessions.Put(r.Context(), sessReceiptSent, to)
	respond.Redirect(w, r, salePath(o.ID))
}

// whatsAppReceipt is POST /dashboard/pos/sales/{id}/receipt/whatsapp with phone: a redirect to
// WhatsApp's chat with that mobile phone, the message written (without a phone, the link of
// the sale's page does the same with a contact chosen in WhatsApp). A bad phone draws the
// sale's page again naming the field (422).
func (d *Dashboard) whatsAppReceipt(w http.ResponseWriter, r *http.Request) {
	o, ok := d.paidSale(w, r)
	if !ok {
		return
	}
	lang := respond.Lang(r)
	phone := strings.TrimSpace(r.PostForm.Get(fieldReceiptPhone))
	if phone != "" && !brdoc.ValidMobile(phone) {
		d.renderSaleSend(w, r, o, func(v *views.POSSendReceipt) {
			v.Phone, v.PhoneError = phone, views.T(lang, "pos.send_phone_bad")
		})
		return
	}
	http.Redirect(w, r, waMe(phone, d.receiptText(r, lang, o)), http.StatusSeeOther)
}

// renderSaleSend draws paid sale o's page again with its "send the receipt" as edit leaves it
// (a form's value and its problem): 422.
func (d *Dashboard) renderSaleSend(w http.ResponseWriter, r *http.Request, o *checkout.Order, edit func(*views.POSSendReceipt)) {
	v := d.saleView(r, o)
	v.Send = d.sendReceiptView(r, o)
	edit(&v.Send)
	d.site.Render(w, r, http.StatusUnprocessableEntity, views.POSSalePage(v))
}
