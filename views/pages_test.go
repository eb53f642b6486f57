package views

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/a-h/templ"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/static"
)

const hostile = `<script>alert("x")</script>"'&`

// rendered is a page rendered to HTML and parsed.
type rendered struct {
	html string
	doc  *goquery.Document
}

func render(t testing.TB, c templ.Component) rendered {
	t.Helper()
	var buf bytes.Buffer
	if err := c.Render(context.Background(), &buf); err != nil {
		t.Fatalf("render: %v", err)
	}
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(buf.String()))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return rendered{buf.String(), doc}
}

// byTestID returns the elements with data-testid=id.
func (r rendered) byTestID(id string) *goquery.Selection {
	return r.doc.Find(fmt.Sprintf(`[data-testid=%q]`, id))
}

func (r rendered) one(t testing.TB, id string) *goquery.Selection {
	t.Helper()
	s := r.byTestID(id)
	if s.Length() != 1 {
		t.Fatalf("%d elements with data-testid=%q, want 1", s.Length(), id)
	}
	return s
}

func (r rendered) none(t testing.TB, id string) {
	t.Helper()
	if n := r.byTestID(id).Length(); n != 0 {
		t.Fatalf("%d elements with data-testid=%q, want none", n, id)
	}
}

func text(s *goquery.Selection) string { return strings.Join(strings.Fields(s.Text()), " ") }

func page(lang Lang, path string) Page {
	return Page{Lang: lang, MerchantName: "Loja Exemplo", Path: path, Assets: static.New()}
}

// checkCommon checks what every page must hold: the layout's parts, a strict-CSP-friendly
// document (no inline script, style or handler) and a label for every visible control.
func checkCommon(t *testing.T, r rendered, lang Lang, path string) {
	t.Helper()
	if got, _ := r.doc.Find("html").Attr("lang"); got != string(lang) {
		t.Errorf("html lang = %q, want %q", got, lang)
	}
	for sel, want := range map[string]string{
		`meta[name="viewport"]`: "width=device-width, initial-scale=1",
		`meta[name="referrer"]`: "no-referrer",
	} {
		if got, _ := r.doc.Find(sel).Attr("content"); got != want {
			t.Errorf("%s content = %q, want %q", sel, got, want)
		}
	}
	if r.doc.Find("title").Text() == "" {
		t.Error("empty title")
	}
	if href, _ := r.doc.Find("a.skip-link").Attr("href"); href != "#main" || r.doc.Find("main#main").Length() != 1 {
		t.Errorf("skip link %q does not reach main#main", href)
	}
	if !strings.Contains(text(r.doc.Find("header")), "Loja Exemplo") {
		t.Error("header lacks the merchant name")
	}
	css, _ := r.doc.Find(`link[rel="stylesheet"]`).Attr("href")
	if !regexp.MustCompile(`^/static/app\.[0-9a-f]{8}\.css$`).MatchString(css) {
		t.Errorf("stylesheet %q is not fingerprinted", css)
	}
	en, _ := r.doc.Find(`.lang-switch a[hreflang="en"]`).Attr("href")
	pt, _ := r.doc.Find(`.lang-switch a[hreflang="pt-BR"]`).Attr("href")
	if en != path+"?lang=en" || pt != path+"?lang=pt-BR" {
		t.Errorf("language links %q, %q do not keep the path %q", en, pt, path)
	}
	if cur, _ := r.doc.Find(`.lang-switch a[aria-current]`).Attr("hreflang"); cur != string(lang) {
		t.Errorf("current language link %q, want %q", cur, lang)
	}
	r.doc.Find("script").Each(func(_ int, s *goquery.Selection) {
		if src, ok := s.Attr("src"); !ok || !strings.HasPrefix(src, "/static/") || strings.TrimSpace(s.Text()) != "" {
			t.Errorf("inline or foreign script: src=%q", src)
		}
	})
	if r.doc.Find("style, [style]").Length() > 0 {
		t.Error("inline style breaks style-src 'self'")
	}
	r.doc.Find("*").Each(func(_ int, s *goquery.Selection) {
		for _, a := range s.Nodes[0].Attr {
			if strings.HasPrefix(strings.ToLower(a.Key), "on") {
				t.Errorf("inline handler %s on <%s>", a.Key, goquery.NodeName(s))
			}
		}
	})
	r.doc.Find("input, select, textarea").Each(func(_ int, s *goquery.Selection) {
		if typ, _ := s.Attr("type"); typ == "hidden" {
			return
		}
		id, _ := s.Attr("id")
		if id == "" || r.doc.Find(fmt.Sprintf(`label[for=%q]`, id)).Length() != 1 {
			name, _ := s.Attr("name")
			t.Errorf("control %q (id %q) has no label tied to it", name, id)
		}
	})
	ids := map[string]bool{}
	r.doc.Find("[id]").Each(func(_ int, s *goquery.Selection) {
		id, _ := s.Attr("id")
		if ids[id] {
			t.Errorf("duplicate id %q", id)
		}
		ids[id] = true
	})
}

