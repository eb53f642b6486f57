package web_test

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/imaging"
)

// useLogo makes a w×h PNG the store's logo, as the dashboard's upload does.
func (e *env) useLogo(w, h int) {
	e.t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = 0x80
	}
	img.Set(0, 0, color.NRGBA{255, 0, 0, 255})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		e.t.Fatal(err)
	}
	logo, err := imaging.ProcessLogo(&buf)
	if err != nil {
		e.t.Fatal(err)
	}
	if _, _, err := e.brand.UseLogo(context.Background(), logo); err != nil {
		e.t.Fatal(err)
	}
}

// TestStoreLogoOnShopperPages: a store without a logo keeps the product's icon and favicon;
// with one, every shopper page's header shows it (the store's name its alt text, at its size),
// its favicons come from it, and the logo's pictures are served; a page describes the store by
// its name. In embed.js's frame the logo shows only when asked for (?logo=1, kept from the
// form to the PIX page). The receipt gives the store's address under the payee.
func TestStoreLogoOnShopperPages(t *testing.T) {
	e := newEnv(t)
	_, doc := e.get("/")
	if doc.Find(testid("store-logo")).Length() != 0 || doc.Find(`link[rel="icon"][href$=".svg"]`).Length() != 1 ||
		doc.Find(`link[rel="apple-touch-icon"]`).Length() != 0 {
		t.Fatal("a store without a logo: the page is not the product's own")
	}
	p, _ := e.brand.Get(context.Background())
	if got := doc.Find(`meta[name="description"]`).AttrOr("content", ""); !strings.Contains(got, p.Name) {
		t.Errorf("the catalogue's description %q lacks the store's name %q", got, p.Name)
	}
	p.Address = "Rua do Sol, 10\nSalvador - BA"
	if _, _, err := e.brand.Save(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	e.useLogo(1200, 300)

	pay := e.placeOrder()
	for _, page := range []string{"/", e.newCart("ebook-receitas-do-cerrado", "1"), pay} {
		_, doc := e.get(page)
		logo := doc.Find("header " + testid("store-logo"))
		src := logo.AttrOr("src", "")
		if logo.Length() != 1 || logo.AttrOr("alt", "") != p.Name || !strings.HasPrefix(src, "/images/store/") ||
			!strings.HasSuffix(src, "-h.png") || logo.AttrOr("width", "") != "192" || logo.AttrOr("height", "") != "48" {
			html, _ := goquery.OuterHtml(logo)
			t.Fatalf("%s: the header's logo %s", page, html)
		}
		icon := doc.Find(`link[rel="icon"]`).AttrOr("href", "")
		touch := doc.Find(`link[rel="apple-touch-icon"]`).AttrOr("href", "")
		if !strings.HasSuffix(icon, "-32.png") || !strings.HasSuffix(touch, "-180.png") {
			t.Errorf("%s: favicons %q %q", page, icon, touch)
		}
		for _, u := range []string{src, icon, touch} {
			if res := e.do(http.MethodGet, u, nil); res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "image/png" {
				t.Errorf("%s: GET %s: %d", page, u, res.StatusCode)
			}
		}
	}

	res := e.api("POST", "/api/v1/checkout-sessions", sessionBody())
	if res.status != http.StatusCreated {
		t.Fatalf("create a session: %d %s", res.status, res.body)
	}
	id, _ := res.json["id"].(string)
	if _, doc := e.get("/s/" + id + "?embed=1"); doc.Find(testid("store-logo")).Length() != 0 {
		t.Error("the framed form shows the logo unasked")
	}
	_, doc = e.get("/s/" + id + "?embed=1&logo=1")
	if doc.Find("main "+testid("store-logo")).Length() != 1 {
		t.Fatal("the framed form asked for the logo does not show it")
	}
	action := doc.Find(testid("checkout-form")).AttrOr("action", "")
	form := customer("")
	form.Del("request_key")
	post := e.do("POST", action, strings.NewReader(form.Encode()))
	post.Body.Close()
	framedPay := e.location(post)
	if !strings.Contains(framedPay, "logo=1") {
		t.Fatalf("the redirect to the framed PIX page lost ?logo=1: %q", framedPay)
	}
	if _, doc := e.get(framedPay); doc.Find("main "+testid("store-logo")).Length() != 1 || doc.Find("header").Length() != 0 {
		t.Error("the framed PIX page: no logo, or a header")
	}

	e.post(pay+"/sandbox-pay", url.Values{})
	e.waitStatus(orderID(pay), checkout.StatusPaid)
	_, doc = e.get(pay + "/paid")
	if got := strings.Join(strings.Fields(doc.Find(testid("receipt-address")).Text()), " "); got != "Rua do Sol, 10 Salvador - BA" || doc.Find(testid("receipt-address")+" br").Length() != 1 {
		t.Errorf("the receipt's address: %q", got)
	}
	if doc.Find("header "+testid("store-logo")).Length() != 1 {
		t.Error("the receipt has no logo")
	}
}
