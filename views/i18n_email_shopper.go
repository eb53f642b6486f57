package views

// shopperEmailMessages are the texts of the shopper's e-mails about an order (views/email); the
// figures and labels they share with the order's pages (paid.*, summary.*, progress.*) are the
// pages' own keys.
var shopperEmailMessages = map[string][2]string{
	"email.hello":             {"Olá!", "Hello!"},
	"email.hello_name":        {"Olá, %s!", "Hello, %s!"},
	"email.order.follow":      {"Acompanhe o pedido na página dele:", "Follow the order on its page:"},
	"email.order.follow_link": {"Acompanhar o pedido %s", "Follow order %s"},
	"email.receipt.subject":   {"Recibo do pedido %s — %s", "Receipt for order %s — %s"},
	"email.receipt.shipping":  {"Frete", "Shipping"},
	"email.receipt.payee":     {"Pago a", "Paid to"},

	"email.order_placed.subject": {"Pedido %s: pague com Pix — %s", "Order %s: pay with PIX — %s"},
	"email.order_placed.heading": {"Seu pedido foi feito", "Your order was placed"},
	"email.order_placed.body":    {"O pedido %s está esperando o pagamento de %s. Para pagar, copie o código Pix abaixo e cole no app do seu banco, em Pix Copia e Cola.", "Order %s awaits its payment of %s. To pay, copy the PIX code below and paste it in your bank's app, under PIX copy and paste."},
	"email.order_placed.code":    {"Código Pix Copia e Cola", "PIX copy-and-paste code"},
	"email.order_placed.expires": {"Pague até", "Pay by"},
	"email.shipped.subject":      {"Pedido %s enviado — %s", "Order %s shipped — %s"},
	"email.shipped.heading":      {"Seu pedido foi enviado", "Your order has shipped"},
	"email.shipped.body":         {"O pedido %s está a caminho.", "Order %s is on its way."},
	"email.delivered.subject":    {"Pedido %s entregue — %s", "Order %s delivered — %s"},
	"email.delivered.heading":    {"Seu pedido foi entregue", "Your order was delivered"},
	"email.delivered.body":       {"A loja marcou o pedido %s como entregue.", "The shop marked order %s as delivered."},
	"email.canceled.subject":     {"Pedido %s cancelado — %s", "Order %s canceled — %s"},
	"email.canceled.heading":     {"Seu pedido foi cancelado", "Your order was canceled"},
	"email.refunded.subject":     {"Devolução do pedido %s — %s", "Refund of order %s — %s"},
	"email.refunded.heading":     {"Seu dinheiro foi devolvido", "Your money was returned"},
	"email.refunded.body":        {"Há uma devolução no pedido %s.", "There is a refund on order %s."},
	"email.refund_due.subject":   {"Pedido %s: um pagamento será devolvido — %s", "Order %s: a payment will be returned — %s"},
	"email.refund_due.heading":   {"Um pagamento será devolvido", "A payment will be returned"},
}
