package app

import (
	"net/netip"
	"testing"

	"github.com/pixcheckout/pixcheckout/web/respond"
)

// The per-peer connection cap (CHECKOUT_CONNS_PER_PEER) spares this machine and the trusted
// proxies, which carry every shopper's connections and enforce the cap per client themselves;
// any other peer is capped, whatever headers it sends.
func TestConnCapSparesTrustedProxies(t *testing.T) {
	t.Parallel()
	proxies, err := respond.ParseProxies("10.0.0.0/8, 192.0.2.7")
	if err != nil {
		t.Fatal(err)
	}
	a := &App{cfg: Config{TrustedProxies: proxies}}
	for addr, want := range map[string]bool{
		"127.0.0.1": true, "::1": true, // this machine
		"10.1.2.3": true, "192.0.2.7": true, // the proxies
		"192.0.2.8": false, "203.0.113.5": false, "2001:db8::1": false, // anyone else
	} {
		if got := a.exemptPeer(netip.MustParseAddr(addr)); got != want {
			t.Errorf("exemptPeer(%s) = %v, want %v", addr, got, want)
		}
	}
	if (&App{}).exemptPeer(netip.MustParseAddr("10.1.2.3")) {
		t.Error("with no trusted proxy, 10.1.2.3 is exempt")
	}
}
