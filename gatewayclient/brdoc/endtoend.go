package brdoc

import "time"

// EndToEndLength is the length of a PIX end-to-end id.
const EndToEndLength = 32

// ValidEndToEnd reports whether s is a PIX end-to-end id as the Central Bank's PIX rules
// define it: "E" (a payment) or "D" (a devolution), the 8-digit ISPB of the institution that
// started it, the date and time it started (yyyyMMddHHmm, UTC, a real one) and 11 letters or
// digits: 32 characters. The gateway's own rule (8 to 255 characters) is looser; a refund made
// in a bank app and typed back by hand is held to the exact form so that a slip is caught.
func ValidEndToEnd(s string) bool {
	if len(s) != EndToEndLength || (s[0] != 'E' && s[0] != 'D') {
		return false
	}
	for i := 1; i < 21; i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	if _, err := time.Parse("200601021504", s[9:21]); err != nil {
		return false
	}
	for i := 21; i < EndToEndLength; i++ {
		c := s[i]
		if !isDigit(c) && (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') {
			return false
		}
	}
	return true
}
