package checkout_test

import (
	"encoding/base64"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// TestCursorRoundTrip: a cursor reads back as it was made, to the millisecond; tokens that
// were not made by String are refused.
func TestCursorRoundTrip(t *testing.T) {
	at := time.Date(2026, 3, 14, 12, 0, 0, 123_000_000, time.UTC)
	for _, c := range []checkout.Cursor{{Key: checkout.KeyOf(at, "ord.with.dots")}, {Key: checkout.KeyOf(at, "x"), Backward: true}} {
		got, err := checkout.ParseCursor(c.String())
		if err != nil || got.Backward != c.Backward || got.Key.ID != c.Key.ID || !got.Key.CreatedAt.Equal(at) {
			t.Errorf("%+v: read back %+v, %v", c, got, err)
		}
	}
	for _, bad := range []string{"", "not-base64!", "YS4xMjM", "Yy4xMjMuaWQ", "YS4tMS5pZA", "YS54LmlkYQ"} {
		if _, err := checkout.ParseCursor(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

// TestPaged: the extra row read says that more follow in the direction of travel, and the
// cursors beside the page lead to the rows after its last and before its first.
func TestPaged(t *testing.T) {
	at := time.Unix(0, 0)
	key := func(s string) checkout.OrderKey { return checkout.KeyOf(at, s) }
	from := checkout.Cursor{Key: key("k")}
	for _, tc := range []struct {
		name       string
		rows       []string
		c          checkout.Cursor
		page       []string
		next, prev string // the keys of the cursors; "" for none
	}{
		{"first page, more", []string{"e", "d", "c"}, checkout.Cursor{}, []string{"e", "d"}, "d", ""},
		{"first page, all", []string{"e", "d"}, checkout.Cursor{}, []string{"e", "d"}, "", ""},
		{"after a key, more", []string{"c", "b", "a"}, from, []string{"c", "b"}, "b", "c"},
		{"after a key, the last", []string{"a"}, from, []string{"a"}, "", "a"},
		{"before a key, more", []string{"z", "y", "x"}, checkout.Cursor{Key: key("k"), Backward: true}, []string{"y", "x"}, "x", "y"},
		{"before a key, the first", []string{"y", "x"}, checkout.Cursor{Key: key("k"), Backward: true}, []string{"y", "x"}, "x", ""},
		{"nothing", nil, from, nil, "", ""},
	} {
		page, next, prev := checkout.Paged(tc.rows, 2, tc.c, key)
		if !slices.Equal(page, tc.page) || next.Key.ID != tc.next || prev.Key.ID != tc.prev || next.Backward || tc.prev != "" && !prev.Backward {
			t.Errorf("%s: %v, next %+v, prev %+v; want %v, %q, %q", tc.name, page, next, prev, tc.page, tc.next, tc.prev)
		}
	}
}

// TestCursorCarriesTheSort: a cursor of each sort reads back with its sort and the key's value
// of that sort (the amount for the sorts by amount); the default sort's token is the one made
// before there were sorts, so links made then still work; a token naming no sort, or naming
// the default one, is refused.
func TestCursorCarriesTheSort(t *testing.T) {
	at := time.Date(2026, 3, 14, 12, 0, 0, 5_000_000, time.UTC)
	key := checkout.OrderKey{CreatedAt: at, Amount: 12345, ID: "ord1"}
	for _, s := range checkout.OrderSorts() {
		for _, back := range []bool{false, true} {
			c := checkout.Cursor{Key: key, Backward: back, Sort: s}
			got, err := checkout.ParseCursor(c.String())
			if err != nil || got.Sort != s || got.Backward != back || got.Key.ID != "ord1" {
				t.Fatalf("%s: read back %+v, %v", s, got, err)
			}
			if s.ByAmount() && (got.Key.Amount != 12345 || !got.Key.CreatedAt.IsZero()) ||
				!s.ByAmount() && (!got.Key.CreatedAt.Equal(at) || got.Key.Amount != 0) {
				t.Errorf("%s: key %+v", s, got.Key)
			}
		}
	}
	old := checkout.Cursor{Key: checkout.KeyOf(at, "ord1")}
	if s := old.String(); s != base64.RawURLEncoding.EncodeToString([]byte("a.1773489600005.ord1")) {
		t.Errorf("the default sort's token changed: %s", s)
	}
	for _, bad := range []string{"a:price_desc.1.x", "a:created_desc.1.x", "a:.1.x", "c:amount_asc.1.x", "a:amount_asc.-1.x"} {
		if _, err := checkout.ParseCursor(base64.RawURLEncoding.EncodeToString([]byte(bad))); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

// TestParseOrderSort: the four sorts as the URL spells them, "" the default (newest first),
// anything else an error that names the field and the choices.
func TestParseOrderSort(t *testing.T) {
	for in, want := range map[string]checkout.OrderSort{"": checkout.SortCreatedDesc, "created_desc": checkout.SortCreatedDesc,
		"created_asc": checkout.SortCreatedAsc, "amount_desc": checkout.SortAmountDesc, "amount_asc": checkout.SortAmountAsc} {
		if got, err := checkout.ParseOrderSort(in); err != nil || got != want {
			t.Errorf("%q: %q, %v", in, got, err)
		}
	}
	for _, bad := range []string{"amount", "AMOUNT_ASC", "created_desc ", "price_asc"} {
		_, err := checkout.ParseOrderSort(bad)
		if !errors.Is(err, checkout.ErrUnknownSort) || !strings.Contains(err.Error(), "sort must be one of") || !strings.Contains(err.Error(), bad) {
			t.Errorf("%q: %v", bad, err)
		}
	}
	if !checkout.SortAmountDesc.Descending() || checkout.SortAmountAsc.Descending() || !checkout.OrderSort("").Descending() ||
		checkout.SortCreatedAsc.Descending() || !checkout.SortAmountAsc.ByAmount() || checkout.SortCreatedAsc.ByAmount() {
		t.Error("Descending or ByAmount")
	}
}
