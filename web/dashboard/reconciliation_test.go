package dashboard_test

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/xuri/excelize/v2"

	"github.com/pixcheckout/pixcheckout/checkout/team"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/views"
)

// control applies a sandbox control (pay, refund, …) to a deposit, as the gateway itself
// would move it: nothing of the checkout is told (no webhook reaches it, no reconciler runs).
func (e *env) control(id, action string, body any) {
	e.t.Helper()
	if err := e.client.Do(context.Background(), http.MethodPost, "/sandbox/deposits/"+url.PathEscape(id)+"/"+action, body, nil); err != nil {
		e.t.Fatalf("%s %s: %v", action, id, err)
	}
}

// reconRows are the reconciliation's rows by deposit id (or order id when it has none),
// with their divergences.
func reconRows(doc *goquery.Document) map[string]string {
	out := map[string]string{}
	doc.Find(testid("recon-row")).Each(func(_ int, s *goquery.Selection) {
		key := s.AttrOr("data-deposit", "")
		if key == "" {
			key = s.AttrOr("data-order", "")
		}
		out[key] = s.AttrOr("data-issues", "")
	})
	return out
}

// TestReconciliation: at 02:30Z (the evening before in São Paulo, the day the page reads), a
// deposit made and paid directly at the sandbox (not through the checkout) is "pago fora do
// checkout"; an order paid here whose deposit the gateway then refunds — with no webhook and
// no reconciler to tell the checkout — is a divergence of state and refund; an order paid
// and left alone matches. The checkout's totals are the overview's, net included; each kind
// links to its rows; the daily count others read is the page's; the .xlsx reads back with a
// date cell, a pt-BR header and money as a number.
func TestReconciliation(t *testing.T) {
	e, b := signedIn(t, at("02:30"))
	ctx := context.Background()
	matching := e.paidOrder()
	refunded := e.paidOrder()
	refundedOrder, err := e.svc.Order(ctx, refunded)
	if err != nil {
		t.Fatal(err)
	}
	refundedDeposit := refundedOrder.CurrentAttempt().TransactionID
	e.control(refundedDeposit, "refund", nil) // PROCESSING_REFUND, refundAmount the amount paid
	e.control(refundedDeposit, "refund", nil) // REFUNDED
	tx, err := e.client.CreateTransaction(ctx, gatewayclient.CreateTransactionRequest{Amount: 12345,
		PaymentMethod: gatewayclient.PaymentMethodPIX, IdempotencyKey: "fora-do-checkout-1", ExternalCode: "balcao-0001",
		Pix: &gatewayclient.PixRequest{}})
	if err != nil {
		t.Fatal(err)
	}
	e.control(tx.ID, "pay", nil)

	res, doc := b.get("/dashboard/reconciliation")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %s", res.StatusCode, doc.Find("main").Text())
	}
	matchingOrder, _ := e.svc.Order(ctx, matching)
	rows := reconRows(doc)
	want := map[string]string{matchingOrder.CurrentAttempt().TransactionID: "", refundedDeposit: "state refund", tx.ID: "outside"}
	if len(rows) != len(want) {
		t.Errorf("rows %v, want %v", rows, want)
	}
	for id, issues := range want {
		if got, ok := rows[id]; !ok || got != issues {
			t.Errorf("deposit %s: divergences %q (listed %v), want %q", id, got, ok, issues)
		}
	}
	if out := doc.Find(testid("recon-outside")); out.AttrOr("data-count", "") != "1" || out.AttrOr("data-amount", "") != "12345" ||
		!strings.Contains(out.Text(), "Pago fora do checkout") {
		t.Errorf("outside: %q", strings.Join(strings.Fields(out.Text()), " "))
	}
	if n := doc.Find(testid("recon-summary")).AttrOr("data-divergent", ""); n != "2" {
		t.Errorf("%s rows diverge, want 2", n)
	}
	// The checkout's figures are the overview's of today, net included.
	_, ov := b.get("/dashboard")
	for _, id := range []string{"money-received", "money-refunded", "money-fees", "money-net"} {
		here := doc.Find(testid(id)+` td[data-period="checkout"]`).AttrOr("data-amount", "?")
		there := ov.Find(testid(id)+` td[data-period="today"]`).AttrOr("data-amount", "!")
		if here != there {
			t.Errorf("%s: %s here, %s on the overview", id, here, there)
		}
	}
	// The gateway's side counts the deposit paid outside too.
	if got := doc.Find(testid("money-received")+` td[data-period="gateway"]`).AttrOr("data-amount", ""); got != strconv.Itoa(2*2990+12345) {
		t.Errorf("the gateway received %s", got)
	}
	// Each kind leads to its rows alone.
	href := doc.Find(testid("recon-kind")+`[data-kind="state"] a`).AttrOr("href", "")
	if _, only := b.get(href); len(reconRows(only)) != 1 || reconRows(only)[refundedDeposit] == "" {
		t.Errorf("%s lists %v", href, reconRows(only))
	}
	if n, err := e.board.Divergences(ctx, e.sb.Now()); err != nil || n != 2 {
		t.Errorf("Divergences = %d, %v; want 2", n, err)
	}
	if _, en := b.get("/dashboard/reconciliation?lang=en"); !strings.Contains(en.Find(testid("recon-outside")).Text(), "Paid outside the checkout") {
		t.Errorf("in English: %q", en.Find(testid("recon-outside")).Text())
	}

	// The export, read back.
	f := readXLSX(t, b.do(http.MethodGet, "/dashboard/reconciliation.xlsx", nil))
	sheet, err := f.GetRows("Sheet1")
	if err != nil || len(sheet) != 4 || sheet[0][0] != "Divergência" {
		t.Fatalf("%d rows, header %q, %v", len(sheet), sheet[0], err)
	}
	var outside int
	for i, r := range sheet {
		if len(r) > 1 && r[1] == tx.ID {
			outside = i + 1
		}
	}
	if outside == 0 {
		t.Fatalf("no row of %s in %q", tx.ID, sheet)
	}
	if v, _ := f.GetCellValue("Sheet1", xlsxColumn(t, f, "Divergência", outside)); v != "Pago fora do checkout" {
		t.Errorf("divergence %q", v)
	}
	raw, _ := f.GetCellValue("Sheet1", xlsxColumn(t, f, "Pago em (horário de Brasília)", outside), excelize.Options{RawCellValue: true})
	serial, err := strconv.ParseFloat(raw, 64)
	if err != nil {
		t.Fatalf("the payment date holds %q, not a date", raw)
	}
	if got, err := excelize.ExcelDateToTime(serial, false); err != nil ||
		got.Format(time.DateTime) != e.sb.Now().In(views.SaoPaulo()).Format(time.DateTime) {
		t.Errorf("payment date %v, want São Paulo's %v", got, e.sb.Now().In(views.SaoPaulo()))
	}
	if raw, _ := f.GetCellValue("Sheet1", xlsxColumn(t, f, "Valor pago (R$)", outside), excelize.Options{RawCellValue: true}); raw != "123.45" {
		t.Errorf("amount paid %q, want the number 123.45", raw)
	}
	if typ, _ := f.GetCellType("Sheet1", xlsxColumn(t, f, "Valor pago (R$)", outside)); typ == excelize.CellTypeInlineString || typ == excelize.CellTypeSharedString {
		t.Errorf("the amount is text")
	}
	res = b.do(http.MethodGet, "/dashboard/reconciliation.csv?kind=outside", nil)
	raw2, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	body := string(raw2)
	if lines := strings.Split(strings.TrimSpace(body), "\n"); len(lines) != 2 || !strings.HasPrefix(lines[1], "outside,"+tx.ID+",PAID,") {
		t.Errorf("CSV of the outside kind:\n%s", body)
	}
}

