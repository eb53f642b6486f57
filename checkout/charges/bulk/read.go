package bulk

import (
	"archive/zip"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"
	"golang.org/x/text/encoding/charmap"
)

// The limits of an imported file: MaxBytes as uploaded, MaxLines lines of charges, and
// maxUnzipped bytes of a workbook's parts once unzipped (a few kilobytes of zip can unpack to
// gigabytes: a workbook is refused on the sizes its zip declares, before anything is inflated;
// a workbook of MaxLines charges unzips to about 5 MB).
const (
	MaxBytes    = 5 << 20
	MaxLines    = 10_000
	maxUnzipped = 16 << 20
)

// FileError is a file that cannot be imported at all, before any of its lines is looked at;
// Code says why (the dashboard words it), Detail adds the reader's own error.
type FileError struct {
	Code    string
	Line    int      // the line of a CSV that does not read (0: none)
	Columns []string // the columns missing or repeated (the charge's field names)
	Detail  string
}

// The codes of a FileError.
const (
	FileTooLarge     = "too_large"      // over MaxBytes, or a workbook over its unzipped limit
	FileTooManyLines = "too_many_lines" // over MaxLines
	FileFormat       = "format"         // neither a CSV nor an .xlsx workbook that reads
	FileEmpty        = "empty"          // no header, or no line after it
	FileColumns      = "columns"        // required columns missing (Columns)
	FileRepeated     = "repeated"       // two columns of one field (Columns)
)

func (e *FileError) Error() string {
	s := "bulk: " + e.Code
	if e.Line > 0 {
		s += fmt.Sprintf(" at line %d", e.Line)
	}
	if len(e.Columns) > 0 {
		s += " (" + strings.Join(e.Columns, ", ") + ")"
	}
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

// Row is one line of a spreadsheet: its number in the file (the header is line 1 of a
// workbook, and of a CSV without blank lines before it) and its cells by field.
type Row struct {
	Line  int
	Cells map[string]string
}

// Sheet is what a file holds: its rows of charges, and the columns it has that are no field
// of a charge (ignored, and said so in the report).
type Sheet struct {
	Rows    []Row
	Ignored []string
}

// Read reads a spreadsheet of at most MaxBytes: an .xlsx workbook (its first sheet) when it is
// a zip, else CSV, plain (comma, UTF-8) or as Excel in pt-BR writes it (semicolon, UTF-8 with a
// BOM or Windows-1252). Its first line that is not blank names the columns, in Portuguese or
// English (see headers). A file that cannot be imported is a *FileError.
func Read(r io.Reader) (*Sheet, error) {
	b, err := io.ReadAll(io.LimitReader(r, MaxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("bulk: reading the file: %w", err)
	}
	if len(b) > MaxBytes {
		return nil, &FileError{Code: FileTooLarge}
	}
	if bytes.HasPrefix(b, []byte("PK\x03\x04")) {
		return readXLSX(b)
	}
	records, lines, err := readCSV(b)
	if err != nil {
		return nil, err
	}
	return sheetOf(records, lines, nil)
}

// numericCells converts a workbook's number cells of a field (a date, an amount, a document)
// to the text its line reads: nil for CSV, whose cells are all text.
type numericCells func(row, col int, field, raw string) string

// readCSV reads a CSV file's records and the line each starts on: UTF-8 (a BOM dropped) or,
// when it is not valid UTF-8, Windows-1252, as Excel in pt-BR saves "CSV"; separated by
// semicolons when the first line has more of them than commas.
func readCSV(b []byte) ([][]string, []int, error) {
	b = bytes.TrimPrefix(b, []byte("\uFEFF"))
	if !utf8.Valid(b) {
		var err error
		if b, err = charmap.Windows1252.NewDecoder().Bytes(b); err != nil {
			return nil, nil, &FileError{Code: FileFormat, Detail: err.Error()}
		}
	}
	first, _, _ := bytes.Cut(b, []byte("\n"))
	cr := csv.NewReader(bytes.NewReader(b))
	if bytes.Count(first, []byte(";")) > bytes.Count(first, []byte(",")) {
		cr.Comma = ';'
	}
	cr.FieldsPerRecord = -1 // a short line is one whose last cells are empty
	var records [][]string
	var lines []int
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return records, lines, nil
		}
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			return nil, nil, &FileError{Code: FileFormat, Line: pe.StartLine, Detail: pe.Err.Error()}
		}
		if err != nil {
			return nil, nil, &FileError{Code: FileFormat, Detail: err.Error()}
		}
		if len(records) > MaxLines+1 {
			return nil, nil, &FileError{Code: FileTooManyLines}
		}
		line, _ := cr.FieldPos(0)
		records = append(records, rec)
		lines = append(lines, line)
	}
}

