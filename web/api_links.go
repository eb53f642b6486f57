package web

import (
	"net/http"
	"strconv"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient/strictjson"
	"github.com/pixcheckout/pixcheckout/web/apijson"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// The payment links of the merchant API: POST and GET /api/v1/payment-links, GET and PATCH
// /api/v1/payment-links/{id}, with the conventions of checkout sessions (an optional
// Idempotency-Key on creation, every violation at once in the one error shape).

// linkFields are the fields of a payment link's JSON as written by the merchant; any other is
// refused.
var linkFields = []string{"title", "items", "amount", "description", "customAmount", "slug", "maxPayments", "expiresAt",
	"requireAddress", "active", "customerFields"}

// linkBody is a payment link's JSON as read: the values given, and which were given.
type linkBody struct {
	in          checkout.LinkInput
	given       map[string]bool
	clearExpiry bool // "expiresAt": null
}

// readLinkBody reads a payment link's JSON, every wrong type and unknown field at once.
func readLinkBody(doc strictjson.Value) (linkBody, *strictjson.Reader) {
	b := linkBody{given: map[string]bool{}}
	r := &strictjson.Reader{}
	if doc.Kind() != strictjson.Object {
		r.Add("body", checkout.CodeType, "must be an object")
		return b, r
	}
	top, _ := r.Object("", doc, linkFields...)
	for _, f := range linkFields {
		b.given[f] = !top.Get(f).Missing()
	}
	in := &b.in
	in.Title = r.String("title", top.Get("title"))
	in.Items = readItems(r, top.Get("items"))
	in.Amount, _ = r.Cents("amount", top.Get("amount"))
	in.Description = r.String("description", top.Get("description"))
	if c, ok := r.Object("customAmount", top.Get("customAmount"), "min", "max"); ok {
		in.CustomAmount = &checkout.CustomAmount{}
		in.CustomAmount.Min, _ = r.Cents("customAmount.min", c.Get("min"))
		in.CustomAmount.Max, _ = r.Cents("customAmount.max", c.Get("max"))
	}
	in.Slug = r.String("slug", top.Get("slug"))
	if n, ok := r.Int("maxPayments", top.Get("maxPayments"), strconv.IntSize); ok {
		in.MaxPayments = int(n)
	}
	if v := top.Get("expiresAt"); v.Kind() == strictjson.Null {
		b.clearExpiry = true
	} else if s := r.String("expiresAt", v); s != "" {
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			r.Add("expiresAt", checkout.CodeFormat, "must be an RFC 3339 time such as 2026-12-31T23:59:59Z")
		} else {
			in.ExpiresAt = &t
		}
	}
	if v := top.Get("customerFields"); !v.Missing() {
		in.CustomerFields = []string{}
		for i, el := range r.Array("customerFields", v) {
			in.CustomerFields = append(in.CustomerFields, r.String("customerFields["+strconv.Itoa(i)+"]", el))
		}
	}
	in.RequireAddress, _ = r.Bool("requireAddress", top.Get("requireAddress"))
	if v, ok := r.Bool("active", top.Get("active")); ok {
		in.Active = &v
	}
	return b, r
}

// apply writes the fields given onto in: what is paid (items, amount, customAmount) is
// replaced whole when any of them is given.
func (b linkBody) apply(in *checkout.LinkInput) {
	if b.given["items"] || b.given["amount"] || b.given["customAmount"] {
		in.Items, in.Amount, in.CustomAmount = b.in.Items, b.in.Amount, b.in.CustomAmount
	}
	set := func(f string, fn func()) {
		if b.given[f] {
			fn()
		}
	}
	set("title", func() { in.Title = b.in.Title })
	set("description", func() { in.Description = b.in.Description })
	set("slug", func() { in.Slug = b.in.Slug })
	set("maxPayments", func() { in.MaxPayments = b.in.MaxPayments })
	set("requireAddress", func() { in.RequireAddress = b.in.RequireAddress })
	set("active", func() { in.Active = b.in.Active })
	set("expiresAt", func() { in.ExpiresAt = b.in.ExpiresAt })
	set("customerFields", func() { in.CustomerFields = b.in.CustomerFields })
	if b.clearExpiry {
		in.ExpiresAt = nil
	}
	in.ReadErrors = b.in.ReadErrors
}

