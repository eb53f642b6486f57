package outbox

import (
	"net"
	"net/netip"

	"github.com/pixcheckout/pixcheckout/gatewayclient/webhook"
)

// The SSRF guard lives in package webhook, shared with the checkout's merchant notifications:
// these names keep the sandbox's own.

// ErrBlockedAddress is webhook.ErrBlockedAddress.
var ErrBlockedAddress = webhook.ErrBlockedAddress

// GuardedDialer is webhook.GuardedDialer.
func GuardedDialer() *net.Dialer { return webhook.GuardedDialer() }

// CheckAddress is webhook.CheckAddress.
func CheckAddress(addr netip.Addr) error { return webhook.CheckAddress(addr) }
