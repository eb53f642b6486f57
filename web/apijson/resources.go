package apijson

import (
	"encoding/json"
	"net/url"
	"strings"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/notify"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/brdoc"
)

// The JSON of the merchant API and of the notifications' data: one representation of an order
// and of a checkout session, camelCase like the gateway's, money in integer cents, times in
// the gateway's wire format (UTC, milliseconds, Z).

// Order is an order as the API shows it.
type Order struct {
	ID        string `json:"id"`
	Number    string `json:"number"`
	Status    string `json:"status"`
	Channel   string `json:"channel"` // the checkout source it was started from (checkout.Channels)
	SessionID string `json:"sessionId,omitempty"`
	// PaymentLinkID is the payment link the order was placed through.
	PaymentLinkID string   `json:"paymentLinkId,omitempty"`
	ExternalCode  string   `json:"externalCode,omitempty"`
	Amount        int64    `json:"amount"`   // items and shipping
	Shipping      int64    `json:"shipping"` // included in amount; 0 when free or not shipped
	DeliveryDays  int      `json:"deliveryDays,omitempty"`
	AmountPaid    int64    `json:"amountPaid"`
	RefundDue     int64    `json:"refundDue"`
	LatePayment   bool     `json:"latePayment"`
	Currency      string   `json:"currency"`
	DepositID     string   `json:"depositId,omitempty"`
	Items         []Item   `json:"items"`
	Customer      Customer `json:"customer"`
	Metadata      Metadata `json:"metadata,omitempty"`
	History       []Change `json:"history"`
	CreatedAt     string   `json:"createdAt"`
	UpdatedAt     string   `json:"updatedAt"`
	PaidAt        string   `json:"paidAt,omitempty"`
	ExpiresAt     string   `json:"expiresAt,omitempty"`
	PayBy         string   `json:"payBy,omitempty"`
	// Fulfilment: how the goods travel, once the merchant marked the order shipped.
	Carrier         string   `json:"carrier,omitempty"`
	TrackingCode    string   `json:"trackingCode,omitempty"`
	ShippedAt       string   `json:"shippedAt,omitempty"`
	DeliveredAt     string   `json:"deliveredAt,omitempty"`
	RefundsRecorded []Refund `json:"refundsRecorded,omitempty"`
}

// Refund is a refund of a late or double payment the merchant made outside the checkout and
// recorded on the order.
type Refund struct {
	Amount     int64  `json:"amount"`
	On         string `json:"on"` // the day it was made, YYYY-MM-DD
	EndToEnd   string `json:"endToEnd"`
	RecordedAt string `json:"recordedAt"`
}

// Metadata is the merchant's metadata of a checkout session, returned as given.
type Metadata map[string]string

// Item is a line of an order or of a checkout session.
type Item struct {
	ProductID   string `json:"productId,omitempty"`
	Title       string `json:"title"`
	Description string `json:"description,omitempty"`
	UnitPrice   int64  `json:"unitPrice"`
	Quantity    int    `json:"quantity"`
	Type        string `json:"type"`
	// ImageURL is the checkout's own copy of the item's picture (a session's imageUrl, fetched
	// when the session was made; a catalogue product's picture).
	ImageURL string `json:"imageUrl,omitempty"`
}

// Customer is an order's customer, or a session's prefill.
type Customer struct {
	Name     string   `json:"name,omitempty"`
	Document string   `json:"document,omitempty"`
	Email    string   `json:"email,omitempty"`
	Phone    string   `json:"phone,omitempty"`
	Address  *Address `json:"address,omitempty"`
}

// Masked returns c with its document and phone masked ("***.982.247-**", "(11) *****-4321"),
// as the API shows them to a read key.
func (c Customer) Masked() Customer {
	c.Document, c.Phone = brdoc.MaskDocument(c.Document), brdoc.MaskPhone(c.Phone)
	return c
}

