package views

import "strconv"

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
