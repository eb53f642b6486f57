package views

// chargePageMessages are the texts of the customer's page of a charge (/c/{id}).
var chargePageMessages = map[string][2]string{
	"charge.title":          {"Cobrança", "Charge"},
	"charge.billed_by":      {"Cobrança de %s", "Billed by %s"},
	"charge.billed_to":      {"Para %s", "To %s"},
	"charge.due":            {"Vencimento: %s", "Due date: %s"},
	"charge.overdue":        {"Vencida", "Overdue"},
	"charge.amounts":        {"Valor a pagar hoje", "Amount due today"},
	"charge.amount":         {"Valor", "Amount"},
	"charge.discount":       {"Desconto para pagamento até %s", "Discount for paying by %s"},
	"charge.fine":           {"Multa por atraso", "Late fine"},
	"charge.interest_one":   {"Juros (%d dia de atraso)", "Interest (%d day late)"},
	"charge.interest_other": {"Juros (%d dias de atraso)", "Interest (%d days late)"},
	"charge.paid":           {"Já pago", "Already paid"},
	"charge.balance":        {"Total a pagar hoje", "Total due today"},
	"charge.pay":            {"Pagar com Pix", "Pay with PIX"},
	"charge.pay_hint": {"O código Pix vale até o fim do dia (23:59, horário de Brasília). Depois, o valor do dia seguinte se aplica.",
		"The PIX code is valid until the end of the day (23:59, Brasília time). After that, the next day's amount applies."},
	"charge.canceled": {"Esta cobrança foi cancelada: não há nada a pagar.", "This charge was canceled: there is nothing to pay."},
	"charge.notice_day_ending": {"O dia está terminando e o valor de hoje não pode mais ser pago. Tente de novo em um minuto.",
		"The day is ending and today's amount can no longer be paid. Try again in a minute."},
	"charge.notice_refused": {"Não foi possível gerar o código Pix desta cobrança. Fale com quem a enviou.",
		"The PIX code of this charge could not be made. Contact whoever sent it."},
	"charge.notice_unavailable": {"Não foi possível gerar o código Pix agora. Tente de novo em instantes.",
		"The PIX code could not be made right now. Try again in a moment."},
}
