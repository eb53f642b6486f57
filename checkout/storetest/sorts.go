package storetest

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// testOrderSorts: each sort lists every order once in its order (ties on the amount broken by
// id), page by page forward by key and back again, with a status filter (which reads each
// status's rows apart and merges them) as without, and Orders keeps the same order.
func testOrderSorts(t *testing.T, s checkout.Store) {
	ctx := context.Background()
	hour := func(n int) time.Time { return base.Add(time.Duration(n) * time.Hour) }
	// Seven orders, two pairs of equal amounts; three paid.
	amounts := []checkout.Cents{500, 1200, 500, 9900, 1200, 300, 7000}
	var all []checkout.OrderSummary
	for i, a := range amounts {
		paid := time.Time{}
		if i%2 == 1 {
			paid = hour(i).Add(time.Minute)
		}
		o := reportOrder(t, s, hour(i), a, "Cliente", "c@example.com", "52998224725", paid)
		all = append(all, checkout.OrderSummary{ID: o.ID, Amount: a, CreatedAt: o.CreatedAt, Status: o.Status})
	}
	key := func(o checkout.OrderSummary) checkout.OrderKey {
		return checkout.OrderKey{CreatedAt: o.CreatedAt, Amount: o.Amount, ID: o.ID}
	}
	// want is the list's order, as the sort defines it.
	want := func(sort checkout.OrderSort, keep func(checkout.OrderSummary) bool) []string {
		rows := slices.Clone(all)
		rows = slices.DeleteFunc(rows, func(o checkout.OrderSummary) bool { return !keep(o) })
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
		ids := make([]string, len(rows))
		for i, o := range rows {
			ids[i] = o.ID
		}
		return ids
	}
	everything := func(checkout.OrderSummary) bool { return true }
	paidOnly := func(o checkout.OrderSummary) bool { return o.Status == checkout.StatusPaid }
	for _, sort := range checkout.OrderSorts() {
		for _, tc := range []struct {
			name     string
			statuses []checkout.OrderStatus
			keep     func(checkout.OrderSummary) bool
		}{
			{"all", nil, everything},
			{"paid", []checkout.OrderStatus{checkout.StatusPaid}, paidOnly},
			{"paid or pending", []checkout.OrderStatus{checkout.StatusPaid, checkout.StatusPending}, everything},
		} {
			exp := want(sort, tc.keep)
			// Forward, two at a time, each page from the cursor of the last.
			var got []string
			var pages [][]string
			c := checkout.Cursor{Sort: sort}
			for range len(all) {
				rows, total, err := s.OrderSummaries(ctx, checkout.OrderFilter{Statuses: tc.statuses, Sort: sort, Page: c, Limit: 3})
				if err != nil {
					t.Fatalf("%s, %s: %v", sort, tc.name, err)
				}
				if total != len(exp) {
					t.Errorf("%s, %s: total %d, want %d", sort, tc.name, total, len(exp))
				}
				page, next, _ := checkout.Paged(rows, 2, c, key)
				var ids []string
				for _, o := range page {
					ids = append(ids, o.ID)
				}
				got, pages = append(got, ids...), append(pages, ids)
				if next.Key.IsZero() {
					break
				}
				if next.Sort != sort {
					t.Fatalf("%s: the next cursor's sort is %q", sort, next.Sort)
				}
				// Through the URL's token, as the dashboard pages.
				if c, err = checkout.ParseCursor(next.String()); err != nil {
					t.Fatal(err)
				}
			}
			if !slices.Equal(got, exp) {
				t.Errorf("%s, %s: paged forward %v, want %v", sort, tc.name, got, exp)
			}
			// Backward from the last page's first row: the page before it.
			if len(pages) > 1 {
				last := pages[len(pages)-1]
				var first checkout.OrderSummary
				for _, o := range all {
					if o.ID == last[0] {
						first = o
					}
				}
				c := checkout.Cursor{Key: key(first), Backward: true, Sort: sort}
				rows, _, err := s.OrderSummaries(ctx, checkout.OrderFilter{Statuses: tc.statuses, Sort: sort, Page: c, Limit: 3})
				must(t, err)
				page, _, _ := checkout.Paged(rows, 2, c, key)
				var ids []string
				for _, o := range page {
					ids = append(ids, o.ID)
				}
				if before := pages[len(pages)-2]; !slices.Equal(ids, before) {
					t.Errorf("%s, %s: the page before the last %v, want %v", sort, tc.name, ids, before)
				}
			}
		}
		os, err := s.Orders(ctx, checkout.OrderFilter{Sort: sort, Limit: len(all)})
		must(t, err)
		var ids []string
		for _, o := range os {
			ids = append(ids, o.ID)
		}
		if exp := want(sort, everything); !slices.Equal(ids, exp) {
			t.Errorf("Orders, %s: %v, want %v", sort, ids, exp)
		}
	}
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
