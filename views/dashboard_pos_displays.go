package views

import "strings"

// PosDisplayCodeView is the pairing code shown at a terminal: typed on the customer's display
// (DisplayURL) within ten minutes, once.
type PosDisplayCodeView struct {
	DashPage
	Terminal   string
	Code       string
	Expires    string // the time it expires, São Paulo, "15:04"
	DisplayURL string
	BackURL    string
}

// PosDisplaysView is the owners' list of the customers' displays, each revocable, and the
// terminals whose pairing code they may show.
type PosDisplaysView struct {
	DashPage
	Displays  []PosDisplayRow
	Terminals []PosTerminalOption
	// CodeAction is where a terminal's pairing code is asked for.
	CodeAction string
	DisplayURL string // the address a display opens
	Done       string // "revoked" after a revocation
}

// PosDisplayRow is one display of the list.
type PosDisplayRow struct {
	ID, Terminal, Paired, Revoked string // Revoked "" while active
	RevokeAction                  string
}

// PosTerminalOption is a terminal to choose.
type PosTerminalOption struct{ ID, Name string }

// dashPosDisplayMessages are the texts of the dashboard's pages of the customers' displays.
var dashPosDisplayMessages = map[string][2]string{
	"posdisplays.title":      {"Telas do cliente", "Customer displays"},
	"posdisplays.intro":      {"Uma tela do cliente (um tablet ou a TV da loja) mostra ao cliente o valor e o QR code da venda do caixa com que foi pareada, e a confirmação do pagamento. Abra %s nela e digite o código de pareamento do caixa.", "A customer display (a tablet or the shop's TV) shows the customer the amount and QR code of the sale at the till it was paired with, and the payment's confirmation. Open %s on it and type the till's pairing code."},
	"posdisplays.pair":       {"Mostrar código de pareamento", "Show a pairing code"},
	"posdisplays.terminal":   {"Caixa", "Till"},
	"posdisplays.list":       {"Telas pareadas", "Paired displays"},
	"posdisplays.none":       {"Nenhuma tela pareada ainda.", "No display paired yet."},
	"posdisplays.paired":     {"Pareada em", "Paired on"},
	"posdisplays.state":      {"Situação", "State"},
	"posdisplays.active":     {"Ativa", "Active"},
	"posdisplays.revoked":    {"Revogada em %s", "Revoked on %s"},
	"posdisplays.revoke":     {"Revogar", "Revoke"},
	"posdisplays.revoke_of":  {"Revogar a tela pareada em %s com %s", "Revoke the display paired on %s with %s"},
	"posdisplays.done":       {"Tela revogada: ela volta a pedir um código.", "Display revoked: it asks for a code again."},
	"posdisplays.code_title": {"Código de pareamento", "Pairing code"},
	"posdisplays.code_for":   {"Para parear uma tela do cliente com %s, abra %s nela e digite:", "To pair a customer display with %s, open %s on it and type:"},
	"posdisplays.code_until": {"Vale uma vez, até %s.", "Valid once, until %s."},
	"posdisplays.back":       {"Voltar ao caixa", "Back to the till"},
}

// spacedDigits spells a code digit by digit, for screen readers.
func spacedDigits(code string) string {
	out := make([]byte, 0, 2*len(code))
	for i := 0; i < len(code); i++ {
		if i > 0 {
			out = append(out, ' ')
		}
		out = append(out, code[i])
	}
	return string(out)
}

// dashLink is a dashboard path (below its root) with the page's query (its language) kept.
func dashLink(p DashPage, path string) string {
	home, query, _ := strings.Cut(p.HomeURL, "?")
	if query != "" {
		return home + path + "?" + query
	}
	return home + path
}
