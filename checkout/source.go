package checkout

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// A checkout source is a way to start an order: the shop's cart, a checkout session of the
// merchant API, a payment link (and, by their channels, a charge and the point of sale). Each
// gives a Source: what is sold, who may pay and until when, what the customer form asks and
// what the order keeps of where it came from. One customer form shows any Source, and
// PlaceOrder places an order of any through the same checks, store write and gateway call.

// Source is what a checkout source sells, as its customer form shows it and its order records.
type Source struct {
	Channel Channel
	ID      string // the cart's, the checkout session's, the payment link's or the charge's id
	// Title and Description say what is sold when the source has words for it (a payment
	// link's); "" leaves the form's generic heading.
	Title, Description string
	Lines              []OrderLine
	// Shipping is what the order pays for shipping (0: free, or nothing ships), and
	// DeliveryDays the estimate the shopper is given.
	Shipping     gatewayclient.Cents
	DeliveryDays int
	// Prefill is what the merchant already knows of the customer (a checkout session's); the
	// shopper may correct every value.
	Prefill        Customer
	PrefillAddress *Address
	// NotAsked are the customer fields the form leaves out (FieldEmail, FieldPhone: a payment
	// link may).
	NotAsked []string
	// PayBy is the source's deadline (a checkout session's expiry): no QR code outlives it.
	PayBy time.Time
	// Reference is the merchant's own reference the order keeps (a session's externalCode).
	Reference string
	// Placed is the order already placed from a source that has one order only (a checkout
	// session), nil until then.
	Placed *Order
	cart   *Cart // the shop's cart, whose contents the request key is tied to
	sale   *Sale // the point of sale's sale: its terminal, cashier, customer and counter
}

// Physical reports whether any line is a physical product (the form then asks for an address).
func (src *Source) Physical() bool {
	for _, l := range src.Lines {
		if l.Physical {
			return true
		}
	}
	return false
}

// Total is what the order pays: its lines and shipping.
func (src *Source) Total() gatewayclient.Cents {
	t := src.Shipping
	for _, l := range src.Lines {
		t += l.Subtotal()
	}
	return t
}

// NewRequestKey returns a fresh request key for src's customer form: the same key posted
// twice gives the same order. A cart's key is tied to its contents and shipping as shown
// (PlaceOrder refuses it once they changed); a checkout session has one order and needs none.
func (src *Source) NewRequestKey() string {
	switch src.Channel {
	case ChannelShop:
		return NewRequestKey(src.cart, src.Shipping)
	case ChannelSession:
		return ""
	}
	return NewID()
}

// NewRequestKey returns a fresh request key for the customer form of cart c showing shipping:
// the key is tied to the cart's contents as shown (products, quantities, prices) and its
// shipping, and PlaceOrder refuses it with a *ValidationError on FieldRequestKey when they changed
// since, so that an order is never placed for other lines or another total than the form
// displayed. Keys made with NewID are still accepted, unchecked.
func NewRequestKey(c *Cart, shipping gatewayclient.Cents) string {
	return NewID() + "." + cartFingerprint(c, shipping)
}

// Source returns the checkout source of channel whose id is id (the cart's, the session's or
// the charge's id, the link's slug, the terminal's id), with amount the one a payer typed for a
// payment link that asks for it, or the amount a cashier typed on the point of sale's keypad
// (a sale of its products, described, or with a customer, is PlaceOrderInput.Sale's).
// A source that takes no order is an error: an empty cart ErrEmptyCart, an expired session
// ErrSessionExpired (unless its order is placed: Placed), an inactive or expired link
// ErrLinkClosed, an amount out of a link's bounds a *ValidationError naming FieldLinkAmount.
func (s *Service) Source(ctx context.Context, channel Channel, id string, amount gatewayclient.Cents) (*Source, error) {
	switch channel {
	case ChannelShop:
		return s.cartSource(ctx, id)
	case ChannelSession:
		return s.sessionSource(ctx, id)
	case ChannelLink:
		return s.linkSource(ctx, id, amount)
	case ChannelCharge:
		return s.chargeSource(ctx, id)
	case ChannelPOS:
		return s.saleSource(ctx, &Sale{Terminal: id, Amount: amount})
	}
	return nil, fmt.Errorf("checkout: no customer form for channel %q: %w", channel, ErrNotFound)
}

func (s *Service) cartSource(ctx context.Context, id string) (*Source, error) {
	cart, err := s.store.Cart(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("checkout: cart: %w", err)
	}
	if len(cart.Lines) == 0 {
		return nil, ErrEmptyCart
	}
	rule, err := s.ShippingRule(ctx)
	if err != nil {
		return nil, err
	}
	src := &Source{Channel: ChannelShop, ID: cart.ID, cart: cart}
	for _, l := range cart.Lines {
		src.Lines = append(src.Lines, OrderLine{ProductID: l.Product.ID, Title: l.Product.Title,
			UnitPrice: l.Product.UnitPrice, Quantity: l.Quantity, Physical: l.Product.Physical, Image: l.Product.Image})
	}
	if physical := cart.NeedsAddress(); physical {
		src.Shipping, src.DeliveryDays = rule.For(cart.Total(), physical), rule.DeliveryDays
	}
	return src, nil
}

func (s *Service) sessionSource(ctx context.Context, id string) (*Source, error) {
	sess, err := s.CheckoutSession(ctx, id)
	if err != nil {
		return nil, err
	}
	placed, err := s.SessionOrder(ctx, sess.ID)
	if err != nil {
		return nil, err
	}
	if placed == nil && !sess.Open(s.now()) {
		return nil, ErrSessionExpired
	}
	return &Source{Channel: ChannelSession, ID: sess.ID, Lines: sess.Lines, Shipping: sess.Shipping,
		DeliveryDays: sess.DeliveryDays, Prefill: sess.Customer, PrefillAddress: sess.Address, PayBy: sess.ExpiresAt,
		Reference: sess.ExternalCode, Placed: placed}, nil
}

