package checkout

import (
	"errors"
	"strings"

	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// ErrNegativeAmount: an amount with a minus sign.
var ErrNegativeAmount = errors.New("must not be negative")

// maxReaisDigits bounds the whole reais of a typed amount: far above the gateway's maximum, far
// below an int64 overflow.
const maxReaisDigits = 15

// ParseReais reads an amount of reais as a merchant types it, into integer cents, without
// floating point: "10" (R$ 10,00), "10,5" and "10.5" (R$ 10,50), "10,50", "1.234,56",
// "1,234.56", "1.234" and "1 234" (R$ 1.234,00), an optional "R$". A single separator followed
// by one or two digits is the decimal one; followed by three digits, or repeated, it groups
// thousands; with both, the last is the decimal one. More than two decimals, misplaced
// groups, signs and anything else are errors.
func ParseReais(s string) (gatewayclient.Cents, error) {
	s = strings.TrimSpace(s)
	s = strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(s, "R$"), "r$"))
	s = strings.ReplaceAll(strings.ReplaceAll(s, "\u00a0", " "), " ", ".") // 1 234,56: a space groups thousands
	if strings.HasPrefix(s, "-") {
		return 0, ErrNegativeAmount
	}
	if s == "" || strings.Trim(s, "0123456789.,") != "" {
		return 0, errors.New("must be an amount in reais such as 10,50")
	}
	whole, frac, err := splitReais(s)
	if err != nil {
		return 0, err
	}
	if len(frac) > 2 {
		return 0, errors.New("must have at most two decimal places (cents)")
	}
	if whole == "" && frac == "" {
		return 0, errors.New("must be an amount in reais such as 10,50")
	}
	whole = strings.TrimLeft(whole, "0")
	if len(whole) > maxReaisDigits {
		return 0, errors.New("is too large")
	}
	return reaisCents(whole, frac), nil
}

// splitReais splits s (digits, dots and commas) into its whole reais, thousands separators
// removed, and its decimal digits.
func splitReais(s string) (whole, frac string, err error) {
	lastDot, lastComma := strings.LastIndexByte(s, '.'), strings.LastIndexByte(s, ',')
	dec := max(lastDot, lastComma)
	switch {
	case lastDot >= 0 && lastComma >= 0:
		// Both: the last is the decimal separator, the other groups thousands.
		whole, frac = s[:dec], s[dec+1:]
		if strings.ContainsAny(frac, ".,") {
			return "", "", errors.New("has its separators out of place")
		}
		if strings.IndexByte(whole, s[dec]) >= 0 {
			return "", "", errors.New("has more than one decimal separator")
		}
		sep := byte('.')
		if s[dec] == '.' {
			sep = ','
		}
		return ungroupReais(whole, sep, frac)
	case dec >= 0 && strings.Count(s, s[dec:dec+1]) == 1 && len(s)-dec-1 != 3:
		return s[:dec], s[dec+1:], nil // one separator, not three digits after: decimals
	case dec >= 0:
		return ungroupReais(s, s[dec], "")
	}
	return s, "", nil
}

// ungroupReais is ungroup for splitReais: whole without its separators sep, and frac.
func ungroupReais(whole string, sep byte, frac string) (string, string, error) {
	whole, ok := ungroup(whole, sep)
	if !ok {
		return "", "", errors.New("has its thousands separators out of place")
	}
	return whole, frac, nil
}

// reaisCents is whole reais and up to two decimal digits in cents; both are digits only.
func reaisCents(whole, frac string) gatewayclient.Cents {
	var c int64
	for i := 0; i < len(whole); i++ {
		c = c*10 + int64(whole[i]-'0')
	}
	c *= 100
	switch len(frac) {
	case 1:
		c += int64(frac[0]-'0') * 10
	case 2:
		c += int64(frac[0]-'0')*10 + int64(frac[1]-'0')
	}
	return gatewayclient.Cents(c)
}

// ungroup removes thousands separators sep from s, checking that they split it into groups of
// three digits after a first group of one to three.
func ungroup(s string, sep byte) (string, bool) {
	parts := strings.Split(s, string(sep))
	if len(parts) == 1 {
		return s, true
	}
	if len(parts[0]) < 1 || len(parts[0]) > 3 {
		return "", false
	}
	for _, p := range parts[1:] {
		if len(p) != 3 {
			return "", false
		}
	}
	return strings.Join(parts, ""), true
}
