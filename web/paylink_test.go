package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// TestPayLinkTypedAmount: a link whose amount the payer types asks for it, refuses what is out
// of its bounds or unreadable (in words, 422), shows the amount accepted back on the customer
// form, and places an order of that amount, tagged with the link, paid on the usual PIX page.
func TestPayLinkTypedAmount(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	l, _, err := e.svc.CreateLink(t.Context(), checkout.LinkInput{Title: "Doação para a horta", Slug: "horta",
		CustomAmount: &checkout.CustomAmount{Min: 500, Max: 500000}})
	if err != nil {
		t.Fatal(err)
	}
	res, doc := e.get("/l/horta")
	if res.StatusCode != http.StatusOK || doc.Find(testid("paylink-amount")).Length() != 1 ||
		!strings.Contains(doc.Find("h1").Text(), "Doação para a horta") || !strings.Contains(doc.Find("header").Text(), "Loja Teste") {
		t.Fatalf("link page: %d, %q", res.StatusCode, doc.Find("main").Text())
	}
	for _, bad := range []string{"4,99", "5.000,01", "abc", ""} {
		res, doc := e.get("/l/horta?amount=" + url.QueryEscape(bad))
		if res.StatusCode != http.StatusUnprocessableEntity || doc.Find(testid("field-error")).Length() != 1 {
			t.Errorf("amount %q: %d, errors %d; want 422 with the error", bad, res.StatusCode, doc.Find(testid("field-error")).Length())
		}
	}
	// A page asked in English keeps it through the amount's form.
	if _, doc := e.get("/l/horta?lang=en"); doc.Find(`form[data-testid="paylink-amount-form"] input[name="lang"]`).AttrOr("value", "") != "en" {
		t.Error("the amount's form loses the language asked for")
	}
	for _, typed := range []string{"R$ 1.234,56", "1234,56", "1234.56"} {
		res, doc := e.get("/l/horta?amount=" + url.QueryEscape(typed))
		if res.StatusCode != http.StatusOK || !strings.Contains(doc.Find(testid("order-summary")).Text(), "1.234,56") {
			t.Errorf("amount %q: %d, summary %q; want the amount shown back", typed, res.StatusCode, doc.Find(testid("order-summary")).Text())
		}
	}
	_, doc = e.get("/l/horta?amount=" + url.QueryEscape("1234,56"))
	action, _ := doc.Find(testid("checkout-form")).Attr("action")
	res, _ = e.post(action, customer(requestKey(t, doc)))
	o, err := e.svc.Order(t.Context(), orderID(e.location(res)))
	if err != nil || o.Amount != 123456 || o.LinkID != l.ID {
		t.Fatalf("order: %+v, %v; want 123456 tagged %s", o, err, l.ID)
	}
	// The amount in the form's address is checked again: one out of bounds places nothing.
	_, doc = e.get("/l/horta?amount=10")
	res, _ = e.post("/l/horta?cents=1", customer(requestKey(t, doc)))
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("a tampered amount: %d, want 422", res.StatusCode)
	}
}

// TestPayLinkClosed: a deactivated link answers 410 and says so, in both languages; an order
// placed before still has its PIX page. A link whose one place is held tells the next payer
// why, with 409.
func TestPayLinkClosed(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	l, _, err := e.svc.CreateLink(t.Context(), checkout.LinkInput{Title: "Ingresso", Amount: 2500, Description: "Pista",
		MaxPayments: 1})
	if err != nil {
		t.Fatal(err)
	}
	_, doc := e.get("/l/" + l.Slug)
	if !strings.Contains(doc.Find(testid("place-order")).Text(), "25,00") {
		t.Errorf("fixed link form: %q", doc.Find(testid("place-order")).Text())
	}
	res, _ := e.post("/l/"+l.Slug, customer(requestKey(t, doc)))
	pay := e.location(res)
	_, doc = e.get("/l/" + l.Slug)
	res, doc = e.post("/l/"+l.Slug, customer(requestKey(t, doc)))
	if res.StatusCode != http.StatusConflict || doc.Find(testid("paylink-closed")).Length() != 1 {
		t.Errorf("a second payer of a 1-place link: %d, want 409 saying why", res.StatusCode)
	}
	// Once the first QR code expired, its place goes to the next payer; a new QR code for the
	// first order is then refused, saying why.
	if err := e.sb.AdvanceClock(t.Context(), 31*time.Minute); err != nil {
		t.Fatal(err)
	}
	_, doc = e.get("/l/" + l.Slug)
	res, _ = e.post("/l/"+l.Slug, customer(requestKey(t, doc)))
	e.location(res)
	e.get(pay) // the first order's page: its QR code expired
	res, doc = e.post(pay+"/new-qr", url.Values{})
	if res.StatusCode != http.StatusConflict || doc.Find(testid("paylink-closed")).Length() != 1 {
		t.Errorf("a new QR code while the place is taken: %d, want 409 saying why", res.StatusCode)
	}
	off := false
	if _, err := e.svc.UpdateLink(t.Context(), l.ID, func(in *checkout.LinkInput) { in.Active = &off }); err != nil {
		t.Fatal(err)
	}
	for lang, want := range map[string]string{"pt-BR": "desativado", "en": "deactivated"} {
		res, doc := e.get("/l/" + l.Slug + "?lang=" + lang)
		if res.StatusCode != http.StatusGone || !strings.Contains(doc.Find(testid("paylink-closed")).Text(), want) {
			t.Errorf("%s: %d %q; want 410 saying %q", lang, res.StatusCode, doc.Find(testid("paylink-closed")).Text(), want)
		}
	}
	if res, _ := e.get(pay); res.StatusCode != http.StatusOK {
		t.Errorf("the PIX page of an order placed before: %d", res.StatusCode)
	}
	if res, _ := e.get("/l/no-such-link"); res.StatusCode != http.StatusNotFound {
		t.Errorf("unknown link: %d, want 404", res.StatusCode)
	}
}

// TestPayLinkAsksOnlyItsFields: a link made through the API that asks neither e-mail nor
// phone shows a form without them, and its order is placed with name and document alone.
func TestPayLinkAsksOnlyItsFields(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	res := e.api(http.MethodPost, "/api/v1/payment-links", map[string]any{"title": "Rifa da escola", "amount": 500,
		"slug": "rifa", "customerFields": []string{}})
	if res.status != http.StatusCreated || len(res.json["customerFields"].([]any)) != 0 {
		t.Fatalf("create: %d %s", res.status, res.body)
	}
	_, doc := e.get("/l/rifa")
	if doc.Find(`input[name="email"]`).Length() != 0 || doc.Find(`input[name="phone"]`).Length() != 0 ||
		doc.Find(`input[name="name"]`).Length() != 1 {
		t.Fatalf("the form asks fields the link does not: %d e-mail, %d phone", doc.Find(`input[name="email"]`).Length(),
			doc.Find(`input[name="phone"]`).Length())
	}
	form := url.Values{"request_key": {requestKey(t, doc)}, "name": {"Maria da Silva"}, "document": {"529.982.247-25"}}
	placed, _ := e.post("/l/rifa", form)
	if o, err := e.svc.Order(t.Context(), orderID(e.location(placed))); err != nil || o.Customer.Email != "" {
		t.Errorf("the order: %v, %v", o, err)
	}
	if bad := e.api(http.MethodPost, "/api/v1/payment-links", map[string]any{"title": "Rifa", "amount": 500,
		"customerFields": []string{"email", "email"}}); bad.status != http.StatusUnprocessableEntity {
		t.Errorf("a field listed twice: %d", bad.status)
	}
}
