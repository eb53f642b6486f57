package views

import "github.com/pixcheckout/pixcheckout/checkout"

// ChargeImportView is the import of charges from a spreadsheet (/dashboard/charges/import):
// the upload form, then the report of the file's lines (nothing created yet) with the form
// that confirms it, or what the confirmation created.
type ChargeImportView struct {
	DashPage
	Action, BackURL string
	MaxMB, MaxLines int
	Error           string // why the file cannot be imported at all
	Notice          string // the confirmed file is not the one reported: its report instead
	FileName        string
	// Digest is the SHA-256 of the file reported, posted back with the confirmation so that
	// only that file is created.
	Digest               string
	Reported             bool // a report is shown
	Valid, Done, Invalid int  // lines to create, imported already, refused
	Lines                []ImportLineView
	MoreValid            int      // valid lines the report does not list
	Ignored              []string // the file's columns that are no field of a charge
	Result               *ImportResultView
}

// ImportLineView is one line of a report: its charge as read, and each field's error.
type ImportLineView struct {
	Number                     int
	Customer, Description, Due string // Due YYYY-MM-DD ("" when it does not read)
	Amount                     checkout.Cents
	Done                       bool // imported already
	Errors                     []ImportErrorView
}

// ImportErrorView is one error of a line: the field, its column in words, and why.
type ImportErrorView struct{ Field, Column, Message string }

// ImportResultView is what a confirmed import did.
type ImportResultView struct {
	Created, Done int
	Refused       []ImportLineView
	ListURL       string
}

// ImportColumns are the columns an import reads, each with its field's label key and the
// headers it accepts, as the page lists them.
var ImportColumns = []struct{ Field, Headers string }{
	{"customer.name", "nome, cliente, name"},
	{"customer.document", "documento, cpf, cnpj, cpf/cnpj, document"},
	{"customer.email", "e-mail, email"},
	{"customer.phone", "telefone, celular, whatsapp, phone, mobile"},
	{"amount", "valor, amount"},
	{"dueDate", "vencimento, data de vencimento, due date"},
	{"description", "descrição, description"},
	{"externalCode", "código externo, código, referência, external code, reference"},
}

// lineState is a report line's state, for its badge and tests: invalid, done or valid.
func (l ImportLineView) lineState() string {
	switch {
	case len(l.Errors) > 0:
		return "invalid"
	case l.Done:
		return "done"
	}
	return "valid"
}