func TestLayoutPathSanitized(t *testing.T) {
	for _, path := range []string{"//evil.example/x", `/\evil.example`, "javascript:alert(1)", ""} {
		r := render(t, NotFoundPage(page(PtBR, path)))
		href, _ := r.doc.Find(`.lang-switch a[hreflang="en"]`).Attr("href")
		if href != "/?lang=en" {
			t.Errorf("path %q: link %q, want /?lang=en", path, href)
		}
	}
	r := render(t, NotFoundPage(page(En, "/c/abc?x=1")))
	if href, _ := r.doc.Find(`.lang-switch a[hreflang="pt-BR"]`).Attr("href"); href != "/c/abc?lang=pt-BR" {
		t.Errorf("link %q, want /c/abc?lang=pt-BR", href)
	}
}

// TestLanguageLinksKeepTheQuery: switching language keeps the rest of the query (the
// catalogue's ?cart=, a cookie-less shopper's only way to keep a cart), replacing lang.
func TestLanguageLinksKeepTheQuery(t *testing.T) {
	p := page(En, "/")
	p.Query = "cart=abc123&lang=en"
	r := render(t, CataloguePage(CatalogueView{Page: p}))
	pt, _ := r.doc.Find(`.lang-switch a[hreflang="pt-BR"]`).Attr("href")
	en, _ := r.doc.Find(`.lang-switch a[hreflang="en"]`).Attr("href")
	if pt != "/?cart=abc123&lang=pt-BR" || en != "/?cart=abc123&lang=en" {
		t.Errorf("language links %q, %q: want the cart kept and lang replaced", pt, en)
	}
	p.Query = `x="><script>&y=%zz`
	r = render(t, CataloguePage(CatalogueView{Page: p}))
	if strings.Contains(r.html, "<script>&") || strings.Contains(r.html, `"><script>`) {
		t.Error("a hostile query reaches the page unescaped")
	}
}

func TestSandboxNotice(t *testing.T) {
	p := page(PtBR, "/")
	render(t, NotFoundPage(p)).none(t, "sandbox-notice")
	p.Sandbox = true
	render(t, NotFoundPage(p)).one(t, "sandbox-notice")
}

func catalogueView(lang Lang) CatalogueView {
	return CatalogueView{
		Page: page(lang, "/"),
		Products: []ProductView{
			{ID: "p1", Title: "E-book Pix na prática", Description: "PDF, 120 páginas", Price: 5900},
			{ID: "p2", Title: hostile, Description: hostile, Price: 123456, Physical: true},
		},
		AddToCartURL: "/cart/add",
		CartURL:      "/cart",
		CartCount:    3,
	}
}

func TestCataloguePage(t *testing.T) {
	for _, lang := range Langs() {
		t.Run(string(lang), func(t *testing.T) {
			r := render(t, CataloguePage(catalogueView(lang)))
			checkCommon(t, r, lang, "/")
			cards := r.byTestID("product-card")
			if cards.Length() != 2 {
				t.Fatalf("%d product cards, want 2", cards.Length())
			}
			first := cards.First()
			if !strings.Contains(text(first), "E-book Pix na prática") || !strings.Contains(text(first), FormatMoney(lang, 5900)) {
				t.Errorf("first card: %q", text(first))
			}
			if !strings.Contains(text(first), T(lang, "product.digital")) || !strings.Contains(text(cards.Last()), T(lang, "product.physical")) {
				t.Error("digital/physical badges wrong")
			}
			cards.Each(func(i int, c *goquery.Selection) {
				btn := c.Find(`[data-testid="add-to-cart"]`)
				form := btn.Closest("form")
				if btn.Length() != 1 || form.Length() != 1 {
					t.Fatalf("card %d: add-to-cart not in a form", i)
				}
				if m, _ := form.Attr("method"); m != "post" {
					t.Errorf("card %d: method %q", i, m)
				}
				if a, _ := form.Attr("action"); a != "/cart/add" {
					t.Errorf("card %d: action %q", i, a)
				}
				if typ, _ := btn.Attr("type"); typ != "submit" {
					t.Errorf("card %d: button type %q", i, typ)
				}
				id, _ := form.Find(`input[type="hidden"][name="product_id"]`).Attr("value")
				want := []string{"p1", "p2"}[i]
				if id != want {
					t.Errorf("card %d: product_id %q, want %q", i, id, want)
				}
				if q, _ := form.Find(`input[name="quantity"]`).Attr("value"); q != "1" {
					t.Errorf("card %d: quantity %q, want 1", i, q)
				}
			})
			// A hostile title is text, never markup.
			if r.doc.Find("script:not([src])").Length() != 0 || strings.Contains(r.html, `<script>alert`) {
				t.Error("hostile product title was not escaped")
			}
			if !strings.Contains(text(cards.Last().Find("h2")), hostile) {
				t.Errorf("hostile title not shown as text: %q", text(cards.Last().Find("h2")))
			}
			if !strings.Contains(text(r.one(t, "cart-link")), "3") {
				t.Error("cart link lacks the count")
			}
		})
	}
}

