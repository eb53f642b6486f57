package web

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// statusMessage is the JSON of the status endpoint and of each SSE event, read by
// static/files/pix.js: the order's status and its label, where the page should go now, the
// server's time and the QR code's expiry (UTC, milliseconds), with which the script ticks the
// countdown on the shopper's clock corrected by the server's.
type statusMessage struct {
	Status     string `json:"status"`
	StatusText string `json:"statusText"`
	Text       string `json:"text"`
	Now        string `json:"now"`
	ExpiresAt  string `json:"expiresAt,omitempty"`
	Redirect   string `json:"redirect,omitempty"`
	// Stage is what the order page says of the order (views.OrderStage: shipped, delivered…);
	// StageKey changes with anything that page shows (views.StageKey).
	Stage    string `json:"stage"`
	StageKey string `json:"stageKey"`
}

// statusOf builds the status message of o for the page of request r.
func (s *Server) statusOf(r *http.Request, o *checkout.Order) statusMessage {
	return s.statusFor(s.viewOf(r), o)
}

// viewOf is what status messages need of request r.
func (s *Server) viewOf(r *http.Request) streamView {
	return streamView{lang: respond.Lang(r), req: r, page: orderViewParam(r)}
}

// statusFor builds the status message of o, as of now. redirect tells where the page should go
// now: the paid page once paid, the PIX page (which shows why) once failed or canceled.
func (s *Server) statusFor(v streamView, o *checkout.Order) statusMessage {
	text := views.StatusText(v.lang, o.Status)
	m := statusMessage{Status: string(o.Status), StatusText: text, Text: text, Now: gatewayclient.FormatTime(s.svc.Now())}
	if o.Status == checkout.StatusPending {
		if unavailable, _ := s.pendingState(o); unavailable {
			// The page says so (views.PixPage): its live status must not turn it back into
			// "being generated".
			m.Text = views.T(v.lang, views.MsgPixUnavailable)
		}
	}
	if a := o.QR(); a != nil {
		m.ExpiresAt = gatewayclient.FormatTime(a.ExpiresAt)
	}
	switch {
	case o.Status.WasPaid():
		m.Redirect = v.link(payPath(o.ID) + "/paid")
	case o.Status == checkout.StatusFailed, o.Status == checkout.StatusCanceled:
		m.Redirect = v.link(payPath(o.ID))
	}
	v.orderMessage(&m, o)
	return m
}

// status is GET /pay/{orderID}/status: JSON {status, statusText, text, now, expiresAt,
// redirect} (see statusMessage), the polling fallback of the live page.
func (s *Server) status(w http.ResponseWriter, r *http.Request) {
	o, err := s.order(r)
	if err != nil {
		s.site.FailJSON(w, r, err)
		return
	}
	respond.JSON(w, http.StatusOK, s.statusOf(r, o))
}

// sseRetry is the reconnection delay the browser is told to use, in milliseconds.
const sseRetry = 3000

// sseRetryText is sseRetry as written in the stream.
var sseRetryText = strconv.Itoa(sseRetry)

// errTooManyStreams refuses a stream past a cap; the page polls the status instead.
var errTooManyStreams = &checkout.Error{Code: checkout.CodeUnavailable,
	Message: "too many live status streams: poll the status URL instead"}

