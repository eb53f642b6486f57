package brand

import (
	"regexp"
	"strings"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// The parts of an address written as Brazilians write it: a CEP, a state's abbreviation after
// the city, a number after the street.
var (
	cepPattern    = regexp.MustCompile(`(?i)(?:CEP:?\s*)?\b(\d{5})-?(\d{3})\b`)
	statePattern  = regexp.MustCompile(`^(.*?)\s*(?:-|/|,)\s*([A-Za-z]{2})$`)
	numberPattern = regexp.MustCompile(`^(?i:n[º°o.]?\s*)?(\d{1,10})$`)
	addressSplit  = regexp.MustCompile(`\s*(?:,|\s-\s|\n)\s*`)
)

// CounterAddress reads the store's address (one free text) as the gateway's structured address,
// for the sales handed over at the counter: written as "Rua, número[, complemento] - bairro,
// cidade - UF, CEP" (line breaks may stand for the commas). It is nil when a part is missing:
// the gateway then refuses a physical sale, asking for the address, which the point of sale
// says.
func (p Profile) CounterAddress() *checkout.Address {
	text := strings.ReplaceAll(strings.TrimSpace(p.Address), "\r", "")
	m := cepPattern.FindAllStringSubmatchIndex(text, -1)
	if len(m) == 0 {
		return nil
	}
	last := m[len(m)-1]
	a := checkout.Address{ZipCode: text[last[2]:last[3]] + "-" + text[last[4]:last[5]], Country: checkout.DefaultCountry}
	text = strings.Trim(text[:last[0]]+text[last[1]:], " ,-\n")
	parts := addressSplit.Split(text, -1)
	if len(parts) < 4 {
		return nil
	}
	// The last part is "cidade - UF" (or "cidade/UF"), unless the split cut it in two.
	if s := statePattern.FindStringSubmatch(parts[len(parts)-1]); s != nil && s[1] != "" {
		a.City, a.State, parts = s[1], strings.ToUpper(s[2]), parts[:len(parts)-1]
	} else if len(parts[len(parts)-1]) == 2 {
		a.State, a.City, parts = strings.ToUpper(parts[len(parts)-1]), parts[len(parts)-2], parts[:len(parts)-2]
	} else {
		return nil
	}
	if len(parts) < 3 {
		return nil
	}
	n := numberPattern.FindStringSubmatch(parts[1])
	if n == nil {
		return nil
	}
	a.Street, a.Number, a.Neighborhood = parts[0], n[1], parts[len(parts)-1]
	a.Complement = strings.Join(parts[2:len(parts)-1], ", ")
	return &a
}
