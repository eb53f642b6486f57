package views

import (
	"fmt"
	"sort"
)

// T returns the text of key in lang (PtBR for an unknown language), formatted with args as by
// fmt.Sprintf when args are given. An unknown key returns the key itself, so a slip shows on the
// page instead of hiding; a test checks that every key the views use exists.
func T(lang Lang, key string, args ...any) string {
	e, ok := messages[key]
	if !ok {
		return key
	}
	s := e[0]
	if lang.norm() == En {
		s = e[1]
	}
	if len(args) > 0 {
		return fmt.Sprintf(s, args...)
	}
	return s
}

// HasKey reports whether the catalogue has key.
func HasKey(key string) bool {
	_, ok := messages[key]
	return ok
}

// keys lists every key of the catalogue, sorted.
func keys() []string {
	keys := make([]string, 0, len(messages))
	for k := range messages {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Keys of the form-wide and page-wide messages that handlers pass to pages (the error page's
// message, the customer form's summary): they live in the catalogue like every other text.
const (
	MsgFormOutdated    = "form.outdated"         // the form's request key is missing or spent
	MsgCartUnavailable = "form.cart_unavailable" // a product of the cart is no longer sold
	MsgGatewayDown     = "form.gateway_down"     // the payment gateway did not answer
	MsgProductMissing  = "error.product_missing" // the product to add does not exist
	MsgSandboxRefused  = "pix.sandbox_refused"   // the sandbox refused the simulated payment
	// MsgPixUnavailable is the live status of a pending order whose QR code could not be made.
	MsgPixUnavailable = "pix.unavailable_status"
	MsgTooManyCarts   = "error.too_many_carts" // this address started too many carts (%d seconds to wait)
)

// handlerMessages lists the Msg* keys.
func handlerMessages() []string {
	return []string{MsgFormOutdated, MsgCartUnavailable, MsgGatewayDown, MsgProductMissing, MsgSandboxRefused, MsgTooManyCarts}
}

// messages is the catalogue: each key has its Brazilian Portuguese and its English text, in that
// order, so a key cannot exist in one language only. Each area of the product keeps its part in
// its own file (shopMessages here); they are joined once, when the program starts, and only read
// afterwards.
var messages = joinCatalogues(shopMessages, embedMessages, dashboardMessages, teamMessages, payLinkMessages, dashLinkMessages, shippingMessages,
	subjectMessages, actionMessages, listMessages, exportMessages, orderMessages, emailMessages, shopperEmailMessages, mailLogMessages, reconMessages, alertMessages,
	storeMessages, storeLogoMessages, chargeMessages, dashChargeMessages, chargePageMessages, chargeReminderMessages, dashSubscriptionMessages, posMessages,
	chargeImportMessages, posDisplayMessages, dashPosDisplayMessages, posReceiptMessages, closingMessages)

// joinCatalogues merges the parts of the catalogue. A key in two parts is a programming error:
// it panics at start-up, and a test runs it first.
func joinCatalogues(parts ...map[string][2]string) map[string][2]string {
	all := map[string][2]string{}
	for _, p := range parts {
		for k, v := range p {
			if _, dup := all[k]; dup {
				panic("views: message key " + k + " is defined twice")
			}
			all[k] = v
		}
	}
	return all
}

// shopMessages are the texts of the shopper's pages.
var shopMessages = map[string][2]string{
	// Layout.
	"layout.skip":         {"Pular para o conteúdo", "Skip to content"},
	"layout.language":     {"Idioma", "Language"},
	"layout.sandbox":      {"Ambiente de testes: nenhum dinheiro real é movimentado.", "Test environment: no real money moves."},
	"layout.footer":       {"%s · Pagamento seguro via Pix", "%s · Secure payment with PIX"},
	"layout.merchant":     {"PIX Checkout", "PIX Checkout"},
	"layout.support":      {"Dúvidas sobre o pedido?", "Questions about your order?"},
	"layout.support_page": {"Central de ajuda", "Help centre"},

	// Catalogue.
	"catalogue.title":   {"Produtos", "Products"},
	"catalogue.heading": {"Produtos", "Products"},
	"catalogue.cart":    {"Ver carrinho (%d)", "View cart (%d)"},
	"catalogue.empty":   {"Nenhum produto disponível no momento.", "No products are available right now."},
	"catalogue.add":     {"Adicionar ao carrinho", "Add to cart"},
	"product.physical":  {"Produto físico", "Physical product"},
	"product.digital":   {"Produto digital", "Digital product"},

	// Cart.
	"cart.title":    {"Carrinho", "Cart"},
	"cart.heading":  {"Seu carrinho", "Your cart"},
	"cart.items":    {"Itens do carrinho", "Cart items"},
	"cart.empty":    {"Seu carrinho está vazio.", "Your cart is empty."},
	"cart.browse":   {"Ver produtos", "Browse products"},
	"cart.quantity": {"Quantidade", "Quantity"},
	"cart.each":     {"%s cada", "%s each"},
	"cart.update":   {"Atualizar", "Update"},
	"cart.remove":   {"Remover", "Remove"},
	"cart.total":    {"Total", "Total"},
	"cart.checkout": {"Continuar para pagamento", "Continue to payment"},
	"cart.continue": {"Continuar comprando", "Continue shopping"},

	// Customer form.
	"customer.title":        {"Seus dados", "Your details"},
	"customer.heading":      {"Seus dados para o pagamento", "Your details for the payment"},
	"customer.details":      {"Dados pessoais", "Personal details"},
	"customer.address":      {"Endereço de entrega", "Delivery address"},
	"customer.submit":       {"Pagar %s com Pix", "Pay %s with PIX"},
	"customer.privacy":      {"Seus dados são usados só para este pagamento e a entrega.", "Your details are used only for this payment and the delivery."},
	"customer.back":         {"Voltar ao carrinho", "Back to cart"},
	"form.errors_title":     {"Confira os dados abaixo", "Please check the details below"},
	"form.optional":         {"(opcional)", "(optional)"},
	"form.select_state":     {"Selecione", "Select"},
	"form.outdated":         {"O formulário expirou. Confira os dados e envie novamente.", "The form has expired. Check the details and submit again."},
	"form.cart_unavailable": {"Um item do carrinho não está mais disponível. Revise o carrinho.", "An item of the cart is no longer available. Review the cart."},
	"form.gateway_down":     {"O serviço de pagamento não respondeu. Tente novamente em instantes.", "The payment service did not answer. Please try again in a moment."},
	"summary.title":         {"Resumo do pedido", "Order summary"},
	"summary.line":          {"%d × %s", "%d × %s"},

	"field.name":         {"Nome completo", "Full name"},
	"field.document":     {"CPF ou CNPJ", "CPF or CNPJ"},
	"field.email":        {"E-mail", "Email"},
	"field.phone":        {"Celular", "Mobile phone"},
	"field.zip_code":     {"CEP", "CEP (postal code)"},
	"field.street":       {"Rua", "Street"},
	"field.number":       {"Número", "Number"},
	"field.complement":   {"Complemento", "Complement"},
	"field.neighborhood": {"Bairro", "Neighbourhood"},
	"field.city":         {"Cidade", "City"},
	"field.state":        {"Estado", "State"},
	"field.country":      {"País", "Country"},
	"hint.document":      {"Somente números ou com pontuação.", "Digits only, or with punctuation."},
	"hint.number":        {"Só números. Letras, como 12A ou bloco B, vão em Complemento.", "Digits only. Letters, such as 12A or block B, go in Complement."},
	"customer.no_number": {"Sem número", "No number"},
	"hint.phone":         {"Com DDD, por exemplo (11) 91234-5678.", "With area code, for example (11) 91234-5678."},

	"customer.cep_found":   {"Endereço preenchido pelo CEP. Confira e informe o número.", "Address filled in from the CEP. Check it and enter the number."},
	"customer.cep_unknown": {"Não encontramos esse CEP: preencha o endereço.", "We could not find that CEP: please type the address."},
	"customer.cep_finder":  {"Não sabe o CEP? Consulte nos Correios", "Don't know the CEP? Look it up at Correios"},
	"link.new_tab":         {" (abre em nova aba)", " (opens in a new tab)"},

	// Validation messages: err.<field>.<gatewayclient code>, then err.<field>.invalid for any
	// other code of that field, then the general ones.
	"err.required":                {"Preencha este campo.", "Fill in this field."},
	"err.invalid":                 {"Verifique este campo.", "Check this field."},
	"err.text":                    {"Apague os caracteres de controle ou as marcas invisíveis de direção do texto (eles podem vir de um texto colado).", "Delete the control characters or invisible text-direction marks (they may come from pasted text)."},
	"err.other":                   {"Não foi possível validar os dados: %s", "The details could not be validated: %s"},
	"err.name.required":           {"Informe seu nome completo.", "Enter your full name."},
	"err.name.invalid":            {"Informe um nome só com letras, números e pontuação comum.", "Enter a name with letters, digits and common punctuation only."},
	"err.document.required":       {"Informe seu CPF ou CNPJ.", "Enter your CPF or CNPJ."},
	"err.document.invalid":        {"Informe um CPF ou CNPJ válido.", "Enter a valid CPF or CNPJ."},
	"err.email.required":          {"Informe seu e-mail.", "Enter your email address."},
	"err.email.invalid":           {"Informe um e-mail válido, como nome@exemplo.com.br.", "Enter a valid email address, like name@example.com."},
	"err.phone.required":          {"Informe seu celular com DDD.", "Enter your mobile number with area code."},
	"err.phone.invalid":           {"Informe um celular válido com DDD, como (11) 91234-5678.", "Enter a valid Brazilian mobile number with area code, like (11) 91234-5678."},
	"err.zip_code.required":       {"Informe o CEP.", "Enter the CEP (postal code)."},
	"err.zip_code.invalid":        {"Informe um CEP válido, como 01310-100.", "Enter a valid CEP, like 01310-100."},
	"err.street.required":         {"Informe a rua.", "Enter the street."},
	"err.street.min_length":       {"A rua deve ter pelo menos 2 caracteres.", "The street must have at least 2 characters."},
	"err.street.max_length":       {"A rua deve ter no máximo 200 caracteres.", "The street must have at most 200 characters."},
	"err.street.invalid":          {"Verifique a rua.", "Check the street."},
	"err.number.required":         {"Informe o número.", "Enter the number."},
	"err.number.invalid":          {"Informe o número só com algarismos (até 10).", "Enter the number with digits only (up to 10)."},
	"err.complement.min_length":   {"O complemento deve ter pelo menos 2 caracteres.", "The complement must have at least 2 characters."},
	"err.complement.max_length":   {"O complemento deve ter no máximo 150 caracteres.", "The complement must have at most 150 characters."},
	"err.complement.invalid":      {"Verifique o complemento.", "Check the complement."},
	"err.neighborhood.required":   {"Informe o bairro.", "Enter the neighbourhood."},
	"err.neighborhood.min_length": {"O bairro deve ter pelo menos 2 caracteres.", "The neighbourhood must have at least 2 characters."},
	"err.neighborhood.max_length": {"O bairro deve ter no máximo 100 caracteres.", "The neighbourhood must have at most 100 characters."},
	"err.neighborhood.invalid":    {"Verifique o bairro.", "Check the neighbourhood."},
	"err.city.required":           {"Informe a cidade.", "Enter the city."},
	"err.city.min_length":         {"A cidade deve ter pelo menos 2 caracteres.", "The city must have at least 2 characters."},
	"err.city.max_length":         {"A cidade deve ter no máximo 100 caracteres.", "The city must have at most 100 characters."},
	"err.city.invalid":            {"Verifique a cidade.", "Check the city."},
	"err.state.required":          {"Selecione o estado.", "Select the state."},
	"err.state.invalid":           {"Selecione um estado da lista.", "Select a state from the list."},
	"err.country.required":        {"Informe o país.", "Enter the country."},
	"err.country.min_length":      {"O país deve ter pelo menos 2 caracteres.", "The country must have at least 2 characters."},
	"err.country.max_length":      {"O país deve ter no máximo 60 caracteres.", "The country must have at most 60 characters."},
	"err.country.invalid":         {"Verifique o país.", "Check the country."},
	"err.quantity.required":       {"Informe a quantidade.", "Enter the quantity."},
	"err.quantity.invalid":        {"A quantidade deve ser um número inteiro de 1 a 100.", "The quantity must be a whole number from 1 to 100."},

	// Order states.
	"status.pending":          {"Gerando o QR Code…", "Creating the QR code…"},
	"status.awaiting_payment": {"Aguardando pagamento", "Awaiting payment"},
	"status.paid":             {"Pagamento confirmado", "Payment confirmed"},
	"status.expired":          {"QR Code expirado", "QR code expired"},
	"status.failed":           {"Pagamento não concluído", "Payment not completed"},
	"status.under_review":     {"Pagamento em análise", "Payment under review"},
	"status.refunding":        {"Reembolso em andamento", "Refund in progress"},
	"status.refunded":         {"Pagamento reembolsado", "Payment refunded"},
	"status.unknown":          {"Verificando o pagamento…", "Checking the payment…"},

	// PIX page.
	"pix.title":         {"Pague com Pix", "Pay with PIX"},
	"pix.heading":       {"Pague com Pix", "Pay with PIX"},
	"pix.amount":        {"Valor", "Amount"},
	"pix.order":         {"Pedido", "Order"},
	"pix.qr_alt":        {"QR Code Pix para pagar %s", "PIX QR code to pay %s"},
	"pix.code_label":    {"Pix Copia e Cola", "PIX copy and paste code"},
	"pix.copy":          {"Copiar código Pix", "Copy PIX code"},
	"pix.copied":        {"Código copiado! Cole no app do seu banco, em Pix Copia e Cola.", "Code copied! Paste it in your bank app, under PIX copy and paste."},
	"pix.copied_button": {"Copiado ✓", "Copied ✓"},
	"pix.payee":         {"Para", "To"},
	"pix.valid_until":   {"Válido até", "Valid until"},
	"pix.check_now":     {"Já paguei", "I have paid"},
	"pix.copy_manual":   {"Não foi possível copiar: selecione e copie o código.", "Could not copy: select and copy the code."},
	"pix.expires_in":    {"Expira em", "Expires in"},
	"pix.status":        {"Situação", "Status"},
	"pix.step1":         {"Abra o app do seu banco e escolha pagar com Pix.", "Open your bank app and choose to pay with PIX."},
	"pix.step2":         {"Escaneie este QR Code com a câmera do app, ou cole o código Pix Copia e Cola.", "Scan this QR code with the app's camera, or paste the copy and paste code."},
	"pix.step3":         {"Confirme o pagamento: esta página se atualiza sozinha.", "Confirm the payment: this page updates by itself."},
	"pix.expired_title": {"Este QR Code expirou", "This QR code has expired"},
	"pix.pending_text": {"Seu QR Code está sendo gerado. Ele aparece aqui em instantes, sem você precisar fazer nada.",
		"Your QR code is being generated. It appears here in a moment, with nothing for you to do."},
	"pix.unavailable_title":  {"Não foi possível gerar o Pix agora", "We could not create the PIX code right now"},
	"pix.unavailable_status": {"Aguardando o sistema de pagamento", "Waiting for the payment system"},
	"pix.unavailable_text": {"O sistema de pagamento não está respondendo. Seu pedido está guardado: assim que ele voltar, o QR Code aparece aqui sozinho. Você também pode tentar de novo em instantes.",
		"The payment system is not answering. Your order is saved: as soon as it is back, the QR code appears here by itself. You can also try again in a moment."},
	"pix.retry":           {"Tentar de novo", "Try again"},
	"pix.expired_text":    {"Gere um novo QR Code para concluir o pagamento.", "Get a new QR code to complete the payment."},
	"pix.new_qr":          {"Gerar novo QR Code", "Get a new QR code"},
	"pix.sandbox_text":    {"Sandbox: simule o pagamento, sem dinheiro real.", "Sandbox: simulate the payment, no real money."},
	"pix.sandbox_pay":     {"Simular pagamento (sandbox)", "Simulate payment (sandbox)"},
	"pix.sandbox_paying":  {"Pagamento simulado…", "Payment simulated…"},
	"pix.sandbox_refused": {"Não foi possível simular o pagamento agora.", "The payment could not be simulated right now."},
	"pix.noscript":        {"Esta página se atualiza a cada %d segundos. Já pagou? Confira agora:", "This page refreshes every %d seconds. Paid already? Check now:"},

	// Result pages.
	"paid.title":            {"Pagamento confirmado", "Payment confirmed"},
	"paid.heading":          {"Pagamento confirmado!", "Payment confirmed!"},
	"paid.thanks":           {"Obrigado! O pedido %s está pago.", "Thank you! Order %s is paid."},
	"paid.paid_at":          {"Pago em", "Paid at"},
	"paid.late":             {"Seu pagamento chegou depois do prazo do QR Code, mas foi recebido: o pedido está pago.", "Your payment arrived after the QR code's deadline, but it was received: the order is paid."},
	"paid.continue":         {"Voltar à loja", "Back to the shop"},
	"paid.with_pix":         {"Pago com Pix", "Paid with PIX"},
	"time.zone":             {"horário de Brasília", "Brasília time"}, // the zone of every time a shopper page shows
	"paid.e2e":              {"Identificador da transação (E2E)", "Transaction id (E2E)"},
	"paid.next":             {"O que acontece agora", "What happens next"},
	"paid.next_digital":     {"Você receberá o acesso ao produto no e-mail %s em instantes.", "You will receive access to the product at %s in a moment."},
	"paid.next_physical":    {"Vamos preparar o envio para %s. O código de rastreio chega no e-mail %s.", "We will prepare the shipment to %s. The tracking code will reach %s."},
	"paid.print":            {"Imprimir ou salvar comprovante", "Print or save the receipt"},
	"paid.receipt":          {"Comprovante", "Receipt"},
	"expired.title":         {"QR Code expirado", "QR code expired"},
	"expired.heading":       {"O QR Code expirou", "The QR code has expired"},
	"expired.text":          {"O prazo para pagar o pedido %s terminou. Gere um novo QR Code para pagar.", "The time to pay order %s is over. Get a new QR code to pay."},
	"expired.cart":          {"Voltar ao carrinho", "Back to cart"},
	"failed.title":          {"Pagamento não concluído", "Payment not completed"},
	"failed.heading":        {"Não foi possível concluir o pagamento", "The payment could not be completed"},
	"failed.reason":         {"Houve um problema ao gerar ou confirmar o pagamento do pedido %s.", "Something went wrong creating or confirming the payment of order %s."},
	"failed.retry":          {"Tentar novamente", "Try again"},
	"failed.cart":           {"Voltar ao carrinho", "Back to cart"},
	"notfound.title":        {"Página não encontrada", "Page not found"},
	"params.bad_title":      {"Endereço inválido", "Bad address"},
	"params.bad":            {"Um parâmetro do endereço não é texto válido (%s). Corrija-o e tente de novo.", "A parameter of the address is not valid text (%s). Correct it and try again."},
	"notfound.text":         {"O endereço pode estar errado, ou o pedido não existe mais.", "The address may be wrong, or the order no longer exists."},
	"notfound.home":         {"Ir para a loja", "Go to the shop"},
	"error.title":           {"Algo deu errado", "Something went wrong"},
	"error.text":            {"Não conseguimos atender o seu pedido agora. Tente novamente em instantes.", "We could not handle your request right now. Please try again in a moment."},
	"error.code":            {"Código do erro: %d", "Error code: %d"},
	"error.request":         {"Referência: %s", "Reference: %s"},
	"error.home":            {"Ir para a loja", "Go to the shop"},
	"error.product_missing": {"Este produto não está disponível.", "This product is not available."},
	"error.too_many_carts":  {"Muitos carrinhos novos a partir desta conexão. Tente de novo em %d s.", "Too many new carts from this connection. Try again in %d s."},
}
