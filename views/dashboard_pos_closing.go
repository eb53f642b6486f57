package views

import (
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// ClosingTotals are the figures of a closing as its page shows them (pos.ClosingTotals).
type ClosingTotals struct {
	Count             int
	Paid              checkout.PaidTotal
	Canceled, Expired int
	First, Last       time.Time // zero: no sale
}

// ClosingGroup is the closing of one terminal and cashier: their names, totals and sales.
type ClosingGroup struct {
	Terminal, Cashier string
	ClosingTotals
	Sales []OrderRow
}

// ClosingView is the day's closing ("fechamento de caixa"): the day, terminal and cashier
// chosen, each terminal and cashier's totals and sales, and the day's totals; printable on an
// 80 mm roll or A4 (Paper), exportable as the lists are.
type ClosingView struct {
	DashPage
	Action string // the filter form's GET target
	Day    string // the day chosen, YYYY-MM-DD (São Paulo)
	// Terminal and Cashier are the choices of the filters (the first, "", is every one);
	// Cashiers is empty for a cashier, who sees only its own sales.
	Terminals, Cashiers []Option
	Own                 bool   // a cashier's own sales
	Paper               string // "a4" or "80mm": the printed page's size
	PaperLinks          []PresetLink
	Errors              []string
	Groups              []ClosingGroup
	Total               ClosingTotals
	CSVURL              string
	Exports             MyExports
	PrintedAt           time.Time
}

// Papers are the sizes the closing prints at, as ?paper= names them; the first is the default.
func Papers() []string { return []string{"a4", "80mm"} }

// closingMessages are the texts of the day's closing.
var closingMessages = map[string][2]string{
	"closing.title":        {"Fechamento de caixa", "Cash-register closing"},
	"closing.heading":      {"Fechamento de caixa de %s", "Cash-register closing of %s"},
	"closing.link":         {"Fechamento de caixa", "Cash-register closing"},
	"closing.of":           {"Fechamento de caixa de %s", "Cash-register closing of %s"},
	"closing.own":          {"Somente as suas vendas.", "Your own sales only."},
	"closing.day":          {"Dia", "Day"},
	"closing.terminal":     {"Terminal", "Terminal"},
	"closing.cashier":      {"Operador de caixa", "Cashier"},
	"closing.every":        {"Todos", "All"},
	"closing.show":         {"Mostrar", "Show"},
	"closing.filters":      {"Filtros do fechamento", "Closing filters"},
	"closing.paper":        {"Tamanho da impressão", "Print size"},
	"closing.paper.a4":     {"A4", "A4"},
	"closing.paper.80mm":   {"Bobina 80 mm", "80 mm roll"},
	"closing.print_hint":   {"Para imprimir, use Imprimir do navegador (Ctrl+P).", "To print, use the browser's Print (Ctrl+P)."},
	"closing.total":        {"Total do dia", "Day total"},
	"closing.sales":        {"Vendas", "Sales"},
	"closing.paid":         {"Pagas", "Paid"},
	"closing.paid_amount":  {"Total recebido", "Total received"},
	"closing.canceled":     {"Canceladas", "Canceled"},
	"closing.expired":      {"Expiradas", "Expired"},
	"closing.first":        {"Primeira venda", "First sale"},
	"closing.last":         {"Última venda", "Last sale"},
	"closing.none":         {"Nenhuma venda neste dia.", "No sales on this day."},
	"closing.group":        {"%s — %s", "%s — %s"},
	"closing.caption":      {"Vendas de %s por %s", "Sales at %s by %s"},
	"closing.printed_at":   {"Emitido em %s", "Printed on %s"},
	"closing.not_fiscal":   {"Não é documento fiscal.", "Not a tax document."},
	"closing.err.day":      {"O dia deve ser uma data como 2026-03-01.", "The day must be a date such as 2026-03-01."},
	"closing.err.terminal": {"Terminal desconhecido.", "Unknown terminal."},
	"closing.err.cashier":  {"Operador de caixa desconhecido.", "Unknown cashier."},
	"closing.err.paper":    {"O tamanho da impressão é a4 ou 80mm.", "The print size is a4 or 80mm."},
	"export.kind.closing":  {"Fechamento de caixa", "Cash-register closing"},
	"xlsx.terminal":        {"Terminal", "Terminal"},
	"xlsx.cashier":         {"Operador de caixa", "Cashier"},
}
