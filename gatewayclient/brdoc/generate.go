package brdoc

import "math/rand/v2"

// alnum is the alphabet of the alphanumeric CNPJ base: digits and upper-case letters.
const alnum = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"

// GenerateCPF returns a random valid CPF, 11 digits without mask, drawn from r.
func GenerateCPF(r *rand.Rand) string {
	var d [11]byte
	for {
		for i := 0; i < 9; i++ {
			d[i] = byte('0' + r.IntN(10))
		}
		if !allEqual(d[:9]) {
			break
		}
	}
	d[9] = cpfDigit(d[:9])
	d[10] = cpfDigit(d[:10])
	return string(d[:])
}

// GenerateCNPJ returns a random valid CNPJ of a head office (branch "0001"), 14 characters
// without mask, drawn from r. With alphanumeric, the 8-character root mixes digits and
// upper-case letters and contains at least one letter; otherwise it is all digits.
func GenerateCNPJ(r *rand.Rand, alphanumeric bool) string {
	var d [14]byte
	for {
		letter := false
		for i := 0; i < 8; i++ {
			if alphanumeric {
				d[i] = alnum[r.IntN(len(alnum))]
				letter = letter || !isDigit(d[i])
			} else {
				d[i] = byte('0' + r.IntN(10))
			}
		}
		if alphanumeric && !letter {
			continue
		}
		break
	}
	copy(d[8:12], "0001")
	d[12] = cnpjDigit(d[:12])
	d[13] = cnpjDigit(d[:13])
	return string(d[:])
}
