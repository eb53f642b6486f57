package webhook

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"syscall"
	"time"
)

// ErrBlockedAddress is returned (wrapped in the dial error, so errors.Is finds it) when a
// webhook destination resolves to an address a sender must not reach: loopback, private,
// link-local, unspecified, multicast, shared (CGNAT) or another special-purpose range.
var ErrBlockedAddress = errors.New("webhook: destination address not allowed")

// GuardedDialer returns a dialer that refuses blocked addresses (see CheckAddress). The check
// runs in Control, on the IP actually being connected to after DNS resolution, so neither a
// hostname pointing at 127.0.0.1 nor DNS rebinding gets past it.
func GuardedDialer() *net.Dialer {
	return &net.Dialer{
		Timeout:   5 * time.Second,
		KeepAlive: 30 * time.Second,
		Control:   guardControl,
	}
}

// guardControl is the dialer's Control: address is the resolved "ip:port" about to be
// connected to.
func guardControl(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		// Fail closed: an address we cannot read is an address we do not dial.
		return fmt.Errorf("%w: cannot parse %q", ErrBlockedAddress, address)
	}
	return CheckAddress(ap.Addr())
}

// CheckAddress returns an error wrapping ErrBlockedAddress when addr must not be reached by
// a webhook delivery, and nil for a public unicast address. IPv4-mapped IPv6 addresses
// (::ffff:127.0.0.1) are judged as the IPv4 address they carry, and so are the IPv4
// addresses embedded in NAT64 (64:ff9b::/96) and 6to4 (2002::/16) addresses.
func CheckAddress(addr netip.Addr) error {
	a := addr.Unmap().WithZone("")
	why := blockedKind(a)
	if why == "" {
		for _, p := range specialPrefixes() {
			if p.Contains(a) {
				why = "special-purpose (" + p.String() + ")"
				break
			}
		}
	}
	if embedded := embeddedIPv4(a); why == "" && embedded.IsValid() && CheckAddress(embedded) != nil {
		why = "carrying " + embedded.String()
	}
	if why == "" {
		return nil
	}
	return fmt.Errorf("%w: %s is %s", ErrBlockedAddress, addr, why)
}

// blockedKind names the kind of a that netip tells is not public unicast, "" for any other.
func blockedKind(a netip.Addr) string {
	switch {
	case !a.IsValid():
		return "not a valid address"
	case a.IsUnspecified():
		return "unspecified"
	case a.IsLoopback():
		return "loopback"
	case a.IsPrivate():
		return "private"
	case a.IsLinkLocalUnicast():
		return "link-local"
	case a.IsMulticast(), a.IsLinkLocalMulticast(), a.IsInterfaceLocalMulticast():
		return "multicast"
	}
	return ""
}

// embeddedIPv4 is the IPv4 address a NAT64 (64:ff9b::/96) or 6to4 (2002::/16) address
// carries; the zero Addr for any other address.
func embeddedIPv4(a netip.Addr) netip.Addr {
	if !a.Is6() {
		return netip.Addr{}
	}
	b := a.As16()
	switch {
	case netip.MustParsePrefix("64:ff9b::/96").Contains(a): // NAT64
		return netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]})
	case netip.MustParsePrefix("2002::/16").Contains(a): // 6to4
		return netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]})
	}
	return netip.Addr{}
}

// specialPrefixes are the special-purpose ranges (RFC 6890 and successors) that the netip
// predicates above do not already cover. Built per call: it costs nothing next to a TCP
// connection and keeps the package free of mutable globals.
func specialPrefixes() []netip.Prefix {
	return []netip.Prefix{
		netip.MustParsePrefix("0.0.0.0/8"),       // "this network"
		netip.MustParsePrefix("100.64.0.0/10"),   // shared address space (CGNAT)
		netip.MustParsePrefix("192.0.0.0/24"),    // IETF protocol assignments
		netip.MustParsePrefix("192.0.2.0/24"),    // documentation
		netip.MustParsePrefix("198.18.0.0/15"),   // benchmarking
		netip.MustParsePrefix("198.51.100.0/24"), // documentation
		netip.MustParsePrefix("203.0.113.0/24"),  // documentation
		netip.MustParsePrefix("240.0.0.0/4"),     // reserved, and the broadcast address
		netip.MustParsePrefix("::/96"),           // IPv4-compatible (deprecated), ::, ::1
		netip.MustParsePrefix("100::/64"),        // discard
		netip.MustParsePrefix("2001::/32"),       // Teredo (hides an IPv4 address)
		netip.MustParsePrefix("2001:db8::/32"),   // documentation
		netip.MustParsePrefix("64:ff9b:1::/48"),  // local-use NAT64
		netip.MustParsePrefix("fec0::/10"),       // site-local (deprecated)
	}
}
