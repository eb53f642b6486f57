package views

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/brdoc"
)

// dashTitle is the document title of a dashboard page.
func dashTitle(p DashPage, title string) string {
	base := p.t("dash.title") + " · " + merchant(p.Page)
	if title == "" {
		return base
	}
	return title + " · " + base
}

// dashHome is where the brand links to: the overview when signed in.
func dashHome(p DashPage) string {
	for _, it := range p.Nav {
		if it.Key == "overview" {
			return it.URL
		}
	}
	return p.home()
}

// errID is the id of the message of a filter parameter's error.
func errID(name string) string { return "err-" + name }

// inputID is the id of a filter parameter's input.
func inputID(name string) string { return "f-" + name }

// filterAttrs are the attributes of a filter input: its name (the API's parameter), id, value
// as typed, and aria-invalid/aria-describedby when it has an error.
func filterAttrs(f FilterView, name, typ string, extra ...string) templ.OrderedAttributes {
	a := templ.OrderedAttributes{
		{Key: "id", Value: inputID(name)},
		{Key: "name", Value: name},
		{Key: "type", Value: typ},
		{Key: "value", Value: f.Values[name]},
	}
	describedBy := ""
	for i := 0; i+1 < len(extra); i += 2 {
		if extra[i] == "aria-describedby" {
			describedBy = extra[i+1]
			continue
		}
		a = append(a, templ.KeyValue[string, any]{Key: extra[i], Value: extra[i+1]})
	}
	if f.Errors.Has(name) {
		a = append(a, templ.KeyValue[string, any]{Key: "aria-invalid", Value: "true"})
		describedBy = strings.TrimSpace(errID(name) + " " + describedBy)
	}
	if describedBy != "" {
		a = append(a, templ.KeyValue[string, any]{Key: "aria-describedby", Value: describedBy})
	}
	return a
}

// checkboxAttrs are the attributes of one checkbox of a repeated filter parameter.
func checkboxAttrs(f FilterView, name string, i int, o Option) templ.OrderedAttributes {
	a := templ.OrderedAttributes{
		{Key: "id", Value: inputID(name) + "-" + strconv.Itoa(i)},
		{Key: "name", Value: name},
		{Key: "type", Value: "checkbox"},
		{Key: "value", Value: o.Value},
	}
	if o.Checked {
		a = append(a, templ.KeyValue[string, any]{Key: "checked", Value: true})
	}
	if f.Errors.Has(name) {
		a = append(a, templ.KeyValue[string, any]{Key: "aria-invalid", Value: "true"})
	}
	return a
}

// filterSummary lists the filter errors: those of parameters with a field link to it; the
// others (a parameter the form does not show, the gateway's unplaced message) are plain text.
func filterSummary(f FilterView, order []string) []summaryItem {
	var items []summaryItem
	if msg := f.Errors.Message(""); msg != "" {
		items = append(items, summaryItem{Message: msg})
	}
	for _, name := range order {
		if msg := f.Errors.Message(name); msg != "" {
			items = append(items, summaryItem{Href: "#" + inputID(name), Message: msg})
		}
	}
	return items
}

// depositFilterOrder and withdrawalFilterOrder are the parameters in the order of the forms.
var (
	depositFilterOrder    = []string{"startDate", "endDate", "status", "minAmount", "maxAmount", "depositOrigin", "page", "perPage"}
	withdrawalFilterOrder = []string{"startDate", "endDate", "status", "minAmount", "maxAmount", "id", "pixKey",
		"endToEnd", "endToEndRefund", "externalCode", "page", "perPage"}
)

// isoTime is a time for the datetime attribute.
func dashISO(t time.Time) string { return t.UTC().Format(gatewayclient.TimeLayout) }

// HolderLine is an account holder as the lists show it: the name, and the document with its
// punctuation (as the gateway returns it when masked).
func HolderLine(h *gatewayclient.AccountHolder) string {
	if h == nil {
		return ""
	}
	if h.Document == "" {
		return h.Name
	}
	return h.Name + " · " + brdoc.FormatDocument(h.Document)
}

