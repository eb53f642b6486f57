package dashboard

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// paramFormat chooses an export's format: absent (or "csv") for plain CSV, "excel" for CSV
// that Excel in pt-BR opens as columns.
const paramFormat = "format"

// Values of paramFormat, and formatXLSX: the format of the .xlsx routes (an export's job
// keeps it).
const (
	formatCSV   = "csv"
	formatExcel = "excel"
	formatXLSX  = "xlsx"
)

// utf8BOM starts an Excel export: without it Excel reads the file as Windows-1252 and breaks
// every accent.
const utf8BOM = "\uFEFF"

// excelTime is how an Excel export writes a time: São Paulo's local time with its offset,
// to the second. Excel shows it as written (text), and the offset keeps it unambiguous.
const excelTime = "2006-01-02 15:04:05 -07:00"

// exportFormat is how every export writes its file: plain CSV (comma, decimal point, times
// ISO 8601 UTC), or CSV for Excel in pt-BR (UTF-8 with a BOM, semicolon, decimal comma,
// São Paulo times with their offset). Every export writes its cells through one of these and
// its file through writer, so that the two formats are one way of writing, not a copy per
// export.
type exportFormat struct {
	excel bool
	// xlsx: an .xlsx workbook (export_sheet.go) in the reader's language lang, its temporary
	// files in tmp.
	xlsx bool
	lang views.Lang
	tmp  string
}

// exportFormatOf is the format of an export request: .xlsx for a path ending so, in the
// reader's language; else the format parameter of its query q (parseExportFormat).
func (d *Dashboard) exportFormatOf(r *http.Request, q url.Values) (exportFormat, error) {
	if strings.HasSuffix(r.URL.Path, ".xlsx") {
		if d.exportTmp == "" {
			return exportFormat{}, errors.New("this server has no data dir for the temporary files of .xlsx exports")
		}
		return exportFormat{xlsx: true, lang: respond.Lang(r), tmp: d.exportTmp}, nil
	}
	return parseExportFormat(q)
}

// parseExportFormat reads the format parameter of an export's query; anything but csv and
// excel is an error naming the parameter.
func parseExportFormat(q url.Values) (exportFormat, error) {
	switch v := q.Get(paramFormat); v {
	case "", formatCSV:
		return exportFormat{}, nil
	case formatExcel:
		return exportFormat{excel: true}, nil
	default:
		return exportFormat{}, fmt.Errorf("%s: %q is not a format of the exports (csv or excel)", paramFormat, v)
	}
}

// String is the format's name in the URL.
func (f exportFormat) String() string {
	if f.xlsx {
		return formatXLSX
	}
	if f.excel {
		return formatExcel
	}
	return formatCSV
}

// filename is the name of an export of name made at at: "deposits-20261125-153000.csv",
// "deposits-excel-20261125-153000.csv", and with "-unmasked" before ".csv" when it holds
// documents and phones in full, so that the file says what it is wherever it goes.
func (f exportFormat) filename(name string, at time.Time, unmasked bool) string {
	if f.excel {
		name += "-excel"
	}
	name += "-" + at.UTC().Format("20060102-150405")
	if unmasked {
		name += "-unmasked"
	}
	return name + f.ext()
}

// ext is the file extension of the format: ".xlsx" or ".csv".
func (f exportFormat) ext() string {
	if f.xlsx {
		return ".xlsx"
	}
	return ".csv"
}

// contentType is the media type of the format's files.
func (f exportFormat) contentType() string {
	if f.xlsx {
		return "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
	}
	return "text/csv; charset=utf-8"
}

// open starts an export's file on w: a sheetWriter and what ends the file (the .xlsx
// workbook is written whole then; a CSV has nothing left to write).
func (f exportFormat) open(w io.Writer) (sheetWriter, func() error, error) {
	if f.xlsx {
		x, err := newXLSXSheet(w, f.lang, f.tmp)
		if err != nil {
			return nil, nil, err
		}
		return x, x.close, nil
	}
	cw, err := f.writer(w)
	if err != nil {
		return nil, nil, err
	}
	return &csvSheet{cw: cw, f: f}, func() error { return nil }, nil
}

// writer starts an export's file on w: the BOM and the separator of Excel, or plain CSV.
func (f exportFormat) writer(w io.Writer) (*csv.Writer, error) {
	cw := csv.NewWriter(w)
	if f.excel {
		if _, err := io.WriteString(w, utf8BOM); err != nil {
			return nil, err
		}
		cw.Comma = ';'
		cw.UseCRLF = true // what Excel writes itself
	}
	return cw, nil
}

// time is a time cell ("" for the zero time): ISO 8601 UTC with milliseconds, or for Excel
// São Paulo's local time with its offset.
func (f exportFormat) time(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	if f.excel {
		return t.In(views.SaoPaulo()).Format(excelTime)
	}
	return gatewayclient.FormatTime(t)
}

// reais is an amount in reais with two decimals, computed in integers: "1234.56", or for
// Excel "1234,56" (no thousands separator, so that Excel reads a number).
func (f exportFormat) reais(c checkout.Cents) string {
	sign := ""
	if c < 0 {
		sign, c = "-", -c
	}
	sep := "."
	if f.excel {
		sep = ","
	}
	return fmt.Sprintf("%s%d%s%02d", sign, c/100, sep, c%100)
}

// optReais is reais of an optional amount ("" when absent).
func (f exportFormat) optReais(c *checkout.Cents) string {
	if c == nil {
		return ""
	}
	return f.reais(*c)
}

// cell escapes a text that a spreadsheet would read as a formula with a leading apostrophe, as
// OWASP recommends; the CSV writer does the quoting. A formula starts with =, +, - or @ (or
// their fullwidth forms, which spreadsheets fold to them), a tab or a carriage return, and
// spreadsheets skip what a reader does not see before it: spaces, a no-break space, zero-width
// characters and a byte-order mark.
func cell(s string) string {
	for _, r := range s {
		switch r {
		case ' ', '\u00a0', '\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\n':
			continue // invisible before a formula: look at what follows
		case '=', '+', '-', '@', '\t', '\r', '\uff1d', '\uff0b', '\uff0d', '\uff20':
			return "'" + s
		}
		return s
	}
	return s
}

func centsCell(c checkout.Cents) string { return strconv.FormatInt(int64(c), 10) }

func optCents(c *checkout.Cents) string {
	if c == nil {
		return ""
	}
	return centsCell(*c)
}
