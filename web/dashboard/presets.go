package dashboard

import (
	"net/url"
	"time"

	"github.com/pixcheckout/pixcheckout/views"
)

// The lists' date presets: plain links that set the list's own date parameters (from and to
// on the orders, startDate and endDate on the gateway's lists) to whole São Paulo days, so the
// URL stays the view. A bare date is the whole day on every list: the first instant of the
// first day to the last instant of the last.

// datePreset is a preset's range: its catalogue key and its first and last São Paulo days
// (YYYY-MM-DD).
type datePreset struct {
	Key      string
	From, To string
}

// presetKeys are the presets, in the bar's order.
var presetKeys = []string{"today", "7d", "month", "last_month"}

// datePresets returns the ranges of the presets on the São Paulo day of now: today; the last 7
// days, today included; this month up to today; and the whole of last month.
func datePresets(now time.Time) []datePreset {
	loc := views.SaoPaulo()
	n := now.In(loc)
	today := time.Date(n.Year(), n.Month(), n.Day(), 0, 0, 0, 0, loc)
	first := time.Date(n.Year(), n.Month(), 1, 0, 0, 0, 0, loc)
	day := func(t time.Time) string { return t.Format(time.DateOnly) }
	return []datePreset{
		{Key: "today", From: day(today), To: day(today)},
		{Key: "7d", From: day(today.AddDate(0, 0, -6)), To: day(today)},
		{Key: "month", From: day(first), To: day(today)},
		{Key: "last_month", From: day(first.AddDate(0, -1, 0)), To: day(first.AddDate(0, 0, -1))},
	}
}

// presetLinks makes the presets' links of the list at path: the query with the date
// parameters (fromParam, toParam) set to each preset's days, and without the page or cursor
// (a new range starts at its first page). A preset whose days the query holds is current.
func presetLinks(now time.Time, path string, q url.Values, fromParam, toParam string) []views.PresetLink {
	var out []views.PresetLink
	for _, p := range datePresets(now) {
		v := cloneValues(q)
		v.Del(paramPage)
		v.Del(paramCursor)
		v.Set(fromParam, p.From)
		v.Set(toParam, p.To)
		out = append(out, views.PresetLink{Key: p.Key, URL: withQuery(path, v),
			Current: firstValue(q, fromParam) == p.From && firstValue(q, toParam) == p.To})
	}
	return out
}

// activeFilters counts the filters a query applies (the count the phone's disclosure shows):
// each status or origin checked, and each other filter parameter with a value. Paging, page
// size, sort and language are not filters.
func activeFilters(q url.Values, known map[string]bool) int {
	n := 0
	for name := range known {
		switch name {
		case paramPage, paramPerPage, paramCursor, paramSort:
			continue
		case paramStatus, paramDepositOrigin:
			n += len(listValues(q, name))
		default:
			if firstValue(q, name) != "" {
				n++
			}
		}
	}
	return n
}