// centsText formats an optional amount ("" when nil).
func (p DashPage) centsText(c *checkout.Cents) string {
	if c == nil {
		return ""
	}
	return p.money(*c)
}

// when formats a time in São Paulo ("" for the zero time).
func (p DashPage) when(t time.Time) string { return FormatDateTime(p.Lang, t) }

// count formats a number with thousands separators.
func (p DashPage) count(n int) string { return FormatCount(p.Lang, n) }

// showing is the "items a to b of n" line of a pager.
func (p DashPage) showing(pg Pager, shown int) string {
	if pg.Total == 0 || shown == 0 {
		return p.t("pager.none")
	}
	if pg.Keyset {
		return p.t("pager.shown", p.count(shown))
	}
	from := (pg.Page-1)*pg.PerPage + 1
	return p.t("pager.showing", p.count(from), p.count(from+shown-1), p.count(pg.Total))
}

// hasTone reports whether a timeline entry is the current one, for aria-current.
func timelineCurrent(e TimelineEntry) string {
	if e.Current {
		return "step"
	}
	return "false"
}

// shortID is the first block of a UUID, enough to tell records apart on a page; the full id
// is on the detail page and in data-id.
func shortID(id string) string {
	if i := strings.IndexByte(id, '-'); i > 0 {
		return id[:i]
	}
	if len(id) > 12 {
		return id[:12]
	}
	return id
}

// PerPageChoices are the page sizes the lists offer.
func PerPageChoices() []int { return []int{10, 25, 50, 100} }

// perPageOptions are the page sizes of a select: the choices, plus the current size when it is
// another (a link may carry any size the gateway accepts).
func perPageOptions(current int) []int {
	out := PerPageChoices()
	if current > 0 && !slices.Contains(out, current) {
		out = append(out, current)
		slices.Sort(out)
	}
	return out
}

// OriginText is a deposit origin's name.
func OriginText(lang Lang, o gatewayclient.DepositOrigin) string {
	return enumText(lang, "origin.", string(o))
}

// holderType is an account holder type's name.
func holderType(p DashPage, t gatewayclient.HolderType) string {
	return enumText(p.Lang, "holder.", string(t))
}

// orders is "N pedidos" in the page's language.
func (p DashPage) orders(n int) string {
	if n == 1 {
		return p.t("overview.one_order")
	}
	return p.t("overview.n_orders", p.count(n))
}

// percent formats thousandths as a percentage with one decimal ("66,7 %", "66.7%"); "—" for a
// negative value (nothing to divide).
func percent(lang Lang, permille int) string {
	if permille < 0 {
		return "—"
	}
	whole, frac := strconv.Itoa(permille/10), strconv.Itoa(permille%10)
	if lang.norm() == En {
		return whole + "." + frac + "%"
	}
	return whole + "," + frac + " %"
}

// shortDate is a day as "14/03" (pt-BR) or "Mar 14" (English).
func shortDate(lang Lang, t time.Time) string {
	if lang.norm() == En {
		return t.Format("Jan 2")
	}
	return t.Format("02/01")
}

func chartViewBox(c Chart) string {
	return "0 0 " + strconv.Itoa(c.Width) + " " + strconv.Itoa(c.Height)
}

// chartSummary describes the chart in words for screen readers.
func chartSummary(p DashPage, c Chart) string {
	var total checkout.Cents
	best := -1
	for i, d := range c.Days {
		total += d.Amount
		if d.Amount > 0 && (best < 0 || d.Amount > c.Days[best].Amount) {
			best = i
		}
	}
	if best < 0 {
		return p.t("overview.chart_none")
	}
	return p.t("overview.chart_desc", p.money(total), shortDate(p.Lang, c.Days[best].Day), p.money(c.Days[best].Amount))
}

