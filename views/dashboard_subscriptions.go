package views

import "github.com/pixcheckout/pixcheckout/checkout"

// SubscriptionsView is the list of subscriptions (/dashboard/subscriptions): its filters, a
// page of rows, its pager, and the form of a new subscription.
type SubscriptionsView struct {
	DashPage
	Filter   FilterView
	Rows     []SubscriptionRow
	Pager    Pager
	Searched bool   // the query sets filters: the results take the focus
	Failed   string // the list could not be read
	Form     ChargeFormView
	CanEdit  bool // the role may create subscriptions
}

// SubscriptionRow is one subscription of the list.
type SubscriptionRow struct {
	ID, URL                      string
	Customer, Email, Description string
	Schedule                     string // in words: "todo dia 10", "a cada 2 semanas"
	NextDue                      string // YYYY-MM-DD, "" once canceled or ended
	Amount                       checkout.Cents
	Status, StatusText           string
}

// SubscriptionView is one subscription's page: its terms and schedule, its customer, what the
// role may do (pause, resume, cancel, a new amount) and the charges it issued.
type SubscriptionView struct {
	DashPage
	BackURL                   string
	ID, Status, StatusText    string
	Customer, Email           string
	Document, Phone           string // masked
	Description, ExternalCode string
	Schedule                  string // in words
	StartDate, EndDate        string // YYYY-MM-DD ("" none)
	Count, Issued             int
	NextDue                   string // YYYY-MM-DD, "" once canceled or ended
	Amount                    checkout.Cents
	FineBps, InterestBps      int
	Discount                  string // in words, "" none
	CreatedAt                 string
	// The actions' forms ("" when the status or the role does not allow them).
	PauseURL, ResumeURL, CancelURL, AmountURL string
	AmountValue                               string // the new amount as typed
	AmountError, CancelError                  string
	Charges                                   []ChargeRow
	Notice, Failed                            string
}

// SubscriptionStatusText is a subscription's status in words.
func SubscriptionStatusText(lang Lang, status string) string {
	if key := "subs.status_" + status; HasKey(key) {
		return T(lang, key)
	}
	return status
}

// subscriptionTone is the badge colour of a subscription's status.
func subscriptionTone(status string) string {
	switch status {
	case "active":
		return "tone-ok"
	case "paused":
		return "tone-wait"
	}
	return "tone-neutral"
}

// SubscriptionFormFields are the new-subscription form's fields, in the form's order: the
// API's names, the rates typed in percent as the charges' form has them.
var SubscriptionFormFields = []string{"customer.name", "customer.document", "customer.email", "customer.phone", "amount",
	"description", "dayOfMonth", "everyWeeks", "startDate", "endDate", "count", "fine", "interest", "discount.percent",
	"discount.amount", "discount.daysBefore", "externalCode"}

// SubscriptionLeadView is the settings' form of the days before its due date a subscription's
// charge is issued: the value as stored or typed, and its error.
type SubscriptionLeadView struct {
	Action, Value, Error string
}
