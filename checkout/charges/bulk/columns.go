package bulk

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/xuri/excelize/v2"
)

// The fields of a charge a spreadsheet's columns give: the API's names, so that a line's
// errors name the same fields as a charge's (charges.Input.Validate).
const (
	FieldName         = "customer.name"
	FieldDocument     = "customer.document"
	FieldEmail        = "customer.email"
	FieldPhone        = "customer.phone"
	FieldAmount       = "amount"
	FieldDueDate      = "dueDate"
	FieldDescription  = "description"
	FieldExternalCode = "externalCode"
	// FieldLine names a line that repeats an earlier one (no column of its own).
	FieldLine = "line"
)

// Fields are the columns of an import, in the order a template lists them.
var Fields = []string{FieldName, FieldDocument, FieldEmail, FieldPhone, FieldAmount, FieldDueDate, FieldDescription,
	FieldExternalCode}

// optional are the columns a file may leave out.
var optional = map[string]bool{FieldPhone: true, FieldExternalCode: true}

// headers are the names a column may have, in Portuguese or English, as folded (fold): case,
// accents, spaces and punctuation aside, so that "Data de vencimento", "data_vencimento" and
// "DUE DATE" all read.
var headers = map[string]string{
	"nome": FieldName, "nomedocliente": FieldName, "cliente": FieldName, "name": FieldName, "customer": FieldName,
	"customername": FieldName, "fullname": FieldName, "nomecompleto": FieldName,
	"documento": FieldDocument, "cpf": FieldDocument, "cnpj": FieldDocument, "cpfcnpj": FieldDocument,
	"cpfoucnpj": FieldDocument, "document": FieldDocument, "customerdocument": FieldDocument, "taxid": FieldDocument,
	"email": FieldEmail, "mail": FieldEmail, "customeremail": FieldEmail,
	"telefone": FieldPhone, "celular": FieldPhone, "fone": FieldPhone, "whatsapp": FieldPhone, "phone": FieldPhone,
	"mobile": FieldPhone, "mobilephone": FieldPhone, "customerphone": FieldPhone,
	"valor": FieldAmount, "valorr": FieldAmount, "valorrs": FieldAmount, "amount": FieldAmount, "amountbrl": FieldAmount, "value": FieldAmount,
	"vencimento": FieldDueDate, "datadevencimento": FieldDueDate, "datavencimento": FieldDueDate, "due": FieldDueDate,
	"duedate": FieldDueDate, "dueon": FieldDueDate,
	"descricao": FieldDescription, "description": FieldDescription,
	"codigoexterno": FieldExternalCode, "codigo": FieldExternalCode, "referencia": FieldExternalCode,
	"externalcode": FieldExternalCode, "externalreference": FieldExternalCode, "reference": FieldExternalCode,
	"code": FieldExternalCode,
}

// headerFields maps a header's columns to fields ("" for a column of none, which is listed as
// ignored); a required field missing or a field named twice is a *FileError.
func headerFields(rec []string) ([]string, []string, error) {
	fields := make([]string, len(rec))
	seen := map[string]bool{}
	var ignored, repeated []string
	for i, h := range rec {
		f, ok := headers[fold(h)]
		switch {
		case !ok:
			if h = clean(h); h != "" {
				ignored = append(ignored, h)
			}
		case seen[f]:
			repeated = append(repeated, f)
		default:
			seen[f], fields[i] = true, f
		}
	}
	if len(repeated) > 0 {
		return nil, nil, &FileError{Code: FileRepeated, Columns: repeated}
	}
	var missing []string
	for _, f := range Fields {
		if !seen[f] && !optional[f] {
			missing = append(missing, f)
		}
	}
	if len(missing) > 0 {
		return nil, nil, &FileError{Code: FileColumns, Columns: missing}
	}
	return fields, ignored, nil
}

// fold is a header as compared: lower case, Portuguese accents dropped, only letters and
// digits ("E-mail" → "email", "Código externo" → "codigoexterno", "Valor (R$)" → "valorr").
func fold(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
		case strings.ContainsRune("áàâã", r):
			b.WriteByte('a')
		case strings.ContainsRune("éê", r):
			b.WriteByte('e')
		case r == 'í':
			b.WriteByte('i')
		case strings.ContainsRune("óôõ", r):
			b.WriteByte('o')
		case r == 'ú' || r == 'ü':
			b.WriteByte('u')
		case r == 'ç':
			b.WriteByte('c')
		}
	}
	return b.String()
}

// numberFields are the fields whose number cells read otherwise than as stored (numberText).
var numberFields = map[string]bool{FieldDueDate: true, FieldAmount: true, FieldDocument: true, FieldPhone: true}

// numberText is the text a workbook's number cell of field reads as: a due date's serial day
// as YYYY-MM-DD, an amount in reais with a decimal point (the float becomes cents here, at
// the edge, rounded: "1234.5599999" is 1234.56), a document or phone as its digits (a CPF
// typed as a number lost its leading zeros: they come back to 11 digits, or 14 for a CNPJ).
// Anything that is not a number reads as stored.
func numberText(field, raw string) string {
	f, err := strconv.ParseFloat(raw, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return raw
	}
	switch field {
	case FieldDueDate:
		t, err := excelize.ExcelDateToTime(f, false)
		if err != nil {
			return raw
		}
		return t.Format(time.DateOnly)
	case FieldAmount:
		return reaisText(f)
	case FieldDocument, FieldPhone:
		if f < 0 || f != math.Trunc(f) || f > 1e15 {
			return raw
		}
		return digitsText(field, strconv.FormatFloat(f, 'f', 0, 64))
	}
	return raw
}

// reaisText is an amount cell's number as reais with a decimal point, rounded to the cent.
func reaisText(f float64) string {
	c := math.Round(f * 100)
	if math.Abs(c-f*100) > 1e-6*math.Max(1, math.Abs(f*100)) || c < 0 || c > 1e15 {
		// More than cents, or negative: written out so that the amount's own error says so
		// (three decimals get a fourth, or "1.234" would read as thousands).
		s := strconv.FormatFloat(f, 'f', -1, 64)
		if _, frac, ok := strings.Cut(s, "."); ok && len(frac) == 3 {
			s += "0"
		}
		return s
	}
	n := int64(c)
	return strconv.FormatInt(n/100, 10) + "." + strconv.FormatInt(100+n%100, 10)[1:]
}

// digitsText is a document's or phone's digits, a document's leading zeros put back.
func digitsText(field, d string) string {
	switch {
	case field == FieldDocument && len(d) < 11:
		return strings.Repeat("0", 11-len(d)) + d
	case field == FieldDocument && len(d) > 11 && len(d) < 14:
		return strings.Repeat("0", 14-len(d)) + d
	}
	return d
}
