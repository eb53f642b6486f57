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

// consoleMessages is the console's catalogue: per language, key → text (a fmt format when
// the text takes arguments). Both languages hold the same keys (TestConsoleCatalogue).
var consoleMessages = map[consoleLang]map[string]string{
	langPtBR: {
		"title":              "Sandbox do gateway PIX",
		"title.signin":       "Sandbox do gateway PIX — entrar",
		"lang.switch":        "Idioma",
		"signin.intro":       "Entre com as credenciais do cliente da API (o cliente precisa do escopo",
		"signin.client_id":   "ID do cliente",
		"signin.secret":      "Segredo do cliente",
		"signin.submit":      "Entrar",
		"signin.wrong":       "ID do cliente ou segredo errado.",
		"signin.throttled":   "Tentativas de entrada demais. Tente de novo em %d segundos.",
		"signin.first":       "Entre primeiro.",
		"client":             "Cliente",
		"now":                "hora do sandbox",
		"signout":            "Sair",
		"clock.advance":      "Avançar o relógio em",
		"clock.seconds":      "segundos",
		"clock.submit":       "Avançar",
		"deposits":           "Depósitos recentes",
		"withdrawals":        "Saques recentes",
		"col.created":        "Criado",
		"col.id":             "Id",
		"col.amount":         "Valor",
		"col.origin":         "Origem",
		"col.status":         "Status",
		"col.controls":       "Controles",
		"col.webhooks":       "Webhooks",
		"withdrawal.new":     "Novo saque de",
		"withdrawal.cents":   "centavos",
		"withdrawal.submit":  "Criar",
		"hooks.none":         "nenhum",
		"hooks.attempts":     "%d tentativa(s)",
		"hooks.next":         "próxima às",
		"hooks.delivered":    "entregue",
		"delivery.pending":   "pendente",
		"delivery.delivered": "entregue",
		"delivery.dead":      "falhou",
		"delivery.skipped":   "ignorado",
		"action.pay":         "pagar",
		"action.fail":        "falhar",
		"action.expire":      "expirar",
		"action.refund":      "estornar",
		"action.infraction":  "infração",
		"action.reject MED":  "rejeitar MED",
		"action.compliance":  "compliance",
		"action.approve":     "aprovar",
		"action.reject":      "rejeitar",
		"error.internal":     "erro interno",
	},
	langEn: {
		"title":              "PIX gateway sandbox",
		"title.signin":       "PIX gateway sandbox — sign in",
		"lang.switch":        "Language",
		"signin.intro":       "Sign in with the API client's credentials (the client needs the",
		"signin.client_id":   "Client ID",
		"signin.secret":      "Client secret",
		"signin.submit":      "Sign in",
		"signin.wrong":       "Wrong client ID or secret.",
		"signin.throttled":   "Too many failed sign-ins. Try again in %d seconds.",
		"signin.first":       "Sign in first.",
		"client":             "Client",
		"now":                "sandbox time",
		"signout":            "Sign out",
		"clock.advance":      "Advance the clock by",
		"clock.seconds":      "seconds",
		"clock.submit":       "Advance",
		"deposits":           "Recent deposits",
		"withdrawals":        "Recent withdrawals",
		"col.created":        "Created",
		"col.id":             "Id",
		"col.amount":         "Amount",
		"col.origin":         "Origin",
		"col.status":         "Status",
		"col.controls":       "Controls",
		"col.webhooks":       "Webhooks",
		"withdrawal.new":     "New withdrawal of",
		"withdrawal.cents":   "cents",
		"withdrawal.submit":  "Create",
		"hooks.none":         "none",
		"hooks.attempts":     "%d attempt(s)",
		"hooks.next":         "next at",
		"hooks.delivered":    "delivered",
		"delivery.pending":   "pending",
		"delivery.delivered": "delivered",
		"delivery.dead":      "dead",
		"delivery.skipped":   "skipped",
		"action.pay":         "pay",
		"action.fail":        "fail",
		"action.expire":      "expire",
		"action.refund":      "refund",
		"action.infraction":  "infraction",
		"action.reject MED":  "reject MED",
		"action.compliance":  "compliance",
		"action.approve":     "approve",
		"action.reject":      "reject",
		"error.internal":     "internal error",
	},
}

// t translates key into l, formatting args into it when given. A key missing from the
// catalogue shows itself (TestConsoleCatalogue keeps that from happening).
func (l consoleLang) t(key string, args ...any) string {
	s, ok := consoleMessages[l][key]
	if !ok {
		s = key
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
