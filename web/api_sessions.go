package web

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/merchant"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// Fields of the JSON objects of POST /api/v1/checkout-sessions; any other is refused, so that
// a misspelt field is an error instead of being silently ignored.
var (
	sessionFields  = []string{"items", "externalCode", "embedOrigin", "customer", "successUrl", "cancelUrl", "expiresInSeconds", "metadata"}
	itemFields     = []string{"productId", "title", "description", "unitPrice", "quantity", "type"}
	customerFields = []string{"name", "document", "email", "phone", "address"}
	addressFields  = []string{"zipCode", "street", "number", "complement", "neighborhood", "city", "state", "country"}
)

// parseSessionRequest reads the body of POST /api/v1/checkout-sessions, every wrong type and
// unknown field at once.
func parseSessionRequest(body []byte) (checkout.CreateSessionInput, error) {
	var in checkout.CreateSessionInput
	r := &fieldReader{}
	top, ok := r.object("", body, sessionFields...)
	if !ok {
		if r.err() == nil {
			r.add("body", gatewayclient.CodeType, "must be an object")
		}
		return in, r.err()
	}
	raws := r.array("items", top["items"])
	for i, raw := range raws {
		p := "items[" + strconv.Itoa(i) + "]"
		m, ok := r.object(p, raw, itemFields...)
		if !ok {
			if kindOf(raw) == "null" {
				r.add(p, gatewayclient.CodeType, "must be an object")
			}
			continue
		}
		it := checkout.SessionItem{
			ProductID:   checkout.ProductID(r.str(p+".productId", m["productId"])),
			Title:       r.str(p+".title", m["title"]),
			Description: r.str(p+".description", m["description"]),
			Type:        r.str(p+".type", m["type"]),
			Quantity:    1,
		}
		if v, ok := r.integer(p+".unitPrice", m["unitPrice"]); ok {
			it.UnitPrice = gatewayclient.Cents(v)
		}
		if _, present := m["quantity"]; present && kindOf(m["quantity"]) != "null" {
			it.Quantity = r.smallInt(p+".quantity", m["quantity"])
		}
		in.Items = append(in.Items, it)
	}
	in.ExternalCode = r.str("externalCode", top["externalCode"])
	in.EmbedOrigin = r.str("embedOrigin", top["embedOrigin"])
	in.SuccessURL = r.str("successUrl", top["successUrl"])
	in.CancelURL = r.str("cancelUrl", top["cancelUrl"])
	in.ExpiresInSeconds = r.smallInt("expiresInSeconds", top["expiresInSeconds"])
	if _, present := top["expiresInSeconds"]; present && kindOf(top["expiresInSeconds"]) == "number" && in.ExpiresInSeconds == 0 {
		in.ExpiresInSeconds = -1 // 0 sent explicitly: below the minimum, not "default"
	}
	in.Metadata = r.stringMap("metadata", top["metadata"])
	if c, ok := r.object("customer", top["customer"], customerFields...); ok {
		in.Customer = &checkout.Customer{
			Name:     r.str("customer.name", c["name"]),
			Document: r.str("customer.document", c["document"]),
			Email:    r.str("customer.email", c["email"]),
			Phone:    r.str("customer.phone", c["phone"]),
		}
		if a, ok := r.object("customer.address", c["address"], addressFields...); ok {
			get := func(k string) string { return r.str("customer.address."+k, a[k]) }
			in.Address = &checkout.Address{ZipCode: get("zipCode"), Street: get("street"), Number: get("number"),
				Complement: get("complement"), Neighborhood: get("neighborhood"), City: get("city"),
				State: get("state"), Country: get("country")}
		}
	}
	return in, r.err()
}

// IdempotentReplayedHeader is set to "true" on an answer that replays the session made by an
// earlier request with the same Idempotency-Key.
const IdempotentReplayedHeader = "Idempotent-Replayed"

// apiCreateSession is POST /api/v1/checkout-sessions: 201 with the new session, 200 with the
// same session for a replay of an Idempotency-Key with the same body, 422 otherwise.
func (s *Server) apiCreateSession(w http.ResponseWriter, r *http.Request) {
	body, ok := s.readJSON(w, r)
	if !ok {
		return
	}
	in, err := parseSessionRequest(body)
	var fe *checkout.FieldErrors
	switch {
	case errors.As(err, &fe):
		in.ReadErrors = fe // reported with every other violation of the request
	case err != nil:
		s.failJSON(w, r, err)
		return
	}
	in.IdempotencyKey = r.Header.Get("Idempotency-Key")
	if key := apiKeyOf(r); key != nil {
		in.APIKeyID = key.ID
	}
	sess, created, err := s.svc.CreateSession(r.Context(), in)
	if err != nil {
		s.failJSON(w, r, err)
		return
	}
	status := http.StatusCreated
	if !created {
		status = http.StatusOK
		w.Header().Set(IdempotentReplayedHeader, "true")
	}
	o, err := s.svc.SessionOrder(r.Context(), sess.ID)
	if err != nil {
		s.failJSON(w, r, err)
		return
	}
	w.Header().Set("Location", APIPrefix+"/checkout-sessions/"+sess.ID)
	writeJSON(w, status, merchant.SessionOf(sess, o, s.svc.Now(), s.opts.PublicURL))
}

