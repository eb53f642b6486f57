package brdoc

import (
	"errors"
	"fmt"
	"strings"
)

// ErrCheckDigitBase is returned by CPFCheckDigits and CNPJCheckDigits for a base of the wrong
// length or with characters outside the document's alphabet.
var ErrCheckDigitBase = errors.New("brdoc: invalid document base")

// OnlyDigits returns the ASCII digits of s, in order, dropping everything else.
func OnlyDigits(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= '0' && c <= '9' {
			if b.Cap() == 0 {
				b.Grow(len(s) - i)
			}
			b.WriteByte(c)
		}
	}
	return b.String()
}

// NormalizeDocument strips the mask characters ".", "/", "-" and ASCII white space from s and
// upper-cases ASCII letters: "12.abc.345/01de-35" becomes "12ABC34501DE35". Other characters
// are kept, so that validation of the result still fails on them.
func NormalizeDocument(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '.' || c == '/' || c == '-' || isSpace(c):
			continue
		case c >= 'a' && c <= 'z':
			b.WriteByte(c - 'a' + 'A')
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// upperAlnum returns c upper-cased and whether it is in [0-9A-Za-z].
func upperAlnum(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9', c >= 'A' && c <= 'Z':
		return c, true
	case c >= 'a' && c <= 'z':
		return c - 'a' + 'A', true
	}
	return 0, false
}

// cpfMask and cnpjMask are the canonical masks; '#' stands for a document character.
const (
	cpfMask  = "###.###.###-##"
	cnpjMask = "##.###.###/####-##"
)

// unmask copies the document characters of s into dst when s is either exactly len(dst)
// characters long or matches mask exactly (separators at their places). Letters are
// upper-cased; whether the characters are allowed is left to the caller.
func unmask(dst []byte, s, mask string) bool {
	switch len(s) {
	case len(dst):
		for i := range dst {
			dst[i] = s[i]
		}
	case len(mask):
		j := 0
		for i := 0; i < len(mask); i++ {
			if mask[i] != '#' {
				if s[i] != mask[i] {
					return false
				}
				continue
			}
			dst[j] = s[i]
			j++
		}
	default:
		return false
	}
	for i, c := range dst {
		if c >= 'a' && c <= 'z' {
			dst[i] = c - 'a' + 'A'
		}
	}
	return true
}

func allEqual(b []byte) bool {
	for _, c := range b[1:] {
		if c != b[0] {
			return false
		}
	}
	return true
}

// cpfDigit computes one CPF check digit over d with weights len(d)+1 down to 2.
func cpfDigit(d []byte) byte {
	sum := 0
	w := len(d) + 1
	for _, c := range d {
		sum += int(c-'0') * w
		w--
	}
	r := sum % 11
	if r < 2 {
		return '0'
	}
	return byte('0' + 11 - r)
}

// cnpjDigit computes one CNPJ check digit over d: value = ASCII code - 48, weights 2..9
// repeating from the right.
func cnpjDigit(d []byte) byte {
	sum := 0
	w := 2
	for i := len(d) - 1; i >= 0; i-- {
		sum += int(d[i]-'0') * w
		w++
		if w > 9 {
			w = 2
		}
	}
	r := sum % 11
	if r < 2 {
		return '0'
	}
	return byte('0' + 11 - r)
}

// ValidCPF reports whether s is a CPF: 11 digits, bare or in the mask "###.###.###-##", whose
// check digits match and whose digits are not all equal.
func ValidCPF(s string) bool {
	var d [11]byte
	if !unmask(d[:], s, cpfMask) {
		return false
	}
	for _, c := range d {
		if !isDigit(c) {
			return false
		}
	}
	if allEqual(d[:]) {
		return false
	}
	return cpfDigit(d[:9]) == d[9] && cpfDigit(d[:10]) == d[10]
}

// CPFCheckDigits returns the two check digits of the 9-digit CPF base base9.
func CPFCheckDigits(base9 string) (string, error) {
	if len(base9) != 9 {
		return "", fmt.Errorf("%w: CPF base must have 9 digits, got %d characters", ErrCheckDigitBase, len(base9))
	}
	var d [11]byte
	for i := 0; i < 9; i++ {
		if !isDigit(base9[i]) {
			return "", fmt.Errorf("%w: CPF base must contain only digits", ErrCheckDigitBase)
		}
		d[i] = base9[i]
	}
	d[9] = cpfDigit(d[:9])
	d[10] = cpfDigit(d[:10])
	return string(d[9:]), nil
}

// FormatCPF writes s in the mask "###.###.###-##". It returns s unchanged when s is not 11
// digits after NormalizeDocument; it does not check the check digits.
func FormatCPF(s string) string {
	n := NormalizeDocument(s)
	if len(n) != 11 {
		return s
	}
	for i := 0; i < len(n); i++ {
		if !isDigit(n[i]) {
			return s
		}
	}
	return applyMask(n, cpfMask)
}