func TestCatalogueEmpty(t *testing.T) {
	v := catalogueView(PtBR)
	v.Products = nil
	r := render(t, CataloguePage(v))
	r.none(t, "product-card")
	if !strings.Contains(text(r.doc.Find("main")), T(PtBR, "catalogue.empty")) {
		t.Error("no empty-state message")
	}
}

func cartView(lang Lang) CartView {
	return CartView{
		Page: page(lang, "/cart"),
		Lines: []CartLineView{
			{ProductID: "p1", Title: "E-book", UnitPrice: 5900, Quantity: 2, LineTotal: 11800, UpdateURL: "/cart/update", RemoveURL: "/cart/remove"},
			{ProductID: "p2", Title: hostile, UnitPrice: 100000, Quantity: 1, LineTotal: 100000, Physical: true,
				UpdateURL: "/cart/update", RemoveURL: "/cart/remove", QuantityInput: "abc", Error: FieldMessage(lang, checkout.FieldQuantity, "integer")},
		},
		Total:        111800,
		CatalogueURL: "/",
		CheckoutURL:  "/checkout",
	}
}

func TestCartPage(t *testing.T) {
	for _, lang := range Langs() {
		t.Run(string(lang), func(t *testing.T) {
			r := render(t, CartPage(cartView(lang)))
			checkCommon(t, r, lang, "/cart")
			lines := r.byTestID("cart-line")
			if lines.Length() != 2 {
				t.Fatalf("%d cart lines, want 2", lines.Length())
			}
			first := lines.First()
			if got := text(first.Find(`[data-testid="line-total"]`)); got != FormatMoney(lang, 11800) {
				t.Errorf("line total %q", got)
			}
			if !strings.Contains(text(first), FormatMoney(lang, 5900)) {
				t.Error("unit price missing")
			}
			qty := first.Find(`input[name="quantity"]`)
			for attr, want := range map[string]string{"value": "2", "min": "1", "max": "100", "type": "number"} {
				if got, _ := qty.Attr(attr); got != want {
					t.Errorf("quantity %s = %q, want %q", attr, got, want)
				}
			}
			if _, ok := qty.Attr("aria-invalid"); ok {
				t.Error("valid quantity marked invalid")
			}
			if a, _ := first.Find(`[data-testid="update-quantity"]`).Closest("form").Attr("action"); a != "/cart/update" {
				t.Errorf("update action %q", a)
			}
			rm := first.Find(`[data-testid="remove-line"]`).Closest("form")
			if a, _ := rm.Attr("action"); a != "/cart/remove" {
				t.Errorf("remove action %q", a)
			}
			if id, _ := rm.Find(`input[name="product_id"]`).Attr("value"); id != "p1" {
				t.Errorf("remove product_id %q", id)
			}
			// The rejected input is kept and its error sits beside it.
			second := lines.Last()
			q2 := second.Find(`input[name="quantity"]`)
			if v, _ := q2.Attr("value"); v != "abc" {
				t.Errorf("typed quantity not kept: %q", v)
			}
			desc, _ := q2.Attr("aria-describedby")
			errEl := r.doc.Find("#" + desc)
			if inv, _ := q2.Attr("aria-invalid"); inv != "true" || desc == "" || errEl.AttrOr("data-testid", "") != "field-error" {
				t.Errorf("quantity error not tied: aria-invalid=%q describedby=%q", inv, desc)
			}
			if text(errEl) != FieldMessage(lang, checkout.FieldQuantity, "integer") {
				t.Errorf("error text %q", text(errEl))
			}
			if got := text(r.one(t, "cart-total")); got != FormatMoney(lang, 111800) {
				t.Errorf("cart total %q", got)
			}
			next := r.one(t, "go-to-checkout")
			if href, _ := next.Attr("href"); href != "/checkout" || text(next) != T(lang, "cart.checkout") {
				t.Errorf("checkout link %q %q", href, text(next))
			}
			if strings.Contains(r.html, "<script>alert") {
				t.Error("hostile title not escaped")
			}
		})
	}
}

func TestCartEmpty(t *testing.T) {
	for _, lang := range Langs() {
		v := cartView(lang)
		v.Lines, v.Total = nil, 0
		r := render(t, CartPage(v))
		r.none(t, "cart-line")
		r.none(t, "go-to-checkout")
		if !strings.Contains(text(r.one(t, "cart-empty")), T(lang, "cart.empty")) {
			t.Error("empty state lacks its message")
		}
	}
}

func customerView(lang Lang, physical bool) CustomerView {
	return CustomerView{
		Page:       page(lang, "/checkout"),
		Action:     "/checkout",
		RequestKey: "rk_0123456789abcdef",
		Physical:   physical,
		Lines:      []SummaryLine{{Title: "E-book", Quantity: 2, LineTotal: 11800}},
		Total:      11800,
		BackURL:    "/cart",
	}
}

