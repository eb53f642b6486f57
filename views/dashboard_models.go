package views

import (
	"strconv"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// DashPage is what every dashboard page needs besides its own content.
type DashPage struct {
	Page
	User      string    // the signed-in user's e-mail; "" on the sign-in page
	CSRF      string    // the session's token, posted back by every form as CSRFField
	Section   string    // the current section (a NavItem's Key)
	Nav       []NavItem // the sections, in order
	LogoutURL string    // POST target of the sign-out button
	ShopURL   string    // the shop's catalogue
	Role      string    // the signed-in user's role
	// Perms are the permissions of the user's role (team.Permissions): a control the role
	// may not use is not shown.
	Perms map[string]bool
	// GatewayCause, when set, is why the gateway fails (health.Cause's words: unreachable,
	// timeout, credentials, forbidden, not_found, server_error), since GatewaySince: every page
	// shows a banner saying so.
	GatewayCause string
	GatewaySince time.Time
}

// Can reports whether the signed-in user's role has the permission perm.
func (p DashPage) Can(perm string) bool { return p.Perms[perm] }

// CSRFField is the name of the hidden input that carries the session's token in every
// dashboard form.
const CSRFField = "csrf_token"

// NavItem is one section of the dashboard's navigation.
type NavItem struct {
	Key   string // "overview", "orders", "deposits", "withdrawals", "products", "settings"
	URL   string
	Count int // > 0: how many wait there (refunds due), said beside the name
	// Group gathers sections under one name in the navigation ("sales", "gateway", "store",
	// "team"; "" stands alone), so that it stays one row on a laptop however many sections
	// there are: a group of two or more shows its sections on hover or focus.
	Group string
}

// navGroup is a run of consecutive sections of the same group (or one section alone).
type navGroup struct {
	Key     string // the group's key; "" for a section alone
	Items   []NavItem
	Current bool // one of Items is the page's section
	Count   int  // what waits in its sections, summed
}

// navGroups gathers p's sections into their groups, in order; a group of one section is
// shown as that section alone.
func navGroups(p DashPage) []navGroup {
	var out []navGroup
	for _, it := range p.Nav {
		if n := len(out); n > 0 && it.Group != "" && out[n-1].Key == it.Group {
			out[n-1].Items = append(out[n-1].Items, it)
		} else {
			out = append(out, navGroup{Key: it.Group, Items: []NavItem{it}})
		}
		g := &out[len(out)-1]
		g.Current = g.Current || it.Key == p.Section
		g.Count += it.Count
	}
	for i := range out {
		if len(out[i].Items) == 1 {
			out[i].Key = ""
		}
	}
	return out
}

// navGroupLabel is a group's name, with the count of what waits in it.
func navGroupLabel(p DashPage, g navGroup) string {
	key := "dash.group_" + g.Key // sales, gateway, store, team
	name := p.t(key)
	if g.Count > 0 {
		return p.t("dash.nav_count", name, g.Count)
	}
	return name
}

// LoginView is the sign-in page.
type LoginView struct {
	DashPage
	Action string // POST target
	Email  string // as typed
	Error  string // localised: wrong credentials, or the wait imposed by throttling
	Notice string // localised: signed out, session ended
	// ResetURL is the page where a forgotten password is reset.
	ResetURL string
}

// Option is one choice of a select or of a group of checkboxes.
type Option struct {
	Value   string
	Label   string
	Checked bool
	Chip    bool   // a common choice: a chip of the list's filter bar, not in "more filters"
	Short   string // the chip's shorter label ("" for Label)
}

// FilterView is the filter form of a gateway list. Its inputs carry the gateway API's own
// parameter names; values are shown as typed, errors beside their input.
type FilterView struct {
	Action     string                   // GET target
	ClearURL   string                   // the list without filters
	Values     map[string]string        // single-valued parameters as typed (dates as São Paulo local)
	Errors     checkout.ValidationError // localised, by parameter; Field "" for one without a field
	Statuses   []Option                 // every state of the record, checked when filtered
	Origins    []Option                 // deposits only: QRCODE and PIX_KEY
	Withdrawal bool                     // show the withdrawal-only filters
	PerPage    int
	Bar        FilterBar
}

// Pager is the pagination of a list, with the gateway's totals.
type Pager struct {
	Total, TotalPages, Page, PerPage int
	// Capped: Total stopped counting (the list has more than Total-1 matches). Keyset: the list
	// pages by key, so a page has no number (Page and TotalPages are 0).
	Capped, Keyset          bool
	First, Prev, Next, Last string // links; "" when not applicable
	// SizeAction and SizeHidden make the page-size form: the current query minus page and
	// perPage, as hidden inputs.
	SizeAction string
	SizeHidden []Hidden
	Sizes      []int
}

// Hidden is a hidden input of a GET form.
type Hidden struct{ Name, Value string }

// GatewayBanner explains a failure of the gateway: what happened and what to do.
type GatewayBanner struct {
	Message string // localised
}

// DepositRow is one deposit of a list.
type DepositRow struct {
	ID          string
	URL         string // detail page
	CreatedAt   time.Time
	Amount      checkout.Cents
	Status      gatewayclient.DepositStatus
	Origin      gatewayclient.DepositOrigin
	Payer       string // name and document as the gateway returns them
	EndToEnd    string
	PaymentDate time.Time
}

// DepositsView is the deposit list.
type DepositsView struct {
	DashPage
	Filter   FilterView
	Rows     []DepositRow
	Pager    Pager
	CSVURL   string
	Exports  MyExports // the user's background exports
	Banner   *GatewayBanner
	Listed   bool // the gateway answered (Rows and Pager are meaningful)
	Searched bool // the request carried filters: focus goes to the results
	// CSVFullURL is the export with documents and phones in full, for the roles that may ("").
	CSVFullURL string
}

// WithdrawalRow is one withdrawal of a list.
type WithdrawalRow struct {
	ID        string
	URL       string
	CreatedAt time.Time
	Amount    checkout.Cents
	Status    gatewayclient.WithdrawalStatus
	PixKey    gatewayclient.PixKey // the zero PixKey when none
	Receiver  string
	EndToEnd  string
}

// WithdrawalsView is the withdrawal list.
type WithdrawalsView struct {
	DashPage
	Filter   FilterView
	Rows     []WithdrawalRow
	Pager    Pager
	CSVURL   string
	Exports  MyExports // the user's background exports
	Banner   *GatewayBanner
	Listed   bool
	Searched bool
	// CSVFullURL: as DepositsView's.
	CSVFullURL string
}

// TimelineEntry is one state of a record's history.
type TimelineEntry struct {
	Status   string
	Label    string
	Tone     string // badge colour: ok, wait, bad, neutral
	At       time.Time
	Duration time.Duration
	Current  bool // the record's present state
}

// LinkedOrder is the shop's order a deposit pays.
type LinkedOrder struct {
	Number string
	URL    string
	Status string // localised
}

// DepositView is a deposit's detail page.
type DepositView struct {
	DashPage
	D        *gatewayclient.Deposit
	Timeline []TimelineEntry
	Order    *LinkedOrder // nil when the deposit is not the shop's
	BackURL  string
}

// WithdrawalView is a withdrawal's detail page.
type WithdrawalView struct {
	DashPage
	W        *gatewayclient.Withdrawal
	Timeline []TimelineEntry
	BackURL  string
}

// DashErrorView is an error page inside the dashboard's frame (not found, a malformed id, the
// gateway's trouble).
type DashErrorView struct {
	DashPage
	Status    int
	Title     string // localised
	Message   string // localised
	Detail    string // the API's own message, shown as is (e.g. "id: must be a UUID")
	BackURL   string
	RequestID string
}

// DepositStatusText is the localised name of a deposit state; an unknown state shows as the
// gateway spells it.
func DepositStatusText(lang Lang, s gatewayclient.DepositStatus) string {
	return enumText(lang, "dstatus.", string(s))
}

// WithdrawalStatusText is the localised name of a withdrawal state.
func WithdrawalStatusText(lang Lang, s gatewayclient.WithdrawalStatus) string {
	return enumText(lang, "wstatus.", string(s))
}

// DepositTone is the colour family of a deposit state's badge.
func DepositTone(s gatewayclient.DepositStatus) string {
	switch s {
	case gatewayclient.DepositPaid:
		return "ok"
	case gatewayclient.DepositFailed, gatewayclient.DepositInfraction, gatewayclient.DepositBlocked:
		return "bad"
	case gatewayclient.DepositRefunded:
		return "neutral"
	}
	return "wait"
}

// WithdrawalTone is the colour family of a withdrawal state's badge.
func WithdrawalTone(s gatewayclient.WithdrawalStatus) string {
	switch s {
	case gatewayclient.WithdrawalProcessed:
		return "ok"
	case gatewayclient.WithdrawalFailed, gatewayclient.WithdrawalRejected, gatewayclient.WithdrawalCanceled:
		return "bad"
	case gatewayclient.WithdrawalRefunded:
		return "neutral"
	}
	return "wait"
}

// FormatCount formats a whole number with the language's thousands separator.
func FormatCount(lang Lang, n int) string {
	s := strconv.Itoa(n)
	if n < 0 {
		return s
	}
	sep := "."
	if lang.norm() == En {
		sep = ","
	}
	out := make([]byte, 0, len(s)+len(s)/3)
	for i := 0; i < len(s); i++ {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, sep...)
		}
		out = append(out, s[i])
	}
	return string(out)
}

