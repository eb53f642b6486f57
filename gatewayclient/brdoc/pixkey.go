package brdoc

import "strings"

// PixKeyType is the kind of a PIX key in the Central Bank's directory (DICT). Its values are
// the strings the gateway uses.
type PixKeyType string

// PIX key types.
const (
	PixKeyCPF   PixKeyType = "CPF"   // a person's CPF
	PixKeyCNPJ  PixKeyType = "CNPJ"  // a company's CNPJ
	PixKeyEmail PixKeyType = "EMAIL" // an e-mail address
	PixKeyPhone PixKeyType = "PHONE" // a mobile number in E.164, "+55" first
	PixKeyEVP   PixKeyType = "EVP"   // a random key (UUID)
)

// maxPixEmail is DICT's limit on the length of an e-mail key.
const maxPixEmail = 77

// ClassifyPixKey tells the kind of the PIX key s and whether it is valid, following DICT:
//
//   - containing "@": EMAIL, a valid e-mail (ValidEmail) of at most 77 characters;
//   - starting with "+": PHONE, "+55", an area code and a mobile number, with no separators
//     ("+5511987654321"), as DICT stores phone keys;
//   - 36 characters: EVP, a canonical UUID in lower or upper case;
//   - otherwise: CPF or CNPJ, bare or masked (ValidCPF, ValidCNPJ).
//
// Phone keys must carry "+55", so eleven bare digits are always read as a CPF, never as a phone
// number: "11987654321" is valid only if it happens to be a valid CPF. For an invalid key the
// result is ("", false).
func ClassifyPixKey(s string) (PixKeyType, bool) {
	switch {
	case strings.IndexByte(s, '@') >= 0:
		if len(s) <= maxPixEmail && ValidEmail(s) {
			return PixKeyEmail, true
		}
	case strings.HasPrefix(s, "+"):
		if validPixPhone(s) {
			return PixKeyPhone, true
		}
	case len(s) == 36:
		if ValidUUID(s) {
			return PixKeyEVP, true
		}
	default:
		switch ClassifyDocument(s) {
		case DocumentCPF:
			return PixKeyCPF, true
		case DocumentCNPJ:
			return PixKeyCNPJ, true
		}
	}
	return "", false
}

// validPixPhone accepts exactly "+55", a DDD and a mobile number: 14 characters, digits only
// after the "+".
func validPixPhone(s string) bool {
	if len(s) != 14 || s[0] != '+' {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return ValidMobile(s)
}

// ValidPixKey reports whether s is a valid PIX key of any of the five kinds.
func ValidPixKey(s string) bool {
	_, ok := ClassifyPixKey(s)
	return ok
}

// NormalizePixKey returns s in the form DICT stores it, with its kind: CPF and CNPJ without
// mask and with upper-case letters, e-mail and EVP in lower case, a phone as given. It returns
// ("", "", false) when s is not a valid key.
func NormalizePixKey(s string) (string, PixKeyType, bool) {
	t, ok := ClassifyPixKey(s)
	if !ok {
		return "", "", false
	}
	switch t {
	case PixKeyCPF, PixKeyCNPJ:
		return NormalizeDocument(s), t, true
	case PixKeyEmail, PixKeyEVP:
		return strings.ToLower(s), t, true
	}
	return s, t, true
}

// FormatPixKey writes a PIX key for people, by its kind t (the kind ClassifyPixKey tells when t
// is empty): a CPF or CNPJ with its punctuation ("529.982.247-25"), a phone as
// "+55 (11) 98765-4321", an e-mail and a random key as they are. A key that is not a valid key
// of its kind (a masked one, say) is returned unchanged.
func FormatPixKey(key string, t PixKeyType) string {
	kind, ok := ClassifyPixKey(key)
	if !ok || (t != "" && t != kind) {
		return key
	}
	switch kind {
	case PixKeyCPF, PixKeyCNPJ:
		return FormatDocument(key)
	case PixKeyPhone:
		return "+55 " + FormatPhone(key)
	}
	return key
}

// MaskPixKey hides a PIX key that is a document or a phone number (MaskDocument, MaskPhone:
// "***.456.789-**", "+55 (11) *****-4321"); an e-mail or a random key is returned as it is, as
// is a key already masked; what is not a key of a known kind becomes "***". t is its kind when known ("" to classify it).
func MaskPixKey(key string, t PixKeyType) string {
	if key == "" || strings.Contains(key, "*") {
		return key
	}
	kind, ok := ClassifyPixKey(key)
	if t == "" && !ok {
		return "***" // not a key: it might be a document all the same
	}
	if t == "" {
		t = kind
	}
	switch {
	case t == PixKeyCPF || t == PixKeyCNPJ:
		return MaskDocument(key)
	case t == PixKeyPhone && ok:
		return "+55 " + MaskPhone(key)
	case t == PixKeyPhone:
		return MaskPhone(key)
	}
	return key
}