func TestCustomerPageFresh(t *testing.T) {
	for _, lang := range Langs() {
		t.Run(string(lang), func(t *testing.T) {
			r := render(t, CustomerPage(customerView(lang, false)))
			checkCommon(t, r, lang, "/checkout")
			form := r.one(t, "checkout-form")
			if a, _ := form.Attr("action"); a != "/checkout" {
				t.Errorf("action %q", a)
			}
			if m, _ := form.Attr("method"); m != "post" {
				t.Errorf("method %q", m)
			}
			if v, _ := form.Find(`input[type="hidden"][name="request_key"]`).Attr("value"); v != "rk_0123456789abcdef" {
				t.Errorf("request key %q", v)
			}
			// HTML allows each autofill token on some input types only: "tel" is the one for
			// type=tel (the W3C Nu checker refuses "tel-national" there).
			if typ, _ := form.Find(`input[name="phone"]`).Attr("type"); typ != "tel" {
				t.Errorf("phone input type %q, want tel (the phone keypad)", typ)
			}
			for name, ac := range map[string]string{"name": "name", "document": "on", "email": "email", "phone": "tel"} {
				in := form.Find(fmt.Sprintf(`input[name=%q]`, name))
				if in.Length() != 1 {
					t.Fatalf("no %s input", name)
				}
				if got, _ := in.Attr("autocomplete"); got != ac {
					t.Errorf("%s autocomplete %q, want %q", name, got, ac)
				}
				if _, ok := in.Attr("aria-invalid"); ok {
					t.Errorf("%s marked invalid on a fresh form", name)
				}
			}
			doc := form.Find(`input[name="document"]`)
			if m, _ := doc.Attr("data-mask"); m != "document" {
				t.Errorf("document mask %q", m)
			}
			if im, _ := doc.Attr("inputmode"); im == "" {
				t.Error("document has no inputmode")
			}
			if m, _ := form.Find(`input[name="phone"]`).Attr("data-mask"); m != "phone" {
				t.Errorf("phone mask %q", m)
			}
			r.none(t, "address-block")
			r.none(t, "field-error")
			r.none(t, "error-summary")
			if form.Find(`[name="zip_code"]`).Length() != 0 {
				t.Error("address inputs on a digital order")
			}
			btn := r.one(t, "place-order")
			if typ, _ := btn.Attr("type"); typ != "submit" || !strings.Contains(text(btn), FormatMoney(lang, 11800)) {
				t.Errorf("place-order: type %q text %q", typ, text(btn))
			}
			if src, _ := r.doc.Find("script").Attr("src"); !strings.Contains(src, "/static/mask.") {
				t.Errorf("mask.js not loaded: %q", src)
			}
		})
	}
}

func TestCustomerPageAddress(t *testing.T) {
	for _, lang := range Langs() {
		t.Run(string(lang), func(t *testing.T) {
			r := render(t, CustomerPage(customerView(lang, true)))
			checkCommon(t, r, lang, "/checkout")
			block := r.one(t, "address-block")
			for _, name := range []string{"zip_code", "street", "number", "complement", "neighborhood", "city"} {
				if block.Find(fmt.Sprintf(`input[name=%q]`, name)).Length() != 1 {
					t.Errorf("no %s input", name)
				}
			}
			if m, _ := block.Find(`input[name="zip_code"]`).Attr("data-mask"); m != "cep" {
				t.Errorf("CEP mask %q", m)
			}
			// A Brazil-only payment asks no country; the order records Brasil.
			if block.Find(`[name="country"]`).Length() != 0 {
				t.Error("the form asks for a country")
			}
			// CEP and number side by side, city and state side by side (on wide screens).
			rows := block.Find(".field-row")
			if rows.Length() != 2 || rows.Eq(0).Find(`[name="zip_code"], [name="number"]`).Length() != 2 ||
				rows.Eq(1).Find(`[name="city"], [name="state"]`).Length() != 2 {
				t.Errorf("address rows: %d, %q", rows.Length(), rows.Text())
			}
			// The lookup's live region and the Correios' search sit in the CEP's own field.
			zip := block.Find(`input[name="zip_code"]`).Parent()
			if zip.Find(`[data-testid="cep-status"][aria-live="polite"]`).Length() != 1 {
				t.Error("no live region for the CEP lookup in the CEP's field")
			}
			if href, _ := zip.Find(`a[data-testid="cep-finder"]`).Attr("href"); href != CEPFinderURL {
				t.Errorf("the CEP's field links to %q, want the Correios' search", href)
			}
			opts := block.Find(`select[name="state"] option`)
			if opts.Length() != 28 {
				t.Fatalf("%d state options, want 27 UFs and a placeholder", opts.Length())
			}
			if v, _ := opts.First().Attr("value"); v != "" {
				t.Errorf("placeholder value %q", v)
			}
			if block.Find(`option[value="SP"]`).Text() != "São Paulo" || block.Find("option[selected]").Length() != 0 {
				t.Error("UF options wrong")
			}
			if _, ok := block.Find(`input[name="complement"]`).Attr("required"); ok {
				t.Error("complement should be optional")
			}
		})
	}
}

