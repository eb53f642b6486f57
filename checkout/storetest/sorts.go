package storetest

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// sortOrders are the orders the sorts' steps share: seven, two pairs of equal amounts, three paid.
type sortOrders struct {
	s   checkout.Store
	all []checkout.OrderSummary
}

// sortCase is a filter of statuses, and which of the orders it keeps.
type sortCase struct {
	name     string
	statuses []checkout.OrderStatus
	keep     func(checkout.OrderSummary) bool
}

func sortKey(o checkout.OrderSummary) checkout.OrderKey {
	return checkout.OrderKey{CreatedAt: o.CreatedAt, Amount: o.Amount, ID: o.ID}
}

func summaryIDs(rows []checkout.OrderSummary) []string {
	ids := make([]string, len(rows))
	for i, o := range rows {
		ids[i] = o.ID
	}
	return ids
}

// testOrderSorts: each sort lists every order once in its order (ties on the amount broken by
// id), page by page forward by key and back again, with a status filter (which reads each
// status's rows apart and merges them) as without, and Orders keeps the same order.
func testOrderSorts(t *testing.T, s checkout.Store) {
	r := &sortOrders{s: s}
	for i, a := range []checkout.Cents{500, 1200, 500, 9900, 1200, 300, 7000} {
		paid := time.Time{}
		if i%2 == 1 {
			paid = base.Add(time.Duration(i)*time.Hour + time.Minute)
		}
		o := reportOrder(t, s, base.Add(time.Duration(i)*time.Hour), a, "Cliente", "c@example.com", "52998224725", paid)
		r.all = append(r.all, checkout.OrderSummary{ID: o.ID, Amount: a, CreatedAt: o.CreatedAt, Status: o.Status})
	}
	everything := func(checkout.OrderSummary) bool { return true }
	cases := []sortCase{
		{"all", nil, everything},
		{"paid", []checkout.OrderStatus{checkout.StatusPaid}, func(o checkout.OrderSummary) bool { return o.Status == checkout.StatusPaid }},
		{"paid or pending", []checkout.OrderStatus{checkout.StatusPaid, checkout.StatusPending}, everything},
	}
	for _, sort := range checkout.OrderSorts() {
		t.Run(string(sort), func(t *testing.T) {
			for _, tc := range cases {
				r.testPages(t, sort, tc)
			}
			os, err := s.Orders(context.Background(), checkout.OrderFilter{Sort: sort, Limit: len(r.all)})
			must(t, err)
			var ids []string
			for _, o := range os {
				ids = append(ids, o.ID)
			}
			same(t, "Orders", ids, r.want(sort, everything))
		})
	}
}

// want is the list's order, as the sort defines it.
func (r *sortOrders) want(sort checkout.OrderSort, keep func(checkout.OrderSummary) bool) []string {
	rows := slices.DeleteFunc(slices.Clone(r.all), func(o checkout.OrderSummary) bool { return !keep(o) })
	slices.SortFunc(rows, func(a, b checkout.OrderSummary) int {
		c := a.CreatedAt.Compare(b.CreatedAt)
		if sort.ByAmount() {
			c = int(a.Amount - b.Amount)
		}
		if c == 0 {
			c = compareStrings(a.ID, b.ID)
		}
		if sort.Descending() {
			c = -c
		}
		return c
	})
	return summaryIDs(rows)
}

// page reads the page of two from the cursor c, and the cursor after it.
func (r *sortOrders) page(t *testing.T, tc sortCase, c checkout.Cursor) ([]string, checkout.Cursor, int) {
	t.Helper()
	rows, total, err := r.s.OrderSummaries(context.Background(), checkout.OrderFilter{Statuses: tc.statuses, Sort: c.Sort, Page: c, Limit: 3})
	must(t, err)
	page, next, _ := checkout.Paged(rows, 2, c, sortKey)
	return summaryIDs(page), next, total
}

// testPages: forward, two at a time, each page from the cursor of the last (through the URL's
// token, as the dashboard pages); then backward from the last page's first row: the page before it.
func (r *sortOrders) testPages(t *testing.T, sort checkout.OrderSort, tc sortCase) {
	exp := r.want(sort, tc.keep)
	var got []string
	var pages [][]string
	c := checkout.Cursor{Sort: sort}
	for range len(r.all) {
		ids, next, total := r.page(t, tc, c)
		same(t, tc.name+": total", total, len(exp))
		got, pages = append(got, ids...), append(pages, ids)
		if next.Key.IsZero() {
			break
		}
		var err error
		c, err = checkout.ParseCursor(next.String())
		must(t, err)
		same(t, tc.name+": the next cursor's sort", c.Sort, sort)
	}
	same(t, tc.name+": paged forward", got, exp)
	if len(pages) < 2 {
		return
	}
	first := r.all[slices.IndexFunc(r.all, func(o checkout.OrderSummary) bool { return o.ID == pages[len(pages)-1][0] })]
	before, _, _ := r.page(t, tc, checkout.Cursor{Key: sortKey(first), Backward: true, Sort: sort})
	same(t, tc.name+": the page before the last", before, pages[len(pages)-2])
}

// compareStrings orders strings as both databases do for ids (bytewise).
func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
