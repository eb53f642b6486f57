package web

import (
	"log/slog"
	"net"
	"net/netip"
	"sync"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout/team"
)

// DefaultConnsPerPeer is how many connections one peer address may hold open at once (see
// LimitConnsPerPeer): far more than a browser opens (six per host over HTTP/1.1, one over
// HTTP/2) or than a shop sees from one address behind a carrier's NAT, far fewer than the
// process's file descriptors.
const DefaultConnsPerPeer = 256

// ConnLimit keeps at most Max connections open at once from one peer address (an IPv6 one by
// its /64): a further connection from that peer is closed as soon as it is accepted, so that one
// client holding thousands of idle connections cannot take every file descriptor and stop the
// server answering everyone else, /healthz included. Refused connections are logged at most
// once a minute, with their count.
//
// Behind a reverse proxy every connection comes from the proxy: exempt it (Exempt), or turn the
// cap off (Max 0) and let the proxy limit connections per client.
type ConnLimit struct {
	Max int // 0: no cap
	// Exempt, when set, tells the peers the cap does not apply to (the program exempts this
	// machine's own addresses: the embedded sandbox's client, a local reverse proxy).
	Exempt func(netip.Addr) bool
	Log    *slog.Logger
}

// Listener returns ln with the limit applied.
func (c ConnLimit) Listener(ln net.Listener) net.Listener {
	if c.Max <= 0 {
		return ln
	}
	if c.Log == nil {
		c.Log = slog.New(slog.DiscardHandler)
	}
	return &peerLimitListener{Listener: ln, ConnLimit: c, open: map[string]int{}}
}

type peerLimitListener struct {
	net.Listener
	ConnLimit

	mu       sync.Mutex
	open     map[string]int // connections open, by peer address key
	refused  int            // since the last log line
	loggedAt time.Time
}

// Accept returns the next connection of a peer under its cap, closing those over it.
func (l *peerLimitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		addr := peerAddr(c.RemoteAddr())
		if l.Exempt != nil && l.Exempt(addr) {
			return c, nil
		}
		key := team.AddressKey(addr.String())
		if l.take(key) {
			return &peerConn{Conn: c, release: sync.OnceFunc(func() { l.give(key) })}, nil
		}
		_ = c.Close()
	}
}

// take counts a connection of key, or refuses it past the cap.
func (l *peerLimitListener) take(key string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open[key] < l.Max {
		l.open[key]++
		return true
	}
	l.refused++
	if now := time.Now(); now.Sub(l.loggedAt) >= time.Minute {
		// The address stays out of the log, like every client address: the count is enough to
		// tell an operator that the cap is at work.
		l.Log.Warn("connections refused: a peer holds the most connections allowed", "refused", l.refused, "max", l.Max)
		l.refused, l.loggedAt = 0, now
	}
	return false
}

func (l *peerLimitListener) give(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open[key]--; l.open[key] <= 0 {
		delete(l.open, key)
	}
}

// peerAddr is the IP address of a connection's peer (the zero Addr when it has none).
func peerAddr(a net.Addr) netip.Addr {
	if ta, ok := a.(*net.TCPAddr); ok {
		return ta.AddrPort().Addr().Unmap()
	}
	ap, _ := netip.ParseAddrPort(a.String())
	return ap.Addr().Unmap()
}

// peerConn gives its place back when it is closed, once.
type peerConn struct {
	net.Conn
	release func()
}

func (c *peerConn) Close() error {
	c.release()
	return c.Conn.Close()
}

// CloseWrite half-closes a TCP connection, as net/http does before closing one it answered with
// "Connection: close", so that the client reads the answer before the close.
func (c *peerConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}