// MaskPayload returns the body of a notification (an event whose data is an order) with the
// customer's document and phone masked (Customer.Masked). A body it cannot read as such comes
// back as "null": it is shown to someone who may not see it whole.
func MaskPayload(body []byte) []byte {
	var ev map[string]json.RawMessage
	if err := json.Unmarshal(body, &ev); err != nil {
		return []byte("null")
	}
	var data map[string]json.RawMessage
	if raw, ok := ev["data"]; !ok || json.Unmarshal(raw, &data) != nil {
		return body // no order in it (a test notification): nothing personal
	}
	raw, ok := data["customer"]
	if !ok {
		return body
	}
	var c Customer
	if err := json.Unmarshal(raw, &c); err != nil {
		return []byte("null")
	}
	c = c.Masked()
	b, err := json.Marshal(c)
	if err != nil {
		return []byte("null")
	}
	data["customer"] = b
	if ev["data"], err = json.Marshal(data); err != nil {
		return []byte("null")
	}
	out, err := json.Marshal(ev)
	if err != nil {
		return []byte("null")
	}
	return out
}

// Address is a shipping address.
type Address struct {
	ZipCode      string `json:"zipCode,omitempty"`
	Street       string `json:"street,omitempty"`
	Number       string `json:"number,omitempty"`
	Complement   string `json:"complement,omitempty"`
	Neighborhood string `json:"neighborhood,omitempty"`
	City         string `json:"city,omitempty"`
	State        string `json:"state,omitempty"`
	Country      string `json:"country,omitempty"`
}

// Change is one entry of an order's history. Reason keeps the English words it always had
// (checkout.Reason.String); ReasonCode is the stable code a program can branch on (absent for a
// note stored before codes existed).
type Change struct {
	From       string `json:"from,omitempty"`
	To         string `json:"to"`
	At         string `json:"at"`
	Reason     string `json:"reason,omitempty"`
	ReasonCode string `json:"reasonCode,omitempty"`
}

// CheckoutSession is a checkout session as the API shows it.
type CheckoutSession struct {
	ID           string   `json:"id"`
	URL          string   `json:"url"`
	Status       string   `json:"status"`
	Amount       int64    `json:"amount"`   // items and shipping
	Shipping     int64    `json:"shipping"` // included in amount
	DeliveryDays int      `json:"deliveryDays,omitempty"`
	Currency     string   `json:"currency"`
	ExpiresAt    string   `json:"expiresAt"`
	CreatedAt    string   `json:"createdAt"`
	ExternalCode string   `json:"externalCode,omitempty"`
	EmbedOrigin  string   `json:"embedOrigin,omitempty"`
	SuccessURL   string   `json:"successUrl,omitempty"`
	CancelURL    string   `json:"cancelUrl,omitempty"`
	Items        []Item   `json:"items"`
	Customer     Customer `json:"customer"`
	Metadata     Metadata `json:"metadata,omitempty"`
	OrderID      string   `json:"orderId,omitempty"`
	OrderNumber  string   `json:"orderNumber,omitempty"`
	DepositID    string   `json:"depositId,omitempty"`
	AmountPaid   int64    `json:"amountPaid"`
	PaidAt       string   `json:"paidAt,omitempty"`
}

// Currency of every amount.
const Currency = "BRL"

// SessionPath is the path of a session's page below the checkout's public URL.
func SessionPath(id string) string { return "/s/" + url.PathEscape(id) }

func wireTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return gatewayclient.FormatTime(t)
}

func items(ls []checkout.OrderLine) []Item {
	out := make([]Item, 0, len(ls))
	for _, l := range ls {
		typ := checkout.ItemDigital
		if l.Physical {
			typ = checkout.ItemPhysical
		}
		out = append(out, Item{ProductID: string(l.ProductID), Title: l.Title, Description: l.Description,
			UnitPrice: int64(l.UnitPrice), Quantity: l.Quantity, Type: typ})
	}
	return out
}

func customer(c checkout.Customer, a *checkout.Address) Customer {
	out := Customer{Name: c.Name, Document: c.Document, Email: c.Email, Phone: c.Phone}
	if a != nil {
		out.Address = &Address{ZipCode: a.ZipCode, Street: a.Street, Number: a.Number, Complement: a.Complement,
			Neighborhood: a.Neighborhood, City: a.City, State: a.State, Country: a.Country}
	}
	return out
}

// paidAttempt is the attempt whose deposit paid the order, else the current one.
func paidAttempt(o *checkout.Order) *checkout.Attempt {
	for i := range o.Attempts {
		if o.Attempts[i].State == checkout.AttemptPaid {
			return &o.Attempts[i]
		}
	}
	return o.CurrentAttempt()
}

