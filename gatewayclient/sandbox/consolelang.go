package sandbox

import (
	"fmt"
	"net/http"
	"strings"
)

// The console speaks Brazilian Portuguese by default and English on request, like the
// checkout's pages. It keeps its own small catalogue: the sandbox stands apart from the
// checkout and knows nothing of the app's views. Status values and webhook types stay the
// gateway's own words (they are what the API returns).

// consoleLang is a language of the console, as a BCP 47 tag.
type consoleLang string

// The console's languages; langPtBR is the default.
const (
	langPtBR consoleLang = "pt-BR"
	langEn   consoleLang = "en"
)

// consoleLangs lists the console's languages, the default first.
var consoleLangs = []consoleLang{langPtBR, langEn}

// parseConsoleLang reads a tag such as "en", "en-US", "pt", "pt-br" (case-insensitive).
func parseConsoleLang(tag string) (consoleLang, bool) {
	primary, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(tag)), "-")
	switch primary {
	case "pt":
		return langPtBR, true
	case "en":
		return langEn, true
	}
	return "", false
}

// consoleLangOf is the language of a console request: ?lang= (or a form's lang field) when
// given, which explicit reports so that links and redirects keep it; else the first
// supported language of Accept-Language; else pt-BR.
func consoleLangOf(r *http.Request) (l consoleLang, explicit bool) {
	if l, ok := parseConsoleLang(r.FormValue("lang")); ok {
		return l, true
	}
	for _, part := range strings.Split(r.Header.Get("Accept-Language"), ",") {
		tag, q, _ := strings.Cut(part, ";")
		if strings.TrimSpace(q) == "q=0" {
			continue
		}
		if l, ok := parseConsoleLang(tag); ok {
			return l, false
		}
	}
	return langPtBR, false
}

// consoleText is a text of the console in each of its languages (a fmt format when the text
// takes arguments).
type consoleText struct{ ptBR, en string }

// in is the text in l.
func (c consoleText) in(l consoleLang) string {
	if l == langEn {
		return c.en
	}
	return c.ptBR
}

// consoleMessages is the console's catalogue: key → its text in pt-BR and in English.
var consoleMessages = map[string]consoleText{
	"title":              {"Sandbox do gateway PIX", "PIX gateway sandbox"},
	"title.signin":       {"Sandbox do gateway PIX — entrar", "PIX gateway sandbox — sign in"},
	"lang.switch":        {"Idioma", "Language"},
	"signin.intro":       {"Entre com as credenciais do cliente da API (o cliente precisa do escopo", "Sign in with the API client's credentials (the client needs the"},
	"signin.client_id":   {"ID do cliente", "Client ID"},
	"signin.secret":      {"Segredo do cliente", "Client secret"},
	"signin.submit":      {"Entrar", "Sign in"},
	"signin.wrong":       {"ID do cliente ou segredo errado.", "Wrong client ID or secret."},
	"signin.throttled":   {"Tentativas de entrada demais. Tente de novo em %d segundos.", "Too many failed sign-ins. Try again in %d seconds."},
	"signin.first":       {"Entre primeiro.", "Sign in first."},
	"client":             {"Cliente", "Client"},
	"now":                {"hora do sandbox", "sandbox time"},
	"signout":            {"Sair", "Sign out"},
	"clock.advance":      {"Avançar o relógio em", "Advance the clock by"},
	"clock.seconds":      {"segundos", "seconds"},
	"clock.submit":       {"Avançar", "Advance"},
	"deposits":           {"Depósitos recentes", "Recent deposits"},
	"withdrawals":        {"Saques recentes", "Recent withdrawals"},
	"col.created":        {"Criado", "Created"},
	"col.id":             {"Id", "Id"},
	"col.amount":         {"Valor", "Amount"},
	"col.origin":         {"Origem", "Origin"},
	"col.status":         {"Status", "Status"},
	"col.controls":       {"Controles", "Controls"},
	"col.webhooks":       {"Webhooks", "Webhooks"},
	"withdrawal.new":     {"Novo saque de", "New withdrawal of"},
	"withdrawal.cents":   {"centavos", "cents"},
	"withdrawal.submit":  {"Criar", "Create"},
	"hooks.none":         {"nenhum", "none"},
	"hooks.attempts":     {"%d tentativa(s)", "%d attempt(s)"},
	"hooks.next":         {"próxima às", "next at"},
	"hooks.delivered":    {"entregue", "delivered"},
	"delivery.pending":   {"pendente", "pending"},
	"delivery.delivered": {"entregue", "delivered"},
	"delivery.dead":      {"falhou", "dead"},
	"delivery.skipped":   {"ignorado", "skipped"},
	"action.pay":         {"pagar", "pay"},
	"action.fail":        {"falhar", "fail"},
	"action.expire":      {"expirar", "expire"},
	"action.refund":      {"estornar", "refund"},
	"action.infraction":  {"infração", "infraction"},
	"action.reject MED":  {"rejeitar MED", "reject MED"},
	"action.compliance":  {"compliance", "compliance"},
	"action.approve":     {"aprovar", "approve"},
	"action.reject":      {"rejeitar", "reject"},
	"error.internal":     {"erro interno", "internal error"},
}

// t translates key into l, formatting args into it when given. A key missing from the
// catalogue shows itself (TestConsoleCatalogue keeps that from happening).
func (l consoleLang) t(key string, args ...any) string {
	s := key
	if m, ok := consoleMessages[key]; ok {
		s = m.in(l)
	}
	if len(args) > 0 {
		return fmt.Sprintf(s, args...)
	}
	return s
}

// consoleLocale is a page's language and whether the request chose it, in which case links,
// forms and redirects carry it on.
type consoleLocale struct {
	Lang     consoleLang
	Explicit bool
}

// t translates key into the page's language.
func (lc consoleLocale) t(key string, args ...any) string { return lc.Lang.t(key, args...) }

// back returns the relative URL u, with ?lang= when the language was chosen.
func (lc consoleLocale) back(u string) string {
	if !lc.Explicit {
		return u
	}
	return u + "?lang=" + string(lc.Lang)
}

// langName is how a language calls itself, on the switch.
func langName(l consoleLang) string {
	if l == langEn {
		return "English"
	}
	return "Português"
}
