package brdoc

// ValidCEP reports whether s is a CEP (Brazilian postal code): exactly 8 digits, bare
// ("01310100") or masked ("01310-100"), not all zeros.
func ValidCEP(s string) bool {
	var d [8]byte
	switch len(s) {
	case 8:
		copy(d[:], s)
	case 9:
		if s[5] != '-' {
			return false
		}
		copy(d[:5], s[:5])
		copy(d[5:], s[6:])
	default:
		return false
	}
	zeros := true
	for _, c := range d {
		if !isDigit(c) {
			return false
		}
		if c != '0' {
			zeros = false
		}
	}
	return !zeros
}

// FormatCEP writes s as "#####-###" ("01310-100"). It returns s unchanged when s is not 8
// digits after NormalizeDocument.
func FormatCEP(s string) string {
	n := NormalizeDocument(s)
	if len(n) != 8 {
		return s
	}
	for i := 0; i < len(n); i++ {
		if !isDigit(n[i]) {
			return s
		}
	}
	return n[:5] + "-" + n[5:]
}
