//go:build unix

package web

import (
	"errors"
	"net"
	"syscall"
)

// peerGone reports whether the client of a taken-over connection has closed or reset it. It
// peeks at the socket without waiting and without taking what the client sent, so a live
// stream is left as it was; it costs one system call. A connection it cannot look into (not a
// socket, or TLS over one whose client said close_notify first) reports false: its end is
// then noticed when a write to it fails.
func peerGone(c net.Conn) bool {
	if u, ok := c.(interface{ NetConn() net.Conn }); ok { // TLS: look at the socket beneath
		c = u.NetConn()
	}
	sc, ok := c.(syscall.Conn)
	if !ok {
		return false
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return true // closed here already
	}
	gone := false
	var b [1]byte
	err = raw.Read(func(fd uintptr) bool {
		n, _, err := syscall.Recvfrom(int(fd), b[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
		switch {
		case err == nil:
			gone = n == 0 // end of stream: the client closed its side
		case errors.Is(err, syscall.EAGAIN), errors.Is(err, syscall.EINTR):
			// nothing to read: alive
		default:
			gone = true // reset, or another error of a socket that cannot be used
		}
		return true // never wait for the socket to become readable
	})
	return gone || err != nil
}
