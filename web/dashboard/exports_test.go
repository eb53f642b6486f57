package dashboard_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout/audit"
	"github.com/pixcheckout/pixcheckout/checkout/exports"
	"github.com/pixcheckout/pixcheckout/checkout/mail"
	"github.com/pixcheckout/pixcheckout/checkout/team"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/web/alerts"
)

// readExcel reads an export in the Excel format: it must start with the UTF-8 BOM and be
// separated by semicolons.
func readExcel(t *testing.T, res *http.Response, name string) [][]string {
	t.Helper()
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/csv; charset=utf-8") ||
		!strings.Contains(res.Header.Get("Content-Disposition"), `filename="`+name+`-excel-`) {
		t.Fatalf("Excel answer %d %q %q", res.StatusCode, res.Header.Get("Content-Type"), res.Header.Get("Content-Disposition"))
	}
	rest, ok := bytes.CutPrefix(body, []byte("\xEF\xBB\xBF"))
	if !ok {
		t.Fatalf("no UTF-8 BOM: %q", body[:min(len(body), 20)])
	}
	r := csv.NewReader(bytes.NewReader(rest))
	r.Comma = ';'
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatalf("reading the export with ';': %v", err)
	}
	return rows
}

// column returns the index of name in header.
func column(t *testing.T, header []string, name string) int {
	t.Helper()
	i := slices.Index(header, name)
	if i < 0 {
		t.Fatalf("no column %s in %v", name, header)
	}
	return i
}

var excelAmount = regexp.MustCompile(`^-?\d+,\d\d$`)

// TestExcelExports: format=excel gives every export (deposits, withdrawals, the audit log)
// with a BOM, semicolons, the plain export's columns and rows, amounts with a decimal comma
// and times in São Paulo with their offset, the same instants as the plain export's UTC.
func TestExcelExports(t *testing.T) {
	e, b := signedIn(t)
	e.seed(250, 120)
	for name, filter := range map[string]string{"deposits": "status=PAID&status=FAILED&status=REFUNDED",
		"withdrawals": "status=PROCESSED&status=FAILED&status=REFUNDED"} {
		plain := readCSV(t, b.do(http.MethodGet, "/dashboard/"+name+".csv?"+filter, nil))
		excel := readExcel(t, b.do(http.MethodGet, "/dashboard/"+name+".csv?"+filter+"&format=excel", nil), name)
		if !slices.Equal(plain[0], excel[0]) {
			t.Fatalf("%s: columns %v, want the plain export's %v", name, excel[0], plain[0])
		}
		if len(excel) != len(plain) || len(excel) < 50 {
			t.Fatalf("%s: %d rows in Excel, %d in CSV", name, len(excel), len(plain))
		}
		id, cents, brl, created := column(t, plain[0], "id"), column(t, plain[0], "amountCents"),
			column(t, plain[0], "amountBRL"), column(t, plain[0], "createdAt")
		for i, row := range excel[1:] {
			p := plain[i+1]
			if row[id] != p[id] || row[cents] != p[cents] {
				t.Fatalf("%s row %d: %s %s, want %s %s", name, i, row[id], row[cents], p[id], p[cents])
			}
			c, _ := strconv.ParseInt(p[cents], 10, 64)
			if !excelAmount.MatchString(row[brl]) || row[brl] != strings.Replace(p[brl], ".", ",", 1) ||
				row[brl] != strconv.FormatInt(c/100, 10)+","+strconv.FormatInt(c%100/10, 10)+strconv.FormatInt(c%10, 10) {
				t.Errorf("%s row %d: amount %q (cents %s)", name, i, row[brl], p[cents])
			}
			at, err := time.Parse("2006-01-02 15:04:05 -07:00", row[created])
			utc, _ := time.Parse(time.RFC3339Nano, p[created])
			if err != nil || !strings.HasSuffix(row[created], " -03:00") || !at.Equal(utc.Truncate(time.Second)) {
				t.Errorf("%s row %d: createdAt %q, plain %q (%v)", name, i, row[created], p[created], err)
			}
		}
	}
	audit := readExcel(t, b.do(http.MethodGet, "/dashboard/audit.csv?format=excel", nil), "audit")
	at := column(t, audit[0], "at")
	if len(audit) < 2 || !strings.HasSuffix(audit[1][at], " -03:00") {
		t.Fatalf("the audit log for Excel: %q", audit)
	}
	// The pages offer both.
	_, doc := b.get("/dashboard/deposits?status=PAID")
	if href, _ := doc.Find(testid("export-excel")).Attr("href"); href != "/dashboard/deposits.csv?status=PAID&format=excel" {
		t.Errorf("the Excel link is %q", href)
	}
	if href, _ := doc.Find(testid("export-csv")).Attr("href"); href != "/dashboard/deposits.csv?status=PAID" {
		t.Errorf("the CSV link is %q", href)
	}
	// An unknown format is an error naming the parameter, not a CSV.
	res, doc := b.get("/dashboard/deposits.csv?format=xlsx")
	if res.StatusCode != http.StatusBadRequest || !strings.Contains(doc.Text(), "format") {
		t.Errorf("format=xlsx: %d %q", res.StatusCode, doc.Find("main").Text())
	}
}

