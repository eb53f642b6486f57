// Package shopper makes the e-mails the shopper receives about an order: the receipt once it is
// paid, and the news of its life after. Its Announcer is one of the service's
// checkout.Announcers, so each message is written in the transaction of the order's change that
// causes it (through the outbox, channel smtp) or not at all.
//
// Every message is in the order's language, in the store's name, to the order's e-mail, and
// links to the order's page (/pay/{orderID}), which follows the order live. Its type is
// "shopper." and the kind (settings.ShopperPaid…), its cause the order's id and the position of
// the history entry that caused it: composing it again, for a retried update or a copy of the
// message, gives the same Message-ID.
package shopper

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/a-h/templ"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/mail"
	"github.com/pixcheckout/pixcheckout/checkout/settings"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/views/email"
)

// TypePrefix begins the type of every shopper's e-mail: "shopper.paid" is the receipt.
const TypePrefix = "shopper."

// Type is the outbox type of the shopper's e-mail of kind (settings.ShopperPaid…).
func Type(kind string) string { return TypePrefix + kind }

// Cause is the cause of the e-mail announcing the entry n (0 the first) of order orderID's
// history: "{orderID}.{n}". An entry's place never changes (the history only grows), so every
// composition of one message has one cause, hence one Message-ID.
func Cause(orderID string, n int) string { return orderID + "." + strconv.Itoa(n) }

// Announcer makes the shopper's e-mails of an order's changes (a checkout.Announcer).
type Announcer struct {
	// Composer turns the drafts into outbox messages.
	Composer *mail.Composer
	// Store is the store as every message shows it: its name, public URL and support e-mail
	// (the Reply-To). Lang and Subject are each message's own.
	Store email.Frame
	// Payee is who the shopper pays, as their bank shows it (the receipt's legal name and
	// document).
	Payee views.Merchant
	// Sends tells whether the merchant sends the e-mail of a kind (settings.Manager.SendsShopper);
	// nil: every kind but the order placed (the defaults).
	Sends func(ctx context.Context, kind string) (bool, error)
	// Wake, when set, is called once messages are stored (the e-mails' outbox's Wake).
	Wake func()
	// Face, when set, gives Store and Payee as the merchant last saved them (the dashboard's
	// "Loja" settings), read at each change so that a saved name shows in the next e-mail.
	Face func(ctx context.Context) (store email.Frame, payee views.Merchant, err error)
}

var _ checkout.Announcer = (*Announcer)(nil)

// Announce returns the e-mails announcing changes to o's shopper: none when the order has no
// e-mail address, or for the kinds the merchant turned off.
func (a *Announcer) Announce(ctx context.Context, o *checkout.Order, changes []checkout.StatusChange) ([]checkout.OutboxMessage, error) {
	if a.Composer == nil {
		return nil, nil
	}
	to, err := mail.ParseAddress(o.Customer.Email)
	if err != nil || to.Name != "" {
		// No address to write to (the order was placed without one): nothing to announce.
		return nil, nil //nolint:nilerr // an order without a usable address has no shopper's e-mail
	}
	if a.Face != nil {
		cur := *a
		cur.Face = nil
		if cur.Store, cur.Payee, err = a.Face(ctx); err != nil {
			// An e-mail in a name the merchant replaced is worse than a retried update.
			return nil, fmt.Errorf("shopper: reading the store's face: %w", err)
		}
		return cur.Announce(ctx, o, changes)
	}
	first := len(o.History) - len(changes)
	var out []checkout.OutboxMessage
	for i, c := range changes {
		n := first + i
		kind := kindOf(o, n, c)
		if kind == "" {
			continue
		}
		if on, err := a.sends(ctx, kind); err != nil {
			// Sending what the merchant turned off, or losing what they want sent, is worse than
			// a retried update.
			return nil, fmt.Errorf("shopper mail: reading whether the %s e-mail is sent: %w", kind, err)
		} else if !on {
			continue
		}
		msg, err := a.compose(ctx, o, n, c, kind, to.Email)
		if err != nil {
			return nil, err
		}
		out = append(out, msg)
	}
	return out, nil
}

// ErrNotPaid: a receipt is asked for an order that was never paid.
var ErrNotPaid = errors.New("shopper: the order was never paid")

