package views

import (
	"github.com/a-h/templ"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// FilterBar is what a list's compact filter bar shows besides its inputs: the date presets
// and how many filters are on (the phone's "Filtros (N)").
type FilterBar struct {
	Presets []PresetLink
	Active  int
}

// PresetLink is a date preset of a list (Key: today, 7d, month, last_month): a link setting
// the list's dates; Current when the list shows those days.
type PresetLink struct {
	Key     string
	URL     string
	Current bool
}

// ColumnSort is a sortable column's header: the link that sorts by it (the other way when it
// is the current sort) and the current direction ("ascending", "descending"; "" when the list
// is not sorted by it), for aria-sort.
type ColumnSort struct {
	URL string
	Dir string
}

// currentAttrs marks the link of what the list shows now (aria-current="true"); nothing
// otherwise (an empty aria-current would still match the CSS that marks the current link).
func currentAttrs(current bool) templ.Attributes {
	if current {
		return templ.Attributes{"aria-current": "true"}
	}
	return templ.Attributes{}
}

// filtersSummary is the phone's disclosure of the filters: "Filtros", or "Filtros (N)".
func filtersSummary(p DashPage, active int) string {
	if active == 0 {
		return p.t("bar.filters")
	}
	return p.t("bar.filters_n", active)
}

// anyValue reports whether one of names has a value or an error in values or errs: the "more
// filters" disclosure then starts open, so that nothing on is hidden.
func anyValue(values map[string]string, errs *checkout.ValidationError, names ...string) bool {
	for _, n := range names {
		if values[n] != "" || errs.Has(n) {
			return true
		}
	}
	return false
}

// anyChecked reports whether one of opts outside the bar's chips is checked.
func anyChecked(opts []Option) bool {
	for _, o := range opts {
		if o.Checked && !o.Chip {
			return true
		}
	}
	return false
}

// chipLabel is an option's label on a chip: its short form when it has one.
func chipLabel(o Option) string {
	if o.Short != "" {
		return o.Short
	}
	return o.Label
}

// presetKeys are the catalogue keys of the date presets' names.
var presetKeys = map[string]string{
	"today":      "bar.preset.today",
	"7d":         "bar.preset.7d",
	"month":      "bar.preset.month",
	"last_month": "bar.preset.last_month",
	"due_today":  "charges.preset.due_today",
	"overdue":    "charges.preset.overdue",
	"due_7d":     "charges.preset.due_7d",
}

// presetName is a date preset's name in the reader's language.
func presetName(p DashPage, key string) string {
	if k, ok := presetKeys[key]; ok {
		return p.t(k)
	}
	return key
}

// Column is a list table's column header: its label, and whether it holds amounts or counts
// (aligned right).
type Column struct {
	Label string
	Num   bool
}

// col is the header of a list table's column of text, from its catalogue key; numCol, of a
// column of amounts or counts.
func (p DashPage) col(key string) Column    { return Column{Label: p.t(key)} }
func (p DashPage) numCol(key string) Column { return Column{Label: p.t(key), Num: true} }