// amountPaid is what the order received: its amount once paid, plus any second payment
// (Order.RefundDue); what an underpaid order's deposit received (it waits, under review, for the
// merchant to settle it); 0 before any payment.
func amountPaid(o *checkout.Order) int64 {
	if o.Status == checkout.StatusCanceled {
		return int64(o.RefundDue) + refunded(o) // paid after it was canceled: all of it goes back
	}
	if paid, ok := underpaid(o); ok {
		return int64(paid+o.RefundDue) + refunded(o)
	}
	if !o.Status.WasPaid() {
		return 0
	}
	return int64(o.Amount+o.RefundDue) + refunded(o) // a refund recorded since changes nothing of what was paid
}

// underpaid returns what an order paid short of its amount received, from its history: the
// deposit's amountPaid recorded in the last "underpaid" change, unless the order was paid in
// full since.
func underpaid(o *checkout.Order) (gatewayclient.Cents, bool) {
	var paid gatewayclient.Cents
	ok := false
	for _, h := range o.History {
		switch {
		case h.Reason.Code == checkout.ReasonUnderpaid:
			paid, ok = h.Reason.Paid, true
		case h.To == checkout.StatusPaid && h.From != checkout.StatusPaid:
			paid, ok = 0, false
		}
	}
	return paid, ok
}

// refunded is the sum of the refunds recorded on o.
func refunded(o *checkout.Order) int64 {
	var n int64
	for _, r := range o.RefundsRecorded() {
		n += int64(r.Amount)
	}
	return n
}

// OrderOf returns the API's view of o; sess is its checkout session, or nil.
func OrderOf(o *checkout.Order, sess *checkout.CheckoutSession) Order {
	out := Order{
		ID: o.ID, Number: o.Number, Status: string(o.Status), Channel: string(o.Channel), SessionID: o.SessionID,
		ExternalCode: o.MerchantReference, Amount: int64(o.Amount), AmountPaid: amountPaid(o),
		Shipping: int64(o.Shipping), DeliveryDays: o.DeliveryDays,
		RefundDue: int64(o.RefundDue), LatePayment: o.LatePayment, Currency: Currency,
		Items: items(o.Lines), Customer: customer(o.Customer, o.Address),
		CreatedAt: wireTime(o.CreatedAt), UpdatedAt: wireTime(o.UpdatedAt), PaidAt: wireTime(o.PaidAt),
		PayBy: wireTime(o.PayBy), History: make([]Change, 0, len(o.History)), PaymentLinkID: o.LinkID,
	}
	if a := paidAttempt(o); a != nil {
		out.DepositID = a.TransactionID
		if a.State == checkout.AttemptActive {
			out.ExpiresAt = wireTime(a.ExpiresAt)
		}
	}
	for _, h := range o.History {
		// Reason.String never says an internal note's text: it stays in the dashboard.
		out.History = append(out.History, Change{From: string(h.From), To: string(h.To), At: wireTime(h.At),
			Reason: h.Reason.String(), ReasonCode: string(h.Reason.Code)})
	}
	out.Carrier, out.TrackingCode = o.Carrier, o.TrackingCode
	out.ShippedAt, out.DeliveredAt = wireTime(o.ShippedAt), wireTime(o.DeliveredAt)
	for _, r := range o.RefundsRecorded() {
		out.RefundsRecorded = append(out.RefundsRecorded, Refund{Amount: int64(r.Amount), On: r.On, EndToEnd: r.EndToEnd,
			RecordedAt: wireTime(r.RecordedAt)})
	}
	if sess != nil && len(sess.Metadata) > 0 {
		out.Metadata = Metadata(sess.Metadata)
	}
	return out
}

// OrderEvent is the data of a notification about o (the notify.Announcer's Order): the order
// as the API shows it, sess its checkout session or nil; without personal its customer is
// empty (no name, document, e-mail, phone or address).
func OrderEvent(o *checkout.Order, sess *checkout.CheckoutSession, personal bool) any {
	order := OrderOf(o, sess)
	if !personal {
		order.Customer = Customer{}
	}
	return order
}

