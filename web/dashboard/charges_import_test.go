package dashboard_test

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/xuri/excelize/v2"

	"github.com/pixcheckout/pixcheckout/checkout/charges"
	"github.com/pixcheckout/pixcheckout/checkout/team"
	"github.com/pixcheckout/pixcheckout/gatewayclient/brdoc"
)

// importFile posts a spreadsheet to the import form as a browser does, with fields.
func (b *browser) importFile(token, filename string, data []byte, fields url.Values) (*http.Response, *goquery.Document) {
	b.e.t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	_ = mw.WriteField("csrf_token", token)
	for k, vs := range fields {
		for _, v := range vs {
			_ = mw.WriteField(k, v)
		}
	}
	fw, _ := mw.CreateFormFile("file", filename)
	_, _ = fw.Write(data)
	_ = mw.Close()
	req, err := http.NewRequest(http.MethodPost, b.e.srv.URL+"/dashboard/charges/import", &body)
	if err != nil {
		b.e.t.Fatal(err)
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Origin", b.e.srv.URL)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	res, err := b.hc.Do(req)
	if err != nil {
		b.e.t.Fatal(err)
	}
	return res, b.e.parse(res)
}

// importErrors are the fields each line of a report names, by line.
func importErrors(doc *goquery.Document) map[string][]string {
	out := map[string][]string{}
	doc.Find(testid("import-line")).Each(func(_ int, s *goquery.Selection) {
		s.Find(testid("import-error")).Each(func(_ int, e *goquery.Selection) {
			out[s.AttrOr("data-line", "")] = append(out[s.AttrOr("data-line", "")], e.AttrOr("data-field", ""))
		})
	})
	return out
}

// storedCharges counts the charges in the store.
func (e *env) storedCharges() int {
	e.t.Helper()
	_, n, err := e.charges.List(context.Background(), charges.Filter{Limit: 1}, 100_000)
	if err != nil {
		e.t.Fatal(err)
	}
	return n
}

// The import from the dashboard: the report names each bad line's fields and creates nothing;
// a confirmation with another file shows that file's report instead; the confirmation creates
// the valid lines; the same file again creates nothing twice. A workbook that unzips past the
// limit, and a file without CSRF token, are refused.
func TestChargeImport(t *testing.T) {
	e := newEnv(t, at("03:30"))
	b, csrf := e.signedIn(team.RoleOperator)
	_, doc := b.get("/dashboard/charges")
	if doc.Find(testid("import-link")).Length() != 1 || doc.Find(testid("export-csv")).Length() != 1 {
		t.Fatal("the list leads neither to the import nor to the export")
	}
	_, doc = b.get("/dashboard/charges/import")
	if doc.Find(`form[enctype="multipart/form-data"] input[name="csrf_token"]`).Length() != 1 || doc.Find("label[for=import-file]").Length() != 1 {
		t.Fatal("the import page has no upload form with a token and a label")
	}
	due := charges.AddDays(e.charges.Today(), 10)
	br := fmt.Sprintf("%02d/%02d/%d", due.Day, int(due.Month), due.Year)
	file := []byte("\uFEFFNome;CPF;E-mail;Celular;Valor;Vencimento;Descrição;Código externo\r\n" +
		"Maria da Silva;529.982.247-25;maria@example.com;(11) 98765-4321;1.234,56;" + br + ";Mensalidade;ALUNO-1\r\n" +
		"João;111.111.111-11;joao@;;doze;32/01/2026;Mensalidade;ALUNO-2\r\n" +
		"Ana;529.982.247-25;ana@example.com;;150,00;" + due.String() + ";;ALUNO-3\r\n" +
		"Pedro;529.982.247-25;pedro@example.com;;99,90;" + due.String() + ";Aula avulsa;\r\n")
	res, doc := b.importFile(csrf, "cobrancas.csv", file, nil)
	report := doc.Find(testid("import-report"))
	if res.StatusCode != http.StatusOK || report.AttrOr("data-valid", "") != "2" || report.AttrOr("data-invalid", "") != "2" {
		t.Fatalf("report: %d, %s", res.StatusCode, doc.Find("main").Text())
	}
	// What does not read comes first, then the charge's own checks.
	want := map[string][]string{"3": {"amount", "dueDate", "customer.document", "customer.email"}, "4": {"description"}}
	if got := importErrors(doc); len(got) != 2 || !slices.Equal(got["3"], want["3"]) || !slices.Equal(got["4"], want["4"]) {
		t.Fatalf("errors by line %v, want %v", got, want)
	}
	if !strings.Contains(doc.Find(`[data-line="3"] [data-field="amount"]`).Text(), "Valor") {
		t.Fatalf("the amount's error does not name its column: %q", doc.Find(`[data-line="3"]`).Text())
	}
	if e.storedCharges() != 0 {
		t.Fatal("the report created charges")
	}
	form := doc.Find(testid("import-form"))
	digest := form.Find(`input[name="digest"]`).AttrOr("value", "")
	if form.AttrOr("data-confirm", "") != "true" || digest == "" {
		t.Fatal("the report offers no confirmation")
	}
	confirm := url.Values{"confirm": {"yes"}, "digest": {digest}}
	// Another file under the confirmation: its report, nothing created.
	_, doc = b.importFile(csrf, "cobrancas.csv", append(slices.Clone(file), "Rita;529.982.247-25;rita@example.com;;10,00;"+due.String()+";Aula;\r\n"...), confirm)
	if doc.Find(testid("import-changed")).Length() != 1 || doc.Find(testid("import-report")).AttrOr("data-valid", "") != "3" || e.storedCharges() != 0 {
		t.Fatalf("a confirmation of another file: %s", doc.Find("main").Text())
	}
	_, doc = b.importFile(csrf, "cobrancas.csv", file, confirm)
	if r := doc.Find(testid("import-result")); r.AttrOr("data-created", "") != "2" || e.storedCharges() != 2 {
		t.Fatalf("confirmed: %s; %d stored", doc.Find("main").Text(), e.storedCharges())
	}
	// The same file again: each valid line is imported already, and confirming creates nothing.
	_, doc = b.importFile(csrf, "cobrancas.csv", file, nil)
	if r := doc.Find(testid("import-report")); r.AttrOr("data-valid", "") != "0" || r.AttrOr("data-done", "") != "2" ||
		doc.Find(testid("import-form")).AttrOr("data-confirm", "") != "false" {
		t.Fatalf("the report of a file imported already: %s", doc.Find("main").Text())
	}
	_, doc = b.importFile(csrf, "cobrancas.csv", file, confirm)
	if r := doc.Find(testid("import-result")); r.AttrOr("data-created", "") != "0" || r.AttrOr("data-done", "") != "2" || e.storedCharges() != 2 {
		t.Fatalf("confirmed again: %s; %d stored", doc.Find("main").Text(), e.storedCharges())
	}
	// A workbook of one line, then one that unzips to 17 MB.
	wb := excelize.NewFile()
	_ = wb.SetSheetRow("Sheet1", "A1", &[]any{"name", "document", "email", "amount", "due date", "description"})
	_ = wb.SetSheetRow("Sheet1", "A2", &[]any{"Rita", "529.982.247-25", "rita@example.com", 10.5, due.String(), "Aula"})
	xb, err := wb.WriteToBuffer()
	if err != nil {
		t.Fatal(err)
	}
	_, doc = b.importFile(csrf, "cobrancas.xlsx", xb.Bytes(), nil)
	if doc.Find(testid("import-report")).AttrOr("data-valid", "") != "1" {
		t.Fatalf("a workbook: %s", doc.Find("main").Text())
	}
	res, doc = b.importFile(csrf, "bomba.xlsx", zipBomb(t), nil)
	if res.StatusCode != http.StatusUnprocessableEntity || doc.Find("#import-file-error").Length() != 1 ||
		doc.Find("#import-file").AttrOr("aria-invalid", "") != "true" {
		t.Fatalf("a zip bomb: %d, %s", res.StatusCode, doc.Find("main").Text())
	}
	if res, _ = b.importFile("", "cobrancas.csv", file, nil); res.StatusCode != http.StatusForbidden {
		t.Fatalf("without a token: %d", res.StatusCode)
	}
}

// zipBomb is a workbook whose sheet unzips to 17 MB of spaces from a few hundred kilobytes.
func zipBomb(t *testing.T) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	// Quick to make: the test is the size it declares, not how well it compresses.
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) { return flate.NewWriter(w, flate.BestSpeed) })
	for _, name := range []string{"[Content_Types].xml", "xl/workbook.xml", "xl/worksheets/sheet1.xml"} {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if name == "xl/worksheets/sheet1.xml" {
			for range 17 {
				_, _ = w.Write(bytes.Repeat([]byte(" "), 1<<20))
			}
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// The charges' export: the list's filters, CSV and .xlsx, documents and phones masked unless a
// role that may asks them in full.
func TestChargesExport(t *testing.T) {
	e := newEnv(t, at("03:30"))
	open := map[string]bool{e.newCharge("(11) 98765-4321"): true, e.newCharge(""): true}
	canceled := e.newCharge("")
	if _, err := e.charges.Cancel(context.Background(), "ana@loja.example", "", canceled); err != nil {
		t.Fatal(err)
	}
	b, _ := e.signedIn(team.RoleOwner)
	read := func(path string) [][]string {
		t.Helper()
		res := b.do(http.MethodGet, path, nil)
		defer res.Body.Close()
		cr := csv.NewReader(res.Body)
		if strings.Contains(path, "format=excel") {
			cr.Comma = ';'
		}
		rows, err := cr.ReadAll()
		if err != nil || res.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d, %v", path, res.StatusCode, err)
		}
		return rows
	}
	rows := read("/dashboard/charges.csv?status=open")
	if len(rows) != 3 {
		t.Fatalf("%d rows: %q", len(rows), rows)
	}
	id, doc, phone, bal := slices.Index(rows[0], "id"), slices.Index(rows[0], "customerDocument"),
		slices.Index(rows[0], "customerPhone"), slices.Index(rows[0], "balanceCents")
	for _, r := range rows[1:] {
		if !open[r[id]] || !strings.HasPrefix(r[doc], "***") || r[bal] != "15000" {
			t.Errorf("row %q", r)
		}
	}
	full := read("/dashboard/charges.csv?status=open&personalData=full")
	masked := !slices.ContainsFunc(rows[1:], func(r []string) bool { return strings.Contains(r[phone], "98765") })
	if !masked || brdoc.OnlyDigits(full[1][doc]) != "52998224725" || !slices.ContainsFunc(full[1:], func(r []string) bool { return r[phone] == "(11) 98765-4321" }) {
		t.Errorf("in full: %q", full)
	}
	if all := read("/dashboard/charges.csv?format=excel"); len(all) != 4 {
		t.Errorf("every charge: %d rows", len(all))
	}
	x := readXLSX(t, b.do(http.MethodGet, "/dashboard/charges.xlsx?status=canceled", nil))
	xrows, _ := x.GetRows("Sheet1")
	if len(xrows) != 2 || xrows[1][0] != canceled || !slices.Contains(xrows[0], "Vencimento") || !slices.Contains(xrows[1], "Cancelada") {
		t.Errorf("xlsx rows %q", xrows)
	}
	viewer, _ := e.signedIn(team.RoleViewer)
	if res := viewer.do(http.MethodGet, "/dashboard/charges.csv?personalData=full", nil); res.StatusCode != http.StatusForbidden {
		t.Errorf("a viewer's export in full: %d", res.StatusCode)
	}
}
