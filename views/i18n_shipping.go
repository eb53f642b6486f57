package views

// shippingMessages are the texts of shipping (summaries, receipt, settings, errors) and of
// product pictures.
var shippingMessages = map[string][2]string{
	"shipping.line":                        {"Frete", "Shipping"},
	"shipping.free":                        {"Grátis", "Free"},
	"shipping.days":                        {"Entrega em até %d dias úteis", "Delivery within %d business days"},
	"shipping.day":                         {"Entrega em até 1 dia útil", "Delivery within 1 business day"},
	"err.amount_max":                       {"O total do pedido, frete incluído, passa do limite de %s de um pagamento PIX. Divida a compra em mais de um pedido.", "The order's total, shipping included, is over the %s limit of one PIX payment. Split the purchase into several orders."},
	"settings.shipping":                    {"Frete", "Shipping"},
	"settings.shipping_intro":              {"Para pedidos com produtos físicos: o frete aparece em todos os resumos, no recibo e vai ao gateway como um item \"Frete\".", "For orders with physical products: shipping shows in every summary and on the receipt, and goes to the gateway as an item \"Frete\"."},
	"settings.shipping_flat_rate":          {"Valor fixo do frete (R$)", "Flat shipping rate (R$)"},
	"settings.shipping_flat_rate_hint":     {"0 ou vazio: frete grátis.", "0 or empty: free shipping."},
	"settings.shipping_free_above":         {"Frete grátis a partir de (R$)", "Free shipping from (R$)"},
	"settings.shipping_free_above_hint":    {"Total dos itens a partir do qual o frete é grátis; vazio: nunca.", "Items total from which shipping is free; empty: never."},
	"settings.shipping_delivery_days":      {"Prazo de entrega (dias úteis)", "Delivery time (business days)"},
	"settings.shipping_delivery_days_hint": {"Mostrado ao comprador; vazio: nenhum prazo.", "Shown to the shopper; empty: none."},
	"settings.shipping_err_amount":         {"Informe um valor em reais, como 15,00, de até R$ 100.000,00.", "Enter an amount in reais, such as 15,00, of at most R$ 100.000,00."},
	"settings.shipping_err_days":           {"Informe um número de dias úteis de 1 a 90.", "Enter a number of business days from 1 to 90."},
	"products.image":                       {"Foto do produto", "Product picture"},
	"products.image_file":                  {"Arquivo da foto", "Picture file"},
	"products.image_hint":                  {"JPEG, PNG ou WebP de até 5 MB. A loja a redimensiona e retira os metadados (como a localização).", "JPEG, PNG or WebP of at most 5 MB. The shop resizes it and removes its metadata (such as the location)."},
	"products.image_upload":                {"Enviar foto", "Upload picture"},
	"products.image_saved":                 {"Foto salva.", "Picture saved."},
	"products.image_missing":               {"Escolha um arquivo de foto.", "Choose a picture file."},
	"products.image_not_image":             {"O arquivo precisa ser uma foto JPEG, PNG ou WebP.", "The file must be a JPEG, PNG or WebP picture."},
	"products.image_too_large":             {"A foto passa do limite de 5 MB (ou de 40 megapixels).", "The picture is over the limit of 5 MB (or 40 megapixels)."},
	"products.image_too_heavy":             {"A foto tem %d × %d pixels: abri-la ocuparia %d MB de memória, mais que o limite de %d MB. Salve-a menor ou com 8 bits por canal (não 16).", "The picture is %d × %d pixels: opening it would take %d MB of memory, more than the limit of %d MB. Save it smaller, or with 8 bits per channel (not 16)."},
}
