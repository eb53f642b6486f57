package views

import (
	"strings"
	"testing"
)

// TestKeysetPagerSaysMoreThanTheCap: a list paged by key shows no page numbers, and a count
// that stopped at the cap says "more than", in both languages.
func TestKeysetPagerSaysMoreThanTheCap(t *testing.T) {
	for lang, want := range map[Lang][2]string{
		PtBR: {"Mais de 10.000 pedidos encontrados", "25 nesta página"},
		En:   {"More than 10,000 orders found", "25 on this page"},
	} {
		dp := DashPage{Page: page(lang, "/dashboard/orders"), User: "dona@example.com", CSRF: "csrf", Section: "orders"}
		v := OrdersView{DashPage: dp, Pager: Pager{Total: 10_001, Capped: true, Keyset: true, PerPage: 25, Next: "/dashboard/orders?cursor=x"}}
		for range 25 {
			v.Rows = append(v.Rows, OrderRow{ID: "o", Number: "PED-1", Status: "paid"})
		}
		r := render(t, OrdersPage(v))
		if got := strings.TrimSpace(r.one(t, "results-count").Text()); got != want[0] {
			t.Errorf("%s: count %q, want %q", lang, got, want[0])
		}
		pg := r.one(t, "pagination")
		if s := pg.Find(".pager-status").Text(); !strings.Contains(s, want[1]) || strings.Contains(s, "Página") || strings.Contains(s, "Page ") {
			t.Errorf("%s: pager %q, want %q and no page number", lang, s, want[1])
		}
		if _, ok := pg.Attr("data-capped"); !ok {
			t.Errorf("%s: no data-capped", lang)
		}
	}
}
