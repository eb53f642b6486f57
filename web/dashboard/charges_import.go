package dashboard

import (
	"bytes"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout/charges/bulk"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// Charges imported from a spreadsheet (/dashboard/charges/import, team.PermChargesWrite): the
// merchant uploads a file and gets a report of every line (nothing created), then confirms by
// posting the same file again with the report's digest of it, and the valid lines are created.
//
// Nothing is kept between the report and the confirmation: the file is re-read from the second
// upload, and created only when it is byte for byte the one reported (its SHA-256, which the
// report's form carries). That keeps the customers' names, documents and e-mails of a file
// the merchant may never confirm off the server's disk and database, needs no token, sweep or
// size quota, and works the same behind several instances; it costs the merchant choosing the
// file twice. A confirmation of another file shows that file's report instead, so that only
// what was reported is ever created; and since each line's idempotency key is its external
// code or its content, a confirmation posted twice, or the file imported again next month,
// creates nothing twice.

const (
	importField      = "file"
	importDigest     = "digest"
	importConfirm    = "confirm"
	maxImportListed  = 200 // valid lines listed in a report (every invalid line is)
	importPath       = "/charges/import"
	importMaxNameLen = 120
)

// chargeImportPage is GET /dashboard/charges/import: the upload form and the columns it reads.
func (d *Dashboard) chargeImportPage(w http.ResponseWriter, r *http.Request) {
	d.renderImport(w, r, http.StatusOK, views.ChargeImportView{})
}

// importCharges is POST /dashboard/charges/import (multipart, the file in "file"): without
// confirm=yes, the report of the file's lines; with it and the digest of the file reported,
// the creation of its valid lines and what came of each. A file that cannot be read at all is
// named (422).
func (d *Dashboard) importCharges(w http.ResponseWriter, r *http.Request) {
	lang := respond.Lang(r)
	file, hdr, err := r.FormFile(importField)
	if err != nil {
		d.renderImport(w, r, http.StatusUnprocessableEntity, views.ChargeImportView{Error: views.T(lang, "import.err.no_file")})
		return
	}
	defer file.Close()
	raw, err := io.ReadAll(io.LimitReader(file, bulk.MaxBytes+1))
	if err != nil {
		d.site.Fail(w, r, err)
		return
	}
	v := views.ChargeImportView{FileName: fileName(hdr.Filename)}
	sum := sha256.Sum256(raw)
	v.Digest = hex.EncodeToString(sum[:])
	sheet, err := bulk.Read(bytes.NewReader(raw))
	var fe *bulk.FileError
	if errors.As(err, &fe) {
		v.Error = fileErrorText(lang, fe)
		d.renderImport(w, r, http.StatusUnprocessableEntity, v)
		return
	}
	if err != nil {
		d.site.Fail(w, r, err)
		return
	}
	rep, err := bulk.Check(r.Context(), d.charges, sheet)
	if err != nil {
		d.site.Fail(w, r, err)
		return
	}
	confirmed := r.PostForm.Get(importConfirm) == "yes"
	same := subtle.ConstantTimeCompare([]byte(r.PostForm.Get(importDigest)), []byte(v.Digest)) == 1
	if confirmed && !same {
		v.Notice = views.T(lang, "import.changed")
	}
	if !confirmed || !same {
		reportView(lang, rep, &v)
		d.renderImport(w, r, http.StatusOK, v)
		return
	}
	rc := http.NewResponseController(w)
	res, err := bulk.Import(r.Context(), d.charges, userOf(r).Email, respond.ClientIP(r), rep, func(int) {
		// Each hundred lines extend the answer's deadline, as an export's pages do: a large
		// file outlives the server's WriteTimeout.
		_ = rc.SetWriteDeadline(time.Now().Add(csvWriteWindow))
	})
	if err != nil {
		d.site.Fail(w, r, err)
		return
	}
	v.Result = &views.ImportResultView{Created: res.Created, Done: res.Done, ListURL: respond.Link(r, Path+"/charges")}
	for _, l := range res.Refused {
		v.Result.Refused = append(v.Result.Refused, lineView(lang, &l))
	}
	d.renderImport(w, r, http.StatusOK, v)
}

// renderImport renders the import page v with status.
func (d *Dashboard) renderImport(w http.ResponseWriter, r *http.Request, status int, v views.ChargeImportView) {
	v.DashPage = d.page(r, "charges")
	v.Action, v.BackURL = respond.Link(r, Path+importPath), respond.Link(r, Path+"/charges")
	v.MaxMB = bulk.MaxBytes >> 20
	v.MaxLines = bulk.MaxLines
	d.site.Render(w, r, status, views.ChargeImportPage(v))
}

// reportView fills v with the report rep: the counts, every invalid line with each field's
// error, and the first valid ones.
func reportView(lang views.Lang, rep *bulk.Report, v *views.ChargeImportView) {
	v.Reported = true
	v.Valid, v.Done, v.Invalid = rep.Counts()
	v.Ignored = rep.Ignored
	listed := 0
	for i := range rep.Lines {
		l := &rep.Lines[i]
		if l.Errors == nil {
			if listed == maxImportListed {
				v.MoreValid++
				continue
			}
			listed++
		}
		v.Lines = append(v.Lines, lineView(lang, l))
	}
}

// lineView is a line of a report: its charge, and each field's error in words.
func lineView(lang views.Lang, l *bulk.Line) views.ImportLineView {
	lv := views.ImportLineView{Number: l.Number, Customer: l.Input.Customer.Name, Description: l.Input.Description,
		Amount: l.Input.Terms.Amount, Done: l.Done}
	if !l.Input.Terms.Due.IsZero() {
		lv.Due = l.Input.Terms.Due.String()
	}
	if l.Errors == nil {
		return lv
	}
	for _, viol := range l.Errors.Violations {
		lv.Errors = append(lv.Errors, views.ImportErrorView{Field: viol.Field, Column: importColumn(lang, viol.Field),
			Message: importMessage(lang, viol.Field, viol.Code, l.Repeats)})
	}
	return lv
}

// importColumn is the name of a line's field in words: the new-charge form's label.
func importColumn(lang views.Lang, field string) string {
	if field == bulk.FieldLine {
		return views.T(lang, "import.col.line")
	}
	if key := "import.col." + field; views.HasKey(key) {
		return views.T(lang, key)
	}
	return views.T(lang, "charges.field."+chargeFormField(field))
}

// importMessage is the error of a line's field in words: the new-charge form's (chargeMessage),
// or the import's own for a repeated line and an external code imported with other values.
func importMessage(lang views.Lang, field, code string, repeats int) string {
	switch code {
	case bulk.CodeRepeated:
		return views.T(lang, "import.err.repeated", repeats)
	case bulk.CodeImportedOther:
		return views.T(lang, "import.err.imported_other")
	}
	if field == bulk.FieldDueDate && code == "format" {
		return views.T(lang, "import.err.due_format")
	}
	return chargeMessage(lang, chargeFormField(field), code)
}

// fileErrorText is why a file cannot be imported, in words.
func fileErrorText(lang views.Lang, fe *bulk.FileError) string {
	cols := make([]string, len(fe.Columns))
	for i, c := range fe.Columns {
		cols[i] = importColumn(lang, c)
	}
	switch fe.Code {
	case bulk.FileTooLarge:
		return views.T(lang, "import.err.too_large", bulk.MaxBytes>>20)
	case bulk.FileTooManyLines:
		return views.T(lang, "import.err.too_many_lines", views.FormatCount(lang, bulk.MaxLines))
	case bulk.FileEmpty:
		return views.T(lang, "import.err.empty")
	case bulk.FileColumns:
		return views.T(lang, "import.err.columns", strings.Join(cols, ", "))
	case bulk.FileRepeated:
		return views.T(lang, "import.err.repeated_columns", strings.Join(cols, ", "))
	case bulk.FileFormat:
		if fe.Line > 0 {
			return views.T(lang, "import.err.format_line", fe.Line)
		}
	}
	return views.T(lang, "import.err.format")
}

// fileName is the uploaded file's name as the page repeats it: its base name, cut short.
func fileName(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	if r := []rune(name); len(r) > importMaxNameLen {
		name = string(r[:importMaxNameLen])
	}
	return name
}
