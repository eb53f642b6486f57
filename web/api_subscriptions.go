package web

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/charges"
	"github.com/pixcheckout/pixcheckout/checkout/subscriptions"
	"github.com/pixcheckout/pixcheckout/gatewayclient/strictjson"
	"github.com/pixcheckout/pixcheckout/web/apijson"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// The subscriptions ("assinaturas") of the merchant API: POST and GET /api/v1/subscriptions,
// GET /api/v1/subscriptions/{id} and its cancel, pause and resume, with the charges'
// conventions (an optional Idempotency-Key on creation, every violation at once in the one error
// shape, the customer's document and phone masked to a key without the personal-data right).

// subscriptionFields are the fields of a new subscription's JSON; any other is refused.
var subscriptionFields = []string{"customer", "amount", "description", "externalCode", "fineBps",
	"interestBpsPerMonth", "discount", "dayOfMonth", "everyWeeks", "startDate", "endDate", "count"}

// readSubscriptionBody reads a new subscription's JSON, every wrong type and unknown field at once.
func readSubscriptionBody(doc strictjson.Value) (subscriptions.Input, *strictjson.Reader) {
	var in subscriptions.Input
	r := &strictjson.Reader{}
	if doc.Kind() != strictjson.Object {
		r.Add("body", checkout.CodeType, "must be an object")
		return in, r
	}
	top, _ := r.Object("", doc, subscriptionFields...)
	if c, ok := r.Object("customer", top.Get("customer"), "name", "document", "email", "phone"); ok {
		in.Customer = charges.Customer{Name: r.String("customer.name", c.Get("name")),
			Document: r.String("customer.document", c.Get("document")), Email: r.String("customer.email", c.Get("email")),
			Phone: r.String("customer.phone", c.Get("phone"))}
	}
	in.Terms.Amount, _ = r.Cents("amount", top.Get("amount"))
	in.Description = r.String("description", top.Get("description"))
	in.ExternalCode = r.String("externalCode", top.Get("externalCode"))
	in.Terms.FineBps = readCount(r, "fineBps", top.Get("fineBps"), 0)
	in.Terms.InterestBpsPerMonth = readCount(r, "interestBpsPerMonth", top.Get("interestBpsPerMonth"), 0)
	if d, ok := r.Object("discount", top.Get("discount"), "bps", "amount", "daysBefore"); ok {
		in.Terms.Discount.Bps = readCount(r, "discount.bps", d.Get("bps"), 1)
		in.Terms.Discount.Amount = charges.Cents(readCount(r, "discount.amount", d.Get("amount"), 1))
		in.DiscountDays = readCount(r, "discount.daysBefore", d.Get("daysBefore"), 1)
		if d.Get("daysBefore").Missing() {
			r.Add("discount.daysBefore", checkout.CodeRequired, "is required")
		}
		if d.Get("bps").Missing() && d.Get("amount").Missing() {
			r.Add("discount", checkout.CodeRequired, "must give bps or amount")
		}
	}
	in.Schedule.DayOfMonth = readCount(r, "dayOfMonth", top.Get("dayOfMonth"), 1)
	in.Schedule.EveryWeeks = readCount(r, "everyWeeks", top.Get("everyWeeks"), 1)
	in.Schedule.Start = readDay(r, "startDate", top.Get("startDate"))
	in.Schedule.End = readDay(r, "endDate", top.Get("endDate"))
	in.Schedule.Count = readCount(r, "count", top.Get("count"), 1)
	return in, r
}

// readCount reads an optional whole number of at least least when given (0 when absent).
func readCount(r *strictjson.Reader, path string, v strictjson.Value, least int64) int {
	n, ok := r.Int(path, v, 32)
	if ok && !v.Missing() && n < least {
		r.Add(path, checkout.CodeMin, "must be at least "+strconv.FormatInt(least, 10))
	}
	return int(n)
}

// subscriptionResource is the API's view of s, its customer's document and phone masked unless
// the key may see them (personalInFull).
func subscriptionResource(r *http.Request, s *subscriptions.Subscription) apijson.Subscription {
	out := apijson.SubscriptionOf(s)
	if !personalInFull(r) {
		out.Customer = out.Customer.Masked()
	}
	return out
}

// createSubscription is POST /api/v1/subscriptions: 201 with the new subscription, 200 with the
// same one for a replay of an Idempotency-Key with the same body, 422 naming each field otherwise.
func (a *merchantAPI) createSubscription(w http.ResponseWriter, r *http.Request) {
	doc, ok := readJSON(w, r)
	if !ok {
		return
	}
	in, rd := readSubscriptionBody(doc)
	key := r.Header.Get("Idempotency-Key")
	if _, sent := r.Header["Idempotency-Key"]; sent && key == "" {
		rd.Add("Idempotency-Key", checkout.CodeMinLength, "must not be empty (leave the header out to go without one)")
	}
	if len(rd.Violations) > 0 {
		ve := &rd.ValidationError
		if more := in.Validate(charges.Today(a.charges.Now())); more != nil {
			for _, v := range more.Violations {
				if !ve.Has(v.Field) {
					ve.Violations = append(ve.Violations, v)
				}
			}
		}
		a.site.FailJSON(w, r, ve)
		return
	}
	s, created, err := a.subscriptions.CreateOnce(r.Context(), apiActor(r), respond.ClientIP(r), key, in)
	if err != nil {
		a.site.FailJSON(w, r, err)
		return
	}
	status := http.StatusCreated
	if !created {
		status = http.StatusOK
		w.Header().Set(IdempotentReplayedHeader, "true")
	}
	w.Header().Set("Location", APIPrefix+"/subscriptions/"+s.ID)
	respond.JSON(w, status, subscriptionResource(r, &s))
}

