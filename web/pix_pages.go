package web

import (
	"sync"

	"github.com/pixcheckout/pixcheckout/views"
)

// pixPagesKept bounds the PIX pages kept (≈ 5 KB each).
const pixPagesKept = 1024

// pixPages keeps the PIX pages last rendered, whole, under everything each is made of: the
// request's URI (the order's id, and the query that the page's language links repeat), the
// order's version (every change of the order is a new version), and the page's language and
// whether the request chose it. Nothing else goes into the page: not the moment it is drawn
// (views.PixPage), and the shop's name, its assets and the sandbox mode are the Server's for its
// whole life. Pages of checkout sessions are not kept: their framing and their session are read
// at every request.
//
// It is kept because the PIX page is the page a shopper's browser (reloads, a second tab or
// device, the page without JavaScript refreshing itself) asks for again while it waits, and
// rendering it with templ is most of its cost: without it the page falls under the floor of
// 0.25× a bare handler writing the same bytes that the performance document holds it to.
type pixPages struct {
	mu sync.Mutex
	m  map[pixPageKey][]byte
}

type pixPageKey struct {
	uri      string
	version  int
	lang     views.Lang
	explicit bool
}

func newPixPages() *pixPages { return &pixPages{m: map[pixPageKey][]byte{}} }

// get returns the page kept under k, or nil.
func (c *pixPages) get(k pixPageKey) []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[k]
}

// put keeps page under k. A full cache forgets a page first, any (it is rendered again if
// asked for).
func (c *pixPages) put(k pixPageKey, page []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[k]; !ok && len(c.m) >= pixPagesKept {
		for old := range c.m {
			delete(c.m, old)
			break
		}
	}
	c.m[k] = page
}