// TestBackgroundExport: an export of more rows than the threshold answers with its page,
// which shows the rows so far while it runs and the download when ready; the file holds
// every row of the filter; the page is only its user's (and owners'); the export is in the
// audit log.
func TestBackgroundExport(t *testing.T) {
	e, b := signedIn(t, func(o *envOptions) { o.exportThreshold = 150 })
	e.seed(400, 0)
	ctx := context.Background()
	f := gatewayclient.DepositFilter{Status: []gatewayclient.DepositStatus{"PAID", "FAILED", "REFUNDED", "PENDING"}}
	var want []string
	for d, err := range e.client.AllDeposits(ctx, f) {
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, d.ID)
	}
	if len(want) <= 150 {
		t.Fatalf("only %d deposits match", len(want))
	}
	// Few enough rows stream as before.
	if res := b.do(http.MethodGet, "/dashboard/deposits.csv?status=BLOCKED", nil); res.StatusCode != http.StatusOK {
		t.Fatalf("a small export: %d", res.StatusCode)
	}

	q := "status=PAID&status=FAILED&status=REFUNDED&status=PENDING&format=excel"
	res := b.do(http.MethodGet, "/dashboard/deposits.csv?"+q, nil)
	res.Body.Close()
	page := res.Header.Get("Location")
	if res.StatusCode != http.StatusSeeOther || !strings.HasPrefix(page, "/dashboard/exports/") {
		t.Fatalf("a large export: %d to %q", res.StatusCode, page)
	}
	var state string
	deadline := time.Now().Add(30 * time.Second)
	for {
		res, doc := b.get(page)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("the export's page: %d", res.StatusCode)
		}
		state, _ = doc.Find(testid("export-job")).Attr("data-state")
		if state == "running" {
			if res.Header.Get("Refresh") == "" || doc.Find(testid("export-progress")).Length() != 1 {
				t.Fatalf("a running export's page does not refresh or show its progress")
			}
		} else {
			if res.Header.Get("Refresh") != "" {
				t.Errorf("a %s export's page still refreshes", state)
			}
			if rows, _ := doc.Find(testid("export-ready")).Attr("data-rows"); rows != strconv.Itoa(len(want)) {
				t.Fatalf("state %s, rows %q, want %d: %s", state, rows, len(want), doc.Find("main").Text())
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the export did not end")
		}
		time.Sleep(20 * time.Millisecond)
	}
	_, doc := b.get(page)
	download, _ := doc.Find(testid("export-download")).Attr("href")
	exportAlerted(t, e, page)
	rows := readExcel(t, b.do(http.MethodGet, download, nil), "deposits")
	id := column(t, rows[0], "id")
	var got []string
	for _, r := range rows[1:] {
		got = append(got, r[id])
	}
	if !slices.Equal(got, want) {
		t.Fatalf("the file holds %d rows, want the gateway's %d in its order", len(got), len(want))
	}

	// The list pages lead to it.
	_, doc = b.get("/dashboard/deposits")
	if a := doc.Find(testid("current-exports") + " a"); a.Length() != 1 || a.AttrOr("href", "") != page {
		t.Errorf("the deposits page's current exports: %q", doc.Find(testid("current-exports")).Text())
	}
	if href, _ := doc.Find(testid("my-exports")).Attr("href"); href != "/dashboard/exports" {
		t.Errorf("my exports link %q", href)
	}

	// The user's exports list it.
	_, doc = b.get("/dashboard/exports")
	if doc.Find(testid("export-row")).Length() != 1 || doc.Find(testid("export-row")+` [data-testid="export-download"]`).Length() != 1 {
		t.Errorf("the exports page: %s", doc.Find("main").Text())
	}
	// The audit log has it.
	entries, _ := e.dash.audit.Entries(ctx, audit.Filter{Action: audit.Export})
	if len(entries) == 0 || entries[0].Object != "deposits.csv" || entries[0].Detail != q {
		t.Errorf("audit: %+v", entries)
	}

	// Another user who is not an owner finds nothing there; an owner may download it.
	for _, c := range []struct {
		role team.Role
		code int
	}{{team.RoleOperator, http.StatusNotFound}, {team.RoleOwner, http.StatusOK}} {
		email := string(c.role) + "2@loja.example"
		if _, err := e.dash.accounts.AddUser(ctx, email, dashPassword, c.role); err != nil {
			t.Fatal(err)
		}
		other := e.browser()
		other.loginAs(email, dashPassword)
		for _, p := range []string{page, download} {
			res := other.do(http.MethodGet, p, nil)
			res.Body.Close()
			if res.StatusCode != c.code {
				t.Errorf("%s: %s answers %d, want %d", c.role, p, res.StatusCode, c.code)
			}
		}
	}
}