// OverviewView is the dashboard's first page.
type OverviewView struct {
	DashPage
	Today, Week, Month PaidFigure
	Awaiting           int
	AwaitingURL        string // the orders awaiting payment
	Placed, PlacedPaid int
	Conversion         int // paid ÷ placed in thousandths; -1 when nothing was placed
	Chart              Chart
	OrdersURL          string
	Attention          AttentionView
	Top                []TopProduct // the products that brought the most in 30 days
	// Money are the money of today, 7 and 30 days, each figure with the list behind it.
	Money []MoneyColumn
	// Channels are the links filtering the overview by channel ("" first: every channel),
	// the current one marked; ByChannel the money of each channel with any.
	Channels  []ChannelLink
	ByChannel []ChannelRow
	// Terminals are the links filtering the overview by terminal of the point of sale ("" first:
	// every order; Channel holds the terminal's id), when there are terminals to choose.
	Terminals []ChannelLink
	// Charges are the charges' figures, nil for a role that may not read charges.
	Charges *ChargeFigures
}

// ChannelLink is a link of the overview's channel filter.
type ChannelLink struct {
	Channel, Label, URL string // Channel "" is every channel
	Current             bool
}

// ChannelRow is the money of one channel: received today, in 7 and 30 days, and the net of 30
// days, with the overview of that channel and the list of its orders paid in 30 days.
type ChannelRow struct {
	Channel, Label     string
	Today, Week, Month PaidFigure
	Net                checkout.Cents
	URL, OrdersURL     string
}

