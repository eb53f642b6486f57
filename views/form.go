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
	if msg := v.Errors[""]; msg != "" {
		items = append(items, summaryItem{Message: msg})
	}
	shown := map[string]bool{"": true}
	fields := customerFields()
	if v.Physical {
		fields = append(fields, addressFields()...)
	}
	for _, f := range fields {
		shown[f.Name] = true
		if msg := v.Errors[f.Name]; msg != "" {
			items = append(items, summaryItem{Href: "#" + f.id(), Message: msg})
		}
	}
	var rest []string
	for name := range v.Errors {
		if !shown[name] && v.Errors[name] != "" {
			rest = append(rest, name)
		}
	}
	// Map order is random; the page must not be.
	sort.Strings(rest)
	for _, name := range rest {
		items = append(items, summaryItem{Message: v.Errors[name]})
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
	if v.Errors[f.Name] != "" {
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
// product no longer sold, rules without a field) in the summary at the top.
func FormErrors(lang Lang, fe *checkout.ValidationError) FieldErrors {
	errs := FieldErrors{}
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
		switch {
		case inForm[field]:
			errs[field] = FieldMessage(lang, field, vs[0].Code)
		case field == checkout.FieldRequestKey:
			general = append(general, T(lang, MsgFormOutdated))
		case field == checkout.FieldCart && vs[0].Field == "amount" && vs[0].Code == checkout.CodeMax:
			general = append(general, T(lang, "err.amount_max", FormatMoney(lang, gatewayclient.MaxAmount)))
		case field == checkout.FieldCart || field == checkout.FieldQuantity:
			general = append(general, T(lang, MsgCartUnavailable))
		case field == checkout.FieldAddress:
			for _, name := range checkout.AddressFields() {
				if !inputs[name].Optional {
					errs[name] = FieldMessage(lang, name, "required")
				}
			}
		default:
			for _, v := range vs {
				general = append(general, T(lang, "err.other", v.String()))
			}
		}
	}
	if len(general) > 0 {
		errs[""] = strings.Join(dedupe(general), " ")
	}
	return errs
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