func TestCustomerPageErrors(t *testing.T) {
	for _, lang := range Langs() {
		t.Run(string(lang), func(t *testing.T) {
			v := customerView(lang, true)
			v.Values = CustomerForm{
				Customer: checkout.Customer{Name: hostile, Document: "123.456.789-00", Email: "ana@example.com", Phone: "(11) 91234-5678"},
				Address: checkout.Address{ZipCode: "0131", Street: "Av. Paulista", Number: "1000", Complement: "", Neighborhood: "Bela Vista",
					City: "São Paulo", State: "sp", Country: ""},
			}
			v.Errors = checkout.ValidationError{}
			v.Errors.Add(checkout.FieldDocument, "document", FieldMessage(lang, checkout.FieldDocument, "document"))
			v.Errors.Add(checkout.FieldZipCode, "format", FieldMessage(lang, checkout.FieldZipCode, "format"))
			v.Errors.Add("", "", T(lang, "err.other", "amount: too large"))
			r := render(t, CustomerPage(v))
			checkCommon(t, r, lang, "/checkout")
			form := r.one(t, "checkout-form")
			// Every typed value comes back, hostile ones as text.
			for name, want := range map[string]string{
				"name": hostile, "document": "123.456.789-00", "email": "ana@example.com", "phone": "(11) 91234-5678",
				"zip_code": "0131", "street": "Av. Paulista", "number": "1000", "neighborhood": "Bela Vista",
				"city": "São Paulo", "country": "",
			} {
				if got, _ := form.Find(fmt.Sprintf(`input[name=%q]`, name)).Attr("value"); got != want {
					t.Errorf("%s value %q, want %q", name, got, want)
				}
			}
			if got, _ := form.Find("select[name=state] option[selected]").Attr("value"); got != "SP" {
				t.Errorf("selected state %q, want SP", got)
			}
			if strings.Contains(r.html, "<script>alert") {
				t.Error("hostile value not escaped")
			}
			// Errors beside their fields.
			if n := r.byTestID("field-error").Length(); n != 2 {
				t.Errorf("%d field errors, want 2", n)
			}
			for _, name := range []string{checkout.FieldDocument, checkout.FieldZipCode} {
				in := form.Find("#f-" + name)
				desc, _ := in.Attr("aria-describedby")
				if inv, _ := in.Attr("aria-invalid"); inv != "true" {
					t.Errorf("%s: aria-invalid %q", name, inv)
				}
				if !strings.Contains(" "+desc+" ", " f-"+name+"-error ") {
					t.Errorf("%s: aria-describedby %q lacks its error", name, desc)
				}
				errEl := r.doc.Find("#f-" + name + "-error")
				if errEl.AttrOr("data-testid", "") != "field-error" || text(errEl) != v.Errors.Message(name) {
					t.Errorf("%s: error %q", name, text(errEl))
				}
				if errEl.Closest(".field").Find("#f-"+name).Length() != 1 {
					t.Errorf("%s: error not beside its field", name)
				}
			}
			if _, ok := form.Find("#f-email").Attr("aria-invalid"); ok {
				t.Error("valid email marked invalid")
			}
			// The summary takes focus and links to each field.
			sum := r.one(t, "error-summary")
			for attr, want := range map[string]string{"role": "alert", "tabindex": "-1"} {
				if got, _ := sum.Attr(attr); got != want {
					t.Errorf("summary %s = %q, want %q", attr, got, want)
				}
			}
			if _, ok := sum.Attr("autofocus"); !ok {
				t.Error("summary lacks autofocus")
			}
			items := sum.Find("li")
			if items.Length() != 3 {
				t.Fatalf("%d summary items, want 3", items.Length())
			}
			if text(items.Eq(0)) != v.Errors.Message("") {
				t.Errorf("form-wide error first: %q", text(items.Eq(0)))
			}
			for i, name := range []string{checkout.FieldDocument, checkout.FieldZipCode} {
				a := items.Eq(i + 1).Find("a")
				if href, _ := a.Attr("href"); href != "#f-"+name || text(a) != v.Errors.Message(name) {
					t.Errorf("summary item %d: %q -> %q", i+1, text(a), href)
				}
			}
			if sum.Nodes[0] != r.doc.Find("main").Children().Nodes[1] {
				t.Error("summary is not at the top of the page")
			}
		})
	}
}

func TestCustomerPageErrorOfHiddenField(t *testing.T) {
	v := customerView(PtBR, false)
	v.Errors.Add(checkout.FieldZipCode, "format", "CEP?")
	r := render(t, CustomerPage(v))
	items := r.one(t, "error-summary").Find("li")
	if items.Length() != 1 || text(items) != "CEP?" || items.Find("a").Length() != 0 {
		t.Errorf("an error of a field not on the page must show unlinked: %q", text(items))
	}
}