// Receipt is the receipt of paid order o to the address to, typed for it (the point of sale's
// "send the receipt"): the message the order's payment sends its shopper (same type, same
// cause), so that asking again for the same order and address, or for the address the order
// already had, makes the same Message-ID and the outbox stores it once. It is sent whatever the
// merchant's choice of automatic receipts: somebody asked for this one.
func (a *Announcer) Receipt(ctx context.Context, o *checkout.Order, to string) (checkout.OutboxMessage, error) {
	n := firstPaid(o)
	if n < 0 {
		return checkout.OutboxMessage{}, fmt.Errorf("order %s: %w", o.Number, ErrNotPaid)
	}
	addr, err := mail.ParseAddress(to)
	if err != nil || addr.Name != "" {
		return checkout.OutboxMessage{}, fmt.Errorf("shopper: receipt of order %s: %q is not a bare e-mail address", o.Number, to)
	}
	cur := *a
	if a.Face != nil {
		if cur.Store, cur.Payee, err = a.Face(ctx); err != nil {
			return checkout.OutboxMessage{}, fmt.Errorf("shopper: reading the store's face: %w", err)
		}
	}
	return cur.compose(ctx, o, n, o.History[n], settings.ShopperPaid, addr.Email)
}

// firstPaid is the place in o's history of the entry that made it paid first, or -1.
func firstPaid(o *checkout.Order) int {
	for i, h := range o.History {
		if h.To == checkout.StatusPaid && h.From != checkout.StatusPaid {
			return i
		}
	}
	return -1
}

// Announced wakes the e-mails' outbox.
func (a *Announcer) Announced() {
	if a.Wake != nil {
		a.Wake()
	}
}

func (a *Announcer) sends(ctx context.Context, kind string) (bool, error) {
	if a.Sends == nil {
		return settings.Settings{}.SendsShopper(kind), nil
	}
	return a.Sends(ctx, kind)
}

// kindOf is the kind of e-mail the entry n of o's history, c, sends its shopper, or "".
func kindOf(o *checkout.Order, n int, c checkout.StatusChange) string {
	switch c.Reason.Code {
	case checkout.ReasonQRGenerated:
		return settings.ShopperOrderPlaced
	case checkout.ReasonShipped:
		return settings.ShopperShipped
	case checkout.ReasonDelivered:
		return settings.ShopperDelivered
	case checkout.ReasonRefundRecorded:
		return settings.ShopperRefunded
	case checkout.ReasonPaidTwice, checkout.ReasonPaidAfterCancel, checkout.ReasonLinkBeyondCap:
		return settings.ShopperRefundDue
	}
	if c.From == c.To {
		return ""
	}
	switch {
	case c.To == checkout.StatusPaid && !wasPaidBefore(o, n):
		return settings.ShopperPaid
	case c.To == checkout.StatusCanceled:
		return settings.ShopperCanceled
	case c.To == checkout.StatusRefunded:
		// The gateway returned the payment (a refund the merchant asked for, or a MED).
		return settings.ShopperRefunded
	}
	return ""
}

// wasPaidBefore reports whether an entry of o's history before the entry n made it paid: a paid
// order back from a review is not paid again for its shopper.
func wasPaidBefore(o *checkout.Order, n int) bool {
	for _, h := range o.History[:n] {
		if h.To == checkout.StatusPaid {
			return true
		}
	}
	return false
}

// message is one e-mail's parts in a frame.
type message struct {
	subject string
	html    templ.Component
	text    string
}

// compose makes the e-mail of kind announcing c, the entry n of o's history, to addr.
func (a *Announcer) compose(ctx context.Context, o *checkout.Order, n int, c checkout.StatusChange, kind, addr string) (checkout.OutboxMessage, error) {
	f := a.Store
	f.Lang = views.PtBR
	if l, ok := views.ParseLang(o.Lang); ok {
		f.Lang = l
	}
	var m message
	if kind == settings.ShopperPaid {
		r := a.receipt(f, o, c)
		f.Subject = email.ReceiptSubject(f, r)
		m = message{subject: f.Subject, html: email.Receipt(f, r), text: email.ReceiptText(f, r)}
	} else {
		news := newsOf(f, o, c, kind)
		f.Subject = f.T("email."+kind+".subject", o.Number, f.StoreName)
		news.Heading, news.Name = f.T("email."+kind+".heading"), o.Customer.Name
		news.Links = append(news.Links, email.Link{URL: orderURL(f, o), Text: f.T("email.order.follow_link", o.Number)})
		m = message{subject: f.Subject, html: email.News(f, news), text: email.NewsText(f, news)}
	}
	msg, err := a.Composer.Compose(ctx, mail.Draft{Type: Type(kind), Cause: Cause(o.ID, n),
		To: mail.Address{Name: o.Customer.Name, Email: addr}, Lang: string(f.Lang), Subject: m.subject,
		HTML: m.html, Text: m.text, OrderID: o.ID, At: c.At})
	if err != nil {
		return checkout.OutboxMessage{}, fmt.Errorf("shopper mail: order %s: %w", o.Number, err)
	}
	return msg, nil
}