// getSubscription is GET /api/v1/subscriptions/{id}.
func (a *merchantAPI) getSubscription(w http.ResponseWriter, r *http.Request) {
	s, err := a.subscriptions.Subscription(r.Context(), chi.URLParam(r, "subscriptionID"))
	if err != nil {
		a.site.FailJSON(w, r, err)
		return
	}
	respond.JSON(w, http.StatusOK, subscriptionResource(r, &s))
}

// changeSubscription answers POST /api/v1/subscriptions/{id}/cancel, /pause or /resume
// through change: the subscription as it became, 409 when its status does not allow it.
func (a *merchantAPI) changeSubscription(change func(m *subscriptions.Manager, ctx context.Context, actor, address, id string) (subscriptions.Subscription, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s, err := change(a.subscriptions, r.Context(), apiActor(r), respond.ClientIP(r), chi.URLParam(r, "subscriptionID"))
		if err != nil {
			a.site.FailJSON(w, r, err)
			return
		}
		respond.JSON(w, http.StatusOK, subscriptionResource(r, &s))
	}
}

// SubscriptionList is the answer of GET /api/v1/subscriptions.
type SubscriptionList struct {
	Data       []apijson.Subscription `json:"data"`
	PerPage    int                    `json:"perPage"`
	HasMore    bool                   `json:"hasMore"` // older subscriptions follow
	NextCursor string                 `json:"nextCursor,omitempty"`
}

// listSubscriptions is GET /api/v1/subscriptions: newest first, filtered by status (repeatable,
// or separated by commas), paged by cursor and perPage.
func (a *merchantAPI) listSubscriptions(w http.ResponseWriter, r *http.Request) {
	f, perPage, err := readSubscriptionQuery(r.URL.Query())
	if err != nil {
		a.site.FailJSON(w, r, err)
		return
	}
	f.Limit = perPage + 1 // one more tells whether another page follows
	list, _, err := a.subscriptions.List(r.Context(), f, 0)
	if err != nil {
		a.site.FailJSON(w, r, err)
		return
	}
	out := SubscriptionList{PerPage: perPage}
	out.Data, out.HasMore, out.NextCursor = apiPage(list, perPage, func(s *subscriptions.Subscription) (apijson.Subscription, checkout.OrderKey) {
		return subscriptionResource(r, s), checkout.KeyOf(s.CreatedAt, s.ID)
	})
	respond.JSON(w, http.StatusOK, out)
}

// readSubscriptionQuery reads the query of GET /api/v1/subscriptions, every violation at once.
func readSubscriptionQuery(q url.Values) (subscriptions.Filter, int, error) {
	status, after, perPage, err := readListQuery(q, subscriptions.Statuses())
	return subscriptions.Filter{Status: status, AfterCreated: after.CreatedAt, AfterID: after.ID}, perPage, err
}

// readListQuery reads the query of a list of the API by status, newest first: the statuses
// asked (repeatable, or separated by commas; each one of all), perPage, and the key the cursor
// starts after; every violation at once.
func readListQuery[S ~string](q url.Values, all []S) ([]S, checkout.OrderKey, int, error) {
	rd := &checkout.ValidationError{}
	var status []S
	names := make([]string, len(all))
	for i, st := range all {
		names[i] = string(st)
	}
	for i, v := range q["status"] {
		for _, st := range strings.Split(v, ",") {
			if st = strings.TrimSpace(st); st == "" {
				continue
			}
			if !slices.Contains(all, S(st)) {
				rd.Add("status["+strconv.Itoa(i)+"]", checkout.CodeEnum, "must be one of: "+strings.Join(names, ", "))
				continue
			}
			status = append(status, S(st))
		}
	}
	perPage := defaultPerPage
	readPositive(rd, q.Get("perPage"), "perPage", 1, maxPerPage, &perPage)
	var after checkout.OrderKey
	if c := q.Get("cursor"); c != "" {
		cur, err := checkout.ParseCursor(c)
		if err != nil || cur.Backward || cur.Sort != checkout.SortCreatedDesc {
			rd.Add("cursor", checkout.CodeFormat, "must be a nextCursor of this list")
		} else {
			after = cur.Key
		}
	}
	return status, after, perPage, rd.Err()
}

// apiPage is the page of list (read with one more than perPage) as the API shows it, through
// view: its resources, whether older ones follow, and the cursor of the next page.
func apiPage[T, R any](list []T, perPage int, view func(*T) (R, checkout.OrderKey)) ([]R, bool, string) {
	out := []R{}
	more, next := false, ""
	if len(list) > perPage {
		list, more = list[:perPage], true
		_, key := view(&list[perPage-1])
		next = checkout.Cursor{Key: key}.String()
	}
	for i := range list {
		res, _ := view(&list[i])
		out = append(out, res)
	}
	return out, more, next
}
