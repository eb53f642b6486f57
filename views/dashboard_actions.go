package views

import (
	"strings"
	"time"

	"github.com/a-h/templ"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/brdoc"
)

// OrderActions are the merchant's actions on an order, as its page offers them: only those its
// state allows (Can…), and only to a role that may change orders (Write).
type OrderActions struct {
	Write                                     bool // the user's role has orders.write
	CanShip, CanDeliver, CanCancel, CanRefund bool
	ShipURL, DeliverURL, CancelURL, NoteURL   string
	RefundURL                                 string
	NoteKey                                   string // the note form's request key (one note per submission)
	// Form is the form that was just sent and refused ("ship", "cancel", "note", "refund"):
	// its values and its errors by field, shown beside each field.
	Form   string
	Values map[string]string
	Errors checkout.ValidationError
	Failed string // a refusal of the order's state, localised
	Notice string // what was just done, localised
	// Fulfilment: how the goods travel.
	Physical               bool
	AwaitingShipment       bool
	Carrier, TrackingCode  string
	TrackingURL            string   // the carrier's tracking page of the code ("" none known)
	Carriers               []string // the carriers offered by name (checkout.Carriers); "Outra" types another
	ShippedAt, DeliveredAt time.Time
	Refunds                []checkout.RecordedRefund
	RefundDue              checkout.Cents
	Today                  string // the refund date's default, YYYY-MM-DD
}

// RefundsView is the refunds-due page: every order with a late or double payment to refund.
type RefundsView struct {
	DashPage
	Rows   []RefundDueRow
	Notice string
	Failed string
	More   int // > 0: only this many most recent are shown
}

// RefundDueRow is one order with a refund due, its payments to refund with the payer the
// gateway gave, and the form that records a refund made elsewhere.
type RefundDueRow struct {
	OrderID, Number, OrderURL string
	Status, StatusText        string
	RefundDue                 checkout.Cents
	Payments                  []DuePaymentView
	Form                      OrderActions // its refund form
}

// DuePaymentView is one payment to refund.
type DuePaymentView struct {
	DepositID, DepositURL string
	Amount                checkout.Cents
	Reason                checkout.Reason
	At                    time.Time
	Payer                 *gatewayclient.AccountHolder // nil when the gateway could not be asked
}

// AttentionView is the overview's figures that need the merchant: refunds due, and orders
// paid with physical goods not shipped yet.
type AttentionView struct {
	RefundsDue          int
	RefundAmount        checkout.Cents
	RefundsURL          string
	AwaitingShipment    int
	AwaitingShipmentURL string
}

// CanceledView is the shopper's page of an order the shop canceled.
type CanceledView struct {
	Page
	OrderNumber string
	Amount      checkout.Cents
	Progress    OrderProgress // a payment that still arrived, and its return
	OrderLive
}

// isNote reports whether a history entry is an internal note, whose text the timeline shows.
func isNote(h HistoryView) bool { return h.Reason.Code == checkout.ReasonNoteAdded }

// actionAttrs are the attributes of an action form's input: its id (the form's prefix and the
// field), its value, and its error's description.
func actionAttrs(a OrderActions, form, name, typ string, hint bool, extra ...string) templ.Attributes {
	m := templ.Attributes{"id": form + "-" + name, "name": name, "type": typ}
	var describedBy []string
	if a.Form == form {
		m["value"] = a.Values[name]
		if a.Errors.Has(name) {
			m["aria-invalid"] = "true"
			describedBy = append(describedBy, form+"-"+name+"-error")
		}
	} else if name == "refundDate" {
		m["value"] = a.Today
	}
	if hint {
		describedBy = append(describedBy, form+"-"+name+"-hint")
	}
	if len(describedBy) > 0 {
		m["aria-describedby"] = strings.Join(describedBy, " ")
	}
	for i := 0; i+1 < len(extra); i += 2 {
		m[extra[i]] = extra[i+1]
	}
	return m
}

// brdocFormat writes a document (CPF, CNPJ) as people read it; a masked one as given.
func brdocFormat(doc string) string { return brdoc.FormatDocument(doc) }

// actionError is the error of a field of the action form just sent, or "".
// actionValue is the value of field name as form was just sent, or "".
func actionValue(a OrderActions, form, name string) string {
	if a.Form != form {
		return ""
	}
	return a.Values[name]
}

func actionError(a OrderActions, form, name string) string {
	if a.Form != form {
		return ""
	}
	return a.Errors.Message(name)
}

// navLabel is a navigation link's name, with the count of what waits there.
func navLabel(p DashPage, it NavItem) string {
	name := p.t("dash." + it.Key)
	if it.Count > 0 {
		return p.t("dash.nav_count", name, it.Count)
	}
	return name
}

// CarrierOther is the carrier select's value for a carrier typed freely (the field
// carrier_other).
const CarrierOther = "other"

// carrierChoice is the carrier select's value for carrier as typed or stored: one of the
// carriers offered, else CarrierOther when one was typed, else "".
func carrierChoice(a OrderActions, carrier string) string {
	for _, c := range a.Carriers {
		if strings.EqualFold(c, strings.TrimSpace(carrier)) {
			return c
		}
	}
	if strings.TrimSpace(carrier) != "" {
		return CarrierOther
	}
	return ""
}
