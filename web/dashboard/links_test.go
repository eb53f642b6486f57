package dashboard_test

import (
	"encoding/xml"
	"image"
	"image/color"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/makiuchi-d/gozxing"
	gozxingqr "github.com/makiuchi-d/gozxing/qrcode"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// TestDashboardPaymentLinks: a link is made in the dashboard (its errors said beside the fields,
// 422), its page gives its address, a WhatsApp share and four posters; it is edited,
// deactivated (its page answers 410) and duplicated (a new, active link with its own address).
func TestDashboardPaymentLinks(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	b := e.browser()
	tok := b.login()

	res, doc := b.post("/dashboard/links", url.Values{"csrf_token": {tok}, "title": {"Doação"}, "kind": {"custom"},
		"min": {"50,00"}, "max": {"10,00"}, "expires_at": {"2001-01-01T10:00"}})
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("an impossible link: %d", res.StatusCode)
	}
	for _, field := range []string{"min", "expires_at"} {
		if doc.Find(`[data-testid="field-error"][data-field="`+field+`"]`).Length() != 1 {
			t.Errorf("no error beside %s: %q", field, doc.Find(testid("link-errors")).Text())
		}
	}

	res, _ = b.post("/dashboard/links", url.Values{"csrf_token": {tok}, "title": {"Aula de violão"}, "kind": {"fixed"},
		"amount": {"80,00"}, "description": {"Uma hora"}, "slug": {"aula-violao"}, "max_payments": {"5"},
		"ask_email": {"true"}, "ask_phone": {"true"}})
	page := e.location(res)
	if !strings.HasPrefix(page, "/dashboard/links/") {
		t.Fatalf("created: went to %q", page)
	}
	page = strings.TrimSuffix(page, "?done=created")
	_, doc = b.get(page)
	want := "http://localhost:8080/l/aula-violao"
	if got, _ := doc.Find(testid("link-url")).Attr("value"); got != want {
		t.Errorf("the link's address = %q, want %q", got, want)
	}
	if wa, _ := doc.Find(testid("whatsapp-share")).Attr("href"); !strings.HasPrefix(wa, "https://wa.me/?text=") ||
		!strings.Contains(wa, url.QueryEscape(want)) {
		t.Errorf("WhatsApp share = %q", wa)
	}
	if doc.Find(testid("copy-link")).Length() != 1 || doc.Find(testid("poster-link")).Length() != 4 {
		t.Errorf("copy button %d, posters %d; want 1 and 4", doc.Find(testid("copy-link")).Length(), doc.Find(testid("poster-link")).Length())
	}

	// Every poster holds the merchant's name, the title, the amount, and a QR code of the address.
	for _, q := range []string{"size=a4&ink=dark", "size=a4&ink=light", "size=a6&ink=dark", "size=a6&ink=light"} {
		res := b.do(http.MethodGet, page+"/poster.svg?"+q, nil)
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "image/svg+xml") {
			t.Fatalf("poster %s: %d %s", q, res.StatusCode, res.Header.Get("Content-Type"))
		}
		svg := string(body)
		for _, s := range []string{"Loja Teste", "Aula de violão", "R$ 80,00"} {
			if !strings.Contains(svg, s) {
				t.Errorf("poster %s lacks %q", q, s)
			}
		}
		if got := decodePosterQR(t, body); got != want {
			t.Errorf("poster %s: the QR code reads %q, want %q", q, got, want)
		}
	}

	if l, _ := e.svc.LinkBySlug(t.Context(), "aula-violao"); !l.AskEmail || !l.AskPhone {
		t.Errorf("the new link asks e-mail and phone, ticked: %+v", l)
	}
	// Edited: a typed amount within bounds, asking neither e-mail nor phone (both unticked).
	res, _ = b.post(page, url.Values{"csrf_token": {tok}, "title": {"Aula de violão"}, "kind": {"custom"}, "min": {"10"},
		"max": {"200,00"}, "slug": {"aula-violao"}})
	if loc := e.location(res); !strings.HasSuffix(loc, "?done=saved") {
		t.Fatalf("edit went to %q", loc)
	}
	l, err := e.svc.LinkBySlug(t.Context(), "aula-violao")
	if err != nil || l.Kind != checkout.LinkCustom || l.MinAmount != 1000 || l.MaxAmount != 20000 || l.MaxPayments != 0 ||
		l.AskEmail || l.AskPhone {
		t.Fatalf("edited link: %+v, %v", l, err)
	}

	// Deactivated: the page says so; the shopper's page answers 410.
	res, _ = b.post(page+"/active", url.Values{"csrf_token": {tok}, "active": {"false"}})
	e.location(res)
	if res, _ := e.get("/l/aula-violao"); res.StatusCode != http.StatusGone {
		t.Errorf("a deactivated link's page: %d, want 410", res.StatusCode)
	}
	// Duplicated: a new active link with its own address.
	res, _ = b.post(page+"/duplicate", url.Values{"csrf_token": {tok}})
	dup := strings.TrimSuffix(e.location(res), "?done=duplicated")
	if dup == page {
		t.Fatal("the copy is the same link")
	}
	_, doc = b.get(dup)
	u, _ := doc.Find(testid("link-url")).Attr("value")
	if u == want || doc.Find(testid("link-deactivate")).Length() != 1 {
		t.Errorf("the copy: address %q, deactivate button %d", u, doc.Find(testid("link-deactivate")).Length())
	}
	if res, _ := e.get(strings.TrimPrefix(u, "http://localhost:8080")); res.StatusCode != http.StatusOK {
		t.Errorf("the copy's page: %d", res.StatusCode)
	}
	_, doc = b.get("/dashboard/links")
	if n := doc.Find(testid("link-row")).Length(); n != 2 {
		t.Errorf("links listed: %d, want 2", n)
	}
	// Every change is in the audit log.
	_, doc = b.get("/dashboard/audit")
	if text := doc.Find("table").Text(); strings.Count(text, "Criou um link de pagamento") != 2 ||
		strings.Count(text, "Mudou um link de pagamento") != 2 {
		t.Errorf("the audit log does not show the links' creations and changes: %q", text)
	}
	// A form without the session's token changes nothing.
	if res, _ := b.post(page+"/active", url.Values{"active": {"true"}}); res.StatusCode != http.StatusForbidden {
		t.Errorf("without the token: %d, want 403", res.StatusCode)
	}
}