// ValidCNPJ reports whether s is a CNPJ, numeric or alphanumeric: 12 characters in [0-9A-Z]
// (lower case accepted) followed by 2 check digits, bare or in the mask
// "##.###.###/####-##", whose check digits match and whose characters are not all equal.
func ValidCNPJ(s string) bool {
	var d [14]byte
	if !unmask(d[:], s, cnpjMask) {
		return false
	}
	for i, c := range d {
		if i < 12 {
			if _, ok := upperAlnum(c); !ok {
				return false
			}
		} else if !isDigit(c) {
			return false
		}
	}
	if allEqual(d[:]) {
		return false
	}
	return cnpjDigit(d[:12]) == d[12] && cnpjDigit(d[:13]) == d[13]
}

// CNPJCheckDigits returns the two check digits of the 12-character CNPJ base base12, whose
// characters are digits or letters (lower case is read as upper case), per Receita Federal's
// rule for both the numeric and the alphanumeric CNPJ.
func CNPJCheckDigits(base12 string) (string, error) {
	if len(base12) != 12 {
		return "", fmt.Errorf("%w: CNPJ base must have 12 characters, got %d", ErrCheckDigitBase, len(base12))
	}
	var d [14]byte
	for i := 0; i < 12; i++ {
		c, ok := upperAlnum(base12[i])
		if !ok {
			return "", fmt.Errorf("%w: CNPJ base must contain only digits and letters A-Z", ErrCheckDigitBase)
		}
		d[i] = c
	}
	d[12] = cnpjDigit(d[:12])
	d[13] = cnpjDigit(d[:13])
	return string(d[12:]), nil
}

// FormatCNPJ writes s in the mask "##.###.###/####-##" ("12.ABC.345/01DE-35"), letters upper
// case. It returns s unchanged when s is not, after NormalizeDocument, 12 characters in
// [0-9A-Z] followed by 2 digits; it does not check the check digits.
func FormatCNPJ(s string) string {
	n := NormalizeDocument(s)
	if !cnpjShape(n) {
		return s
	}
	return applyMask(n, cnpjMask)
}

// cnpjShape reports whether n (normalised) has the shape of a CNPJ.
func cnpjShape(n string) bool {
	if len(n) != 14 {
		return false
	}
	for i := 0; i < 14; i++ {
		c := n[i]
		if i < 12 && !(isDigit(c) || c >= 'A' && c <= 'Z') || i >= 12 && !isDigit(c) {
			return false
		}
	}
	return true
}

func cpfShape(n string) bool {
	if len(n) != 11 {
		return false
	}
	for i := 0; i < 11; i++ {
		if !isDigit(n[i]) {
			return false
		}
	}
	return true
}

// applyMask places the characters of n at the '#' positions of mask.
func applyMask(n, mask string) string {
	b := make([]byte, len(mask))
	j := 0
	for i := 0; i < len(mask); i++ {
		if mask[i] == '#' {
			b[i] = n[j]
			j++
		} else {
			b[i] = mask[i]
		}
	}
	return string(b)
}

// DocumentKind is the kind of a Brazilian taxpayer document.
type DocumentKind int

// Document kinds. The zero value is DocumentInvalid.
const (
	DocumentInvalid DocumentKind = iota // neither a valid CPF nor a valid CNPJ
	DocumentCPF                         // individual taxpayer (pessoa física)
	DocumentCNPJ                        // company (pessoa jurídica)
)

// String returns "CPF", "CNPJ" or "invalid".
func (k DocumentKind) String() string {
	switch k {
	case DocumentCPF:
		return "CPF"
	case DocumentCNPJ:
		return "CNPJ"
	case DocumentInvalid:
		return "invalid"
	}
	return fmt.Sprintf("DocumentKind(%d)", int(k))
}

// ClassifyDocument tells whether s is a valid CPF, a valid CNPJ, or neither.
func ClassifyDocument(s string) DocumentKind {
	switch {
	case ValidCPF(s):
		return DocumentCPF
	case ValidCNPJ(s):
		return DocumentCNPJ
	}
	return DocumentInvalid
}

// ValidDocument reports whether s is a valid CPF or CNPJ.
func ValidDocument(s string) bool { return ClassifyDocument(s) != DocumentInvalid }

// FormatDocument writes s in the CPF mask when it has the shape of a CPF (11 digits after
// NormalizeDocument) and in the CNPJ mask when it has the shape of a CNPJ; otherwise it
// returns s unchanged.
func FormatDocument(s string) string {
	n := NormalizeDocument(s)
	switch {
	case cpfShape(n):
		return applyMask(n, cpfMask)
	case cnpjShape(n):
		return applyMask(n, cnpjMask)
	}
	return s
}

// MaskDocument hides most of a document, for showing records returned by the gateway:
//
//   - a CPF keeps its 6 middle digits, as Brazilian public records do:
//     "123.456.789-09" becomes "***.456.789-**";
//   - a CNPJ keeps the first 5 characters of its root and its check digits:
//     "12.345.678/0001-95" becomes "12.345.***/****-95".
//
// The shape decides (check digits are not required). A value that already contains "***"
// (masked by the gateway) is returned unchanged, an empty value stays empty, and anything else
// becomes "***", so the result of a non-empty value always contains "***".
func MaskDocument(s string) string {
	if s == "" || strings.Contains(s, "***") {
		return s
	}
	n := NormalizeDocument(s)
	switch {
	case cpfShape(n):
		return "***." + n[3:6] + "." + n[6:9] + "-**"
	case cnpjShape(n):
		return n[0:2] + "." + n[2:5] + ".***/****-" + n[12:14]
	}
	return "***"
}
