package checkout

import (
	"context"
	"fmt"
	"net/netip"
	"time"

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

// latestCodeOrders is how many of the newest orders GatewayMerchantName looks through.
const latestCodeOrders = 20

// GatewayMerchantName returns the merchant name (field 59) of the newest PIX code the gateway
// returned, and when that code was made. The shopper's bank shows that name: the gateway
// account's holder, which the checkout does not choose (the store's name and the seller sent
// do not change it). name is "" when none of the newest orders has a code that decodes.
func (s *Service) GatewayMerchantName(ctx context.Context) (name string, at time.Time, err error) {
	orders, err := s.store.Orders(ctx, OrderFilter{Limit: latestCodeOrders})
	if err != nil {
		return "", time.Time{}, fmt.Errorf("checkout: the newest PIX code: %w", err)
	}
	var newest *Attempt
	for _, o := range orders {
		for i := range o.Attempts {
			a := &o.Attempts[i]
			if a.BRCode != "" && (newest == nil || a.CreatedAt.After(newest.CreatedAt)) {
				if p, err := brcode.Decode(a.BRCode); err == nil && p.MerchantName != "" {
					newest, name = a, p.MerchantName
				}
			}
		}
	}
	if newest == nil {
		return "", time.Time{}, nil
	}
	return name, newest.CreatedAt, nil
}
