package sandbox

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	gc "github.com/pixcheckout/pixcheckout/gatewayclient"
)

// TestConcurrentWorkNeverWaitsOnALock runs every kind of write and read at once — new
// transactions, controls, withdrawals, clock advances, lists, the console, and the outbox
// delivering webhooks — with SQLite's busy timeout at zero, so that any wait for a lock
// would fail instead. Every write goes through the one writer connection and readers never
// block in WAL mode, so nothing fails.
func TestConcurrentWorkNeverWaitsOnALock(t *testing.T) {
	t.Parallel()
	// A creation and a payment for each of the 24 transactions below.
	const wantHooks = 48
	var received atomic.Int64
	allReceived := make(chan struct{})
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		if received.Add(1) == wantHooks {
			close(allReceived)
		}
	}))
	defer hook.Close()
	zero := time.Duration(0)
	e := newEnv(t, func(o *Options) {
		o.busyTimeout = &zero
		o.WebhookForwardTo = hook.URL
		o.RateLimit = RateLimit{Requests: 100000, Burst: 100000}
	})
	ctx, cancel := context.WithCancel(context.Background())
	runDone := make(chan struct{})
	go func() { defer close(runDone); e.sb.Run(ctx) }()
	defer func() { cancel(); <-runDone }()
	if _, err := e.sb.Seed(context.Background(), testClientID, SeedRequest{Deposits: 300, Withdrawals: 30, Seed: 2}); err != nil {
		t.Fatal(err)
	}
	c := e.client(gc.WithClock(clientClock{e.sb}))
	tok := e.token()

	var wg sync.WaitGroup
	errs := make(chan error, 1000)
	for g := range 4 {
		wg.Go(func() {
			for i := range 6 {
				tx, err := c.CreateTransaction(ctx, txRequest(fmt.Sprintf("busy-%d-%04d", g, i), gc.Cents(100+i)))
				if err != nil {
					errs <- fmt.Errorf("create: %w", err)
					return
				}
				if _, err := e.sb.ControlDeposit(ctx, testClientID, tx.ID, ActionPay, DepositControl{}); err != nil {
					errs <- fmt.Errorf("pay: %w", err)
				}
				if _, err := c.ListDeposits(ctx, gc.DepositFilter{MinAmount: 100, Status: []gc.DepositStatus{gc.DepositPaid}}); err != nil {
					errs <- fmt.Errorf("list: %w", err)
				}
				if _, err := c.GetDeposit(ctx, tx.ID); err != nil {
					errs <- fmt.Errorf("get: %w", err)
				}
			}
		})
	}
	wg.Go(func() {
		for range 6 {
			w, err := e.sb.CreateWithdrawal(ctx, testClientID, NewWithdrawal{Amount: 1000})
			if err == nil {
				_, err = e.sb.MoveWithdrawal(ctx, testClientID, w.ID, gc.WithdrawalProcessing, "")
			}
			if err == nil {
				_, err = c.ListWithdrawals(ctx, gc.WithdrawalFilter{})
			}
			if err != nil {
				errs <- fmt.Errorf("withdrawal: %w", err)
			}
		}
	})
	wg.Go(func() {
		for range 5 {
			if err := e.sb.AdvanceClock(ctx, time.Minute); err != nil {
				errs <- fmt.Errorf("clock: %w", err)
			}
			if st, _, b := e.do("GET", "/sandbox/", tok, nil); st != http.StatusOK {
				errs <- fmt.Errorf("console: %d %s", st, b)
			}
		}
	})
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	// The outbox delivered meanwhile (through the same writer), also without failing.
	select {
	case <-allReceived:
	case <-time.After(20 * time.Second):
		t.Fatalf("%d webhooks delivered, want at least %d", received.Load(), wantHooks)
	}
}
