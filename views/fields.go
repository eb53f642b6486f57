package views

import (
	"github.com/pixcheckout/pixcheckout/checkout"
)

// CEPFinderURL is the Correios' own search of CEPs by address, linked under the CEP field for
// shoppers who do not know theirs.
const CEPFinderURL = "https://buscacepinter.correios.com.br/app/endereco/index.php"

// formField describes one input of the customer form.
type formField struct {
	Name         string // checkout's Field* name, also the id suffix
	Type         string // input type; "select" for the UF list
	Autocomplete string
	InputMode    string
	Mask         string // data-mask for mask.js
	// Check names the rule form.js applies when the shopper leaves the field (data-check):
	// "document", "email", "phone" or "cep" — the server's rules (checkout.CheckFormField),
	// which a test runs in Go and in the browser over one table of values.
	Check string
	// CheckCode is the code of the violation the server reports for a value that fails Check:
	// its message is the one form.js shows.
	CheckCode string
	MaxLength int
	Optional  bool
	Hint      bool // a "hint.<name>" text is shown under the label
}

// id is the element id of the input.
func (f formField) id() string { return "f-" + f.Name }

// errorID is the element id of the input's error message.
func (f formField) errorID() string { return "f-" + f.Name + "-error" }

// hintID is the element id of the input's hint.
func (f formField) hintID() string { return "f-" + f.Name + "-hint" }

// inputs describes how each field of checkout's order form is shown, by field name. HTML allows
// each autofill token on some input types only: the phone is type=tel, which brings the phone
// keypad up on every mobile browser, so its token is "tel" ("tel-national" is for text inputs).
// What autofill gives for it may carry +55: the server takes that (brdoc.ClassifyPhone), and the
// mask leaves it as it is.
var inputs = map[string]formField{
	checkout.FieldName: {Type: "text", Autocomplete: "name", MaxLength: checkout.MaxNameLength},
	checkout.FieldDocument: {Type: "text", Autocomplete: "on", InputMode: "text", Mask: "document", MaxLength: 24, Hint: true,
		Check: "document", CheckCode: checkout.CodeDocument},
	checkout.FieldEmail: {Type: "email", Autocomplete: "email", InputMode: "email", MaxLength: 254,
		Check: "email", CheckCode: checkout.CodeFormat},
	checkout.FieldPhone: {Type: "tel", Autocomplete: "tel", Mask: "phone", MaxLength: 20, Hint: true,
		Check: "phone", CheckCode: checkout.CodeFormat},
	checkout.FieldZipCode: {Type: "text", Autocomplete: "postal-code", InputMode: "numeric", Mask: "cep", MaxLength: 9,
		Check: "cep", CheckCode: checkout.CodeFormat},
	checkout.FieldStreet:       {Type: "text", Autocomplete: "address-line1", MaxLength: 200},
	checkout.FieldNumber:       {Type: "text", Autocomplete: "on", InputMode: "numeric", MaxLength: 10, Hint: true},
	checkout.FieldComplement:   {Type: "text", Autocomplete: "address-line2", MaxLength: 150, Optional: true},
	checkout.FieldNeighborhood: {Type: "text", Autocomplete: "address-level3", MaxLength: 100},
	checkout.FieldCity:         {Type: "text", Autocomplete: "address-level2", MaxLength: 100},
	checkout.FieldState:        {Type: "select", Autocomplete: "address-level1"},
}

// formFields returns how to show the named fields, in their order.
func formFields(names []string) []formField {
	fs := make([]formField, 0, len(names))
	for _, n := range names {
		f := inputs[n]
		f.Name = n
		fs = append(fs, f)
	}
	return fs
}

// customerFields are the customer inputs, in the order checkout.CustomerFields gives.
func customerFields() []formField { return formFields(checkout.CustomerFields()) }

// addressFields are the address inputs, in the order checkout.AddressFields gives.
func addressFields() []formField { return formFields(checkout.AddressFields()) }

// addressRows lays the address inputs out: short fields that belong together side by side on
// wider screens (CEP and number, city and state), the others on their own. Every field of
// checkout.AddressFields is in one row (a test checks it).
func addressRows() [][]formField {
	row := func(names ...string) []formField { return formFields(names) }
	return [][]formField{
		row(checkout.FieldZipCode, checkout.FieldNumber),
		row(checkout.FieldStreet),
		row(checkout.FieldComplement),
		row(checkout.FieldNeighborhood),
		row(checkout.FieldCity, checkout.FieldState),
	}
}

// UF is a Brazilian state: its two-letter abbreviation and its name.
type UF struct {
	Code string
	Name string
}

// UFs lists the 26 states and the Federal District, by name.
func UFs() []UF {
	return []UF{
		{"AC", "Acre"}, {"AL", "Alagoas"}, {"AP", "Amapá"}, {"AM", "Amazonas"}, {"BA", "Bahia"},
		{"CE", "Ceará"}, {"DF", "Distrito Federal"}, {"ES", "Espírito Santo"}, {"GO", "Goiás"},
		{"MA", "Maranhão"}, {"MT", "Mato Grosso"}, {"MS", "Mato Grosso do Sul"}, {"MG", "Minas Gerais"},
		{"PA", "Pará"}, {"PB", "Paraíba"}, {"PR", "Paraná"}, {"PE", "Pernambuco"}, {"PI", "Piauí"},
		{"RJ", "Rio de Janeiro"}, {"RN", "Rio Grande do Norte"}, {"RS", "Rio Grande do Sul"},
		{"RO", "Rondônia"}, {"RR", "Roraima"}, {"SC", "Santa Catarina"}, {"SP", "São Paulo"},
		{"SE", "Sergipe"}, {"TO", "Tocantins"},
	}
}

// FieldMessage returns the localised message for a failed rule (a gatewayclient Code*) of a form
// field (a checkout Field* name): "Informe um CPF ou CNPJ válido". Every code has a message for every
// field: a code without its own wording gets the field's general one.
func FieldMessage(lang Lang, field, code string) string {
	if code == "" {
		code = "invalid"
	}
	if code == checkout.CodeText {
		// The rule is the same for every field, and no field's general wording explains it.
		return T(lang, "err.text")
	}
	for _, key := range []string{"err." + field + "." + code, "err." + field + ".invalid"} {
		if HasKey(key) {
			return T(lang, key)
		}
	}
	if code == checkout.CodeRequired {
		return T(lang, "err.required")
	}
	return T(lang, "err.invalid")
}
