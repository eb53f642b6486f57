package dashboard_test

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
)

// readCSV reads a whole CSV answer.
func readCSV(t *testing.T, res *http.Response) [][]string {
	t.Helper()
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/csv; charset=utf-8") ||
		!strings.HasPrefix(res.Header.Get("Content-Disposition"), "attachment;") {
		t.Fatalf("CSV answer %d %q %q", res.StatusCode, res.Header.Get("Content-Type"), res.Header.Get("Content-Disposition"))
	}
	rows, err := csv.NewReader(res.Body).ReadAll()
	if err != nil {
		t.Fatalf("reading the CSV: %v", err)
	}
	return rows
}

// TestDepositsCSV: every deposit matching the filter, across all pages of the gateway, with a
// header, amounts in cents and reais, ISO UTC dates.
func TestDepositsCSV(t *testing.T) {
	e, b := signedIn(t)
	e.seed(600, 0)
	ctx := context.Background()
	f := gatewayclient.DepositFilter{Status: []gatewayclient.DepositStatus{"PAID", "FAILED"}, MinAmount: 500}
	var want []string
	for d, err := range e.client.AllDeposits(ctx, f) {
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, d.ID)
	}
	if len(want) <= 100 {
		t.Fatalf("only %d deposits match: the export would fit in one page", len(want))
	}
	rows := readCSV(t, b.do(http.MethodGet, "/dashboard/deposits.csv?status=PAID&status=FAILED&minAmount=5&perPage=10&page=3", nil))
	header := rows[0]
	col := func(name string) int {
		i := slices.Index(header, name)
		if i < 0 {
			t.Fatalf("no column %s in %v", name, header)
		}
		return i
	}
	if len(rows)-1 != len(want) {
		t.Fatalf("%d rows, want %d (every page, not the one shown)", len(rows)-1, len(want))
	}
	var got []string
	for _, r := range rows[1:] {
		got = append(got, r[col("id")])
		cents, err := strconv.ParseInt(r[col("amountCents")], 10, 64)
		if err != nil || r[col("amountBRL")] != fmt.Sprintf("%d.%02d", cents/100, cents%100) || cents < 500 {
			t.Errorf("amounts %q / %q", r[col("amountCents")], r[col("amountBRL")])
		}
		if s := r[col("status")]; s != "PAID" && s != "FAILED" {
			t.Errorf("status %q", s)
		}
		for _, c := range []string{"createdAt", "updatedAt"} {
			if ts, err := time.Parse(time.RFC3339Nano, r[col(c)]); err != nil || !strings.HasSuffix(r[col(c)], "Z") || ts.IsZero() {
				t.Errorf("%s %q is not ISO UTC", c, r[col(c)])
			}
		}
	}
	if !slices.Equal(got, want) {
		t.Error("the rows are not the gateway's, in its order")
	}
}

// TestCSVEscapesFormulas: a text a spreadsheet would run as a formula starts with an apostrophe.
func TestCSVEscapesFormulas(t *testing.T) {
	e, b := signedIn(t)
	for _, code := range []string{"=HYPERLINK(\"http://x\")", "+SUM(A1:A2)", "-2+3 codigo", "@SUM(1)+1+1"} {
		err := e.client.Do(context.Background(), http.MethodPost, "/sandbox/withdrawals",
			map[string]any{"amount": 1000, "externalCode": code}, nil)
		if err != nil {
			t.Fatal(err)
		}
	}
	rows := readCSV(t, b.do(http.MethodGet, "/dashboard/withdrawals.csv", nil))
	i := slices.Index(rows[0], "externalCode")
	var codes []string
	for _, r := range rows[1:] {
		codes = append(codes, r[i])
	}
	slices.Sort(codes)
	want := []string{"'+SUM(A1:A2)", "'-2+3 codigo", "'=HYPERLINK(\"http://x\")", "'@SUM(1)+1+1"}
	if !slices.Equal(codes, want) {
		t.Errorf("codes %q, want %q", codes, want)
	}
}

