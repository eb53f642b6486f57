package views

import (
	"sort"
	"strconv"
	"strings"
)

// Lang is a language the pages speak, as a BCP 47 tag ("pt-BR", "en").
type Lang string

// The languages of the pages. PtBR is the default.
const (
	PtBR Lang = "pt-BR"
	En   Lang = "en"
)

// Langs lists the supported languages, the default first.
func Langs() []Lang { return []Lang{PtBR, En} }

// ParseLang reads a language tag such as "en", "en-US", "pt", "pt-br" (case-insensitive) and
// returns the supported language it names.
func ParseLang(tag string) (Lang, bool) {
	tag = strings.ToLower(strings.TrimSpace(tag))
	primary, _, _ := strings.Cut(strings.ReplaceAll(tag, "_", "-"), "-")
	switch primary {
	case "pt":
		return PtBR, true
	case "en":
		return En, true
	}
	return "", false
}

// NegotiateLang picks the language of a page: the ?lang= query value when it names a supported
// language, else the best supported language of an Accept-Language header, else PtBR.
func NegotiateLang(query, acceptLanguage string) Lang {
	if l, ok := ParseLang(query); ok && query != "" {
		return l
	}
	type choice struct {
		lang Lang
		q    float64
	}
	var choices []choice
	for _, part := range strings.Split(acceptLanguage, ",") {
		tag, params, _ := strings.Cut(part, ";")
		l, ok := ParseLang(tag)
		if !ok {
			continue
		}
		q := 1.0
		if v, found := strings.CutPrefix(strings.ReplaceAll(strings.TrimSpace(params), " ", ""), "q="); found {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				continue
			}
			q = f
		}
		if q > 0 {
			choices = append(choices, choice{l, q})
		}
	}
	if len(choices) == 0 {
		return PtBR
	}
	sort.SliceStable(choices, func(a, b int) bool { return choices[a].q > choices[b].q })
	return choices[0].lang
}

// String returns the tag, for the lang attribute.
func (l Lang) String() string { return string(l) }

// norm returns l, or PtBR when l is not a supported language.
func (l Lang) norm() Lang {
	if l == En {
		return En
	}
	return PtBR
}
