package checkout

import (
	"sync"
	"time"
)

// OrderEvent tells that an order changed status, or changed in a way its shopper's page shows
// (shipped, delivered, a payment to return or returned). Status is empty when the change was heard of
// without its status (another process changed an order this one holds no snapshot of):
// subscribers read the order, as they do after any event.
type OrderEvent struct {
	OrderID string
	Status  OrderStatus
	At      time.Time
}

// broker fans order events out to in-process subscribers (the SSE streams of the PIX page).
type broker struct {
	mu   sync.Mutex
	subs map[string]map[chan OrderEvent]struct{}
	// watchers see every event, called in publish (outside the lock); they must not block.
	watchers map[*func(OrderEvent)]struct{}
}

func newBroker() *broker {
	return &broker{subs: map[string]map[chan OrderEvent]struct{}{}, watchers: map[*func(OrderEvent)]struct{}{}}
}

// watch calls fn with every event until the returned function is called.
func (b *broker) watch(fn func(OrderEvent)) func() {
	b.mu.Lock()
	defer b.mu.Unlock()
	p := &fn
	b.watchers[p] = struct{}{}
	return func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		delete(b.watchers, p)
	}
}

// subscribe registers a subscriber of one order. The channel has a small buffer; the returned
// function unregisters it and is safe to call more than once.
func (b *broker) subscribe(orderID string) (<-chan OrderEvent, func()) {
	ch := make(chan OrderEvent, 4)
	b.mu.Lock()
	set := b.subs[orderID]
	if set == nil {
		set = map[chan OrderEvent]struct{}{}
		b.subs[orderID] = set
	}
	set[ch] = struct{}{}
	b.mu.Unlock()
	var once sync.Once
	return ch, func() {
		once.Do(func() {
			b.mu.Lock()
			defer b.mu.Unlock()
			delete(b.subs[orderID], ch)
			if len(b.subs[orderID]) == 0 {
				delete(b.subs, orderID)
			}
		})
	}
}

// publish sends e to every subscriber of its order without blocking: a subscriber whose buffer
// is full misses it (it re-reads the order when it gets the next one, or on its own polling).
func (b *broker) publish(e OrderEvent) {
	b.mu.Lock()
	for ch := range b.subs[e.OrderID] {
		select {
		case ch <- e:
		default:
		}
	}
	var watchers []func(OrderEvent)
	for fn := range b.watchers {
		watchers = append(watchers, *fn)
	}
	b.mu.Unlock()
	for _, fn := range watchers {
		fn(e)
	}
}