func pixView(lang Lang) PixView {
	now := time.Date(2026, 3, 10, 15, 0, 0, 0, time.UTC)
	return PixView{
		Page:          page(lang, "/pay/abc"),
		OrderNumber:   "PX-7K3M9QZ2",
		Amount:        5900,
		Lines:         []SummaryLine{{Title: "E-book", Quantity: 1, LineTotal: 5900}},
		QRImageURL:    "/pay/abc/qr.png",
		Code:          "00020101021226850014br.gov.bcb.pix2563example.com/qr/v2/abc5204000053039865406" + "59.005802BR5913LOJA EXEMPLO6009SAO PAULO62070503***6304ABCD",
		ExpiresAt:     now.Add(29*time.Minute + 59*time.Second),
		Status:        checkout.StatusAwaitingPayment,
		EventsURL:     "/pay/abc/events",
		StatusURL:     "/pay/abc/status",
		PaidURL:       "/pay/abc/paid",
		NewQRURL:      "/pay/abc/new-qr",
		SandboxPayURL: "/pay/abc/sandbox-pay",
	}
}

func TestPixPage(t *testing.T) {
	for _, lang := range Langs() {
		t.Run(string(lang), func(t *testing.T) {
			v := pixView(lang)
			r := render(t, PixPage(v))
			checkCommon(t, r, lang, "/pay/abc")
			// Until when the code is valid, in Brasília time (12:29 there); the countdown is
			// pix.js's, its line hidden until the script shows it.
			until := map[Lang]string{PtBR: "Válido até 12:29, horário de Brasília", En: "Valid until 12:29 PM, Brasília time"}[lang]
			if got := text(r.doc.Find(".valid-until")); got != until {
				t.Errorf("valid until %q, want %q", got, until)
			}
			if cd := r.one(t, "countdown"); text(cd) != "" || cd.Closest("[data-expires-in]").AttrOr("hidden", "no") == "no" {
				t.Errorf("countdown %q drawn by the server, or its line shown without the script", text(cd))
			}
			qr := r.one(t, "pix-qr")
			wantAlt := map[Lang]string{PtBR: "QR Code Pix para pagar R$ 59,00", En: "PIX QR code to pay R$59.00"}[lang]
			if alt, _ := qr.Attr("alt"); alt != wantAlt {
				t.Errorf("alt %q, want %q", alt, wantAlt)
			}
			if src, _ := qr.Attr("src"); src != "/pay/abc/qr.png" {
				t.Errorf("src %q", src)
			}
			if w, h := qr.AttrOr("width", ""), qr.AttrOr("height", ""); w != "256" || h != "256" {
				t.Errorf("size %sx%s", w, h)
			}
			code := r.one(t, "pix-code")
			if goquery.NodeName(code) != "textarea" || code.Text() != v.Code {
				t.Errorf("pix-code <%s> %q", goquery.NodeName(code), code.Text())
			}
			if _, ok := code.Attr("readonly"); !ok {
				t.Error("pix-code not readonly")
			}
			if typ, _ := r.one(t, "copy-code").Attr("type"); typ != "button" {
				t.Errorf("copy-code type %q", typ)
			}
			st := r.one(t, "order-status")
			if st.AttrOr("aria-live", "") != "polite" || st.AttrOr("role", "") != "status" {
				t.Error("order-status is not a polite live region")
			}
			if text(st) != StatusText(lang, checkout.StatusAwaitingPayment) {
				t.Errorf("status %q", text(st))
			}
			if got := text(r.one(t, "amount")); got != FormatMoney(lang, 5900) {
				t.Errorf("amount %q", got)
			}
			if got := text(r.one(t, "order-number")); got != "PX-7K3M9QZ2" {
				t.Errorf("order number %q", got)
			}
			if got := text(r.one(t, "merchant-name")); got != "Loja Exemplo" {
				t.Errorf("merchant %q", got)
			}
			newQR := r.one(t, "new-qr")
			if _, hidden := newQR.Attr("hidden"); !hidden {
				t.Error("new-qr visible before expiry")
			}
			if a, _ := newQR.Find("form").Attr("action"); a != "/pay/abc/new-qr" {
				t.Errorf("new-qr action %q", a)
			}
			if _, hidden := r.doc.Find("[data-pix-active]").Attr("hidden"); hidden {
				t.Error("QR hidden before expiry")
			}
			root := r.doc.Find("[data-pix]")
			for attr, want := range map[string]string{
				"data-expires-at": "2026-03-10T15:29:59.000Z",
				"data-events-url": "/pay/abc/events",
				"data-status-url": "/pay/abc/status",
				"data-paid-url":   "/pay/abc/paid",
				"data-text-paid":  StatusText(lang, checkout.StatusPaid),
			} {
				if got, _ := root.Attr(attr); got != want {
					t.Errorf("%s = %q, want %q", attr, got, want)
				}
			}
			if !regexp.MustCompile(`<head>.*<noscript><meta http-equiv="refresh" content="20"></noscript>.*</head>`).MatchString(strings.ReplaceAll(r.html, "\n", "")) {
				t.Error("no <noscript> meta refresh in the head")
			}
			// follow.js first: pix.js uses it as soon as it runs.
			var srcs []string
			r.doc.Find("script[src]").Each(func(_ int, s *goquery.Selection) { srcs = append(srcs, s.AttrOr("src", "")) })
			if len(srcs) < 2 || !strings.Contains(srcs[0], "/static/follow.") || !strings.Contains(srcs[1], "/static/pix.") {
				t.Errorf("scripts %q, want follow.js then pix.js", srcs)
			}
			r.none(t, "sandbox-pay")
		})
	}
}