// TestBackgroundExportUnmasked: an owner's export with documents and phones in full runs in
// the background like any other; its file says so in its name, and the audit log records it
// as unmasked.
func TestBackgroundExportUnmasked(t *testing.T) {
	e, b := signedIn(t, func(o *envOptions) { o.exportThreshold = 150 })
	e.seed(400, 0)
	res := b.do(http.MethodGet, "/dashboard/deposits.csv?personalData=full", nil)
	res.Body.Close()
	page := res.Header.Get("Location")
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("a large unmasked export: %d", res.StatusCode)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		_, doc := b.get(page)
		state := doc.Find(testid("export-job")).AttrOr("data-state", "")
		if state == "ready" {
			break
		} else if state != "running" || time.Now().After(deadline) {
			t.Fatalf("state %q", state)
		}
		time.Sleep(20 * time.Millisecond)
	}
	res = b.do(http.MethodGet, page+"/download", nil)
	res.Body.Close()
	if cd := res.Header.Get("Content-Disposition"); res.StatusCode != http.StatusOK || !strings.HasSuffix(cd, `-unmasked.csv"`) {
		t.Errorf("the unmasked file: %d %q", res.StatusCode, cd)
	}
	entries, _ := e.dash.audit.Entries(context.Background(), audit.Filter{Action: audit.ExportUnmasked})
	if len(entries) != 1 || entries[0].Object != "deposits.csv" {
		t.Errorf("audit: %+v", entries)
	}
}

