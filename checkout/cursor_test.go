package checkout_test

import (
	"slices"
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
