package views

// shippingMessages are the texts of shipping (summaries, receipt, errors) and product images.
var shippingMessages = map[string][2]string{
	"shipping.line":     {"Frete", "Shipping"},
	"shipping.free":     {"Grátis", "Free"},
	"shipping.days":     {"Entrega em até %d dias úteis", "Delivery within %d business days"},
	"shipping.day":      {"Entrega em até 1 dia útil", "Delivery within 1 business day"},
	"shipping.items":    {"Itens", "Items"},
	"shipping.at_least": {"Frete grátis a partir de %s", "Free shipping from %s"},
	"err.amount_max":    {"O total do pedido, frete incluído, passa do limite de %s de um pagamento PIX. Divida a compra em mais de um pedido.", "The order's total, shipping included, is over the %s limit of one PIX payment. Split the purchase into several orders."},
}
