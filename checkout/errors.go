package checkout

import (
	"sort"
	"strings"

	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// Form field names used as keys of FieldErrors.Fields. The customer form uses them as input
// names; FormField maps the gateway's field paths onto them.
const (
	FieldName         = "name"
	FieldDocument     = "document"
	FieldEmail        = "email"
	FieldPhone        = "phone"
	FieldZipCode      = "zipCode"
	FieldStreet       = "street"
	FieldNumber       = "number"
	FieldComplement   = "complement"
	FieldNeighborhood = "neighborhood"
	FieldCity         = "city"
	FieldState        = "state"
	FieldCountry      = "country"
	FieldAddress      = "address"    // the whole address block (missing for a physical cart)
	FieldQuantity     = "quantity"   // a cart line's quantity
	FieldCart         = "cart"       // the cart as a whole: amount, items, unavailable products
	FieldRequestKey   = "requestKey" // the form's hidden request key
	FieldForm         = ""           // anything else: shown in the summary only
)

// formFields maps the gateway's request paths to form field names.
var formFields = map[string]string{
	"customer.name":        FieldName,
	"customer.document":    FieldDocument,
	"customer.email":       FieldEmail,
	"customer.mobilePhone": FieldPhone,
	"customer.landline":    FieldPhone,
	"address":              FieldAddress,
	"address.zipCode":      FieldZipCode,
	"address.street":       FieldStreet,
	"address.number":       FieldNumber,
	"address.complement":   FieldComplement,
	"address.neighborhood": FieldNeighborhood,
	"address.city":         FieldCity,
	"address.state":        FieldState,
	"address.country":      FieldCountry,
	"amount":               FieldCart,
	"items":                FieldCart,
	"idempotencyKey":       FieldRequestKey,
}

// FormField returns the form field name for a gateway request path: customer.document ->
// "document", address.zipCode -> "zipCode", amount and items[i].* -> "cart"; FieldForm for a
// path the form has no field for.
func FormField(path string) string {
	if f, ok := formFields[path]; ok {
		return f
	}
	if strings.HasPrefix(path, "items[") || strings.HasPrefix(path, "items.") {
		return FieldCart
	}
	return FieldForm
}

// FieldErrors reports invalid input by form field. It matches gatewayclient.ErrValidation
// with errors.Is.
type FieldErrors struct {
	// Fields holds the violations by form field name (see the Field constants). Each
	// Violation keeps the gateway's path in Field, a code and an English message; pages
	// translate by code.
	Fields map[string][]gatewayclient.Violation
}

// Error lists the violations, fields sorted.
func (e *FieldErrors) Error() string {
	keys := make([]string, 0, len(e.Fields))
	for k := range e.Fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		for _, v := range e.Fields[k] {
			name := k
			if name == "" {
				name = v.Field
			}
			parts = append(parts, name+": "+v.Message)
		}
	}
	return "checkout: invalid input: " + strings.Join(parts, "; ")
}

// Is makes errors.Is(err, gatewayclient.ErrValidation) true.
func (e *FieldErrors) Is(target error) bool { return target == gatewayclient.ErrValidation }

// Has reports whether field has a violation.
func (e *FieldErrors) Has(field string) bool { return len(e.Fields[field]) > 0 }

func (e *FieldErrors) add(field string, v gatewayclient.Violation) {
	if e.Fields == nil {
		e.Fields = map[string][]gatewayclient.Violation{}
	}
	e.Fields[field] = append(e.Fields[field], v)
}

// fieldErrors maps violations of a gateway request onto form fields; nil when there are none.
func fieldErrors(vs []gatewayclient.Violation) *FieldErrors {
	if len(vs) == 0 {
		return nil
	}
	fe := &FieldErrors{}
	for _, v := range vs {
		fe.add(FormField(v.Field), v)
	}
	return fe
}

// fieldError is one violation of one form field.
func fieldError(field, code, msg string) *FieldErrors {
	fe := &FieldErrors{}
	fe.add(field, gatewayclient.Violation{Field: field, Code: code, Message: msg})
	return fe
}
