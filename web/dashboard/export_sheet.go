package dashboard

import (
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/views"
)

// An export is a table of columns (sheetCol) whose rows are values (sheetRow), written by a
// sheetWriter: CSV (plain or for Excel, see exportFormat) or .xlsx. The columns say how each
// format writes a value, so that every export is written by one piece of code per format.

// colKind is how a column's values are written.
type colKind int

// Column kinds. Each names its value's Go type.
const (
	colText  colKind = iota // string: escaped as a formula in CSV, a text cell in .xlsx
	colCode                 // string: documents, phones, ISPBs, end-to-end ids, keys; a text cell (leading zeros kept)
	colTime                 // time.Time (zero: empty): ISO 8601 in CSV, a date cell in São Paulo time in .xlsx
	colCents                // checkout.Cents or *checkout.Cents (nil: empty): CSV only, beside a colReais
	colReais                // checkout.Cents or *checkout.Cents: reais in CSV, a number in R$ in .xlsx
	colFee                  // *checkout.Cents: cents in CSV (its only column), a number in R$ in .xlsx
	colInt                  // int64
	colEnum                 // string: a code in CSV, its name in the reader's language in .xlsx (sheetCol.enum)
)

// sheetCol is one column of an export.
type sheetCol struct {
	key  string // the CSV header: the name programs read (camelCase, as the gateway's fields)
	kind colKind
	// enum is the prefix of the texts of a colEnum's codes ("dstatus." + "PAID").
	enum string
	// width is the column's width in .xlsx, in characters (0: the kind's).
	width float64
}

// sheetRow is a row's values, one per column, of the column kind's type.
type sheetRow []any

// sheetWriter writes an export's rows in one format.
type sheetWriter interface {
	// header writes the header row.
	header(cols []sheetCol) error
	// row writes one row.
	row(cols []sheetCol, vals sheetRow) error
	// flush sends what is buffered (after each page).
	flush() error
}

// csvSheet writes an export as CSV, plain or for Excel (exportFormat): the headers are the
// columns' keys and every value is text, as before .xlsx existed.
type csvSheet struct {
	cw  *csv.Writer
	f   exportFormat
	rec []string
}

func (c *csvSheet) header(cols []sheetCol) error {
	c.rec = c.rec[:0]
	for _, col := range cols {
		c.rec = append(c.rec, col.key)
	}
	return c.cw.Write(c.rec)
}

func (c *csvSheet) row(cols []sheetCol, vals sheetRow) error {
	c.rec = c.rec[:0]
	for i, col := range cols {
		c.rec = append(c.rec, c.f.text(col.kind, vals[i]))
	}
	return c.cw.Write(c.rec)
}

func (c *csvSheet) flush() error {
	c.cw.Flush()
	return c.cw.Error()
}

// text is a value of a column of that kind as a CSV cell.
func (f exportFormat) text(kind colKind, v any) string {
	switch kind {
	case colTime:
		return f.time(v.(time.Time))
	case colCents, colFee:
		if c, ok := amount(v); ok {
			return centsCell(c)
		}
		return ""
	case colReais:
		if c, ok := amount(v); ok {
			return f.reais(c)
		}
		return ""
	case colInt:
		return strconv.FormatInt(v.(int64), 10)
	}
	return cell(v.(string))
}

// amount is the amount of a colCents or colReais value, and whether it has one.
func amount(v any) (checkout.Cents, bool) {
	switch c := v.(type) {
	case checkout.Cents:
		return c, true
	case *checkout.Cents:
		if c != nil {
			return *c, true
		}
	}
	return 0, false
}

// xlsxMoneyFormat is the number format of amounts in .xlsx: reais with the R$ sign of
// pt-BR (locale 416), written in en-US codes as the format requires; the reader's
// spreadsheet shows its own separators.
const xlsxMoneyFormat = `[$R$-416] #,##0.00`

// xlsxDateFormat is the number format of dates in .xlsx (São Paulo time, said in the header).
const xlsxDateFormat = `yyyy-mm-dd hh:mm:ss`

// xlsxSheet writes an export as an .xlsx workbook of one sheet through excelize's stream
// writer: rows go to a temporary file in the data dir past a few megabytes, never the
// system's temp dir (they hold personal data), so that memory stays small however many rows;
// the workbook is written to out when the export ends (close). Headers and enum values are in
// the reader's language, dates are date cells in São Paulo time, amounts numbers in R$, codes
// text cells; the header row is frozen.
type xlsxSheet struct {
	out   io.Writer
	lang  views.Lang
	file  *excelize.File
	sw    *excelize.StreamWriter
	n     int // rows written, header included
	money int // style ids
	date  int
	head  int
	cells []any
}

