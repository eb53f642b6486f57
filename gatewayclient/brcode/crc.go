package brcode

// CRC16 returns the CRC16-CCITT-FALSE checksum of data (polynomial 0x1021, initial value
// 0xFFFF, no reflection, no final XOR), the checksum of field 63 of a BR Code. It is computed
// over the whole payload up to and including "6304", the ID and length of field 63.
func CRC16(data []byte) uint16 {
	return crc16(data)
}

// crc16 is generic so that Decode can check a string without copying it into a []byte. It
// works a nibble at a time with a 16-entry table of the polynomial 0x1021 kept local, so the
// package holds no table as mutable state.
func crc16[T string | []byte](data T) uint16 {
	nibble := [16]uint16{
		0x0000, 0x1021, 0x2042, 0x3063, 0x4084, 0x50A5, 0x60C6, 0x70E7,
		0x8108, 0x9129, 0xA14A, 0xB16B, 0xC18C, 0xD1AD, 0xE1CE, 0xF1EF,
	}
	crc := uint16(0xFFFF)
	for i := 0; i < len(data); i++ {
		crc ^= uint16(data[i]) << 8
		crc = crc<<4 ^ nibble[crc>>12]
		crc = crc<<4 ^ nibble[crc>>12]
	}
	return crc
}

const hexDigits = "0123456789ABCDEF"

// appendCRC appends crc as four upper-case hexadecimal digits.
func appendCRC(b []byte, crc uint16) []byte {
	return append(b, hexDigits[crc>>12], hexDigits[crc>>8&0xF], hexDigits[crc>>4&0xF], hexDigits[crc&0xF])
}

// parseCRC reads four hexadecimal digits of either case.
func parseCRC(s string) (uint16, bool) {
	if len(s) != 4 {
		return 0, false
	}
	var v uint16
	for i := 0; i < 4; i++ {
		c := s[i]
		var d byte
		switch {
		case '0' <= c && c <= '9':
			d = c - '0'
		case 'A' <= c && c <= 'F':
			d = c - 'A' + 10
		case 'a' <= c && c <= 'f':
			d = c - 'a' + 10
		default:
			return 0, false
		}
		v = v<<4 | uint16(d)
	}
	return v, true
}
