package apijson

import (
	"net/url"
	"strings"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout/charges"
)

// ChargePath is the path of a charge's customer page below the checkout's public URL.
func ChargePath(id string) string { return "/c/" + url.PathEscape(id) }

// Charge is a charge with a due date as the API shows it.
type Charge struct {
	ID          string         `json:"id"`
	Status      string         `json:"status"`
	Customer    ChargeCustomer `json:"customer"`
	Description string         `json:"description"`
	// Amount is the principal; AmountDue what the charge asks today (São Paulo), with its
	// discount, fine and interest, less what was paid; Paid what its orders collected.
	Amount              int64           `json:"amount"`
	AmountDue           int64           `json:"amountDue"`
	Paid                int64           `json:"paid"`
	Currency            string          `json:"currency"`
	DueDate             string          `json:"dueDate"`
	FineBps             int             `json:"fineBps"`
	InterestBpsPerMonth int             `json:"interestBpsPerMonth"`
	Discount            *ChargeDiscount `json:"discount,omitempty"`
	ExternalCode        string          `json:"externalCode,omitempty"`
	URL                 string          `json:"url"`
	CreatedAt           string          `json:"createdAt"`
	UpdatedAt           string          `json:"updatedAt"`
	PaidAt              string          `json:"paidAt,omitempty"`
}

// ChargeCustomer is the customer a charge bills.
type ChargeCustomer struct {
	Name     string `json:"name"`
	Document string `json:"document"`
	Email    string `json:"email"`
	Phone    string `json:"phone,omitempty"`
}

// ChargeDiscount is a charge's discount for paying by Until: Bps of the amount or a fixed
// Amount.
type ChargeDiscount struct {
	Bps    int    `json:"bps,omitempty"`
	Amount int64  `json:"amount,omitempty"`
	Until  string `json:"until"`
}

// ChargeOf returns the API's view of c at now, its page at publicURL + ChargePath.
func ChargeOf(c *charges.Charge, now time.Time, publicURL string) Charge {
	out := Charge{ID: c.ID, Status: string(c.Status), Description: c.Description,
		Customer: ChargeCustomer{Name: c.Customer.Name, Document: c.Customer.Document, Email: c.Customer.Email,
			Phone: c.Customer.Phone},
		Amount: int64(c.Terms.Amount), AmountDue: int64(c.Balance(charges.Today(now))), Paid: int64(c.Paid),
		Currency: Currency, DueDate: c.Terms.Due.String(), FineBps: c.Terms.FineBps,
		InterestBpsPerMonth: c.Terms.InterestBpsPerMonth, ExternalCode: c.ExternalCode,
		URL:       strings.TrimRight(publicURL, "/") + ChargePath(c.ID),
		CreatedAt: wireTime(c.CreatedAt), UpdatedAt: wireTime(c.UpdatedAt), PaidAt: wireTime(c.PaidAt)}
	if d := c.Terms.Discount; !d.IsZero() {
		out.Discount = &ChargeDiscount{Bps: d.Bps, Amount: int64(d.Amount), Until: d.Until.String()}
	}
	return out
}
