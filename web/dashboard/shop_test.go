package dashboard_test

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
)

// paidOrder places a digital order, pays it at the sandbox and waits until the checkout knows.
func (e *env) paidOrder() string {
	e.t.Helper()
	id := orderID(e.placeOrder())
	o := e.waitStatus(id, "awaiting_payment")
	if err := (payer{e.client}).Pay(context.Background(), o.CurrentAttempt().TransactionID); err != nil {
		e.t.Fatal(err)
	}
	if _, err := e.svc.RefreshFromGateway(context.Background(), id); err != nil {
		e.t.Fatal(err)
	}
	e.waitStatus(id, "paid")
	return id
}

// TestDashboardOverview: the figures of today, 7 and 30 days, the orders awaiting payment, the
// conversion, and the chart with its table. At 02:30Z it is still yesterday in São Paulo: the
// order paid now is today's there.
func TestDashboardOverview(t *testing.T) {
	e, b := signedIn(t, at("02:30"))
	e.paidOrder()
	e.placeOrder()
	res, doc := b.get("/dashboard")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("status %d", res.StatusCode)
	}
	fig := func(id string) string {
		return strings.TrimSpace(doc.Find(testid(id) + " " + testid("figure-value")).Text())
	}
	for id, want := range map[string]string{"paid-today": "R$ 29,90", "paid-7d": "R$ 29,90", "paid-30d": "R$ 29,90",
		"awaiting": "1", "conversion": "50,0 %"} {
		if got := fig(id); got != want {
			t.Errorf("%s = %q, want %q", id, got, want)
		}
	}
	// The money: received R$ 29,90, the sandbox's fee (1 %: R$ 0,30), net R$ 29,60, each
	// linked to the orders behind it.
	for id, want := range map[string]string{"money-received": "2990", "money-refunded": "0", "money-held": "0",
		"money-fees": "30", "money-net": "2960"} {
		cell := doc.Find(testid(id) + ` td[data-period="today"]`)
		if got := cell.AttrOr("data-amount", ""); got != want {
			t.Errorf("%s today = %q, want %q", id, got, want)
		}
	}
	if href := doc.Find(testid("money-received")+` td[data-period="7d"] a`).AttrOr("href", ""); !strings.Contains(href, "money=received") {
		t.Errorf("received's link %q", href)
	} else if _, list := b.get(href); list.Find(testid("order-row")).Length() != 1 {
		t.Errorf("the orders behind received: %d", list.Find(testid("order-row")).Length())
	}
	bars := doc.Find(testid("chart") + " rect.bar")
	gross := doc.Find(testid("chart") + " rect.bar-gross")
	if bars.Length() != 30 || bars.Last().AttrOr("data-amount", "") != "2960" || bars.First().AttrOr("height", "") != "0" ||
		gross.Length() != 1 || gross.AttrOr("data-gross", "") != "2990" || gross.AttrOr("height", "") != "159" {
		t.Errorf("%d bars, last %q", bars.Length(), bars.Last().AttrOr("data-amount", ""))
	}
	// The y-axis: round whole reais (R$ 10 steps up to R$ 30 for a day of R$ 29,90), the bars
	// on its scale.
	var ticks []string
	doc.Find(testid("chart-y") + " span").Each(func(_ int, s *goquery.Selection) { ticks = append(ticks, s.Text()) })
	if !slices.Equal(ticks, []string{"R$ 30", "R$ 20", "R$ 10", "R$ 0"}) {
		t.Errorf("y-axis %q", ticks)
	}
	if h := bars.Last().AttrOr("height", ""); h != "157" { // net 2960 / 3000 of 160
		t.Errorf("the tallest bar is %s high, want 157", h)
	}
	if n := doc.Find(testid("chart") + " line.grid").Length(); n != 4 {
		t.Errorf("%d gridlines", n)
	}
	if top := doc.Find(testid("top-product")); top.Length() != 1 || top.Find("td").First().AttrOr("data-units", "") != "1" ||
		top.Find("td").Last().Text() != "R$ 29,90" {
		t.Errorf("top products %q", strings.Join(strings.Fields(doc.Find(testid("top-products")).Text()), " "))
	}
	if legend := doc.Find(testid("chart-legend")).Text(); !strings.Contains(legend, "últimos 30 dias (R$ 29,60)") ||
		!strings.Contains(legend, "anteriores (R$ 0,00)") {
		t.Errorf("legend %q", legend)
	}
	if n := doc.Find(testid("chart-table") + " tbody tr").Length(); n != 30 {
		t.Errorf("%d rows in the chart's table", n)
	}
	if desc := doc.Find("svg desc").Text(); !strings.Contains(desc, "Líquido de R$ 29,60") {
		t.Errorf("chart description %q", desc)
	}
	href, _ := doc.Find(testid("awaiting") + " a").Attr("href")
	if !strings.Contains(href, "status=awaiting_payment") {
		t.Errorf("awaiting link %q", href)
	}

	// 31 days later, with another payment: the first one is in the previous period, drawn
	// as the dashed line and in the table beside the day 30 days after it.
	if err := e.sb.AdvanceClock(context.Background(), 31*24*time.Hour); err != nil {
		t.Fatal(err)
	}
	e.paidOrder()
	_, doc = b.get("/dashboard")
	if legend := doc.Find(testid("chart-legend")).Text(); !strings.Contains(legend, "últimos 30 dias (R$ 29,60)") ||
		!strings.Contains(legend, "anteriores (R$ 29,60)") {
		t.Errorf("legend 31 days later %q", legend)
	}
	var prev []string
	doc.Find(testid("chart-table") + " tbody tr").Each(func(_ int, r *goquery.Selection) {
		prev = append(prev, r.Find("td").Last().AttrOr("data-amount", ""))
	})
	if len(prev) != 30 || prev[28] != "2960" || strings.Count(strings.Join(prev, ","), "2960") != 1 {
		t.Errorf("the previous period's amounts %v: want 2960 (net) beside the 29th day", prev)
	}
	if d := doc.Find(testid("chart-previous")).AttrOr("d", ""); !strings.HasPrefix(d, "M0 160") || !strings.Contains(d, "V3 H580 V160") {
		t.Errorf("the previous period's line %q", d)
	}
	if desc := doc.Find("svg desc").Text(); !strings.Contains(desc, "anteriores: R$ 29,60") {
		t.Errorf("chart description %q", desc)
	}
}

