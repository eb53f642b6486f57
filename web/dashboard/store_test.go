package dashboard_test

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/pixcheckout/pixcheckout/checkout/audit"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
)

// storeForm is a whole "Loja" form as the page posts it.
func storeForm(tok string) url.Values {
	return url.Values{"csrf_token": {tok}, "name": {"Café Ñandu"}, "legal_name": {"Ñandu Comércio de Café Ltda"},
		"document": {"11.222.333/0001-81"}, "address": {"Rua das Flores, 12 - Centro\nCuritiba - PR"},
		"support_email": {"oi@nandu.example"}, "support_phone": {"(41) 3333-4444"}, "support_url": {"https://nandu.example/ajuda"},
		"brand_color": {"#C2185B"}, "accent_color": {"#000000"}, "no_accent_color": {"true"},
		"note": {"Trocas em até 7 dias: https://nandu.example/trocas"}, "thanks": {"Obrigado por comprar no Ñandu!"}}
}

// TestDashboardStore: the "Loja" page refuses each wrong field beside it (what was typed kept),
// needs the form's token, and a save shows at once on the shopper pages (name, payee, contact),
// is audited field by field with before and after, and names the variables it replaced.
func TestDashboardStore(t *testing.T) {
	e, b := signedIn(t)
	_, doc := b.get("/dashboard/store")
	if !strings.Contains(doc.Find(testid("replaced-variables")).Text(), "CHECKOUT_MERCHANT_NAME") {
		t.Error("the page does not name the variables it replaced")
	}
	if doc.Find("#st-name").AttrOr("value", "") != "Loja Teste" {
		t.Errorf("the name shown before any save: %q", doc.Find("#st-name").AttrOr("value", ""))
	}
	tok := b.csrf()

	bad := storeForm(tok)
	bad.Set("name", "")
	bad.Set("document", "111.111.111-11")
	bad.Set("support_url", "http://nandu.example")
	bad.Set("brand_color", "vermelho")
	res, doc := b.post("/dashboard/store", bad)
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("an invalid form: %d", res.StatusCode)
	}
	for _, f := range []string{"name", "document", "support_url", "brand_color"} {
		if doc.Find(`[data-testid="field-error"][data-field="`+f+`"]`).Length() != 1 || doc.Find("#st-"+f).AttrOr("aria-invalid", "") != "true" {
			t.Errorf("no error beside %s", f)
		}
	}
	if doc.Find("#st-legal_name").AttrOr("value", "") != "Ñandu Comércio de Café Ltda" {
		t.Error("what was typed was lost")
	}

	noToken := storeForm(tok)
	noToken.Del("csrf_token")
	if res := b.do(http.MethodPost, "/dashboard/store", noToken); res.StatusCode != http.StatusForbidden {
		t.Errorf("a form without its token: %d", res.StatusCode)
	}

	res = b.do(http.MethodPost, "/dashboard/store", storeForm(tok))
	res.Body.Close()
	if loc := e.location(res); loc != "/dashboard/store?done=saved" {
		t.Fatalf("after saving: %q", loc)
	}
	_, doc = b.get("/dashboard/store?done=saved")
	if doc.Find("#st-brand_color").AttrOr("value", "") != "#c2185b" || doc.Find(`[data-testid="no_accent_color"]`).AttrOr("checked", "x") == "x" {
		t.Errorf("colours shown after the save: %q, accent box checked %v", doc.Find("#st-brand_color").AttrOr("value", ""),
			doc.Find(`[data-testid="no_accent_color"]`).Is("[checked]"))
	}

	if n := doc.Find(testid("contrast-row")).Length(); n != 14 {
		t.Errorf("%d contrast rows, want 7 pairs in each of 2 schemes", n)
	}
	doc.Find(testid("contrast-row") + " [data-ratio]").Each(func(_ int, c *goquery.Selection) {
		if r, _ := strconv.ParseFloat(c.AttrOr("data-ratio", ""), 64); r < 3 {
			t.Errorf("a contrast shown under 3:1: %s", c.Text())
		}
	})

	_, shop := e.get("/")
	page := strings.Join(strings.Fields(shop.Text()), " ")
	for _, want := range []string{"Café Ñandu", "oi@nandu.example", "(41) 3333-4444"} {
		if !strings.Contains(page, want) {
			t.Errorf("the catalogue does not show %q: %s", want, page)
		}
	}
	if !strings.Contains(shop.Find("title").Text(), "Café Ñandu") {
		t.Errorf("the title: %q", shop.Find("title").Text())
	}

	es, err := e.dash.audit.Entries(context.Background(), audit.Filter{Action: audit.StoreChanged})
	if err != nil || len(es) != 1 {
		t.Fatalf("audit entries of the store: %v, %v", es, err)
	}
	for _, want := range []string{`name: "Loja Teste" → "Café Ñandu"`, `brand_color: "" → "#c2185b"`, `document: "" → "11.222.333/0001-81"`} {
		if !strings.Contains(es[0].Detail, want) {
			t.Errorf("the audit's detail %q lacks %q", es[0].Detail, want)
		}
	}
	if strings.Contains(es[0].Detail, "accent_color") {
		t.Errorf("the audit names a field that did not change: %q", es[0].Detail)
	}
}

// TestDashboardStoreGatewayName: the "Loja" page shows the name the shopper's bank shows — field
// 59 of the newest PIX code the gateway returned, the gateway account's and not the store's —
// labelled as set by the gateway account; before any code, it says one will appear.
func TestDashboardStoreGatewayName(t *testing.T) {
	e, b := signedIn(t, func(o *envOptions) {
		o.sandbox = func(so *sandbox.Options) { so.MerchantName = "SERRANO PAGAMENTOS" }
	})
	_, doc := b.get("/dashboard/store")
	if doc.Find(testid("gateway-name-value")).Length() != 0 || !strings.Contains(doc.Find(testid("gateway-name")).Text(), "próximo pedido") {
		t.Errorf("before any order: %q", doc.Find(testid("gateway-name")).Text())
	}
	e.placeOrder()
	_, doc = b.get("/dashboard/store")
	section := doc.Find(testid("gateway-name"))
	if got := section.Find(testid("gateway-name-value")).Text(); got != "SERRANO PAGAMENTOS" {
		t.Errorf("the name shown: %q, want the code's field 59", got)
	}
	if !strings.Contains(section.Text(), "definido pela conta no gateway") {
		t.Errorf("the name is not labelled as the gateway account's: %q", section.Text())
	}
	_, doc = b.get("/dashboard/store?lang=en")
	if !strings.Contains(doc.Find(testid("gateway-name")).Text(), "set by the gateway account") {
		t.Errorf("in English: %q", doc.Find(testid("gateway-name")).Text())
	}
}