// TestBackgroundExportFails: a gateway failing half-way ends the job failed, said in words;
// a job whose server stopped (no heartbeat) reads as interrupted.
func TestBackgroundExportFails(t *testing.T) {
	e, b := signedIn(t, func(o *envOptions) { o.exportThreshold = 150 })
	e.seed(400, 0)
	e.dash.gateway.failing(&gatewayclient.APIError{StatusCode: 503}, 2) // pages 1 and 2, then 503
	res := b.do(http.MethodGet, "/dashboard/deposits.csv", nil)
	res.Body.Close()
	page := res.Header.Get("Location")
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("a large export: %d", res.StatusCode)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		_, doc := b.get(page)
		if state, _ := doc.Find(testid("export-job")).Attr("data-state"); state == "failed" {
			if !strings.Contains(doc.Find(testid("export-failed")).Text(), "gateway falhou") {
				t.Errorf("the failure in words: %q", doc.Find(testid("export-failed")).Text())
			}
			if again := doc.Find(testid("export-again")).AttrOr("href", ""); again != "/dashboard/deposits.csv" {
				t.Errorf("export again: %q", again)
			}
			break
		} else if state != "running" || time.Now().After(deadline) {
			t.Fatalf("state %q", state)
		}
		time.Sleep(20 * time.Millisecond)
	}
	e.dash.gateway.failing(nil, 0)

	// A job left running by a stopped server.
	u, _ := e.dash.accounts.UserByEmail(context.Background(), dashEmail)
	job, err := e.exports.Create(context.Background(), exports.Job{UserID: u.ID, Kind: "withdrawals", Format: "csv", Total: 500000}, exports.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.sb.AdvanceClock(context.Background(), exports.Stale+time.Second); err != nil {
		t.Fatal(err)
	}
	res, doc := b.get("/dashboard/exports/" + job.ID)
	if state, _ := doc.Find(testid("export-job")).Attr("data-state"); state != "failed" || res.Header.Get("Refresh") != "" ||
		!strings.Contains(doc.Find(testid("export-failed")).Text(), "servidor parou") {
		t.Errorf("an interrupted job: %s %q", state, doc.Find(testid("export-failed")).Text())
	}
}

// TestBackgroundExportStopsWithTheServer: at a shutdown the workers end their jobs failed,
// saying in words that the server stopped, before the server lets the store go.
func TestBackgroundExportStopsWithTheServer(t *testing.T) {
	e, b := signedIn(t, func(o *envOptions) { o.exportThreshold = 150 })
	e.seed(400, 0)
	release := make(chan struct{})
	e.dash.gateway.mu.Lock()
	first := len(e.dash.gateway.deposits) + 1 // the export's first call, made by the request
	e.dash.gateway.hold = func(call int) {
		if call > first {
			<-release
		}
	}
	e.dash.gateway.mu.Unlock()
	res := b.do(http.MethodGet, "/dashboard/deposits.csv", nil)
	res.Body.Close()
	page := res.Header.Get("Location")
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("a large export: %d", res.StatusCode)
	}
	if _, doc := b.get(page); doc.Find(testid("export-job")).AttrOr("data-state", "") != "running" {
		t.Fatal("the export is not running while its second page is held")
	}
	e.stopExports()
	close(release)
	e.board.WaitExports()
	_, doc := b.get(page)
	if state := doc.Find(testid("export-job")).AttrOr("data-state", ""); state != "failed" ||
		!strings.Contains(doc.Find(testid("export-failed")).Text(), "servidor parou") {
		t.Errorf("after the shutdown: %s %q", state, doc.Find(testid("export-failed")).Text())
	}
}

// readyExport stores a finished background export of user with content, and returns its id.
func (e *env) readyExport(user, kind, content string) string {
	e.t.Helper()
	ctx := context.Background()
	job, err := e.exports.Create(ctx, exports.Job{UserID: user, Kind: kind, Format: "excel", Total: 1}, exports.Limits{})
	if err != nil {
		e.t.Fatal(err)
	}
	w := e.exports.Writer(ctx, job.ID)
	if _, err := io.WriteString(w, content); err != nil {
		e.t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		e.t.Fatal(err)
	}
	if err := e.exports.Finish(ctx, job, 1, w.Size(), ""); err != nil {
		e.t.Fatal(err)
	}
	return job.ID
}

