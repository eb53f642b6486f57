package web

import (
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"

	"github.com/go-chi/chi/v5"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/merchant"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// The delivery log of the merchant's notifications: what was sent, when, and what the
// merchant's URL answered, for the merchant to see why a notification did not arrive.

// NotificationList is the answer of GET /api/v1/notifications.
type NotificationList struct {
	Data    []merchant.NotificationView `json:"data"`
	Page    int                         `json:"page"`
	PerPage int                         `json:"perPage"`
	HasMore bool                        `json:"hasMore"`
}

var notificationListParams = map[string]bool{"orderId": true, "status": true, "type": true, "page": true, "perPage": true}

var notificationStatuses = map[string]bool{merchant.NotificationPending: true, merchant.NotificationDelivered: true,
	merchant.NotificationDead: true, merchant.NotificationSkipped: true}

// listNotifications is GET /api/v1/notifications: newest first, filtered by orderId, status
// (pending, delivered, dead, skipped) and type, paged by page and perPage.
func (a *merchantAPI) listNotifications(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	rd := &fieldReader{}
	for _, k := range slices.Sorted(maps.Keys(q)) {
		switch {
		case !notificationListParams[k]:
			rd.add(k, "unknown_parameter", "is not a parameter of this route (orderId, status, type, page, perPage)")
		case len(q[k]) > 1:
			rd.add(k, checkout.CodeDuplicate, "must be given once")
		}
	}
	f := merchant.NotificationFilter{OrderID: q.Get("orderId"), Status: q.Get("status"), Type: q.Get("type")}
	if f.Status != "" && !notificationStatuses[f.Status] {
		rd.add("status", checkout.CodeEnum, "must be one of: pending, delivered, dead, skipped")
	}
	page, perPage := readPaging(rd, q)
	if err := rd.err(); err != nil {
		a.site.FailJSON(w, r, err)
		return
	}
	out := NotificationList{Data: []merchant.NotificationView{}, Page: page, PerPage: perPage}
	if a.notifications != nil {
		// One more than a page tells whether another page follows.
		f.Limit, f.Offset = perPage+1, (page-1)*perPage
		ns, err := a.notifications.List(r.Context(), f)
		if err != nil {
			a.site.FailJSON(w, r, err)
			return
		}
		if out.HasMore = len(ns) > perPage; out.HasMore {
			ns = ns[:perPage]
		}
		for _, n := range ns {
			out.Data = append(out.Data, merchant.NotificationOf(n))
		}
	}
	respond.JSON(w, http.StatusOK, out)
}

// getNotification is GET /api/v1/notifications/{id}: one notification, its body and every
// attempt to deliver it.
func (a *merchantAPI) getNotification(w http.ResponseWriter, r *http.Request) {
	if a.notifications == nil {
		a.site.FailJSON(w, r, checkout.ErrNotFound)
		return
	}
	n, attempts, err := a.notifications.Get(r.Context(), chi.URLParam(r, "notificationID"))
	if err != nil {
		a.site.FailJSON(w, r, err)
		return
	}
	respond.JSON(w, http.StatusOK, merchant.NotificationDetailOf(*n, attempts))
}

// readPaging reads a list's page (from 1; default 1) and perPage (1 to maxPerPage; default
// defaultPerPage).
func readPaging(rd *fieldReader, q url.Values) (page, perPage int) {
	page, perPage = 1, defaultPerPage
	readPositive(rd, q.Get("page"), "page", 1, 1_000_000, &page)
	readPositive(rd, q.Get("perPage"), "perPage", 1, maxPerPage, &perPage)
	return page, perPage
}

// readPositive reads the integer parameter v named name into dst when it lies in lo..hi, and
// adds a violation otherwise; "" leaves dst as it is.
func readPositive(rd *fieldReader, v, name string, lo, hi int, dst *int) {
	if v == "" {
		return
	}
	n, err := strconv.Atoi(v)
	switch {
	case err != nil:
		rd.add(name, checkout.CodeInteger, "must be an integer")
	case n < lo:
		rd.add(name, checkout.CodeMin, "must be at least "+strconv.Itoa(lo))
	case n > hi:
		rd.add(name, checkout.CodeMax, "must be at most "+strconv.Itoa(hi))
	default:
		*dst = n
	}
}
