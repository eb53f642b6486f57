package web

import (
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/views"
)

// pixPagesMax bounds the rendered PIX pages kept (≈ 6 KB each).
const pixPagesMax = 1024

// pixPages keeps the PIX page last rendered for each order's page address and language, with
// the order snapshot it was rendered from (views.PixParts): until the order changes (a new
// snapshot), its QR code enters its last minutes or expires, or the shop's name changes, the
// page is written from it with the clock and the countdown of the moment, byte for byte the
// page a rendering would give, for a fraction of the CPU. Pages of checkout sessions are not
// kept: their embedding context is read with the session at every request anyway.
type pixPages struct {
	mu   sync.Mutex
	m    map[pixPageKey]*pixPage
	hits atomic.Int64 // pages written from a kept one (tests)
}

// pixPageKey names a page: the request's path and query (the page's links repeat them) and
// its language.
type pixPageKey struct {
	uri      string
	lang     views.Lang
	explicit bool
}

type pixPage struct {
	order     *checkout.Order // the snapshot it was rendered from: a change replaces it
	merchant  string          // the shop's name when rendered
	renewable bool            // whether it offers a new QR code (Order.Renewable)
	parts     *views.PixParts
}

func newPixPages() *pixPages { return &pixPages{m: map[pixPageKey]*pixPage{}} }

// get returns the page kept under k if it is o's page at now, else nil.
func (c *pixPages) get(k pixPageKey, o *checkout.Order, merchant string, now time.Time) *pixPage {
	c.mu.Lock()
	p := c.m[k]
	c.mu.Unlock()
	if p == nil || p.order != o || p.merchant != merchant || p.renewable != o.Renewable(now) || !p.parts.Covers(now) {
		return nil
	}
	c.hits.Add(1)
	return p
}

// put keeps p under k.
func (c *pixPages) put(k pixPageKey, p *pixPage) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[k]; !ok && len(c.m) >= pixPagesMax {
		for old := range c.m { // any: it is rendered again if asked for
			delete(c.m, old)
			break
		}
	}
	c.m[k] = p
}

// writePixPage writes p as of now.
func (s *Server) writePixPage(w http.ResponseWriter, r *http.Request, p *pixPage, now time.Time) {
	buf := s.pages.get()
	defer s.pages.put(buf)
	b, err := p.parts.AppendTo(buf.AvailableBuffer(), now)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writePage(w, http.StatusOK, b)
}
