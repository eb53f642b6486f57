package views

// payLinkMessages are the texts of the shopper's pages of payment links.
var payLinkMessages = map[string][2]string{
	"paylink.amount":          {"Valor a pagar (R$)", "Amount to pay (R$)"},
	"paylink.amount_hint":     {"Entre %s e %s, por exemplo 1.234,56", "Between %s and %s, for example 1,234.56"},
	"paylink.amount_bounds":   {"Digite um valor entre %s e %s.", "Type an amount between %s and %s."},
	"paylink.amount_format":   {"Digite um valor em reais, como 1.234,56.", "Type an amount in reais, such as 1234.56."},
	"paylink.continue":        {"Continuar", "Continue"},
	"paylink.closed_title":    {"Link de pagamento indisponível", "Payment link unavailable"},
	"paylink.closed_inactive": {"Este link de pagamento foi desativado", "This payment link was deactivated"},
	"paylink.closed_expired":  {"Este link de pagamento expirou", "This payment link has expired"},
	"paylink.closed_full":     {"Este link de pagamento não aceita mais pagamentos", "This payment link takes no more payments"},
	"paylink.closed_text_inactive": {"O vendedor desativou este link: ele não aceita novos pagamentos. Pagamentos já feitos continuam valendo.",
		"The seller deactivated this link: it takes no new payments. Payments already made still count."},
	"paylink.closed_text_expired": {"O prazo deste link acabou: ele não aceita novos pagamentos. Pagamentos já feitos continuam valendo.",
		"This link's time is over: it takes no new payments. Payments already made still count."},
	"paylink.closed_text_full": {"Todas as vagas deste link já foram pagas ou estão reservadas por um código Pix ainda válido. Tente de novo mais tarde: uma vaga volta quando um código expira sem pagamento.",
		"Every place of this link is paid or held by a PIX code that may still be paid. Try again later: a place comes back when a code expires unpaid."},
}
