package respond

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// Proxies are the peers whose forwarding headers are believed: the reverse proxies in front
// of the checkout. The zero Proxies trusts nobody, and then no forwarding header is ever read:
// anyone can send one.
type Proxies struct {
	prefixes []netip.Prefix
}

// ParseProxies reads CIDRs (10.0.0.0/8, fd00::/8) or single addresses, separated by commas or
// spaces. An empty string trusts nobody.
func ParseProxies(s string) (Proxies, error) {
	var p Proxies
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
		pre, err := netip.ParsePrefix(f)
		if err != nil {
			a, aerr := netip.ParseAddr(f)
			if aerr != nil {
				return Proxies{}, fmt.Errorf("%q is not a CIDR (10.0.0.0/8) or an address", f)
			}
			a = a.Unmap()
			pre = netip.PrefixFrom(a, a.BitLen())
		}
		if pre.Addr().Is4In6() {
			pre = netip.PrefixFrom(pre.Addr().Unmap(), pre.Bits()-96)
		}
		p.prefixes = append(p.prefixes, pre.Masked())
	}
	return p, nil
}

// Trusts reports whether a is one of the proxies.
func (p Proxies) Trusts(a netip.Addr) bool {
	a = a.Unmap()
	for _, pre := range p.prefixes {
		if pre.Contains(a) {
			return true
		}
	}
	return false
}

// Empty reports whether nobody is trusted.
func (p Proxies) Empty() bool { return len(p.prefixes) == 0 }

// String lists the proxies as ParseProxies reads them.
func (p Proxies) String() string {
	s := make([]string, len(p.prefixes))
	for i, pre := range p.prefixes {
		s[i] = pre.String()
	}
	return strings.Join(s, ",")
}

// client is who sent a request, as Forwarded worked it out.
type client struct {
	addr  string // the client's address, without port
	https bool   // the client spoke https to the proxy (or to the checkout)
}

// Forwarded works out once per request who the client is: the connection's peer, or, when the
// peer is one of the proxies, the rightmost address of its Forwarded (RFC 7239) or, without
// it, X-Forwarded-For header that is not a proxy — the proxies append the address they got the
// request from, so everything left of the last untrusted one may be forged. The scheme the
// client used comes from the same peer's X-Forwarded-Proto (or Forwarded's proto). ClientIP
// and HTTPS read the result; every per-address limit and log line goes through them.
func Forwarded(p Proxies) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		if p.Empty() {
			return next
		}
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			c := p.client(r)
			next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), clientKey, c)))
		})
	}
}

// forwardedHops are the addresses a request was forwarded for, nearest last, and the protocol
// the client used, from Forwarded or else X-Forwarded-For (the protocol from
// X-Forwarded-Proto when Forwarded does not say it).
func forwardedHops(h http.Header) (hops []string, proto string) {
	if fw := h.Values("Forwarded"); len(fw) > 0 {
		for _, elem := range strings.Split(strings.Join(fw, ","), ",") {
			for _, pair := range strings.Split(elem, ";") {
				k, v, _ := strings.Cut(strings.TrimSpace(pair), "=")
				v = strings.Trim(strings.TrimSpace(v), `"`)
				switch strings.ToLower(k) {
				case "for":
					hops = append(hops, v)
				case "proto":
					proto = v
				}
			}
		}
	} else {
		for _, v := range h.Values("X-Forwarded-For") {
			for _, hop := range strings.Split(v, ",") {
				hops = append(hops, strings.TrimSpace(hop))
			}
		}
	}
	if xs := h.Values("X-Forwarded-Proto"); proto == "" && len(xs) > 0 {
		parts := strings.Split(xs[len(xs)-1], ",")
		proto = strings.TrimSpace(parts[len(parts)-1])
	}
	return hops, proto
}

// client is the request's client as Forwarded says.
func (p Proxies) client(r *http.Request) client {
	peer := peerIP(r)
	c := client{addr: peer, https: r.TLS != nil}
	pa, err := netip.ParseAddr(peer)
	if err != nil || !p.Trusts(pa) {
		return c
	}
	hops, proto := forwardedHops(r.Header)
	if proto != "" {
		c.https = strings.EqualFold(proto, "https")
	}
	for i := len(hops) - 1; i >= 0; i-- {
		a, ok := hopAddr(hops[i])
		if !ok {
			break // garbage: the last trusted hop is as far as the chain can be believed
		}
		c.addr = a.String()
		if !p.Trusts(a) {
			break
		}
	}
	return c
}

// hopAddr reads one hop of a forwarding header: an address, with or without port, IPv6 in
// brackets or not.
func hopAddr(h string) (netip.Addr, bool) {
	if ap, err := netip.ParseAddrPort(h); err == nil {
		return ap.Addr().Unmap(), true
	}
	h = strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
	a, err := netip.ParseAddr(h)
	if err != nil {
		return netip.Addr{}, false
	}
	return a.Unmap(), true
}

// peerIP is the address of the connection's peer (the remote address as it is when it has no
// port).
func peerIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// HTTPS reports whether the client reached the checkout over https: its own TLS, or a trusted
// proxy's X-Forwarded-Proto (see Forwarded).
func HTTPS(r *http.Request) bool {
	if c, ok := r.Context().Value(clientKey).(client); ok {
		return c.https
	}
	return r.TLS != nil
}
