package apijson

import (
	"github.com/pixcheckout/pixcheckout/checkout/subscriptions"
	"github.com/pixcheckout/pixcheckout/gatewayclient/brdoc"
)

// Subscription is a recurring charge ("assinatura") as the merchant API shows it
// (openapi.json's Subscription).
type Subscription struct {
	ID                  string                `json:"id"`
	Status              string                `json:"status"`
	Amount              int64                 `json:"amount"`
	Currency            string                `json:"currency"`
	Description         string                `json:"description"`
	ExternalCode        string                `json:"externalCode,omitempty"`
	FineBps             int                   `json:"fineBps"`
	InterestBpsPerMonth int                   `json:"interestBpsPerMonth"`
	Discount            *SubscriptionDiscount `json:"discount,omitempty"`
	DayOfMonth          int                   `json:"dayOfMonth,omitempty"`
	EveryWeeks          int                   `json:"everyWeeks,omitempty"`
	StartDate           string                `json:"startDate"`
	EndDate             string                `json:"endDate,omitempty"`
	Count               int                   `json:"count,omitempty"`
	NextDueDate         string                `json:"nextDueDate,omitempty"`
	Issued              int                   `json:"issued"`
	Customer            Customer              `json:"customer"`
	CreatedAt           string                `json:"createdAt"`
}

// SubscriptionDiscount is each charge's discount for paying by DaysBefore its due date: Bps of
// the amount or a fixed Amount.
type SubscriptionDiscount struct {
	Bps        int   `json:"bps,omitempty"`
	Amount     int64 `json:"amount,omitempty"`
	DaysBefore int   `json:"daysBefore"`
}

// SubscriptionOf returns the API's view of s.
func SubscriptionOf(s *subscriptions.Subscription) Subscription {
	out := Subscription{ID: s.ID, Status: string(s.Status), Amount: int64(s.Terms.Amount), Currency: Currency,
		Description: s.Description, ExternalCode: s.ExternalCode, FineBps: s.Terms.FineBps,
		InterestBpsPerMonth: s.Terms.InterestBpsPerMonth, DayOfMonth: s.Schedule.DayOfMonth, EveryWeeks: s.Schedule.EveryWeeks,
		StartDate: s.Schedule.Start.String(), Count: s.Schedule.Count, Issued: s.Issued,
		Customer: Customer{Name: s.Customer.Name, Document: brdoc.NormalizeDocument(s.Customer.Document), Email: s.Customer.Email,
			Phone: brdoc.NormalizePhone(s.Customer.Phone)},
		CreatedAt: wireTime(s.CreatedAt)}
	if !s.Schedule.End.IsZero() {
		out.EndDate = s.Schedule.End.String()
	}
	if !s.NextDue.IsZero() {
		out.NextDueDate = s.NextDue.String()
	}
	if d := s.Terms.Discount; !d.IsZero() {
		out.Discount = &SubscriptionDiscount{Bps: d.Bps, Amount: int64(d.Amount), DaysBefore: s.DiscountDays}
	}
	return out
}
