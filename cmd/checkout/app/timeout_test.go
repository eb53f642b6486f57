package app

import (
	"bufio"
	"bytes"
	"context"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// TestSSEOutlivesWriteTimeout shows that the server's WriteTimeout stays on for pages while an
// SSE stream, which extends its own deadline at each write, lives on past it.
func TestSSEOutlivesWriteTimeout(t *testing.T) {
	t.Parallel()
	cfg, err := Load(func(string) string { return "" }, []string{"-data-dir", t.TempDir(), "-addr", "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	cfg.SSEHeartbeat = 50 * time.Millisecond
	cfg.ReconcileInterval = 0
	ctx, cancel := context.WithCancel(context.Background())
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(ctx, cfg, ln)
	if err != nil {
		t.Fatal(err)
	}
	// Long enough that a loaded machine reaches the stream's own deadline within it (300 ms
	// was not, under the race detector beside the other packages' tests).
	a.writeTimeout = time.Second
	served := make(chan error, 1)
	go func() { served <- a.Serve(ctx) }()
	<-a.Ready()
	defer func() {
		cancel()
		<-served
		a.Close()
	}()
	// The order is made through the service: a page request could itself outlast the short write
	// timeout on a loaded machine.
	cart, err := a.svc.AddToCart(ctx, "", "ebook-receitas-do-cerrado", 1)
	if err != nil {
		t.Fatal(err)
	}
	order, err := a.svc.PlaceOrder(ctx, placeInput(cart.ID))
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.Get(a.URL() + "/pay/" + order.ID + "/events")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	// Count heartbeats for well past the write timeout; a cut stream ends the scan early.
	sc := bufio.NewScanner(res.Body)
	start := time.Now()
	beats := 0
	for time.Since(start) < 3*a.writeTimeout && sc.Scan() {
		if strings.HasPrefix(sc.Text(), ": heartbeat") {
			beats++
		}
	}
	if time.Since(start) < 3*a.writeTimeout {
		t.Fatalf("the stream ended after %s (%d heartbeats): %v", time.Since(start), beats, sc.Err())
	}
	if beats < 3 {
		t.Errorf("%d heartbeats", beats)
	}
}

func placeInput(cartID string) checkout.PlaceOrderInput {
	return checkout.PlaceOrderInput{Source: cartID, RequestKey: "timeout-test-key",
		Customer: checkout.Customer{Name: "Ana Lima", Document: "52998224725", Email: "ana@example.com", Phone: "11987654321"}}
}

// logBuffer collects the app's log lines from its goroutines.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestShutdownLetsInFlightOrdersReachTheSandbox: an order being placed when the shutdown
// starts still gets its QR code from the embedded sandbox, served by the same listener; the
// webhook that its new transaction makes due is not sent to a server that refuses it, but
// kept for the next start, and the reconciler stops before the server (an orderly shutdown
// logs no failed delivery and no failed pass).
func TestShutdownLetsInFlightOrdersReachTheSandbox(t *testing.T) {
	t.Parallel()
	cfg, err := Load(func(string) string { return "" }, []string{"-data-dir", t.TempDir(), "-addr", "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	// The reconciler passes all along: none may call the embedded gateway once it is gone.
	cfg.ReconcileInterval = 5 * time.Millisecond
	logs := &logBuffer{}
	cfg.LogOutput = logs
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(ctx, cfg, ln)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	served := make(chan error, 1)
	go func() { served <- a.Serve(ctx) }()
	<-a.Ready()
	// The sandbox takes its time over the next transaction.
	fault := map[string]any{"kind": "latency", "path": "/transaction", "latencyMs": 300}
	if err := a.Gateway().Do(ctx, http.MethodPost, "/sandbox/faults", fault, nil); err != nil {
		t.Fatal(err)
	}
	cart, err := a.svc.NewCart(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.svc.AddToCart(ctx, cart.ID, "ebook-receitas-do-cerrado", 1); err != nil {
		t.Fatal(err)
	}
	entered := make(chan struct{}, 1)
	a.drain.mu.Lock()
	a.drain.onEnter = func() { entered <- struct{}{} }
	a.drain.mu.Unlock()
	type answer struct {
		code int
		loc  string
		err  error
	}
	answered := make(chan answer, 1)
	go func() {
		c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		res, err := c.PostForm(a.URL()+"/cart/"+cart.ID+"/checkout", url.Values{"request_key": {"drain-test"},
			"name": {"Ana Lima"}, "document": {"52998224725"}, "email": {"ana@example.com"}, "phone": {"11987654321"}})
		if err != nil {
			answered <- answer{err: err}
			return
		}
		res.Body.Close()
		answered <- answer{code: res.StatusCode, loc: res.Header.Get("Location")}
	}()
	<-entered
	cancel() // shut down while the order is being placed
	ans := <-answered
	if ans.err != nil || ans.code != http.StatusSeeOther {
		t.Fatalf("in-flight order: %d %v", ans.code, ans.err)
	}
	if err := <-served; err != nil {
		t.Fatalf("Serve: %v", err)
	}
	o, err := a.svc.Order(context.Background(), strings.TrimPrefix(ans.loc, "/pay/"))
	if err != nil {
		t.Fatal(err)
	}
	if o.Status != checkout.StatusAwaitingPayment {
		t.Errorf("order placed during shutdown is %s, want awaiting_payment (the sandbox answered)", o.Status)
	}
	for _, failed := range []string{"webhook attempt failed", "reconciliation pass"} {
		if strings.Contains(logs.String(), failed) {
			t.Errorf("%q during the shutdown:\n%s", failed, logs.String())
		}
	}
}