// TestCSVStreams: the header and the first page reach the client while the next page is still
// being fetched; a gateway failing mid-way aborts the download instead of ending it short.
func TestCSVStreams(t *testing.T) {
	e, b := signedIn(t)
	e.seed(250, 0)
	release := make(chan struct{})
	e.dash.gateway.mu.Lock()
	first := len(e.dash.gateway.deposits) + 1 // the export's first call
	e.dash.gateway.hold = func(call int) {
		if call > first {
			<-release
		}
	}
	e.dash.gateway.mu.Unlock()
	res := b.do(http.MethodGet, "/dashboard/deposits.csv", nil)
	r := csv.NewReader(res.Body)
	for i := range 101 { // the header and page 1, before page 2 is allowed
		if _, err := r.Read(); err != nil {
			t.Fatalf("row %d before page 2: %v", i, err)
		}
	}
	close(release)
	rest, err := r.ReadAll()
	res.Body.Close()
	if err != nil || len(rest) != 150 {
		t.Fatalf("after page 2: %d rows, %v", len(rest), err)
	}

	e.dash.gateway.mu.Lock()
	e.dash.gateway.hold = nil
	e.dash.gateway.mu.Unlock()
	e.dash.gateway.failing(&gatewayclient.APIError{StatusCode: 503}, 2) // pages 1 and 2, then 503
	res = b.do(http.MethodGet, "/dashboard/deposits.csv", nil)
	_, err = io.ReadAll(res.Body)
	res.Body.Close()
	if err == nil || !errors.Is(err, io.ErrUnexpectedEOF) && !strings.Contains(err.Error(), "unexpected EOF") {
		t.Errorf("a failure on page 3 ended the download without an error: %v", err)
	}
	// A gateway failing at once gets an error page, not an empty file.
	e.dash.gateway.failing(&gatewayclient.APIError{StatusCode: 503}, 0)
	res, doc := b.get("/dashboard/deposits.csv")
	if res.StatusCode != http.StatusServiceUnavailable || doc.Find(`[data-testid="dash-error"]`).Length() != 1 {
		t.Errorf("failing gateway: %d", res.StatusCode)
	}
	e.dash.gateway.failing(nil, 0)
	// An invalid filter shows the form with its error.
	res, doc = b.get("/dashboard/deposits.csv?minAmount=abc")
	if res.StatusCode != http.StatusUnprocessableEntity || doc.Find(`[data-testid="filter-error"]`).Length() != 1 {
		t.Errorf("invalid filter: %d", res.StatusCode)
	}
}

// csvIDs returns the id column of an export, failing on a repeated id.
func csvIDs(t *testing.T, rows [][]string) []string {
	t.Helper()
	col := slices.Index(rows[0], "id")
	seen := map[string]bool{}
	var ids []string
	for _, r := range rows[1:] {
		if seen[r[col]] {
			t.Errorf("%s written twice", r[col])
		}
		seen[r[col]] = true
		ids = append(ids, r[col])
	}
	return ids
}

