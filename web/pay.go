package web

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"
	qrcode "github.com/skip2/go-qrcode"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/views"
)

// qrCacheMax bounds the in-memory cache of QR images.
const qrCacheMax = 1024

// statusMessage is the JSON of the status endpoint and of each SSE event (static/files/pix.js
// reads status, text and redirect).
type statusMessage struct {
	Status     string `json:"status"`
	StatusText string `json:"statusText"`
	Text       string `json:"text"`
	Redirect   string `json:"redirect,omitempty"`
}

// paidOrBeyond reports whether the order was paid (it may be refunding or refunded since).
func paidOrBeyond(st checkout.OrderStatus) bool {
	return st == checkout.StatusPaid || st == checkout.StatusRefunding || st == checkout.StatusRefunded
}

// statusOf builds the status message of o. redirect tells where the page should go now: the
// paid page once paid, the PIX page (which shows why) once failed.
func (s *Server) statusOf(r *http.Request, o *checkout.Order) statusMessage {
	lang, _ := s.lang(r)
	text := views.StatusText(lang, views.Status(o.Status))
	m := statusMessage{Status: string(o.Status), StatusText: text, Text: text}
	switch {
	case paidOrBeyond(o.Status):
		m.Redirect = s.link(r, payPath(o.ID)+"/paid")
	case o.Status == checkout.StatusFailed:
		m.Redirect = s.link(r, payPath(o.ID))
	}
	return m
}

// order loads the order of the URL, answering 404 (or 500) itself when it cannot.
func (s *Server) order(w http.ResponseWriter, r *http.Request) (*checkout.Order, bool) {
	o, err := s.svc.Order(r.Context(), chi.URLParam(r, "orderID"))
	if err != nil {
		s.notFoundOrFail(w, r, err)
		return nil, false
	}
	return o, true
}

// summary lists the order's lines for the pages.
func summary(o *checkout.Order) []views.SummaryLine {
	lines := make([]views.SummaryLine, 0, len(o.Lines))
	for _, l := range o.Lines {
		lines = append(lines, views.SummaryLine{Title: l.Title, Quantity: l.Quantity, LineTotal: l.Subtotal()})
	}
	return lines
}

// pixPage is GET /pay/{orderID}: the PIX page while the order awaits payment, else the page
// of its state. A pending attempt (the gateway's answer was lost) is completed first.
func (s *Server) pixPage(w http.ResponseWriter, r *http.Request) {
	o, ok := s.order(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	if a := o.CurrentAttempt(); a != nil && a.State == checkout.AttemptPending {
		if res, err := s.svc.EnsurePayment(ctx, o.ID); err != nil {
			// The gateway is unreachable: show the pending page, which refreshes itself.
			s.log.WarnContext(ctx, "completing a pending payment", "request_id", RequestID(ctx), "number", o.Number, "err", err)
		} else if res != nil {
			o = res
		}
	}
	now := s.svc.Now()
	if a := o.QR(); a != nil && !a.ExpiresAt.After(now) {
		// The QR expired before the reconciler noticed: expire it now, so that new-qr works.
		if _, err := s.svc.ExpireDue(ctx); err == nil {
			if res, err := s.svc.Order(ctx, o.ID); err == nil {
				o = res
			}
		}
	}
	page := s.page(r)
	base := payPath(o.ID)
	switch {
	case paidOrBeyond(o.Status):
		s.redirect(w, r, base+"/paid")
		return
	case o.Status == checkout.StatusExpired:
		s.render(w, r, http.StatusOK, views.ExpiredPage(views.ExpiredView{Page: page, OrderNumber: o.Number,
			Amount: o.Amount, NewQRURL: s.link(r, base+"/new-qr")}))
		return
	case o.Status == checkout.StatusFailed:
		s.render(w, r, http.StatusOK, views.FailedPage(views.FailedView{Page: page, OrderNumber: o.Number,
			Amount: o.Amount, RetryURL: s.link(r, base+"/new-qr")}))
		return
	}
	v := views.PixView{
		Page:        page,
		OrderNumber: o.Number,
		Amount:      o.Amount,
		Lines:       summary(o),
		Now:         now,
		Status:      views.Status(o.Status),
		EventsURL:   s.link(r, base+"/events"),
		StatusURL:   s.link(r, base+"/status"),
		PaidURL:     s.link(r, base+"/paid"),
		NewQRURL:    s.link(r, base+"/new-qr"),
	}
	if a := o.QR(); a != nil {
		v.Code = a.BRCode
		v.ExpiresAt = a.ExpiresAt
		v.QRImageURL = base + "/qr.png?a=" + strconv.Itoa(a.N)
	}
	if s.opts.Sandbox != nil {
		v.SandboxPayURL = s.link(r, base+"/sandbox-pay")
	}
	s.render(w, r, http.StatusOK, views.PixPage(v))
}

// qrImage is GET /pay/{orderID}/qr.png: the QR code of the current attempt, drawn here from
// the BR Code the domain checked (not the gateway's picture), so that the image always says
// exactly what the copy-and-paste code says.
func (s *Server) qrImage(w http.ResponseWriter, r *http.Request) {
	o, err := s.svc.Order(r.Context(), chi.URLParam(r, "orderID"))
	if err != nil {
		s.notFoundOrFail(w, r, err)
		return
	}
	a := o.QR()
	if a == nil {
		s.renderError(w, r, http.StatusNotFound)
		return
	}
	png, err := s.qrPNG(a)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "image/png")
	// The URL names the attempt, whose code never changes; private: it is a payment order.
	w.Header().Set("Cache-Control", "private, max-age=3600")
	w.Header().Set("Content-Length", strconv.Itoa(len(png)))
	_, _ = w.Write(png)
}