// readXLSX reads the first sheet of a workbook, its cells as stored (a number as a number, not
// as the sheet shows it), a number cell of a date, an amount, a document or a phone read as
// numberText says. The sizes the zip declares are checked first (archive/zip refuses a part
// that inflates past its declared size), and excelize's own unzip limits are set to the same,
// so that nothing it unpacks goes to a temporary file: the lines hold personal data.
func readXLSX(b []byte) (*Sheet, error) {
	if err := checkUnzipped(b); err != nil {
		return nil, err
	}
	wb, err := openWorkbook(b)
	if err != nil {
		return nil, &FileError{Code: FileFormat, Detail: err.Error()}
	}
	defer wb.Close()
	sheets := wb.GetSheetList()
	if len(sheets) == 0 {
		return nil, &FileError{Code: FileEmpty}
	}
	records, err := sheetRecords(wb, sheets[0])
	if err != nil {
		return nil, err
	}
	lines := make([]int, len(records))
	for i := range records {
		lines[i] = i + 1
	}
	return sheetOf(records, lines, func(row, col int, field, raw string) string {
		if !numberFields[field] || !stored.MatchString(raw) {
			return raw // text, or a field a number means nothing else for
		}
		if field == FieldAmount && thousands.MatchString(raw) && textCell(wb, sheets[0], row, col) {
			return raw // "1.234" typed as text is R$ 1.234,00, not the number 1.234
		}
		return numberText(field, raw)
	})
}

// checkUnzipped refuses a workbook whose parts declare more than maxUnzipped bytes in all.
func checkUnzipped(b []byte) error {
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return &FileError{Code: FileFormat, Detail: err.Error()}
	}
	var total uint64
	for _, f := range zr.File {
		if total += f.UncompressedSize64; total > maxUnzipped {
			return &FileError{Code: FileTooLarge, Detail: "the workbook unzips to more than its limit"}
		}
	}
	return nil
}

// sheetRecords reads the rows of sheet, their cells as stored.
func sheetRecords(wb *excelize.File, sheet string) ([][]string, error) {
	rows, err := wb.Rows(sheet)
	if err != nil {
		return nil, &FileError{Code: FileFormat, Detail: err.Error()}
	}
	defer rows.Close()
	var records [][]string
	for rows.Next() {
		if len(records) > MaxLines+1 {
			return nil, &FileError{Code: FileTooManyLines}
		}
		rec, err := rows.Columns(excelize.Options{RawCellValue: true})
		if err != nil {
			return nil, &FileError{Code: FileFormat, Detail: err.Error()}
		}
		records = append(records, rec)
	}
	if err := rows.Error(); err != nil {
		return nil, &FileError{Code: FileFormat, Detail: err.Error()}
	}
	return records, nil
}

// stored is a number as a workbook stores it; thousands one that a text cell could hold as an
// amount with a thousands separator. Only for such an amount is the cell's type looked up:
// any other value reads the same from a text cell and a number cell, and looking types up
// makes excelize parse the whole sheet a second time.
var (
	stored    = regexp.MustCompile(`^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$`)
	thousands = regexp.MustCompile(`^[0-9]{1,3}\.[0-9]{3}$`)
)

// textCell reports whether the cell of row and col (from 0) of sheet is a text cell.
func textCell(wb *excelize.File, sheet string, row, col int) bool {
	cell, err := excelize.CoordinatesToCellName(col+1, row+1)
	if err != nil {
		return true
	}
	t, err := wb.GetCellType(sheet, cell)
	return err != nil || (t != excelize.CellTypeUnset && t != excelize.CellTypeNumber)
}

// openWorkbook opens a workbook with excelize's unzip limits set: in all, and for a part kept
// in memory (the same, so that no part is unpacked to a temporary file).
func openWorkbook(b []byte) (*excelize.File, error) {
	return excelize.OpenReader(bytes.NewReader(b), excelize.Options{UnzipSizeLimit: maxUnzipped, UnzipXMLSizeLimit: maxUnzipped})
}

// sheetOf maps records to rows of fields by the header (the first record that is not blank);
// nums, when set, converts the number cells of a workbook.
func sheetOf(records [][]string, lines []int, nums numericCells) (*Sheet, error) {
	h := 0
	for h < len(records) && blank(records[h]) {
		h++
	}
	if h == len(records) {
		return nil, &FileError{Code: FileEmpty}
	}
	fields, ignored, err := headerFields(records[h])
	if err != nil {
		return nil, err
	}
	s := &Sheet{Ignored: ignored}
	for i := h + 1; i < len(records); i++ {
		rec := records[i]
		if blank(rec) {
			continue
		}
		if len(s.Rows) == MaxLines {
			return nil, &FileError{Code: FileTooManyLines}
		}
		row := Row{Line: lines[i], Cells: make(map[string]string, len(fields))}
		for col, field := range fields {
			if col >= len(rec) || field == "" {
				continue
			}
			v := clean(rec[col])
			if nums != nil && v != "" {
				v = nums(i, col, field, v)
			}
			row.Cells[field] = v
		}
		s.Rows = append(s.Rows, row)
	}
	if len(s.Rows) == 0 {
		return nil, &FileError{Code: FileEmpty}
	}
	return s, nil
}

// blank reports whether a record has nothing but spaces.
func blank(rec []string) bool {
	for _, c := range rec {
		if clean(c) != "" {
			return false
		}
	}
	return true
}

// clean trims a cell of spaces, no-break spaces included.
func clean(s string) string { return strings.TrimSpace(strings.ReplaceAll(s, "\u00a0", " ")) }
