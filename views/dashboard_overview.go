package views

import "github.com/pixcheckout/pixcheckout/checkout"

// wholeReais is an amount of whole reais, as the chart's axis writes it: "R$ 1.234"
// (pt-BR), "R$1,234" (English); the cents are dropped.
func wholeReais(lang Lang, c checkout.Cents) string {
	if lang.norm() == En {
		return "R$" + FormatCount(lang, int(c/100))
	}
	return "R$ " + FormatCount(lang, int(c/100))
}

// moneyOf is the figure of kind in m.
func moneyOf(m checkout.MoneyTotals, kind checkout.MoneyKind) checkout.PaidTotal {
	switch kind {
	case checkout.MoneyRefunded:
		return m.Refunded
	case checkout.MoneyHeld:
		return m.Held
	case checkout.MoneyFees:
		return m.Fees
	}
	return m.Received
}
