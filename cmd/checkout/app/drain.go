package app

import (
	"net/http"
	"strings"
	"sync"
)

// drainer counts the checkout's requests in flight (not the embedded sandbox's), so that a
// shutdown can wait for them while the server still answers the sandbox calls they make: the
// sandbox is served by the very listener http.Server.Shutdown would close first.
type drainer struct {
	mu       sync.Mutex
	n        int
	draining bool
	idle     chan struct{}
	onEnter  func() // tests: called when a request is counted
}

// wrap counts requests outside prefix; once draining, it refuses new ones with 503.
func (d *drainer) wrap(prefix string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, prefix) {
			next.ServeHTTP(w, r)
			return
		}
		if !d.enter() {
			w.Header().Set("Connection", "close")
			w.Header().Set("Retry-After", "5")
			http.Error(w, "shutting down", http.StatusServiceUnavailable)
			return
		}
		defer d.leave()
		next.ServeHTTP(w, r)
	})
}

func (d *drainer) enter() bool {
	d.mu.Lock()
	if d.draining {
		d.mu.Unlock()
		return false
	}
	d.n++
	hook := d.onEnter
	d.mu.Unlock()
	if hook != nil {
		hook()
	}
	return true
}

func (d *drainer) leave() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.n--
	if d.n == 0 && d.idle != nil {
		close(d.idle)
		d.idle = nil
	}
}

// drain refuses new requests and returns a channel closed once none is in flight.
func (d *drainer) drain() <-chan struct{} {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.draining = true
	ch := make(chan struct{})
	if d.n == 0 {
		close(ch)
	} else {
		d.idle = ch
	}
	return ch
}
