package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// formValues collects the named inputs of a form as a browser would submit them.
func formValues(form *goquery.Selection) url.Values {
	v := url.Values{}
	form.Find("input[name], select[name], textarea[name]").Each(func(_ int, s *goquery.Selection) {
		name, _ := s.Attr("name")
		v.Set(name, s.AttrOr("value", ""))
	})
	return v
}

// TestExplicitLanguageKeptThroughTheWholeFlow starts at the catalogue with ?lang=en and
// Accept-Language asking for Portuguese, sends no cookie (the client has no jar, as in a
// cross-site iframe), and goes on only through the links, forms and redirects the pages give,
// to the paid page: every page must stay English.
func TestExplicitLanguageKeptThroughTheWholeFlow(t *testing.T) {
	e := newEnv(t)
	pt := []string{"Accept-Language", "pt-BR,pt;q=0.9"}
	check := func(step string, res *http.Response, doc *goquery.Document) {
		t.Helper()
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%s: status %d", step, res.StatusCode)
		}
		if lang, _ := doc.Find("html").Attr("lang"); lang != "en" {
			t.Fatalf("%s: page in %q, want en", step, lang)
		}
	}
	keeps := func(step, link string) string {
		t.Helper()
		u, err := url.Parse(link)
		if err != nil || u.Query().Get("lang") != "en" || u.Host != "" {
			t.Fatalf("%s: link %q does not keep ?lang=en", step, link)
		}
		return link
	}
	follow := func(step string, res *http.Response) string {
		t.Helper()
		return keeps(step+" redirect", e.location(res))
	}

	res, doc := e.get("/?lang=en", pt...)
	check("catalogue", res, doc)
	form := doc.Find(`[data-product-id="ebook-receitas-do-cerrado"] form`)
	res, _ = e.post(keeps("add-to-cart", form.AttrOr("action", "")), formValues(form), pt...)
	cart := follow("add-to-cart", res)

	res, doc = e.get(cart, pt...)
	check("cart", res, doc)
	keeps("continue shopping", doc.Find(`a[href*="?cart="]`).AttrOr("href", ""))
	checkoutURL := keeps("go-to-checkout", doc.Find(testid("go-to-checkout")).AttrOr("href", ""))

	res, doc = e.get(checkoutURL, pt...)
	check("customer form", res, doc)
	form = doc.Find(testid("checkout-form"))
	action := keeps("checkout-form", form.AttrOr("action", ""))
	keeps("back to cart", doc.Find(`a[href^="/cart/"]`).Last().AttrOr("href", ""))
	// A refused submission comes back in English too, its action still English.
	bad := customer(requestKey(t, doc))
	bad.Set("document", "111.111.111-11")
	res, doc = e.post(action, bad, pt...)
	if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(doc.Find(testid("field-error")).Text(), "Enter a valid CPF or CNPJ") {
		t.Fatalf("refused form: %d %q", res.StatusCode, doc.Find(testid("field-error")).Text())
	}
	action = keeps("checkout-form after an error", doc.Find(testid("checkout-form")).AttrOr("action", ""))
	res, _ = e.post(action, customer(requestKey(t, doc)), pt...)
	pay := follow("place-order", res)

	res, doc = e.get(pay, pt...)
	check("PIX page", res, doc)
	root := doc.Find("[data-pix]")
	for _, attr := range []string{"data-events-url", "data-status-url", "data-paid-url"} {
		keeps(attr, root.AttrOr(attr, ""))
	}
	keeps("new-qr", doc.Find(testid("new-qr")+" form").AttrOr("action", ""))
	if alt := doc.Find(testid("pix-qr")).AttrOr("alt", ""); !strings.Contains(alt, "PIX QR code to pay R$29.90") {
		t.Errorf("QR alt %q", alt)
	}
	statusURL := root.AttrOr("data-status-url", "")
	sandboxPay := keeps("sandbox-pay", doc.Find(testid("sandbox-pay")).Closest("form").AttrOr("action", ""))
	res, _ = e.post(sandboxPay, url.Values{}, pt...)
	pay = follow("sandbox-pay", res)
	e.waitStatus(orderID(pay), checkout.StatusPaid)

	// The live status (what SSE and polling tell the page) sends it to the English paid page.
	u, _ := url.Parse(statusURL)
	if m := e.status(u.Path[:len(u.Path)-len("/status")], "?"+u.RawQuery); m["status"] != "paid" || m["text"] != "Payment confirmed" {
		t.Errorf("status JSON %v", m)
	} else {
		keeps("status redirect", m["redirect"])
	}
	res, _ = e.get(pay, pt...)
	paid := follow("PIX page of a paid order", res)
	res, doc = e.get(paid, pt...)
	check("paid page", res, doc)
	if doc.Find(testid("paid")).Length() != 1 {
		t.Fatal("no paid section")
	}
	keeps("continue", doc.Find(`a.btn[href^="/"]`).Last().AttrOr("href", ""))
}

// TestLanguageSwitchKeepsTheCart: on the catalogue reached with ?cart= (no cookies), the
// language links keep the cart, so the other language still shows and fills it.
func TestLanguageSwitchKeepsTheCart(t *testing.T) {
	e := newEnv(t)
	cart := e.newCart("ebook-receitas-do-cerrado", "1")
	cartID := strings.TrimPrefix(cart, "/cart/")
	_, doc := e.get("/?cart=" + cartID + "&lang=en")
	href, _ := doc.Find(`.lang-switch a[hreflang="pt-BR"]`).Attr("href")
	res, doc := e.get(href)
	if res.StatusCode != http.StatusOK || doc.Find("html").AttrOr("lang", "") != "pt-BR" {
		t.Fatalf("language link %q: status %d", href, res.StatusCode)
	}
	if got := doc.Find(testid("cart-link")).AttrOr("href", ""); !strings.HasPrefix(got, cart) {
		t.Errorf("after switching language the catalogue links to cart %q, want %q", got, cart)
	}
}
