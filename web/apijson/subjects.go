package apijson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient/brdoc"
)

// The answers to data subjects' requests (LGPD art. 18): what the shop holds about a person,
// and what anonymising it did. One representation for the dashboard's JSON export and the
// merchant API.

// KeptForFiscalReasons lists what an anonymised order keeps, as the fields of its JSON: what
// fiscal rules ask the merchant to keep of a sale.
var KeptForFiscalReasons = []string{"amount", "items", "createdAt", "paidAt", "status", "history", "depositId",
	"endToEndIds", "customer.document (masked)"}

// SubjectReport is everything the shop holds about a data subject.
type SubjectReport struct {
	// Subject is the document or e-mail asked about, masked; Kind says which ("document",
	// "email").
	Subject     string `json:"subject"`
	Kind        string `json:"kind"`
	GeneratedAt string `json:"generatedAt"`
	// Orders are the subject's orders, newest first, those anonymised included.
	Orders []SubjectOrder `json:"orders"`
	// CheckoutSessions are the checkout sessions made for the subject (a merchant's prefill).
	CheckoutSessions []CheckoutSession `json:"checkoutSessions"`
	// PaymentLinkPayments are the orders placed through a payment link.
	PaymentLinkPayments []LinkPayment `json:"paymentLinkPayments"`
	// Notifications are the notifications about the orders, as the delivery log holds them.
	Notifications []SubjectNotification `json:"notifications"`
	// Records are the subject's records beside the orders (their charges), anonymised ones
	// included, each with its notifications.
	Records []SubjectRecord `json:"records"`
}

// SubjectRecord is a record beside the orders in a SubjectReport: a charge (kind "charge").
type SubjectRecord struct {
	Kind        string   `json:"kind"`
	ID          string   `json:"id"`
	Status      string   `json:"status"`
	Description string   `json:"description"`
	Amount      int64    `json:"amount"`
	Customer    Customer `json:"customer"`
	CreatedAt   string   `json:"createdAt"`
	Anonymised  bool     `json:"anonymised"`
	// AnonymisedAt is when its personal data were anonymised (absent: they were not).
	AnonymisedAt string `json:"anonymisedAt,omitempty"`
	// AnonymiseBlocker says why its personal data may not be anonymised yet (absent: they may):
	// awaiting_payment while it may still be paid.
	AnonymiseBlocker string               `json:"anonymiseBlocker,omitempty"`
	Notifications    []RecordNotification `json:"notifications"`
}

// RecordNotification is a notification (or an e-mail) about a record beside the orders.
type RecordNotification struct {
	ID        string          `json:"id"`
	Type      string          `json:"type"`
	Status    string          `json:"status"`
	CreatedAt string          `json:"createdAt"`
	Body      json.RawMessage `json:"body"`
}

// SubjectOrder is an order in a SubjectReport.
type SubjectOrder struct {
	Order
	// EndToEndIDs are the PIX end-to-end ids of the order's payments.
	EndToEndIDs []string `json:"endToEndIds"`
	Anonymised  bool     `json:"anonymised"`
	// AnonymisedAt is when its personal data were anonymised (absent: they were not).
	AnonymisedAt string `json:"anonymisedAt,omitempty"`
	// AnonymiseBlocker says why its personal data may not be anonymised yet (absent: they may):
	// awaiting_payment, under_review, refund_due.
	AnonymiseBlocker string `json:"anonymiseBlocker,omitempty"`
}

// LinkPayment is an order placed through a payment link.
type LinkPayment struct {
	PaymentLinkID string `json:"paymentLinkId"`
	OrderID       string `json:"orderId"`
	OrderNumber   string `json:"orderNumber"`
	Amount        int64  `json:"amount"`
	Status        string `json:"status"`
	CreatedAt     string `json:"createdAt"`
}

// SubjectNotification is a notification about one of the subject's orders.
type SubjectNotification struct {
	ID        string          `json:"id"`
	OrderID   string          `json:"orderId"`
	Type      string          `json:"type"`
	Status    string          `json:"status"`
	CreatedAt string          `json:"createdAt"`
	Body      json.RawMessage `json:"body"`
}