// qrPNG returns the PNG of an attempt's BR Code, from the cache when it was drawn before.
func (s *Server) qrPNG(a *checkout.Attempt) ([]byte, error) {
	s.qrMu.Lock()
	png, ok := s.qrCache[a.ID]
	s.qrMu.Unlock()
	if ok {
		return png, nil
	}
	q, err := qrcode.New(a.BRCode, qrcode.Medium)
	if err != nil {
		return nil, err
	}
	// Four pixels per module: small to make and send; the page scales it up crisply.
	png, err = q.PNG(-4)
	if err != nil {
		return nil, err
	}
	s.qrMu.Lock()
	if len(s.qrCache) >= qrCacheMax {
		for k := range s.qrCache { // drop an arbitrary entry: any is cheap to redraw
			delete(s.qrCache, k)
			break
		}
	}
	s.qrCache[a.ID] = png
	s.qrMu.Unlock()
	return png, nil
}

// status is GET /pay/{orderID}/status: JSON {status, statusText, text, redirect}, the polling
// fallback of the live page.
func (s *Server) status(w http.ResponseWriter, r *http.Request) {
	o, err := s.svc.Order(r.Context(), chi.URLParam(r, "orderID"))
	if err != nil {
		if errors.Is(err, checkout.ErrNotFound) {
			writeJSON(w, http.StatusNotFound, map[string]string{"error": "not found"})
			return
		}
		s.log.ErrorContext(r.Context(), "status", "request_id", RequestID(r.Context()), "err", err)
		writeJSON(w, http.StatusInternalServerError, map[string]string{"error": "internal error"})
		return
	}
	writeJSON(w, http.StatusOK, s.statusOf(r, o))
}

// newQR is POST /pay/{orderID}/new-qr: a new attempt for an expired or failed order. Any other
// state just goes back to the PIX page, which shows it.
func (s *Server) newQR(w http.ResponseWriter, r *http.Request) {
	if !s.parseForm(w, r) {
		return
	}
	o, ok := s.order(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	if a := o.QR(); a != nil && !a.ExpiresAt.After(s.svc.Now()) {
		if _, err := s.svc.ExpireDue(ctx); err != nil {
			s.log.WarnContext(ctx, "expiring due orders", "request_id", RequestID(ctx), "err", err)
		}
	}
	if _, err := s.svc.RegenerateQR(ctx, o.ID); err != nil && !errors.Is(err, checkout.ErrNotRenewable) {
		s.log.WarnContext(ctx, "new qr code", "request_id", RequestID(ctx), "number", o.Number, "err", err)
	}
	s.redirect(w, r, payPath(o.ID))
}

// sandboxPay is POST /pay/{orderID}/sandbox-pay (sandbox mode only, 404 otherwise): pays the
// current QR code through the sandbox's control, then reads the deposit back at once, as a
// webhook would make the checkout do, so that the shopper sees the result without waiting for
// the webhook. A script may ask for JSON (Accept: application/json): 202 and the status.
func (s *Server) sandboxPay(w http.ResponseWriter, r *http.Request) {
	if s.opts.Sandbox == nil {
		s.renderError(w, r, http.StatusNotFound)
		return
	}
	if !s.parseForm(w, r) {
		return
	}
	o, ok := s.order(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	a := o.QR()
	if a == nil || a.TransactionID == "" {
		s.redirect(w, r, payPath(o.ID)) // nothing payable: the page shows why
		return
	}
	if err := s.opts.Sandbox.Pay(ctx, a.TransactionID); err != nil {
		s.log.WarnContext(ctx, "sandbox payment", "request_id", RequestID(ctx), "number", o.Number, "err", err)
		lang, _ := s.lang(r)
		s.renderErrorMessage(w, r, http.StatusBadGateway, views.T(lang, views.MsgSandboxRefused))
		return
	}
	if res, err := s.svc.RefreshFromGateway(ctx, o.ID); err != nil {
		// The webhook or the reconciler will bring the payment in.
		s.log.WarnContext(ctx, "reading the deposit after a sandbox payment", "request_id", RequestID(ctx), "number", o.Number, "err", err)
	} else {
		o = res
	}
	if strings.Contains(r.Header.Get("Accept"), "application/json") {
		writeJSON(w, http.StatusAccepted, s.statusOf(r, o))
		return
	}
	s.redirect(w, r, payPath(o.ID))
}

// paidPage is GET /pay/{orderID}/paid: the receipt of a paid order; other orders go back to
// their PIX page.
func (s *Server) paidPage(w http.ResponseWriter, r *http.Request) {
	o, ok := s.order(w, r)
	if !ok {
		return
	}
	if !paidOrBeyond(o.Status) {
		s.redirect(w, r, payPath(o.ID))
		return
	}
	s.render(w, r, http.StatusOK, views.PaidPage(views.PaidView{
		Page:        s.page(r),
		OrderNumber: o.Number,
		Lines:       summary(o),
		Amount:      o.Amount,
		PaidAt:      o.PaidAt,
		LatePayment: o.LatePayment,
		RefundDue:   o.RefundDue,
		ContinueURL: s.link(r, "/"),
	}))
}