// TestDashboardOrders: the list's filters (status, dates, amounts, the search box), their
// errors, pagination with the totals, and an order's page with its attempts and history.
func TestDashboardOrders(t *testing.T) {
	e, b := signedIn(t)
	paid := e.paidOrder()
	second := orderID(e.placeOrder())
	third := orderID(e.placeOrder())
	rows := func(doc *goquery.Document) []string {
		var ids []string
		doc.Find(testid("order-row")).Each(func(_ int, s *goquery.Selection) { ids = append(ids, s.AttrOr("data-id", "")) })
		return ids
	}
	o, _ := e.svc.Order(context.Background(), paid)
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"", []string{third, second, paid}},
		{"status=paid", []string{paid}},
		{"status=awaiting_payment&status=pending", []string{third, second}},
		{"q=" + url.QueryEscape("529.982.247-25"), []string{third, second, paid}},
		{"q=" + url.QueryEscape(o.Number), []string{paid}},
		{"q=" + strings.ToLower(o.Number[3:]), []string{paid}},
		{"q=maria", []string{third, second, paid}},
		{"q=nobody-here", nil},
		{"minAmount=29,90&maxAmount=29,90", []string{third, second, paid}},
		{"minAmount=30", nil},
		{"from=2000-01-01&to=2000-01-02", nil},
		{"from=2000-01-01", []string{third, second, paid}},
	} {
		res, doc := b.get("/dashboard/orders?" + tc.query)
		if got := rows(doc); res.StatusCode != http.StatusOK || strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("%s: %d %v, want %v", tc.query, res.StatusCode, got, tc.want)
		}
	}
	for _, tc := range []struct{ query, param, msg string }{
		{"from=ontem", "from", "Informe uma data, como 01/03/2026."},
		{"from=2026-03-02&to=2026-03-01", "to", "A data final deve ser igual ou posterior à inicial."},
		{"status=shipped", "status", "Valor desconhecido: shipped."},
		{"minAmount=abc", "minAmount", "Informe um valor em reais, como 10,50 ou 1.234,56."},
		{"minAmount=20&maxAmount=10", "maxAmount", "O máximo deve ser maior ou igual ao mínimo."},
		{"q=" + strings.Repeat("x", 101), "q", "Use no máximo 100 caracteres na busca."},
		{"status=paid;x", "status", "Não foi possível ler o parâmetro status da URL: o ';' não separa parâmetros. Corrija o filtro."},
	} {
		res, doc := b.get("/dashboard/orders?" + tc.query + "&q2=kept")
		msg := doc.Find(`[data-testid="filter-error"][data-param="` + tc.param + `"]`).Text()
		if res.StatusCode != http.StatusUnprocessableEntity || msg != tc.msg {
			t.Errorf("%s: %d %q, want %q", tc.query, res.StatusCode, msg, tc.msg)
		}
	}
	// Pages of two, by key, with the total: an order placed between two pages repeats no row,
	// and the previous page is the first one's rows.
	_, doc := b.get("/dashboard/orders?perPage=2&status=awaiting_payment&status=pending&status=paid")
	pg := doc.Find(testid("pagination"))
	if got := rows(doc); strings.Join(got, ",") != third+","+second || pg.AttrOr("data-total", "") != "3" ||
		doc.Find(testid("page-prev")).Length() != 0 {
		t.Errorf("page 1: %v, %v", got, pg.Nodes[0].Attr)
	}
	next, _ := doc.Find(testid("page-next")).Attr("href")
	if !strings.Contains(next, "status=awaiting_payment&status=pending&status=paid") || !strings.Contains(next, "perPage=2") {
		t.Errorf("the next page's link drops the filters: %q", next)
	}
	fourth := orderID(e.placeOrder())
	_, doc = b.get(next)
	if got := rows(doc); len(got) != 1 || got[0] != paid || doc.Find(testid("page-next")).Length() != 0 {
		t.Errorf("page 2 after an order was placed: %v", got)
	}
	if s := doc.Find(testid("results-count")).Text(); !strings.Contains(s, "4 pedidos") {
		t.Errorf("the count on page 2: %q", s)
	}
	prev, _ := doc.Find(testid("page-prev")).Attr("href")
	_, doc = b.get(prev)
	if got := rows(doc); strings.Join(got, ",") != third+","+second {
		t.Errorf("back from page 2: %v; want %s,%s", got, third, second)
	}
	if got := rows(doc); slices.Contains(got, fourth) {
		t.Error("the page before page 2 shows the order placed since")
	}
	res, doc := b.get("/dashboard/orders?cursor=made-up")
	if msg := doc.Find(`[data-testid="filter-error"][data-param="cursor"]`).Text(); res.StatusCode != http.StatusUnprocessableEntity ||
		msg != "Este link de página não vale: volte à primeira página." {
		t.Errorf("a made-up cursor: %d %q", res.StatusCode, msg)
	}

	// One order.
	res, doc = b.get("/dashboard/orders/" + paid)
	if res.StatusCode != http.StatusOK || doc.Find(testid("order-status")).Text() != "Pagamento confirmado" {
		t.Fatalf("order page %d %q", res.StatusCode, doc.Find(testid("order-status")).Text())
	}
	if doc.Find(testid("order-line")).Length() != 1 || !strings.Contains(doc.Find(testid("customer")).Text(), "maria@example.com.br") {
		t.Error("lines or customer missing")
	}
	dep, _ := doc.Find(testid("attempt") + " a").Attr("href")
	if dep != "/dashboard/deposits/"+o.CurrentAttempt().TransactionID || !strings.Contains(doc.Find(testid("attempt")).Text(), o.CurrentAttempt().IdempotencyKey) {
		t.Errorf("attempt's deposit link %q", dep)
	}
	if n := doc.Find(testid("history-entry")).Length(); n < 2 {
		t.Errorf("%d history entries", n)
	}
	if res, _ := b.get("/dashboard/orders/no-such-order"); res.StatusCode != http.StatusNotFound {
		t.Errorf("unknown order: %d", res.StatusCode)
	}
}

