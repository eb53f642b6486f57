package web

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/pos"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/ratelimit"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// The customer's display of the point of sale (/pos/display): a second screen facing the
// customer, paired with one terminal by a code shown there (pos.Displays). Pairing sets the
// display's cookie, scoped to /pos, holding its token (kept hashed); with it, the display shows
// only its terminal's current sale, followed through the service's terminal subscription (fed
// on PostgreSQL by the change feed's kind for terminals), with the status URL as the polling
// fallback. A revoked or unknown token shows the pairing form again.

// Paths of the customer's display.
const (
	DisplayPath       = "/pos/display"
	displayEventsPath = DisplayPath + "/events"
	displayStatusPath = DisplayPath + "/status"
	// DisplayCookie holds a paired display's token.
	DisplayCookie = "pos_display"
)

// displayCookieAge is how long a display's cookie lives in the browser: as long as browsers
// allow (400 days); an owner ends it sooner by revoking the display.
const displayCookieAge = 400 * 24 * time.Hour

// DefaultPairingLimit is how many pairing attempts one client address may make: a code has a
// million values and lives ten minutes, so a few tries a minute leave guessing hopeless.
var DefaultPairingLimit = ratelimit.Rate{Requests: 5, Period: time.Minute, Burst: 10}

// displayPage is GET /pos/display: the paired terminal's current sale, or the pairing form.
func (s *Server) displayPage(w http.ResponseWriter, r *http.Request) {
	d, ok := s.pairedDisplay(r)
	if !ok {
		s.renderPairing(w, r, http.StatusOK, "", "", 0)
		return
	}
	st, err := s.displayState(r.Context(), respond.Lang(r), d.TerminalID)
	if err != nil {
		s.site.Fail(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	s.site.Render(w, r, http.StatusOK, views.PosDisplayPage(views.PosDisplayView{Page: s.site.Page(r), State: st,
		Events: respond.Link(r, displayEventsPath), StatusURL: respond.Link(r, displayStatusPath)}))
}

// pairDisplay is POST /pos/display: the code typed pairs this browser with its terminal.
// Attempts are limited per client address, refused ones and good ones alike.
func (s *Server) pairDisplay(w http.ResponseWriter, r *http.Request) {
	if !s.site.ParseForm(w, r) {
		return
	}
	code := r.PostForm.Get(pos.FieldCode)
	if ok, wait := s.pairings.Allow(clientKey(r), s.clock()); !ok {
		secs := max(int(wait.Round(time.Second)/time.Second), 1)
		w.Header().Set("Retry-After", strconv.Itoa(secs))
		s.renderPairing(w, r, http.StatusTooManyRequests, code, "throttled", secs)
		return
	}
	_, token, err := s.displays.Pair(r.Context(), code)
	switch {
	case errors.Is(err, pos.ErrBadCode):
		s.renderPairing(w, r, http.StatusUnprocessableEntity, code, "bad", 0)
		return
	case err != nil:
		s.site.Fail(w, r, err)
		return
	}
	http.SetCookie(w, &http.Cookie{Name: DisplayCookie, Value: token, Path: "/pos", MaxAge: int(displayCookieAge / time.Second),
		HttpOnly: true, Secure: s.secureCookies, SameSite: http.SameSiteStrictMode})
	respond.Redirect(w, r, DisplayPath)
}

// renderPairing renders the pairing form, with why the code was refused.
func (s *Server) renderPairing(w http.ResponseWriter, r *http.Request, status int, code, problem string, retry int) {
	w.Header().Set("Cache-Control", "no-store")
	s.site.Render(w, r, status, views.PosPairPage(views.PosPairView{Page: s.site.Page(r),
		Action: respond.Link(r, DisplayPath), Code: code, Error: problem, Retry: retry}))
}

// pairedDisplay returns the active display of the request's cookie.
func (s *Server) pairedDisplay(r *http.Request) (*pos.Display, bool) {
	c, err := r.Cookie(DisplayCookie)
	if err != nil || s.displays == nil {
		return nil, false
	}
	d, err := s.displays.ByToken(r.Context(), c.Value)
	if err != nil {
		if !errors.Is(err, checkout.ErrNotFound) {
			s.site.LogError(r, err, checkout.ErrorCode(err))
		}
		return nil, false
	}
	return d, true
}

// errNotPaired answers the display's stream and status without a paired display's cookie.
var errNotPaired = &checkout.Error{Code: checkout.CodeNotFound, Message: "this display is not paired, or was revoked: open " + DisplayPath}

// displayStatus is GET /pos/display/status: JSON of what the display shows now (the polling
// fallback of its stream).
func (s *Server) displayStatus(w http.ResponseWriter, r *http.Request) {
	d, ok := s.pairedDisplay(r)
	if !ok {
		s.site.FailJSON(w, r, errNotPaired)
		return
	}
	st, err := s.displayState(r.Context(), respond.Lang(r), d.TerminalID)
	if err != nil {
		s.site.FailJSON(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	respond.JSON(w, http.StatusOK, st)
}

// displayEvents is GET /pos/display/events: a Server-Sent Events stream of what the display
// shows, sent at once and again at each change of its terminal's sales (and each recheck, when
// set), with heartbeats; capped as the order streams are (per terminal in place of per order).
// The token is read again at each wake: a revoked display's stream ends with pos.ShowUnpaired
// (its page then reloads into the pairing form). Revocation wakes the terminal's streams
// (pos.Displays.OnRevoke), so it ends at once; the heartbeat's check bounds a missed wake.
func (s *Server) displayEvents(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	d, ok := s.pairedDisplay(r)
	if !ok {
		s.site.FailJSON(w, r, errNotPaired)
		return
	}
	release, ok := s.streams.acquire("terminal:"+d.TerminalID, clientKey(r))
	if !ok {
		w.Header().Set("Retry-After", "60")
		s.site.FailJSON(w, r, errTooManyStreams)
		return
	}
	defer release()
	// Subscribe, then read, so that no change falls between.
	ch, unsubscribe := s.svc.SubscribeTerminal(d.TerminalID)
	defer unsubscribe()
	lang := respond.Lang(r)
	st, err := s.displayState(ctx, lang, d.TerminalID)
	if err != nil {
		s.site.FailJSON(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	rc := http.NewResponseController(w)
	uncut := context.AfterFunc(s.stopping, func() { _ = rc.SetWriteDeadline(time.Now()) })
	defer uncut()
	w.WriteHeader(http.StatusOK)
	write := func(b []byte) error { return s.writeEvent(w, rc, b) }
	if err := write([]byte("retry: " + sseRetryText + "\n\n")); err != nil {
		return
	}
	paired := func() bool { _, ok := s.pairedDisplay(r); return ok }
	s.followTerminal(ctx, d.TerminalID, lang, ch, st, paired, write)
}

// unpairedEvent is the last message of a revoked display's stream.
var unpairedEvent = []byte(`data: {"state":"` + pos.ShowUnpaired + `"}` + "\n\n")

// followTerminal writes the display's state, then each change of it, with heartbeats, until the
// client goes, the server stops, a write fails or paired says the display's token no longer
// is (asked at each wake, heartbeats included). A paid sale's confirmation times out with no
// event (pos.PaidShownFor): a timer reads the state again then.
func (s *Server) followTerminal(ctx context.Context, terminalID string, lang views.Lang, ch <-chan struct{},
	st views.PosDisplayState, paired func() bool, write func([]byte) error) {
	heartbeat := time.NewTicker(s.heartbeat)
	defer heartbeat.Stop()
	recheck, stop := s.recheckTicks()
	defer stop()
	// While a sale shows, its state may end with no event (a paid sale's confirmation after
	// pos.PaidShownFor, an unpaid QR code at its expiry): a timer reads it again then.
	expiry := time.NewTimer(time.Hour)
	defer expiry.Stop()
	last := ""
	for {
		b, _ := json.Marshal(st)
		if msg := "data: " + string(b) + "\n\n"; msg != last {
			if err := write([]byte(msg)); err != nil {
				return
			}
			last = msg
		}
		if st.State != pos.ShowIdle {
			expiry.Reset(pos.PaidShownFor + time.Second)
		} else {
			expiry.Stop()
		}
		select {
		case <-ctx.Done():
			return
		case <-s.done:
			return
		case <-heartbeat.C:
			if !paired() {
				_ = write(unpairedEvent)
				return
			}
			if err := write([]byte(": heartbeat\n\n")); err != nil {
				return
			}
			continue
		case <-ch:
		case <-recheck:
		case <-expiry.C:
		}
		if !paired() {
			_ = write(unpairedEvent)
			return
		}
		next, err := s.displayState(ctx, lang, terminalID)
		if err != nil {
			return
		}
		st = next
	}
}

// recheckTicks ticks every Options.Recheck (never when it is not set), until stop.
func (s *Server) recheckTicks() (ticks <-chan time.Time, stop func()) {
	if s.recheck <= 0 {
		return nil, func() {}
	}
	t := time.NewTicker(s.recheck)
	return t.C, t.Stop
}

// displayState is what a terminal's display shows now, in lang.
func (s *Server) displayState(ctx context.Context, lang views.Lang, terminalID string) (views.PosDisplayState, error) {
	o, show, err := pos.CurrentSale(ctx, s.svc, terminalID, s.svc.Now())
	if err != nil {
		return views.PosDisplayState{}, err
	}
	st := views.PosDisplayState{State: show, Status: views.T(lang, "posdisplay.idle")}
	if o == nil {
		return st, nil
	}
	st.OrderID, st.Amount = o.ID, views.FormatMoney(lang, o.Amount)
	switch show {
	case pos.ShowCharging:
		st.Status = views.T(lang, "posdisplay.making_qr")
		if a := o.QR(); a != nil {
			st.QR = payPath(o.ID) + "/qr.png"
			st.ExpiresAt = gatewayclient.FormatTime(a.ExpiresAt)
			st.Status = views.T(lang, "posdisplay.charging", st.Amount)
		}
	case pos.ShowPaid:
		st.Status = views.T(lang, "posdisplay.paid")
		st.PaidAt = views.T(lang, "posdisplay.paid_at", o.PaidAt.In(views.SaoPaulo()).Format("15:04"))
		if a := o.PaidAttempt(); a != nil && a.EndToEnd != "" {
			st.EndToEnd = views.T(lang, "posdisplay.e2e", a.EndToEnd)
		}
	}
	return st, nil
}
