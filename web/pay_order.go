package web

import (
	"net/http"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// The shopper's order page follows the order after its payment (the receipt, /pay/{id}/paid)
// or its cancellation (/pay/{id}, the canceled page): shipped with its tracking code,
// delivered, refunded, a late or double payment the shop returns. Its status and event stream
// are the PIX page's, asked with ?view= the page's name: their messages then carry the stage
// (views.OrderStage) as their text, a stream goes on after the payment, and it tells of every
// change of what the page shows (views.StageKey), not only of the order's state.

// Order pages, as the view parameter of the status and the event stream names them.
const (
	orderViewPaid     = "paid"
	orderViewCanceled = "canceled"
)

// orderViewOf is the order page that shows o: the receipt once paid, the canceled page, or ""
// (the PIX page or another page of its state).
func orderViewOf(o *checkout.Order) string {
	switch {
	case o.Status.WasPaid():
		return orderViewPaid
	case o.Status == checkout.StatusCanceled:
		return orderViewCanceled
	}
	return ""
}

// orderViewParam is the order page a status or stream request is for ("" for the PIX page).
func orderViewParam(r *http.Request) string {
	switch v := r.URL.Query().Get("view"); v {
	case orderViewPaid, orderViewCanceled:
		return v
	}
	return ""
}

// orderLive is how the order page view of o follows it, for request r.
func orderLive(r *http.Request, o *checkout.Order, view string) views.OrderLive {
	base := payPath(o.ID)
	return views.OrderLive{
		EventsURL: respond.Link(r, base+"/events?view="+view),
		StatusURL: respond.Link(r, base+"/status?view="+view),
		StageKey:  views.StageKey(o),
	}
}

// streamKey is what a stream tells the changes of: the order's state on the PIX page, what the
// order page shows on an order page.
func (v streamView) key(o *checkout.Order) string {
	if v.page != "" {
		return views.StageKey(o)
	}
	return string(o.Status)
}

// reloads reports whether the PIX page is to be drawn again now that o changed: a QR code
// appeared (the gateway answered late, or a new one was made elsewhere); an order page never.
func (v streamView) reloads(o *checkout.Order) bool {
	return v.page == "" && o.Status == checkout.StatusAwaitingPayment
}

// orderMessage completes the status message m of o for an order page: its stage, and a
// redirect only when o is no longer shown by that page (a MED reopened a paid order's review).
func (v streamView) orderMessage(m *statusMessage, o *checkout.Order) {
	m.Stage, m.StageKey = views.OrderStage(o), views.StageKey(o)
	if v.page == "" {
		return
	}
	m.Text = views.StageText(v.lang, m.Stage)
	m.Redirect = ""
	if orderViewOf(o) != v.page {
		m.Redirect = v.link(payPath(o.ID))
	}
}

// canceledPage is the page of a canceled order o: nothing to pay, or the payment that still
// arrived and its return.
func (s *Server) canceledPage(w http.ResponseWriter, r *http.Request, o *checkout.Order, page views.Page) {
	s.site.Render(w, r, http.StatusOK, views.CanceledPage(views.CanceledView{Page: page, OrderNumber: o.Number,
		Amount: o.Amount, Progress: views.ProgressOf(o), OrderLive: orderLive(r, o, orderViewCanceled)}))
}
