package views

import (
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/a-h/templ"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// summaryItem is one entry of the error summary: a message, linked to its field when the field
// is on the page.
type summaryItem struct {
	Href    string
	Message string
}

// summaryItems lists the form's errors in the order of the page: the form-wide one first, then
// each shown field's, then those of fields not on the page (an address error of a digital
// order, say) unlinked, so that no error is ever hidden.
func summaryItems(v CustomerView) []summaryItem {
	var items []summaryItem
	if msg := v.Errors.Message(""); msg != "" {
		items = append(items, summaryItem{Message: msg})
	}
	shown := map[string]bool{"": true}
	fields := customerFields()
	if v.Physical {
		fields = append(fields, addressFields()...)
	}
	for _, f := range fields {
		shown[f.Name] = true
		if msg := v.Errors.Message(f.Name); msg != "" {
			items = append(items, summaryItem{Href: "#" + f.id(), Message: msg})
		}
	}
	var rest []string
	for _, e := range v.Errors.Violations {
		if !shown[e.Field] && e.Message != "" {
			shown[e.Field] = true
			rest = append(rest, e.Field)
		}
	}
	// The violations come in the order they were found; the page's must not depend on it.
	sort.Strings(rest)
	for _, name := range rest {
		items = append(items, summaryItem{Message: v.Errors.Message(name)})
	}
	return items
}

// fieldValue is the value an input shows: what the shopper typed (or the merchant prefilled).
func fieldValue(v CustomerView, f formField) string {
	if f.Name == checkout.FieldNumber && v.Values.Address.Number == NoNumber {
		return "" // said by the "sem número" checkbox
	}
	return v.Values.Value(f.Name)
}

// NoNumber is the number of an address without one ("sem número"): the gateway takes digits
// only, so the form's checkbox sends it, and the merchant's pages show AddressNumber's "S/N".
const NoNumber = "0"

// AddressNumber is an address's number as pages show it: "S/N" for NoNumber.
func AddressNumber(n string) string {
	if n == NoNumber {
		return "S/N"
	}
	return n
}

// inputAttrs are the attributes of a form field's input or select, in a stable order.
func inputAttrs(v CustomerView, f formField) templ.OrderedAttributes {
	a := templ.OrderedAttributes{
		{Key: "id", Value: f.id()},
		{Key: "name", Value: f.Name},
	}
	if f.Type != "select" {
		a = append(a, templ.KeyValue[string, any]{Key: "type", Value: f.Type})
		a = append(a, templ.KeyValue[string, any]{Key: "value", Value: fieldValue(v, f)})
	}
	a = append(a, templ.KeyValue[string, any]{Key: "autocomplete", Value: f.Autocomplete})
	if f.InputMode != "" {
		a = append(a, templ.KeyValue[string, any]{Key: "inputmode", Value: f.InputMode})
	}
	if f.Mask != "" {
		a = append(a, templ.KeyValue[string, any]{Key: "data-mask", Value: f.Mask})
		a = append(a, templ.KeyValue[string, any]{Key: "spellcheck", Value: "false"})
	}
	if f.Check != "" {
		a = append(a, templ.KeyValue[string, any]{Key: "data-check", Value: f.Check})
		a = append(a, templ.KeyValue[string, any]{Key: "data-check-error", Value: FieldMessage(v.Lang, f.Name, f.CheckCode)})
	}
	if f.Mask == "document" {
		// Alphanumeric CNPJs have upper-case letters.
		a = append(a, templ.KeyValue[string, any]{Key: "autocapitalize", Value: "characters"})
	}
	if f.MaxLength > 0 {
		a = append(a, templ.KeyValue[string, any]{Key: "maxlength", Value: strconv.Itoa(f.MaxLength)})
	}
	if !f.Optional {
		a = append(a, templ.KeyValue[string, any]{Key: "required", Value: true})
	}
	var describedBy []string
	if f.Hint {
		describedBy = append(describedBy, f.hintID())
	}
	if v.Errors.Has(f.Name) {
		describedBy = append(describedBy, f.errorID())
		a = append(a, templ.KeyValue[string, any]{Key: "aria-invalid", Value: "true"})
	}
	if len(describedBy) > 0 {
		a = append(a, templ.KeyValue[string, any]{Key: "aria-describedby", Value: strings.Join(describedBy, " ")})
	}
	return a
}

// ufSelected reports whether a state value (the UF or the state's name) names uf.
func ufSelected(value string, uf UF) bool {
	value = strings.TrimSpace(value)
	return strings.EqualFold(value, uf.Code) || strings.EqualFold(value, uf.Name)
}

// FormErrors localises the domain's field errors for the customer form: each field's first
// violation beside its input, the rest (a spent request key, a cart that changed or holds a
// product no longer sold, rules without a field) in one message about the whole form (Field "")
// at the top.
func FormErrors(lang Lang, fe *checkout.ValidationError) checkout.ValidationError {
	var errs checkout.ValidationError
	inForm := map[string]bool{}
	for _, f := range append(checkout.CustomerFields(), checkout.AddressFields()...) {
		inForm[f] = true
	}
	var general []string
	byField := checkout.FormViolations(fe)
	for _, field := range slices.Sorted(maps.Keys(byField)) { // the summary's order must not depend on the map's
		vs := byField[field]
		if len(vs) == 0 {
			continue
		}
		if inForm[field] {
			errs.Add(field, vs[0].Code, FieldMessage(lang, field, vs[0].Code))
			continue
		}
		if field == checkout.FieldAddress {
			for _, name := range checkout.AddressFields() {
				if !inputs[name].Optional && !errs.Has(name) {
					errs.Add(name, checkout.CodeRequired, FieldMessage(lang, name, checkout.CodeRequired))
				}
			}
			continue
		}
		general = append(general, formMessages(lang, field, vs)...)
	}
	if len(general) > 0 {
		errs.Add("", "", strings.Join(dedupe(general), " "))
	}
	return errs
}

// formMessages are the words at the top of the customer form for the violations of a field
// that has no input: a spent request key, a cart that changed, a rule without a field.
func formMessages(lang Lang, field string, vs []checkout.Violation) []string {
	switch {
	case field == checkout.FieldRequestKey:
		return []string{T(lang, MsgFormOutdated)}
	case field == checkout.FieldCart && vs[0].Field == "amount" && vs[0].Code == checkout.CodeMax:
		return []string{T(lang, "err.amount_max", FormatMoney(lang, gatewayclient.MaxAmount))}
	case field == checkout.FieldCart || field == checkout.FieldQuantity:
		return []string{T(lang, MsgCartUnavailable)}
	}
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = T(lang, "err.other", v.String())
	}
	return out
}

// dedupe drops repeated strings, keeping the first of each.
func dedupe(ss []string) []string {
	seen := map[string]bool{}
	out := ss[:0]
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// title is the customer page's title: what is sold, when the page says it (Heading).
func (v CustomerView) title() string {
	if v.Heading != "" {
		return v.Heading
	}
	return v.t("customer.title")
}

// Localise is the errors a form shows for fe: each field's first violation, its message in
// words from message (the violation's code, its field, the page's language...). A page's
// errors are always a checkout.ValidationError whose messages are localised, Field "" for one
// about the whole form.
func Localise(fe *checkout.ValidationError, message func(checkout.Violation) string) checkout.ValidationError {
	var out checkout.ValidationError
	if fe == nil {
		return out
	}
	for _, v := range fe.Violations {
		if !out.Has(v.Field) {
			out.Add(v.Field, v.Code, message(v))
		}
	}
	return out
}
