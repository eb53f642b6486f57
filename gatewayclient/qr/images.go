package qr

import (
	"sync"
	"sync/atomic"
)

// Images draws QR code PNGs and keeps the last few it drew, by text and scale. A process that
// holds both ends of a payment, the checkout with its embedded sandbox gateway, draws each
// attempt's code twice otherwise: once as the gateway's qrCodeBase64, once as the checkout's
// own image of the BR Code it verified. Sharing one Images between them makes the second a
// lookup: a QR symbol (its mask selection and Reed–Solomon blocks) is most of the CPU an order
// costs, so drawing it twice would spend on the second drawing the headroom that keeps the order
// POST of 16 shoppers on two cores under its p99 goal (cmd/loadtest/README.md). The entries are
// needed for moments (the checkout draws its image right after the gateway answered), so a small
// ring is enough.
//
// The PNGs returned are shared: callers must not change them. A nil *Images draws every time.
type Images struct {
	mu            sync.Mutex
	byKey         map[imageKey][]byte
	ring          []imageKey // insertion order; the oldest entry is replaced when full
	next          int
	drawn, reused atomic.Uint64
}

type imageKey struct {
	text  string
	scale int
}

// NewImages returns an Images keeping at most n PNGs (n < 1: 1).
func NewImages(n int) *Images {
	n = max(n, 1)
	return &Images{byKey: make(map[imageKey][]byte, n), ring: make([]imageKey, 0, n)}
}

// PNG returns the PNG of text's QR code (see Encode and Code.PNG), drawn once while it stays
// among the last n drawn.
func (c *Images) PNG(text string, scale int) ([]byte, error) {
	if c == nil {
		return draw(text, scale)
	}
	k := imageKey{text, scale}
	c.mu.Lock()
	png, ok := c.byKey[k]
	c.mu.Unlock()
	if ok {
		c.reused.Add(1)
		return png, nil
	}
	// Drawn outside the lock: two callers drawing the same text at once both get a correct
	// image (the same bytes), and nobody waits for another's drawing.
	png, err := draw(text, scale)
	if err != nil {
		return nil, err
	}
	c.drawn.Add(1)
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byKey[k]; ok {
		return png, nil
	}
	if len(c.ring) < cap(c.ring) {
		c.ring = append(c.ring, k)
	} else {
		delete(c.byKey, c.ring[c.next])
		c.ring[c.next] = k
		c.next = (c.next + 1) % len(c.ring)
	}
	c.byKey[k] = png
	return png, nil
}

// Stats reports how many PNGs c drew and how many requests it answered with one it kept.
func (c *Images) Stats() (drawn, reused uint64) { return c.drawn.Load(), c.reused.Load() }

// draw encodes text and writes its PNG at scale.
func draw(text string, scale int) ([]byte, error) {
	code, err := Encode(text)
	if err != nil {
		return nil, err
	}
	return code.PNG(scale)
}
