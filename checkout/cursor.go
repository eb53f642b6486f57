package checkout

import (
	"encoding/base64"
	"errors"
	"strconv"
	"strings"
	"time"
)

// Lists of orders are paged by key (keyset pagination), not by offset: a page is the orders
// after (or before) the last (or first) order of the page seen, in the list's order (newest
// first by default: by creation time, then by id; see OrderSort for the others). A page stays
// what it is while orders arrive or change status (an offset would repeat rows, or skip some),
// and the database finds it through an index on (created_at, id) — (amount, id) for the sorts
// by amount — whatever its depth, where an offset reads every row before it.

// OrderKey is an order's place in the lists: its creation time and id, and its amount for the
// sorts by amount.
type OrderKey struct {
	CreatedAt time.Time
	Amount    Cents
	ID        string
}

// IsZero reports whether k is no key (the list's start).
func (k OrderKey) IsZero() bool { return k.ID == "" }

// KeyOf returns the key of the order placed at created with id.
func KeyOf(created time.Time, id string) OrderKey { return OrderKey{CreatedAt: created, ID: id} }

// Cursor is where a page of an order list starts: after a key (the next orders in the list's
// order) or, Backward, before it (the previous ones). Sort is the list's order the key was
// taken in (empty: the default, newest first): a cursor of one sort means nothing in another.
type Cursor struct {
	Key      OrderKey
	Backward bool
	Sort     OrderSort
}

// String encodes c as an opaque token for a URL (base64url of the direction, the sort unless
// it is the default, the key's time in Unix milliseconds or its amount in cents, and its id).
// The default sort's tokens are those made before there were sorts.
func (c Cursor) String() string {
	dir := "a"
	if c.Backward {
		dir = "b"
	}
	value := strconv.FormatInt(c.Key.CreatedAt.UnixMilli(), 10)
	if c.Sort.ByAmount() {
		value = strconv.FormatInt(int64(c.Key.Amount), 10)
	}
	if s := c.Sort.Or(); s != SortCreatedDesc {
		dir += ":" + string(s)
	}
	return base64.RawURLEncoding.EncodeToString([]byte(dir + "." + value + "." + c.Key.ID))
}

// ErrBadCursor is the error of a cursor that does not parse.
var ErrBadCursor = errors.New("not a cursor of this list")

// ParseCursor reads a token made by Cursor.String.
func ParseCursor(s string) (Cursor, error) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(s) > 200 {
		return Cursor{}, ErrBadCursor
	}
	parts := strings.SplitN(string(b), ".", 3)
	if len(parts) != 3 || parts[2] == "" {
		return Cursor{}, ErrBadCursor
	}
	dir, sortName, sorted := strings.Cut(parts[0], ":")
	if dir != "a" && dir != "b" {
		return Cursor{}, ErrBadCursor
	}
	sort := SortCreatedDesc
	if sorted {
		s, err := ParseOrderSort(sortName)
		if err != nil || s == SortCreatedDesc { // the default is written without its name
			return Cursor{}, ErrBadCursor
		}
		sort = s
	}
	n, err := strconv.ParseInt(parts[1], 10, 64)
	if err != nil || n < 0 {
		return Cursor{}, ErrBadCursor
	}
	c := Cursor{Key: OrderKey{ID: parts[2]}, Backward: dir == "b", Sort: sort}
	if sort.ByAmount() {
		c.Key.Amount = Cents(n)
	} else {
		c.Key.CreatedAt = time.UnixMilli(n).UTC()
	}
	return c, nil
}

// MaxCounted is where the lists stop counting their matches: past it they say "more than
// 10,000" rather than read every matching row for an exact figure nobody needs.
const MaxCounted = 10_000

// Paged cuts a page of perPage rows out of rows, read from c with one more than perPage (Limit
// perPage+1) and listed in the list's order (newest first by default), and returns the cursors of the pages beside it (a zero
// key: none). The extra row, when there, says that more follow in the direction of travel: it
// is the last row going forward and the first going backward. The page a cursor came from is
// beside the page it leads to, the other way.
func Paged[T any](rows []T, perPage int, c Cursor, key func(T) OrderKey) (page []T, next, prev Cursor) {
	more := len(rows) > perPage
	back := c.Backward && !c.Key.IsZero() // no key: the list's start, read forward
	switch {
	case !more:
		page = rows
	case back:
		page = rows[len(rows)-perPage:]
	default:
		page = rows[:perPage]
	}
	if len(page) == 0 {
		return page, Cursor{}, Cursor{}
	}
	older, newer := more, !c.Key.IsZero()
	if back {
		older, newer = true, more
	}
	if older {
		next = Cursor{Key: key(page[len(page)-1]), Sort: c.Sort}
	}
	if newer {
		prev = Cursor{Key: key(page[0]), Backward: true, Sort: c.Sort}
	}
	return page, next, prev
}
