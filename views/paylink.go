package views

import (
	"slices"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// The shopper's pages of a payment link (/l/{slug}): the amount the payer types, when the
// link asks for one, and the page of a link that takes no more payments. Its customer form is
// CustomerPage, as every order's.

// PayLinkAmountView is the page where the payer types the amount of a link (checkout.LinkCustom).
type PayLinkAmountView struct {
	Page
	Title       string
	Description string
	Action      string // GET target: the link's own URL
	// KeepLang is the language the page was asked in with ?lang=, kept by the form ("" none):
	// a GET form replaces its action's query with its fields.
	KeepLang string
	Amount   string // as typed
	Error    string // why the amount is refused ("" none)
	Min, Max checkout.Cents
}

// PayLinkClosedView is the page of a link that takes no new payment, and why.
type PayLinkClosedView struct {
	Page
	Title string
	// Reason is "inactive", "expired" or "full" (every payment of a limited link is taken).
	Reason string
}

// PayLinkAmountError is the text of a refused typed amount: its bounds, or the format.
func PayLinkAmountError(lang Lang, code string, lo, hi checkout.Cents) string {
	switch code {
	case "min", "max":
		return T(lang, "paylink.amount_bounds", FormatMoney(lang, lo), FormatMoney(lang, hi))
	}
	return T(lang, "paylink.amount_format")
}

// payLinkClosedKeys are the catalogue keys of the heading and the text of a closed link's
// page, by reason.
func payLinkClosedKeys(reason string) [2]string {
	switch reason {
	case "full":
		return [2]string{"paylink.closed_full", "paylink.closed_text_full"}
	case "expired":
		return [2]string{"paylink.closed_expired", "paylink.closed_text_expired"}
	}
	return [2]string{"paylink.closed_inactive", "paylink.closed_text_inactive"}
}

// askedFields are the customer inputs the form shows: all but those it leaves out.
func (v CustomerView) askedFields() []formField {
	fs := customerFields()
	if len(v.NotAsked) == 0 {
		return fs
	}
	return slices.DeleteFunc(fs, func(f formField) bool { return slices.Contains(v.NotAsked, f.Name) })
}
