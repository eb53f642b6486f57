package web

import "sync"

// streamCounter caps the SSE streams open at once, in all and per order.
type streamCounter struct {
	mu              sync.Mutex
	max, maxByOrder int
	open            int
	byOrder         map[string]int
}

func newStreamCounter(max, maxByOrder int) *streamCounter {
	return &streamCounter{max: max, maxByOrder: maxByOrder, byOrder: map[string]int{}}
}

// acquire counts a new stream of order id and returns the function that uncounts it, or false
// when a cap is reached.
func (c *streamCounter) acquire(id string) (release func(), ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.open >= c.max || c.byOrder[id] >= c.maxByOrder {
		return nil, false
	}
	c.open++
	c.byOrder[id]++
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.open--
		if c.byOrder[id]--; c.byOrder[id] <= 0 {
			delete(c.byOrder, id)
		}
	}, true
}

// count returns how many streams are open.
func (c *streamCounter) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.open
}
