package brdoc

import "strings"

// dddOK reports whether the digits a and b form one of ANATEL's area codes (DDD). A switch
// rather than a table keeps the package free of package-level variables.
func dddOK(a, b byte) bool {
	switch int(a-'0')*10 + int(b-'0') {
	case 11, 12, 13, 14, 15, 16, 17, 18, 19,
		21, 22, 24, 27, 28,
		31, 32, 33, 34, 35, 37, 38,
		41, 42, 43, 44, 45, 46, 47, 48, 49,
		51, 53, 54, 55,
		61, 62, 63, 64, 65, 66, 67, 68, 69,
		71, 73, 74, 75, 77, 79,
		81, 82, 83, 84, 85, 86, 87, 88, 89,
		91, 92, 93, 94, 95, 96, 97, 98, 99:
		return true
	}
	return false
}

// ValidDDD reports whether ddd is one of ANATEL's 67 two-digit area codes.
func ValidDDD(ddd string) bool {
	return len(ddd) == 2 && isDigit(ddd[0]) && isDigit(ddd[1]) && dddOK(ddd[0], ddd[1])
}

// PhoneKind is the kind of a Brazilian phone number.
type PhoneKind int

// Phone kinds. The zero value is PhoneInvalid.
const (
	PhoneInvalid  PhoneKind = iota // not a Brazilian phone number
	PhoneMobile                    // DDD + 9 + 8 digits
	PhoneLandline                  // DDD + 8 digits starting with 2 to 5
)

// String returns "mobile", "landline" or "invalid".
func (k PhoneKind) String() string {
	switch k {
	case PhoneMobile:
		return "mobile"
	case PhoneLandline:
		return "landline"
	}
	return "invalid"
}

// phone is a parsed national number: DDD then subscriber number, at most 11 digits.
type phone struct {
	d [11]byte
	n int
}

// parsePhone reads s, ignoring spaces, dots, dashes and parentheses, with an optional country
// code ("+55" or "55"), and classifies the national number.
func parsePhone(s string) (phone, PhoneKind) {
	var p phone
	var all [13]byte
	n, plus, ok := phoneDigits(s, &all)
	if !ok {
		return p, PhoneInvalid
	}
	digits, ok := nationalDigits(all[:n], plus)
	if !ok {
		return p, PhoneInvalid
	}
	p.n = copy(p.d[:], digits)
	if !dddOK(digits[0], digits[1]) {
		return p, PhoneInvalid
	}
	switch {
	case len(digits) == 11 && digits[2] == '9':
		return p, PhoneMobile
	case len(digits) == 10 && digits[2] >= '2' && digits[2] <= '5':
		return p, PhoneLandline
	}
	return p, PhoneInvalid
}

// phoneDigits copies the digits of s into all, skipping the mask's spaces, dots, dashes and
// parentheses; plus tells whether a "+" came before them. It fails on any other character.
func phoneDigits(s string, all *[13]byte) (n int, plus, ok bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case isDigit(c):
			if n == len(all) {
				return 0, false, false
			}
			all[n] = c
			n++
		case c == '+':
			if n > 0 || plus {
				return 0, false, false
			}
			plus = true
		case c == ' ' || c == '-' || c == '.' || c == '(' || c == ')':
		default:
			return 0, false, false
		}
	}
	return n, plus, true
}

// nationalDigits is digits without Brazil's country code 55, which "+" announces; it fails
// unless 10 (landline) or 11 (mobile) digits remain.
func nationalDigits(digits []byte, plus bool) ([]byte, bool) {
	// Without "+" a country code is recognised by the length alone: a national number has
	// 10 (landline) or 11 (mobile) digits.
	if plus || len(digits) == 12 || len(digits) == 13 {
		if len(digits) < 2 || digits[0] != '5' || digits[1] != '5' {
			return nil, false
		}
		digits = digits[2:]
	}
	return digits, len(digits) == 10 || len(digits) == 11
}

// ClassifyPhone tells whether s is a Brazilian mobile, a landline, or neither. It accepts the
// same masks as ValidMobile.
func ClassifyPhone(s string) PhoneKind {
	_, k := parsePhone(s)
	return k
}

// ValidMobile reports whether s is a Brazilian mobile number: an optional country code ("+55"
// or "55"), an ANATEL area code, then 9 and 8 more digits. Spaces, dots, dashes and
// parentheses are ignored: "(11) 98765-4321", "+55 11 98765-4321" and "11987654321" are valid.
func ValidMobile(s string) bool { return ClassifyPhone(s) == PhoneMobile }

// ValidLandline reports whether s is a Brazilian landline number: an optional country code, an
// ANATEL area code, then 8 digits whose first is 2 to 5. It accepts the masks of ValidMobile.
func ValidLandline(s string) bool { return ClassifyPhone(s) == PhoneLandline }

// NormalizePhone returns a valid mobile or landline number in E.164 ("+5511987654321"), and ""
// when s is neither.
func NormalizePhone(s string) string {
	p, k := parsePhone(s)
	if k == PhoneInvalid {
		return ""
	}
	return "+55" + string(p.d[:p.n])
}

// FormatPhone writes a valid mobile as "(11) 98765-4321" and a valid landline as
// "(11) 3456-7890", without country code. It returns s unchanged when s is neither.
func FormatPhone(s string) string {
	p, k := parsePhone(s)
	d := p.d[:p.n]
	switch k {
	case PhoneMobile:
		return "(" + string(d[:2]) + ") " + string(d[2:7]) + "-" + string(d[7:])
	case PhoneLandline:
		return "(" + string(d[:2]) + ") " + string(d[2:6]) + "-" + string(d[6:])
	}
	return s
}

// MaskPhone hides a phone number but its area code and last four digits, for showing it to
// those who need not see it whole: a mobile "(11) 98765-4321" becomes "(11) *****-4321", a
// landline "(11) 3456-7890" becomes "(11) ****-7890". As MaskDocument, a value that already
// contains "*" is returned unchanged, an empty value stays empty, and anything else becomes
// "***", so the result of a non-empty value never holds the number.
func MaskPhone(s string) string {
	if s == "" || strings.Contains(s, "*") {
		return s
	}
	p, k := parsePhone(s)
	d := p.d[:p.n]
	switch k {
	case PhoneMobile:
		return "(" + string(d[:2]) + ") *****-" + string(d[7:])
	case PhoneLandline:
		return "(" + string(d[:2]) + ") ****-" + string(d[6:])
	}
	return "***"
}
