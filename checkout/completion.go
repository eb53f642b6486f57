package checkout

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// ShopperGatewayWait is the longest a shopper's request waits for its turn at the gateway
// while the gateway client paces its calls after a 429 (and for the order's lock, held by
// whoever is completing its attempt meanwhile). A 429's Retry-After is whole seconds: without
// this bound the shopper's button would freeze for a second or more. Past it, the order is
// answered with its attempt pending — the PIX page says the QR code is being generated and
// turns into the QR code by itself — and a completion in the background waits the turn
// instead. A quarter of a second is well below what a shopper notices as a stall, and above
// the spacing of paced calls at any rate a gateway would grant (4 per second and up).
const ShopperGatewayWait = 250 * time.Millisecond

// DefaultShopperGatewayTimeout bounds a shopper's request's whole call to the gateway, retries
// included (ServiceOptions.ShopperGatewayTimeout): a gateway that does not answer must not
// hold the shopper's button — nor the server's write deadline — for the client's own timeouts
// and retries (tens of seconds). Past it the order is answered pending, its page says the PIX
// code could not be made now, and the same idempotency key completes it later.
const DefaultShopperGatewayTimeout = 8 * time.Second

// completions are the background completions of pending attempts, at most one per order, owned
// by the Service: Close stops them and waits for them.
type completions struct {
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	mu     sync.Mutex
	orders map[string]struct{} // being completed
	closed bool
}

func newCompletions() *completions {
	ctx, cancel := context.WithCancel(context.Background())
	return &completions{ctx: ctx, cancel: cancel, orders: map[string]struct{}{}}
}

// running reports whether the order's attempt is being completed in the background.
func (c *completions) running(orderID string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.orders[orderID]
	return ok
}

// start runs fn in the background for orderID unless one runs already or the Service is
// closed.
func (c *completions) start(orderID string, fn func(ctx context.Context)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.orders[orderID]; ok || c.closed {
		return
	}
	c.orders[orderID] = struct{}{}
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		defer func() {
			c.mu.Lock()
			delete(c.orders, orderID)
			c.mu.Unlock()
		}()
		fn(c.ctx)
	}()
}

// close stops the completions and waits for them.
func (c *completions) close() {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	c.cancel()
	c.wg.Wait()
}

// Close stops the Service's background work — the completions of attempts that were paced at
// the gateway — and waits for it. Their attempts stay pending, with their idempotency keys:
// the next CurrentOrder, or the reconciler, completes them. The Service stays usable for
// everything else.
func (s *Service) Close() {
	s.completions.close()
}

// ensureForShopper is ensure on a shopper's request (placing an order, the PIX page, a new QR
// code): it never holds the shopper longer than about ShopperGatewayWait. When the order is
// being completed in the background, or its lock is held past the bound by whoever is
// completing it, the order is answered as it is (pending). When the gateway client would
// hold the call past the bound for its turn, the order is answered pending and a background
// completion, with the same idempotency key, takes over: it waits its turn, stores the
// gateway's answer and publishes the order's new status, which the PIX page hears. known and
// built are ensureLocked's.
func (s *Service) ensureForShopper(ctx context.Context, orderID string, known *Order, built *gatewayclient.CreateTransactionRequest) (*Order, error) {
	unlock, busy, err := s.lockForShopper(ctx, orderID)
	if err != nil {
		return nil, err
	}
	if busy {
		// Another request or a completion holds it: it completes the attempt. The order is read
		// from the store, not from its snapshot: the holder may have stored the attempt's answer
		// and not yet replaced the snapshot (a page drawn from it would still say pending after
		// the order was stored awaiting payment).
		if known != nil {
			return known, nil
		}
		return s.reread(ctx, orderID)
	}
	defer unlock()
	return s.ensureLockedForShopper(ctx, orderID, known, built)
}

// lockForShopper takes the order's lock for a shopper's request, waiting at most
// ShopperGatewayWait. busy is true, and nothing is locked, when the order is being completed
// in the background or its lock stays held past the bound: whoever holds it completes the
// order, and the shopper is answered with the order as it is. err is set only when ctx ends.
func (s *Service) lockForShopper(ctx context.Context, orderID string) (unlock func(), busy bool, err error) {
	if s.completions.running(orderID) {
		return nil, true, nil
	}
	lockCtx, cancel := context.WithTimeout(ctx, ShopperGatewayWait)
	unlock, err = s.locks.lock(lockCtx, orderID)
	cancel()
	if err != nil {
		if ctx.Err() != nil {
			return nil, false, fmt.Errorf("checkout: waiting for the order: %w", ctx.Err())
		}
		return nil, true, nil
	}
	return unlock, false, nil
}

// ensureLockedForShopper is ensureLocked with the wait for the gateway bounded as
// ensureForShopper says; the order's lock is held.
//
// While the gateway is known to fail (ServiceOptions.GatewayUp), a shopper's request does not
// call it at all: the order is answered pending and its page says the PIX code could not be
// made now. Shoppers reloading their pages during an outage thus never pile retries onto a
// gateway that is coming back; the gateway's monitor probes it, and once it works again the
// reconciler (and each page's next request) completes the pending attempts.
func (s *Service) ensureLockedForShopper(ctx context.Context, orderID string, known *Order, built *gatewayclient.CreateTransactionRequest) (*Order, error) {
	if s.gatewayUp != nil && !s.gatewayUp() {
		if known != nil {
			return known, nil
		}
		return s.Snapshot(ctx, orderID)
	}
	cctx, cancel := context.WithTimeout(ctx, s.shopperTimeout)
	defer cancel()
	res, err := s.ensureLocked(gatewayclient.WithMaxPacingWait(cctx, ShopperGatewayWait), orderID, known, built)
	if err != nil && errors.Is(err, gatewayclient.ErrPaced) && res != nil {
		s.log.InfoContext(ctx, "gateway pacing its calls: the QR code is completed in the background", "number", res.Number)
		s.completeLater(orderID)
		return res, nil
	}
	return res, err
}

// completeLater completes the order's pending attempt in the background: it takes the order's
// lock, waits its turn at the gateway however long the pacing says (the Service's lifetime
// bounds it), and stores the answer as ensure does, publishing the new status.
func (s *Service) completeLater(orderID string) {
	s.completions.start(orderID, func(ctx context.Context) {
		res, err := s.ensure(ctx, orderID)
		if err != nil && ctx.Err() == nil {
			// The attempt stays pending: the PIX page's next request or the reconciler retries.
			// (The order's id is a shopper's credential: logs name its number.)
			number := ""
			if res != nil {
				number = res.Number
			}
			s.log.WarnContext(ctx, "completing a paced payment attempt", "number", number, "err", err)
			return
		}
		if res != nil && res.Status != StatusPending {
			s.log.InfoContext(ctx, "paced payment attempt completed", "number", res.Number, "status", string(res.Status))
		}
	})
}