// SubjectReportOf returns the report of recs, made at now; publicURL is the checkout's, for
// the sessions' pages.
func SubjectReportOf(recs *checkout.SubjectRecords, now time.Time, publicURL string) SubjectReport {
	out := SubjectReport{Subject: recs.Subject.Masked(), Kind: SubjectKind(recs.Subject), GeneratedAt: wireTime(now),
		Orders: []SubjectOrder{}, CheckoutSessions: []CheckoutSession{}, PaymentLinkPayments: []LinkPayment{},
		Notifications: []SubjectNotification{}, Records: []SubjectRecord{}}
	orders := map[string]*checkout.Order{}
	for _, o := range recs.Orders {
		orders[o.SessionID] = o
		so := SubjectOrder{Order: OrderOf(o, nil), EndToEndIDs: []string{}, AnonymiseBlocker: checkout.AnonymiseBlocker(o)}
		for _, a := range o.Attempts {
			if a.EndToEnd != "" {
				so.EndToEndIDs = append(so.EndToEndIDs, a.EndToEnd)
			}
		}
		if at, ok := recs.AnonymisedAt[o.ID]; ok {
			so.Anonymised, so.AnonymisedAt, so.AnonymiseBlocker = true, wireTime(at), ""
		}
		out.Orders = append(out.Orders, so)
		if o.LinkID != "" {
			out.PaymentLinkPayments = append(out.PaymentLinkPayments, LinkPayment{PaymentLinkID: o.LinkID, OrderID: o.ID,
				OrderNumber: o.Number, Amount: int64(o.Amount), Status: string(o.Status), CreatedAt: wireTime(o.CreatedAt)})
		}
	}
	for _, s := range recs.Sessions {
		out.CheckoutSessions = append(out.CheckoutSessions, SessionOf(s, orders[s.ID], now, publicURL))
	}
	for _, n := range recs.Notifications {
		out.Notifications = append(out.Notifications, SubjectNotification{ID: n.ID, OrderID: n.OrderID, Type: n.Type,
			Status: n.Status, CreatedAt: wireTime(n.CreatedAt), Body: notificationBody(n.Body)})
	}
	for _, h := range recs.Held {
		rec := SubjectRecord{Kind: h.Kind, ID: h.ID, Status: h.Status, Description: h.Description, Amount: int64(h.Amount),
			Customer: Customer{Name: h.Customer.Name, Document: h.Customer.Document, Email: h.Customer.Email,
				Phone: brdoc.NormalizePhone(h.Customer.Phone)}, CreatedAt: wireTime(h.CreatedAt), AnonymiseBlocker: h.Blocker,
			Notifications: []RecordNotification{}}
		if !h.AnonymisedAt.IsZero() {
			rec.Anonymised, rec.AnonymisedAt, rec.AnonymiseBlocker = true, wireTime(h.AnonymisedAt), ""
		}
		for _, n := range h.Notifications {
			rec.Notifications = append(rec.Notifications, RecordNotification{ID: n.ID, Type: n.Type, Status: n.Status,
				CreatedAt: wireTime(n.CreatedAt), Body: notificationBody(n.Body)})
		}
		out.Records = append(out.Records, rec)
	}
	return out
}

// notificationBody is a delivery's body as a report holds it: its JSON compacted (an e-mail's
// text, which is not JSON, as a JSON string).
func notificationBody(b []byte) json.RawMessage {
	body := json.RawMessage(b)
	if !json.Valid(body) {
		s, err := json.Marshal(string(b))
		if err != nil {
			return json.RawMessage("null")
		}
		return s
	}
	return compact(body)
}

func compact(b json.RawMessage) json.RawMessage {
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		return b
	}
	return buf.Bytes()
}

// SubjectKind is "document" or "email": how s is named.
func SubjectKind(s checkout.Subject) string {
	if s.IsEmail() {
		return "email"
	}
	return "document"
}

// AnonymiseReport says what anonymising a subject's data on request did.
type AnonymiseReport struct {
	Subject string `json:"subject"` // masked
	Kind    string `json:"kind"`
	// Anonymised are the ids of the orders anonymised now; AlreadyAnonymised those anonymised
	// before.
	Anonymised        []string `json:"anonymised"`
	AlreadyAnonymised []string `json:"alreadyAnonymised"`
	// Refused are the orders whose personal data stay until they are resolved.
	Refused []RefusedOrder `json:"refused"`
	// CheckoutSessions is how many checkout sessions' prefill was anonymised.
	CheckoutSessions int `json:"checkoutSessions"`
	// Kept names what every anonymised order keeps for fiscal reasons (KeptForFiscalReasons).
	Kept []string `json:"kept"`
	// AnonymisedRecords are the records beside the orders (charges) anonymised now,
	// AlreadyAnonymisedRecords those anonymised before, RefusedRecords those whose personal data
	// stay until they are final.
	AnonymisedRecords        []RecordRef     `json:"anonymisedRecords"`
	AlreadyAnonymisedRecords []RecordRef     `json:"alreadyAnonymisedRecords"`
	RefusedRecords           []RefusedRecord `json:"refusedRecords"`
}