// ChargeFigures are what the charges ask and brought: what they still ask before their due
// date ("a receber") and after it ("vencido"), each with its list, and what their orders
// received in 30 days, with those orders.
type ChargeFigures struct {
	Open, Overdue       PaidFigure
	OpenURL, OverdueURL string
	Received            PaidFigure
	ReceivedURL         string
}

// MoneyColumn is one period of the overview's money table: its figures and, for each, the
// order list behind it (the list's "money" filter over the period's dates).
type MoneyColumn struct {
	ID, Label string // "today", "7d", "30d"; the column's heading
	M         checkout.MoneyTotals
	Links     map[checkout.MoneyKind]string
}

// PaidFigure is a count of paid orders and their amount.
type PaidFigure struct {
	Orders int
	Amount checkout.Cents
}

// Chart is the daily paid amounts, drawn as SVG by the server (no script) with the same data
// as a table: bars for the period, a stepped line for the previous period of the same
// length, a y-axis of round amounts.
type Chart struct {
	Days   []ChartDay
	Max    checkout.Cents // the tallest bar's amount
	Width  int            // viewBox width
	Height int            // viewBox height of the bars' area
	// Ticks are the y-axis' amounts from 0 up, evenly spaced; the last is the chart's top.
	Ticks []ChartTick
	// PrevPath is the SVG path of the previous period's stepped line.
	PrevPath         string
	Total, PrevTotal checkout.Cents // the two periods' sums
}

// ChartTick is one amount of the y-axis and its height in the viewBox.
type ChartTick struct {
	Amount checkout.Cents
	Y      int
}

