package views

import (
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/imaging"
)

// POSTerminal is a terminal of the point of sale as its pages show it.
type POSTerminal struct {
	ID, Name string
	URL      string // the point of sale at this terminal
}

// POSProduct is a product of the catalogue's grid, and the form field of its quantity.
type POSProduct struct {
	ID, Title string
	Price     checkout.Cents
	Field     string
}

// POSSale is one of the cashier's sales of the day.
type POSSale struct {
	Number string
	Amount checkout.Cents
	Status checkout.OrderStatus
	At     time.Time
	URL    string
}

// POSView is the point of sale's start: the keypad, the catalogue's grid and the cashier's
// sales of the day.
type POSView struct {
	DashPage
	Action   string // POST target of a sale
	Key      string // the form's request key: the same form posted twice is one sale
	Manifest string
	// ClosingURL is the day's closing (the user's own sales, for a cashier).
	ClosingURL string
	Terminals  []POSTerminal
	Terminal   POSTerminal // the terminal chosen ("" ID: the user has none)
	Products   []POSProduct
	Sales      []POSSale
	// The form as posted, and its localised violations by field.
	Amount, Description, CPF, CPFName string
	Errors                            map[string]string
}

// POSSaleView is a sale's page: its QR code while it waits, then its outcome.
type POSSaleView struct {
	DashPage
	Number    string
	Amount    checkout.Cents
	Status    checkout.OrderStatus
	Terminal  string
	QRURL     string
	Code      string
	ExpiresAt time.Time
	Now       time.Time // the server's, for the countdown drawn without script
	PaidAt    time.Time
	EndToEnd  string
	RefundDue checkout.Cents
	// Where its buttons and live status go.
	NewSaleURL, CancelURL, RenewURL, EventsURL, StatusURL, SandboxPayURL, Manifest string
	// Send is the paid sale's receipt: printed, or sent by e-mail or WhatsApp.
	Send POSSendReceipt
}

// Waiting reports whether the sale's QR code is shown.
func (v POSSaleView) Waiting() bool { return v.QRURL != "" }

// Renewable reports whether the sale can be charged again (its QR code expired, or failed).
func (v POSSaleView) Renewable() bool {
	return v.Status == checkout.StatusExpired || v.Status == checkout.StatusFailed
}

// Countdown is the time left as mm:ss at the server's now (the script ticks it on).
func (v POSSaleView) Countdown() string {
	left := max(v.ExpiresAt.Sub(v.Now), 0)
	s := int((left + time.Second - 1) / time.Second)
	return twoDigits(s/60) + ":" + twoDigits(s%60)
}

func twoDigits(n int) string {
	if n < 10 {
		return "0" + itoa(n)
	}
	return itoa(n)
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}

// POSErrors localises the violations of a sale by the form's field.
func POSErrors(lang Lang, fe *checkout.ValidationError) map[string]string {
	out := map[string]string{}
	for _, v := range fe.Violations {
		key := "pos.err_other"
		switch {
		case v.Field == checkout.FieldSaleAmount:
			key = "pos.err_amount"
		case v.Field == checkout.FieldSaleDescription:
			key = "pos.err_description"
		case v.Field == "terminal":
			key = "pos.err_terminal"
		case len(v.Field) >= 8 && v.Field[:8] == "customer":
			key = "pos.err_customer"
		case len(v.Field) >= 7 && v.Field[:7] == "address":
			key = "pos.err_address"
		case len(v.Field) >= 5 && v.Field[:5] == "items":
			key = "pos.err_items"
		}
		field := key[len("pos.err_"):]
		if _, ok := out[field]; !ok {
			out[field] = T(lang, key)
		}
	}
	return out
}

// POSManifestIcon is an icon of the web app manifest.
type POSManifestIcon struct {
	Src   string `json:"src"`
	Sizes string `json:"sizes"`
	Type  string `json:"type"`
}

// POSManifestBody is the point of sale's web app manifest.
type POSManifestBody struct {
	Name            string            `json:"name"`
	ShortName       string            `json:"short_name"`
	StartURL        string            `json:"start_url"`
	Scope           string            `json:"scope"`
	Display         string            `json:"display"`
	BackgroundColor string            `json:"background_color"`
	ThemeColor      string            `json:"theme_color"`
	Lang            string            `json:"lang"`
	Icons           []POSManifestIcon `json:"icons"`
}

