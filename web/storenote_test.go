package web_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
)

// TestStoreNoteAndThanks: the note the merchant saved shows under the payment on the PIX page,
// the paid page and a payment link's page as plain text: its line breaks kept, its https
// address a link that gives no referrer and no ranking, a javascript: address and markup only
// text. The paid page thanks in the merchant's words, and gives the store's address beside
// the payee's legal name and CNPJ (Decreto 7.962/2013).
func TestStoreNoteAndThanks(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.saveNote()

	pay := e.placeOrder()
	_, doc := e.get(pay)
	checkStoreNote(t, "PIX page", doc)

	id := orderID(pay)
	e.control(id, sandbox.ActionPay)
	if _, err := e.svc.RefreshFromGateway(context.Background(), id); err != nil {
		t.Fatal(err)
	}
	e.waitStatus(id, checkout.StatusPaid)
	res, doc := e.get(pay + "/paid")
	if res.StatusCode != http.StatusOK || doc.Find(testid("paid")).Length() != 1 {
		t.Fatalf("paid page: %d", res.StatusCode)
	}
	checkStoreNote(t, "paid page", doc)
	thanks := doc.Find(testid("store-thanks"))
	if strings.Join(strings.Fields(thanks.Text()), " ") != "Valeu pela compra! A horta agradece." || thanks.Find("br").Length() != 1 ||
		strings.Contains(doc.Find(testid("paid")).Text(), "Obrigado!") {
		t.Errorf("the paid page's thanks: %q", thanks.Text())
	}
	addr := doc.Find(testid("receipt-address"))
	if strings.Join(strings.Fields(addr.Text()), " ") != "Rua das Couves, 7 Goiânia - GO" || addr.Find("br").Length() != 1 ||
		!strings.Contains(addr.Parent().Text(), "Horta Viva Ltda") || !strings.Contains(addr.Parent().Text(), "CNPJ 11.222.333/0001-81") {
		t.Errorf("the receipt's payee: %q", addr.Parent().Text())
	}

	if _, _, err := e.svc.CreateLink(t.Context(), checkout.LinkInput{Title: "Doação", Slug: "doacao",
		CustomAmount: &checkout.CustomAmount{Min: 500, Max: 5000}}); err != nil {
		t.Fatal(err)
	}
	_, doc = e.get("/l/doacao")
	checkStoreNote(t, "payment link", doc)
	if _, _, err := e.svc.CreateLink(t.Context(), checkout.LinkInput{Title: "Ingresso", Slug: "ingresso", Amount: 2500}); err != nil {
		t.Fatal(err)
	}
	_, doc = e.get("/l/ingresso")
	checkStoreNote(t, "payment link's form", doc)

	// Without a note and a thank-you text, the pages are as before.
	p, _ := e.brand.Get(context.Background())
	p.Note, p.Thanks = "", ""
	if _, _, err := e.brand.Save(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	_, doc = e.get(pay + "/paid")
	if doc.Find(testid("store-note")).Length()+doc.Find(testid("store-thanks")).Length() != 0 ||
		!strings.Contains(doc.Find(testid("paid")).Text(), "Obrigado! O pedido") {
		t.Error("the paid page without a note and thanks is not the default one")
	}
}

// saveNote saves the store's payee, address, a note with an https link, markup, a javascript:
// and a data: address and a quote, and a thank-you text of two lines.
func (e *env) saveNote() {
	e.t.Helper()
	p, _ := e.brand.Get(context.Background())
	p.LegalName, p.Document, p.Address = "Horta Viva Ltda", "11222333000181", "Rua das Couves, 7\nGoiânia - GO"
	p.Note = "Trocas em 7 dias: https://loja.example/trocas.\n<script>alert(1)</script> javascript:alert(2) " +
		"https://x.example/\"onmouseover=alert(3) data:text/html,<b>x</b>"
	p.Thanks = "Valeu pela compra!\nA horta agradece."
	if _, _, err := e.brand.Save(context.Background(), p); err != nil {
		e.t.Fatal(err)
	}
}

// checkStoreNote checks the note saveNote saved, as a page shows it.
func checkStoreNote(t *testing.T, page string, doc *goquery.Document) {
	t.Helper()
	note := doc.Find(testid("store-note"))
	if note.Length() != 1 {
		t.Fatalf("%s: %d notes", page, note.Length())
	}
	html, _ := note.Html()
	if strings.Contains(html, "<script") || strings.Contains(html, "<b>") || note.Find("script, b").Length() != 0 {
		t.Errorf("%s: the note's markup is markup: %s", page, html)
	}
	if !strings.Contains(note.Text(), "<script>alert(1)</script> javascript:alert(2)") || note.Find("br").Length() != 1 {
		t.Errorf("%s: the note's text and line break: %q", page, note.Text())
	}
	var links []string
	note.Find("a").Each(func(_ int, a *goquery.Selection) {
		links = append(links, a.AttrOr("href", "")+" "+a.AttrOr("rel", "")+" "+a.Text())
	})
	want := []string{
		"https://loja.example/trocas noopener noreferrer nofollow https://loja.example/trocas",
		"https://x.example/ noopener noreferrer nofollow https://x.example/",
	}
	if strings.Join(links, "|") != strings.Join(want, "|") {
		t.Errorf("%s: the note's links %q, want %q", page, links, want)
	}
	if note.Find("[onmouseover]").Length() != 0 || !strings.Contains(note.Text(), `"onmouseover=alert(3)`) {
		t.Errorf("%s: an address's quote made an attribute: %s", page, html)
	}
}

// TestStoreNoteEmbedded: the embedded checkout's pages, framed without the store's header and
// footer, still give the note under the payment and, once paid, the merchant's thanks.
func TestStoreNoteEmbedded(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.saveNote()
	res := e.api("POST", "/api/v1/checkout-sessions", sessionBody())
	if res.status != http.StatusCreated {
		t.Fatalf("create: %d %s", res.status, res.body)
	}
	id, _ := res.json["id"].(string)
	_, doc := e.get("/s/" + id + "?embed=1")
	action, _ := doc.Find(testid("checkout-form")).Attr("action")
	form := customer("")
	form.Del("request_key")
	post := e.do("POST", action, strings.NewReader(form.Encode()))
	post.Body.Close()
	pay := e.location(post)
	_, doc = e.get(pay)
	if doc.Find("header, footer").Length() != 0 {
		t.Fatal("the framed PIX page has the store's header or footer")
	}
	checkStoreNote(t, "framed PIX page", doc)
	oid := orderID(pay)
	e.control(oid, sandbox.ActionPay)
	if _, err := e.svc.RefreshFromGateway(context.Background(), oid); err != nil {
		t.Fatal(err)
	}
	e.waitStatus(oid, checkout.StatusPaid)
	_, doc = e.get(orderPath(pay) + "/paid?embed=1")
	checkStoreNote(t, "framed paid page", doc)
	if got := strings.Join(strings.Fields(doc.Find(testid("store-thanks")).Text()), " "); got != "Valeu pela compra! A horta agradece." {
		t.Errorf("the framed paid page's thanks: %q", got)
	}
}
