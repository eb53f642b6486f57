package bulk_test

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"
	"golang.org/x/text/encoding/charmap"

	"github.com/pixcheckout/pixcheckout/checkout/audit"
	"github.com/pixcheckout/pixcheckout/checkout/charges"
	"github.com/pixcheckout/pixcheckout/checkout/charges/bulk"
	"github.com/pixcheckout/pixcheckout/checkout/sqlite"
	"github.com/pixcheckout/pixcheckout/checkout/sqlite/sqlitetest"
	"github.com/pixcheckout/pixcheckout/gatewayclient/brdoc"
)

// noon is the tests' clock: 12:00 in São Paulo on 1 March 2026, whatever the wall clock says.
var noon = time.Date(2026, time.March, 1, 15, 0, 0, 0, time.UTC)

// newManager is a charges manager on a new SQLite store, its clock at noon.
func newManager(t testing.TB) *charges.Manager {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "c.db")
	sqlitetest.Create(t, path)
	store, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	clock := func() time.Time { return noon }
	return charges.NewManager(store, audit.New(store, time.Hour, clock), clock)
}

// zeroCPF is a valid CPF that starts with a zero: a spreadsheet that stores it as a number
// drops that zero.
func zeroCPF(t testing.TB) string {
	d, err := brdoc.CPFCheckDigits("012345678")
	if err != nil {
		t.Fatal(err)
	}
	return "012345678" + d
}

// The same three charges, as each flavour writes them.
func plainCSV(t testing.TB) []byte {
	return []byte("name,document,email,phone,amount,due date,description,external code\n" +
		"João da Silva,529.982.247-25,joao@example.com,(11) 98765-4321,1234.56,2026-03-31,Mensalidade de março,ALUNO-1\n" +
		"Ana Souza," + zeroCPF(t) + ",ana@example.com,,150,2026-04-10,\"Aula avulsa, sábado\",\n" +
		"Loja Ltda,11.222.333/0001-81,contas@loja.example,,\"1,234.00\",2026-03-15,Serviço,ALUNO-3\n")
}

func excelCSV(t testing.TB) string {
	return "Nome;CPF/CNPJ;E-mail;Celular;Valor (R$);Data de vencimento;Descrição;Código externo\r\n" +
		"João da Silva;529.982.247-25;joao@example.com;(11) 98765-4321;1.234,56;31/03/2026;Mensalidade de março;ALUNO-1\r\n" +
		"Ana Souza;" + zeroCPF(t) + ";ana@example.com;;150,00;10/04/2026;Aula avulsa, sábado;\r\n" +
		"Loja Ltda;11.222.333/0001-81;contas@loja.example;;1234;15/03/2026;Serviço;ALUNO-3\r\n"
}

