package views

import (
	"strconv"
	"strings"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/brdoc"
)

// The dashboard shows no code of the gateway or of the store as it is: each value named by a
// code (a state, a kind of key, an account type, a language, a reason) is looked up in the
// catalogue under prefix + code, and documents, phones and PIX keys are written by brdoc as on
// the shopper's pages. A code the catalogue does not know yet (a gateway's new value) is shown
// as it comes, rather than hidden.

// enumText is the catalogue's text of key prefix+value, or value itself when the catalogue has
// no such key.
func enumText(lang Lang, prefix, value string) string {
	if k := prefix + value; value != "" && HasKey(k) {
		return T(lang, k)
	}
	return value
}

// PixKeyText is a PIX key written by its kind, followed by that kind's name:
// "529.982.247-25 (CPF)", "+55 (11) 98765-4321 (celular)". "" for no key.
func PixKeyText(lang Lang, k gatewayclient.PixKey) string {
	if k.Key == "" {
		return ""
	}
	kind := brdoc.PixKeyType(k.Type)
	if kind == "" {
		kind, _ = brdoc.ClassifyPixKey(k.Key)
	}
	text := brdoc.FormatPixKey(k.Key, kind)
	if kind == "" {
		return text
	}
	return text + " (" + enumText(lang, "pixkey.", string(kind)) + ")"
}

// accountType is a bank account type's name ("Conta corrente" for CHECKING).
func accountType(p DashPage, t string) string { return enumText(p.Lang, "account.", t) }

// methodText is a payment method's name.
func methodText(p DashPage, m gatewayclient.PaymentMethod) string {
	return enumText(p.Lang, "method.", string(m))
}

// acquirerText is an acquirer's name: the sandbox's is said in words, a real one's is its own.
func acquirerText(p DashPage, a string) string { return enumText(p.Lang, "acquirer.", a) }

// LangName is the name of a language tag of the pages ("Inglês" for "en" in pt-BR); a tag the
// pages do not speak is shown as it is.
func LangName(lang Lang, tag string) string {
	l, ok := ParseLang(tag)
	if !ok {
		return tag
	}
	return T(lang, "langname."+string(l))
}

// ReasonText is why an order's state changed (or an attempt failed) in lang: the code's words
// with its parameters (amounts as money, deposit states by name), then the gateway's own
// message when there is one. A note without code is shown as it was written.
func ReasonText(lang Lang, r checkout.Reason) string {
	switch r.Code {
	case checkout.ReasonNone:
		return r.Detail
	case checkout.ReasonShipped:
		return T(lang, "reason.order_shipped", r.Carrier, r.TrackingCode)
	case checkout.ReasonNoteAdded:
		return T(lang, "reason.note_added") // the page shows the note's text beside it
	case checkout.ReasonRefundRecorded:
		return T(lang, "reason.refund_recorded", FormatMoney(lang, r.Paid), r.On, r.EndToEnd)
	}
	s := reasonWords(lang, r)
	if r.Overpaid() && (r.Code == checkout.ReasonDeposit || r.Code == checkout.ReasonLatePayment) {
		s += T(lang, "reason.overpaid", FormatMoney(lang, r.Paid), FormatMoney(lang, r.Amount), FormatMoney(lang, r.Paid-r.Amount))
	}
	switch {
	case r.Detail == "":
	case r.Code == checkout.ReasonBRCodeInvalid: // the decoder's words, not the gateway's
		s += T(lang, "reason.cause", r.Detail)
	default:
		s += T(lang, "reason.detail", r.Detail)
	}
	return s
}

// reasonWords are the words of a reason's code with its parameters, which ReasonText follows
// with the overpayment and the gateway's message.
func reasonWords(lang Lang, r checkout.Reason) string {
	switch r.Code {
	case checkout.ReasonQRRenewed:
		return T(lang, "reason.qr_renewed", r.Attempt)
	case checkout.ReasonDeposit:
		return T(lang, "reason.deposit", DepositStatusText(lang, r.DepositStatus))
	case checkout.ReasonQRExpired:
		if r.DepositStatus != "" {
			return T(lang, "reason.qr_expired_deposit", DepositStatusText(lang, r.DepositStatus))
		}
		return T(lang, "reason.qr_expired")
	case checkout.ReasonUnderpaid:
		return T(lang, "reason.underpaid", FormatMoney(lang, r.Paid), FormatMoney(lang, r.Amount))
	case checkout.ReasonPaidTwice:
		return T(lang, "reason.paid_twice", FormatMoney(lang, r.Paid), r.DepositID)
	case checkout.ReasonLinkBeyondCap:
		return T(lang, "reason.link_beyond_cap", FormatMoney(lang, r.Paid))
	case checkout.ReasonPaidAfterCancel:
		return T(lang, "reason.paid_after_cancel", FormatMoney(lang, r.Paid), r.DepositID)
	case checkout.ReasonAmountMismatch, checkout.ReasonBRCodeAmount:
		return T(lang, "reason."+string(r.Code), FormatMoney(lang, r.Asked), FormatMoney(lang, r.Amount))
	}
	return enumText(lang, "reason.", string(r.Code))
}

// EventText names the event of a merchant notification ("order.paid": the order's state it
// announces); another type is shown as it is.
func EventText(lang Lang, typ string) string {
	if st, ok := strings.CutPrefix(typ, "order."); ok && checkout.OrderStatus(st).Valid() {
		return T(lang, "event.order", StatusText(lang, checkout.OrderStatus(st)))
	}
	if typ == "ping" { // notify.PingType: a test notification from the settings page
		return T(lang, "event.ping")
	}
	switch typ { // the merchant's actions (notify.ActionEventType), and the charges' events
	case "order.shipped", "order.delivered", "refund.recorded", "charge.created", "charge.paid", "charge.overdue", "charge.canceled":
		return T(lang, "event."+strings.ReplaceAll(typ, ".", "_"))
	}
	return typ
}

// deliveryLast is the last answer of a notification in words: the HTTP status it got and how
// long it took (and the start of the answer's body), no answer and why, or that it was skipped
// for want of a URL.
func deliveryLast(p DashPage, d DeliveryRow) (text, detail string) {
	switch {
	case d.Status == "skipped": // the outbox's note says no URL or secret was configured

		return p.t("delivery.skipped_note"), ""
	case d.LastStatusCode > 0:
		text = p.t("delivery.http", d.LastStatusCode)
		if d.LastStatusCode >= 300 && d.LastStatusCode <= 399 {
			text += p.t("delivery.redirect")
		}
		if d.LastDuration > 0 {
			text += p.t("delivery.took", strconv.FormatInt(d.LastDuration.Milliseconds(), 10))
		}
		// The outbox writes "HTTP 500[ (…)]: <body>": the body alone is the detail, which the
		// attempt also keeps on its own (for a 2xx too).
		detail = d.LastExcerpt
		if _, body, ok := strings.Cut(d.LastError, ": "); ok && detail == "" {
			detail = body
		}
		return text, detail
	case d.LastError != "":
		return p.t("delivery.no_answer"), d.LastError
	}
	return "", ""
}
