package brdoc

import "strings"

// Length limits of an e-mail address (RFC 5321 section 4.5.3.1, with the 254-character
// path limit of its errata applied to the address).
const (
	maxEmail      = 254
	maxEmailLocal = 64
	maxLabel      = 63
	maxDomain     = 253
)

// ValidEmail reports whether s is an e-mail address in a practical subset of RFC 5322:
// local@domain.tld, no spaces, at most 254 characters; the local part is 1 to 64 characters,
// RFC 5322 atoms separated by single dots; the domain has at least two labels of letters,
// digits and inner hyphens (1 to 63 characters each) and its last label is at least 2 letters
// (or an internationalised "xn--" label).
func ValidEmail(s string) bool {
	if len(s) > maxEmail {
		return false
	}
	at := strings.IndexByte(s, '@')
	if at < 0 {
		return false
	}
	return validLocal(s[:at]) && validDomain(s[at+1:])
}

// isAtext reports whether c may appear in an RFC 5322 atom.
func isAtext(c byte) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', isDigit(c):
		return true
	}
	return strings.IndexByte("!#$%&'*+/=?^_`{|}~-", c) >= 0
}

func validLocal(l string) bool {
	if len(l) == 0 || len(l) > maxEmailLocal || l[0] == '.' || l[len(l)-1] == '.' {
		return false
	}
	for i := 0; i < len(l); i++ {
		c := l[i]
		if c == '.' {
			if l[i-1] == '.' {
				return false
			}
			continue
		}
		if !isAtext(c) {
			return false
		}
	}
	return true
}

func validDomain(d string) bool {
	if len(d) == 0 || len(d) > maxDomain {
		return false
	}
	labels := 0
	for {
		label, rest, more := strings.Cut(d, ".")
		if !validLabel(label) {
			return false
		}
		labels++
		if !more {
			return labels >= 2 && validTLD(label)
		}
		d = rest
	}
}

func validLabel(l string) bool {
	if len(l) == 0 || len(l) > maxLabel || l[0] == '-' || l[len(l)-1] == '-' {
		return false
	}
	for i := 0; i < len(l); i++ {
		c := l[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || isDigit(c) || c == '-') {
			return false
		}
	}
	return true
}

// validTLD accepts a label of 2 or more letters, or an IDN label ("xn--p1ai").
func validTLD(l string) bool {
	if len(l) > 4 && strings.EqualFold(l[:4], "xn--") {
		return true // validLabel already checked the characters
	}
	if len(l) < 2 {
		return false
	}
	for i := 0; i < len(l); i++ {
		if c := l[i]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}
