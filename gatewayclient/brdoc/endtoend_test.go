package brdoc

import "testing"

func TestValidEndToEnd(t *testing.T) {
	for s, want := range map[string]bool{
		"E12345678202603141530abcDEF12345":  true,
		"D00000000202612312359ZZZZZZZZZZZ":  true,
		"e12345678202603141530abcDEF12345":  false, // lower-case prefix
		"X12345678202603141530abcDEF12345":  false, // neither payment nor devolution
		"E1234567820260314153abcDEF12345":   false, // 31 characters
		"E12345678202603141530abcDEF123456": false, // 33
		"E1234567X202603141530abcDEF12345":  false, // ISPB not digits
		"E12345678202613141530abcDEF12345":  false, // month 13
		"E12345678202603141560abcDEF12345":  false, // minute 60
		"E12345678202603141530abcDEF1234-":  false, // not alphanumeric
		"":                                  false,
	} {
		if got := ValidEndToEnd(s); got != want {
			t.Errorf("ValidEndToEnd(%q) = %v, want %v", s, got, want)
		}
	}
}