// decodePosterQR draws the poster's QR code (its group #qr: a path of unit squares, one a dark
// module, quiet zone included) as an image and reads it with a QR decoder.
func decodePosterQR(t *testing.T, svg []byte) string {
	t.Helper()
	var doc struct {
		G []struct {
			ID   string `xml:"id,attr"`
			Rect struct {
				Width int `xml:"width,attr"`
			} `xml:"rect"`
			Path struct {
				D string `xml:"d,attr"`
			} `xml:"path"`
		} `xml:"g"`
	}
	if err := xml.Unmarshal(svg, &doc); err != nil {
		t.Fatalf("the poster is not XML: %v", err)
	}
	var side int
	var d string
	for _, g := range doc.G {
		if g.ID == "qr" {
			side, d = g.Rect.Width, g.Path.D
		}
	}
	if side == 0 || d == "" {
		t.Fatal("no QR code in the poster")
	}
	const scale = 6
	img := image.NewGray(image.Rect(0, 0, side*scale, side*scale))
	for i := range img.Pix {
		img.Pix[i] = 0xff
	}
	for _, m := range regexp.MustCompile(`M(\d+) (\d+)h(\d+)v1h-\d+z`).FindAllStringSubmatch(d, -1) {
		x, _ := strconv.Atoi(m[1])
		y, _ := strconv.Atoi(m[2])
		n, _ := strconv.Atoi(m[3])
		for px := x * scale; px < (x+n)*scale; px++ {
			for py := y * scale; py < (y+1)*scale; py++ {
				img.SetGray(px, py, color.Gray{})
			}
		}
	}
	bmp, err := gozxing.NewBinaryBitmapFromImage(img)
	if err != nil {
		t.Fatal(err)
	}
	res, err := gozxingqr.NewQRCodeReader().Decode(bmp, nil)
	if err != nil {
		t.Fatalf("decoding the poster's QR code: %v", err)
	}
	return res.GetText()
}

