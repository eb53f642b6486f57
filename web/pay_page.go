package web

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/settings"
	"github.com/pixcheckout/pixcheckout/gatewayclient/brdoc"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// qrImagesKept bounds the QR images a Server draws and keeps itself (without Options.QRImages).
const qrImagesKept = 1024

// order reads the order named by the URL: its snapshot, shared and never changed here.
func (s *Server) order(r *http.Request) (*checkout.Order, error) {
	return s.svc.Snapshot(r.Context(), chi.URLParam(r, "orderID"))
}

// summary lists an order's lines (or a checkout source's) for the pages, with the pictures
// they are bought with.
func summary(ls []checkout.OrderLine) []views.SummaryLine {
	lines := make([]views.SummaryLine, 0, len(ls))
	for _, l := range ls {
		lines = append(lines, views.SummaryLine{Title: l.Title, Quantity: l.Quantity, LineTotal: l.Subtotal(), Image: l.Image})
	}
	return lines
}

// pixPage is GET /pay/{orderID}: the PIX page while the order awaits payment, else the page
// of its state. The domain completes a pending attempt and expires a QR code whose time is over
// before the page is drawn (Service.CurrentOrder).
func (s *Server) pixPage(w http.ResponseWriter, r *http.Request) {
	o, err := s.svc.CurrentOrder(r.Context(), chi.URLParam(r, "orderID"))
	if err != nil {
		s.site.Fail(w, r, err)
		return
	}
	// The page of a checkout session's order: framed by the session's origin, and telling it.
	p := payPage{s: s, r: r, o: o, page: s.site.Page(r), base: payPath(o.ID), sess: s.sessionOf(r, o)}
	if p.sess != nil {
		s.frameSession(w, r, p.sess)
	}
	if p.otherState(w) {
		return
	}
	s.site.Render(w, r, http.StatusOK, views.PixPage(p.pixView()))
}

// payPage is what the pages of an order at /pay/{orderID} are drawn from.
type payPage struct {
	s    *Server
	r    *http.Request
	o    *checkout.Order
	page views.Page
	base string                    // the order's /pay/{orderID}
	sess *checkout.CheckoutSession // the order's checkout session, nil for a cart's
}

// embedded is the page of view: a checkout session's tells the session's origin.
func (p *payPage) embedded(view string) views.Page {
	if p.sess == nil {
		return p.page
	}
	return p.s.sessionPage(p.r, p.sess, p.o, view)
}

// newQR is the link to a new QR code at, unless past the session's deadline.
func (p *payPage) newQR(at time.Time) string {
	if !p.o.Renewable(at) {
		return ""
	}
	return respond.Link(p.r, p.base+"/new-qr")
}

// otherState answers the page of an order no longer awaiting payment, and reports whether it
// did.
func (p *payPage) otherState(w http.ResponseWriter) bool {
	s, r, o := p.s, p.r, p.o
	switch {
	case o.Status.WasPaid():
		respond.Redirect(w, r, p.base+"/paid")
	case o.Status == checkout.StatusExpired:
		s.site.Render(w, r, http.StatusOK, views.ExpiredPage(views.ExpiredView{Page: p.embedded("expired"), OrderNumber: o.Number,
			Amount: o.Amount, NewQRURL: p.newQR(s.svc.Now())}))
	case o.Status == checkout.StatusFailed:
		s.site.Render(w, r, http.StatusOK, views.FailedPage(views.FailedView{Page: p.embedded("failed"), OrderNumber: o.Number,
			Amount: o.Amount, RetryURL: p.newQR(s.svc.Now())}))
	case o.Status == checkout.StatusCanceled:
		// The shop canceled it: no QR code, no new one.
		s.canceledPage(w, r, o, p.embedded("canceled"))
	default:
		return false
	}
	return true
}

// pixView is the PIX page's model. It depends on the order's state alone (see views.PixPage):
// its expired message, shown by the script when the QR code's time is over, offers a new QR
// code if one can be made then.
func (p *payPage) pixView() views.PixView {
	s, r, o, base := p.s, p.r, p.o, p.base
	v := views.PixView{
		Page:        p.embedded("pix"),
		OrderNumber: o.Number,
		Amount:      o.Amount,
		Lines:       summary(o.Lines),
		Shipping:    views.ShippingOf(o),
		Status:      o.Status,
		EventsURL:   respond.Link(r, base+"/events"),
		StatusURL:   respond.Link(r, base+"/status"),
		PaidURL:     respond.Link(r, base+"/paid"),
		CheckURL:    respond.Link(r, base+"/check"),
	}
	if a := o.QR(); a != nil {
		v.Code = a.BRCode
		v.ExpiresAt = a.ExpiresAt
		v.QRImageURL = base + "/qr.png?a=" + strconv.Itoa(a.N)
		v.NewQRURL = p.newQR(a.ExpiresAt)
	}
	if s.sandbox != nil {
		v.SandboxPayURL = respond.Link(r, base+"/sandbox-pay")
	}
	if o.Status == checkout.StatusPending {
		v.Unavailable, v.UnavailableIn = s.pendingState(o)
		if v.Unavailable {
			v.RetryURL = respond.Link(r, base)
		}
	}
	return v
}

