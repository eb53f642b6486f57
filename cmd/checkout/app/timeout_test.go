package app

import (
	"bufio"
	"context"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// TestSSEOutlivesWriteTimeout shows that the server's WriteTimeout stays on for pages while an
// SSE stream, which extends its own deadline at each write, lives on past it.
func TestSSEOutlivesWriteTimeout(t *testing.T) {
	cfg, err := Load(func(string) string { return "" }, []string{"-data-dir", t.TempDir(), "-addr", "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	cfg.SSEHeartbeat = 50 * time.Millisecond
	cfg.ReconcileInterval = 0
	ctx, cancel := context.WithCancel(context.Background())
	a, err := New(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	a.writeTimeout = 300 * time.Millisecond
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- a.Serve(ctx, ln) }()
	<-a.Ready()
	defer func() {
		cancel()
		<-served
		a.Close()
	}()
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := noRedirect.PostForm(a.URL()+"/cart", url.Values{"product_id": {"ebook-receitas-do-cerrado"}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	cart := res.Header.Get("Location")
	order, err := a.svc.PlaceOrder(ctx, placeInput(strings.TrimPrefix(cart, "/cart/")))
	if err != nil {
		t.Fatal(err)
	}
	res, err = http.Get(a.URL() + "/pay/" + order.ID + "/events")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	// Count heartbeats for well past the write timeout; a cut stream ends the scan early.
	sc := bufio.NewScanner(res.Body)
	start := time.Now()
	beats := 0
	for time.Since(start) < 4*a.writeTimeout && sc.Scan() {
		if strings.HasPrefix(sc.Text(), ": heartbeat") {
			beats++
		}
	}
	if time.Since(start) < 4*a.writeTimeout {
		t.Fatalf("the stream ended after %s (%d heartbeats): %v", time.Since(start), beats, sc.Err())
	}
	if beats < 3 {
		t.Errorf("%d heartbeats", beats)
	}
}

func placeInput(cartID string) checkout.PlaceOrderInput {
	return checkout.PlaceOrderInput{CartID: cartID, RequestKey: "timeout-test-key",
		Customer: checkout.Customer{Name: "Ana Lima", Document: "52998224725", Email: "ana@example.com", Phone: "11987654321"}}
}
