package web

import (
	"bytes"
	"encoding/json"
	"net"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/views"
)

// hubWriteTimeout bounds one write to a stream's connection. Events are a few hundred bytes
// and heartbeats a dozen, so a healthy client's socket always takes them at once; a write
// that cannot is a client gone or reading nothing, and its stream is dropped rather than
// allowed to hold up the others.
const hubWriteTimeout = 100 * time.Millisecond

// streamHub holds the SSE streams once their first status is written: each is its bare
// connection (taken over from net/http) and what its messages need, with no goroutine and no
// buffer of its own, so that an open stream costs little more than its socket. One goroutine
// writes them all: the changes of the orders they follow (woken by the service's events, the
// order's snapshot read from memory) and the heartbeats. A stream whose client went is noticed
// without a read of its own: at the next heartbeat, whose write is preceded by a look at the
// socket (peerGone), or at once when a new stream would be refused by a cap (sweep).
type streamHub struct {
	s *Server

	mu       sync.Mutex
	closed   bool      // the server shut down: no stream is taken over any more
	sweptAll time.Time // when sweep last looked at every stream
	byOrder  map[string]map[*hubStream]struct{}
	dirty    map[string]struct{} // orders whose streams must compare their status again
	wake     chan struct{}       // holds one token when dirty has something
	done     chan struct{}       // closed when the hub's goroutine returned
}

// hubStream is one stream in the hub.
type hubStream struct {
	conn    net.Conn
	orderID string
	view    streamView
	last    checkout.OrderStatus
	release func() // frees its place under the stream caps
}

// streamView is what a stream's messages need of its request: the page's language, and
// whether links carry it.
type streamView struct {
	lang     views.Lang
	explicit bool
}

// link is Server.link for the stream's request.
func (v streamView) link(path string) string {
	if !v.explicit {
		return path
	}
	return path + "?lang=" + url.QueryEscape(string(v.lang))
}

func newStreamHub(s *Server) *streamHub {
	h := &streamHub{s: s, byOrder: map[string]map[*hubStream]struct{}{}, dirty: map[string]struct{}{},
		wake: make(chan struct{}, 1), done: make(chan struct{})}
	return h
}

// run writes the streams' events and heartbeats until the server shuts down, then closes them.
func (h *streamHub) run() {
	defer close(h.done)
	stop := h.s.svc.Watch(func(e checkout.OrderEvent) { h.mark(e.OrderID) })
	defer stop()
	heartbeat := time.NewTicker(h.s.opts.Heartbeat)
	defer heartbeat.Stop()
	var recheck <-chan time.Time
	if h.s.opts.Recheck > 0 {
		t := time.NewTicker(h.s.opts.Recheck)
		defer t.Stop()
		recheck = t.C
	}
	for {
		select {
		case <-h.s.done:
			h.closeAll()
			return
		case <-h.wake:
			h.update()
		case <-heartbeat.C:
			h.heartbeat()
		case <-recheck:
			// Changes made by other instances: the orders followed are read again from the
			// store; Changed publishes those that moved, which marks them here.
			for _, id := range h.orders() {
				_ = h.s.svc.Changed(h.s.stopping, id)
			}
		}
	}
}

// add takes over a stream whose headers and first status were written, and has its order
// compared again (a change between that status and now is not lost). It reports false when
// the hub is closed.
func (h *streamHub) add(st *hubStream) bool {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return false
	}
	set := h.byOrder[st.orderID]
	if set == nil {
		set = map[*hubStream]struct{}{}
		h.byOrder[st.orderID] = set
	}
	set[st] = struct{}{}
	h.mu.Unlock()
	h.mark(st.orderID)
	return true
}

// mark has the streams of an order compare their status again.
func (h *streamHub) mark(orderID string) {
	h.mu.Lock()
	if _, ok := h.byOrder[orderID]; !ok {
		h.mu.Unlock()
		return
	}
	h.dirty[orderID] = struct{}{}
	h.mu.Unlock()
	select {
	case h.wake <- struct{}{}:
	default:
	}
}

// orders returns the orders that have streams.
func (h *streamHub) orders() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	ids := make([]string, 0, len(h.byOrder))
	for id := range h.byOrder {
		ids = append(ids, id)
	}
	return ids
}

// streamsOf returns the streams of an order.
func (h *streamHub) streamsOf(orderID string) []*hubStream {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]*hubStream, 0, len(h.byOrder[orderID]))
	for st := range h.byOrder[orderID] {
		out = append(out, st)
	}
	return out
}

// update writes, to the streams of each order marked, its status when it changed.
func (h *streamHub) update() {
	h.mu.Lock()
	dirty := h.dirty
	h.dirty = map[string]struct{}{}
	h.mu.Unlock()
	for id := range dirty {
		o, err := h.s.svc.Snapshot(h.s.stopping, id)
		if err != nil {
			continue // read again at its next event
		}
		for _, st := range h.streamsOf(id) {
			if o.Status == st.last {
				continue
			}
			// A QR code appeared (the gateway answered late, or a new one was made elsewhere):
			// the page has none to show, so it reloads.
			reload := o.Status == checkout.StatusAwaitingPayment
			st.last = o.Status
			msg, done := h.s.streamMessage(st.view, o, reload)
			if err := h.write(st, msg); err != nil || done {
				h.remove(st)
			}
		}
	}
}