// newXLSXSheet starts a workbook written to out when closed, its temporary files in dir.
func newXLSXSheet(out io.Writer, lang views.Lang, dir string) (*xlsxSheet, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("the exports' temporary dir: %w", err)
	}
	x := &xlsxSheet{out: out, lang: lang, file: excelize.NewFile(excelize.Options{TmpDir: dir})}
	var err error
	moneyFmt, dateFmt := xlsxMoneyFormat, xlsxDateFormat
	if x.money, err = x.file.NewStyle(&excelize.Style{CustomNumFmt: &moneyFmt}); err == nil {
		if x.date, err = x.file.NewStyle(&excelize.Style{CustomNumFmt: &dateFmt}); err == nil {
			x.head, err = x.file.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}})
		}
	}
	if err == nil {
		x.sw, err = x.file.NewStreamWriter("Sheet1")
	}
	if err != nil {
		_ = x.file.Close()
		return nil, fmt.Errorf("starting a workbook: %w", err)
	}
	return x, nil
}

// xlsxCols are the columns an .xlsx shows: amounts once, in reais (a colCents column is the
// CSV's copy of its colReais neighbour).
func xlsxCols(cols []sheetCol) []int {
	var out []int
	for i, c := range cols {
		if c.kind != colCents {
			out = append(out, i)
		}
	}
	return out
}

func (x *xlsxSheet) header(cols []sheetCol) error {
	keep := xlsxCols(cols)
	for i, k := range keep {
		w := cols[k].width
		if w == 0 {
			w = map[colKind]float64{colText: 24, colCode: 20, colTime: 20, colReais: 14, colFee: 14, colInt: 10, colEnum: 18}[cols[k].kind]
		}
		if err := x.sw.SetColWidth(i+1, i+1, w); err != nil {
			return err
		}
	}
	if err := x.sw.SetPanes(&excelize.Panes{Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft"}); err != nil {
		return err
	}
	x.cells = x.cells[:0]
	for _, k := range keep {
		label := views.T(x.lang, "xlsx."+cols[k].key)
		if cols[k].kind == colTime {
			label += " " + views.T(x.lang, "xlsx.sao_paulo_time")
		}
		x.cells = append(x.cells, excelize.Cell{StyleID: x.head, Value: label})
	}
	return x.next()
}

func (x *xlsxSheet) row(cols []sheetCol, vals sheetRow) error {
	x.cells = x.cells[:0]
	for _, k := range xlsxCols(cols) {
		x.cells = append(x.cells, x.value(cols[k], vals[k]))
	}
	return x.next()
}

// value is one cell of column col.
func (x *xlsxSheet) value(col sheetCol, v any) any {
	switch col.kind {
	case colTime:
		t := v.(time.Time)
		if t.IsZero() {
			return nil
		}
		// excelize writes a time's wall clock in its own zone: São Paulo's; to the second,
		// as the format shows it (a fraction would round the shown second up).
		return excelize.Cell{StyleID: x.date, Value: t.In(views.SaoPaulo()).Truncate(time.Second)}
	case colReais, colFee:
		c, ok := amount(v)
		if !ok {
			return nil
		}
		// A spreadsheet's number is a binary float: the cents become one here, at the edge,
		// and nowhere else.
		return excelize.Cell{StyleID: x.money, Value: float64(c) / 100}
	case colInt:
		return v.(int64)
	case colEnum:
		s := v.(string)
		if k := col.enum + s; s != "" && views.HasKey(k) {
			return views.T(x.lang, k)
		}
		return s
	}
	// A string is a text cell in the workbook: no formula, no number, leading zeros kept.
	return v.(string)
}

// next writes x.cells as the next row.
func (x *xlsxSheet) next() error {
	x.n++
	ref, err := excelize.CoordinatesToCellName(1, x.n)
	if err != nil {
		return err
	}
	return x.sw.SetRow(ref, x.cells)
}

func (x *xlsxSheet) flush() error { return nil } // the workbook is written whole at the end

// close ends the sheet, writes the workbook to out and removes the temporary files.
func (x *xlsxSheet) close() error {
	defer x.file.Close()
	if err := x.sw.Flush(); err != nil {
		return fmt.Errorf("ending the sheet: %w", err)
	}
	if _, err := x.file.WriteTo(x.out); err != nil {
		return fmt.Errorf("writing the workbook: %w", err)
	}
	return nil
}