func TestPixPageSandbox(t *testing.T) {
	for _, lang := range Langs() {
		v := pixView(lang)
		v.Sandbox = true
		r := render(t, PixPage(v))
		btn := r.one(t, "sandbox-pay")
		if text(btn) != T(lang, "pix.sandbox_pay") || !strings.Contains(text(btn), "sandbox") {
			t.Errorf("sandbox-pay text %q", text(btn))
		}
		if a, _ := btn.Closest("form").Attr("action"); a != "/pay/abc/sandbox-pay" {
			t.Errorf("sandbox-pay action %q", a)
		}
		if m, _ := btn.Closest("form").Attr("method"); m != "post" {
			t.Errorf("sandbox-pay method %q", m)
		}
		// pix.js announces the payment in the live status with this text while it is in flight.
		if busy, _ := btn.Closest("form").Attr("data-text-busy"); busy == "" || busy != T(lang, "pix.sandbox_paying") {
			t.Errorf("sandbox-pay form data-text-busy %q", busy)
		}
	}
	// Sandbox mode without a pay URL has no button.
	v := pixView(PtBR)
	v.Sandbox, v.SandboxPayURL = true, ""
	render(t, PixPage(v)).none(t, "sandbox-pay")
}

func TestPixPageExpired(t *testing.T) {
	for _, lang := range Langs() {
		v := pixView(lang)
		v.Status = checkout.StatusExpired
		r := render(t, PixPage(v))
		if _, hidden := r.one(t, "new-qr").Attr("hidden"); hidden {
			t.Error("new-qr hidden after expiry")
		}
		if _, hidden := r.doc.Find("[data-pix-active]").Attr("hidden"); !hidden {
			t.Error("QR shown after expiry")
		}
		if got := text(r.one(t, "order-status")); got != StatusText(lang, checkout.StatusExpired) {
			t.Errorf("status %q", got)
		}
		if strings.Contains(r.html, `http-equiv="refresh"`) {
			t.Error("an expired page should not keep reloading")
		}
	}
}

func TestPixPageQRSize(t *testing.T) {
	v := pixView(PtBR)
	v.QRSize = 300
	r := render(t, PixPage(v))
	if w := r.one(t, "pix-qr").AttrOr("width", ""); w != "300" {
		t.Errorf("width %q", w)
	}
}

func TestPixPageWithoutQRYet(t *testing.T) {
	v := pixView(PtBR)
	v.Status, v.QRImageURL, v.Code, v.ExpiresAt = checkout.StatusPending, "", "", time.Time{}
	r := render(t, PixPage(v))
	r.none(t, "pix-qr") // no broken image while the gateway has not answered
	// Nor an empty code to copy, or a countdown of a time nobody set.
	for _, id := range []string{"pix-code", "copy-code", "countdown"} {
		r.none(t, id)
	}
	if r.doc.Find("[data-pix-active]").Length() != 0 {
		t.Error("the QR block is on a page without a code")
	}
	if got := text(r.one(t, "order-status")); got != StatusText(PtBR, checkout.StatusPending) {
		t.Errorf("status %q", got)
	}
	if _, hidden := r.one(t, "new-qr").Attr("hidden"); !hidden {
		t.Error("new-qr shown while pending")
	}
	if !strings.Contains(r.html, `http-equiv="refresh"`) {
		t.Error("a pending page must refresh itself without JavaScript")
	}
}

// A deposit under review has no QR code to show (the order left awaiting_payment): the page
// shows the status only, in both languages, and keeps refreshing.
func TestPixPageUnderReview(t *testing.T) {
	for _, lang := range Langs() {
		v := pixView(lang)
		v.Status, v.QRImageURL, v.Code, v.ExpiresAt = checkout.StatusUnderReview, "", "", time.Time{}
		r := render(t, PixPage(v))
		for _, id := range []string{"pix-qr", "pix-code", "copy-code", "countdown"} {
			r.none(t, id)
		}
		if strings.Contains(r.html, `src=""`) {
			t.Error("an element with an empty src")
		}
		if got := text(r.one(t, "order-status")); got != StatusText(lang, checkout.StatusUnderReview) {
			t.Errorf("%s: status %q", lang, got)
		}
		if _, hidden := r.one(t, "new-qr").Attr("hidden"); !hidden {
			t.Errorf("%s: new-qr shown while under review", lang)
		}
		if !strings.Contains(r.html, `http-equiv="refresh"`) {
			t.Errorf("%s: the page must follow the review without JavaScript", lang)
		}
	}
}

