package checkout

import "fmt"

// OrderSort is the order of the merchant's order list: by creation time or by amount, each
// either way, ties broken by id. Each is served by an index (created_at, id; amount, id; and
// the same after status), so that a page costs the same whatever the sort and its depth.
type OrderSort string

// The sorts of the order list; SortCreatedDesc, newest first, is the default.
const (
	SortCreatedDesc OrderSort = "created_desc"
	SortCreatedAsc  OrderSort = "created_asc"
	SortAmountDesc  OrderSort = "amount_desc"
	SortAmountAsc   OrderSort = "amount_asc"
)

// OrderSorts returns every sort, the default first.
func OrderSorts() []OrderSort {
	return []OrderSort{SortCreatedDesc, SortCreatedAsc, SortAmountDesc, SortAmountAsc}
}

// ErrUnknownSort is the error of a sort that is none of OrderSorts.
var ErrUnknownSort = fmt.Errorf("sort must be one of %s, %s, %s, %s", SortCreatedDesc, SortCreatedAsc, SortAmountDesc, SortAmountAsc)

// ParseOrderSort reads a sort as a URL spells it; "" is the default, newest first.
func ParseOrderSort(s string) (OrderSort, error) {
	if s == "" {
		return SortCreatedDesc, nil
	}
	for _, o := range OrderSorts() {
		if string(o) == s {
			return o, nil
		}
	}
	return "", fmt.Errorf("%w (not %q)", ErrUnknownSort, s)
}

// Or returns s, or the default sort when s is empty.
func (s OrderSort) Or() OrderSort {
	if s == "" {
		return SortCreatedDesc
	}
	return s
}

// ByAmount reports whether s sorts by amount (else by creation time).
func (s OrderSort) ByAmount() bool { return s == SortAmountDesc || s == SortAmountAsc }

// Descending reports whether s lists the largest (or newest) first.
func (s OrderSort) Descending() bool { return s.Or() == SortCreatedDesc || s == SortAmountDesc }
