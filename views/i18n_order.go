package views

// orderMessages are the words of the shopper's order page once the order is paid or canceled:
// its stage, the shipment, the money that goes back.
var orderMessages = map[string][2]string{
	"stage.paid":      {"Pagamento confirmado", "Payment confirmed"},
	"stage.shipped":   {"Enviado", "Shipped"},
	"stage.delivered": {"Entregue", "Delivered"},

	"progress.heading":          {"Acompanhe seu pedido", "Follow your order"},
	"progress.step_paid":        {"Pago", "Paid"},
	"progress.step_shipped":     {"Enviado", "Shipped"},
	"progress.step_delivered":   {"Entregue", "Delivered"},
	"progress.carrier":          {"Transportadora", "Carrier"},
	"progress.tracking_code":    {"Código de rastreio", "Tracking code"},
	"progress.track":            {"Acompanhar a entrega no site da %s", "Track the parcel on %s's website"},
	"progress.new_tab":          {"(abre em nova aba)", "(opens in a new tab)"},
	"progress.shipped_at":       {"Enviado em", "Shipped on"},
	"progress.delivered_at":     {"Entregue em", "Delivered on"},
	"progress.next_physical":    {"Vamos preparar o envio para %s. O código de rastreio aparece nesta página assim que o pedido for enviado.", "We will prepare the shipment to %s. The tracking code shows on this page as soon as the order ships."},
	"progress.delivered":        {"O pedido foi entregue. Se algo não chegou como esperado, fale com a loja.", "The order was delivered. If something did not arrive as expected, contact the shop."},
	"progress.refunding":        {"A devolução de %s para a conta que pagou está em andamento. Você não precisa fazer nada.", "The refund of %s to the account that paid is in progress. You need to do nothing."},
	"progress.refunded":         {"%s foram devolvidos para a conta que pagou.", "%s was refunded to the account that paid."},
	"progress.due_twice":        {"Este pedido foi pago duas vezes. A loja vai devolver %s para a conta que pagou; você não precisa fazer nada.", "This order was paid twice. The shop will return %s to the account that paid; you need to do nothing."},
	"progress.due_after_cancel": {"Um pagamento de %s chegou depois que o pedido foi cancelado. A loja vai devolvê-lo para a conta que pagou; você não precisa fazer nada.", "A payment of %s arrived after the order was canceled. The shop will return it to the account that paid; you need to do nothing."},
	"progress.due_beyond_cap":   {"Este link de pagamento já tinha atingido o limite de pagamentos quando o seu chegou. A loja vai devolver %s para a conta que pagou; você não precisa fazer nada.", "This payment link had reached its limit of payments when yours arrived. The shop will return %s to the account that paid; you need to do nothing."},
	"progress.returned":         {"A loja devolveu %s em %s.", "The shop returned %s on %s."},

	"paid.heading_refunding": {"Reembolso em andamento", "Refund in progress"},
	"paid.heading_refunded":  {"Pagamento reembolsado", "Payment refunded"},
	"paid.thanks_refunding":  {"O pagamento do pedido %s está sendo devolvido.", "The payment of order %s is being refunded."},
	"paid.thanks_refunded":   {"O pagamento do pedido %s foi devolvido.", "The payment of order %s was refunded."},

	"canceled.text_paid": {"A loja cancelou o pedido %s.", "The shop canceled order %s."},

	// The settings' form of the e-mails to the shopper.
	"settings.shopper_mail":              {"E-mails ao comprador", "E-mails to the shopper"},
	"settings.shopper_mail_intro":        {"Enviados quando o pedido tem um e-mail, no idioma do pedido. Desmarque os que a loja não quer enviar.", "Sent when the order has an e-mail, in the order's language. Untick those the shop does not want to send."},
	"settings.shopper_mail_order_placed": {"Pedido feito (valor, código Pix copia e cola e validade)", "Order placed (amount, PIX copy-and-paste code and its expiry)"},
	"settings.shopper_mail_paid":         {"Pagamento confirmado (o comprovante)", "Payment confirmed (the receipt)"},
	"settings.shopper_mail_shipped":      {"Pedido enviado (transportadora e código de rastreio)", "Order shipped (carrier and tracking code)"},
	"settings.shopper_mail_delivered":    {"Pedido entregue", "Order delivered"},
	"settings.shopper_mail_canceled":     {"Pedido cancelado", "Order canceled"},
	"settings.shopper_mail_refunded":     {"Devolução registrada (valor e data)", "Refund recorded (amount and date)"},
	"settings.shopper_mail_refund_due":   {"Pagamento atrasado ou em dobro (a loja vai devolver)", "Late or double payment (the shop will return it)"},
	"settings.shopper_mail_saved":        {"E-mails ao comprador salvos.", "E-mails to the shopper saved."},
}
