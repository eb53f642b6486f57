package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"io"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"
)

// backgroundRows is the deposits of the background export's test: one more than the most an
// export streams at once (the dashboard's real threshold, 100,000).
const backgroundRows = 100_001

// TestDashboardBackgroundExport: with 100,001 deposits in the sandbox, the Excel export of
// every deposit runs in the background; its page shows the rows written so far and keeps
// showing them across a reload; it ends ready, and the downloaded file holds every deposit
// (counted), in the Excel format (BOM, semicolons). The pages pass axe while running and when
// ready, and the user's exports list it.
func TestDashboardBackgroundExport(t *testing.T) {
	t.Parallel()
	a, s := setup(t, appOptions{}, playwright.BrowserNewContextOptions{AcceptDownloads: playwright.Bool(true)})
	a.addMerchant(t)
	began := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	// In runs of 5,000 (each seed gives its own records): one call of 100,001 can outlast the
	// gateway client's timeout on a loaded machine. Under the race detector the sandbox's
	// SQLite, pure Go, makes seeding take minutes instead of seconds: the browser tests run
	// without it, and this one alone.
	for seed, left := 24, backgroundRows; left > 0; seed++ {
		n := min(left, 5_000)
		body := map[string]int{"deposits": n, "seed": seed}
		if err := a.gateway(t).Do(ctx, http.MethodPost, "/sandbox/seed", body, nil); err != nil {
			t.Fatalf("seeding the sandbox: %v", err)
		}
		left -= n
	}
	t.Logf("seeded %d deposits in %v", backgroundRows, time.Since(began).Round(time.Millisecond))

	d := dashboardOf(s, a)
	d.login(merchantEmail, merchantPassword)
	s.open(a.url + "/dashboard/deposits")
	began = time.Now()
	s.check(d.testID("export-toggle").Click(), "open the exports")
	s.check(d.testID("export-excel").Click(), "export for Excel")
	s.check(s.expect.Page(s.page).ToHaveURL(regexp.MustCompile(`/dashboard/exports/[a-z2-7]+$`)), "the export's page")
	jobURL := s.page.URL()

	// While it runs: the rows so far, and the same page after a reload.
	job := d.testID("export-job")
	state, err := job.GetAttribute("data-state")
	s.check(err, "the export's state")
	if state != "running" {
		t.Fatalf("the export is %q at once; the test cannot see its progress", state)
	}
	// axe on the running page: the page reloads itself every 2 seconds, which would cut axe
	// short on a loaded machine, so this one load comes without its Refresh header.
	s.check(s.page.Route(jobURL, func(r playwright.Route) {
		res, err := r.Fetch()
		if err != nil {
			_ = r.Continue()
			return
		}
		h := res.Headers()
		delete(h, "refresh")
		_ = r.Fulfill(playwright.RouteFulfillOptions{Response: res, Headers: h})
	}), "hold the export's page still")
	if _, err := s.page.Reload(); err != nil {
		t.Fatalf("reloading the export's page: %v", err)
	}
	s.a11y(s.page, "export running")
	s.shot("export-running")
	s.check(s.page.Unroute(jobURL), "let the export's page refresh again")
	// Reloads until the page shows rows written (the worker notes them every second), each
	// reload showing at least as many as the one before.
	var seen []int
	for len(seen) < 20 && (len(seen) == 0 || seen[len(seen)-1] == 0) {
		rows, err := d.testID("export-progress").GetAttribute("data-rows", playwright.LocatorGetAttributeOptions{Timeout: ms(time.Second)})
		if err != nil {
			break // it ended meanwhile
		}
		n, _ := strconv.Atoi(rows)
		if len(seen) > 0 && n < seen[len(seen)-1] {
			t.Fatalf("the rows went back from %d to %d", seen[len(seen)-1], n)
		}
		seen = append(seen, n)
		if _, err := s.page.Reload(); err != nil {
			t.Fatalf("reloading the export's page: %v", err)
		}
		if s.page.URL() != jobURL {
			t.Fatalf("the reload went to %s", s.page.URL())
		}
		time.Sleep(500 * time.Millisecond)
	}
	if len(seen) == 0 || seen[len(seen)-1] == 0 || seen[len(seen)-1] >= backgroundRows {
		t.Errorf("the page never showed the rows written so far while running: %v", seen)
	}
	t.Logf("rows seen while running, reloading: %v", seen)

	// Ready: the page refreshes itself until then.
	s.check(s.expect.Locator(d.testID("export-ready")).ToBeVisible(playwright.LocatorAssertionsToBeVisibleOptions{
		Timeout: ms(4 * time.Minute)}), "the export ready")
	t.Logf("the export took %v", time.Since(began).Round(time.Millisecond))
	if s.page.URL() != jobURL {
		t.Fatalf("the ready export is at %s, not %s", s.page.URL(), jobURL)
	}
	rows, err := d.testID("export-ready").GetAttribute("data-rows")
	s.check(err, "the rows written")
	if rows != strconv.Itoa(backgroundRows) {
		t.Fatalf("the export wrote %s rows, want %d", rows, backgroundRows)
	}
	s.a11y(s.page, "export ready")
	s.shot("export-ready")

	dl, err := s.page.ExpectDownload(func() error { return d.testID("export-download").Click() })
	s.check(err, "download the export")
	if name := dl.SuggestedFilename(); !regexp.MustCompile(`^deposits-excel-\d{8}-\d{6}\.csv$`).MatchString(name) {
		t.Errorf("the file is named %q", name)
	}
	path, err := dl.Path()
	s.check(err, "the file's path")
	file, err := os.Open(path)
	s.check(err, "open the file")
	defer file.Close()
	br := bufio.NewReader(file)
	bom := make([]byte, 3)
	if _, err := io.ReadFull(br, bom); err != nil || !bytes.Equal(bom, []byte("\xEF\xBB\xBF")) {
		t.Fatalf("the file starts with %q, not the UTF-8 BOM", bom)
	}
	r := csv.NewReader(br)
	r.Comma = ';'
	r.ReuseRecord = true
	header, err := r.Read()
	if err != nil || header[0] != "id" {
		t.Fatalf("header %v, %v", header, err)
	}
	ids := map[string]bool{}
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("row %d: %v", len(ids)+1, err)
		}
		ids[rec[0]] = true
	}
	if len(ids) != backgroundRows {
		t.Errorf("the file holds %d distinct deposits, want %d", len(ids), backgroundRows)
	}

	// The deposits page leads to it.
	s.open(a.url + "/dashboard/deposits")
	s.check(s.expect.Locator(d.testID("current-exports").Locator("a")).ToHaveAttribute("href", regexp.MustCompile(`/dashboard/exports/[a-z2-7]+$`)),
		"the deposits page's current exports")
	s.a11y(s.page, "deposits with an export")

	// The user's exports list it, ready.
	s.open(a.url + "/dashboard/exports")
	s.check(s.expect.Locator(d.testID("export-row")).ToHaveAttribute("data-state", "ready"), "the export in the list")
	s.a11y(s.page, "exports")

	// On a phone: the list, the export's page and the deposits page leading to it, no
	// horizontal scroll, axe at zero.
	ps := newSession(t, phone())
	pd := dashboardOf(ps, a)
	pd.login(merchantEmail, merchantPassword)
	for path, where := range map[string]string{"/dashboard/exports": "exports (phone)", jobURL[len(a.url):]: "export ready (phone)",
		"/dashboard/deposits": "deposits with an export (phone)"} {
		ps.open(a.url + path)
		ps.a11y(ps.page, where)
		ps.noHorizontalScroll(ps.page, where)
	}
	ps.shot("export-ready-phone")
}