// TestDashboardLinkOfProducts: a link of two catalogue products with their quantities is made
// through the form (a row's errors named by the row's field, blank rows ignored); its page shows
// the rows and their total; a shopper's order through it costs that total and is tagged: its
// page and the order list name the link. Its copy keeps both rows, and an edit replaces them.
func TestDashboardLinkOfProducts(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	b := e.browser()
	tok := b.login()
	form := func(rows ...string) url.Values {
		v := url.Values{"csrf_token": {tok}, "title": {"Kit presente"}, "kind": {"items"}, "slug": {"kit-presente"},
			"ask_email": {"true"}}
		for n := 1; n <= 4; n++ {
			p, q := "", ""
			if 2*n <= len(rows) {
				p, q = rows[2*n-2], rows[2*n-1]
			}
			v.Set("product_"+strconv.Itoa(n), p)
			v.Set("quantity_"+strconv.Itoa(n), q)
		}
		return v
	}
	const ebook, course = "ebook-receitas-do-cerrado", "curso-fotografia-celular" // R$ 29,90 and R$ 149,00

	// A quantity that is no number and a quantity without its product: each said beside its
	// row's field, and the summary names the row.
	res, doc := b.post("/dashboard/links", form(ebook, "dois", "", "3"))
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("rows in error: %d", res.StatusCode)
	}
	for _, field := range []string{"quantity_1", "product_2"} {
		if doc.Find(`[data-testid="field-error"][data-field="`+field+`"]`).Length() != 1 {
			t.Errorf("no error beside %s: %q", field, doc.Find(testid("link-errors")).Text())
		}
	}
	if s := doc.Find(testid("link-errors")).Text(); !strings.Contains(s, "Quantidade 1:") || !strings.Contains(s, "Produto 2:") {
		t.Errorf("the summary does not name the rows' fields: %q", s)
	}
	if got, _ := doc.Find(`select[name="product_1"] option[selected]`).Attr("value"); got != ebook {
		t.Errorf("the posted row is not shown again: product_1 = %q", got)
	}
	if doc.Find(`label[for="l-product_3"]`).Text() != "Produto 3" {
		t.Errorf("row 3's product has no label: %q", doc.Find(`label[for="l-product_3"]`).Text())
	}

	// Two products, the second row left blank and the third used.
	res, _ = b.post("/dashboard/links", form(ebook, "2", "", "", course, "1"))
	page := strings.TrimSuffix(e.location(res), "?done=created")
	if !strings.HasPrefix(page, "/dashboard/links/") {
		t.Fatalf("created: went to %q", page)
	}
	l, err := e.svc.LinkBySlug(t.Context(), "kit-presente")
	if err != nil || l.Kind != checkout.LinkItems || len(l.Lines) != 2 || l.Amount != 2*2990+14900 ||
		l.Lines[0].ProductID != ebook || l.Lines[0].Quantity != 2 || l.Lines[1].ProductID != course || l.Lines[1].Quantity != 1 {
		t.Fatalf("the link of two products: %+v, %v", l, err)
	}
	_, doc = b.get(page)
	if s := doc.Find(testid("link-status")).Parent().Text(); !strings.Contains(s, "R$ 208,80") {
		t.Errorf("the link's page shows no total of R$ 208,80: %q", s)
	}
	for n, want := range [][2]string{{ebook, "2"}, {course, "1"}, {"", ""}} {
		p, _ := doc.Find(`select[name="product_` + strconv.Itoa(n+1) + `"] option[selected]`).Attr("value")
		q, _ := doc.Find(`input[name="quantity_` + strconv.Itoa(n+1) + `"]`).Attr("value")
		if p != want[0] || q != want[1] {
			t.Errorf("the edit form's row %d = %q × %q, want %q × %q", n+1, p, q, want[0], want[1])
		}
	}

	// A shopper pays it: the order costs the total, and the dashboard names the link.
	_, shop := e.get("/l/kit-presente")
	key, _ := shop.Find(`input[name="request_key"]`).Attr("value")
	pay := e.location(e.do(http.MethodPost, "/l/kit-presente", url.Values{"request_key": {key},
		"name": {"Maria da Silva"}, "document": {"529.982.247-25"}, "email": {"maria@example.com.br"}}))
	o, err := e.svc.Order(t.Context(), orderID(pay))
	if err != nil || o.Amount != 20880 || o.LinkID != l.ID || len(o.Lines) != 2 {
		t.Fatalf("the shopper's order: %+v, %v", o, err)
	}
	_, doc = b.get("/dashboard/orders/" + o.ID)
	tag := doc.Find(testid("order-link"))
	if href, _ := tag.Attr("href"); tag.Text() != "Kit presente" || href != page {
		t.Errorf("the order page names the link %q → %q, want %q → %q", tag.Text(), href, "Kit presente", page)
	}
	if ch := doc.Find(testid("order-channel")).Text(); ch != "Link de pagamento" {
		t.Errorf("the order page's channel %q, want Link de pagamento", ch)
	}
	_, doc = b.get("/dashboard/orders")
	row := doc.Find(`[data-testid="order-row"][data-id="` + o.ID + `"]`)
	if href, _ := row.Find(testid("order-link-tag")).Attr("href"); href != page ||
		!strings.Contains(row.Find(testid("order-link-tag")).Text(), "Kit presente") {
		t.Errorf("the order list does not tag the order with its link: %q", row.Text())
	}

	// The link's page leads to the order list filtered to it.
	_, doc = b.get(page)
	all, _ := doc.Find(testid("link-orders")).Attr("href")
	_, doc = b.get(all)
	if n := doc.Find(testid("order-row")).Length(); n != 1 || doc.Find(`input[type="hidden"][name="link"]`).AttrOr("value", "") != l.ID {
		t.Errorf("the order list of the link (%s): %d rows, want 1, and the filter kept", all, n)
	}
	e.placeOrder() // an order of the shop, not of the link
	if _, doc = b.get(all); doc.Find(testid("order-row")).Length() != 1 {
		t.Errorf("the order list of the link lists %d orders, want 1", doc.Find(testid("order-row")).Length())
	}

	// The copy keeps both rows; an edit replaces them with what is posted.
	res, _ = b.post(page+"/duplicate", url.Values{"csrf_token": {tok}})
	dup := strings.TrimSuffix(e.location(res), "?done=duplicated")
	_, doc = b.get(dup)
	if q, _ := doc.Find(`input[name="quantity_1"]`).Attr("value"); q != "2" ||
		doc.Find(`select[name="product_2"] option[selected]`).AttrOr("value", "") != course {
		t.Errorf("the copy lost its rows: quantity_1 %q, product_2 %q", q, doc.Find(`select[name="product_2"] option[selected]`).AttrOr("value", ""))
	}
	res, _ = b.post(page, form(course, "3"))
	if loc := e.location(res); !strings.HasSuffix(loc, "?done=saved") {
		t.Fatalf("edit went to %q", loc)
	}
	if l, err := e.svc.LinkBySlug(t.Context(), "kit-presente"); err != nil || len(l.Lines) != 1 || l.Amount != 3*14900 {
		t.Errorf("the edited link: %+v, %v", l, err)
	}
}
