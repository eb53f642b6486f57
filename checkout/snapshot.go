package checkout

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// DefaultSnapshots is how many order snapshots a Service keeps in memory by default. An order
// without its transaction request takes 2–4 KB (most of it the QR image), so the default stays
// under about 40 MB however many orders there are.
const DefaultSnapshots = 10_000

// Snapshot returns the order as last stored, from memory when this process read or changed it
// recently: the shopper's pages read it at every request (the PIX page, its QR image, its
// status and its event stream), and a read that reaches the database at each of them would
// cost more than the page. The first read of an order fills the snapshot from the store; every
// change made through this Service replaces it, as do changes reported by Changed (another
// instance's, heard through the database). With ServiceOptions.SnapshotMaxAge set, a snapshot
// older than that is read again.
//
// The returned order is shared with other readers and must not be changed. Its attempts carry
// no Request (the stored transaction request is of no use to a page); read the order with
// Order to change it.
func (s *Service) Snapshot(ctx context.Context, id string) (*Order, error) {
	now := s.now()
	if o := s.snaps.get(id, now, s.snapMaxAge); o != nil {
		return o, nil
	}
	gen := s.snaps.generation()
	o, err := s.store.Order(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("checkout: order: %w", err)
	}
	return s.snaps.fill(o, gen, now), nil
}

// reread reads the order from the store, as Snapshot does on a miss, whatever snapshot is held:
// the newer of the two is returned and kept.
func (s *Service) reread(ctx context.Context, id string) (*Order, error) {
	gen := s.snaps.generation()
	o, err := s.store.Order(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("checkout: order: %w", err)
	}
	return s.snaps.fill(o, gen, s.now()), nil
}

// remember replaces the snapshot of an order this process just wrote.
func (s *Service) remember(o *Order) {
	s.snaps.put(snapshotOf(o), s.now())
}

// snapshotOf returns a copy of o that shares nothing its writer may change later, without the
// attempts' transaction requests.
func snapshotOf(o *Order) *Order {
	c := o.Clone()
	for i := range c.Attempts {
		c.Attempts[i].Request = nil
	}
	return c
}

// snapshots is a bounded map of order snapshots by id, in two generations: lookups look in the
// current one, then in the previous one (moving a hit to the current one); when the current
// one is full it becomes the previous one and the oldest is dropped whole. Orders read or
// changed recently stay; memory never holds more than max snapshots; nothing is scanned.
type snapshots struct {
	mu       sync.Mutex
	max      int // of both generations together
	cur, old map[string]snapshot
	// txCur and txOld name the order of each transaction id of the snapshots' attempts, in the
	// same two generations: a webhook names a transaction, not an order.
	txCur, txOld map[string]string
	// writes counts puts: a fill read from the store before a put (of any order) may be older
	// than what was put, so it is not kept (the next read fills it again).
	writes uint64
}

type snapshot struct {
	o  *Order
	at time.Time // when it was read or written
}

func newSnapshots(max int) *snapshots {
	if max < 2 {
		max = 2
	}
	return &snapshots{max: max, cur: map[string]snapshot{}, old: map[string]snapshot{},
		txCur: map[string]string{}, txOld: map[string]string{}}
}

// get returns the snapshot of id, or nil when there is none or it is older than maxAge (0: no
// age limit).
func (c *snapshots) get(id string, now time.Time, maxAge time.Duration) *Order {
	c.mu.Lock()
	defer c.mu.Unlock()
	sn, ok := c.cur[id]
	if !ok {
		if sn, ok = c.old[id]; ok {
			delete(c.old, id)
			c.add(id, sn)
		}
	}
	if !ok || maxAge > 0 && now.Sub(sn.at) > maxAge {
		return nil
	}
	return sn.o
}

// generation returns the count of puts so far, to be given to fill.
func (c *snapshots) generation() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.writes
}

// fill keeps o, read from the store after generation gen, unless something was put since (it
// may be older than that) or a newer version is held. It returns the snapshot to use.
func (c *snapshots) fill(o *Order, gen uint64, now time.Time) *Order {
	sn := snapshot{o: snapshotOf(o), at: now}
	c.mu.Lock()
	defer c.mu.Unlock()
	if held, ok := c.lookup(o.ID); ok && held.o.Version > o.Version {
		return held.o
	}
	if c.writes == gen {
		c.add(o.ID, sn)
	}
	return sn.o
}

// put keeps o, just written, unless a newer version is held.
func (c *snapshots) put(o *Order, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.writes++
	if held, ok := c.lookup(o.ID); ok && held.o.Version > o.Version {
		return
	}
	delete(c.old, o.ID)
	c.add(o.ID, snapshot{o: o, at: now})
}

// forget drops the snapshot of id (its order changed elsewhere); the next read fills it again.
func (c *snapshots) forget(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.writes++
	delete(c.cur, id)
	delete(c.old, id)
}

func (c *snapshots) lookup(id string) (snapshot, bool) {
	if sn, ok := c.cur[id]; ok {
		return sn, true
	}
	sn, ok := c.old[id]
	return sn, ok
}

// add puts sn in the current generation, turning generations when it is full. c.mu is held.
func (c *snapshots) add(id string, sn snapshot) {
	if _, ok := c.cur[id]; !ok && len(c.cur) >= c.max/2 {
		c.old = c.cur
		c.cur = make(map[string]snapshot, c.max/2)
		c.txOld = c.txCur
		c.txCur = make(map[string]string, c.max/2)
	}
	c.cur[id] = sn
	for _, a := range sn.o.Attempts {
		if a.TransactionID != "" {
			c.txCur[a.TransactionID] = id
		}
	}
}

// byTransaction returns the snapshot of the order whose attempt has transaction id txID, or
// nil when none is held.
func (c *snapshots) byTransaction(txID string) *Order {
	c.mu.Lock()
	defer c.mu.Unlock()
	id, ok := c.txCur[txID]
	if !ok {
		id, ok = c.txOld[txID]
	}
	if !ok {
		return nil
	}
	sn, ok := c.lookup(id)
	if !ok {
		return nil
	}
	return sn.o
}

// len returns how many snapshots are held.
func (c *snapshots) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.cur) + len(c.old)
}
