package checkout

import (
	"net/netip"

	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/brcode"
)

// checkBRCode returns why a BR Code must not be shown for an order of amount, or the zero
// Reason. The code
// must decode (structure, CRC, field rules) and, when it carries an amount (field 54), that
// amount must be the order's: the shopper's bank pays what the code says. A dynamic code may
// leave field 54 out, its amount then coming from the payload its URL names, which only the
// payer's bank fetches: such a code is accepted.
func checkBRCode(code string, amount gatewayclient.Cents) Reason {
	p, err := brcode.Decode(code)
	if err != nil {
		return Reason{Code: ReasonBRCodeInvalid, Detail: err.Error()}
	}
	if p.Amount != 0 && p.Amount != int64(amount) {
		return Reason{Code: ReasonBRCodeAmount, Asked: gatewayclient.Cents(p.Amount), Amount: amount}
	}
	return Reason{}
}

// validIP reports whether s is an IPv4 or IPv6 address without zone, as customer.ip requires.
func validIP(s string) bool {
	a, err := netip.ParseAddr(s)
	return err == nil && a.Zone() == ""
}
