package web_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// TestStoreStylesheet: every shopper page links the stylesheet of the store's colours, at a URL
// that changes with them and is kept for a year; a store without colours gets one that sets
// nothing. The footer gives the payee's legal name, CNPJ and the store's address.
func TestStoreStylesheet(t *testing.T) {
	e := newEnv(t)
	css := func() (string, *http.Response) {
		_, doc := e.get("/")
		href := doc.Find(`link[rel="stylesheet"][href^="/static/store-"]`).AttrOr("href", "")
		if href == "" {
			t.Fatal("the catalogue links no store stylesheet")
		}
		res := e.do(http.MethodGet, href, nil)
		return href, res
	}
	before, res := css()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "text/css; charset=utf-8" || strings.Contains(string(body), "--primary") {
		t.Fatalf("the stylesheet of a store without colours: %d %q %q", res.StatusCode, res.Header.Get("Content-Type"), body)
	}

	p, _ := e.brand.Get(context.Background())
	p.BrandColor, p.LegalName, p.Document, p.Address = "#ffff00", "Amarelo Comércio Ltda", "11222333000181", "Rua do Sol, 10\nSalvador - BA"
	if _, _, err := e.brand.Save(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	after, res := css()
	body, _ = io.ReadAll(res.Body)
	if after == before || !strings.Contains(string(body), "--primary: #") || strings.Contains(strings.Split(string(body), "@media")[0], "--primary: #ffff00") {
		t.Fatalf("after a yellow brand colour: %s → %s, %q (yellow as is is unreadable on the light scheme)", before, after, body)
	}
	if cc := res.Header.Get("Cache-Control"); !strings.Contains(cc, "immutable") {
		t.Errorf("the current stylesheet's Cache-Control: %q", cc)
	}
	res = e.do(http.MethodGet, before, nil)
	old, _ := io.ReadAll(res.Body)
	if res.Header.Get("Cache-Control") != "no-cache" || string(old) != string(body) {
		t.Errorf("an older URL: %q, %q; want the current stylesheet, never kept", res.Header.Get("Cache-Control"), old)
	}
	_, doc := e.get("/")
	legal := strings.Join(strings.Fields(doc.Find(`[data-testid="store-legal"]`).Text()), " ")
	if legal != "Amarelo Comércio Ltda · CNPJ 11.222.333/0001-81 Rua do Sol, 10Salvador - BA" ||
		doc.Find(`[data-testid="store-legal"] br`).Length() != 2 {
		t.Errorf("the footer's legal identity: %q", legal)
	}
}

// TestBrandSaveShowsOnThePixPage: the store's face saved in the dashboard is on the next PIX
// page of an order placed before it (its name, its legal name and its colours' stylesheet).
func TestBrandSaveShowsOnThePixPage(t *testing.T) {
	e := newEnv(t)
	pay := e.placeOrder()
	e.waitStatus(orderID(pay), checkout.StatusAwaitingPayment)
	face := func() (title, payee, css string) {
		t.Helper()
		res, doc := e.get(pay)
		if res.StatusCode != http.StatusOK || doc.Find(testid("pix-code")).Length() != 1 {
			t.Fatalf("%s: %d, not the PIX page", pay, res.StatusCode)
		}
		return doc.Find("title").Text(), doc.Find(testid("merchant-name")).Text(),
			doc.Find(`link[rel="stylesheet"][href^="/static/store-"]`).AttrOr("href", "")
	}
	title, _, css := face()
	face() // asked for again, as a waiting shopper's browser does

	p, _ := e.brand.Get(context.Background())
	p.Name, p.LegalName, p.BrandColor = "Empório Novo Nome", "Novo Nome Comércio Ltda", "#0055aa"
	if _, _, err := e.brand.Save(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	newTitle, payee, newCSS := face()
	if !strings.Contains(newTitle, "Empório Novo Nome") || newTitle == title {
		t.Errorf("the title after the save: %q (before %q), want the new name", newTitle, title)
	}
	if payee != "Novo Nome Comércio Ltda" {
		t.Errorf("the payee after the save: %q", payee)
	}
	if newCSS == css {
		t.Errorf("the stylesheet after a new colour is still %s", css)
	}
}
