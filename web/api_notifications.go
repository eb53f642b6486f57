package web

import (
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"

	"github.com/go-chi/chi/v5"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/notify"
	"github.com/pixcheckout/pixcheckout/web/apijson"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// The delivery log of the merchant's notifications: what was sent, when, and what the
// merchant's URL answered, for the merchant to see why a notification did not arrive.

// NotificationList is the answer of GET /api/v1/notifications.
type NotificationList struct {
	Data []apijson.NotificationView `json:"data"`
	// Page is the page number asked for (deprecated), or 1 for the list's first page; absent
	// when paging by cursor.
	Page           int    `json:"page,omitempty"`
	PerPage        int    `json:"perPage"`
	HasMore        bool   `json:"hasMore"` // older notifications follow
	NextCursor     string `json:"nextCursor,omitempty"`
	PreviousCursor string `json:"previousCursor,omitempty"`
}

var notificationStatuses = map[string]bool{notify.NotificationPending: true, notify.NotificationDelivered: true,
	notify.NotificationDead: true, notify.NotificationSkipped: true}

// listNotifications is GET /api/v1/notifications: newest first, filtered by orderId, chargeId,
// status (pending, delivered, dead, skipped) and type, paged by cursor (or page, deprecated)
// and perPage.
func (a *merchantAPI) listNotifications(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	rd := &checkout.ValidationError{}
	for _, k := range slices.Sorted(maps.Keys(q)) {
		if len(q[k]) > 1 {
			rd.Add(k, checkout.CodeDuplicate, "must be given once")
		}
	}
	// The dashboard's test notifications are left out: the API's log is of the orders' and the
	// charges' events, each with its order or charge and its payload, as the document promises.
	f := notify.NotificationFilter{OrderID: q.Get("orderId"), ChargeID: q.Get("chargeId"), Status: q.Get("status"),
		Type: q.Get("type"), EventsOnly: true}
	if f.Status != "" && !notificationStatuses[f.Status] {
		rd.Add("status", checkout.CodeEnum, "must be one of: pending, delivered, dead, skipped")
	}
	p := readPaging(rd, q)
	if !p.cursor.Key.IsZero() {
		seq, err := strconv.ParseInt(p.cursor.Key.ID, 10, 64)
		if err != nil || seq <= 0 {
			rd.Add("cursor", checkout.CodeFormat, "must be a nextCursor or previousCursor of this list")
		} else if p.cursor.Backward {
			f.AfterSeq = seq
		} else {
			f.BeforeSeq = seq
		}
	}
	if err := rd.Err(); err != nil {
		a.site.FailJSON(w, r, err)
		return
	}
	out := NotificationList{Data: []apijson.NotificationView{}, PerPage: p.perPage}
	if p.cursor.Key.IsZero() {
		out.Page = p.page
	}
	if a.notifications != nil {
		// One more than a page tells whether another page follows.
		f.Limit, f.Offset = p.perPage+1, p.offset()
		ns, err := a.notifications.List(r.Context(), f)
		if err != nil {
			a.site.FailJSON(w, r, err)
			return
		}
		ns, next, prev := checkout.Paged(ns, p.perPage, p.cursor, func(n notify.Notification) checkout.OrderKey {
			return checkout.KeyOf(n.CreatedAt, strconv.FormatInt(n.Seq, 10))
		})
		out.HasMore, out.NextCursor, out.PreviousCursor = !next.Key.IsZero(), cursorText(next), cursorText(prev)
		for _, n := range ns {
			out.Data = append(out.Data, apijson.NotificationOf(n))
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
	if err == nil && n.OrderID == "" && n.ChargeID == "" {
		err = checkout.ErrNotFound // a test notification of the dashboard, not an order's or a charge's event
	}
	if err != nil {
		a.site.FailJSON(w, r, err)
		return
	}
	if !personalInFull(r) {
		n.Payload = apijson.MaskPayload(n.Payload)
	}
	respond.JSON(w, http.StatusOK, apijson.NotificationDetailOf(*n, attempts))
}

// listPaging is how a list of the API is read: by cursor from where a page ended (or, going
// back, began), or by page number, deprecated.
type listPaging struct {
	perPage int
	page    int             // 1 unless page is given
	cursor  checkout.Cursor // a zero key: the list's start
	byPage  bool            // page was given: an offset, capped at maxPageOffset
}

// maxPage is the highest page number the document allows; maxPageOffset bounds the rows a
// page number skips, since the database reads every one of them (a cursor costs the same at
// any depth).
const (
	maxPage       = 500
	maxPageOffset = checkout.MaxCounted
)

// readPaging reads a list's perPage (1 to maxPerPage; default defaultPerPage) and cursor, or
// its page (from 1; deprecated: at most maxPageOffset rows before it).
func readPaging(rd *checkout.ValidationError, q url.Values) listPaging {
	p := listPaging{page: 1, perPage: defaultPerPage}
	readPositive(rd, q.Get("perPage"), "perPage", 1, maxPerPage, &p.perPage)
	readPositive(rd, q.Get("page"), "page", 1, maxPage, &p.page)
	if c := q.Get("cursor"); c != "" {
		cur, err := checkout.ParseCursor(c)
		switch {
		case err != nil || cur.Sort != checkout.SortCreatedDesc:
			// The API's lists are newest first: a cursor of another order (the dashboard's
			// sorts) would be read in the wrong terms.
			rd.Add("cursor", checkout.CodeFormat, "must be a nextCursor or previousCursor of this list")
		case q.Get("page") != "" && p.page != 1:
			rd.Add("page", checkout.CodeRange, "must not be given with cursor")
		default:
			p.cursor = cur
		}
		return p
	}
	if q.Get("page") != "" {
		p.byPage = true
		if (p.page-1)*p.perPage > maxPageOffset {
			rd.Add("page", checkout.CodeMax, fmt.Sprintf("must be at most %d with perPage %d (page is deprecated: use cursor)",
				maxPageOffset/p.perPage+1, p.perPage))
		}
	}
	return p
}

// offset is the number of rows before the page, for page numbers.
func (p listPaging) offset() int { return (p.page - 1) * p.perPage }

// cursorText is c as the API gives it: "" for none.
func cursorText(c checkout.Cursor) string {
	if c.Key.IsZero() {
		return ""
	}
	return c.String()
}

// readPositive reads the integer parameter v named name into dst when it lies in lo..hi, and
// adds a violation otherwise; "" leaves dst as it is.
func readPositive(rd *checkout.ValidationError, v, name string, lo, hi int, dst *int) {
	if v == "" {
		return
	}
	n, err := strconv.Atoi(v)
	switch {
	case err != nil:
		rd.Add(name, checkout.CodeInteger, "must be an integer")
	case n < lo:
		rd.Add(name, checkout.CodeMin, "must be at least "+strconv.Itoa(lo))
	case n > hi:
		rd.Add(name, checkout.CodeMax, "must be at most "+strconv.Itoa(hi))
	default:
		*dst = n
	}
}
