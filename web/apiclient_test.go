package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/oapi-codegen/nullable"

	"github.com/pixcheckout/pixcheckout/web"
	"github.com/pixcheckout/pixcheckout/web/apitest/apiclient"
)

// strictly decodes body into a T, refusing a field T does not have: a generated type that lost
// a field of the answer (as an allOf refinement of Error once made it lose message, fields and
// requestId) fails here.
func strictly[T any](t *testing.T, what string, body []byte) T {
	t.Helper()
	var v T
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("%s: the generated type does not read the answer: %v\n%s", what, err, body)
	}
	return v
}

// TestGeneratedClient: a client generated from openapi.json with no edits (package apiclient)
// creates a checkout session, pages orders by cursor, reads a 422's fields and clears a payment
// link's expiry with null, every answer
// decoded strictly into its generated type (and every exchange held to the document by the
// env's transport).
func TestGeneratedClient(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	c, err := apiclient.NewClientWithResponses(e.srv.URL+web.APIPrefix, apiclient.WithHTTPClient(e.http),
		apiclient.WithRequestEditorFn(func(_ context.Context, req *http.Request) error {
			req.Header.Set("Authorization", "Bearer "+testConfiguredKey)
			return nil
		}))
	if err != nil {
		t.Fatal(err)
	}

	// A checkout session: a catalogue product and an ad-hoc item.
	var catalogue, adHoc apiclient.CreateCheckoutSession_Items_Item
	two, desc := 2, "Algodão, tamanho M"
	if err := catalogue.FromCatalogueItem(apiclient.CatalogueItem{ProductId: "ebook-receitas-do-cerrado", Quantity: &two}); err != nil {
		t.Fatal(err)
	}
	if err := adHoc.FromAdHocItem(apiclient.AdHocItem{Title: "Camiseta PIX", Description: &desc, UnitPrice: 5990,
		Type: apiclient.AdHocItemType("PHYSICAL")}); err != nil {
		t.Fatal(err)
	}
	ref, key, success := "pedido-gen-0001", "gen-client-0001", "https://loja.example.com/obrigado?s={CHECKOUT_SESSION_ID}"
	created, err := c.CreateCheckoutSessionWithResponse(ctx, &apiclient.CreateCheckoutSessionParams{IdempotencyKey: &key},
		apiclient.CreateCheckoutSession{Items: []apiclient.CreateCheckoutSession_Items_Item{catalogue, adHoc}, ExternalCode: &ref,
			SuccessUrl: &success})
	if err != nil {
		t.Fatal(err)
	}
	if created.StatusCode() != http.StatusCreated || created.JSON201 == nil {
		t.Fatalf("create session: %d %s", created.StatusCode(), created.Body)
	}
	sess := strictly[apiclient.CheckoutSession](t, "the created session", created.Body)
	if sess.Status != "open" || sess.Currency != apiclient.BRL || len(sess.Items) != 2 || sess.ExternalCode == nil || *sess.ExternalCode != ref ||
		!strings.Contains(sess.Url, "/s/"+sess.Id) {
		t.Errorf("session: %+v", sess)
	}
	read, err := c.GetCheckoutSessionWithResponse(ctx, sess.Id)
	if err != nil || read.JSON200 == nil || read.JSON200.Id != sess.Id {
		t.Fatalf("read session: %v %s", err, read.Body)
	}
	strictly[apiclient.CheckoutSession](t, "the session read", read.Body)

	// Orders paged by cursor, two by two: every order once, newest first.
	var placed []string
	for range 5 {
		placed = append([]string{orderID(e.placeOrder())}, placed...)
	}
	var seen []string
	perPage := 2
	params := &apiclient.ListOrdersParams{PerPage: &perPage}
	for pages := 0; ; pages++ {
		if pages > 5 {
			t.Fatalf("still paging after %d pages: %v", pages, seen)
		}
		res, err := c.ListOrdersWithResponse(ctx, params)
		if err != nil || res.JSON200 == nil {
			t.Fatalf("list orders: %v %d %s", err, res.StatusCode(), res.Body)
		}
		list := strictly[apiclient.OrderList](t, "a page of orders", res.Body)
		for _, o := range list.Data {
			seen = append(seen, o.Id)
		}
		if !list.HasMore {
			break
		}
		params = &apiclient.ListOrdersParams{PerPage: &perPage, Cursor: list.NextCursor}
	}
	if !slices.Equal(seen, placed) {
		t.Errorf("orders paged by cursor: %v, want %v", seen, placed)
	}
	order, err := c.GetOrderWithResponse(ctx, placed[0])
	if err != nil || order.JSON200 == nil {
		t.Fatalf("read order: %v %s", err, order.Body)
	}
	strictly[apiclient.Order](t, "an order", order.Body)

	// A 422: every violation, each naming its field, read from the generated Error.
	tooMany, zero := 500, 0
	bad, err := c.ListOrdersWithResponse(ctx, &apiclient.ListOrdersParams{PerPage: &tooMany, Page: &zero})
	if err != nil || bad.JSON422 == nil {
		t.Fatalf("bad filters: %v %d %s", err, bad.StatusCode(), bad.Body)
	}
	fail := strictly[apiclient.Error](t, "a 422", bad.Body)
	var fields []string
	if fail.Error.Fields != nil {
		for _, f := range *fail.Error.Fields {
			fields = append(fields, f.Field+" "+string(f.Code))
		}
	}
	if fail.Error.Code != "invalid" || fail.Error.Message == "" || fail.Error.RequestId != bad.HTTPResponse.Header.Get("X-Request-Id") ||
		strings.Join(fields, ",") != "page min,perPage max" {
		t.Errorf("422: %+v, fields %v", fail.Error, fields)
	}
	if got := bad.JSON422.Error.Fields; got == nil || len(*got) != 2 {
		t.Errorf("the client's own decoding of the 422 lost its fields: %s", bad.Body)
	}

	// A payment link's expiry is cleared by sending null, which the generated type can say.
	amount, linkKey, expires := 2990, "gen-client-link-0001", e.sb.Now().Add(48*time.Hour)
	made, err := c.CreatePaymentLinkWithResponse(ctx, &apiclient.CreatePaymentLinkParams{IdempotencyKey: &linkKey},
		apiclient.CreatePaymentLink{Title: "Doação", Amount: &amount, ExpiresAt: &expires})
	if err != nil || made.JSON201 == nil || made.JSON201.ExpiresAt == nil {
		t.Fatalf("create link: %v %d %s", err, made.StatusCode(), made.Body)
	}
	cleared, err := c.UpdatePaymentLinkWithResponse(ctx, made.JSON201.Id,
		apiclient.UpdatePaymentLink{ExpiresAt: nullable.NewNullNullable[time.Time]()})
	if err != nil || cleared.JSON200 == nil {
		t.Fatalf("clear the link's expiry: %v %d %s", err, cleared.StatusCode(), cleared.Body)
	}
	if link := strictly[apiclient.PaymentLink](t, "the link", cleared.Body); link.ExpiresAt != nil {
		t.Errorf("expiresAt null left the link expiring at %v", *link.ExpiresAt)
	}
}
