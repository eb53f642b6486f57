package views

import (
	"strconv"
	"strings"

	"github.com/a-h/templ"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// The dashboard's payment links: their list with the new-link form (LinksPage), one link's
// page (LinkPage: its address to copy and share, its poster, its payments, its form), and its
// printable poster (Poster, an SVG document).

// LinksView is the list of payment links and the new-link form.
type LinksView struct {
	DashPage
	Links   []LinkRow
	Form    LinkFormView
	CanEdit bool // the user may create and change links (else the list alone)
	Notice  string
	Failed  string
}

// LinkRow is a payment link in the list.
type LinkRow struct {
	ID, Title, URL, PageURL string
	Amount                  string // the amount, or its bounds, as shown
	Active                  bool
	Status                  string // active, inactive, expired
	Payments                int
	Received                checkout.Cents
}

// LinkFormView is the form of a payment link (new or edited): the values as typed, by field.
type LinkFormView struct {
	Action, Title, Submit string
	Values                map[string]string
	Errors                checkout.ValidationError
	Products              []Option // the catalogue's active products (value: id)
	// Rows is how many product/quantity rows the form shows (fields product_1, quantity_1, …):
	// a fixed number, so the form works without a script; blank rows are ignored.
	Rows int
}

// LinkView is the page of one payment link.
type LinkView struct {
	DashPage
	ID, Title, Slug, URL string
	Amount               string
	Status               string // active, inactive, expired
	Active               bool
	WhatsAppURL          string
	Posters              []PosterLink
	Payments             int
	Received             checkout.Cents
	Orders               []OrderRow
	Form                 LinkFormView
	CanEdit              bool
	ToggleURL            string
	DuplicateURL         string
	OrdersURL            string // the order list filtered to this link
	BackURL              string
	Notice               string
	CopyScript           string // the copy button's script
	// QRPath is the QR code of URL as an SVG path in a square of QRModules units (as the
	// poster's), shown on the page so that the link can be scanned from the screen.
	QRPath    string
	QRModules int
	// Loopback: URL names this machine (the public URL is not set): scanned by a phone it
	// opens nothing, which the page says.
	Loopback bool
}

// PosterLink is one printable poster of a link.
type PosterLink struct{ Label, URL string }

// Fields of the payment link form; the product rows' fields (LinkItemField) follow "max".
var linkFormFields = []string{"title", "kind", "amount", "description", "min", "max", "slug",
	"max_payments", "expires_at", "require_address", "ask_email", "ask_phone"}

// LinkFormFields lists the fields of the payment link form, in order, without its product rows'.
func LinkFormFields() []string { return append([]string(nil), linkFormFields...) }

// LinkItemField is the name of a field of the form's product row n (from 1): "product" or
// "quantity" then "_n".
func LinkItemField(field string, n int) string { return field + "_" + strconv.Itoa(n) }

// linkItemRow is the row of a product row's field name, 0 when it is not one.
func linkItemRow(name string) (field string, n int) {
	field, num, ok := strings.Cut(name, "_")
	if !ok || (field != "product" && field != "quantity") {
		return "", 0
	}
	n, err := strconv.Atoi(num)
	if err != nil || n < 1 {
		return "", 0
	}
	return field, n
}

// fieldOrder lists the form's fields in the order they are shown, its product rows' included.
func (f LinkFormView) fieldOrder() []string {
	var out []string
	for _, name := range linkFormFields {
		out = append(out, name)
		if name == "max" {
			for n := 1; n <= f.Rows; n++ {
				out = append(out, LinkItemField("product", n), LinkItemField("quantity", n))
			}
		}
	}
	return out
}

// linkLabel is the label of a field of the link form; a product row's names its row.
func linkLabel(p DashPage, name string) string {
	if field, n := linkItemRow(name); n > 0 {
		return p.t(linkKey("field_", field+"_n"), n)
	}
	return p.t(linkKey("field_", name))
}

// linkSummaryError is an error as the form's error summary lists it: a product row's names
// its field (the row's number included), as the summary stands away from the field.
func linkSummaryError(p DashPage, f LinkFormView, name string) string {
	if _, n := linkItemRow(name); n > 0 {
		return p.t("links.err_in", linkLabel(p, name), f.Errors.Message(name))
	}
	return f.Errors.Message(name)
}

// linkAttrs are the attributes of a link form's input.
func linkAttrs(f LinkFormView, name, typ string) templ.OrderedAttributes {
	a := templ.OrderedAttributes{
		{Key: "id", Value: "l-" + name},
		{Key: "name", Value: name},
		{Key: "type", Value: typ},
		{Key: "value", Value: f.Values[name]},
	}
	var describedBy []string
	switch name {
	case "amount", "min", "max":
		a = append(a, templ.KeyValue[string, any]{Key: "inputmode", Value: "decimal"})
	case "max_payments":
		a = append(a, templ.KeyValue[string, any]{Key: "inputmode", Value: "numeric"})
	case "title":
		a = append(a, templ.KeyValue[string, any]{Key: "required", Value: true})
	}
	if field, n := linkItemRow(name); field == "quantity" && n > 0 {
		a = append(a, templ.KeyValue[string, any]{Key: "inputmode", Value: "numeric"})
	}
	if HasKey(linkKey("hint_", name)) {
		describedBy = append(describedBy, "l-"+name+"-hint")
	}
	if f.Errors.Has(name) {
		a = append(a, templ.KeyValue[string, any]{Key: "aria-invalid", Value: "true"})
		describedBy = append([]string{"l-" + name + "-error"}, describedBy...)
	}
	if len(describedBy) > 0 {
		a = append(a, templ.KeyValue[string, any]{Key: "aria-describedby", Value: strings.Join(describedBy, " ")})
	}
	return a
}

// linkStatusTone is the tone of a link's state.
func linkStatusTone(status string) string {
	if status == "active" {
		return "tone-ok"
	}
	return "tone-neutral"
}

// linkKey is the catalogue key of a part of the link pages named by a value (a state, a kind,
// a field): "links." + part + value.
func linkKey(part, value string) string { return "links." + part + value }
