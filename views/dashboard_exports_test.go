package views

import (
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
)

// TestExportPagesInEveryState: a background export's page running (progress bar, rows so far),
// ready (download with its size, until when), and failed for each reason, and the list of the
// user's exports, each in the reader's language with no state or reason shown as a code.
func TestExportPagesInEveryState(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 25, 15, 4, 5, 0, time.UTC)
	for _, lang := range Langs() {
		var jobs []ExportJobView
		for _, j := range []ExportJobView{
			{State: "running", Rows: 42_300, Total: 150_000},
			{State: "ready", Rows: 150_000, Total: 150_000, Size: 61_234_567, DownloadURL: "/dashboard/exports/x/download", ExpiresAt: at.Add(24 * time.Hour)},
			{State: "failed", Error: "source"}, {State: "failed", Error: "interrupted"}, {State: "failed", Error: "store"},
		} {
			j.URL, j.Kind, j.Format, j.CreatedAt = "/dashboard/exports/x", "deposits", "excel", at
			jobs = append(jobs, j)
			v := ExportJobPage{DashPage: dashSample(lang, "deposits"), Job: j, ListURL: "/dashboard/exports", BackURL: "/dashboard/deposits",
				Refresh: 2, Threshold: 100_000}
			r := render(t, ExportPage(v))
			text := visibleText(r)
			for _, code := range []string{"running", "ready", "failed", "source", "interrupted", "store", "deposits", "excel"} {
				if strings.Contains(" "+text+" ", " "+code+" ") {
					t.Errorf("%s, %s %s: the code %q is shown", lang, j.State, j.Error, code)
				}
			}
			switch j.State {
			case "running":
				if p := r.doc.Find("progress"); p.AttrOr("value", "") != "42300" || p.AttrOr("max", "") != "150000" ||
					p.AttrOr("aria-label", "") == "" || r.doc.Find(`[data-testid="export-progress"][role="status"]`).Length() != 1 {
					t.Errorf("%s: the progress %q", lang, text)
				}
				if want := map[Lang]string{PtBR: "42.300 de 150.000 linhas escritas (28 %)", En: "42,300 of 150,000 rows written (28%)"}[lang]; !strings.Contains(text, want) {
					t.Errorf("%s: %q does not say %q", lang, text, want)
				}
			case "ready":
				if want := map[Lang]string{PtBR: "(61,2 MB)", En: "(61.2 MB)"}[lang]; !strings.Contains(r.doc.Find(`[data-testid="export-download"]`).Text(), want) {
					t.Errorf("%s: the download %q", lang, r.doc.Find(`[data-testid="export-download"]`).Text())
				}
			case "failed":
				if r.doc.Find(`[data-testid="export-failed"][role="alert"]`).Text() == "" {
					t.Errorf("%s: no reason for %s", lang, j.Error)
				}
			}
		}
		r := render(t, ExportsPage(ExportsView{DashPage: dashSample(lang, ""), Jobs: jobs, Threshold: 100_000}))
		if r.doc.Find(`[data-testid="export-row"]`).Length() != len(jobs) || r.doc.Find(`[data-testid="export-row"] [data-testid="export-download"]`).Length() != 1 {
			t.Errorf("%s: the list of exports", lang)
		}
	}
	if got := ExcelURL("/dashboard/deposits.csv"); got != "/dashboard/deposits.csv?format=excel" {
		t.Errorf("ExcelURL = %q", got)
	}
	if got := ExcelURL("/dashboard/audit.csv?actor=a%40b"); got != "/dashboard/audit.csv?actor=a%40b&format=excel" {
		t.Errorf("ExcelURL = %q", got)
	}
}

// TestOverviewChartAndTopProducts: the y-axis in whole reais of the reader's language, the
// legend with both periods' totals, the table with the previous period beside each day, the
// top products with units and revenue.
func TestOverviewChartAndTopProducts(t *testing.T) {
	t.Parallel()
	day := time.Date(2026, 11, 1, 3, 0, 0, 0, time.UTC)
	c := Chart{Width: 40, Height: 160, Total: 123456, PrevTotal: 250000, PrevPath: "M0 160 H20 V0 H40",
		Ticks: []ChartTick{{0, 160}, {100000, 96}, {200000, 32}, {250000, 0}},
		Days: []ChartDay{{Day: day, Amount: 123456, Orders: 3, H: 79, Y: 81, W: 16, PrevDay: day.AddDate(0, 0, -30)},
			{Day: day.AddDate(0, 0, 1), PrevDay: day.AddDate(0, 0, -29), PrevAmount: 250000, PrevOrders: 1}}}
	top := []TopProduct{{Title: "Livro de receitas", Units: 1234, Revenue: 6_157_660}, {Title: "Caneca", Units: 2, Revenue: 7000}}
	for lang, want := range map[Lang]struct{ ticks, legend, prev, units, revenue string }{
		PtBR: {"R$ 2.500 R$ 2.000 R$ 1.000 R$ 0", "Barras: últimos 30 dias (R$ 1.234,56)", "R$ 2.500,00", "1.234", "R$ 61.576,60"},
		En:   {"R$2,500 R$2,000 R$1,000 R$0", "Bars: the last 30 days (R$1,234.56)", "R$2,500.00", "1,234", "R$61,576.60"},
	} {
		r := render(t, OverviewPage(OverviewView{DashPage: dashSample(lang, "overview"), Chart: c, Top: top}))
		var ticks []string
		r.doc.Find(`[data-testid="chart-y"] span`).Each(func(_ int, s *goquery.Selection) { ticks = append(ticks, s.Text()) })
		if strings.Join(ticks, " ") != want.ticks || r.doc.Find(`[data-testid="chart-y"]`).AttrOr("aria-hidden", "") != "true" {
			t.Errorf("%s: y-axis %q", lang, ticks)
		}
		if !strings.Contains(r.doc.Find(`[data-testid="chart-legend"]`).Text(), want.legend) {
			t.Errorf("%s: legend %q", lang, r.doc.Find(`[data-testid="chart-legend"]`).Text())
		}
		if r.doc.Find(`[data-testid="chart-previous"]`).AttrOr("d", "") != c.PrevPath {
			t.Errorf("%s: no previous period's line", lang)
		}
		row := r.doc.Find(`[data-testid="chart-table"] tbody tr`).Eq(1)
		if row.Find("td").Last().Text() != want.prev || row.Find("td").Eq(2).Text() == "" {
			t.Errorf("%s: the table's second day %q", lang, row.Text())
		}
		if th := r.doc.Find(`[data-testid="chart-table"] thead th`).Length(); th != 6 {
			t.Errorf("%s: %d columns in the chart's table", lang, th)
		}
		first := r.doc.Find(`[data-testid="top-product"]`).First()
		if first.Find("th").Text() != "Livro de receitas" || first.Find("td").First().Text() != want.units || first.Find("td").Last().Text() != want.revenue {
			t.Errorf("%s: top product %q", lang, first.Text())
		}
	}
	r := render(t, OverviewPage(OverviewView{DashPage: dashSample(PtBR, "overview"), Chart: Chart{Width: 0, Height: 160}}))
	if !strings.Contains(r.doc.Find(`[data-testid="top-products"]`).Text(), "Nenhum produto vendido") {
		t.Errorf("no top products: %q", r.doc.Find(`[data-testid="top-products"]`).Text())
	}
}