// RecordRef names a record beside the orders: its kind ("charge") and id.
type RecordRef struct {
	Kind string `json:"kind"`
	ID   string `json:"id"`
}

// RefusedRecord is a record beside the orders that may not be anonymised yet.
type RefusedRecord struct {
	Kind   string `json:"kind"`
	ID     string `json:"id"`
	Status string `json:"status"`
	Reason string `json:"reason"` // awaiting_payment
}

// RefusedOrder is an order that may not be anonymised yet.
type RefusedOrder struct {
	OrderID     string `json:"orderId"`
	OrderNumber string `json:"orderNumber"`
	Status      string `json:"status"`
	Reason      string `json:"reason"` // awaiting_payment, under_review, refund_due
}

// AnonymiseReportOf returns the report of res, an anonymisation of subj's data.
func AnonymiseReportOf(subj checkout.Subject, res *checkout.AnonymiseResult) AnonymiseReport {
	out := AnonymiseReport{Subject: subj.Masked(), Kind: SubjectKind(subj), Anonymised: []string{}, AlreadyAnonymised: []string{},
		Refused: []RefusedOrder{}, CheckoutSessions: res.Sessions, Kept: KeptForFiscalReasons}
	for _, o := range res.Anonymised {
		out.Anonymised = append(out.Anonymised, o.ID)
	}
	for _, o := range res.Already {
		out.AlreadyAnonymised = append(out.AlreadyAnonymised, o.ID)
	}
	for _, r := range res.Refused {
		out.Refused = append(out.Refused, RefusedOrder{OrderID: r.Order.ID, OrderNumber: r.Order.Number,
			Status: string(r.Order.Status), Reason: r.Reason})
	}
	out.AnonymisedRecords, out.AlreadyAnonymisedRecords = recordRefs(res.HeldAnonymised), recordRefs(res.HeldAlready)
	out.RefusedRecords = []RefusedRecord{}
	for _, r := range res.HeldRefused {
		out.RefusedRecords = append(out.RefusedRecords, RefusedRecord{Kind: r.Kind, ID: r.ID, Status: r.Status, Reason: r.Blocker})
	}
	return out
}

func recordRefs(held []checkout.HeldRecord) []RecordRef {
	out := make([]RecordRef, 0, len(held))
	for _, r := range held {
		out = append(out, RecordRef{Kind: r.Kind, ID: r.ID})
	}
	return out
}

// SubjectAuditDetail is the audit log's detail of a data subject's request: the subject masked
// and what was found or done, never the document or e-mail in clear.
func SubjectAuditDetail(subj checkout.Subject, what string) string {
	return fmt.Sprintf("%s: %s", subj.Masked(), what)
}

// Summary says what the report holds, counted, for the audit log.
func (r SubjectReport) Summary() string {
	return fmt.Sprintf("%d orders (%d anonymised), %d checkout sessions, %d notifications, %d other records", len(r.Orders),
		r.anonymised(), len(r.CheckoutSessions), len(r.Notifications), len(r.Records))
}

func (r SubjectReport) anonymised() int {
	n := 0
	for _, o := range r.Orders {
		if o.Anonymised {
			n++
		}
	}
	return n
}

// Summary says what the anonymisation did, counted, for the audit log.
func (r AnonymiseReport) Summary() string {
	return fmt.Sprintf("%d orders anonymised, %d already anonymised, %d refused until resolved, %d checkout sessions anonymised; "+
		"other records: %d anonymised, %d already, %d refused", len(r.Anonymised), len(r.AlreadyAnonymised), len(r.Refused),
		r.CheckoutSessions, len(r.AnonymisedRecords), len(r.AlreadyAnonymisedRecords), len(r.RefusedRecords))
}