// events is GET /pay/{orderID}/events: a Server-Sent Events stream of the order's status. It
// sends the current status at once, then each change; a comment every heartbeat keeps it
// alive through proxies. It ends once the message carries a redirect (paid, failed, or a QR
// code that appeared since the page was drawn), when the client goes (the request's context
// ends as soon as net/http sees the connection close), or when the server shuts down.
//
// Each stream is served by its request's own goroutine, as net/http serves any request, waiting
// for the order's events, its heartbeat (and Options.Recheck's timer, when set): about 33 KB a
// stream, net/http's connection buffers and two goroutines' stacks for the most part, so 10,000
// open streams cost ≈ 330 MB. Streams are capped per order and per process (Options.MaxStreams):
// past a cap the answer is 503 with Retry-After, on which the page's script polls the status
// endpoint instead. The server's WriteTimeout stays on: each write extends this stream's own
// deadline through http.ResponseController, so a client that reads nothing cannot hold the
// goroutine, and shutdown cuts a write blocked on such a client at once.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	id := chi.URLParam(r, "orderID")
	release, ok := s.streams.acquire(id, clientKey(r))
	if !ok {
		w.Header().Set("Retry-After", "60")
		s.site.FailJSON(w, r, errTooManyStreams)
		return
	}
	defer release()
	// Subscribe, then read the order, so that no change falls between.
	ch, unsubscribe := s.svc.Subscribe(id)
	defer unsubscribe()
	o, err := s.svc.Snapshot(ctx, id)
	if err != nil {
		s.site.FailJSON(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no") // no buffering by a reverse proxy
	rc := http.NewResponseController(w)
	// write checks s.stopping after extending its deadline, so that the cut is never undone.
	uncut := context.AfterFunc(s.stopping, func() { _ = rc.SetWriteDeadline(time.Now()) })
	defer uncut()
	w.WriteHeader(http.StatusOK)

	write := func(b []byte) error { return s.writeEvent(w, rc, b) }
	v := s.viewOf(r)
	first, done := s.streamMessage(v, o, false)
	if err := write([]byte("retry: " + sseRetryText + "\n\n")); err != nil {
		return
	}
	if err := write(first); err != nil || done {
		return
	}
	s.follow(ctx, id, ch, v, v.key(o), write)
}

// writeEvent writes b to a stream, extending the stream's write deadline first: long enough
// for a slow client to take one event, renewed at every write.
func (s *Server) writeEvent(w http.ResponseWriter, rc *http.ResponseController, b []byte) error {
	if err := rc.SetWriteDeadline(time.Now().Add(s.heartbeat + 10*time.Second)); err != nil &&
		!errors.Is(err, http.ErrNotSupported) {
		return err
	}
	if err := s.stopping.Err(); err != nil {
		return err
	}
	if _, err := w.Write(b); err != nil {
		return err
	}
	return rc.Flush()
}

// follow writes the order's changes to its stream (the page's view of it changing from last),
// with heartbeats, until the client goes, the server stops, a write fails or the order is
// done.
func (s *Server) follow(ctx context.Context, id string, ch <-chan checkout.OrderEvent, v streamView, last string,
	write func([]byte) error) {
	heartbeat := time.NewTicker(s.heartbeat)
	defer heartbeat.Stop()
	recheck, stop := s.recheckTicks()
	defer stop()
	for {
		read := s.svc.Snapshot
		select {
		case <-ctx.Done():
			return
		case <-s.done:
			return
		case <-heartbeat.C:
			if err := write([]byte(": heartbeat\n\n")); err != nil {
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
		if v.key(o) == last {
			continue
		}
		// A QR code appeared (the gateway answered late, or a new one was made elsewhere): the
		// page has none to show, so it reloads.
		last = v.key(o)
		msg, done := s.streamMessage(v, o, v.reloads(o))
		if err := write(msg); err != nil || done {
			return
		}
	}
}

// streamView is what a stream's messages need of its request: the page's language, and the
// request itself, whose links carry its explicit language and its embedding (an embedded
// checkout's frame goes on to the paid, failed or canceled page still embedded).
type streamView struct {
	lang views.Lang
	req  *http.Request
	page string // the order page the stream is for (orderViewParam), "" for the PIX page
}

// link is respond.Link for the stream's request.
func (v streamView) link(path string) string { return respond.Link(v.req, path) }

// streamMessage is the event of o's status for a stream; done tells that the stream ends with
// it (the message carries a redirect).
func (s *Server) streamMessage(v streamView, o *checkout.Order, reload bool) (msg []byte, done bool) {
	m := s.statusFor(v, o)
	if reload && m.Redirect == "" {
		m.Redirect = v.link(payPath(o.ID))
	}
	b, _ := json.Marshal(m) // strings only: never fails
	return append(append([]byte("event: status\ndata: "), b...), "\n\n"...), m.Redirect != ""
}
