package checkout

import (
	"encoding/base64"
	"errors"
	"strconv"
	"strings"
	"time"
)

// Lists of orders are paged by key (keyset pagination), not by offset: a page is the orders
// after (or before) the last (or first) order of the page seen, in the list's order, newest
// first: by creation time, then by id. A page stays what it is while orders arrive or change
// status (an offset would repeat rows, or skip some), and the database finds it through an
// index on (created_at, id) whatever its depth, where an offset reads every row before it.

// OrderKey is an order's place in the lists.
type OrderKey struct {
	CreatedAt time.Time
	ID        string
}

// IsZero reports whether k is no key (the list's start).
func (k OrderKey) IsZero() bool { return k.ID == "" }

// KeyOf returns the key of the order placed at created with id.
func KeyOf(created time.Time, id string) OrderKey { return OrderKey{CreatedAt: created, ID: id} }

// Cursor is where a page of an order list starts: after a key (the next, older orders) or,
// Backward, before it (the previous, newer ones).
type Cursor struct {
	Key      OrderKey
	Backward bool
}

// String encodes c as an opaque token for a URL (base64url of the direction, the key's time in
// Unix milliseconds and its id).
func (c Cursor) String() string {
	dir := "a"
	if c.Backward {
		dir = "b"
	}
	return base64.RawURLEncoding.EncodeToString([]byte(dir + "." + strconv.FormatInt(c.Key.CreatedAt.UnixMilli(), 10) + "." + c.Key.ID))
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
	if len(parts) != 3 || (parts[0] != "a" && parts[0] != "b") || parts[2] == "" {
		return Cursor{}, ErrBadCursor
	}
	ms, err := strconv.ParseInt(parts[1], 10, 64)
	if err != nil || ms < 0 {
		return Cursor{}, ErrBadCursor
	}
	return Cursor{Key: OrderKey{CreatedAt: time.UnixMilli(ms).UTC(), ID: parts[2]}, Backward: parts[0] == "b"}, nil
}

// MaxCounted is where the lists stop counting their matches: past it they say "more than
// 10,000" rather than read every matching row for an exact figure nobody needs.
const MaxCounted = 10_000

// CutPage cuts a page of perPage rows out of rows read with one more than perPage (Limit
// perPage+1) in the direction of c, newest first either way: the extra row, when there, is the
// last one going forward and the first one going backward. more reports that it was there:
// another page follows in that direction.
func CutPage[T any](rows []T, perPage int, backward bool) (page []T, more bool) {
	if len(rows) <= perPage {
		return rows, false
	}
	if backward {
		return rows[len(rows)-perPage:], true
	}
	return rows[:perPage], true
}
