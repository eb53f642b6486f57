package web

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/views"
)

// statusMessage is the JSON of the status endpoint and of each SSE event (static/files/pix.js
// reads status, text and redirect).
type statusMessage struct {
	Status     string `json:"status"`
	StatusText string `json:"statusText"`
	Text       string `json:"text"`
	Redirect   string `json:"redirect,omitempty"`
}

// statusOf builds the status message of o. redirect tells where the page should go now: the
// paid page once paid, the PIX page (which shows why) once failed.
func (s *Server) statusOf(r *http.Request, o *checkout.Order) statusMessage {
	text := views.StatusText(s.pageLang(r), o.Status)
	m := statusMessage{Status: string(o.Status), StatusText: text, Text: text}
	switch {
	case o.Status.WasPaid():
		m.Redirect = s.link(r, payPath(o.ID)+"/paid")
	case o.Status == checkout.StatusFailed:
		m.Redirect = s.link(r, payPath(o.ID))
	}
	return m
}

// status is GET /pay/{orderID}/status: JSON {status, statusText, text, redirect}, the polling
// fallback of the live page.
func (s *Server) status(w http.ResponseWriter, r *http.Request) {
	o, err := s.order(r)
	if err != nil {
		s.failJSON(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, s.statusOf(r, o))
}

// sseRetry is the reconnection delay the browser is told to use, in milliseconds.
const sseRetry = 3000

// errTooManyStreams refuses a stream past a cap; the page polls the status instead.
var errTooManyStreams = &checkout.Error{Code: checkout.CodeUnavailable,
	Message: "too many live status streams: poll the status URL instead"}

// events is GET /pay/{orderID}/events: a Server-Sent Events stream of the order's status. It
// sends the current status at once, then each change; a comment every heartbeat keeps it
// alive. It ends once the message carries a redirect (paid, failed, or a QR code that appeared
// since the page was drawn), when the client goes, or when the server shuts down (a write
// blocked on a client that reads nothing is cut then too). The server's WriteTimeout stays on:
// each write extends this stream's own deadline through http.ResponseController.
//
// A stream is cheap: it waits for the order's events, reading the order's snapshot from memory
// when one comes, with no timer but the heartbeat (and Options.Recheck's, when set). Streams
// are capped per order and per process (Options.MaxStreams): past a cap the answer is 503, on
// which the page's script polls the status endpoint instead.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	id := chi.URLParam(r, "orderID")
	release, ok := s.streams.acquire(id)
	if !ok {
		w.Header().Set("Retry-After", "60")
		s.failJSON(w, r, errTooManyStreams)
		return
	}
	defer release()
	// Subscribe before reading the order, so that no change falls between the two.
	ch, unsubscribe := s.svc.Subscribe(id)
	defer unsubscribe()
	o, err := s.svc.Snapshot(ctx, id)
	if err != nil {
		s.failJSON(w, r, err)
		return
	}
	rc := http.NewResponseController(w)
	// Shutdown cuts a write blocked on a client that reads nothing (write checks s.stopping
	// after extending its deadline, so that the cut is never undone).
	uncut := context.AfterFunc(s.stopping, func() { _ = rc.SetWriteDeadline(time.Now()) })
	defer uncut()
	h := w.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no") // no buffering by a reverse proxy
	w.WriteHeader(http.StatusOK)

	write := func(text string) error {
		// Long enough for a slow client to take one event, renewed at every write.
		if err := rc.SetWriteDeadline(time.Now().Add(s.opts.Heartbeat + 10*time.Second)); err != nil &&
			!errors.Is(err, http.ErrNotSupported) {
			return err
		}
		if err := s.stopping.Err(); err != nil {
			return err
		}
		if _, err := io.WriteString(w, text); err != nil {
			return err
		}
		return rc.Flush()
	}
	send := func(o *checkout.Order, reload bool) (done bool, err error) {
		m := s.statusOf(r, o)
		if reload && m.Redirect == "" {
			m.Redirect = s.link(r, payPath(o.ID))
		}
		b, err := json.Marshal(m)
		if err != nil {
			return true, err
		}
		return m.Redirect != "", write("event: status\ndata: " + string(b) + "\n\n")
	}

	if err := write("retry: " + strconv.Itoa(sseRetry) + "\n\n"); err != nil {
		return
	}
	last := o.Status
	if done, err := send(o, false); done || err != nil {
		return
	}
	heartbeat := time.NewTicker(s.opts.Heartbeat)
	defer heartbeat.Stop()
	var recheck <-chan time.Time
	if s.opts.Recheck > 0 {
		t := time.NewTicker(s.opts.Recheck)
		defer t.Stop()
		recheck = t.C
	}
	for {
		read := s.svc.Snapshot
		select {
		case <-ctx.Done():
			return
		case <-s.done:
			return
		case <-heartbeat.C:
			if err := write(": heartbeat\n\n"); err != nil {
				return
			}
			continue
		case <-ch: // the event may be stale, and events may have been dropped: read the snapshot
		case <-recheck: // another instance may have changed the order: read the store
			read = s.svc.Order
		}
		o, err := read(ctx, id)
		if err != nil {
			return
		}
		if o.Status == last {
			continue
		}
		// A QR code appeared (the gateway answered late, or a new one was made elsewhere): the
		// page has none to show, so it reloads.
		reload := o.Status == checkout.StatusAwaitingPayment
		last = o.Status
		if done, err := send(o, reload); done || err != nil {
			return
		}
	}
}
