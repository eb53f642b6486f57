package views

import (
	"net/url"
	"strings"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// Assets resolves the name of a static file ("app.css") to its URL path; *static.Assets
// implements it.
type Assets interface {
	Path(name string) string
}

// Page is what every shopper page needs besides its own content. Handlers fill one per request.
type Page struct {
	Lang         Lang   // language of the page; PtBR when empty
	MerchantName string // shown in the header and the title
	HomeURL      string // where the merchant name links to; "/" when empty
	// Path is the current request's escaped URL path (r.URL.EscapedPath()); the language links
	// point to it with ?lang=. Anything that is not a local absolute path is replaced by "/".
	Path string
	// Query is the request's query string without lang (url.Values.Encode form), kept by the
	// language links: the catalogue's ?cart= is how a shopper without cookies keeps a cart.
	Query   string
	Assets  Assets // resolves CSS, JS and image names; "/static/<name>" when nil
	Sandbox bool   // the embedded sandbox gateway is in use: pages say so, the PIX page offers sandbox-pay
	// Embed is set on the pages of a checkout session: when the page is framed by the session's
	// embedOrigin, frame.js tells the host page its height and the payment's events.
	Embed Embed
	// Merchant is who the shopper pays and how to reach them: the PIX page names the payee as
	// the bank app will, and every page's footer gives the support contact.
	Merchant Merchant
	// StoreCSS is the path of the stylesheet of the store's colours (StoreCSSPrefix + digest +
	// ".css"), linked after app.css; "" none.
	StoreCSS string
	// Logo is the store's logo (its header picture's key and size); none when its Key is "".
	Logo Logo
}

// StoreCSSPrefix starts the path of the store's stylesheet: /static/store-<hash>.css.
const StoreCSSPrefix = "/static/store-"

// Merchant is the merchant as the shopper's bank shows them, and their support contact. Empty
// fields are left out of the pages.
type Merchant struct {
	LegalName    string // razão social; the merchant name when empty
	Document     string // CNPJ (or CPF), digits or formatted
	SupportEmail string
	SupportPhone string
	SupportURL   string
	Address      string // the store's address, one or more lines
	Note         string // the store's note under the payment: plain text, its https links made links
	Thanks       string // the paid page's thank-you text; "" its default
}

// AddressLines are the lines of the store's address, blank ones left out.
func (m Merchant) AddressLines() []string { return addressLines(m.Address) }

// HasSupport reports whether any support contact is known.
func (m Merchant) HasSupport() bool {
	return m.SupportEmail != "" || m.SupportPhone != "" || m.SupportURL != ""
}

// Embed is what a page of a checkout session tells the page framing it (see frame.js).
type Embed struct {
	Origin     string // the session's embedOrigin: the only origin events are posted to ("" none)
	SessionID  string
	OrderID    string // "" before the shopper placed the order
	Status     string // the session's state as the API says it (open, awaiting_payment, paid...)
	View       string // which page: form, pix, paid, expired, failed, closed
	SuccessURL string // opened by embed.js in the top window once paid
	CancelURL  string // opened by embed.js in the top window when the shopper gives up
	// Chromeless is set when embed.js frames the session (it asks with ?embed=): the page is
	// the payment UI only — no header, footer, navigation or language links, one main landmark
	// — since the merchant's page around the frame owns those; and no order summary beside the
	// form and the PIX code unless Summary (the merchant's page shows its own).
	Chromeless bool
	Summary    bool
	// Logo: the store's logo atop the payment UI in embed.js's frame (the merchant's page
	// asked for it); the store's colours always apply.
	Logo bool
}

// chromeless reports whether the page is the payment UI only, in embed.js's frame.
func (p Page) chromeless() bool { return p.Embed.SessionID != "" && p.Embed.Chromeless }

// showSummary reports whether the order summary goes beside the form and the PIX code.
func (p Page) showSummary() bool { return !p.chromeless() || p.Embed.Summary }

// asset returns the URL path of a static file.
func (p Page) asset(name string) string {
	if p.Assets == nil {
		return "/static/" + name
	}
	return p.Assets.Path(name)
}

// langURL returns the current path and query with lang set to l.
func (p Page) langURL(l Lang) string {
	path := p.Path
	if !strings.HasPrefix(path, "/") || strings.HasPrefix(path, "//") || strings.HasPrefix(path, `/\`) {
		path = "/"
	}
	if i := strings.IndexAny(path, "?#"); i >= 0 {
		path = path[:i]
	}
	q, err := url.ParseQuery(p.Query)
	if err != nil {
		q = url.Values{}
	}
	q.Del("lang")
	if rest := q.Encode(); rest != "" {
		return path + "?" + rest + "&lang=" + string(l)
	}
	return path + "?lang=" + string(l)
}

func (p Page) home() string {
	if p.HomeURL == "" {
		return "/"
	}
	return p.HomeURL
}

// t translates key into the page's language.
func (p Page) t(key string, args ...any) string { return T(p.Lang, key, args...) }

// money formats an amount in the page's language.
func (p Page) money(c checkout.Cents) string { return FormatMoney(p.Lang, c) }

// ProductView is one product of the catalogue.
type ProductView struct {
	ID          string
	Title       string
	Description string // optional
	Price       checkout.Cents
	Physical    bool                  // shipped (needs an address) rather than digital
	Image       checkout.ProductImage // none when its Key is ""
}

// CatalogueView is the catalogue page: a product-card per product, each with an add-to-cart
// button that posts FieldProductID and FieldQuantity (default 1) to AddToCartURL.
type CatalogueView struct {
	Page
	Products     []ProductView
	AddToCartURL string // POST target of every add-to-cart form
	CartURL      string // link to the cart; hidden when empty
	CartCount    int    // number of items in the cart, shown beside the cart link
}

// CartLineView is one line of the cart.
type CartLineView struct {
	ProductID string
	Title     string
	UnitPrice checkout.Cents
	Quantity  int
	// QuantityInput, when not empty, is shown in the quantity input instead of Quantity: the
	// shopper's rejected input, kept so they can correct it.
	QuantityInput string
	LineTotal     checkout.Cents
	Physical      bool
	Image         checkout.ProductImage // none when its Key is ""
	UpdateURL     string                // POST FieldProductID and FieldQuantity here to change the quantity
	RemoveURL     string                // POST FieldProductID here to remove the line
	Error         string                // localised message beside the quantity (see FieldMessage)
}

// CartView is the cart page.
type CartView struct {
	Page
	Lines        []CartLineView // none: the empty state
	Total        checkout.Cents
	Shipping     ShippingLine // its own line in the summary; Total/Amount includes it
	CatalogueURL string       // "continue shopping"
	CheckoutURL  string       // the customer form (GET)
	Error        string       // localised message about the whole cart, shown at the top
}

// ShippingLine is an order's shipping as its summaries show it: a line of its own when the
// order ships (Physical), "free" or its price, and the delivery estimate when there is one.
type ShippingLine struct {
	Physical bool
	Amount   checkout.Cents
	Days     int // business days; 0: no estimate
}

// ShippingOf is the shipping line of order o.
func ShippingOf(o *checkout.Order) ShippingLine {
	return ShippingLine{Physical: o.Physical, Amount: o.Shipping, Days: o.DeliveryDays}
}

// SummaryLine is one line of an order summary.
type SummaryLine struct {
	Title     string
	Quantity  int
	LineTotal checkout.Cents
	Image     checkout.ProductImage // the product's picture, when it has one
}

// CustomerForm holds the customer form's values exactly as typed (not normalised), to show
// them again with their errors.
type CustomerForm struct {
	checkout.Customer
	checkout.Address
}

// Value returns the value of the named field (one of checkout's Field* names).
func (f CustomerForm) Value(field string) string {
	switch field {
	case checkout.FieldName:
		return f.Name
	case checkout.FieldDocument:
		return f.Document
	case checkout.FieldEmail:
		return f.Email
	case checkout.FieldPhone:
		return f.Phone
	case checkout.FieldZipCode:
		return f.ZipCode
	case checkout.FieldStreet:
		return f.Street
	case checkout.FieldNumber:
		return f.Number
	case checkout.FieldComplement:
		return f.Complement
	case checkout.FieldNeighborhood:
		return f.Neighborhood
	case checkout.FieldCity:
		return f.City
	case checkout.FieldState:
		return f.State
	case checkout.FieldCountry:
		return f.Country
	}
	return ""
}

// CustomerView is the customer form. The address block is shown only when Physical.
type CustomerView struct {
	Page
	Action     string // POST target
	RequestKey string // posted back as checkout.FieldRequestKey: the same key places the same order once
	Physical   bool   // the cart has a physical product: ask for the address
	Values     CustomerForm
	Errors     checkout.ValidationError // localised (see FormErrors); Field "" is about the whole form
	Lines      []SummaryLine            // order summary beside the form
	Shipping   ShippingLine             // its own line in the summary; Total includes it
	Total      checkout.Cents
	BackURL    string // back to the cart
	CancelURL  string // a checkout session's cancelUrl: "cancel and go back to the shop"
	// NotAsked are customer fields the form leaves out (a payment link's: checkout.FieldEmail,
	// checkout.FieldPhone).
	NotAsked []string
	// CEPLookupURL is the address lookup's URL prefix ("/cep/"): form.js asks it for the
	// address of a CEP typed; empty turns the lookup off.
	CEPLookupURL string
	// Heading and Description, when set, say what is sold (a payment link's title and the
	// description the merchant typed) in place of the form's generic heading.
	Heading, Description string
}

// SessionClosedView is the page of a checkout session that can no longer be paid (it expired
// before the shopper placed the order).
type SessionClosedView struct {
	Page
	CancelURL string // back to the merchant's shop; hidden when empty
}

// StatusText is the localised description of an order state; a state without a text (none:
// a test checks every state of checkout.OrderStatuses) reads "unknown".
func StatusText(lang Lang, s checkout.OrderStatus) string {
	if key := "status." + string(s); s.Valid() && HasKey(key) {
		return T(lang, key)
	}
	return T(lang, "status.unknown")
}

// ChannelText names an order's channel (the checkout source it was started from).
func ChannelText(lang Lang, c checkout.Channel) string {
	if key := "channel." + string(c); HasKey(key) {
		return T(lang, key)
	}
	return string(c)
}

// DefaultQRSize is the width and height, in CSS pixels, the QR image is shown at when
// PixView.QRSize is zero.
const DefaultQRSize = 256

// NoScriptRefreshSeconds is how often the PIX page reloads itself when JavaScript is off: long
// enough to select and copy the code between two reloads (a reload wipes the selection), short
// enough to see the payment, or the QR code's expiry, soon; the page also offers "I have paid" to
// check at once.
const NoScriptRefreshSeconds = 20

// PendingRefreshSeconds is how often the PIX page reloads itself without JavaScript while its
// QR code is being generated (the gateway asked the checkout to slow down): there is no code to
// copy yet, and the code comes within a second or two.
const PendingRefreshSeconds = 2

// UnavailableRefreshSeconds is how often the PIX page reloads itself without JavaScript while
// its QR code cannot be made (the gateway fails): slow, since every reload asks for it again.
const UnavailableRefreshSeconds = 20

// UrgentSeconds: in its last five minutes pix.js gives the countdown an urgent look.
const UrgentSeconds = 300

// PixView is the PIX payment page. The page depends on the order's state alone, never on the
// moment it is drawn: it says until when the QR code is valid (ExpiresAt, in Brasília time), and
// pix.js ticks the countdown, correcting the shopper's clock with the server's time that the
// live status carries.
type PixView struct {
	Page
	OrderNumber   string
	Amount        checkout.Cents
	Lines         []SummaryLine
	Shipping      ShippingLine // its own line in the summary; Total/Amount includes it
	QRImageURL    string       // the QR code PNG: a same-origin URL or a data: URI
	QRSize        int          // displayed width and height in CSS pixels; DefaultQRSize when 0
	Code          string       // the copy-and-paste BR Code
	ExpiresAt     time.Time
	Status        checkout.OrderStatus
	EventsURL     string // Server-Sent Events stream of JSON {status, now, expiresAt?, redirect?, text?}
	StatusURL     string // the same JSON, polled when SSE fails
	PaidURL       string // the paid page, where the page goes when the status becomes paid
	NewQRURL      string // POST target that makes a new QR code (shown after expiry)
	CheckURL      string // POST target asking the gateway at once ("I have paid"), for pages without JavaScript
	SandboxPayURL string // POST target that pays through the sandbox; shown only when Page.Sandbox
	// Unavailable: the QR code could not be made in time (the gateway fails, or has not
	// answered for PendingWait): instead of an endless "being generated" the page says so
	// honestly and offers RetryURL; the order stays, and the page still turns into the QR page
	// by itself when the gateway comes back.
	Unavailable bool
	RetryURL    string // the PIX page itself: asks the gateway again
	// UnavailableIn, on a pending page that is not Unavailable yet, is how many seconds from
	// now pix.js draws the page again (which is then Unavailable if still pending); 0: never.
	UnavailableIn int
}

// HasQR reports whether there is a code to show. A pending order (the gateway has not
// answered) or one under review has none: its page shows the status alone.
func (v PixView) HasQR() bool { return v.Code != "" }

// Expired reports whether the order says its QR code can no longer be paid. (The domain expires
// an order whose QR code's time is over before its page is drawn; an open page learns of the
// expiry from its own countdown, or from its live status.)
func (v PixView) Expired() bool { return v.Status == checkout.StatusExpired }

func (v PixView) qrSize() int {
	if v.QRSize <= 0 {
		return DefaultQRSize
	}
	return v.QRSize
}

// PaidView is the page of a paid order.
type PaidView struct {
	Page
	OrderNumber string
	Lines       []SummaryLine
	Amount      checkout.Cents
	Shipping    ShippingLine // its own line in the summary; Total/Amount includes it
	PaidAt      time.Time
	// Progress is the order's life since its payment (shipment, refunds, a late or double
	// payment), which the page follows live.
	Progress OrderProgress
	OrderLive
	ContinueURL string // back to the shop; hidden when empty
	EndToEnd    string // the PIX transfer's end-to-end id, as the shopper's bank shows it
	Email       string // where the merchant sends the access or the tracking code
	ShipTo      string // the shipping address on one line
	// MailsTracking: the shop sends the shopper an e-mail when the order ships, so the page may
	// promise the tracking code by e-mail.
	MailsTracking bool
}

// OrderLive is how an order page follows its order (order.js): its status endpoint and event
// stream, and the key of what it shows (StageKey), which, once changed, makes it draw itself
// again.
type OrderLive struct {
	EventsURL string
	StatusURL string
	StageKey  string
}

// ExpiredView is the page of an order whose QR code expired unpaid.
type ExpiredView struct {
	Page
	OrderNumber string
	Amount      checkout.Cents
	NewQRURL    string // POST target that makes a new QR code
	CartURL     string // back to the cart; hidden when empty
}

// FailedView is the page of an order whose payment failed.
type FailedView struct {
	Page
	OrderNumber string
	Amount      checkout.Cents
	Reason      string // localised reason; a generic one when empty
	RetryURL    string // POST target that makes a new attempt; hidden when empty
	CartURL     string // back to the cart; hidden when empty
}

// ErrorView is the generic error page.
type ErrorView struct {
	Page
	StatusCode int    // HTTP status, shown to help support
	Message    string // localised explanation; a generic one when empty
	RequestID  string // shown so the shopper can quote it; hidden when empty
}
