package web

import (
	"errors"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient/strictjson"
	"github.com/pixcheckout/pixcheckout/web/apijson"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// Fields of the JSON objects of POST /api/v1/checkout-sessions; any other is refused, so that
// a misspelt field is an error instead of being silently ignored.
var (
	sessionFields  = []string{"items", "externalCode", "embedOrigin", "customer", "successUrl", "cancelUrl", "expiresInSeconds", "metadata", "shipping"}
	itemFields     = []string{"productId", "title", "description", "unitPrice", "quantity", "type", "imageUrl"}
	customerFields = []string{"name", "document", "email", "phone", "address"}
	addressFields  = []string{"zipCode", "street", "number", "complement", "neighborhood", "city", "state", "country"}
)

// parseSessionRequest reads the body and the Idempotency-Key of POST
// /api/v1/checkout-sessions, every wrong type and unknown field at once.
func parseSessionRequest(doc strictjson.Value, h http.Header) (checkout.CreateCheckoutSessionInput, error) {
	var in checkout.CreateCheckoutSessionInput
	r := &strictjson.Reader{}
	in.IdempotencyKey = h.Get("Idempotency-Key")
	if _, sent := h["Idempotency-Key"]; sent && in.IdempotencyKey == "" {
		// An empty key is a client's mistake, not a wish to go without one: its retry would
		// make a second session.
		r.Add("Idempotency-Key", checkout.CodeMinLength, "must not be empty (leave the header out to go without one)")
	}
	if doc.Kind() != strictjson.Object {
		r.Add("body", checkout.CodeType, "must be an object")
		return in, r.Err()
	}
	top, _ := r.Object("", doc, sessionFields...)
	in.Items = readItems(r, top.Get("items"))
	in.ExternalCode = r.String("externalCode", top.Get("externalCode"))
	in.EmbedOrigin = r.String("embedOrigin", top.Get("embedOrigin"))
	in.SuccessURL = r.String("successUrl", top.Get("successUrl"))
	in.CancelURL = r.String("cancelUrl", top.Get("cancelUrl"))
	if n, ok := r.Int("expiresInSeconds", top.Get("expiresInSeconds"), strconv.IntSize); ok {
		in.ExpiresInSeconds = int(n)
		if n == 0 {
			in.ExpiresInSeconds = -1 // 0 sent explicitly: below the minimum, not "default"
		}
	}
	if sh := top.Get("shipping"); !sh.Missing() {
		if c, ok := r.Cents("shipping", sh); ok {
			in.Shipping = &c
		}
	}
	if m, ok := r.Object("metadata", top.Get("metadata")); ok {
		in.Metadata = make(map[string]string, len(m.Members()))
		for _, mb := range m.Members() {
			if mb.Value.Kind() != strictjson.String {
				r.Add("metadata."+mb.Key, checkout.CodeType, "must be a string")
				continue
			}
			in.Metadata[mb.Key] = r.String("metadata."+mb.Key, mb.Value)
		}
	}
	if c, ok := r.Object("customer", top.Get("customer"), customerFields...); ok {
		in.Customer = &checkout.Customer{
			Name:     r.String("customer.name", c.Get("name")),
			Document: r.String("customer.document", c.Get("document")),
			Email:    r.String("customer.email", c.Get("email")),
			Phone:    r.String("customer.phone", c.Get("phone")),
		}
		if a, ok := r.Object("customer.address", c.Get("address"), addressFields...); ok {
			get := func(k string) string { return r.String("customer.address."+k, a.Get(k)) }
			in.Address = &checkout.Address{ZipCode: get("zipCode"), Street: get("street"), Number: get("number"),
				Complement: get("complement"), Neighborhood: get("neighborhood"), City: get("city"),
				State: get("state"), Country: get("country")}
		}
	}
	return in, r.Err()
}

// readItems reads the items of a checkout session or a payment link (items[i].productId, …).
func readItems(r *strictjson.Reader, items strictjson.Value) []checkout.CheckoutSessionItem {
	var out []checkout.CheckoutSessionItem
	for i, v := range r.Array("items", items) {
		p := "items[" + strconv.Itoa(i) + "]"
		m, ok := r.Object(p, v, itemFields...)
		if !ok {
			if v.Kind() == strictjson.Null {
				r.Add(p, checkout.CodeType, "must be an object")
			}
			// In its place, so that the items after it keep their index in every violation.
			out = append(out, checkout.CheckoutSessionItem{Quantity: 1})
			continue
		}
		pid := m.Get("productId")
		if pid.Kind() == strictjson.String && r.String("", pid) == "" {
			r.Add(p+".productId", checkout.CodeMinLength, "must not be empty (an ad-hoc item has no productId)")
		}
		it := checkout.CheckoutSessionItem{
			ProductID:   checkout.ProductID(r.String(p+".productId", pid)),
			Title:       r.String(p+".title", m.Get("title")),
			Description: r.String(p+".description", m.Get("description")),
			Type:        r.String(p+".type", m.Get("type")),
			ImageURL:    r.String(p+".imageUrl", m.Get("imageUrl")),
			Quantity:    1,
		}
		it.UnitPrice, _ = r.Cents(p+".unitPrice", m.Get("unitPrice"))
		if q := m.Get("quantity"); !q.Missing() {
			n, _ := r.Int(p+".quantity", q, strconv.IntSize)
			it.Quantity = int(n)
		}
		out = append(out, it)
	}
	return out
}

// IdempotentReplayedHeader is set to "true" on an answer that replays the session made by an
// earlier request with the same Idempotency-Key.
const IdempotentReplayedHeader = "Idempotent-Replayed"

// createSession is POST /api/v1/checkout-sessions: 201 with the new session, 200 with the
// same session for a replay of an Idempotency-Key with the same body, 422 otherwise.
func (a *merchantAPI) createSession(w http.ResponseWriter, r *http.Request) {
	doc, ok := readJSON(w, r)
	if !ok {
		return
	}
	in, err := parseSessionRequest(doc, r.Header)
	var fe *checkout.ValidationError
	switch {
	case errors.As(err, &fe):
		in.ReadErrors = fe // reported with every other violation of the request
	case err != nil:
		a.site.FailJSON(w, r, err)
		return
	}

	if key := apiKeyOf(r); key != nil {
		in.APIKeyID = key.ID
	}
	sess, created, err := a.svc.CreateCheckoutSession(r.Context(), in)
	if err != nil {
		a.site.FailJSON(w, r, err)
		return
	}
	status := http.StatusCreated
	if !created {
		status = http.StatusOK
		w.Header().Set(IdempotentReplayedHeader, "true")
	}
	o, err := a.svc.SessionOrder(r.Context(), sess.ID)
	if err != nil {
		a.site.FailJSON(w, r, err)
		return
	}
	w.Header().Set("Location", APIPrefix+"/checkout-sessions/"+sess.ID)
	respond.JSON(w, status, apijson.SessionOf(sess, o, a.svc.Now(), a.publicURL))
}

// getSession is GET /api/v1/checkout-sessions/{id}: the session and what became of it.
func (a *merchantAPI) getSession(w http.ResponseWriter, r *http.Request) {
	sess, err := a.svc.CheckoutSession(r.Context(), chi.URLParam(r, "sessionID"))
	if err != nil {
		a.site.FailJSON(w, r, err)
		return
	}
	o, err := a.svc.SessionOrder(r.Context(), sess.ID)
	if err != nil {
		a.site.FailJSON(w, r, err)
		return
	}
	out := apijson.SessionOf(sess, o, a.svc.Now(), a.publicURL)
	if !personalInFull(r) {
		out.Customer = out.Customer.Masked()
	}
	respond.JSON(w, http.StatusOK, out)
}

// getOrder is GET /api/v1/orders/{id}.
func (a *merchantAPI) getOrder(w http.ResponseWriter, r *http.Request) {
	o, err := a.svc.Order(r.Context(), chi.URLParam(r, "orderID"))
	if err != nil {
		a.site.FailJSON(w, r, err)
		return
	}
	respond.JSON(w, http.StatusOK, a.orderResource(r, o))
}

// orderResource is the API's view of o, with its session's metadata.
func (a *merchantAPI) orderResource(r *http.Request, o *checkout.Order) apijson.Order {
	var sess *checkout.CheckoutSession
	if o.SessionID != "" {
		sess, _ = a.svc.CheckoutSession(r.Context(), o.SessionID) // metadata only: an order shows without it
	}
	out := apijson.OrderOf(o, sess)
	if !personalInFull(r) {
		out.Customer = out.Customer.Masked()
	}
	return out
}

// Pagination of GET /api/v1/orders.
const (
	defaultPerPage = 20
	maxPerPage     = 100
)

// OrderList is the answer of GET /api/v1/orders.
type OrderList struct {
	Data []apijson.Order `json:"data"`
	// Page is the page number asked for (deprecated), or 1 for the list's first page; absent
	// when paging by cursor.
	Page           int    `json:"page,omitempty"`
	PerPage        int    `json:"perPage"`
	HasMore        bool   `json:"hasMore"` // older orders follow
	NextCursor     string `json:"nextCursor,omitempty"`
	PreviousCursor string `json:"previousCursor,omitempty"`
}

// readOrderQuery reads the query of GET /api/v1/orders into the filter and paging, every
// violation of its rules at once.
func readOrderQuery(q url.Values) (checkout.OrderFilter, listPaging, error) {
	rd := &checkout.ValidationError{}
	for _, k := range slices.Sorted(maps.Keys(q)) {
		if k != "status" && len(q[k]) > 1 {
			rd.Add(k, checkout.CodeDuplicate, "must be given once")
		}
	}
	f := checkout.OrderFilter{MerchantReference: q.Get("externalCode"), LinkID: q.Get("paymentLinkId")}
	f.Statuses = readStatuses(rd, q["status"])
	parseTime := func(name string) time.Time {
		v := q.Get(name)
		if v == "" {
			return time.Time{}
		}
		t, err := time.Parse(time.RFC3339Nano, v)
		if err != nil {
			rd.Add(name, checkout.CodeFormat, "must be an RFC 3339 time such as 2026-03-14T12:00:00Z")
		}
		return t
	}
	f.CreatedFrom, f.CreatedBefore = parseTime("createdFrom"), parseTime("createdTo")
	if !f.CreatedFrom.IsZero() && !f.CreatedBefore.IsZero() && f.CreatedBefore.Before(f.CreatedFrom) {
		rd.Add("createdTo", checkout.CodeRange, "must not be before createdFrom")
	}
	p := readPaging(rd, q)
	return f, p, rd.Err()
}

// readStatuses reads the status parameters (repeatable, each may list several separated by
// commas).
func readStatuses(rd *checkout.ValidationError, values []string) []checkout.OrderStatus {
	var out []checkout.OrderStatus
	for i, v := range values {
		for _, st := range strings.Split(v, ",") {
			if st = strings.TrimSpace(st); st == "" {
				continue
			}
			if !checkout.OrderStatus(st).Valid() {
				rd.Add("status["+strconv.Itoa(i)+"]", checkout.CodeEnum, "must be one of: "+joinStatuses())
				continue
			}
			out = append(out, checkout.OrderStatus(st))
		}
	}
	return out
}

// listOrders is GET /api/v1/orders: newest first, filtered by status (repeatable),
// createdFrom, createdTo (RFC 3339), externalCode and paymentLinkId, paged by cursor (or page, deprecated)
// and perPage.
func (a *merchantAPI) listOrders(w http.ResponseWriter, r *http.Request) {
	f, p, err := readOrderQuery(r.URL.Query())
	if err != nil {
		a.site.FailJSON(w, r, err)
		return
	}
	// One more than a page tells whether another page follows.
	f.Limit, f.Offset, f.Page = p.perPage+1, p.offset(), p.cursor
	os, err := a.svc.Orders(r.Context(), f)
	if err != nil {
		a.site.FailJSON(w, r, err)
		return
	}
	os, next, prev := checkout.Paged(os, p.perPage, p.cursor, func(o *checkout.Order) checkout.OrderKey {
		return checkout.KeyOf(o.CreatedAt, o.ID)
	})
	out := OrderList{Data: []apijson.Order{}, PerPage: p.perPage, HasMore: !next.Key.IsZero(), NextCursor: cursorText(next),
		PreviousCursor: cursorText(prev)}
	if p.cursor.Key.IsZero() {
		out.Page = p.page
	}
	for _, o := range os {
		out.Data = append(out.Data, a.orderResource(r, o))
	}
	respond.JSON(w, http.StatusOK, out)
}

func joinStatuses() string {
	var ss []string
	for _, st := range checkout.OrderStatuses() {
		ss = append(ss, string(st))
	}
	return strings.Join(ss, ", ")
}

// openAPI is GET /api/v1/openapi.json: the API's description (no key needed).
func (a *merchantAPI) openAPI(w http.ResponseWriter, r *http.Request) {
	respond.SetJSONHeaders(w.Header())
	_, _ = w.Write(openAPIDocument)
}
