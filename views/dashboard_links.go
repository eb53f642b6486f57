package views

import (
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
	Errors                map[string]string
	Products              []Option // the catalogue's active products (value: id)
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
	BackURL              string
	Notice               string
	CopyScript           string // the copy button's script
}

// PosterLink is one printable poster of a link.
type PosterLink struct{ Label, URL string }

// Fields of the payment link form.
var linkFormFields = []string{"title", "kind", "amount", "description", "min", "max", "product", "quantity", "slug",
	"max_payments", "expires_at", "require_address", "ask_email", "ask_phone"}

// LinkFormFields lists the fields of the payment link form, in order.
func LinkFormFields() []string { return append([]string(nil), linkFormFields...) }

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
	case "max_payments", "quantity":
		a = append(a, templ.KeyValue[string, any]{Key: "inputmode", Value: "numeric"})
	case "title":
		a = append(a, templ.KeyValue[string, any]{Key: "required", Value: true})
	}
	if HasKey(linkKey("hint_", name)) {
		describedBy = append(describedBy, "l-"+name+"-hint")
	}
	if f.Errors[name] != "" {
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