// PendingWait bounds how long the PIX page says a QR code is being generated: past it (or at
// once while the gateway is known to fail) the page says honestly that the PIX code could not
// be made now, offers to try again, and keeps waiting for the gateway.
const PendingWait = 10 * time.Second

// pendingState tells, for a pending order's page, whether its QR code is overdue
// (unavailable), else in how many seconds it will be.
func (s *Server) pendingState(o *checkout.Order) (unavailable bool, in int) {
	if !s.site.GatewayState().OK {
		return true, 0
	}
	a := o.CurrentAttempt()
	if a == nil || a.CreatedAt.IsZero() {
		return false, 0
	}
	left := a.CreatedAt.Add(PendingWait).Sub(s.svc.Now())
	if left <= 0 {
		return true, 0
	}
	return false, int((left + time.Second - 1) / time.Second)
}

// qrImage is GET /pay/{orderID}/qr.png: the QR code of the current attempt, drawn by the
// checkout from the BR Code the domain checked (never the gateway's picture), so that the image
// always says exactly what the copy-and-paste code says.
func (s *Server) qrImage(w http.ResponseWriter, r *http.Request) {
	o, err := s.order(r)
	if err != nil {
		s.site.Fail(w, r, err)
		return
	}
	a := o.QR()
	if a == nil {
		s.site.Error(w, r, http.StatusNotFound)
		return
	}
	png, err := s.qrPNG(a)
	if err != nil {
		s.site.Fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "image/png")
	// The URL names the attempt, whose code never changes; private: it is a payment order.
	w.Header().Set("Cache-Control", "private, max-age=3600")
	w.Header().Set("Content-Length", strconv.Itoa(len(png)))
	_, _ = w.Write(png)
}

// qrPNG returns the PNG of an attempt's BR Code: the one drawn when the attempt became active
// and stored with it, else (an attempt stored before images were drawn) drawn now through the
// server's qr.Images, which keeps the last ones.
func (s *Server) qrPNG(a *checkout.Attempt) ([]byte, error) {
	if len(a.QRCodePNG) > 0 {
		return a.QRCodePNG, nil
	}
	return QRImageFrom(s.qrImages, a.BRCode)
}

// newQR is POST /pay/{orderID}/new-qr: a new attempt for an expired or failed order (one
// whose QR code's time is over included). Any other state just goes back to the PIX page,
// which shows it.
func (s *Server) newQR(w http.ResponseWriter, r *http.Request) {
	if !s.site.ParseForm(w, r) {
		return
	}
	id := chi.URLParam(r, "orderID")
	if _, err := s.svc.RegenerateQR(r.Context(), id); err != nil {
		switch checkout.ErrorCode(err) {
		case checkout.CodeNotFound:
			s.site.Fail(w, r, err)
			return
		case checkout.CodeConflict: // not renewable now: the page shows why
			if errors.Is(err, checkout.ErrLinkFull) { // its payment link's places are taken: say so
				s.renderOrderLinkFull(w, r, id)
				return
			}
		default:
			// The page shows the order as it is (pending, it completes itself).
			s.site.LogError(r, err, checkout.ErrorCode(err))
		}
	}
	respond.Redirect(w, r, payPath(id))
}

// sandboxPay is POST /pay/{orderID}/sandbox-pay (sandbox mode only, 404 otherwise): pays the
// current QR code through the sandbox's control, then reads the deposit back at once, as a
// webhook would make the checkout do, so that the shopper sees the result without waiting for
// the webhook. A script may ask for JSON (Accept: application/json): 202 and the status.
func (s *Server) sandboxPay(w http.ResponseWriter, r *http.Request) {
	if s.sandbox == nil {
		s.site.Error(w, r, http.StatusNotFound)
		return
	}
	if !s.site.ParseForm(w, r) {
		return
	}
	o, err := s.order(r)
	if err != nil {
		s.site.Fail(w, r, err)
		return
	}
	ctx := r.Context()
	a := o.QR()
	if a == nil || a.TransactionID == "" {
		respond.Redirect(w, r, payPath(o.ID)) // nothing payable: the page shows why
		return
	}
	if err := s.sandbox.Pay(ctx, a.TransactionID); err != nil {
		s.site.Log.WarnContext(ctx, "sandbox payment", "request_id", respond.RequestID(ctx), "number", o.Number, "err", err)
		s.site.ErrorMessage(w, r, http.StatusBadGateway, views.T(respond.Lang(r), views.MsgSandboxRefused))
		return
	}
	if res, err := s.svc.RefreshFromGateway(ctx, o.ID); err != nil {
		// The webhook or the reconciler will bring the payment in.
		s.site.Log.WarnContext(ctx, "reading the deposit after a sandbox payment", "request_id", respond.RequestID(ctx), "number", o.Number, "err", err)
	} else {
		o = res
	}
	if strings.Contains(r.Header.Get("Accept"), "application/json") {
		respond.JSON(w, http.StatusAccepted, s.statusOf(r, o))
		return
	}
	respond.Redirect(w, r, payPath(o.ID))
}