// publicBase is the checkout's public address: the configured one, else the request's own.
func (a *merchantAPI) publicBase(r *http.Request) string {
	if a.publicURL != "" {
		return a.publicURL
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// linkResource is the API's view of l with its payments.
func (a *merchantAPI) linkResource(r *http.Request, l *checkout.PaymentLink) (apijson.PaymentLink, error) {
	st, err := a.svc.LinkStats(r.Context(), l.ID)
	if err != nil {
		return apijson.PaymentLink{}, err
	}
	return apijson.PaymentLinkOf(l, st[l.ID], a.publicBase(r)), nil
}

// createLink is POST /api/v1/payment-links: 201 with the new link, 200 with the same link for
// a replay of an Idempotency-Key with the same body, 422 naming each field otherwise.
func (a *merchantAPI) createLink(w http.ResponseWriter, r *http.Request) {
	doc, ok := readJSON(w, r)
	if !ok {
		return
	}
	b, rd := readLinkBody(doc)
	key := r.Header.Get("Idempotency-Key")
	if _, sent := r.Header["Idempotency-Key"]; sent && key == "" {
		rd.Add("Idempotency-Key", checkout.CodeMinLength, "must not be empty (leave the header out to go without one)")
	}
	b.in.ReadErrors = rd.OrNil()
	var in checkout.LinkInput
	b.apply(&in)
	in.IdempotencyKey = key
	l, created, err := a.svc.CreateLink(r.Context(), in)
	if err != nil {
		a.site.FailJSON(w, r, err)
		return
	}
	out, err := a.linkResource(r, l)
	if err != nil {
		a.site.FailJSON(w, r, err)
		return
	}
	status := http.StatusCreated
	if !created {
		status = http.StatusOK
		w.Header().Set(IdempotentReplayedHeader, "true")
	}
	w.Header().Set("Location", APIPrefix+"/payment-links/"+l.ID)
	respond.JSON(w, status, out)
}

// LinkList is the answer of GET /api/v1/payment-links.
type LinkList struct {
	Data []apijson.PaymentLink `json:"data"`
}

// listLinks is GET /api/v1/payment-links: every link, newest first, with its payments.
func (a *merchantAPI) listLinks(w http.ResponseWriter, r *http.Request) {
	links, err := a.svc.Links(r.Context())
	if err != nil {
		a.site.FailJSON(w, r, err)
		return
	}
	ids := make([]string, len(links))
	for i := range links {
		ids[i] = links[i].ID
	}
	st, err := a.svc.LinkStats(r.Context(), ids...)
	if err != nil {
		a.site.FailJSON(w, r, err)
		return
	}
	out := LinkList{Data: make([]apijson.PaymentLink, 0, len(links))}
	for i := range links {
		out.Data = append(out.Data, apijson.PaymentLinkOf(&links[i], st[links[i].ID], a.publicBase(r)))
	}
	respond.JSON(w, http.StatusOK, out)
}

// getLink is GET /api/v1/payment-links/{id}.
func (a *merchantAPI) getLink(w http.ResponseWriter, r *http.Request) {
	l, err := a.svc.Link(r.Context(), chi.URLParam(r, "linkID"))
	if err != nil {
		a.site.FailJSON(w, r, err)
		return
	}
	out, err := a.linkResource(r, l)
	if err != nil {
		a.site.FailJSON(w, r, err)
		return
	}
	respond.JSON(w, http.StatusOK, out)
}

// patchLink is PATCH /api/v1/payment-links/{id}: the fields given change, the link is checked
// whole again (an expiry already past may stay); {"active": false} deactivates it.
func (a *merchantAPI) patchLink(w http.ResponseWriter, r *http.Request) {
	doc, ok := readJSON(w, r)
	if !ok {
		return
	}
	b, rd := readLinkBody(doc)
	b.in.ReadErrors = rd.OrNil()
	l, err := a.svc.UpdateLink(r.Context(), chi.URLParam(r, "linkID"), b.apply)
	if err != nil {
		a.site.FailJSON(w, r, err)
		return
	}
	out, err := a.linkResource(r, l)
	if err != nil {
		a.site.FailJSON(w, r, err)
		return
	}
	respond.JSON(w, http.StatusOK, out)
}
