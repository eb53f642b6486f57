package apijson

import (
	"net/url"
	"strings"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// LinkPath is the path of a payment link's page below the checkout's public URL.
func LinkPath(slug string) string { return "/l/" + url.PathEscape(slug) }

// LinkURL is the absolute address of a payment link's page.
func LinkURL(publicURL, slug string) string {
	return strings.TrimRight(publicURL, "/") + LinkPath(slug)
}

// PaymentLink is a payment link as the API shows it.
type PaymentLink struct {
	ID          string `json:"id"`
	Slug        string `json:"slug"`
	URL         string `json:"url"`
	Title       string `json:"title"`
	Description string `json:"description,omitempty"`
	// Items are what a link of products or items sells; Amount their total, or the fixed
	// amount; CustomAmount, for an amount the payer types, its bounds.
	Items          []Item        `json:"items,omitempty"`
	Amount         int64         `json:"amount,omitempty"`
	CustomAmount   *CustomAmount `json:"customAmount,omitempty"`
	Currency       string        `json:"currency"`
	RequireAddress bool          `json:"requireAddress"`
	CustomerFields []string      `json:"customerFields"`
	MaxPayments    int           `json:"maxPayments,omitempty"`
	ExpiresAt      string        `json:"expiresAt,omitempty"`
	Active         bool          `json:"active"`
	Payments       int           `json:"payments"`
	Received       int64         `json:"received"`
	CreatedAt      string        `json:"createdAt"`
	UpdatedAt      string        `json:"updatedAt"`
}

// CustomAmount are the bounds of an amount the payer types (absent: the gateway's).
type CustomAmount struct {
	Min int64 `json:"min,omitempty"`
	Max int64 `json:"max,omitempty"`
}

// PaymentLinkOf returns the API's view of l with its payments, its page at publicURL +
// LinkPath.
func PaymentLinkOf(l *checkout.PaymentLink, st checkout.LinkStats, publicURL string) PaymentLink {
	out := PaymentLink{ID: l.ID, Slug: l.Slug, URL: LinkURL(publicURL, l.Slug), Title: l.Title,
		Description: l.Description, Currency: Currency, RequireAddress: l.RequireAddress, MaxPayments: l.MaxPayments,
		CustomerFields: l.CustomerFields(),
		ExpiresAt:      wireTime(l.ExpiresAt), Active: l.Active, Payments: st.Payments, Received: int64(st.Received),
		CreatedAt: wireTime(l.CreatedAt), UpdatedAt: wireTime(l.UpdatedAt)}
	switch l.Kind {
	case checkout.LinkCustom:
		out.CustomAmount = &CustomAmount{Min: int64(l.MinAmount), Max: int64(l.MaxAmount)}
	case checkout.LinkItems:
		out.Items, out.Amount = items(l.Lines), int64(l.Amount)
	default:
		out.Amount = int64(l.Amount)
	}
	return out
}
