package web_test

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/netip"
	"syscall"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/web"
)

// fromAddress returns an HTTP client whose connections come from the local address ip (any
// address of 127.0.0.0/8 reaches a server on 127.0.0.1): a second client address for tests of
// per-address limits.
func fromAddress(ip string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 5 * time.Second}
	return &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DialContext: d.DialContext}}
}

// One client address cannot take every live stream: past its cap its streams are refused (its
// pages poll), while another address still gets its own.
func TestSSEStreamsAreCappedPerClient(t *testing.T) {
	e := newEnv(t, func(o *envOptions) { o.maxStreamsPerClient = 2 })
	a, b, c := e.placeOrder(), e.placeOrder(), e.placeOrder()
	resA, _ := e.openStream(a)
	defer resA.Body.Close()
	resB, _ := e.openStream(b)
	defer resB.Body.Close()
	e.refusedStream(c) // a third stream of the same address, on another order

	other := fromAddress("127.0.0.2")
	res, err := other.Get(e.srv.URL + c + "/events")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("a stream of another address: %d", res.StatusCode)
	}
	if n := e.web.OpenStreams(); n != 3 {
		t.Errorf("%d streams open, want 3", n)
	}
	// The first address's place comes back when one of its streams ends.
	resA.Body.Close()
	resC := e.reopen(c)
	resC.Body.Close()
}

// A peer holding the most connections allowed has its next one closed at once, while other
// peers are served; a connection that ends gives its place back.
func TestConnectionsAreCappedPerPeer(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "ok")
	})}
	go func() { _ = srv.Serve(web.ConnLimit{Max: 3}.Listener(ln)) }()
	defer srv.Close()
	addr := ln.Addr().String()

	var held []net.Conn
	for range 3 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, c)
	}
	defer func() {
		for _, c := range held {
			c.Close()
		}
	}()
	// The fourth is closed by the server before it reads anything.
	fourth, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	_ = fourth.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := fourth.Read(make([]byte, 1)); !errors.Is(err, io.EOF) && !isReset(err) {
		t.Fatalf("the fourth connection of one peer: read %v, want it closed", err)
	}
	fourth.Close()

	// Another peer is served.
	res, err := fromAddress("127.0.0.2").Get("http://" + addr + "/")
	if err != nil {
		t.Fatalf("another peer: %v", err)
	}
	res.Body.Close()

	// One of the first peer's connections ends: its place comes back.
	held[0].Close()
	held = held[1:]
	var client http.Client
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+addr+"/", nil)
		res, err := client.Do(req)
		if err == nil {
			res.Body.Close()
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("the first peer after one of its connections ended: %v", err)
		}
		time.Sleep(5 * time.Millisecond) // the server notices the close when it reads from it
	}
}

// isReset tells a connection the peer closed with a reset (data was left unread).
func isReset(err error) bool { return errors.Is(err, syscall.ECONNRESET) }

// An exempt peer (the program exempts this machine's own addresses) is never capped.
func TestConnectionsOfAnExemptPeerAreNotCapped(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "ok")
	})}
	go func() { _ = srv.Serve(web.ConnLimit{Max: 1, Exempt: netip.Addr.IsLoopback}.Listener(ln)) }()
	defer srv.Close()
	held, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	res, err := (&http.Client{Timeout: 10 * time.Second}).Get("http://" + ln.Addr().String() + "/")
	if err != nil {
		t.Fatalf("a second connection of an exempt peer: %v", err)
	}
	res.Body.Close()
}

// Behind a trusted proxy the stream cap is per shopper, by the address the proxy forwards.
func TestSSEStreamCapBehindATrustedProxy(t *testing.T) {
	e := newEnv(t, func(o *envOptions) { o.maxStreamsPerClient = 1; o.trustedProxies = "127.0.0.0/8" })
	a, b := e.placeOrder(), e.placeOrder()
	stream := func(pay, client string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, e.srv.URL+pay+"/events", nil)
		req.Header.Set("X-Forwarded-For", client)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	first := stream(a, "203.0.113.1")
	defer first.Body.Close()
	second := stream(b, "203.0.113.2") // another shopper behind the same proxy
	defer second.Body.Close()
	again := stream(b, "203.0.113.1") // the first shopper's second stream
	defer again.Body.Close()
	if first.StatusCode != http.StatusOK || second.StatusCode != http.StatusOK || again.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("streams: first shopper %d, second shopper %d, first shopper again %d; want 200, 200, 503",
			first.StatusCode, second.StatusCode, again.StatusCode)
	}
}