// TestCSVSharedTimestamps: the export reads the gateway by keyset (endDate at the last row's
// createdAt), so records sharing a createdAt across the gateway's pages of 100 — a group split
// by a page's end, whole pages of one millisecond — are each written exactly once, in the
// gateway's order: the rows are the gateway's own full list. A failure half-way still aborts.
func TestCSVSharedTimestamps(t *testing.T) {
	clock := sandbox.NewManualClock(time.Now().Add(-time.Hour).Truncate(time.Millisecond))
	e, b := signedIn(t, func(o *envOptions) {
		o.sandbox = func(so *sandbox.Options) { so.Clock, so.RateLimit = clock, sandbox.RateLimit{Off: true} }
	})
	ctx := context.Background()
	// Withdrawals: groups of one millisecond each, newest last; 130 and 101 fill whole pages.
	var n int
	for _, size := range []int{3, 101, 1, 7, 100, 96, 1, 130, 5} {
		for range size {
			n++
			if _, err := e.sb.CreateWithdrawal(ctx, "checkout", sandbox.NewWithdrawal{Amount: checkout.Cents(1000 + n)}); err != nil {
				t.Fatal(err)
			}
		}
		clock.Advance(time.Millisecond)
	}
	var want []string
	for w, err := range e.client.AllWithdrawals(ctx, gatewayclient.WithdrawalFilter{PerPage: 100}) {
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, w.ID)
	}
	if len(want) != n {
		t.Fatalf("the gateway lists %d withdrawals, want %d", len(want), n)
	}
	if got := csvIDs(t, readCSV(t, b.do(http.MethodGet, "/dashboard/withdrawals.csv", nil))); !slices.Equal(got, want) {
		t.Errorf("the export has %d rows, not the gateway's %d in its order", len(got), len(want))
	}
	// With a filter too: amounts of the last 300 only, which cut the groups of 100 and 130.
	f := gatewayclient.WithdrawalFilter{MinAmount: checkout.Cents(1000 + n - 300 + 1), PerPage: 100}
	want = want[:0]
	for w, err := range e.client.AllWithdrawals(ctx, f) {
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, w.ID)
	}
	got := csvIDs(t, readCSV(t, b.do(http.MethodGet, "/dashboard/withdrawals.csv?minAmount="+reaisQuery(f.MinAmount), nil)))
	if len(want) != 300 || !slices.Equal(got, want) {
		t.Errorf("filtered: %d rows, want the gateway's %d (300) in its order", len(got), len(want))
	}

	// Deposits: 70, then 45 in one millisecond across the first page's end, then 20.
	for i, size := range []int{70, 45, 20} {
		for j := range size {
			req := gatewayclient.CreateTransactionRequest{Amount: checkout.Cents(500 + j), PaymentMethod: gatewayclient.PaymentMethodPIX,
				IdempotencyKey: fmt.Sprintf("csv-tie-%d-%03d", i, j), Pix: &gatewayclient.PixRequest{}}
			if _, err := e.client.CreateTransaction(ctx, req); err != nil {
				t.Fatal(err)
			}
		}
		clock.Advance(time.Millisecond)
	}
	var deposits []string
	for d, err := range e.client.AllDeposits(ctx, gatewayclient.DepositFilter{PerPage: 100}) {
		if err != nil {
			t.Fatal(err)
		}
		deposits = append(deposits, d.ID)
	}
	if got := csvIDs(t, readCSV(t, b.do(http.MethodGet, "/dashboard/deposits.csv", nil))); len(deposits) != 135 || !slices.Equal(got, deposits) {
		t.Errorf("deposits: %d rows, want the gateway's %d (135) in its order", len(got), len(deposits))
	}

	// A failure after two pages aborts the withdrawals' download too.
	e.dash.gateway.failing(&gatewayclient.APIError{StatusCode: 503}, 2)
	res := b.do(http.MethodGet, "/dashboard/withdrawals.csv", nil)
	_, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err == nil {
		t.Error("a failure on the third page ended the withdrawals' download without an error")
	}
	e.dash.gateway.failing(nil, 0)
}

// reaisQuery writes cents as the reais the filter form takes ("12,34").
func reaisQuery(c checkout.Cents) string { return fmt.Sprintf("%d,%02d", c/100, c%100) }

// TestCSVOnTheShopsClock: the export's end is pinned on the shop's clock, the gateway's: with
// the embedded sandbox's clock moved a day ahead, what it made since is exported, as the list
// shows it.
func TestCSVOnTheShopsClock(t *testing.T) {
	e, b := signedIn(t)
	ctx := context.Background()
	if err := e.sb.AdvanceClock(ctx, 24*time.Hour); err != nil {
		t.Fatal(err)
	}
	wd, err := e.sb.CreateWithdrawal(ctx, "checkout", sandbox.NewWithdrawal{Amount: 1234})
	if err != nil {
		t.Fatal(err)
	}
	if got := csvIDs(t, readCSV(t, b.do(http.MethodGet, "/dashboard/withdrawals.csv", nil))); !slices.Equal(got, []string{wd.ID}) {
		t.Errorf("export %v, want [%s]", got, wd.ID)
	}
}