// ChartDay is one bar of the chart, with the day of the previous period it is compared with.
type ChartDay struct {
	Day    time.Time      // local midnight
	Amount checkout.Cents // net: received − refunded − known fees (the bar)
	Gross  checkout.Cents // received (the bar's outline)
	Orders int            // orders paid
	GY, GH int            // the gross outline's top and height in the viewBox
	X, Y   int            // the bar's top-left corner in the viewBox
	W, H   int            // its size
	Label  bool           // the day is labelled under the axis

	PrevDay    time.Time
	PrevAmount checkout.Cents
	PrevOrders int
}

// TopProduct is one of the overview's top products: units sold and revenue in the period.
type TopProduct struct {
	Title   string
	Units   int
	Revenue checkout.Cents
}

// OrdersView is the shop's order list.
type OrdersView struct {
	DashPage
	Filter   OrderFilterView
	Rows     []OrderRow
	Pager    Pager
	Searched bool
	Failed   string // localised: the list could not be read
	// ByDate and ByAmount are the sortable columns' headers.
	ByDate, ByAmount ColumnSort
	// CSVURL is the export of the list's filter and sort ("" for a role that may not
	// export); CSVFullURL with documents in full, for the roles that may ("").
	CSVURL, CSVFullURL string
	Exports            MyExports // the user's background exports
	// Total is the count and the sum of the filtered list's orders (nil: not filtered, or
	// more than could be summed).
	Total *OrdersTotal
}

// OrdersTotal is the count and the sum of the amounts of a filtered list.
type OrdersTotal struct {
	Orders int
	Amount checkout.Cents
}

// OrderFilterView is the order list's filter form: its values as typed, errors by field.
type OrderFilterView struct {
	Action   string
	ClearURL string
	Values   map[string]string // q, from, to, minAmount, maxAmount, page, link (a payment link's id)
	Errors   checkout.ValidationError
	Statuses []Option
	Channels []Option // the channels, those filtered checked
	// Terminals are the point of sale's terminals to filter by (the first, "", is every
	// order), the filtered one checked; empty when the list has no terminal to offer.
	Terminals []Option
	PerPage   int
	Bar       FilterBar
	Sorts     []Option // the list's orders, the current one checked
	// AwaitingShipment is the bar's chip showing the orders awaiting shipment (Current: the
	// list shows them; its link then shows them all again).
	AwaitingShipment PresetLink
}

// OrderRow is one order of the list.
type OrderRow struct {
	ID, Number, URL string
	CreatedAt       time.Time
	PaidAt          time.Time
	Customer        string
	Email           string
	Amount          checkout.Cents
	Status          string // the order state
	StatusText      string
	LatePayment     bool
	RefundDue       checkout.Cents
	LinkTitle       string // the payment link it was placed through ("" none)
	LinkURL         string // that link's page
	Fulfilment      string // checkout.Fulfilment*: awaiting shipment, shipped, delivered; "" nothing to ship
	Channel         string // the checkout source it came from (checkout.Channel)
	ChannelText     string
}

// OrderView is one order of the shop with everything known of it.
type OrderView struct {
	DashPage
	BackURL  string
	Order    OrderDetail
	Lines    []OrderLineView
	Attempts []AttemptView
	History  []HistoryView
	// PersonalAction, for a role that may (an owner), is where the form showing the shopper's
	// document and phone in full posts; PersonalShown: this answer shows them in full.
	PersonalAction string
	PersonalShown  bool
	Actions        OrderActions
}

// OrderDetail is the order's own fields.
type OrderDetail struct {
	ID, Number, ExternalCode, MerchantReference, SessionID string
	Status, StatusText                                     string
	ChannelText                                            string // the checkout source it was started from
	ChargeURL                                              string // the page of the charge it collects ("" none)
	Amount, RefundDue                                      checkout.Cents
	LatePayment, Physical                                  bool
	CreatedAt, UpdatedAt, PaidAt, PayBy                    time.Time
	Lang, ShopperIP                                        string // Lang: the shopper's language tag
	CustomerName, CustomerDocument, CustomerEmail          string
	CustomerPhone                                          string
	Address                                                []string // lines of the shipping address; nil when digital
	Shipping                                               ShippingLine
	LinkTitle, LinkURL                                     string // the payment link it was placed through ("" none)
}

// OrderLineView is one line of an order.
type OrderLineView struct {
	Title     string
	Quantity  int
	UnitPrice checkout.Cents
	Subtotal  checkout.Cents
	Physical  bool
}