// TestExportLimitsAcrossUsers: background exports are limited across all users (running at
// once, counted in the store) and by the bytes their files keep in the database; an export
// past either is refused with a 429 page saying so, and no job is stored for it.
func TestExportLimitsAcrossUsers(t *testing.T) {
	e, b := signedIn(t, func(o *envOptions) { o.exportThreshold = 150 })
	e.seed(400, 0)
	ctx := context.Background()
	large := "/dashboard/deposits.csv?status=PAID&status=FAILED&status=REFUNDED&status=PENDING"
	var others []*exports.Job
	for _, u := range []string{"u-a", "u-b", "u-c"} {
		j, err := e.exports.Create(ctx, exports.Job{UserID: u, Kind: "deposits", Format: "csv", Total: 1000}, exports.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		others = append(others, j)
	}
	// Three running for others: this user's first is the fourth, accepted.
	res := b.do(http.MethodGet, large, nil)
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("the fourth export across users: %d", res.StatusCode)
	}
	page := res.Header.Get("Location")
	// Four running (if this user's own has not ended yet) or a fifth from another user: refused.
	if _, err := e.exports.Create(ctx, exports.Job{UserID: "u-d", Kind: "deposits", Format: "csv", Total: 1000}, exports.Limits{}); err != nil {
		t.Fatal(err)
	}
	res, doc := b.get(large)
	if res.StatusCode != http.StatusTooManyRequests || !strings.Contains(doc.Find("main").Text(), "exportações demais") {
		t.Fatalf("an export past the limit across users: %d %q", res.StatusCode, doc.Find("main").Text())
	}
	if _, doc := b.get("/dashboard/exports"); doc.Find(testid("export-row")).Length() != 1 {
		t.Fatalf("the refused export stored a job: %s", doc.Find("main").Text())
	}
	waitExport(t, b, page)
}

// TestExportLimitOfKeptBytes: once the files of all exports keep the cap's bytes in the
// database, a new export is refused with a 429 page saying so.
func TestExportLimitOfKeptBytes(t *testing.T) {
	e, b := signedIn(t, func(o *envOptions) { o.exportThreshold, o.exportBytesCap = 150, 1 })
	e.seed(400, 0)
	large := "/dashboard/deposits.csv?status=PAID&status=FAILED&status=REFUNDED&status=PENDING"
	res := b.do(http.MethodGet, large, nil)
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("an export with nothing kept: %d", res.StatusCode)
	}
	waitExport(t, b, res.Header.Get("Location"))
	res, doc := b.get(large)
	if res.StatusCode != http.StatusTooManyRequests || !strings.Contains(doc.Find("main").Text(), "guardando arquivos demais") {
		t.Fatalf("an export past the kept bytes: %d %q", res.StatusCode, doc.Find("main").Text())
	}
}

// waitExport waits until the background export of page ends.
func waitExport(t *testing.T, b *browser, page string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		_, doc := b.get(page)
		if state, _ := doc.Find(testid("export-job")).Attr("data-state"); state != "running" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the export did not end")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// exportAlerted: the user who asked for the export (an owner, on by default) has its alert,
// written with the job's end: to them, in pt-BR, leading to the export's page under the
// public URL.
func exportAlerted(t *testing.T, e *env, page string) {
	t.Helper()
	list, err := e.mailLog.List(context.Background(), mail.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	var got []mail.Entry
	for _, m := range list {
		if m.Type == alerts.TypeExport {
			got = append(got, m)
		}
	}
	if len(got) != 1 || got[0].To != dashEmail || !strings.Contains(got[0].Content.Text, e.composer.PublicURL+page) ||
		got[0].Content.Subject != "Sua exportação de depósitos está pronta" {
		t.Errorf("the export's alerts: %+v", got)
	}
}
