package dashboard

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/views"
)

// TestDatePresets: the presets are São Paulo days (UTC-3): late evening there is still the
// day before in UTC terms' next day, and the month's edges (the first, the last, January's
// "last month" in the year before, February of a leap year) fall where a merchant expects.
func TestDatePresets(t *testing.T) {
	for _, tc := range []struct {
		name string
		now  time.Time
		want map[string][2]string
	}{
		{"02:30 UTC on Dec 1st is still Nov 30th in São Paulo", time.Date(2026, 12, 1, 2, 30, 0, 0, time.UTC), map[string][2]string{
			"today": {"2026-11-30", "2026-11-30"}, "7d": {"2026-11-24", "2026-11-30"},
			"month": {"2026-11-01", "2026-11-30"}, "last_month": {"2026-10-01", "2026-10-31"}}},
		{"03:00 UTC on Dec 1st is midnight there: December", time.Date(2026, 12, 1, 3, 0, 0, 0, time.UTC), map[string][2]string{
			"today": {"2026-12-01", "2026-12-01"}, "7d": {"2026-11-25", "2026-12-01"},
			"month": {"2026-12-01", "2026-12-01"}, "last_month": {"2026-11-01", "2026-11-30"}}},
		{"January: last month is the year before's December", time.Date(2027, 1, 3, 15, 0, 0, 0, time.UTC), map[string][2]string{
			"today": {"2027-01-03", "2027-01-03"}, "7d": {"2026-12-28", "2027-01-03"},
			"month": {"2027-01-01", "2027-01-03"}, "last_month": {"2026-12-01", "2026-12-31"}}},
		{"March after a leap February", time.Date(2028, 3, 31, 23, 59, 0, 0, time.UTC), map[string][2]string{
			"today": {"2028-03-31", "2028-03-31"}, "7d": {"2028-03-25", "2028-03-31"},
			"month": {"2028-03-01", "2028-03-31"}, "last_month": {"2028-02-01", "2028-02-29"}}},
	} {
		got := datePresets(tc.now)
		if len(got) != len(presetKeys) {
			t.Fatalf("%s: %d presets", tc.name, len(got))
		}
		for i, p := range got {
			if p.Key != presetKeys[i] {
				t.Errorf("%s: preset %d is %s, want %s", tc.name, i, p.Key, presetKeys[i])
			}
			if w := tc.want[p.Key]; p.From != w[0] || p.To != w[1] {
				t.Errorf("%s: %s is %s to %s, want %s to %s", tc.name, p.Key, p.From, p.To, w[0], w[1])
			}
		}
	}
}

// TestPresetLinks: a preset's link keeps the other filters and the sort, sets the list's own
// date parameters, drops the page and the cursor (a new range starts at its first page), and
// the preset the URL holds is the current one.
func TestPresetLinks(t *testing.T) {
	now := time.Date(2026, 11, 25, 15, 0, 0, 0, time.UTC)
	q := url.Values{"status": {"paid", "expired"}, "sort": {"amount_desc"}, "cursor": {"abc"}, "from": {"2026-11-25"}, "to": {"2026-11-25"}}
	links := presetLinks(now, "/dashboard/orders", q, paramFrom, paramTo)
	for _, l := range links {
		u, err := url.Parse(l.URL)
		if err != nil {
			t.Fatal(err)
		}
		v := u.Query()
		if u.Path != "/dashboard/orders" || len(v["status"]) != 2 || v.Get("sort") != "amount_desc" || v.Has("cursor") || v.Get("from") == "" || v.Get("to") == "" {
			t.Errorf("%s: %s", l.Key, l.URL)
		}
		if l.Current != (l.Key == "today") {
			t.Errorf("%s: current %v", l.Key, l.Current)
		}
	}
	g := presetLinks(now, "/dashboard/deposits", url.Values{"page": {"3"}}, paramStartDate, paramEndDate)
	if u, _ := url.Parse(g[1].URL); u.Query().Get("startDate") != "2026-11-19" || u.Query().Get("endDate") != "2026-11-25" || u.Query().Has("page") {
		t.Errorf("the gateway lists' 7 days: %s", g[1].URL)
	}
}

// TestActiveFilters: each status ticked and each filter with a value counts; paging, page
// size and sort do not.
func TestActiveFilters(t *testing.T) {
	q := url.Values{"status": {"PAID,REFUNDED"}, "minAmount": {"10"}, "maxAmount": {" "}, "page": {"2"}, "perPage": {"50"}, "lang": {"en"}}
	if n := activeFilters(q, depositParams); n != 3 {
		t.Errorf("deposits: %d, want 3", n)
	}
	if n := activeFilters(url.Values{"q": {"ana"}, "sort": {"amount_asc"}, "cursor": {"x"}}, orderParams); n != 1 {
		t.Errorf("orders: %d, want 1", n)
	}
}

// TestOrderSortQuery: the sort is read from the URL into the filter and the cursor; an unknown
// sort is an error of the sort field whose message names the field; a cursor made in another
// sort is refused rather than read in this one's terms.
func TestOrderSortQuery(t *testing.T) {
	_, f, _, errs := parseOrderQuery("sort=amount_asc")
	if len(errs.Violations) != 0 || f.Sort != checkout.SortAmountAsc || f.Page.Sort != checkout.SortAmountAsc {
		t.Errorf("amount_asc: %+v, %v", f.Sort, errs)
	}
	if _, f, _, errs := parseOrderQuery(""); len(errs.Violations) != 0 || f.Sort != checkout.SortCreatedDesc {
		t.Errorf("the default: %q, %v", f.Sort, errs)
	}
	_, _, _, errs = parseOrderQuery("sort=preco")
	v, ok := firstFor(errs, paramSort)
	if !ok || !strings.Contains(v.Message, "sort must be one of") {
		t.Fatalf("an unknown sort: %v", errs)
	}
	if msg := orderFilterMessage(views.PtBR, paramSort, v); !strings.HasPrefix(msg, "Ordenar por:") {
		t.Errorf("the message does not name the field: %q", msg)
	}
	c := checkout.Cursor{Key: checkout.OrderKey{Amount: 500, ID: "o1"}, Sort: checkout.SortAmountDesc}
	if _, _, _, errs := parseOrderQuery("sort=amount_desc&cursor=" + c.String()); len(errs.Violations) != 0 {
		t.Errorf("a cursor of its sort: %v", errs)
	}
	if _, _, _, errs := parseOrderQuery("sort=amount_asc&cursor=" + c.String()); errs.Code(paramCursor) == "" {
		t.Errorf("a cursor of another sort was read: %v", errs)
	}
}

// firstFor returns the first violation of field in ve.
func firstFor(ve *checkout.ValidationError, field string) (checkout.Violation, bool) {
	vs := ve.For(field)
	if len(vs) == 0 {
		return checkout.Violation{}, false
	}
	return vs[0], true
}
