package views

// embedMessages are the texts of the pages of checkout sessions made through the merchant API.
var embedMessages = map[string][2]string{
	"embed.cancel":       {"Cancelar e voltar à loja", "Cancel and go back to the shop"},
	"embed.closed_title": {"Este link de pagamento expirou", "This payment link has expired"},
	"embed.closed_text":  {"O prazo para pagar este pedido acabou. Volte à loja para começar de novo.", "The time to pay for this order is over. Go back to the shop to start again."},
	"embed.back_to_shop": {"Voltar à loja", "Back to the shop"},
	// The name of the framed page's one main landmark: the merchant's page has its own main,
	// and two unnamed ones are indistinguishable (axe's landmark-unique).
	"embed.main": {"Pagamento PIX", "PIX payment"},
}
