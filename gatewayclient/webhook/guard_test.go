package webhook

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
)

func TestCheckAddressBlocks(t *testing.T) {
	for _, s := range []string{
		"127.0.0.1", "127.1.2.3", "::1", "10.0.0.1", "172.16.0.1", "172.31.255.255", "192.168.1.1",
		"169.254.169.254", "169.254.0.1", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "::ffff:169.254.169.254",
		"fe80::1", "fe80::1%eth0", "fc00::1", "fd12:3456::1", "0.0.0.0", "0.1.2.3", "::",
		"100.64.0.1", "100.127.255.254", "224.0.0.1", "239.255.255.250", "ff02::1", "255.255.255.255",
		"240.0.0.1", "192.0.0.8", "198.18.0.1", "::127.0.0.1", "64:ff9b::7f00:1", "64:ff9b::a00:1",
		"2002:7f00:1::1", "2002:c0a8:101::1", "fec0::1", "2001:db8::1", "2001:0:4136:e378::1", "64:ff9b:1::1",
	} {
		a, err := netip.ParseAddr(s)
		if err != nil {
			t.Fatalf("bad test address %q: %v", s, err)
		}
		if err := CheckAddress(a); !errors.Is(err, ErrBlockedAddress) {
			t.Errorf("CheckAddress(%s) = %v, want ErrBlockedAddress", s, err)
		}
	}
}

func TestCheckAddressAllowsPublic(t *testing.T) {
	for _, s := range []string{
		"8.8.8.8", "1.1.1.1", "200.160.2.3", "172.32.0.1", "100.128.0.1", "2001:4860:4860::8888",
		"2606:4700:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::1",
	} {
		if err := CheckAddress(netip.MustParseAddr(s)); err != nil {
			t.Errorf("CheckAddress(%s) = %v, want nil", s, err)
		}
	}
}

func TestGuardControl(t *testing.T) {
	blocked := []string{"127.0.0.1:443", "[::1]:443", "[::ffff:127.0.0.1]:80", "[fe80::1%lo]:80",
		"169.254.169.254:80", "0.0.0.0:80", "not-an-address", "example.com:443"}
	for _, addr := range blocked {
		if err := guardControl("tcp", addr, nil); !errors.Is(err, ErrBlockedAddress) {
			t.Errorf("guardControl(%q) = %v, want ErrBlockedAddress", addr, err)
		}
	}
	for _, addr := range []string{"8.8.8.8:443", "[2001:4860:4860::8888]:443"} {
		if err := guardControl("tcp", addr, nil); err != nil {
			t.Errorf("guardControl(%q) = %v, want nil", addr, err)
		}
	}
}

// TestGuardedDialerRefusesResolvedLoopback dials a real listener by IP and by a name that
// resolves to it: both are refused before any connection is made.
func TestGuardedDialerRefusesResolvedLoopback(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(srv.URL, "http://"))

	d := GuardedDialer()
	for _, addr := range []string{"127.0.0.1:" + port, "localhost:" + port} {
		conn, err := d.DialContext(context.Background(), "tcp", addr)
		if err == nil {
			conn.Close()
			t.Fatalf("dial %s: connected, want ErrBlockedAddress", addr)
		}
		if !errors.Is(err, ErrBlockedAddress) {
			t.Fatalf("dial %s: %v, want ErrBlockedAddress", addr, err)
		}
	}
	// Through an HTTP client too: errors.Is sees through *url.Error and *net.OpError.
	c := &http.Client{Transport: &http.Transport{Proxy: nil, DialContext: GuardedDialer().DialContext}}
	_, err := c.Get("http://localhost:" + port + "/")
	if !errors.Is(err, ErrBlockedAddress) {
		t.Fatalf("GET via guarded client: %v, want ErrBlockedAddress", err)
	}
	if hits.Load() != 0 {
		t.Fatalf("the guarded server was reached %d times", hits.Load())
	}
}
