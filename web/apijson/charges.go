package apijson

import (
	"net/url"
	"strings"

	"github.com/pixcheckout/pixcheckout/checkout/charges"
	"github.com/pixcheckout/pixcheckout/gatewayclient/brdoc"
)

// ChargePath is the customer's page of a charge, below the checkout's public address.
func ChargePath(id string) string { return "/c/" + url.PathEscape(id) }

// Charge is a charge with a due date as the merchant API and the notifications show it
// (openapi.json's Charge).
type Charge struct {
	ID                  string          `json:"id"`
	Status              string          `json:"status"`
	Amount              int64           `json:"amount"`
	AmountDue           int64           `json:"amountDue"`
	Paid                int64           `json:"paid"`
	Currency            string          `json:"currency"`
	DueDate             string          `json:"dueDate"`
	Description         string          `json:"description"`
	ExternalCode        string          `json:"externalCode,omitempty"`
	FineBps             int             `json:"fineBps"`
	InterestBpsPerMonth int             `json:"interestBpsPerMonth"`
	Discount            *ChargeDiscount `json:"discount,omitempty"`
	Customer            Customer        `json:"customer"`
	URL                 string          `json:"url"`
	CreatedAt           string          `json:"createdAt"`
	PaidAt              string          `json:"paidAt,omitempty"`
}

// ChargeDiscount is a charge's discount for paying by Until: Bps of the amount or a fixed
// Amount.
type ChargeDiscount struct {
	Bps    int    `json:"bps,omitempty"`
	Amount int64  `json:"amount,omitempty"`
	Until  string `json:"until"`
}

// ChargeOf returns the API's view of c on the São Paulo day (amountDue is what it asks that
// day), its customer's page at publicURL + ChargePath.
func ChargeOf(c *charges.Charge, day charges.Date, publicURL string) Charge {
	out := Charge{ID: c.ID, Status: string(c.Status), Amount: int64(c.Terms.Amount), AmountDue: int64(c.Balance(day)),
		Paid: int64(c.Paid), Currency: Currency, DueDate: c.Terms.Due.String(), Description: c.Description,
		ExternalCode: c.ExternalCode, FineBps: c.Terms.FineBps, InterestBpsPerMonth: c.Terms.InterestBpsPerMonth,
		Customer: Customer{Name: c.Customer.Name, Document: brdoc.NormalizeDocument(c.Customer.Document), Email: c.Customer.Email,
			Phone: brdoc.NormalizePhone(c.Customer.Phone)},
		URL: strings.TrimRight(publicURL, "/") + ChargePath(c.ID), CreatedAt: wireTime(c.CreatedAt), PaidAt: wireTime(c.PaidAt)}
	if d := c.Terms.Discount; !d.IsZero() {
		out.Discount = &ChargeDiscount{Bps: d.Bps, Amount: int64(d.Amount), Until: d.Until.String()}
	}
	return out
}

// ChargeEvent is the data of a charge's notification: the charge on the day of the change,
// its customer empty unless personal.
func ChargeEvent(publicURL string) func(c *charges.Charge, day charges.Date, personal bool) any {
	return func(c *charges.Charge, day charges.Date, personal bool) any {
		out := ChargeOf(c, day, publicURL)
		if !personal {
			out.Customer = Customer{}
		}
		return out
	}
}
