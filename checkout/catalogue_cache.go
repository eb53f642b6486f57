package checkout

import (
	"context"
	"sync"
	"time"
)

// DefaultCatalogueMaxAge is how long the shop's pages use the active products read last.
const DefaultCatalogueMaxAge = 2 * time.Second

// catalogueCache holds the active products for the shopper's pages: the catalogue and the
// product added to a cart were two reads of every purchase. A change made through this
// Service drops it at once; one made on another instance shows here within its maximum age.
// Orders never rely on it: an order is made from its cart as stored, whose products are read
// with it (an inactive one is refused there).
type catalogueCache struct {
	maxAge time.Duration
	now    func() time.Time // the Service's clock
	mu     sync.Mutex
	at     time.Time // when list was read (zero: nothing held)
	gen    uint64    // bumped by every change: a read begun before one is not kept
	list   []Product
	byID   map[ProductID]int // index in list
}

// products returns the active products, from memory when they were read less than maxAge ago.
func (c *catalogueCache) products(ctx context.Context, read func(ctx context.Context) ([]Product, error)) ([]Product, error) {
	c.mu.Lock()
	if !c.at.IsZero() && c.now().Sub(c.at) < c.maxAge {
		list := c.list
		c.mu.Unlock()
		return append([]Product(nil), list...), nil
	}
	gen := c.gen
	c.mu.Unlock()
	list, err := read(ctx)
	if err != nil {
		return nil, err
	}
	byID := make(map[ProductID]int, len(list))
	for i, p := range list {
		byID[p.ID] = i
	}
	c.mu.Lock()
	if c.gen == gen {
		c.at, c.list, c.byID = c.now(), list, byID
	}
	c.mu.Unlock()
	return append([]Product(nil), list...), nil
}

// product returns the active product id from memory when the products held are fresh and
// include it; ok is false otherwise (the caller reads it from the store).
func (c *catalogueCache) product(id ProductID) (p *Product, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.at.IsZero() || c.now().Sub(c.at) >= c.maxAge {
		return nil, false
	}
	i, found := c.byID[id]
	if !found {
		return nil, false
	}
	cp := c.list[i]
	return &cp, true
}

// changed drops what is held: a product was written.
func (c *catalogueCache) changed() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	c.at, c.list, c.byID = time.Time{}, nil, nil
}
