package views

import "strings"

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

// String returns the tag, for the lang attribute.
func (l Lang) String() string { return string(l) }

// norm returns l, or PtBR when l is not a supported language.
func (l Lang) norm() Lang {
	if l == En {
		return En
	}
	return PtBR
}