// heartbeat writes a comment to every stream, dropping those whose client went. A socket
// whose client closed it still takes one write (the client's system answers it with a reset),
// so each is looked at first: a stream is dropped at the first heartbeat after its client went,
// not the second.
func (h *streamHub) heartbeat() {
	for _, st := range h.all() {
		if peerGone(st.conn) {
			h.remove(st)
			continue
		}
		if err := h.write(st, []byte(": heartbeat\n\n")); err != nil {
			h.remove(st)
		}
	}
}

// all returns every stream of the hub.
func (h *streamHub) all() []*hubStream {
	h.mu.Lock()
	defer h.mu.Unlock()
	var all []*hubStream
	for _, set := range h.byOrder {
		for st := range set {
			all = append(all, st)
		}
	}
	return all
}

// sweepEvery is how often sweep may look at every stream of the hub: at the process's cap, a
// crowd of refused clients would otherwise each make it look at ten thousand sockets.
const sweepEvery = time.Second

// sweep drops the streams of orderID whose client went (the client closed the page, and the
// hub has not written to it since), and, when that frees no place, those of every order (at
// most once every sweepEvery). It reports how many it dropped. A stream refused by a cap calls
// it and asks again, so that a place held by a closed stream is given at once, not after the
// next heartbeat.
func (h *streamHub) sweep(orderID string) int {
	if n := h.dropGone(h.streamsOf(orderID)); n > 0 {
		return n
	}
	h.mu.Lock()
	if time.Since(h.sweptAll) < sweepEvery {
		h.mu.Unlock()
		return 0
	}
	h.sweptAll = time.Now()
	h.mu.Unlock()
	return h.dropGone(h.all())
}

// dropGone drops the streams among sts whose client went, and reports how many.
func (h *streamHub) dropGone(sts []*hubStream) int {
	n := 0
	for _, st := range sts {
		if peerGone(st.conn) {
			h.remove(st)
			n++
		}
	}
	return n
}

func (h *streamHub) write(st *hubStream, b []byte) error {
	if err := st.conn.SetWriteDeadline(time.Now().Add(hubWriteTimeout)); err != nil {
		return err
	}
	_, err := st.conn.Write(b)
	return err
}

// remove closes a stream and frees its place.
func (h *streamHub) remove(st *hubStream) {
	h.mu.Lock()
	set := h.byOrder[st.orderID]
	_, ok := set[st]
	delete(set, st)
	if len(set) == 0 {
		delete(h.byOrder, st.orderID)
	}
	h.mu.Unlock()
	if ok {
		_ = st.conn.Close()
		st.release()
	}
}

// closeAll ends every stream (the server is shutting down).
func (h *streamHub) closeAll() {
	h.mu.Lock()
	h.closed = true
	h.mu.Unlock()
	for _, st := range h.all() {
		h.remove(st)
	}
}

// streamMessage is the event of o's status for a stream; done tells that the stream ends with
// it (the message carries a redirect).
func (s *Server) streamMessage(v streamView, o *checkout.Order, reload bool) (msg []byte, done bool) {
	m := s.statusFor(v, o)
	if reload && m.Redirect == "" {
		m.Redirect = v.link(payPath(o.ID))
	}
	b, _ := json.Marshal(m) // strings only: never fails
	var buf bytes.Buffer
	buf.Grow(len(b) + 24)
	buf.WriteString("event: status\ndata: ")
	buf.Write(b)
	buf.WriteString("\n\n")
	return buf.Bytes(), m.Redirect != ""
}

// takeOver writes the stream's response head and first message on the bare connection of w,
// and hands the stream to the hub. It reports false, having written nothing, when the
// connection cannot be taken over (HTTP/2, or a writer that is not a connection's).
func (h *streamHub) takeOver(w http.ResponseWriter, r *http.Request, st *hubStream, first []byte) bool {
	rc := http.NewResponseController(w)
	conn, buf, err := rc.Hijack()
	if err != nil {
		return false
	}
	// The server's read and write deadlines for the request are over: the hub sets its own
	// for each write.
	_ = conn.SetDeadline(time.Time{})
	var head bytes.Buffer
	head.WriteString("HTTP/1.1 200 OK\r\n")
	hdr := w.Header().Clone()
	// The body ends when the connection closes: no chunked framing to keep up.
	hdr.Set("Connection", "close")
	_ = hdr.Write(&head)
	head.WriteString("\r\n")
	head.WriteString("retry: " + sseRetryText + "\n\n")
	head.Write(first)
	st.conn = conn
	// Bytes the client sent after its request (none for an EventSource) are of no use.
	_ = buf
	if err := h.write(st, head.Bytes()); err != nil || !h.add(st) {
		_ = conn.Close()
		st.release()
	}
	return true
}
