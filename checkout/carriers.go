package checkout

import (
	"net/url"
	"strings"
)

// Carrier is a shipping company the dashboard offers by name when an order ships, and whose
// tracking page, when it has one that takes the code in its address, the order's pages and
// e-mails link to.
type Carrier struct {
	Name string
	// tracking is the tracking page's address with %s where the code goes; "" when the carrier
	// has no public page that takes the code in its address (the code is then shown alone).
	tracking string
}

// carriers are the companies that carry most of Brazil's online parcels. A carrier not among
// them is typed by the merchant as free text ("Outra").
var carriers = []Carrier{
	{Name: "Correios", tracking: "https://rastreamento.correios.com.br/app/index.php?objetos=%s"},
	{Name: "Jadlog"},
	{Name: "Loggi"},
	{Name: "Total Express"},
}

// Carriers lists the carriers offered by name, in the order offered.
func Carriers() []Carrier { return append([]Carrier(nil), carriers...) }

// KnownCarrier returns the carrier of that name (case and spacing aside), if it is one of
// Carriers.
func KnownCarrier(name string) (Carrier, bool) {
	name = strings.Join(strings.Fields(name), " ")
	for _, c := range carriers {
		if strings.EqualFold(c.Name, name) {
			return c, true
		}
	}
	return Carrier{}, false
}

// TrackingURL is the address of the tracking page of code at carrier, or "" when the carrier
// has none known.
func TrackingURL(carrier, code string) string {
	c, ok := KnownCarrier(carrier)
	code = strings.TrimSpace(code)
	if !ok || c.tracking == "" || code == "" {
		return ""
	}
	return strings.Replace(c.tracking, "%s", url.QueryEscape(code), 1)
}
