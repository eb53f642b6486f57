package views

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"
)

// PixParts is a PIX page rendered once and written again at later instants without rendering
// it: the page of one state of an order changes with the time only in the clock it gives
// pix.js (data-now, for the countdown's correction of the shopper's clock) and the countdown's
// text, which PixParts writes afresh each time, and in whether the QR code is in its last
// minutes or over (the urgent style, the expired block, the refresh of pages without
// JavaScript), which Covers tells. Rendering the page (≈ 90 escaped values) costs as much CPU
// as the rest of the request; a shopper's reloads, a second tab or device, and a page without
// JavaScript refreshing itself ask for the same state again.
type PixParts struct {
	body      []byte
	expiresAt time.Time
	status    PixView // the fields timeState reads (Status, Code, ExpiresAt)
	state     uint8
	// The clock's value and the countdown's text, as offsets in body; countdown is [0, 0] on
	// a page without a countdown (no QR code yet).
	now, countdown [2]int
}

// NewPixParts renders v's page and finds in it the parts that depend on the time alone. It
// fails when the page does not hold each of them exactly once (a changed template), so that a
// caller renders every time rather than serve a wrong clock.
func NewPixParts(ctx context.Context, v PixView) (*PixParts, error) {
	var buf bytes.Buffer
	if err := PixPage(v).Render(ctx, &buf); err != nil {
		return nil, err
	}
	p := &PixParts{body: buf.Bytes(), expiresAt: v.ExpiresAt, state: timeState(v),
		status: PixView{Status: v.Status, Code: v.Code, ExpiresAt: v.ExpiresAt}}
	var err error
	if p.now, err = p.find(`data-now="`, isoTime(v.Now), `"`); err != nil {
		return nil, err
	}
	if v.HasQR() {
		if p.countdown, err = p.find(`data-testid="countdown">`, FormatCountdown(v.ExpiresAt.Sub(v.Now)), `</span>`); err != nil {
			return nil, err
		}
		if p.countdown[0] < p.now[1] {
			return nil, errors.New("views: the PIX page's countdown comes before its clock")
		}
	}
	return p, nil
}

// find returns the offsets of value in the body, where it must appear once, between before
// and after.
func (p *PixParts) find(before, value, after string) ([2]int, error) {
	whole := []byte(before + value + after)
	i := bytes.Index(p.body, whole)
	if i < 0 || bytes.Count(p.body, []byte(before)) != 1 {
		return [2]int{}, fmt.Errorf("views: the PIX page does not hold %q%q once", before, value)
	}
	start := i + len(before)
	return [2]int{start, start + len(value)}, nil
}

// Covers reports whether the page at now is the rendered one but for the clock and the
// countdown.
func (p *PixParts) Covers(now time.Time) bool {
	v := p.status
	v.Now = now
	return timeState(v) == p.state
}

// AppendTo appends the page as of now to b. Call it only when Covers(now).
func (p *PixParts) AppendTo(b []byte, now time.Time) ([]byte, error) {
	if !p.Covers(now) {
		return b, errors.New("views: the rendered PIX page does not cover this instant")
	}
	b = append(b, p.body[:p.now[0]]...)
	b = append(b, isoTime(now)...)
	if p.countdown[1] == 0 {
		return append(b, p.body[p.now[1]:]...), nil
	}
	b = append(b, p.body[p.now[1]:p.countdown[0]]...)
	b = append(b, FormatCountdown(p.expiresAt.Sub(now))...)
	return append(b, p.body[p.countdown[1]:]...), nil
}

// timeState sums up what of the page, besides the clock and the countdown, depends on v.Now.
func timeState(v PixView) uint8 {
	var s uint8
	if v.Expired() {
		s |= 1
	}
	if v.urgent() {
		s |= 2
	}
	if v.HasQR() {
		s |= 4
	}
	return s
}
