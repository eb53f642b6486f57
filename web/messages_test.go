package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/views"
)

// langQuery is the query string that picks each language explicitly.
var langQuery = map[views.Lang]string{views.PtBR: "?lang=pt-BR", views.En: "?lang=en"}

// TestHandlerMessagesInBothLanguages shows each form-wide or page-wide message of the handlers
// in both languages, from the views' catalogue.
func TestHandlerMessagesInBothLanguages(t *testing.T) {
	e := newEnv(t)
	for _, lang := range views.Langs() {
		q := langQuery[lang]
		t.Run(string(lang), func(t *testing.T) {
			// A form without its request key is outdated.
			cart := e.newCart("ebook-receitas-do-cerrado", "1")
			form := customer("")
			res, doc := e.post(cart+"/checkout"+q, form)
			summary := doc.Find(testid("error-summary")).Text()
			if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(summary, views.T(lang, views.MsgFormOutdated)) {
				t.Errorf("outdated form: %d, summary %q", res.StatusCode, summary)
			}
			if v, _ := doc.Find(`input[name="email"]`).Attr("value"); v != "maria@example.com.br" {
				t.Errorf("outdated form: e-mail not kept: %q", v)
			}

			// A product withdrawn from the catalogue after it was put in the cart.
			cart = e.newCart("cafe-especial-250g", "1")
			_, doc = e.get(cart + "/checkout" + q)
			key := requestKey(t, doc)
			setActive(t, e, "cafe-especial-250g", false)
			res, doc = e.post(cart+"/checkout"+q, customer(key))
			setActive(t, e, "cafe-especial-250g", true)
			summary = doc.Find(testid("error-summary")).Text()
			if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(summary, views.T(lang, views.MsgCartUnavailable)) {
				t.Errorf("withdrawn product: %d, summary %q", res.StatusCode, summary)
			}

			// A product that does not exist.
			res, doc = e.post("/cart"+q, url.Values{"product_id": {"no-such-product"}})
			if res.StatusCode != http.StatusNotFound || !strings.Contains(doc.Text(), views.T(lang, views.MsgProductMissing)) {
				t.Errorf("missing product: %d, page %q", res.StatusCode, strings.Join(strings.Fields(doc.Find("main").Text()), " "))
			}

			// The sandbox refuses to pay a deposit it already paid.
			id, _ := e.paidInSandbox()
			res, doc = e.post("/pay/"+id+"/sandbox-pay"+q, url.Values{})
			if res.StatusCode != http.StatusBadGateway || !strings.Contains(doc.Text(), views.T(lang, views.MsgSandboxRefused)) {
				t.Errorf("refused sandbox payment: %d, page %q", res.StatusCode, strings.Join(strings.Fields(doc.Find("main").Text()), " "))
			}
		})
	}
}

// setActive lists or withdraws a product of the catalogue.
func setActive(t *testing.T, e *env, id string, active bool) {
	t.Helper()
	ctx := context.Background()
	p, err := e.store.Product(ctx, checkout.ProductID(id))
	if err != nil {
		t.Fatal(err)
	}
	p.Active = active
	if err := e.store.UpsertProduct(ctx, *p); err != nil {
		t.Fatal(err)
	}
}