// paidPage is GET /pay/{orderID}/paid: the receipt of a paid order; other orders go back to
// their PIX page.
func (s *Server) paidPage(w http.ResponseWriter, r *http.Request) {
	o, err := s.order(r)
	if err != nil {
		s.site.Fail(w, r, err)
		return
	}
	if !o.Status.WasPaid() {
		respond.Redirect(w, r, payPath(o.ID))
		return
	}
	page, cont := s.site.Page(r), respond.Link(r, "/")
	sess := s.sessionOf(r, o)
	if sess != nil {
		s.frameSession(w, r, sess)
		page, cont = s.sessionPage(r, sess, o, "paid"), successURL(sess, o)
	}
	s.site.Render(w, r, http.StatusOK, views.PaidPage(views.PaidView{
		Page:        page,
		OrderNumber: o.Number,
		Lines:       summary(o.Lines),
		Shipping:    views.ShippingOf(o),
		Amount:      o.Amount,
		PaidAt:      o.PaidAt,
		Progress:    views.ProgressOf(o),
		OrderLive:   orderLive(r, o, orderViewPaid),
		ContinueURL: cont,
		EndToEnd:    endToEnd(o),
		Email:       o.Customer.Email,
		ShipTo:      shipTo(o.Address),
		// The tracking code by e-mail is promised only when that e-mail will go.
		MailsTracking: o.Customer.Email != "" && s.mails != nil && s.mails(r.Context(), settings.ShopperShipped),
	}))
}

// tracking is GET /pay/{orderID}/tracking: the way to the carrier's tracking page of the order's
// parcel, for the shopper's e-mails, whose every link is under the public URL. The address is
// the carrier table's (checkout.TrackingURL), never one taken from the request; an order without
// one goes to its own page, which shows the tracking code.
func (s *Server) tracking(w http.ResponseWriter, r *http.Request) {
	o, err := s.order(r)
	if err != nil {
		s.site.Fail(w, r, err)
		return
	}
	to := checkout.TrackingURL(o.Carrier, o.TrackingCode)
	if to == "" {
		respond.Redirect(w, r, payPath(o.ID))
		return
	}
	http.Redirect(w, r, to, http.StatusFound)
}

// endToEnd is the end-to-end id of the transfer that paid o, or "".
func endToEnd(o *checkout.Order) string {
	if a := o.PaidAttempt(); a != nil {
		return a.EndToEnd
	}
	return ""
}

// shipTo writes a shipping address on one line: "Avenida Paulista, 1000, apto 12 — Bela Vista,
// São Paulo/SP, 01310-100".
func shipTo(a *checkout.Address) string {
	if a == nil {
		return ""
	}
	street := strings.Join(nonEmpty(a.Street, views.AddressNumber(a.Number), a.Complement), ", ")
	return street + " — " + strings.Join(nonEmpty(a.Neighborhood, a.City+"/"+a.State, brdoc.FormatCEP(a.ZipCode)), ", ")
}

// nonEmpty keeps the parts that say something.
func nonEmpty(ss ...string) []string {
	out := make([]string, 0, len(ss))
	for _, s := range ss {
		if strings.Trim(s, " /") != "" {
			out = append(out, s)
		}
	}
	return out
}

// checkPayment is POST /pay/{orderID}/check, "I have paid" on the PIX page without JavaScript:
// the domain asks the gateway at once, then the PIX page shows the result (the receipt when
// paid).
func (s *Server) checkPayment(w http.ResponseWriter, r *http.Request) {
	if !s.site.ParseForm(w, r) {
		return
	}
	id := chi.URLParam(r, "orderID")
	if _, err := s.svc.RefreshFromGateway(r.Context(), id); err != nil {
		if checkout.ErrorCode(err) == checkout.CodeNotFound {
			s.site.Fail(w, r, err)
			return
		}
		// The gateway did not answer: the page shows the order as it is and refreshes itself.
		s.site.LogError(r, err, checkout.ErrorCode(err))
	}
	respond.Redirect(w, r, payPath(id))
}
