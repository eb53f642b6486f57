package dashboard_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

// placeOrderOf buys qty e-books through the shop's pages and returns the order's id.
func (e *env) placeOrderOf(qty string) string {
	e.t.Helper()
	cart := e.newCart("ebook-receitas-do-cerrado", qty)
	_, doc := e.get(cart + "/checkout")
	key, _ := doc.Find(`input[name="request_key"]`).Attr("value")
	return orderID(e.location(e.do(http.MethodPost, cart+"/checkout", url.Values{
		"request_key": {key}, "name": {"Maria da Silva"}, "document": {"529.982.247-25"},
		"email": {"maria@example.com.br"}, "phone": {"(11) 98765-4321"},
	})))
}

// TestDashboardOrderSorts: the sort is in the URL, the Date and Amount headers link to it (the
// other way when it is the current one) with aria-sort, the pages after the first keep it
// through their cursor, a cursor of another sort is refused, and an unknown sort is an error
// beside the sort's select, naming it; the form keeps the sort when filtering.
func TestDashboardOrderSorts(t *testing.T) {
	e, b := signedIn(t)
	one, three, two := e.placeOrderOf("1"), e.placeOrderOf("3"), e.placeOrderOf("2")
	rows := func(doc *goquery.Document) string {
		var ids []string
		doc.Find(testid("order-row")).Each(func(_ int, s *goquery.Selection) { ids = append(ids, s.AttrOr("data-id", "")) })
		return strings.Join(ids, ",")
	}
	for _, tc := range []struct{ sort, want string }{
		{"", two + "," + three + "," + one},
		{"created_desc", two + "," + three + "," + one},
		{"created_asc", one + "," + three + "," + two},
		{"amount_desc", three + "," + two + "," + one},
		{"amount_asc", one + "," + two + "," + three},
	} {
		res, doc := b.get("/dashboard/orders?sort=" + tc.sort)
		if got := rows(doc); res.StatusCode != http.StatusOK || got != tc.want {
			t.Errorf("sort=%s: %d %s, want %s", tc.sort, res.StatusCode, got, tc.want)
		}
		if sel := doc.Find(`select[name="sort"] option[selected]`).AttrOr("value", ""); tc.sort != "" && sel != tc.sort {
			t.Errorf("sort=%s: the form's select holds %q", tc.sort, sel)
		}
	}
	// The headers: by amount, largest first; clicked again, smallest first.
	_, doc := b.get("/dashboard/orders?status=awaiting_payment")
	byAmount := doc.Find(testid("sort-amount")).AttrOr("href", "")
	if byAmount != "/dashboard/orders?sort=amount_desc&status=awaiting_payment" || doc.Find(`th[aria-sort="descending"]`).Text() == "" {
		t.Errorf("the amount header's link %q, or no aria-sort on the date", byAmount)
	}
	_, doc = b.get(byAmount)
	if h := doc.Find(testid("sort-amount")).AttrOr("href", ""); !strings.Contains(h, "sort=amount_asc") ||
		!strings.Contains(doc.Find(`th[aria-sort="descending"]`).Text(), "Valor") {
		t.Errorf("sorted by amount: the header's link %q", h)
	}
	// Pages of one, by amount: the next page's cursor keeps the sort.
	_, doc = b.get("/dashboard/orders?sort=amount_desc&perPage=1")
	var seen []string
	for range 4 {
		seen = append(seen, rows(doc))
		next, ok := doc.Find(testid("page-next")).Attr("href")
		if !ok {
			break
		}
		if !strings.Contains(next, "sort=amount_desc") {
			t.Fatalf("the next page's link drops the sort: %s", next)
		}
		_, doc = b.get(next)
	}
	if got := strings.Join(seen, ","); got != three+","+two+","+one {
		t.Errorf("by amount, a page at a time: %s", got)
	}
	// A cursor of one sort in another: refused.
	_, doc = b.get("/dashboard/orders?sort=amount_desc&perPage=1")
	next, _ := doc.Find(testid("page-next")).Attr("href")
	u, _ := url.Parse(next)
	q := u.Query()
	q.Set("sort", "created_asc")
	if res, doc := b.get("/dashboard/orders?" + q.Encode()); res.StatusCode != http.StatusUnprocessableEntity ||
		doc.Find(`[data-testid="filter-error"][data-param="cursor"]`).Length() != 1 {
		t.Errorf("a cursor of another sort: %d", res.StatusCode)
	}
	// An unknown sort.
	res, doc := b.get("/dashboard/orders?sort=preco")
	msg := doc.Find(`[data-testid="filter-error"][data-param="sort"]`).Text()
	if res.StatusCode != http.StatusUnprocessableEntity || !strings.HasPrefix(msg, "Ordenar por:") ||
		doc.Find(`select#f-sort[aria-invalid="true"][aria-describedby="err-sort"]`).Length() != 1 {
		t.Errorf("sort=preco: %d %q", res.StatusCode, msg)
	}
	if doc.Find(`[data-testid="more-filters"][open]`).Length() != 1 {
		t.Error("the sort's error is hidden in a closed disclosure")
	}
}

