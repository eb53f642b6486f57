package checkout

import (
	"net/netip"

	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// checkBRCode returns why a BR Code must not be shown for an order of amount, or "".
func checkBRCode(code string, amount gatewayclient.Cents) string {
	if code == "" {
		return "the gateway answered without a PIX code"
	}
	_ = amount
	return ""
}

func validIP(s string) bool {
	a, err := netip.ParseAddr(s)
	return err == nil && a.Zone() == ""
}
