package respond_test

import (
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"

	"github.com/pixcheckout/pixcheckout/web/respond"
)

// TestForwardedClient: the client is the rightmost untrusted address of a trusted peer's
// forwarding headers, and the peer itself otherwise.
func TestForwardedClient(t *testing.T) {
	proxies, err := respond.ParseProxies("10.0.0.0/8, 192.0.2.1 fd00::/8")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, peer string
		headers    map[string]string
		want       string
		https      bool
	}{
		{"no proxy", "203.0.113.5:4000", map[string]string{"X-Forwarded-For": "1.1.1.1"}, "203.0.113.5", false},
		{"trusted, one hop", "10.1.2.3:4000", map[string]string{"X-Forwarded-For": "203.0.113.5", "X-Forwarded-Proto": "https"}, "203.0.113.5", true},
		{"forged left of the proxy's entry", "10.1.2.3:4000", map[string]string{"X-Forwarded-For": "1.1.1.1, 203.0.113.5"}, "203.0.113.5", false},
		{"two proxies", "192.0.2.1:4000", map[string]string{"X-Forwarded-For": "203.0.113.5, 10.9.9.9"}, "203.0.113.5", false},
		{"every hop trusted", "10.1.2.3:4000", map[string]string{"X-Forwarded-For": "10.0.0.7, 10.0.0.8"}, "10.0.0.7", false},
		{"garbage stops the chain", "10.1.2.3:4000", map[string]string{"X-Forwarded-For": "203.0.113.5, nonsense, 10.0.0.8"}, "10.0.0.8", false},
		{"no header", "10.1.2.3:4000", nil, "10.1.2.3", false},
		{"RFC 7239", "[fd00::1]:4000", map[string]string{"Forwarded": `for="[2001:db8::7]:1234";proto=https, for=10.0.0.8`}, "2001:db8::7", true},
		{"Forwarded wins", "10.1.2.3:4000", map[string]string{"Forwarded": "for=203.0.113.9", "X-Forwarded-For": "203.0.113.5"}, "203.0.113.9", false},
		{"untrusted peer's proto ignored", "203.0.113.5:4000", map[string]string{"X-Forwarded-Proto": "https"}, "203.0.113.5", false},
	}
	for _, tc := range cases {
		var gotIP string
		var gotHTTPS bool
		h := respond.Forwarded(proxies)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			gotIP, gotHTTPS = respond.ClientIP(r), respond.HTTPS(r)
		}))
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		req.RemoteAddr = tc.peer
		for k, v := range tc.headers {
			req.Header.Set(k, v)
		}
		h.ServeHTTP(httptest.NewRecorder(), req)
		if gotIP != tc.want || gotHTTPS != tc.https {
			t.Errorf("%s: client %q https %v, want %q %v", tc.name, gotIP, gotHTTPS, tc.want, tc.https)
		}
	}
}

func TestParseProxies(t *testing.T) {
	p, err := respond.ParseProxies("10.0.0.0/8,::ffff:192.0.2.1")
	if err != nil {
		t.Fatal(err)
	}
	if !p.Trusts(netip.MustParseAddr("10.200.0.1")) || !p.Trusts(netip.MustParseAddr("192.0.2.1")) || p.Trusts(netip.MustParseAddr("192.0.2.2")) {
		t.Errorf("%s trusts the wrong addresses", p)
	}
	for _, bad := range []string{"10.0.0.0/33", "proxy.example.com", "10.0.0"} {
		if _, err := respond.ParseProxies(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if p, _ := respond.ParseProxies(""); !p.Empty() {
		t.Error("the empty list trusts someone")
	}
}
