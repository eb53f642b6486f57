package views

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/a-h/templ"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/brand"
)

// StoreView is the "Loja" page: the store's face as stored or as typed, its errors by field
// (brand.Fields), and the configuration variables the page replaced.
type StoreView struct {
	DashPage
	Action string // POST: brand.Fields
	Store  brand.Profile
	Errors checkout.ValidationError
	Notice string
	Failed string
	// Palette is what the pages draw with the stored colours, each pair with its contrast.
	Palette []brand.Shades
	// GatewayName is the merchant name of the newest PIX code the gateway returned (field 59),
	// which the shopper's bank shows, made at GatewayNameAt; "" when no code was seen yet.
	GatewayName   string
	GatewayNameAt time.Time
	// Preview shows the shopper pages with the values shown (typed or saved); none when empty.
	Preview StorePreview
	// PreviewAction is where the form posts to draw the preview of what it holds.
	PreviewAction string
	// Logo is the logo's part of the page (its own forms).
	Logo StoreLogoForm
}

// StorePreview are the URLs of the preview's frames: the PIX page and the paid page of a
// sample order with the store's face being edited.
type StorePreview struct {
	PixURL, PaidURL string
}

// ratio writes a contrast ratio as "4.6:1" (pt-BR "4,6:1").
func (v StoreView) ratio(r float64) string {
	s := strconv.FormatFloat(math.Floor(r*10)/10, 'f', 1, 64)
	if v.Lang.norm() == PtBR {
		s = strings.Replace(s, ".", ",", 1)
	}
	return s + ":1"
}

// ReplacedVariables are the configuration's variables whose values are now the store's
// initial values only: the page names them.
var ReplacedVariables = []string{"CHECKOUT_MERCHANT_NAME", "CHECKOUT_MERCHANT_LEGAL_NAME", "CHECKOUT_MERCHANT_DOCUMENT",
	"CHECKOUT_SUPPORT_EMAIL", "CHECKOUT_SUPPORT_PHONE", "CHECKOUT_SUPPORT_URL"}

// storeField is one text input of the store's form.
type storeField struct {
	Name, Type, Autocomplete, InputMode string
	Max                                 int
	Multiline                           bool
}

// storeFields are the text inputs of the store's form, by section, in order.
var storeFields = [][]storeField{
	{{Name: brand.FieldName, Type: "text", Autocomplete: "organization", Max: brand.MaxName},
		{Name: brand.FieldLegalName, Type: "text", Autocomplete: "off", Max: brand.MaxLegalName},
		{Name: brand.FieldDocument, Type: "text", Autocomplete: "off", InputMode: "text"},
		{Name: brand.FieldAddress, Max: brand.MaxAddress, Multiline: true}},
	{{Name: brand.FieldSupportEmail, Type: "email", Autocomplete: "email"},
		{Name: brand.FieldSupportPhone, Type: "tel", Autocomplete: "tel"},
		{Name: brand.FieldSupportURL, Type: "url", Autocomplete: "url", Max: brand.MaxURL}},
	{{Name: brand.FieldNote, Max: brand.MaxNote, Multiline: true},
		{Name: brand.FieldThanks, Max: brand.MaxThanks, Multiline: true}},
}

// colourOrDefault is what a colour input shows for c: c, else the pages' own green.
func colourOrDefault(c string) string {
	if c == "" {
		return DefaultBrandColor
	}
	return c
}

// DefaultBrandColor is the pages' own brand colour (app.css's --primary).
const DefaultBrandColor = "#0a6b61"

// storeAttrs are the id, name, invalid state and descriptions of the store form's input name.
func storeAttrs(v StoreView, name string) templ.OrderedAttributes {
	a := templ.OrderedAttributes{{Key: "id", Value: "st-" + name}, {Key: "name", Value: name}}
	describedBy := "st-" + name + "-hint"
	if v.Errors.Has(name) {
		a = append(a, templ.KeyValue[string, any]{Key: "aria-invalid", Value: "true"})
		describedBy = "st-" + name + "-error " + describedBy
	}
	return append(a, templ.KeyValue[string, any]{Key: "aria-describedby", Value: describedBy})
}
