package views

import (
	"strconv"
	"time"

	"github.com/a-h/templ"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// ChargesView is the list of charges with due dates (/dashboard/charges): its filters (the
// gateway lists' form shape), a page of rows, its pager, and the form of a new charge.
type ChargesView struct {
	DashPage
	Filter   FilterView
	Rows     []ChargeRow
	Pager    Pager
	Searched bool   // the query sets filters: the results take the focus
	Failed   string // the list could not be read
	Form     ChargeFormView
	CanEdit  bool // the role may create charges
	// ImportURL is the import of charges from a spreadsheet ("" for a role that may not).
	ImportURL string
	// CSVURL exports every charge of the filters ("" for a role that may not export), and
	// CSVFullURL with documents and phones in full ("" for a role that may not see them).
	CSVURL, CSVFullURL string
	Exports            MyExports // the user's background exports
}

// ChargeRow is one charge of the list.
type ChargeRow struct {
	ID, URL                      string
	Customer, Email, Description string
	Due                          string // YYYY-MM-DD
	Amount, Balance              checkout.Cents
	Status, StatusText           string
}

// ChargeFormView is the form of a new charge: its fields in order (the API's names, the rates
// as fine, interest and discount.percent, typed in percent), values as typed, errors by field.
type ChargeFormView struct {
	Action string
	Fields []string
	Values map[string]string
	Errors checkout.ValidationError
}

// ChargeDue is what a charge asks on Day, line by line.
type ChargeDue struct {
	Day                                     string // YYYY-MM-DD
	Amount, Discount, Fine, Interest, Total checkout.Cents
	DaysLate                                int
}

// ChargeEventView is one line of a charge's timeline.
type ChargeEventView struct {
	At                 time.Time
	Status, StatusText string
	Actor, Detail      string // Actor "" for the product itself
}

// ChargeView is one charge's page.
type ChargeView struct {
	DashPage
	BackURL                   string
	ID, Status, StatusText    string
	Customer, Email           string
	Document, Phone           string // masked unless the role sees personal data
	Description, ExternalCode string
	Due                       string // YYYY-MM-DD
	FineBps, InterestBps      int
	DiscountBps               int
	DiscountAmount            checkout.Cents
	DiscountUntil             string // YYYY-MM-DD, "" without a discount
	Today                     ChargeDue
	Paid, Balance             checkout.Cents
	Final                     bool
	PaidAt, CreatedAt         time.Time
	CustomerURL               string // the customer's page, to send
	// WhatsAppAction is the form that opens WhatsApp's chat with the customer ("" without a
	// mobile phone, or for a role that cannot act); PersonalAction the one that shows the
	// document and phone in full ("" for a role that may not, or when PersonalShown).
	WhatsAppAction, PersonalAction string
	PersonalShown                  bool
	CancelURL                      string // "" when it cannot be canceled (or by this role)
	Timeline                       []ChargeEventView
	Notice, Failed, CancelError    string
}

// ChargeStatusText is a charge's status in words.
func ChargeStatusText(lang Lang, status string) string {
	if key := "charges.status_" + status; HasKey(key) {
		return T(lang, key)
	}
	return status
}

// chargeTone is the badge colour of a charge's status.
func chargeTone(status string) string {
	switch status {
	case "paid":
		return "tone-ok"
	case "overdue":
		return "tone-bad"
	case "canceled":
		return "tone-neutral"
	}
	return "tone-wait"
}

// rate writes basis points as a percentage (FormatRate).
func (p DashPage) rate(bps int) string { return FormatRate(p.Lang, bps) }

// FormatRate writes basis points as a percentage: 200 → "2 %" ("2%" in English), 150 → "1,5 %".
func FormatRate(lang Lang, bps int) string {
	s := strconv.Itoa(bps / 100)
	if frac := bps % 100; frac != 0 {
		sep := ","
		if lang.norm() == En {
			sep = "."
		}
		f := strconv.Itoa(100 + frac)[1:]
		if f[1] == '0' {
			f = f[:1]
		}
		s += sep + f
	}
	if lang.norm() == En {
		return s + "%"
	}
	return s + " %"
}

// day writes a YYYY-MM-DD day in the reader's way.
func (p DashPage) day(d string) string { return FormatDay(p.Lang, d) }

// ChargeFormFields are the new-charge form's fields, in the form's order: the API's names,
// with the rates as fine, interest and discount.percent, typed in percent.
var ChargeFormFields = []string{"customer.name", "customer.document", "customer.email", "customer.phone", "amount",
	"description", "dueDate", "fine", "interest", "discount.percent", "discount.amount", "discount.until", "externalCode"}

// chargeLabel is the label of a new-charge form's field.
func chargeLabel(p DashPage, field string) string { return p.t(chargeFieldKey(field)) }

func chargeFieldKey(field string) string { return "charges.field." + field }

// chargeHintKey is the catalogue key of a field's hint, which not every field has.
func chargeHintKey(field string) string { return "charges.hint." + field }

// chargeID is the id of a new-charge form's input.
func chargeID(field string) string { return "ch-" + field }

// chargeAttrs are the attributes of a new-charge form's input.
func chargeAttrs(f ChargeFormView, field, typ string, extra ...string) templ.OrderedAttributes {
	a := templ.OrderedAttributes{
		{Key: "id", Value: chargeID(field)},
		{Key: "name", Value: field},
		{Key: "type", Value: typ},
		{Key: "value", Value: f.Values[field]},
	}
	for i := 0; i+1 < len(extra); i += 2 {
		a = append(a, templ.KeyValue[string, any]{Key: extra[i], Value: extra[i+1]})
	}
	describedBy := ""
	if HasKey(chargeHintKey(field)) {
		describedBy = chargeID(field) + "-hint"
	}
	if f.Errors.Has(field) {
		a = append(a, templ.KeyValue[string, any]{Key: "aria-invalid", Value: "true"})
		describedBy = chargeID(field) + "-error " + describedBy
	}
	if describedBy != "" {
		a = append(a, templ.KeyValue[string, any]{Key: "aria-describedby", Value: describedBy})
	}
	return a
}

// chargeInput is the type and input mode of a new-charge form's field.
func chargeInput(field string) (typ string, extra []string) {
	switch field {
	case "customer.email":
		return "email", []string{"autocomplete", "off"}
	case "customer.phone":
		return "tel", []string{"autocomplete", "off"}
	case "dueDate", "discount.until", "startDate", "endDate":
		return "date", nil
	case "dayOfMonth", "everyWeeks", "count", "discount.daysBefore":
		return "text", []string{"inputmode", "numeric", "autocomplete", "off"}
	case "amount", "discount.amount", "fine", "interest", "discount.percent":
		return "text", []string{"inputmode", "decimal", "autocomplete", "off"}
	}
	return "text", []string{"autocomplete", "off"}
}
