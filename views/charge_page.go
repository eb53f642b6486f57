package views

import "github.com/pixcheckout/pixcheckout/checkout"

// CustomerChargeView is the customer's page of a charge with a due date (/c/{id}): who bills, what,
// the due date, and what the charge asks today, line by line, with the form that makes the
// day's PIX code.
type CustomerChargeView struct {
	Page
	Description string
	Customer    string // the billed customer's name
	Due         string // the due date, YYYY-MM-DD
	// Status is the charge's: "open", "overdue" or "canceled" (a paid charge shows its receipt).
	Status string
	// Amount is the principal; Discount, taken off until DiscountUntil (YYYY-MM-DD); Fine, and
	// Interest for DaysLate days after the due date; Paid, what earlier payments collected;
	// Balance, what today's PIX code asks.
	Amount        checkout.Cents
	Discount      checkout.Cents
	DiscountUntil string
	Fine          checkout.Cents
	Interest      checkout.Cents
	DaysLate      int
	Paid          checkout.Cents
	Balance       checkout.Cents
	Action        string // the form's target: the page's own URL
	RequestKey    string
	// Notice says why no PIX code was made: "day_ending" (the day's last minute: try again in
	// a minute), "refused" (the gateway refused the charge's data), "unavailable" (the gateway
	// did not answer); "" none.
	Notice string
}

// payee is who bills: the store's legal name, or its name.
func (v CustomerChargeView) payee() string {
	if v.Merchant.LegalName != "" {
		return v.Merchant.LegalName
	}
	return v.MerchantName
}

// payable reports whether the page offers to pay: the charge is open or overdue, and the day
// still has time for a PIX code.
func (v CustomerChargeView) payable() bool {
	return v.Status != "canceled" && v.Notice != "day_ending" && v.Balance > 0
}

// interestLabel names the interest line with the days it runs for.
func (v CustomerChargeView) interestLabel() string {
	if v.DaysLate == 1 {
		return v.t("charge.interest_one", v.DaysLate)
	}
	return v.t("charge.interest_other", v.DaysLate)
}

// noticeText says why no PIX code was made (Notice).
func (v CustomerChargeView) noticeText() string {
	switch v.Notice {
	case "day_ending":
		return v.t("charge.notice_day_ending")
	case "refused":
		return v.t("charge.notice_refused")
	}
	return v.t("charge.notice_unavailable")
}