func TestPaidPage(t *testing.T) {
	paidAt := time.Date(2026, 3, 10, 15, 4, 0, 0, time.UTC)
	for _, lang := range Langs() {
		t.Run(string(lang), func(t *testing.T) {
			v := PaidView{
				Page: page(lang, "/pay/abc/paid"), OrderNumber: "PX-7K3M9QZ2", Amount: 11800, PaidAt: paidAt,
				Lines: []SummaryLine{{Title: hostile, Quantity: 2, LineTotal: 11800}}, ContinueURL: "/",
			}
			r := render(t, PaidPage(v))
			checkCommon(t, r, lang, "/pay/abc/paid")
			paid := r.one(t, "paid")
			if !strings.Contains(text(paid), "PX-7K3M9QZ2") || text(r.one(t, "amount")) != FormatMoney(lang, 11800) {
				t.Errorf("paid block %q", text(paid))
			}
			if got := text(r.one(t, "paid-at")); got != FormatDateTime(lang, paidAt) {
				t.Errorf("paid at %q", got)
			}
			if !strings.Contains(text(r.one(t, "order-summary")), hostile) || strings.Contains(r.html, "<script>alert") {
				t.Error("summary line missing or not escaped")
			}
			r.none(t, "late-payment")
			v.Progress = OrderProgress{Stage: StagePaid, LatePayment: true}
			if !strings.Contains(text(render(t, PaidPage(v)).one(t, "late-payment")), T(lang, "paid.late")) {
				t.Error("late note missing")
			}
			r.none(t, "refund-due")
			v.Progress.RefundDue = 2990
			if got, want := text(render(t, PaidPage(v)).one(t, "refund-due")), T(lang, "progress.due_twice", FormatMoney(lang, 2990)); got != want {
				t.Errorf("refund note %q, want %q", got, want)
			}
		})
	}
}

func TestExpiredPage(t *testing.T) {
	for _, lang := range Langs() {
		v := ExpiredView{Page: page(lang, "/pay/abc"), OrderNumber: "PX-1", Amount: 5900, NewQRURL: "/pay/abc/new-qr", CartURL: "/cart"}
		r := render(t, ExpiredPage(v))
		checkCommon(t, r, lang, "/pay/abc")
		if !strings.Contains(text(r.one(t, "expired")), "PX-1") {
			t.Error("order number missing")
		}
		form := r.one(t, "new-qr")
		if a, _ := form.Attr("action"); a != "/pay/abc/new-qr" || form.AttrOr("method", "") != "post" {
			t.Errorf("new-qr form %q", a)
		}
		if r.doc.Find(`a[href="/cart"]`).Length() != 1 {
			t.Error("no way back to the cart")
		}
	}
}

func TestFailedPage(t *testing.T) {
	for _, lang := range Langs() {
		v := FailedView{Page: page(lang, "/pay/abc"), OrderNumber: "PX-1", Amount: 5900, RetryURL: "/pay/abc/new-qr", CartURL: "/cart"}
		r := render(t, FailedPage(v))
		checkCommon(t, r, lang, "/pay/abc")
		r.one(t, "failed")
		if got := text(r.one(t, "failed-reason")); got != T(lang, "failed.reason", "PX-1") {
			t.Errorf("reason %q", got)
		}
		if a, _ := r.one(t, "retry").Closest("form").Attr("action"); a != "/pay/abc/new-qr" {
			t.Errorf("retry action %q", a)
		}
		v.Reason, v.RetryURL = hostile, ""
		r = render(t, FailedPage(v))
		if text(r.one(t, "failed-reason")) != hostile || strings.Contains(r.html, "<script>alert") {
			t.Error("custom reason not shown as text")
		}
		r.none(t, "retry")
	}
}

func TestNotFoundAndErrorPages(t *testing.T) {
	for _, lang := range Langs() {
		r := render(t, NotFoundPage(page(lang, "/nope")))
		checkCommon(t, r, lang, "/nope")
		if !strings.Contains(text(r.one(t, "not-found")), T(lang, "notfound.title")) {
			t.Error("not-found title missing")
		}
		r = render(t, ErrorPage(ErrorView{Page: page(lang, "/x"), StatusCode: 503, RequestID: "req-42"}))
		checkCommon(t, r, lang, "/x")
		body := text(r.one(t, "error"))
		for _, want := range []string{T(lang, "error.text"), "503", "req-42"} {
			if !strings.Contains(body, want) {
				t.Errorf("error page lacks %q: %q", want, body)
			}
		}
	}
}

func BenchmarkRenderPixPage(b *testing.B) {
	v := pixView(PtBR)
	v.Sandbox = true
	var buf bytes.Buffer
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		if err := PixPage(v).Render(ctx, &buf); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(buf.Len()))
}

// TestAddressRowsHoldEveryField: the layout of the address block shows every field of
// checkout.AddressFields once.
func TestAddressRowsHoldEveryField(t *testing.T) {
	seen := map[string]int{}
	for _, row := range addressRows() {
		for _, f := range row {
			seen[f.Name]++
		}
	}
	for _, name := range checkout.AddressFields() {
		if seen[name] != 1 {
			t.Errorf("%s is in %d rows, want 1", name, seen[name])
		}
		delete(seen, name)
	}
	for name := range seen {
		t.Errorf("%s is laid out but is no address field", name)
	}
}
