package web

import (
	"errors"
	"net/http"
	"net/url"

	"github.com/go-chi/chi/v5"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/charges"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/strictjson"
	"github.com/pixcheckout/pixcheckout/web/apijson"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// The charges with a due date of the merchant API: POST and GET /api/v1/charges, GET
// /api/v1/charges/{id} and POST /api/v1/charges/{id}/cancel, with the conventions of payment links (an optional Idempotency-Key
// on creation, every violation at once in the one error shape). A charge's amountDue is what it
// asks today (São Paulo), its url the customer's page.

// chargeFields are the fields of a new charge's JSON; any other is refused.
var chargeFields = []string{"customer", "amount", "description", "dueDate", "externalCode", "fineBps",
	"interestBpsPerMonth", "discount"}

// readChargeBody reads a new charge's JSON, every wrong type and unknown field at once.
func readChargeBody(doc strictjson.Value) (charges.Input, *strictjson.Reader) {
	var in charges.Input
	r := &strictjson.Reader{}
	if doc.Kind() != strictjson.Object {
		r.Add("body", checkout.CodeType, "must be an object")
		return in, r
	}
	top, _ := r.Object("", doc, chargeFields...)
	if c, ok := r.Object("customer", top.Get("customer"), "name", "document", "email", "phone"); ok {
		in.Customer = charges.Customer{Name: r.String("customer.name", c.Get("name")),
			Document: r.String("customer.document", c.Get("document")), Email: r.String("customer.email", c.Get("email")),
			Phone: r.String("customer.phone", c.Get("phone"))}
	}
	in.Terms.Amount, _ = r.Cents("amount", top.Get("amount"))
	in.Description = r.String("description", top.Get("description"))
	in.Terms.Due = readDay(r, "dueDate", top.Get("dueDate"))
	in.ExternalCode = r.String("externalCode", top.Get("externalCode"))
	if n, ok := r.Int("fineBps", top.Get("fineBps"), 32); ok {
		in.Terms.FineBps = int(n)
	}
	if n, ok := r.Int("interestBpsPerMonth", top.Get("interestBpsPerMonth"), 32); ok {
		in.Terms.InterestBpsPerMonth = int(n)
	}
	if d, ok := r.Object("discount", top.Get("discount"), "bps", "amount", "until"); ok {
		if n, ok := r.Int("discount.bps", d.Get("bps"), 32); ok {
			in.Terms.Discount.Bps = int(n)
		}
		in.Terms.Discount.Amount, _ = r.Cents("discount.amount", d.Get("amount"))
		in.Terms.Discount.Until = readDay(r, "discount.until", d.Get("until"))
		if d.Get("until").Missing() {
			// An empty discount is a discount without its day, not none.
			r.Add("discount.until", checkout.CodeRequired, "is required")
		}
	}
	return in, r
}

// readDay reads a calendar day written YYYY-MM-DD.
func readDay(r *strictjson.Reader, path string, v strictjson.Value) gatewayclient.Date {
	s := r.String(path, v)
	if s == "" {
		return gatewayclient.Date{}
	}
	d, err := gatewayclient.ParseDate(s)
	if err != nil {
		r.Add(path, checkout.CodeFormat, "must be a day written YYYY-MM-DD")
	}
	return d
}

// chargeResource is the API's view of c, its customer's document and phone masked unless the
// key may see them (personalInFull).
func (a *merchantAPI) chargeResource(r *http.Request, c *charges.Charge) apijson.Charge {
	out := apijson.ChargeOf(c, charges.Today(a.charges.Now()), a.publicBase(r))
	if !personalInFull(r) {
		out.Customer = out.Customer.Masked()
	}
	return out
}

// createCharge is POST /api/v1/charges: 201 with the new charge, 200 with the same charge for a
// replay of an Idempotency-Key with the same body, 422 naming each field otherwise.
func (a *merchantAPI) createCharge(w http.ResponseWriter, r *http.Request) {
	doc, ok := readJSON(w, r)
	if !ok {
		return
	}
	in, rd := readChargeBody(doc)
	key := r.Header.Get("Idempotency-Key")
	if _, sent := r.Header["Idempotency-Key"]; sent && key == "" {
		rd.Add("Idempotency-Key", checkout.CodeMinLength, "must not be empty (leave the header out to go without one)")
	}
	if len(rd.Violations) > 0 {
		// What could not be read comes first, then every rule the rest breaks.
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
	c, created, err := a.charges.CreateOnce(r.Context(), apiActor(r), respond.ClientIP(r), key, in)
	if err != nil {
		a.site.FailJSON(w, r, err)
		return
	}
	status := http.StatusCreated
	if !created {
		status = http.StatusOK
		w.Header().Set(IdempotentReplayedHeader, "true")
	}
	w.Header().Set("Location", APIPrefix+"/charges/"+c.ID)
	respond.JSON(w, status, a.chargeResource(r, &c))
}

// getCharge is GET /api/v1/charges/{id}.
func (a *merchantAPI) getCharge(w http.ResponseWriter, r *http.Request) {
	c, err := a.charges.Charge(r.Context(), chi.URLParam(r, "chargeID"))
	if err != nil {
		a.site.FailJSON(w, r, err)
		return
	}
	respond.JSON(w, http.StatusOK, a.chargeResource(r, &c))
}

// errChargeFinal is the API's answer to a change of a paid or canceled charge.
var errChargeFinal = &checkout.Error{Code: checkout.CodeConflict, Message: "the charge is paid or canceled"}

// cancelCharge is POST /api/v1/charges/{id}/cancel: the charge as it became, 409 when it is paid
// or canceled already (the dashboard's Cancel, with the key as the actor).
func (a *merchantAPI) cancelCharge(w http.ResponseWriter, r *http.Request) {
	c, err := a.charges.Cancel(r.Context(), apiActor(r), respond.ClientIP(r), chi.URLParam(r, "chargeID"))
	if errors.Is(err, charges.ErrFinal) {
		err = errChargeFinal
	}
	if err != nil {
		a.site.FailJSON(w, r, err)
		return
	}
	respond.JSON(w, http.StatusOK, a.chargeResource(r, &c))
}

// ChargeList is the answer of GET /api/v1/charges.
type ChargeList struct {
	Data       []apijson.Charge `json:"data"`
	PerPage    int              `json:"perPage"`
	HasMore    bool             `json:"hasMore"` // older charges follow
	NextCursor string           `json:"nextCursor,omitempty"`
}

// listCharges is GET /api/v1/charges: newest first, filtered by status (repeatable, or
// separated by commas), paged by cursor and perPage.
func (a *merchantAPI) listCharges(w http.ResponseWriter, r *http.Request) {
	f, perPage, err := readChargeQuery(r.URL.Query())
	if err != nil {
		a.site.FailJSON(w, r, err)
		return
	}
	f.Limit = perPage + 1 // one more tells whether another page follows
	list, _, err := a.charges.List(r.Context(), f, 0)
	if err != nil {
		a.site.FailJSON(w, r, err)
		return
	}
	out := ChargeList{PerPage: perPage}
	out.Data, out.HasMore, out.NextCursor = apiPage(list, perPage, func(c *charges.Charge) (apijson.Charge, checkout.OrderKey) {
		return a.chargeResource(r, c), checkout.KeyOf(c.CreatedAt, c.ID)
	})
	respond.JSON(w, http.StatusOK, out)
}

// readChargeQuery reads the query of GET /api/v1/charges, every violation at once.
func readChargeQuery(q url.Values) (charges.Filter, int, error) {
	status, after, perPage, err := readListQuery(q, charges.Statuses())
	return charges.Filter{Status: status, AfterCreated: after.CreatedAt, AfterID: after.ID}, perPage, err
}
