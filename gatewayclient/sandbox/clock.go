package sandbox

import (
	"sync"
	"time"
)

// Clock tells the sandbox what time it is. Tests inject a fixed or manual clock; the sandbox
// layers its own persisted offset on top (POST sandbox/clock/advance), so simulated time can
// move forward whatever the base clock is.
type Clock interface {
	Now() time.Time
}

// systemClock is the real wall clock.
type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now() }

// ManualClock is a Clock that only moves when told to. It is safe for concurrent use.
type ManualClock struct {
	mu  sync.Mutex
	now time.Time
}

// NewManualClock returns a clock stopped at t.
func NewManualClock(t time.Time) *ManualClock { return &ManualClock{now: t} }

// Now returns the clock's current time.
func (c *ManualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock forward by d.
func (c *ManualClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// offsetClock is the sandbox's effective clock: the base clock plus an offset moved by
// clock/advance. The offset is persisted by the caller so a restart keeps simulated time.
type offsetClock struct {
	base Clock
	mu   sync.Mutex
	off  time.Duration
	// advancing serialises advances, so that each saves the offset before the next reads it.
	advancing sync.Mutex
}

func (c *offsetClock) Now() time.Time {
	c.mu.Lock()
	off := c.off
	c.mu.Unlock()
	return c.base.Now().Add(off)
}

func (c *offsetClock) offset() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.off
}

func (c *offsetClock) setOffset(d time.Duration) {
	c.mu.Lock()
	c.off = d
	c.mu.Unlock()
}

// advance moves the offset forward by d once save has stored the new offset.
func (c *offsetClock) advance(d time.Duration, save func(off time.Duration) error) error {
	c.advancing.Lock()
	defer c.advancing.Unlock()
	off := c.offset() + d
	if err := save(off); err != nil {
		return err
	}
	c.setOffset(off)
	return nil
}
