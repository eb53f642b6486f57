package views

// PosDisplayView is the customer's display of the point of sale (/pos/display), paired with a
// terminal: the store's logo while idle, the amount and the QR code of the sale being charged,
// the confirmation once paid. Its script (display.js) follows the terminal's stream and swaps
// the state it is given (PosDisplayState) without reloading.
type PosDisplayView struct {
	Page
	State PosDisplayState
	// Events and StatusURL are the terminal's stream and its polling fallback.
	Events, StatusURL string
}

// PosDisplayState is what a display shows, as the page draws it and as its stream sends it.
type PosDisplayState struct {
	State     string `json:"state"` // pos.ShowIdle, pos.ShowCharging or pos.ShowPaid
	OrderID   string `json:"orderId,omitempty"`
	Amount    string `json:"amount,omitempty"` // formatted in the page's language
	QR        string `json:"qr,omitempty"`     // the QR image's URL ("" while it is being made)
	Status    string `json:"status"`           // the sentence read out (aria-live)
	PaidAt    string `json:"paidAt,omitempty"` // the time paid, São Paulo, "15:04"
	EndToEnd  string `json:"endToEnd,omitempty"`
	ExpiresAt string `json:"expiresAt,omitempty"`
}

// PosPairView is a display's pairing form: the 6-digit code shown at a terminal.
type PosPairView struct {
	Page
	Action string
	Code   string
	// Error says why the code was refused ("bad": unknown, expired or used; "throttled": too
	// many tries from this address); "" none.
	Error string
	// Retry is how many seconds to wait, when throttled.
	Retry int
}

// errorText says why a code was refused.
func (v PosPairView) errorText() string {
	if v.Error == "throttled" {
		return v.t("posdisplay.throttled", v.Retry)
	}
	return v.t("posdisplay.bad_code")
}

// posDisplayMessages are the texts of the customer's display.
var posDisplayMessages = map[string][2]string{
	"posdisplay.title":      {"Tela do cliente", "Customer display"},
	"posdisplay.pair_title": {"Parear esta tela com um caixa", "Pair this screen with a till"},
	"posdisplay.pair_hint": {"No caixa, toque em “Tela do cliente” para ver um código de 6 dígitos (vale 10 minutos) e digite-o aqui.",
		"At the till, tap “Customer display” to see a 6-digit code (valid for 10 minutes) and type it here."},
	"posdisplay.code":      {"Código de pareamento", "Pairing code"},
	"posdisplay.pair":      {"Parear", "Pair"},
	"posdisplay.bad_code":  {"Código desconhecido, expirado ou já usado. Peça um novo no caixa.", "Unknown, expired or used code. Ask the till for a new one."},
	"posdisplay.throttled": {"Muitas tentativas deste endereço. Tente de novo em %d s.", "Too many tries from this address. Try again in %d s."},
	"posdisplay.idle":      {"Aguardando a próxima venda", "Waiting for the next sale"},
	"posdisplay.charging":  {"Pague %s com Pix: aponte a câmera do app do seu banco para o QR code.", "Pay %s with PIX: point your bank app's camera at the QR code."},
	"posdisplay.to_pay":    {"Total a pagar", "Total to pay"},
	"posdisplay.making_qr": {"Gerando o QR code…", "Making the QR code…"},
	"posdisplay.qr_alt":    {"QR code Pix da venda", "The sale's PIX QR code"},
	"posdisplay.paid":      {"Pagamento recebido. Obrigado!", "Payment received. Thank you!"},
	"posdisplay.paid_at":   {"Pago às %s", "Paid at %s"},
	"posdisplay.e2e":       {"Identificador: %s", "Identifier: %s"},
	"posdisplay.offline":   {"Sem conexão com o servidor. Tentando de novo…", "No connection to the server. Trying again…"},
}
