package web

import (
	"net/http"
	"sync"

	"github.com/pixcheckout/pixcheckout/checkout/team"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// streamCounter caps the SSE streams open at once: in all, per order and per client address.
type streamCounter struct {
	mu                           sync.Mutex
	max, maxByOrder, maxByClient int // maxByClient 0: no cap per client
	open                         int
	byOrder, byClient            map[string]int
}

func newStreamCounter(max, maxByOrder, maxByClient int) *streamCounter {
	return &streamCounter{max: max, maxByOrder: maxByOrder, maxByClient: maxByClient,
		byOrder: map[string]int{}, byClient: map[string]int{}}
}

// acquire counts a new stream of order id for client (an address key) and returns the function
// that uncounts it, or false when a cap is reached.
func (c *streamCounter) acquire(id, client string) (release func(), ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.open >= c.max || c.byOrder[id] >= c.maxByOrder ||
		(c.maxByClient > 0 && c.byClient[client] >= c.maxByClient) {
		return nil, false
	}
	c.open++
	c.byOrder[id]++
	c.byClient[client]++
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.open--
		if c.byOrder[id]--; c.byOrder[id] <= 0 {
			delete(c.byOrder, id)
		}
		if c.byClient[client]--; c.byClient[client] <= 0 {
			delete(c.byClient, client)
		}
	}, true
}

// count returns how many streams are open.
func (c *streamCounter) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.open
}

// clientKey is how the client of r is counted by the per-address limits (new carts, streams).
func clientKey(r *http.Request) string { return team.AddressKey(respond.ClientIP(r)) }
