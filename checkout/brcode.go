package checkout

import (
	"fmt"
	"net/netip"

	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/brcode"
)

// checkBRCode returns why a BR Code must not be shown for an order of amount, or "". The code
// must decode (structure, CRC, field rules) and, when it carries an amount (field 54), that
// amount must be the order's: the shopper's bank pays what the code says. A dynamic code may
// leave field 54 out, its amount then coming from the payload its URL names, which only the
// payer's bank fetches: such a code is accepted.
func checkBRCode(code string, amount gatewayclient.Cents) string {
	p, err := brcode.Decode(code)
	if err != nil {
		return fmt.Sprintf("the PIX code does not decode: %v", err)
	}
	if p.Amount != 0 && p.Amount != int64(amount) {
		return fmt.Sprintf("the PIX code is for %d cents, the order for %d", p.Amount, int64(amount))
	}
	return ""
}

// validIP reports whether s is an IPv4 or IPv6 address without zone, as customer.ip requires.
func validIP(s string) bool {
	a, err := netip.ParseAddr(s)
	return err == nil && a.Zone() == ""
}
