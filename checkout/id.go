package checkout

import (
	"crypto/rand"
	"encoding/base32"
	"strings"
)

// idEncoding is base32 lower-case without padding: URL-safe and case-insensitive.
var idEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// NewID returns 128 random bits from crypto/rand, base32 lower-case without padding (26
// characters). Ids of carts and orders are unguessable: knowing one is the shopper's only
// credential for them.
func NewID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never returns an error (it crashes the program instead)
	return idEncoding.EncodeToString(b[:])
}

// numberAlphabet is Crockford's base32 alphabet: no I, L, O or U, so a number read aloud or
// typed by hand is not mistaken.
const numberAlphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// numberLength is the count of random characters of an order number: 40 bits, so that a
// collision (refused by the store's unique index) stays improbable for millions of orders.
const numberLength = 8

// IsOrderNumber reports whether s, case aside, is a whole order number as newOrderNumber makes
// them ("PX-" and numberLength characters of numberAlphabet).
func IsOrderNumber(s string) bool {
	s = strings.ToUpper(s)
	if len(s) != 3+numberLength || !strings.HasPrefix(s, "PX-") {
		return false
	}
	for _, c := range s[3:] {
		if !strings.ContainsRune(numberAlphabet, c) {
			return false
		}
	}
	return true
}

// newOrderNumber returns a short human order number such as "PX-7K3M9QZ2".
func newOrderNumber() string {
	var b [numberLength]byte
	_, _ = rand.Read(b[:])
	var sb strings.Builder
	sb.WriteString("PX-")
	for _, c := range b {
		sb.WriteByte(numberAlphabet[c&31])
	}
	return sb.String()
}
