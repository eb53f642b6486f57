package views

import (
	"strings"
	"time"
)

// ExcelURL is the Excel format of the export at csvURL (the same filter, format=excel).
func ExcelURL(csvURL string) string {
	if strings.Contains(csvURL, "?") {
		return csvURL + "&format=excel"
	}
	return csvURL + "?format=excel"
}

// XLSXURL is the .xlsx export beside a CSV export's URL: the same query, the path's ".csv"
// made ".xlsx".
func XLSXURL(csvURL string) string {
	path, query, ok := strings.Cut(csvURL, "?")
	path = strings.TrimSuffix(path, ".csv") + ".xlsx"
	if ok {
		return path + "?" + query
	}
	return path
}

// MyExports leads a list page to the user's background exports: the page of all of them,
// and those running or ready now.
type MyExports struct {
	URL  string // "" when the user has none to have
	Jobs []ExportJobView
}

// ExportJobView is one background export of the user.
type ExportJobView struct {
	URL         string // its page
	DownloadURL string // its file, once ready
	Kind        string // deposits, withdrawals
	Format      string // csv, excel
	State       string // running, ready, failed
	Error       string // why it failed: interrupted, source, store
	Rows, Total int
	Size        int64
	CreatedAt   time.Time
	ExpiresAt   time.Time // when its file is removed (zero while running)
}

// ExportJobPage is a background export's page: its progress while it runs (the page
// refreshes itself), its download when ready.
type ExportJobPage struct {
	DashPage
	Job       ExportJobView
	ListURL   string // the user's exports
	BackURL   string // the list it exports
	AgainURL  string // the same export asked again (offered when it failed)
	Refresh   int    // seconds between refreshes while running (0: none)
	Threshold int    // the most rows an export streams at once
}

// ExportsView lists the user's background exports of the last day.
type ExportsView struct {
	DashPage
	Jobs      []ExportJobView
	Threshold int
	Failed    string
}

// exportPercent is how far a running export is, in whole percent of its total.
func exportPercent(j ExportJobView) int {
	if j.Total <= 0 {
		return 0
	}
	return min(100, j.Rows*100/j.Total)
}

// exportTitle names an export: "Depósitos (Excel)".
func exportTitle(p DashPage, j ExportJobView) string {
	return enumText(p.Lang, "export.kind.", j.Kind) + " (" + enumText(p.Lang, "export.format.", j.Format) + ")"
}

// fileSize is a size in bytes for people: "3,4 MB".
func fileSize(lang Lang, n int64) string {
	if n < 1_000_000 {
		return FormatCount(lang, int((n+999)/1000)) + " kB"
	}
	tenths := (n + 50_000) / 100_000
	sep := ","
	if lang.norm() == En {
		sep = "."
	}
	return FormatCount(lang, int(tenths/10)) + sep + string(rune('0'+tenths%10)) + " MB"
}

// exportTone is the colour family of an export's state badge.
func exportTone(state string) string {
	switch state {
	case "ready":
		return "ok"
	case "failed":
		return "bad"
	}
	return "wait"
}
