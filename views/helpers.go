package views

import (
	"strconv"
	"strings"

	"github.com/pixcheckout/pixcheckout/gatewayclient/brdoc"
)

// merchant is the name shown for the merchant.
func merchant(p Page) string {
	if p.MerchantName == "" {
		return p.t("layout.merchant")
	}
	return p.MerchantName
}

// pageTitle is the document title: the page's own title, then the merchant.
func pageTitle(p Page, title string) string {
	if title == "" {
		return merchant(p)
	}
	return title + " · " + merchant(p)
}

// quantityValue is what the quantity input of a cart line shows.
func quantityValue(l CartLineView) string {
	if l.QuantityInput != "" {
		return l.QuantityInput
	}
	return strconv.Itoa(l.Quantity)
}

// legalName is the payee's name as the shopper's bank shows it: the legal name, else the
// merchant's name.
func legalName(p Page) string {
	if p.Merchant.LegalName != "" {
		return p.Merchant.LegalName
	}
	return merchant(p)
}

// addressLines are the store's address's lines, blank ones left out.
func addressLines(a string) []string {
	var out []string
	for l := range strings.SplitSeq(a, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// formatDocument writes a CPF or CNPJ with its punctuation; "" when there is none or it is not
// a valid document.
func formatDocument(doc string) string {
	if doc == "" || !brdoc.ValidDocument(doc) {
		return ""
	}
	return brdoc.FormatDocument(doc)
}

// docLabel names the kind of a document: "CPF" or "CNPJ".
func docLabel(doc string) string {
	if brdoc.ClassifyDocument(doc) == brdoc.DocumentCPF {
		return "CPF"
	}
	return "CNPJ"
}

// shippingAmount is the shipping's price, or "free".
func shippingAmount(p Page, ship ShippingLine) string {
	if ship.Amount <= 0 {
		return p.t("shipping.free")
	}
	return p.money(ship.Amount)
}

// deliveryText is the delivery estimate of days business days.
func deliveryText(p Page, days int) string {
	if days == 1 {
		return p.t("shipping.day")
	}
	return p.t("shipping.days", days)
}