// workbook writes the three charges as a spreadsheet program does: amounts as numbers, due
// dates as date cells, the CPF as a number (its leading zero lost).
func workbook(t testing.TB) []byte {
	f := excelize.NewFile()
	defer f.Close()
	date, err := f.NewStyle(&excelize.Style{NumFmt: 14})
	if err != nil {
		t.Fatal(err)
	}
	rows := [][]any{
		{"Nome", "Documento", "E-mail", "Telefone", "Valor", "Vencimento", "Descrição", "Código externo"},
		{"João da Silva", "529.982.247-25", "joao@example.com", "(11) 98765-4321", 1234.56, time.Date(2026, 3, 31, 0, 0, 0, 0, time.UTC), "Mensalidade de março", "ALUNO-1"},
		{"Ana Souza", nil, "ana@example.com", nil, 150, time.Date(2026, 4, 10, 0, 0, 0, 0, time.UTC), "Aula avulsa, sábado", nil},
		{"Loja Ltda", "11.222.333/0001-81", "contas@loja.example", nil, "1.234,00", "15/03/2026", "Serviço", "ALUNO-3"},
	}
	for i, row := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := f.SetSheetRow("Sheet1", cell, &row); err != nil {
			t.Fatal(err)
		}
		if i > 0 {
			if err := f.SetCellStyle("Sheet1", fmt.Sprintf("F%d", i+1), fmt.Sprintf("F%d", i+1), date); err != nil {
				t.Fatal(err)
			}
		}
	}
	// A number typed for the document is a number cell: its leading zero is gone.
	if err := f.SetCellInt("Sheet1", "B3", int64(mustAtoi(t, zeroCPF(t)))); err != nil {
		t.Fatal(err)
	}
	buf, err := f.WriteToBuffer()
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func mustAtoi(t testing.TB, s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

// Every flavour reads as the same three charges, with the same keys: a file saved again in
// another flavour is the same import.
func TestReadFlavours(t *testing.T) {
	m := newManager(t)
	win, err := charmap.Windows1252.NewEncoder().String(excelCSV(t))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{
		"plain CSV":                    plainCSV(t),
		"Excel CSV, UTF-8 with a BOM":  []byte("\uFEFF" + excelCSV(t)),
		"Excel CSV, Windows-1252":      []byte(win),
		"xlsx, numbers and date cells": workbook(t),
	}
	want := []charges.Input{
		{Customer: charges.Customer{Name: "João da Silva", Document: "52998224725", Email: "joao@example.com", Phone: "+5511987654321"},
			Description: "Mensalidade de março", ExternalCode: "ALUNO-1",
			Terms: charges.Terms{Amount: 123456, Due: charges.Date{Year: 2026, Month: time.March, Day: 31}}},
		{Customer: charges.Customer{Name: "Ana Souza", Document: zeroCPF(t), Email: "ana@example.com"},
			Description: "Aula avulsa, sábado", Terms: charges.Terms{Amount: 15000, Due: charges.Date{Year: 2026, Month: time.April, Day: 10}}},
		{Customer: charges.Customer{Name: "Loja Ltda", Document: "11222333000181", Email: "contas@loja.example"},
			Description: "Serviço", ExternalCode: "ALUNO-3",
			Terms: charges.Terms{Amount: 123400, Due: charges.Date{Year: 2026, Month: time.March, Day: 15}}},
	}
	var keys []string
	for name, b := range files {
		sheet, err := bulk.Read(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		rep, err := bulk.Check(context.Background(), m, sheet)
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Lines) != len(want) {
			t.Fatalf("%s: %d lines", name, len(rep.Lines))
		}
		for i, l := range rep.Lines {
			if l.Errors != nil || l.Input != want[i] || l.Number != i+2 {
				t.Errorf("%s line %d: %+v, errors %v", name, l.Number, l.Input, l.Errors)
			}
			if keys == nil || len(keys) < len(want) {
				keys = append(keys, l.Key)
			} else if keys[i] != l.Key {
				t.Errorf("%s line %d: key %s, another flavour's %s", name, l.Number, l.Key, keys[i])
			}
		}
	}
}

// lineFields are the fields each line's errors name, by line number.
func lineFields(rep *bulk.Report) map[int][]string {
	out := map[int][]string{}
	for _, l := range rep.Lines {
		if l.Errors == nil {
			continue
		}
		for _, v := range l.Errors.Violations {
			out[l.Number] = append(out[l.Number], v.Field+":"+v.Code)
		}
	}
	return out
}

// The report names each bad field of each line, with the charge's own checks (the same as a
// single charge's) after what does not read, and creates nothing.
func TestReportNamesEachBadField(t *testing.T) {
	m := newManager(t)
	csv := "nome;documento;email;telefone;valor;vencimento;descricao;codigo externo\n" +
		"Maria;529.982.247-25;maria@example.com;;10,00;2026-03-10;Mensalidade;A-1\n" + // 2: valid
		";111.111.111-11;maria@;123;10,00;2026-03-10;Mensalidade;A-2\n" + // 3: name, document, e-mail, phone
		"Maria;529.982.247-25;maria@example.com;;doze;31/02/2026;Mensalidade;A-3\n" + // 4: amount, due date
		"Maria;529.982.247-25;maria@example.com;;0;28/02/2026;;A-4\n" + // 5: amount, due date past, description
		"Maria;529.982.247-25;maria@example.com;;100000,00;2026-03-10;Mensalidade;A-5\n" + // 6: at the gateway's cap: valid
		"Maria;529.982.247-25;maria@example.com;;10,00;2026-03-10;Mensalidade;A-1\n" + // 7: repeats line 2's code
		"Maria;529.982.247-25;maria@example.com;;10,00;2026-03-10;Mensalidade;\n" + // 8: valid, no code
		"Maria;529.982.247-25;maria@example.com;;10,00;2026-03-10;Mensalidade;\n" + // 9: repeats line 8
		"Maria;529.982.247-25;maria@example.com;;-5;2026-03-10;Mensalidade;" + strings.Repeat("x", 101) + "\n" // 10
	sheet, err := bulk.Read(strings.NewReader(csv))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := bulk.Check(context.Background(), m, sheet)
	if err != nil {
		t.Fatal(err)
	}
	want := map[int][]string{
		3:  {"customer.name:required", "customer.document:document", "customer.email:format", "customer.phone:format"},
		4:  {"amount:format", "dueDate:format"},
		5:  {"description:required", "amount:min", "dueDate:min"},
		7:  {"externalCode:repeated"},
		9:  {"line:repeated"},
		10: {"amount:format", "externalCode:max_length"},
	}
	got := lineFields(rep)
	for n, fields := range want {
		if !slices.Equal(got[n], fields) {
			t.Errorf("line %d: %v, want %v", n, got[n], fields)
		}
	}
	for n := range got {
		if want[n] == nil {
			t.Errorf("line %d: %v, want none", n, got[n])
		}
	}
	if valid, done, invalid := rep.Counts(); valid != 3 || done != 0 || invalid != 6 {
		t.Fatalf("counts %d, %d, %d", valid, done, invalid)
	}
	if rep.Lines[5].Repeats != 2 || rep.Lines[7].Repeats != 8 {
		t.Fatalf("repeats: %d, %d", rep.Lines[5].Repeats, rep.Lines[7].Repeats)
	}
	if list, _, err := m.List(context.Background(), charges.Filter{Limit: 10}, 10); err != nil || len(list) != 0 {
		t.Fatalf("the report created %d charges (%v)", len(list), err)
	}
}

// Importing the same file again creates nothing twice: every line reads as imported already
// (by its external code, or its content without one); a line whose external code was imported
// with other values is refused, naming the external code.
func TestImportOnce(t *testing.T) {
	ctx := context.Background()
	m := newManager(t)
	check := func(b []byte) *bulk.Report {
		t.Helper()
		sheet, err := bulk.Read(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		rep, err := bulk.Check(ctx, m, sheet)
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	res, err := bulk.Import(ctx, m, "ana@loja.example", "", check(plainCSV(t)), nil)
	if err != nil || res.Created != 3 || res.Done != 0 || len(res.Refused) != 0 {
		t.Fatalf("first import: %+v, %v", res, err)
	}
	// The same charges from the workbook: the same keys.
	rep := check(workbook(t))
	if valid, done, invalid := rep.Counts(); valid != 0 || done != 3 || invalid != 0 {
		t.Fatalf("the report of a file imported already: %d valid, %d done, %d invalid", valid, done, invalid)
	}
	if res, err = bulk.Import(ctx, m, "ana@loja.example", "", rep, nil); err != nil || res.Created != 0 || res.Done != 3 {
		t.Fatalf("second import: %+v, %v", res, err)
	}
	changed := bytes.Replace(plainCSV(t), []byte("1234.56"), []byte("1234.57"), 1)
	if got := lineFields(check(changed)); !slices.Equal(got[2], []string{"externalCode:" + bulk.CodeImportedOther}) || len(got) != 1 {
		t.Fatalf("a code imported with other values: %v", got)
	}
	if list, n, err := m.List(ctx, charges.Filter{Limit: 10}, 10); err != nil || n != 3 || len(list) != 3 {
		t.Fatalf("%d charges stored (%v)", n, err)
	}
}

// Files that cannot be imported at all are named: columns missing or repeated, no lines, an
// unclosed quote, too many lines.
func TestFileErrors(t *testing.T) {
	cases := map[string]struct {
		file string
		code string
		cols []string
		line int
	}{
		"missing":  {"nome,email,valor\nMaria,m@example.com,10\n", bulk.FileColumns, []string{"customer.document", "dueDate", "description"}, 0},
		"repeated": {"nome,cpf,cnpj,email,valor,vencimento,descricao\n", bulk.FileRepeated, []string{"customer.document"}, 0},
		"empty":    {"nome,cpf,email,valor,vencimento,descricao\n\n,,,,,\n", bulk.FileEmpty, nil, 0},
		"quote":    {"nome,cpf,email,valor,vencimento,descricao\n\"Maria,1,2,3,4,5\n", bulk.FileFormat, nil, 2},
		"too many": {"nome,cpf,email,valor,vencimento,descricao\n" + strings.Repeat("M,1,e,1,2026-03-10,d\n", bulk.MaxLines+1), bulk.FileTooManyLines, nil, 0},
	}
	for name, c := range cases {
		_, err := bulk.Read(strings.NewReader(c.file))
		var fe *bulk.FileError
		if !errors.As(err, &fe) || fe.Code != c.code || !slices.Equal(fe.Columns, c.cols) || fe.Line != c.line {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// bomb is a workbook whose sheet unzips to 17 MB of spaces from a few hundred kilobytes.
func bomb(t testing.TB) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	// Quick to make: the test is the size it declares, not how well it compresses.
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) { return flate.NewWriter(w, flate.BestSpeed) })
	parts := map[string]string{
		"[Content_Types].xml": `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`,
		"xl/workbook.xml":     `<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheets><sheet name="Sheet1" sheetId="1"/></sheets></workbook>`,
	}
	for name, body := range parts {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = w.Write([]byte(body))
	}
	w, err := zw.Create("xl/worksheets/sheet1.xml")
	if err != nil {
		t.Fatal(err)
	}
	spaces := bytes.Repeat([]byte(" "), 1<<20)
	for range 17 {
		_, _ = w.Write(spaces)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// A workbook that unzips past the limit is refused on the sizes its zip declares, before
// anything is inflated; excelize, opened with the same limits, refuses it too.
func TestHostileWorkbook(t *testing.T) {
	b := bomb(t)
	if len(b) > bulk.MaxBytes {
		t.Fatalf("the bomb is %d bytes: over the upload limit, it tests nothing", len(b))
	}
	_, err := bulk.Read(bytes.NewReader(b))
	var fe *bulk.FileError
	if !errors.As(err, &fe) || fe.Code != bulk.FileTooLarge {
		t.Fatalf("a workbook unzipping to 17 MB: %v", err)
	}
	if err := bulk.OpenWorkbookForTest(b); err == nil || !strings.Contains(err.Error(), "unzip size exceeds") {
		t.Fatalf("excelize with the import's limits opened the bomb: %v", err)
	}
	if _, err := bulk.Read(bytes.NewReader(make([]byte, bulk.MaxBytes+1))); !errors.As(err, &fe) || fe.Code != bulk.FileTooLarge {
		t.Fatalf("a file over the upload limit: %v", err)
	}
}

// In a workbook, "1.234" typed as text is R$ 1.234,00 as a pt-BR reader means it; the number
// 1.234 has more than cents and is refused; the number 10.5 is R$ 10,50.
func TestWorkbookAmounts(t *testing.T) {
	f := excelize.NewFile()
	defer f.Close()
	rows := [][]any{
		{"name", "document", "email", "amount", "due date", "description"},
		{"Maria", "529.982.247-25", "maria@example.com", "1.234", "2026-03-10", "text"},
		{"Maria", "529.982.247-25", "maria@example.com", 1.234, "2026-03-10", "number"},
		{"Maria", "529.982.247-25", "maria@example.com", 10.5, "2026-03-10", "number"},
	}
	for i, row := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := f.SetSheetRow("Sheet1", cell, &row); err != nil {
			t.Fatal(err)
		}
	}
	buf, err := f.WriteToBuffer()
	if err != nil {
		t.Fatal(err)
	}
	sheet, err := bulk.Read(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := bulk.Check(context.Background(), newManager(t), sheet)
	if err != nil {
		t.Fatal(err)
	}
	if l := rep.Lines; l[0].Input.Terms.Amount != 123400 || l[0].Errors != nil || l[2].Input.Terms.Amount != 1050 ||
		!slices.Equal(lineFields(rep)[3], []string{"amount:format"}) {
		t.Fatalf("amounts %d, %d, %d; errors %v", l[0].Input.Terms.Amount, l[1].Input.Terms.Amount, l[2].Input.Terms.Amount, lineFields(rep))
	}
}
