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
	if s == "" {
		return 0, errors.New("must be an amount in reais such as 10,50")
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && c != '.' && c != ',' {
			return 0, errors.New("must be an amount in reais such as 10,50")
		}
	}
	whole, frac := s, ""
	lastDot, lastComma := strings.LastIndexByte(s, '.'), strings.LastIndexByte(s, ',')
	dec := max(lastDot, lastComma)
	switch {
	case lastDot >= 0 && lastComma >= 0:
		// Both: the last is the decimal separator, the other groups thousands.
		whole, frac = s[:dec], s[dec+1:]
		if strings.ContainsAny(frac, ".,") {
			return 0, errors.New("has its separators out of place")
		}
		sep := byte('.')
		if s[dec] == '.' {
			sep = ','
		}
		if strings.IndexByte(whole, s[dec]) >= 0 {
			return 0, errors.New("has more than one decimal separator")
		}
		var ok bool
		if whole, ok = ungroup(whole, sep); !ok {
			return 0, errors.New("has its thousands separators out of place")
		}
	case dec >= 0:
		sep := s[dec]
		if strings.Count(s, string(sep)) == 1 && len(s)-dec-1 != 3 {
			whole, frac = s[:dec], s[dec+1:] // one separator, not three digits after: decimals
		} else {
			var ok bool
			if whole, ok = ungroup(s, sep); !ok {
				return 0, errors.New("has its thousands separators out of place")
			}
		}
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
	return gatewayclient.Cents(c), nil
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
