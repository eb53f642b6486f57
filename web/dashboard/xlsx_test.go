package dashboard_test

import (
	"context"
	"encoding/csv"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/pixcheckout/pixcheckout/views"
)

// readXLSX reads an .xlsx export's first sheet back with excelize, within size limits (a
// file from a server is read as one from anyone), and returns it open.
func readXLSX(t *testing.T, res *http.Response) *excelize.File {
	t.Helper()
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" {
		t.Fatalf("status %d, %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	f, err := excelize.OpenReader(res.Body, excelize.Options{UnzipSizeLimit: 64 << 20, UnzipXMLSizeLimit: 16 << 20,
		TmpDir: t.TempDir()})
	if err != nil {
		t.Fatalf("reading the workbook: %v", err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// xlsxColumn is the cell name of the header's column called label in row n.
func xlsxColumn(t *testing.T, f *excelize.File, label string, n int) string {
	t.Helper()
	rows, err := f.GetRows("Sheet1")
	if err != nil || len(rows) == 0 {
		t.Fatalf("rows: %v", err)
	}
	i := slices.Index(rows[0], label)
	if i < 0 {
		t.Fatalf("no column %q in %q", label, rows[0])
	}
	name, _ := excelize.CoordinatesToCellName(i+1, n)
	return name
}

// TestDepositsXLSX: the deposits' .xlsx beside the CSV: headers in pt-BR, the payer's ISPB a
// text cell that keeps its leading zeros, dates date cells in São Paulo time, amounts numbers
// in R$, statuses in words, the header row frozen.
func TestDepositsXLSX(t *testing.T) {
	e, b := signedIn(t)
	id := orderID(e.placeOrder())
	o := e.waitStatus(id, "awaiting_payment")
	tx := o.CurrentAttempt().TransactionID
	err := e.client.Do(context.Background(), http.MethodPost, "/sandbox/deposits/"+url.PathEscape(tx)+"/pay",
		map[string]any{"payer": map[string]any{"name": "Maria da Silva", "document": "52998224725",
			"bankAccount": map[string]any{"ispb": "00416968", "type": "CACC", "digit": "1"},
			"pix":         map[string]any{"key": "52998224725", "type": "CPF"}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	d, err := e.client.GetDeposit(context.Background(), tx)
	if err != nil {
		t.Fatal(err)
	}
	f := readXLSX(t, b.do(http.MethodGet, "/dashboard/deposits.xlsx?status=PAID", nil))
	ispb := xlsxColumn(t, f, "ISPB do pagador", 2)
	if v, _ := f.GetCellValue("Sheet1", ispb); v != "00416968" {
		t.Errorf("ISPB %q, want 00416968", v)
	}
	if typ, _ := f.GetCellType("Sheet1", ispb); typ != excelize.CellTypeInlineString && typ != excelize.CellTypeSharedString {
		t.Errorf("the ISPB's cell is of type %v, not text", typ)
	}
	when := xlsxColumn(t, f, "Criado em (horário de Brasília)", 2)
	raw, _ := f.GetCellValue("Sheet1", when, excelize.Options{RawCellValue: true})
	serial, err := strconv.ParseFloat(raw, 64)
	if err != nil {
		t.Fatalf("the date cell holds %q, not a date", raw)
	}
	got, err := excelize.ExcelDateToTime(serial, false)
	local := d.CreatedAt.In(views.SaoPaulo())
	if err != nil || got.Format(time.DateTime) != local.Format(time.DateTime) {
		t.Errorf("date %v, want São Paulo's %v", got, local)
	}
	if v, _ := f.GetCellValue("Sheet1", when); v != local.Format(time.DateTime) {
		t.Errorf("the date shows %q", v)
	}
	amount := xlsxColumn(t, f, "Valor", 2)
	raw, _ = f.GetCellValue("Sheet1", amount, excelize.Options{RawCellValue: true})
	style, _ := f.GetCellStyle("Sheet1", amount)
	st, _ := f.GetStyle(style)
	if raw != strconv.FormatFloat(float64(d.Amount)/100, 'f', -1, 64) || st == nil || st.CustomNumFmt == nil ||
		*st.CustomNumFmt != "[$R$-416] #,##0.00" {
		t.Errorf("amount %q in format %+v", raw, st)
	}
	if v, _ := f.GetCellValue("Sheet1", xlsxColumn(t, f, "Situação", 2)); v != "Pago" {
		t.Errorf("status %q", v)
	}
	if panes, err := f.GetPanes("Sheet1"); err != nil || !panes.Freeze || panes.YSplit != 1 {
		t.Errorf("panes %+v, %v", panes, err)
	}
	// In English on request.
	f = readXLSX(t, b.do(http.MethodGet, "/dashboard/deposits.xlsx?status=PAID&lang=en", nil))
	xlsxColumn(t, f, "Payer's ISPB", 1)
	if v, _ := f.GetCellValue("Sheet1", xlsxColumn(t, f, "Status", 2)); v != "Paid" {
		t.Errorf("status in English %q", v)
	}
}

// TestOrdersExport: the orders' export holds exactly the rows of the list's filter, in CSV
// and .xlsx, the customer's document masked.
func TestOrdersExport(t *testing.T) {
	e, b := signedIn(t)
	paid := map[string]bool{e.paidOrder(): true, e.paidOrder(): true}
	e.placeOrder() // awaiting payment: not in the filter
	res := b.do(http.MethodGet, "/dashboard/orders.csv?status=paid", nil)
	defer res.Body.Close()
	rows, err := csv.NewReader(res.Body).ReadAll()
	if err != nil || len(rows) != 3 {
		t.Fatalf("%d rows, %v", len(rows), err)
	}
	id, doc := slices.Index(rows[0], "id"), slices.Index(rows[0], "customerDocument")
	for _, r := range rows[1:] {
		if !paid[r[id]] || r[doc] == "52998224725" {
			t.Errorf("row %q", r)
		}
	}
	f := readXLSX(t, b.do(http.MethodGet, "/dashboard/orders.xlsx?status=paid&sort=amount_desc", nil))
	xrows, _ := f.GetRows("Sheet1")
	if len(xrows) != 3 || xrows[0][0] != "Pedido" {
		t.Errorf("xlsx rows %q", xrows)
	}
}