// OrderPath is the path, under the public URL, of order orderID's page: the link of every
// shopper's e-mail, and of a receipt sent from the point of sale.
func OrderPath(orderID string) string { return "/pay/" + orderID }

// orderURL is o's page, under the public URL.
func orderURL(f email.Frame, o *checkout.Order) string { return f.URL(OrderPath(o.ID)) }

// receipt is o's receipt.
func (a *Announcer) receipt(f email.Frame, o *checkout.Order, c checkout.StatusChange) email.ReceiptMail {
	lines := make([]views.SummaryLine, 0, len(o.Lines))
	for _, l := range o.Lines {
		lines = append(lines, views.SummaryLine{Title: l.Title, Quantity: l.Quantity, LineTotal: l.Subtotal()})
	}
	r := email.ReceiptMail{Number: o.Number, Name: o.Customer.Name, OrderURL: orderURL(f, o), Lines: lines,
		Shipping: views.ShippingOf(o), Amount: o.Amount, PaidAt: o.PaidAt, Late: o.LatePayment, Payee: a.Payee}
	if r.PaidAt.IsZero() {
		r.PaidAt = c.At
	}
	if p := o.PaidAttempt(); p != nil {
		r.EndToEnd = p.EndToEnd
	}
	return r
}

// newsOf is what the e-mail of kind (all but the receipt) says of c, an entry of o's history.
func newsOf(f email.Frame, o *checkout.Order, c checkout.StatusChange, kind string) email.NewsMail {
	money := func(c checkout.Cents) string { return views.FormatMoney(f.Lang, c) }
	var m email.NewsMail
	switch kind {
	case settings.ShopperOrderPlaced:
		m.Paragraphs = []string{f.T("email.order_placed.body", o.Number, money(o.Amount))}
		if a := o.QR(); a != nil {
			m.Code, m.CodeLabel = a.BRCode, f.T("email.order_placed.code")
			m.Facts = []email.Fact{{Label: f.T("email.order_placed.expires"), Value: at(f, a.ExpiresAt)}}
		}
	case settings.ShopperShipped:
		m.Paragraphs = []string{f.T("email.shipped.body", o.Number)}
		m.Facts = []email.Fact{{Label: f.T("progress.carrier"), Value: c.Reason.Carrier},
			{Label: f.T("progress.tracking_code"), Value: c.Reason.TrackingCode}}
		if checkout.TrackingURL(c.Reason.Carrier, c.Reason.TrackingCode) != "" {
			m.Links = []email.Link{{URL: f.URL(TrackingPath(o.ID)), Text: f.T("progress.track", c.Reason.Carrier)}}
		}
	case settings.ShopperDelivered:
		m.Paragraphs = []string{f.T("email.delivered.body", o.Number), f.T("progress.delivered")}
	case settings.ShopperCanceled:
		m.Paragraphs = []string{f.T("canceled.text", o.Number)}
	case settings.ShopperRefunded:
		if c.Reason.Code == checkout.ReasonRefundRecorded {
			m.Paragraphs = []string{f.T("email.refunded.body", o.Number), f.T("progress.returned", money(c.Reason.Paid), views.FormatDay(f.Lang, c.Reason.On))}
		} else {
			m.Paragraphs = []string{f.T("email.refunded.body", o.Number), f.T("progress.refunded", money(o.Amount))}
		}
	case settings.ShopperRefundDue:
		key := map[checkout.ReasonCode]string{checkout.ReasonPaidTwice: "progress.due_twice",
			checkout.ReasonPaidAfterCancel: "progress.due_after_cancel", checkout.ReasonLinkBeyondCap: "progress.due_beyond_cap"}[c.Reason.Code]
		m.Paragraphs = []string{f.T(key, money(c.Reason.Paid))}
	}
	return m
}

// at is a date and time in Brasília, saying so.
func at(f email.Frame, t time.Time) string {
	return views.FormatDateTime(f.Lang, t) + " (" + f.T("time.zone") + ")"
}

// TrackingPath is the path, under the public URL, that leads to the carrier's tracking page of
// order orderID's parcel: an e-mail links only to the public URL, and the page's address is the
// carrier table's (checkout.TrackingURL).
func TrackingPath(orderID string) string { return OrderPath(orderID) + "/tracking" }