// AttemptView is one payment attempt of an order.
type AttemptView struct {
	N              int
	IdempotencyKey string
	DepositID      string
	DepositURL     string // the deposit's page; "" while the gateway has not answered
	State          string
	DepositStatus  string
	ExpiresAt      time.Time
	Error          checkout.Reason // why it failed (the zero Reason when it has not)
	CreatedAt      time.Time
}

// HistoryView is one change of an order's state.
type HistoryView struct {
	From, To, FromText, ToText string
	At                         time.Time
	Reason                     checkout.Reason
}

// ProductsView is the merchant's catalogue: the list and the new-product form.
type ProductsView struct {
	DashPage
	Products []ProductRow
	Form     ProductFormView
	Notice   string // localised: what was just done
	Failed   string
}

// ProductRow is one product of the merchant's list.
type ProductRow struct {
	ID, Title, Description string
	Price                  checkout.Cents
	Physical, Active       bool
	EditURL, ToggleURL     string
	ShopURL                string
	Image                  checkout.ProductImage // its picture, shown as a thumbnail; none when Image.Key is ""
}

// ProductFormView is a product's form (new or edit).
type ProductFormView struct {
	Action   string
	Title    string // the form's heading (localised)
	Values   map[string]string
	Physical bool
	Active   bool
	Errors   checkout.ValidationError
	Submit   string // localised button text
	ID       string // "" for a new product
}

// ProductEditView is the edit page of a product.
type ProductEditView struct {
	DashPage
	BackURL string
	Form    ProductFormView
	Image   ProductImageForm
}

// SettingsView is the merchant's settings: where notifications go and their signing secret,
// the origins allowed to frame the checkout, the API keys, and the last notifications sent.
type SettingsView struct {
	DashPage
	Action                          string // POST: webhook_url and frame_origins
	SecretAction                    string // POST: a new signing secret
	KeysAction                      string // POST: name, a new API key
	WebhookURL                      string
	URLFromConfig, SecretFromConfig bool
	HasSecret                       bool   // a signing secret exists
	Secret                          string // the signing secret, only in the answer to a reveal
	RevealAction                    string // POST: current_password, shows the secret once
	// OverlapUntil: the secret a rotation replaced still signs until then (zero: none does).
	OverlapUntil time.Time
	FrameOrigins string // one per line
	Errors       checkout.ValidationError
	Notice       string
	Keys         []APIKeyRow
	KeyName      string // as typed, on an error
	KeyScope     string // as chosen, on an error
	NewKey       string // the key just made, shown this once
	NewKeyName   string
	Deliveries   []DeliveryRow
	Failed       string
	Shipping     ShippingSettingsView
	PingAction   string   // POST: send a test notification now
	Ping         *PingRow // the test notification just sent
	// NotifyPersonalData: the notifications carry the shopper's personal data (a checkbox).
	NotifyPersonalData bool
	// ShopperMail is the form of the e-mails sent to the shopper.
	ShopperMail ShopperMailView
	// ChargeReminders is the form of the charges' e-mail reminders.
	ChargeReminders ChargeRemindersView
	// SubscriptionLead is the form of the days before its due date a subscription's charge is
	// issued.
	SubscriptionLead SubscriptionLeadView
}

// PingRow is what became of a test notification.
type PingRow struct {
	At         time.Time
	URL        string
	StatusCode int // 0 without an answer
	Duration   time.Duration
	Excerpt    string // the start of the answer's body
	Error      string // "" for a 2xx
}

// APIKeyRow is one API key of the list.
type APIKeyRow struct {
	ID, Name, Hint        string
	CreatedAt, LastUsedAt time.Time
	RevokedAt             time.Time // zero: active
	RevokeURL             string
	Scope                 string // read or write
	CreatedBy             string // "" before it was recorded
	LastUsedAddress       string
	PersonalData          bool // carries the personal-data right (its maker has it)
}

// DeliveryRow is one notification of the delivery log.
type DeliveryRow struct {
	ID, Type, Status string
	URL              string // the page of the order or the charge it is about ("" for a test)
	CreatedAt        time.Time
	Attempts         int
	LastStatusCode   int
	LastError        string
	LastDuration     time.Duration // of the last attempt
	LastExcerpt      string        // the start of the last answer's body
}