func (s *Service) linkSource(ctx context.Context, slug string, amount gatewayclient.Cents) (*Source, error) {
	l, err := s.LinkBySlug(ctx, slug)
	if err != nil {
		return nil, err
	}
	if !l.Open(s.now()) {
		return nil, ErrLinkClosed
	}
	src := &Source{Channel: ChannelLink, ID: l.ID, Title: l.Title, Description: l.Description,
		Lines: slices.Clone(l.Lines), NotAsked: l.NotAsked()}
	if l.Kind == LinkCustom {
		if err := CheckLinkAmount(l, amount); err != nil {
			return nil, err
		}
		src.Lines = []OrderLine{{Title: l.Title, Description: l.Description, UnitPrice: amount, Quantity: 1,
			Physical: l.RequireAddress}}
	}
	if err := s.withPictures(ctx, src.Lines); err != nil {
		return nil, err
	}
	return src, nil
}

// withPictures gives the catalogue's lines their product's current picture (a payment link
// keeps its lines without theirs), so that the form shows it and the order keeps it. A
// product no longer in the catalogue shows none.
func (s *Service) withPictures(ctx context.Context, lines []OrderLine) error {
	for i, l := range lines {
		if l.ProductID == "" {
			continue
		}
		p, err := s.store.Product(ctx, l.ProductID)
		switch {
		case errors.Is(err, ErrNotFound):
		case err != nil:
			return fmt.Errorf("checkout: the picture of product %s: %w", l.ProductID, err)
		default:
			lines[i].Image = p.Image
		}
	}
	return nil
}

// requestKey is the request key an order of src is stored under, from the key the form
// posted: scoped by its source, so that a key is only ever the key of one source's order. A
// checkout session's is its own: it never has two orders.
func (src *Source) requestKey(posted string) string {
	switch src.Channel {
	case ChannelSession:
		return scopedRequestKey("", sessionRequestKeyPrefix+src.ID)
	case ChannelLink:
		return scopedRequestKey(linkRequestKeyPart+src.ID, posted)
	case ChannelCharge:
		return src.chargeRequestKey()
	case ChannelPOS:
		return scopedRequestKey(posRequestKeyPart+src.ID, posted)
	}
	return scopedRequestKey(src.ID, posted)
}

// check adds the reasons, particular to src, why an order posted with the request key key
// may not be placed: a cart that changed since its form was shown, or holds a product no
// longer sold.
func (src *Source) check(fe *ValidationError, key string) *ValidationError {
	if src.cart == nil {
		return nil
	}
	if fp, ok := requestKeyCart(key); ok && fp != cartFingerprint(src.cart, src.Shipping) {
		// The order must be what the shopper saw (another tab, a price change, new shipping
		// settings): the form is shown again.
		return fieldError(FieldRequestKey, "cart_changed", "the cart changed since the form was shown: check it and submit again")
	}
	for _, l := range src.cart.Lines {
		if !l.Product.Active {
			fe.Add("items", "unavailable", fmt.Sprintf("%q is no longer available", l.Product.Title))
		}
	}
	return nil
}

// createOnce is the one way a merchant's creation request (a checkout session, a payment
// link, a charge through CreateOnce) makes its record at most once per Idempotency-Key (key; ""
// none). find returns the record the key made before (ErrNotFound: none); create checks and
// stores a new one, created false when a concurrent request with the same key stored its own
// first. A record made before is answered again (created false) when it was made by the same
// request (its digest is hash); the key with another request is an error of code
// CodeIdempotencyReused.
func createOnce[T interface{ requestDigest() string }](ctx context.Context, key, hash string,
	find func(context.Context, string) (T, error), create func() (T, bool, error)) (T, bool, error) {
	return CreateOnce(ctx, key, hash, T.requestDigest, find, create)
}

// CreateOnce is createOnce for the records of other packages (charges), whose request's
// digest is digest's.
func CreateOnce[T any](ctx context.Context, key, hash string, digest func(T) string,
	find func(context.Context, string) (T, error), create func() (T, bool, error)) (T, bool, error) {
	var none T
	replay := func(prev T) (T, bool, error) {
		if digest(prev) != hash {
			return none, false, &Error{Code: CodeIdempotencyReused,
				Message: "this Idempotency-Key was already used with another request body"}
		}
		return prev, false, nil
	}
	if key != "" {
		if n := len(key); n > MaxIdempotencyKeyLength || !printableASCII(key) {
			return none, false, apiFieldError("Idempotency-Key", gatewayclient.CodeFormat,
				fmt.Sprintf("must be 1 to %d printable ASCII characters", MaxIdempotencyKeyLength))
		}
		prev, err := find(ctx, key)
		if err == nil {
			return replay(prev)
		}
		if !errors.Is(err, ErrNotFound) {
			return none, false, fmt.Errorf("checkout: looking up the idempotency key: %w", err)
		}
	}
	rec, created, err := create()
	if err != nil || created {
		return rec, created, err
	}
	return replay(rec)
}

// addViolation adds a violation of field unless it has one already (requestErrors).
type addViolation func(field, code, msg string)

// requestErrors returns the violations of a merchant's request, starting with those found
// while reading it (read, nil none), and the way to add one per field: what was wrong while
// reading a field comes first.
func requestErrors(read *ValidationError) (*ValidationError, addViolation) {
	fe := &ValidationError{}
	if read != nil {
		fe.Violations = append(fe.Violations, read.Violations...)
	}
	return fe, func(field, code, msg string) {
		if !fe.Has(field) {
			fe.Add(field, code, msg)
		}
	}
}
