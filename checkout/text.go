package checkout

import (
	"fmt"
	"unicode/utf8"
)

// CodeText is the code of a violation of the text rule (CheckText).
const CodeText = "text"

// CheckText applies the rule every text the checkout takes follows, wherever it comes from
// (the merchant API, the shopper's form, the dashboard's forms, the commands): valid UTF-8,
// and none of the characters that no order can store or that disguise what a text says:
//
//   - control characters, C0 (U+0000 to U+001F, newlines and tabs included), DEL and C1
//     (U+007F to U+009F): PostgreSQL refuses NUL in a text, and the others end up in the
//     gateway's records, the bank app, CSV exports and logs;
//   - the invisible marks that change the direction of what follows (U+061C, U+200E, U+200F,
//     the embeddings and overrides U+202A to U+202E, the isolates U+2066 to U+2069): U+202E
//     shows "gpj.exe" as "exe.jpg" (the "Trojan Source" trick);
//   - the line and paragraph separators U+2028 and U+2029, newlines by another name.
//
// No text of the checkout takes several lines: the one textarea, the dashboard's framing
// origins, is split into lines before each origin is checked. It returns nil, or an error
// that names the first character refused (by its code point, as it may be invisible).
func CheckText(s string) error {
	if !utf8.ValidString(s) {
		return fmt.Errorf("must be valid UTF-8")
	}
	for _, r := range s {
		switch {
		case r < 0x20 || r >= 0x7f && r <= 0x9f:
			return fmt.Errorf("must not hold control characters (it holds U+%04X)", r)
		case r == 0x061c || r == 0x200e || r == 0x200f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069:
			return fmt.Errorf("must not hold invisible text-direction marks (it holds U+%04X)", r)
		case r == 0x2028 || r == 0x2029:
			return fmt.Errorf("must not hold line breaks (it holds U+%04X)", r)
		}
	}
	return nil
}

// CheckParams applies the text rule (CheckText) to every name and value of the parameters of
// a request's query string, which lists and searches pass on to the store: a NUL that would
// make PostgreSQL fail is refused in words on either store. It returns nil, or a
// *ValidationError naming each parameter that breaks the rule.
func CheckParams(params map[string][]string) error {
	var fe ValidationError
	for name, values := range params {
		for _, v := range append([]string{name}, values...) {
			if err := CheckText(v); err != nil && !fe.Has(name) {
				field := name
				if !utf8.ValidString(field) || CheckText(field) != nil {
					field = fmt.Sprintf("%q", name)
				}
				fe.Add(field, CodeText, err.Error())
			}
		}
	}
	return fe.Err()
}

// textField is one text of an input to check with CheckText: the field its violation names
// and its value.
type textField struct {
	field, value string
}

// checkTexts adds to fe a CodeText violation for each text that breaks the rule. It runs before
// the other rules, so that a field's first violation, the one shown, is this one.
func checkTexts(fe *ValidationError, texts ...textField) {
	for _, t := range texts {
		if err := CheckText(t.value); err != nil && !fe.Has(t.field) {
			fe.Add(t.field, CodeText, err.Error())
		}
	}
}
