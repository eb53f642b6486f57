package gatewayclient

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
)

// TestConcurrentCallsKeepTheirConnections: calls made by many goroutines at once reuse the
// connections of the calls before them. With net/http's default of two idle connections per
// host, a second round of 16 concurrent calls opened 14 new connections (against a real
// gateway, 14 TLS handshakes).
func TestConcurrentCallsKeepTheirConnections(t *testing.T) {
	const n = 16
	var arrived sync.WaitGroup
	var release chan struct{}
	api := func(w http.ResponseWriter, r *http.Request) {
		// Hold every call until all n are in flight: n connections are needed at once.
		arrived.Done()
		<-release
		writeJSON(w, http.StatusOK, `{"id":"`+testDepositID+`","amount":1000,"paymentMethod":"PIX","status":"PAID","createdAt":"2026-03-14T15:09:26.123Z","updatedAt":"2026-03-14T15:09:26.123Z"}`)
	}
	g := &testGateway{t: t, api: api}
	var opened atomic.Int64
	g.srv = httptest.NewUnstartedServer(http.HandlerFunc(g.serve))
	g.srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			opened.Add(1)
		}
	}
	g.srv.Start()
	t.Cleanup(g.srv.Close)
	c := g.client()

	round := func() int64 {
		before := opened.Load()
		arrived.Add(n)
		release = make(chan struct{})
		var done sync.WaitGroup
		errs := make(chan error, n)
		for range n {
			done.Add(1)
			go func() {
				defer done.Done()
				if _, err := c.GetDeposit(context.Background(), testDepositID); err != nil {
					errs <- err
				}
			}()
		}
		arrived.Wait()
		close(release)
		done.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		return opened.Load() - before
	}
	if first := round(); first < n {
		t.Fatalf("the first round opened %d connections for %d calls held at once", first, n)
	}
	if again := round(); again != 0 {
		t.Errorf("the second round of %d concurrent calls opened %d new connections, want 0 (the first round's kept)", n, again)
	}
}
