package views

import (
	"strings"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// SubjectsView is the page of data subjects' requests (LGPD): a search by CPF, CNPJ or e-mail,
// and what the shop holds about the person found, to export or anonymise.
type SubjectsView struct {
	DashPage
	// Action is the POST target of the search; ExportAction and AnonymiseAction those of the
	// export and of the anonymisation. The subject travels in the forms' bodies, never in a URL.
	Action, ExportAction, AnonymiseAction string
	Subject                               string                   // as typed
	Errors                                checkout.ValidationError // by field: subject, confirm
	Notice                                string                   // what the last anonymisation did
	Failed                                string
	Report                                *SubjectReport // nil before a search
}

// SubjectReport is what the shop holds about a person, as the page and the printable export
// show it.
type SubjectReport struct {
	Masked      string // the document or e-mail, masked
	GeneratedAt time.Time
	Orders      []SubjectOrder
	Sessions    []SubjectSession
	// Records are the person's records beside the orders: their charges.
	Records []SubjectRecord
	// Notifications counts the notifications about the orders in the delivery log.
	Notifications int
	// Anonymisable counts the orders and records that the anonymisation would anonymise now.
	Anonymisable int
	// Kept names what an anonymised order keeps for fiscal reasons.
	Kept []string
}

// SubjectOrder is an order of the person.
type SubjectOrder struct {
	ID, Number, Status    string
	Amount                checkout.Cents
	CreatedAt             time.Time
	Name, Document, Email string
	Phone, Address        string
	Items                 []string
	EndToEnd              []string
	LinkID                string    // placed through a payment link
	AnonymisedAt          time.Time // zero: not anonymised
	Blocker               string    // why it may not be anonymised yet: awaiting_payment, under_review, refund_due
	URL                   string    // its page in the dashboard
}

// SubjectRecord is a record of the person beside the orders: a charge.
type SubjectRecord struct {
	Kind, ID              string // Kind: "charge"
	KindText, StatusText  string // in words
	Description           string
	Amount                checkout.Cents
	CreatedAt             time.Time
	Name, Document, Email string
	Phone                 string
	AnonymisedAt          time.Time // zero: not anonymised
	Blocker               string    // why it may not be anonymised yet: awaiting_payment
	URL                   string    // its page in the dashboard
}

// anonymised is "true" or "false", for data-anonymised.
func (r SubjectRecord) anonymised() string {
	if r.AnonymisedAt.IsZero() {
		return "false"
	}
	return "true"
}

// SubjectSession is a checkout session made for the person.
type SubjectSession struct {
	ID                    string
	CreatedAt             time.Time
	Name, Document, Email string
}

// anonymised is "true" or "false", for data-anonymised.
func (o SubjectOrder) anonymised() string {
	if o.AnonymisedAt.IsZero() {
		return "false"
	}
	return "true"
}

// KeptKey is the catalogue key naming k, one of what an anonymised order keeps
// (apijson.KeptForFiscalReasons).
func KeptKey(k string) string {
	return "subjects.kept_" + strings.NewReplacer(" (masked)", "_masked", ".", "_").Replace(k)
}

// BlockerKey is the catalogue key saying in words why an order may not be anonymised yet
// (checkout.AnonymiseBlocker).
func BlockerKey(b string) string { return "subjects.blocker_" + b }
