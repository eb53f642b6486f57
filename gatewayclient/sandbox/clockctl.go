package sandbox

import (
	"context"
	"net/http"
	"strconv"
	"time"

	gc "github.com/pixcheckout/pixcheckout/gatewayclient"
)

// clockState is the answer of the clock controls.
type clockState struct {
	Now           string `json:"now"`           // the sandbox's current time
	OffsetSeconds int64  `json:"offsetSeconds"` // how far it is ahead of the base clock
}

func (s *Sandbox) clockState() clockState {
	return clockState{Now: gc.FormatTime(s.clock.Now()), OffsetSeconds: int64(s.clock.offset() / time.Second)}
}

// handleGetClock is GET sandbox/clock.
func (s *Sandbox) handleGetClock(w http.ResponseWriter, _ *http.Request, _ principal) {
	writeJSON(w, http.StatusOK, s.clockState())
}

// maxAdvance bounds one clock/advance call (a year), so a typo cannot overflow time.
const maxAdvance = 366 * 24 * time.Hour

// secondsToAdvance converts a requested count of seconds to a duration for AdvanceClock,
// saturating outside 0..maxAdvance: multiplied as is, a huge count would overflow int64 and wrap to
// a small duration that AdvanceClock would accept.
func secondsToAdvance(n int64) time.Duration {
	switch {
	case n > int64(maxAdvance/time.Second):
		return maxAdvance + time.Second
	case n < 0:
		return 0 // refused too; a huge negative count would wrap to a positive duration
	}
	return time.Duration(n) * time.Second
}

// handleAdvanceClock is POST sandbox/clock/advance {"seconds":N}.
func (s *Sandbox) handleAdvanceClock(w http.ResponseWriter, r *http.Request, _ principal) {
	var body struct {
		Seconds *int64 `json:"seconds"`
	}
	if err := decodeControlBody(r, &body); err != nil {
		s.respondError(w, r, err)
		return
	}
	if body.Seconds == nil {
		s.respondError(w, r, violation(gc.KindInvalidData, "seconds", gc.CodeRequired, "is required"))
		return
	}
	if err := s.AdvanceClock(r.Context(), secondsToAdvance(*body.Seconds)); err != nil {
		s.respondError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, s.clockState())
}

// AdvanceClock moves the sandbox clock forward by d (persisted), then applies what became
// due: expired QR codes fail and pending webhook retries run.
func (s *Sandbox) AdvanceClock(ctx context.Context, d time.Duration) error {
	if d < time.Second || d > maxAdvance {
		return violation(gc.KindValidation, "seconds", gc.CodeMin,
			"must be between 1 and "+strconv.FormatInt(int64(maxAdvance/time.Second), 10))
	}
	if err := s.clock.advance(d, func(off time.Duration) error {
		return putSetting(ctx, s.w, settingClockOffset, strconv.FormatInt(off.Milliseconds(), 10))
	}); err != nil {
		return err
	}
	if err := s.expireDue(ctx); err != nil {
		return err
	}
	s.hooks.wake()
	return nil
}