// TestDashboardProducts: a product made in the dashboard is in the shop at once; its errors
// show beside their fields, every field at once; editing and deactivating reach the shop too;
// the forms need the session's token.
func TestDashboardProducts(t *testing.T) {
	e, b := signedIn(t)
	tok := b.csrf()
	res, doc := b.post("/dashboard/products", url.Values{"csrf_token": {tok}, "title": {"x"}, "description": {""}, "unit_price": {"dez"}, "active": {"true"}})
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("invalid product: %d", res.StatusCode)
	}
	errOf := func(doc *goquery.Document, field string) string {
		return doc.Find(`[data-testid="field-error"][data-field="` + field + `"]`).Text()
	}
	if errOf(doc, "title") != "O título deve ter pelo menos 2 caracteres." || errOf(doc, "unit_price") != "Informe o preço em reais, como 29,90." {
		t.Errorf("errors %q / %q", errOf(doc, "title"), errOf(doc, "unit_price"))
	}
	if doc.Find(`#p-unit_price`).AttrOr("value", "") != "dez" || doc.Find(`#p-title`).AttrOr("aria-invalid", "") != "true" {
		t.Error("the typed values or aria-invalid were lost")
	}
	res, _ = b.post("/dashboard/products", url.Values{"title": {"Agenda 2027"}, "unit_price": {"39,90"}})
	if res.StatusCode != http.StatusForbidden {
		t.Errorf("a product form without the token: %d", res.StatusCode)
	}
	res = b.do(http.MethodPost, "/dashboard/products", url.Values{"csrf_token": {tok}, "title": {"Agenda 2027 capa dura"},
		"description": {"Capa dura, 200 páginas."}, "unit_price": {"1.039,90"}, "physical": {"true"}, "active": {"true"}})
	res.Body.Close()
	if loc := e.location(res); loc != "/dashboard/products?done=created" {
		t.Fatalf("after creating: %q", loc)
	}
	_, doc = b.get("/dashboard/products?done=created")
	row := doc.Find(`[data-testid="product-row"][data-id="agenda-2027-capa-dura"]`)
	if row.Length() != 1 || !strings.Contains(row.Text(), "R$ 1.039,90") || doc.Find(testid("notice")).Text() == "" {
		t.Fatalf("the new product's row: %q", row.Text())
	}
	_, shop := e.get("/")
	if !strings.Contains(shop.Find(testid("product-card")).Text(), "Agenda 2027 capa dura") {
		t.Error("the shop does not sell the new product")
	}
	// Edit: the form shows the price as typed in reais; a new price reaches the cart.
	_, doc = b.get("/dashboard/products/agenda-2027-capa-dura")
	if v := doc.Find(`#p-unit_price`).AttrOr("value", ""); v != "1039,90" {
		t.Errorf("the edit form shows the price as %q", v)
	}
	res = b.do(http.MethodPost, "/dashboard/products/agenda-2027-capa-dura", url.Values{"csrf_token": {tok},
		"title": {"Agenda 2027 capa dura"}, "unit_price": {"49,9"}, "physical": {"true"}, "active": {"true"}})
	res.Body.Close()
	if loc := e.location(res); loc != "/dashboard/products?done=saved" {
		t.Fatalf("after saving: %q", loc)
	}
	cart := e.newCart("agenda-2027-capa-dura", "2")
	if _, doc := e.get(cart); !strings.Contains(doc.Find(testid("cart-total")).Text(), "99,80") {
		t.Errorf("cart total %q after the price change", doc.Find(testid("cart-total")).Text())
	}
	// Deactivate: out of the shop, still listed for the merchant.
	res = b.do(http.MethodPost, "/dashboard/products/agenda-2027-capa-dura/active", url.Values{"csrf_token": {tok}, "active": {"false"}})
	res.Body.Close()
	if loc := e.location(res); loc != "/dashboard/products?done=deactivated" {
		t.Fatalf("after deactivating: %q", loc)
	}
	if _, shop := e.get("/"); strings.Contains(shop.Text(), "Agenda 2027 capa dura") {
		t.Error("a deactivated product is still in the shop")
	}
	_, doc = b.get("/dashboard/products")
	if doc.Find(`[data-testid="product-row"][data-id="agenda-2027-capa-dura"] [data-testid="activate"]`).Length() != 1 {
		t.Error("the deactivated product cannot be reactivated from its row")
	}
	if res, _ := b.get("/dashboard/products/no-such"); res.StatusCode != http.StatusNotFound {
		t.Errorf("unknown product: %d", res.StatusCode)
	}
}