// POSManifest is the manifest of the point of sale at start: the store's name, its logo's
// icons (the product's own without one).
func POSManifest(p Page, start string) POSManifestBody {
	m := POSManifestBody{Name: T(p.Lang, "pos.app_name", merchant(p)), ShortName: T(p.Lang, "pos.title"), StartURL: start,
		Scope: start, Display: "standalone", BackgroundColor: "#000000", ThemeColor: "#000000", Lang: p.Lang.norm().String()}
	// The sizes browsers ask of an installable app, 192 and 512 pixels square.
	if p.Logo.Key != "" {
		m.Icons = []POSManifestIcon{{Src: p.Logo.Src(imaging.LogoApp), Sizes: "192x192", Type: "image/png"},
			{Src: p.Logo.Src(imaging.LogoAppLarge), Sizes: "512x512", Type: "image/png"}}
	} else {
		m.Icons = []POSManifestIcon{{Src: p.asset("icon-192.png"), Sizes: "192x192", Type: "image/png"},
			{Src: p.asset("icon-512.png"), Sizes: "512x512", Type: "image/png"},
			{Src: p.asset("logo.svg"), Sizes: "any", Type: "image/svg+xml"}}
	}
	return m
}

// posMessages are the texts of the point of sale.
var posMessages = map[string][2]string{
	"dash.pos":                 {"Caixa", "Point of sale"},
	"pos.title":                {"Caixa", "Point of sale"},
	"pos.app_name":             {"Caixa — %s", "Point of sale — %s"},
	"pos.terminal":             {"Terminal", "Terminal"},
	"pos.terminal_of":          {"Terminal: %s", "Terminal: %s"},
	"pos.choose_terminal":      {"Escolha o terminal", "Choose the terminal"},
	"pos.no_terminal":          {"Você não tem terminal de caixa. Peça a quem é dono da loja.", "You have no terminal. Ask an owner of the shop."},
	"pos.keypad":               {"Valor da venda", "Sale amount"},
	"pos.amount":               {"Valor (R$)", "Amount (R$)"},
	"pos.amount_hint":          {"Digite os números: 1 2 3 4 vira R$ 12,34.", "Type the digits: 1 2 3 4 makes R$ 12.34."},
	"pos.clear":                {"Limpar", "Clear"},
	"pos.backspace":            {"Apagar último dígito", "Delete last digit"},
	"pos.description":          {"Descrição (opcional)", "Description (optional)"},
	"pos.cpf_title":            {"CPF na nota (opcional)", "Customer's CPF on the receipt (optional)"},
	"pos.cpf":                  {"CPF do cliente", "Customer's CPF"},
	"pos.cpf_name":             {"Nome do cliente", "Customer's name"},
	"pos.charge":               {"Cobrar", "Charge"},
	"pos.products":             {"Produtos", "Products"},
	"pos.quantity_of":          {"Quantidade de %s", "Quantity of %s"},
	"pos.cart_total":           {"Total dos produtos", "Products' total"},
	"pos.charge_products":      {"Cobrar produtos", "Charge products"},
	"pos.today":                {"Minhas vendas de hoje", "My sales today"},
	"pos.today_none":           {"Nenhuma venda hoje.", "No sales today."},
	"pos.time":                 {"Hora", "Time"},
	"pos.sale":                 {"Venda", "Sale"},
	"pos.status":               {"Situação", "Status"},
	"pos.errors":               {"Não foi possível cobrar:", "The sale could not be charged:"},
	"pos.err_amount":           {"Digite um valor de R$ 0,01 a R$ 100.000,00.", "Type an amount from R$ 0.01 to R$ 100,000.00."},
	"pos.err_description":      {"A descrição tem de 2 a 150 caracteres.", "The description has 2 to 150 characters."},
	"pos.err_terminal":         {"Escolha um dos seus terminais.", "Choose one of your terminals."},
	"pos.err_customer":         {"Para o CPF na nota, digite um CPF válido e o nome do cliente.", "For the CPF on the receipt, type a valid CPF and the customer's name."},
	"pos.err_address":          {"Produtos físicos precisam do endereço completo da loja (Rua, número - bairro, cidade - UF, CEP) na página da loja.", "Physical products need the store's full address (street, number - neighbourhood, city - state, CEP) on the store page."},
	"pos.err_items":            {"Confira os produtos: quantidades de 0 a 100, produtos à venda.", "Check the products: quantities 0 to 100, products on sale."},
	"pos.err_other":            {"O pagamento foi recusado. Confira os dados e tente de novo.", "The payment was refused. Check the data and try again."},
	"pos.scan":                 {"Aponte a câmera do app do banco para o QR Code", "Scan the QR code with the bank app"},
	"pos.qr_alt":               {"QR Code PIX de %s", "PIX QR code for %s"},
	"pos.expires_in":           {"Expira em", "Expires in"},
	"pos.waiting":              {"Aguardando pagamento…", "Waiting for payment…"},
	"pos.copy_title":           {"PIX copia e cola", "PIX copy and paste"},
	"pos.cancel":               {"Cancelar", "Cancel"},
	"pos.cancel_note":          {"Cancela a venda só aqui: até o QR Code expirar, um pagamento ainda pode chegar e vira um reembolso devido.", "Cancels the sale here only: until the QR code expires a payment may still arrive, and becomes a refund due."},
	"pos.offline":              {"Sem conexão. A situação do pagamento volta quando a rede voltar; não entregue a mercadoria antes de ver \"Pago\".", "Offline. The payment's status comes back with the network; do not hand over the goods before you see \"Paid\"."},
	"pos.paid":                 {"Pago", "Paid"},
	"pos.paid_at":              {"Pago às %s", "Paid at %s"},
	"pos.end_to_end":           {"Identificador (E2E)", "End-to-end id"},
	"pos.new_sale":             {"Nova venda", "New sale"},
	"pos.expired":              {"O QR Code expirou sem pagamento.", "The QR code expired unpaid."},
	"pos.charge_again":         {"Cobrar de novo", "Charge again"},
	"pos.canceled":             {"Venda cancelada.", "Sale canceled."},
	"pos.canceled_note":        {"Se um pagamento ainda chegar, ele aparece no pedido como reembolso devido.", "If a payment still arrives, the order shows it as a refund due."},
	"pos.refund_due":           {"Reembolso devido: %s", "Refund due: %s"},
	"pos.failed":               {"Não foi possível gerar o QR Code.", "The QR code could not be made."},
	"pos.pending":              {"Gerando o QR Code…", "Making the QR code…"},
	"pos.other":                {"Situação: %s", "Status: %s"},
	"pos.sandbox_pay":          {"Simular pagamento (sandbox)", "Simulate payment (sandbox)"},
	"pos.sale_missing":         {"Venda não encontrada.", "Sale not found."},
	"pos.back":                 {"Voltar ao caixa", "Back to the point of sale"},
	"pos.number":               {"Venda %s", "Sale %s"},
	"pos.account":              {"Minha conta", "My account"},
	"pos.keys":                 {"Teclado numérico", "Numeric keypad"},
	"pos.settings_title":       {"Caixa: terminais", "Point of sale: terminals"},
	"pos.terminals":            {"Terminais", "Terminals"},
	"pos.terminal_name":        {"Nome do terminal", "Terminal name"},
	"pos.add_terminal":         {"Criar terminal", "Add terminal"},
	"pos.rename":               {"Renomear", "Rename"},
	"pos.rename_of":            {"Novo nome de %s", "New name of %s"},
	"pos.archive":              {"Arquivar", "Archive"},
	"pos.archive_of":           {"Arquivar %s", "Archive %s"},
	"pos.archived":             {"Arquivados", "Archived"},
	"pos.last_terminal":        {"O último terminal ativo não pode ser arquivado.", "The last active terminal cannot be archived."},
	"pos.name_error":           {"Dê um nome de 1 a 40 caracteres que nenhum outro terminal ativo use.", "Give a name of 1 to 40 characters no other active terminal uses."},
	"pos.settings":             {"Configurações do caixa", "Point of sale settings"},
	"pos.qr_minutes":           {"Validade do QR Code (minutos, 1 a 30)", "QR code lifetime (minutes, 1 to 30)"},
	"pos.idle_hours":           {"Sessão do caixa sem uso (horas, 0,5 a 24)", "Cashier session idle limit (hours, 0.5 to 24)"},
	"pos.save":                 {"Salvar", "Save"},
	"pos.saved":                {"Salvo.", "Saved."},
	"pos.settings_error":       {"Validade de 1 a 30 minutos; sessão de 0,5 a 24 horas.", "Lifetime 1 to 30 minutes; session 0.5 to 24 hours."},
	"pos.cashiers":             {"Terminais de cada operador de caixa", "Each cashier's terminals"},
	"pos.cashiers_note":        {"Um operador de caixa novo usa todos os terminais até você escolher alguns.", "A new cashier uses every terminal until you choose some."},
	"pos.cashier_of":           {"Terminais de %s", "Terminals of %s"},
	"pos.manage_terminals":     {"Terminais do caixa", "Point of sale terminals"},
	"audit_action.pos.changed": {"Alterou o caixa", "Changed the point of sale"},
}

// centsAttr is an amount of cents as an attribute's value, for the cart's script.
func centsAttr(c checkout.Cents) string { return itoa(int(c)) }

// POSTerminalRow is a terminal in the terminals' page.
type POSTerminalRow struct {
	ID, Name              string
	Active                bool
	RenameURL, ArchiveURL string
	ClosingURL            string // the terminal's closing of the day
}

// POSCashier is a cashier and the terminals it was narrowed to (none: every one).
type POSCashier struct {
	Email, Action string
	Given         []string
}

// Has reports whether the cashier may use terminal id.
func (c POSCashier) Has(id string) bool {
	if len(c.Given) == 0 {
		return true
	}
	for _, g := range c.Given {
		if g == id {
			return true
		}
	}
	return false
}

// POSTerminalsView is the owners' page of the point of sale's terminals and settings.
type POSTerminalsView struct {
	DashPage
	ClosingURL             string // the day's closing
	Action, SettingsAction string
	Terminals              []POSTerminalRow
	Cashiers               []POSCashier
	QRMinutes, IdleHours   string
	Notice, Problem        string
}
