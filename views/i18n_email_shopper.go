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
}