// TestReconciliationPeriod: a period is at most 31 São Paulo days, not after today; a kind
// is one of the divergences; each error is said beside its field.
func TestReconciliationPeriod(t *testing.T) {
	_, b := signedIn(t, at("03:30"))
	for _, q := range []string{"from=2026-01-01&to=2026-03-01", "from=2999-01-01", "kind=nope", "from=ontem"} {
		res, doc := b.get("/dashboard/reconciliation?" + q)
		if res.StatusCode != http.StatusUnprocessableEntity || doc.Find(testid("filter-errors")).Length() != 1 {
			t.Errorf("%s: status %d", q, res.StatusCode)
		}
	}
}

// TestReconciliationNeedsGatewayRead: a role without gateway.read gets the 403 page on the
// page and its exports, and no link to it. No role of the table lacks it today, so the
// viewer's is taken away for this test (not parallel: the table is read by every request).
func TestReconciliationNeedsGatewayRead(t *testing.T) {
	before := team.Permissions[team.RoleViewer]
	t.Cleanup(func() { team.Permissions[team.RoleViewer] = before })
	var without []team.Permission
	for _, p := range before {
		if p != team.PermGatewayRead {
			without = append(without, p)
		}
	}
	team.Permissions[team.RoleViewer] = without
	e := newEnv(t)
	if _, err := e.dash.accounts.AddUser(context.Background(), "leitor@loja.example", dashPassword, team.RoleViewer); err != nil {
		t.Fatal(err)
	}
	b := e.browser()
	res, _ := b.post("/dashboard/login", url.Values{"email": {"leitor@loja.example"}, "password": {dashPassword}})
	if loc := e.location(res); loc != "/dashboard" {
		t.Fatalf("sign-in went to %q", loc)
	}
	for _, path := range []string{"/dashboard/reconciliation", "/dashboard/reconciliation.csv", "/dashboard/reconciliation.xlsx"} {
		if res := b.do(http.MethodGet, path, nil); res.StatusCode != http.StatusForbidden {
			t.Errorf("%s: status %d, want 403", path, res.StatusCode)
		} else {
			res.Body.Close()
		}
	}
	if _, doc := b.get("/dashboard"); doc.Find(`a[href*="/dashboard/reconciliation"]`).Length() != 0 {
		t.Error("the navigation links to the reconciliation")
	}
}
