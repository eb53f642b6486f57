package dashboard

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"
)

// fakeRec is a record of fakeList: its createdAt in milliseconds and its id.
type fakeRec struct {
	ms int64
	id string
}

// fakeList is a gateway's list in memory, newest first (ties by id, descending), served
// perPage at a time; exclusive makes endDate exclusive, reversed serves the oldest first,
// ignoreEnd disregards endDate.
type fakeList struct {
	recs                           []fakeRec
	perPage                        int
	exclusive, reversed, ignoreEnd bool
	calls                          int
}

func (l *fakeList) fetch(_ context.Context, end time.Time, page int) ([]fakeRec, int, error) {
	l.calls++
	var match []fakeRec
	for _, r := range l.recs {
		if l.ignoreEnd || r.ms < end.UnixMilli() || r.ms == end.UnixMilli() && !l.exclusive {
			match = append(match, r)
		}
	}
	if l.reversed {
		slices.Reverse(match)
	}
	pages := (len(match) + l.perPage - 1) / l.perPage
	lo := min(len(match), (page-1)*l.perPage)
	hi := min(len(match), lo+l.perPage)
	return slices.Clone(match[lo:hi]), pages, nil
}

// newFakeList makes a list of groups of records sharing one millisecond, newest first, the
// group sizes given oldest first.
func newFakeList(perPage int, groups ...int) *fakeList {
	l := &fakeList{perPage: perPage}
	ms := int64(1_700_000_000_000)
	n := 0
	for _, size := range groups {
		for range size {
			n++
			l.recs = append(l.recs, fakeRec{ms, fmt.Sprintf("r%05d", n)})
		}
		ms += 7
	}
	slices.SortFunc(l.recs, func(a, b fakeRec) int {
		if a.ms != b.ms {
			return int(b.ms - a.ms)
		}
		return -cmpString(a.id, b.id)
	})
	return l
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// readAll drains a cursor over l, ending the list's time at end.
func readAll(l *fakeList, end time.Time) ([]fakeRec, error) {
	c := &csvCursor[fakeRec]{fetch: l.fetch, end: end,
		key: func(r *fakeRec) (time.Time, string) { return time.UnixMilli(r.ms), r.id }}
	var out []fakeRec
	for !c.done {
		items, err := c.next(context.Background())
		if err != nil {
			return out, err
		}
		out = append(out, items...)
		if l.calls > 10_000 {
			return out, errors.New("the cursor loops")
		}
	}
	return out, nil
}

// TestCSVCursor: every record once, in the list's order, whatever the groups of one
// millisecond (split by a page's end, filling whole pages, one record), in about one request
// per page; and the export stops when the gateway does not keep to what the keyset needs.
func TestCSVCursor(t *testing.T) {
	end := time.UnixMilli(1_800_000_000_000)
	for _, groups := range [][]int{
		{1, 1, 1, 1, 1, 1, 1}, {3, 3, 3}, {2, 5, 1, 4, 9, 3, 3, 1}, {10}, {4, 2}, {1}, {}, {3, 1, 7, 2},
	} {
		for _, perPage := range []int{1, 2, 3, 4} {
			l := newFakeList(perPage, groups...)
			got, err := readAll(l, end)
			if err != nil || !slices.Equal(got, l.recs) {
				t.Errorf("groups %v, %d per page: %v, %v\nwant %v", groups, perPage, got, err, l.recs)
			}
			// A page per perPage records, plus one per page boundary inside a group.
			if max := 2*len(l.recs)/perPage + 2; l.calls > max {
				t.Errorf("groups %v, %d per page: %d requests for %d records", groups, perPage, l.calls, len(l.recs))
			}
		}
	}
	for name, spoil := range map[string]func(*fakeList){
		"exclusive endDate": func(l *fakeList) { l.exclusive = true },
		"oldest first":      func(l *fakeList) { l.reversed = true },
		"endDate ignored":   func(l *fakeList) { l.ignoreEnd = true },
	} {
		l := newFakeList(3, 2, 5, 1, 4)
		spoil(l)
		got, err := readAll(l, time.UnixMilli(l.recs[2].ms))
		if !errors.Is(err, errCSVKeyset) {
			t.Errorf("%s: %d records, %v; want errCSVKeyset", name, len(got), err)
		}
	}
}