// orderTone is the colour family of an order state's badge.
func orderTone(status string) string {
	switch status {
	case "paid":
		return "ok"
	case "failed", "expired", "under_review":
		return "bad"
	case "refunded", "refunding", "canceled":
		return "neutral"
	}
	return "wait"
}

// gatewayDeposit converts a deposit state's name.
func gatewayDeposit(s string) gatewayclient.DepositStatus { return gatewayclient.DepositStatus(s) }

// orderAttrs are the attributes of an order filter's input.
func orderAttrs(f OrderFilterView, name, typ string, extra ...string) templ.OrderedAttributes {
	return filterAttrs(orderFV(f), name, typ, extra...)
}

// orderFV is the order list's filter as a FilterView, for the inputs both kinds of list share.
func orderFV(f OrderFilterView) FilterView {
	return FilterView{Values: f.Values, Errors: f.Errors}
}

// productAttrs are the attributes of a product form's input.
func productAttrs(f ProductFormView, name, typ string) templ.OrderedAttributes {
	a := templ.OrderedAttributes{
		{Key: "id", Value: "p-" + name},
		{Key: "name", Value: name},
		{Key: "type", Value: typ},
		{Key: "value", Value: f.Values[name]},
	}
	var describedBy []string
	if name == "unit_price" {
		a = append(a, templ.KeyValue[string, any]{Key: "inputmode", Value: "decimal"})
		describedBy = append(describedBy, "p-unit_price-hint")
	}
	if name == "title" {
		a = append(a, templ.KeyValue[string, any]{Key: "required", Value: true})
	}
	if f.Errors.Has(name) {
		a = append(a, templ.KeyValue[string, any]{Key: "aria-invalid", Value: "true"})
		describedBy = append([]string{"p-" + name + "-error"}, describedBy...)
	}
	if len(describedBy) > 0 {
		a = append(a, templ.KeyValue[string, any]{Key: "aria-describedby", Value: strings.Join(describedBy, " ")})
	}
	return a
}

// productLabel is the label of a product form's field.
func productLabel(p DashPage, name string) string {
	switch name {
	case "title":
		return p.t("products.field_title")
	case "description":
		return p.t("products.field_description")
	}
	return p.t("products.field_unit_price")
}

// settingsAttrs are the attributes of a settings form's input (value "" for a textarea).
func settingsAttrs(v SettingsView, name, typ, value string) templ.OrderedAttributes {
	a := templ.OrderedAttributes{{Key: "id", Value: "s-" + name}, {Key: "name", Value: name}}
	if typ != "" {
		a = append(a, templ.KeyValue[string, any]{Key: "type", Value: typ},
			templ.KeyValue[string, any]{Key: "value", Value: value},
			templ.KeyValue[string, any]{Key: "autocomplete", Value: "off"})
	}
	describedBy := "s-" + name + "-hint"
	if v.Errors.Has(name) {
		a = append(a, templ.KeyValue[string, any]{Key: "aria-invalid", Value: "true"})
		describedBy = "s-" + name + "-error " + describedBy
	}
	return append(a, templ.KeyValue[string, any]{Key: "aria-describedby", Value: describedBy})
}

// deliveryTone is the colour family of a notification's state.
func deliveryTone(status string) string {
	switch status {
	case "delivered":
		return "ok"
	case "dead":
		return "bad"
	case "skipped":
		return "neutral"
	}
	return "wait"
}

// deliveryStatus is a notification state's name.
func deliveryStatus(p DashPage, status string) string {
	switch status {
	case "delivered":
		return p.t("delivery.delivered")
	case "dead":
		return p.t("delivery.dead")
	case "skipped":
		return p.t("delivery.skipped")
	}
	return p.t("delivery.pending")
}

// fulfilmentTone is the colour of a fulfilment state's mark in the order list.
func fulfilmentTone(f string) string {
	if f == checkout.FulfilmentAwaitingShipment {
		return "tone-wait"
	}
	return "tone-ok"
}