// SessionOf returns the API's view of sess and its order (nil before the shopper placed it),
// whose page is at publicURL + SessionPath.
func SessionOf(sess *checkout.CheckoutSession, o *checkout.Order, now time.Time, publicURL string) CheckoutSession {
	out := CheckoutSession{
		ID: sess.ID, URL: strings.TrimRight(publicURL, "/") + SessionPath(sess.ID),
		Status: checkout.SessionStatus(sess, o, now), Amount: int64(sess.Amount), Currency: Currency,
		Shipping: int64(sess.Shipping), DeliveryDays: sess.DeliveryDays,
		ExpiresAt: wireTime(sess.ExpiresAt), CreatedAt: wireTime(sess.CreatedAt),
		ExternalCode: sess.ExternalCode, EmbedOrigin: sess.EmbedOrigin, SuccessURL: sess.SuccessURL,
		CancelURL: sess.CancelURL, Items: items(sess.Lines), Customer: customer(sess.Customer, sess.Address),
	}
	for i, l := range sess.Lines {
		if l.Image.Key != "" {
			out.Items[i].ImageURL = strings.TrimRight(publicURL, "/") + l.Image.Path(checkout.ImageLarge)
		}
	}
	if len(sess.Metadata) > 0 {
		out.Metadata = Metadata(sess.Metadata)
	}
	if o != nil {
		out.OrderID, out.OrderNumber = o.ID, o.Number
		out.AmountPaid, out.PaidAt = amountPaid(o), wireTime(o.PaidAt)
		if a := paidAttempt(o); a != nil {
			out.DepositID = a.TransactionID
		}
	}
	return out
}

// NotificationView is a notification of the delivery log as the API shows it.
type NotificationView struct {
	ID             string `json:"id"`
	Type           string `json:"type"`
	OrderID        string `json:"orderId,omitempty"`  // an order's notification
	ChargeID       string `json:"chargeId,omitempty"` // a charge's notification
	Status         string `json:"status"`
	Attempts       int    `json:"attempts"`
	CreatedAt      string `json:"createdAt"`
	NextAttemptAt  string `json:"nextAttemptAt,omitempty"` // while pending
	LastStatusCode int    `json:"lastStatusCode,omitempty"`
	LastError      string `json:"lastError,omitempty"`
}

// NotificationDetail is one notification with its body and every attempt.
type NotificationDetail struct {
	NotificationView
	// Payload is the body sent: {"type", "timestamp", "data"}.
	Payload          json.RawMessage `json:"payload"`
	DeliveryAttempts []AttemptView   `json:"deliveryAttempts"`
}

// AttemptView is one delivery attempt as the API shows it.
type AttemptView struct {
	N          int    `json:"n"`
	At         string `json:"at"`
	URL        string `json:"url,omitempty"` // without its query string
	StatusCode int    `json:"statusCode,omitempty"`
	Error      string `json:"error,omitempty"`
	DurationMS int64  `json:"durationMs"`
	// ResponseExcerpt is the start of the answer's body, printable.
	ResponseExcerpt string `json:"responseExcerpt,omitempty"`
}

// NotificationOf returns the API's view of n.
func NotificationOf(n notify.Notification) NotificationView {
	v := NotificationView{ID: n.ID, Type: n.Type, OrderID: n.OrderID, ChargeID: n.ChargeID, Status: n.Status, Attempts: n.Attempts,
		CreatedAt: wireTime(n.CreatedAt), LastStatusCode: n.LastStatusCode, LastError: n.LastError}
	if n.Status == notify.NotificationPending {
		v.NextAttemptAt = wireTime(n.NextAttemptAt)
	}
	return v
}

// NotificationDetailOf returns the API's view of n with its attempts.
func NotificationDetailOf(n notify.Notification, as []notify.DeliveryAttempt) NotificationDetail {
	d := NotificationDetail{NotificationView: NotificationOf(n), DeliveryAttempts: make([]AttemptView, 0, len(as))}
	d.Payload = json.RawMessage(n.Payload)
	if !json.Valid(d.Payload) {
		d.Payload = json.RawMessage("null")
	}
	for _, a := range as {
		d.DeliveryAttempts = append(d.DeliveryAttempts, AttemptView{N: a.N, At: wireTime(a.At), URL: a.URL,
			StatusCode: a.StatusCode, Error: a.Error, DurationMS: a.Duration.Milliseconds(), ResponseExcerpt: a.Excerpt})
	}
	return d
}
