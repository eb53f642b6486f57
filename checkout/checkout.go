package checkout

import (
	"slices"
	"time"

	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// ProductID identifies a product of the catalogue.
type ProductID string

// Product is an item of the catalogue. Its UnitPrice is the only source of prices: carts and
// orders never take a price from the browser.
type Product struct {
	ID          ProductID
	Slug        string // URL-friendly unique name
	Title       string // pt-BR title, 2..150 characters (the gateway's item title limits)
	Description string // optional; 2..255 characters when set
	UnitPrice   gatewayclient.Cents
	Physical    bool         // true: shipped, so the order needs an address
	Active      bool         // inactive products are hidden and cannot be added to a cart
	Image       ProductImage // none when Image.Key is ""
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

// Quantity limits of a cart line (the gateway's item quantity limits).
const (
	MinQuantity = 1
	MaxQuantity = 100
)

// Cart is a shopper's basket, addressed by an unguessable ID so that it works without cookies.
type Cart struct {
	ID        string // >= 128 random bits (NewID)
	Lines     []CartLine
	CreatedAt time.Time
	UpdatedAt time.Time
}

// CartLine is one product in a cart. Product is read from the catalogue each time the cart is
// loaded, so its price is always the current catalogue price.
type CartLine struct {
	Product  Product
	Quantity int // MinQuantity..MaxQuantity
}

// Subtotal is the line's unit price times its quantity.
func (l CartLine) Subtotal() gatewayclient.Cents {
	return l.Product.UnitPrice * gatewayclient.Cents(l.Quantity)
}

// Total is the sum of the lines' subtotals.
func (c Cart) Total() gatewayclient.Cents {
	var t gatewayclient.Cents
	for _, l := range c.Lines {
		t += l.Subtotal()
	}
	return t
}

// NeedsAddress reports whether any line is a physical product, in which case the order needs a
// shipping address (and the gateway requires one: isInfoProduct is false).
func (c Cart) NeedsAddress() bool {
	for _, l := range c.Lines {
		if l.Product.Physical {
			return true
		}
	}
	return false
}

// Line returns the line of product id, or nil.
func (c *Cart) Line(id ProductID) *CartLine {
	for i := range c.Lines {
		if c.Lines[i].Product.ID == id {
			return &c.Lines[i]
		}
	}
	return nil
}

// Customer is the shopper as typed in the form, normalised (document and phone digits only).
type Customer struct {
	Name     string
	Document string // CPF or CNPJ
	Email    string
	Phone    string // Brazilian mobile phone
}

// Address is the shipping address of an order with physical products.
type Address struct {
	ZipCode      string // CEP
	Street       string
	Number       string
	Complement   string
	Neighborhood string
	City         string
	State        string // UF
	Country      string
}

// OrderLine is a snapshot of a cart line when the order was placed.
type OrderLine struct {
	ProductID ProductID
	Title     string
	UnitPrice gatewayclient.Cents
	Quantity  int
	Physical  bool
	// Description is an ad-hoc item's description (checkout sessions), sent to the gateway with
	// the item; "" for catalogue products.
	Description string
	// Image is an ad-hoc item's picture (a session's imageUrl, fetched and stored), kept with
	// the session's lines; a catalogue line shows its product's.
	Image ProductImage
}

// Subtotal is the line's unit price times its quantity.
func (l OrderLine) Subtotal() gatewayclient.Cents {
	return l.UnitPrice * gatewayclient.Cents(l.Quantity)
}

// StatusChange is one entry of an order's history.
type StatusChange struct {
	From   OrderStatus
	To     OrderStatus
	At     time.Time
	Reason Reason // why: a code and its parameters (ReasonDeposit with DepositStatus PAID, …)
}

// Channel is the way an order was started: the checkout source it came from.
type Channel string

// The channels, one per checkout source.
const (
	ChannelShop    Channel = "shop"    // the shop's cart
	ChannelSession Channel = "session" // a checkout session of the merchant API
	ChannelLink    Channel = "link"    // a payment link
	ChannelCharge  Channel = "charge"  // a charge with a due date
	ChannelPOS     Channel = "pos"     // the point of sale
)

// Channels lists every channel: the one list the stores' constraint, the API and the
// dashboard follow.
func Channels() []Channel {
	return []Channel{ChannelShop, ChannelSession, ChannelLink, ChannelCharge, ChannelPOS}
}

// Order is a placed order: a snapshot of the cart, the customer and the address, plus its
// payment attempts and its history of states.
type Order struct {
	ID           string // >= 128 random bits, URL-safe (NewID)
	Number       string // short human number shown to the shopper, e.g. "PX-7K3M9QZ2"
	ExternalCode string // sent to the gateway as externalCode (8..255 characters)
	RequestKey   string // the cart id and the form's request key: the same key on the same cart gives the same order
	Status       OrderStatus
	Lines        []OrderLine
	Amount       gatewayclient.Cents // items and shipping
	// Shipping is what the order pays for shipping (included in Amount; 0 when free or not
	// physical), and DeliveryDays the delivery estimate in business days the shopper was given.
	Shipping     gatewayclient.Cents
	DeliveryDays int
	Customer     Customer
	Address      *Address // nil when no line is physical
	Physical     bool     // any line is physical
	LatePayment  bool     // paid after its QR expired (or after a newer QR replaced it)
	// RefundDue is what the merchant owes the shopper back because another attempt of the order
	// was paid too (an old QR code and a new one): the amount of each payment after the first.
	RefundDue gatewayclient.Cents
	History   []StatusChange
	Attempts  []Attempt // ordered by N; the last one is the current attempt
	CreatedAt time.Time
	UpdatedAt time.Time
	PaidAt    time.Time // zero until paid
	// Fee is the gateway's fee on the deposit that paid the order (its feeAmount, read as
	// cents: the contract does not give its unit); nil while the gateway has not said it.
	Fee *gatewayclient.Cents
	// RefundedAt is when the order's refund began (its first move to refunding or refunded),
	// HeldAt when it last went under review: the days the overview counts them on. Zero until.
	RefundedAt, HeldAt time.Time
	Lang               string // language of the shopper's pages ("pt-BR", "en")
	ShopperIP          string // the shopper's IP address when the order was placed (sent as customer.ip)
	// Version is incremented by every successful Store.UpdateOrder; an update carrying a stale
	// version is refused with ErrConflict (optimistic compare-and-set).
	Version int
	// Channel is the checkout source the order was started from.
	Channel Channel
	// SessionID is the checkout session the order was placed from ("" for a cart's order).
	SessionID string
	// MerchantReference is the merchant's own reference for the order (the checkout session's
	// externalCode); "" for a cart's order.
	MerchantReference string
	// PayBy is the deadline of the order's payment (its checkout session's expiry): no QR code
	// outlives it and none is made after it. Zero: no deadline.
	PayBy time.Time
	// LinkID is the payment link the order was placed through ("" none).
	LinkID string
	// ChargeID is the charge with a due date the order collects a day's amount of ("" none).
	ChargeID string
	// TerminalID and CashierID are the terminal of the point of sale a sale (ChannelPOS) was
	// made at and the dashboard user who made it ("" for the orders of other channels).
	TerminalID, CashierID string
	// Carrier and TrackingCode say how the order's physical goods travel, set when the
	// merchant marks it shipped (ShippedAt); DeliveredAt when they mark it delivered. Zero
	// until then (see fulfilment.go).
	Carrier      string
	TrackingCode string
	ShippedAt    time.Time
	DeliveredAt  time.Time
	// notAsked are the customer fields its form did not ask (FieldEmail, FieldPhone: a payment
	// link may leave them out), when it is being placed; not stored.
	notAsked []string
}

// Clone returns a copy of o that shares nothing its holder may change: its address, lines,
// history, attempts and their violations are copied. Byte slices (the QR image, the stored
// request) are shared: they are replaced, never changed in place.
func (o *Order) Clone() *Order {
	c := *o
	c.Lines = slices.Clone(o.Lines)
	c.History = slices.Clone(o.History)
	c.Attempts = slices.Clone(o.Attempts)
	for i := range c.Attempts {
		c.Attempts[i].Violations = slices.Clone(c.Attempts[i].Violations)
	}
	if o.Address != nil {
		a := *o.Address
		c.Address = &a
	}
	return &c
}

// Renewable reports whether a new QR code may still be made for o at now: a QR code of at
// least a minute must fit before its deadline.
func (o *Order) Renewable(now time.Time) bool {
	return o.PayBy.IsZero() || now.Add(gatewayclient.MinExpirationSeconds*time.Second).Before(o.PayBy)
}

// PaidAttempt returns the attempt whose deposit paid the order (the first one, when it was paid
// twice), or nil.
func (o *Order) PaidAttempt() *Attempt {
	for i := range o.Attempts {
		if o.Attempts[i].State == AttemptPaid {
			return &o.Attempts[i]
		}
	}
	return nil
}

// CurrentAttempt returns the latest payment attempt, or nil when there is none.
func (o *Order) CurrentAttempt() *Attempt {
	if o == nil || len(o.Attempts) == 0 {
		return nil
	}
	return &o.Attempts[len(o.Attempts)-1]
}

// AttemptByTransaction returns the attempt whose gateway transaction is txID, or nil.
func (o *Order) AttemptByTransaction(txID string) *Attempt {
	if txID == "" {
		return nil
	}
	for i := range o.Attempts {
		if o.Attempts[i].TransactionID == txID {
			return &o.Attempts[i]
		}
	}
	return nil
}

// QR returns the attempt whose QR code may be shown to the shopper (the current attempt when it
// is active), or nil. A pending, failed or expired attempt never exposes its QR.
func (o *Order) QR() *Attempt {
	a := o.CurrentAttempt()
	if a == nil || a.State != AttemptActive || o.Status != StatusAwaitingPayment {
		return nil
	}
	return a
}

// AttemptState is the state of one payment attempt (one idempotency key, one gateway transaction).
type AttemptState string

// Attempt states.
const (
	// AttemptPending: written with its idempotency key, the gateway has not answered yet (or the
	// answer was lost). EnsurePayment calls the gateway again with the same key.
	AttemptPending AttemptState = "pending"
	// AttemptActive: the gateway answered and the BR Code was checked; its QR may be shown.
	AttemptActive AttemptState = "active"
	// AttemptFailed: the gateway refused the request, its BR Code did not match the order, or the
	// deposit failed. Its QR is never shown.
	AttemptFailed AttemptState = "failed"
	// AttemptExpired: its QR expired unpaid.
	AttemptExpired AttemptState = "expired"
	// AttemptPaid: its deposit was paid (it may later be refunded: see DepositStatus).
	AttemptPaid AttemptState = "paid"
	// AttemptSuperseded: a newer attempt replaced it before it expired or failed.
	AttemptSuperseded AttemptState = "superseded"
	// AttemptCanceled: the merchant canceled the order while it was open; its QR is never
	// shown again (a payment that still arrives is a refund due).
	AttemptCanceled AttemptState = "canceled"
)

// Attempt is one request to the gateway for an order: a new QR code means a new attempt with a
// new idempotency key; retries of the same attempt reuse its key.
type Attempt struct {
	ID             string
	OrderID        string
	N              int    // 1, 2, ... within the order
	IdempotencyKey string // unique; sent as idempotencyKey
	State          AttemptState
	TransactionID  string // the gateway's transaction id (= deposit id); empty while pending
	BRCode         string // the copy-and-paste code (pixResponse.uri)
	// QRCodePNG is the checkout's own PNG of BRCode (never the gateway's picture), drawn once when
	// the attempt became active (ServiceOptions.QRImage); nil when none was drawn.
	QRCodePNG     []byte
	ExpiresAt     time.Time
	DepositStatus gatewayclient.DepositStatus // last deposit state seen
	Error         Reason                      // why it failed (the zero Reason while it has not)
	// Violations holds the gateway's 422 violations when the gateway refused the request, so that
	// a replay of the same form submission reports them again.
	Violations []gatewayclient.Violation
	// Request is the JSON of the transaction request built when the attempt was written, before
	// the gateway was called. Every retry sends exactly it again: the gateway refuses the same
	// idempotency key with another body, and settings (public URL, seller, expiry) may change
	// between a crash and the retry. Nil for attempts stored before it was kept: those rebuild it.
	Request []byte
	// EndToEnd is the end-to-end id of the PIX transfer that paid the attempt (the deposit's
	// endToEnd, which the shopper's bank shows too); empty until paid.
	EndToEnd  string
	CreatedAt time.Time
	UpdatedAt time.Time
}
