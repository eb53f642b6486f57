package dashboard_test

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/pixcheckout/pixcheckout/checkout/charges"
	"github.com/pixcheckout/pixcheckout/checkout/team"
)

// BenchmarkChargeImport imports a file of 10,000 charges (200 under -short, which only keeps it
// working), as Excel's CSV and as an .xlsx workbook (amounts as numbers, due dates as date
// cells), through the dashboard as a merchant does: the upload and its report (every line
// checked, each looked up as imported already or not), then the confirmation (the same file
// again, every line created through charges.Manager.CreateOnce), over loopback HTTP on SQLite.
// It reports the seconds of each step and of both; the goal is under 60 s for 10,000 lines.
func BenchmarkChargeImport(b *testing.B) {
	lines := 10_000
	if testing.Short() {
		lines = 200
	}
	b.Run("csv", func(b *testing.B) { benchImport(b, lines, "cobrancas.csv", importCSV) })
	b.Run("xlsx", func(b *testing.B) { benchImport(b, lines, "cobrancas.xlsx", importXLSX) })
}

// importCSV is a file of n charges due on due, as Excel in pt-BR saves CSV.
func importCSV(b *testing.B, n int, due charges.Date) []byte {
	var sb strings.Builder
	sb.WriteString("\uFEFFnome;cpf;email;celular;valor;vencimento;descricao;codigo externo\r\n")
	for i := range n {
		fmt.Fprintf(&sb, "Cliente %d;529.982.247-25;cliente%d@example.com;(11) 98765-4321;%d,%02d;%02d/%02d/%d;Mensalidade de março;ALUNO-%d\r\n",
			i, i, 100+i%900, i%100, due.Day, int(due.Month), due.Year, i)
	}
	return []byte(sb.String())
}

// importXLSX is a workbook of n charges due on due: amounts numbers, due dates date cells.
func importXLSX(b *testing.B, n int, due charges.Date) []byte {
	f := excelize.NewFile()
	defer f.Close()
	sw, err := f.NewStreamWriter("Sheet1")
	if err != nil {
		b.Fatal(err)
	}
	date, _ := f.NewStyle(&excelize.Style{NumFmt: 14})
	_ = sw.SetRow("A1", []any{"Nome", "CPF", "E-mail", "Celular", "Valor", "Vencimento", "Descrição", "Código externo"})
	day := time.Date(due.Year, due.Month, due.Day, 0, 0, 0, 0, time.UTC)
	for i := range n {
		cell, _ := excelize.CoordinatesToCellName(1, i+2)
		if err := sw.SetRow(cell, []any{fmt.Sprintf("Cliente %d", i), "529.982.247-25", fmt.Sprintf("cliente%d@example.com", i),
			"(11) 98765-4321", float64(100+i%900) + float64(i%100)/100, excelize.Cell{StyleID: date, Value: day},
			"Mensalidade de março", fmt.Sprintf("ALUNO-%d", i)}); err != nil {
			b.Fatal(err)
		}
	}
	if err := sw.Flush(); err != nil {
		b.Fatal(err)
	}
	buf, err := f.WriteToBuffer()
	if err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

// benchImport imports the file write makes, of lines charges, into a new checkout per round.
func benchImport(b *testing.B, lines int, name string, write func(*testing.B, int, charges.Date) []byte) {
	for range b.N {
		b.StopTimer()
		e := newEnv(b, at("03:30"))
		br, csrf := e.signedIn(team.RoleOperator)
		file := write(b, lines, charges.AddDays(e.charges.Today(), 10))
		b.StartTimer()
		start := time.Now()
		_, doc := br.importFile(csrf, name, file, nil)
		reported := time.Since(start)
		digest := doc.Find(`input[name="digest"]`).AttrOr("value", "")
		if v := doc.Find(testid("import-report")).AttrOr("data-valid", ""); v != strconv.Itoa(lines) {
			b.Fatalf("report: %s valid lines of %d: %.500s", v, lines, doc.Find("main").Text())
		}
		_, doc = br.importFile(csrf, name, file, url.Values{"confirm": {"yes"}, "digest": {digest}})
		total := time.Since(start)
		b.StopTimer()
		if v := doc.Find(testid("import-result")).AttrOr("data-created", ""); v != strconv.Itoa(lines) {
			b.Fatalf("created %s of %d", v, lines)
		}
		b.ReportMetric(reported.Seconds(), "report-s")
		b.ReportMetric((total - reported).Seconds(), "create-s")
		b.ReportMetric(total.Seconds(), "total-s")
		b.ReportMetric(float64(lines)/total.Seconds(), "lines/s")
		b.ReportMetric(float64(len(file))/1e6, "file-MB")
	}
}