// apiGetSession is GET /api/v1/checkout-sessions/{id}: the session and what became of it.
func (s *Server) apiGetSession(w http.ResponseWriter, r *http.Request) {
	sess, err := s.svc.Session(r.Context(), chi.URLParam(r, "sessionID"))
	if err != nil {
		s.failJSON(w, r, err)
		return
	}
	o, err := s.svc.SessionOrder(r.Context(), sess.ID)
	if err != nil {
		s.failJSON(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, merchant.SessionOf(sess, o, s.svc.Now(), s.opts.PublicURL))
}

// apiGetOrder is GET /api/v1/orders/{id}.
func (s *Server) apiGetOrder(w http.ResponseWriter, r *http.Request) {
	o, err := s.svc.Order(r.Context(), chi.URLParam(r, "orderID"))
	if err != nil {
		s.failJSON(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, s.orderResource(r, o))
}

// orderResource is the API's view of o, with its session's metadata.
func (s *Server) orderResource(r *http.Request, o *checkout.Order) merchant.Order {
	var sess *checkout.Session
	if o.SessionID != "" {
		sess, _ = s.svc.Session(r.Context(), o.SessionID) // metadata only: an order shows without it
	}
	return merchant.OrderOf(o, sess)
}

// Pagination of GET /api/v1/orders.
const (
	defaultPerPage = 20
	maxPerPage     = 100
)

// OrderList is the answer of GET /api/v1/orders.
type OrderList struct {
	Data    []merchant.Order `json:"data"`
	Page    int              `json:"page"`
	PerPage int              `json:"perPage"`
	HasMore bool             `json:"hasMore"`
}

var orderListParams = map[string]bool{"status": true, "createdFrom": true, "createdTo": true, "externalCode": true,
	"page": true, "perPage": true}

// apiListOrders is GET /api/v1/orders: newest first, filtered by status (repeatable),
// createdFrom, createdTo (RFC 3339) and externalCode, paged by page and perPage.
func (s *Server) apiListOrders(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	rd := &fieldReader{}
	for _, k := range sortedKeys(q) {
		if !orderListParams[k] {
			rd.add(k, "unknown_parameter", "is not a parameter of this route (status, createdFrom, createdTo, externalCode, page, perPage)")
		} else if k != "status" && len(q[k]) > 1 {
			rd.add(k, gatewayclient.CodeDuplicate, "must be given once")
		}
	}
	f := checkout.OrderFilter{MerchantReference: q.Get("externalCode")}
	for i, v := range q["status"] {
		for _, st := range strings.Split(v, ",") {
			if st = strings.TrimSpace(st); st == "" {
				continue
			}
			if !checkout.OrderStatus(st).Valid() {
				rd.add("status["+strconv.Itoa(i)+"]", gatewayclient.CodeEnum, "must be one of: "+joinStatuses())
				continue
			}
			f.Statuses = append(f.Statuses, checkout.OrderStatus(st))
		}
	}
	parseTime := func(name string) time.Time {
		v := q.Get(name)
		if v == "" {
			return time.Time{}
		}
		t, err := time.Parse(time.RFC3339Nano, v)
		if err != nil {
			rd.add(name, gatewayclient.CodeFormat, "must be an RFC 3339 time such as 2026-03-14T12:00:00Z")
		}
		return t
	}
	f.CreatedFrom, f.CreatedBefore = parseTime("createdFrom"), parseTime("createdTo")
	if !f.CreatedFrom.IsZero() && !f.CreatedBefore.IsZero() && f.CreatedBefore.Before(f.CreatedFrom) {
		rd.add("createdTo", gatewayclient.CodeRange, "must not be before createdFrom")
	}
	page, perPage := readPaging(rd, q)
	if err := rd.err(); err != nil {
		s.failJSON(w, r, err)
		return
	}
	// One more than a page tells whether another page follows.
	f.Limit, f.Offset = perPage+1, (page-1)*perPage
	os, err := s.svc.Orders(r.Context(), f)
	if err != nil {
		s.failJSON(w, r, err)
		return
	}
	out := OrderList{Data: []merchant.Order{}, Page: page, PerPage: perPage, HasMore: len(os) > perPage}
	if out.HasMore {
		os = os[:perPage]
	}
	for _, o := range os {
		out.Data = append(out.Data, s.orderResource(r, o))
	}
	writeJSON(w, http.StatusOK, out)
}

func joinStatuses() string {
	var ss []string
	for _, st := range checkout.OrderStatuses() {
		ss = append(ss, string(st))
	}
	return strings.Join(ss, ", ")
}

// openAPI is GET /api/v1/openapi.json: the API's description (no key needed).
func (s *Server) openAPI(w http.ResponseWriter, r *http.Request) {
	setJSONHeaders(w.Header())
	_, _ = w.Write(openAPIDocument)
}