// TestDashboardListBar: the bar's presets keep the other filters and set the list's own date
// parameters; the disclosure's summary counts the filters on; the chips are the common states
// and the others are under "more filters"; each row holds one link to its record, with the
// whole id; the gateway's lists say they are newest first.
func TestDashboardListBar(t *testing.T) {
	e, b := signedIn(t)
	e.seed(30, 5)
	_, doc := b.get("/dashboard/deposits?status=PAID&status=BLOCKED&minAmount=10&page=2")
	presets := doc.Find(testid("date-preset"))
	if presets.Length() != 4 {
		t.Fatalf("%d presets", presets.Length())
	}
	presets.Each(func(_ int, s *goquery.Selection) {
		u, err := url.Parse(s.AttrOr("href", ""))
		if err != nil {
			t.Fatal(err)
		}
		q := u.Query()
		if len(q["status"]) != 2 || q.Get("minAmount") != "10" || q.Has("page") || q.Get("startDate") == "" || q.Get("endDate") == "" {
			t.Errorf("preset %s: %s", s.AttrOr("data-preset", ""), u)
		}
	})
	if got := doc.Find(testid("filter-summary")).Text(); got != "Filtros (3)" {
		t.Errorf("the summary %q, want Filtros (3)", got)
	}
	if n := doc.Find(testid("status-chip")).Length(); n != 4 {
		t.Errorf("%d chips", n)
	}
	// BLOCKED is no chip: it is ticked under "more filters", which is therefore open.
	if doc.Find(`[data-testid="more-filters"][open] input[name="status"][value="BLOCKED"][checked]`).Length() != 1 {
		t.Error("BLOCKED is not ticked in an open \"more filters\"")
	}
	_, doc = b.get("/dashboard/deposits")
	if doc.Find(`[data-testid="more-filters"][open]`).Length() != 0 || doc.Find(testid("filter-summary")).Text() != "Filtros" {
		t.Error("without filters, \"more filters\" is open or the summary counts some")
	}
	doc.Find(testid("deposit-row")).Each(func(_ int, s *goquery.Selection) {
		id := s.AttrOr("data-id", "")
		links := s.Find("a")
		if links.Length() != 1 || links.AttrOr("href", "") != "/dashboard/deposits/"+id || strings.TrimSpace(links.Text()) != id ||
			links.AttrOr("title", "") != id {
			t.Errorf("row %s: %d links, %q", id, links.Length(), links.AttrOr("href", ""))
		}
	})
	if !strings.Contains(doc.Find(testid("list-order")).Text(), "Mais recentes primeiro") {
		t.Error("the deposits do not say their order")
	}
	_, doc = b.get("/dashboard/withdrawals?lang=en")
	if !strings.Contains(doc.Find(testid("list-order")).Text(), "Newest first") {
		t.Error("the withdrawals do not say their order")
	}
	if n := doc.Find(testid("withdrawal-row")).First().Find("a").Length(); n != 1 {
		t.Errorf("a withdrawal row has %d links", n)
	}
}
