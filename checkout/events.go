package checkout

import (
	"sync"
	"time"
)

// OrderEvent tells that an order changed status, or changed in a way its shopper's page shows
// (shipped, delivered, a payment to return or returned). Status is empty when the change was heard of
// without its status (another process changed an order this one holds no snapshot of):
// subscribers read the order, as they do after any event. Version is the order's version the
// event is of.
type OrderEvent struct {
	OrderID string
	Status  OrderStatus
	At      time.Time
	Version int
	// TerminalID is the terminal of the point of sale the order is a sale of ("" for the
	// orders of other channels, and when heard of without it): its displays are told too.
	TerminalID string
}

// eventOf is the event of o's change, as stored.
func eventOf(o *Order) OrderEvent {
	return OrderEvent{OrderID: o.ID, Status: o.Status, At: o.UpdatedAt, Version: o.Version, TerminalID: o.TerminalID}
}

// broker fans order events out to in-process subscribers (the SSE streams of the PIX page).
// One change can be published twice: by the process that wrote it, once committed, and by the
// change feed, which hears of the same commit from the database, in either order. The broker
// delivers an order's event only when its version is newer than the last one it delivered for
// that order, so whichever comes first is delivered and the other dropped, and an event that
// comes late for an older version never follows a newer one.
type broker struct {
	mu   sync.Mutex
	subs map[string]*topic
	// terminals are the subscribers of the terminals of the point of sale (their customers'
	// displays), told that one of its sales changed: a signal, coalesced, on which they read
	// the terminal's current sale again.
	terminals map[string]map[chan struct{}]struct{}
}

// topic is the subscribers of one order and the version of the last event they were sent.
type topic struct {
	subs    map[chan OrderEvent]struct{}
	version int
}

func newBroker() *broker {
	return &broker{subs: map[string]*topic{}, terminals: map[string]map[chan struct{}]struct{}{}}
}

// subscribe registers a subscriber of one order. The channel has a small buffer; the returned
// function unregisters it and is safe to call more than once.
func (b *broker) subscribe(orderID string) (<-chan OrderEvent, func()) {
	ch := make(chan OrderEvent, 4)
	b.mu.Lock()
	t := b.subs[orderID]
	if t == nil {
		t = &topic{subs: map[chan OrderEvent]struct{}{}}
		b.subs[orderID] = t
	}
	t.subs[ch] = struct{}{}
	b.mu.Unlock()
	var once sync.Once
	return ch, func() {
		once.Do(func() {
			b.mu.Lock()
			defer b.mu.Unlock()
			delete(t.subs, ch)
			if len(t.subs) == 0 {
				delete(b.subs, orderID)
			}
		})
	}
}

// publish sends e to every subscriber of its order without blocking, unless they were sent an
// event of this version or a newer one already: a subscriber whose buffer is full misses it
// (it re-reads the order when it gets the next one, or on its own polling).
func (b *broker) publish(e OrderEvent) {
	b.mu.Lock()
	if t := b.subs[e.OrderID]; t != nil && e.Version > t.version {
		t.version = e.Version
		for ch := range t.subs {
			select {
			case ch <- e:
			default:
			}
		}
	}
	b.signal(e.TerminalID)
	b.mu.Unlock()
}

// subscribeTerminal registers a subscriber of a terminal's sales. Its channel holds one signal:
// signals sent while one waits are one. The returned function unregisters it and is safe to
// call more than once.
func (b *broker) subscribeTerminal(terminalID string) (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	b.mu.Lock()
	subs := b.terminals[terminalID]
	if subs == nil {
		subs = map[chan struct{}]struct{}{}
		b.terminals[terminalID] = subs
	}
	subs[ch] = struct{}{}
	b.mu.Unlock()
	var once sync.Once
	return ch, func() {
		once.Do(func() {
			b.mu.Lock()
			defer b.mu.Unlock()
			delete(subs, ch)
			if len(subs) == 0 {
				delete(b.terminals, terminalID)
			}
		})
	}
}

// signal tells the subscribers of a terminal ("" none) that one of its sales changed, without
// blocking. b.mu must be held.
func (b *broker) signal(terminalID string) {
	if terminalID == "" {
		return
	}
	for ch := range b.terminals[terminalID] {
		select {
		case ch <- struct{}{}:
		default: // a signal waits already: the subscriber reads the terminal once for both
		}
	}
}

// publishTerminal tells the subscribers of a terminal that one of its sales changed.
func (b *broker) publishTerminal(terminalID string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.signal(terminalID)
}
