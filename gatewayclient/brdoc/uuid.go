package brdoc

// isHex reports whether c is a hexadecimal digit, lower or upper case.
func isHex(c byte) bool {
	return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// ValidUUID reports whether s is a UUID in its canonical 36-character form
// (8-4-4-4-12 hex digits, lower or upper case), of any version.
func ValidUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch i {
		case 8, 13, 18, 23:
			if s[i] != '-' {
				return false
			}
		default:
			if !isHex(s[i]) {
				return false
			}
		}
	}
	return true
}

// ValidUUIDv4 reports whether s is a canonical UUID of version 4 (random) with the RFC 9562
// variant: version nibble "4" and variant nibble 8, 9, a or b.
func ValidUUIDv4(s string) bool {
	if !ValidUUID(s) || s[14] != '4' {
		return false
	}
	switch s[19] {
	case '8', '9', 'a', 'b', 'A', 'B':
		return true
	}
	return false
}
