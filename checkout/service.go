package checkout

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"github.com/pixcheckout/pixcheckout/checkout/imaging"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout/cep"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// Gateway is what the checkout needs of the payment gateway. *gatewayclient.Client satisfies it.
type Gateway interface {
	// CreateTransaction is POST /transaction. Sent again with the same idempotencyKey, the
	// gateway answers with the transaction it made the first time.
	CreateTransaction(ctx context.Context, req gatewayclient.CreateTransactionRequest) (*gatewayclient.Transaction, error)
	// GetDeposit is GET /deposit/{id}.
	GetDeposit(ctx context.Context, id string) (*gatewayclient.Deposit, error)
	// ListDeposits is GET /deposit: one page of the deposits matching f, newest first.
	ListDeposits(ctx context.Context, f gatewayclient.DepositFilter) (*gatewayclient.Page[gatewayclient.Deposit], error)
}

// WebhookPath is the path of the checkout's webhook receiver below its public URL.
const WebhookPath = "/webhooks/gateway"

// ServiceOptions configures a Service. Zero fields take the documented defaults.
type ServiceOptions struct {
	// PublicURL is the checkout's address as the gateway reaches it. The transaction's
	// webhookUrl (PublicURL + WebhookPath) is sent only when it satisfies the spec (https, a
	// host with a TLD, no fragment); otherwise the reconciler alone follows payments.
	PublicURL string
	// MerchantName is shown on the PIX page.
	MerchantName string
	// Seller, when set, returns the transaction's seller (the payee's legal name and document)
	// in force, read for each new attempt: a change applies to the next QR code. A nil seller
	// is left out of the request.
	Seller func(context.Context) *gatewayclient.Seller
	// ExpirationSeconds is the QR code lifetime sent as pix.expirationSeconds (default 1800).
	ExpirationSeconds int
	// Clock returns the current time (default time.Now).
	Clock func() time.Time
	// Logger receives the service's logs (default slog.Default()). Customer data is never logged.
	Logger *slog.Logger
	// NewID makes ids of carts, orders and attempts (default NewID). It must return at least
	// 128 random bits, URL-safe.
	NewID func() string
	// CEP looks up the address of a postal code for the customer form (LookupCEP); nil: none.
	CEP cep.Provider
	// QRImage draws the PNG of a BR Code. When set, an attempt's image is drawn once, when the
	// attempt becomes active, and stored with it (Attempt.QRCodePNG), so that no page ever
	// draws it again; nil leaves the drawing to the pages.
	QRImage func(code string) ([]byte, error)
	// Snapshots is how many order snapshots are kept in memory for the shopper's pages
	// (default DefaultSnapshots; see Service.Snapshot).
	Snapshots int
	// SnapshotMaxAge is how long a snapshot may be used before it is read again. Zero (the
	// default) keeps it until a change replaces it: right when every change reaches this
	// Service — made through it, or reported by Changed. Set it when other processes change the
	// same database and their changes are not reported.
	SnapshotMaxAge time.Duration
	// Shipping, when set, returns the merchant's shipping settings in force: orders with a
	// physical product pay shipping by them (see Shipping). Without it shipping is free.
	Shipping func(context.Context) (Shipping, error)
	// FetchImage, when set, fetches the picture at an https URL a session's item names
	// (imageUrl), through the SSRF guard; without it such items are refused.
	FetchImage func(ctx context.Context, url string) (io.ReadCloser, error)
	// Announcer, when set, makes the outbox messages written with every change of an order's
	// status (the merchant's notifications).
	Announcer Announcer
	// GatewayUp, when set, tells whether the gateway is believed to work (the program's
	// monitor of every call). While it says no, shoppers' requests leave pending attempts
	// pending instead of calling the gateway (see ensureLockedForShopper).
	GatewayUp func() bool
	// ShopperGatewayTimeout bounds a shopper's request's call to the gateway, retries included
	// (default DefaultShopperGatewayTimeout).
	ShopperGatewayTimeout time.Duration
	// Observer, when set, is told of placements and status changes (metrics).
	Observer Observer
	// PersonalDataKey is the key of the hashes that stand for an anonymised order's document
	// and e-mail (LoadPersonalDataKey; PersonalDataKeySize bytes). With it the Service answers data subjects' requests and
	// anonymises orders (SubjectRecords, AnonymiseSubject, AnonymiseDue).
	PersonalDataKey []byte
	// PersonalDataHolders keep data subjects' personal data beside the orders (the charges):
	// data subjects' requests and the retention's anonymisation reach them with the orders.
	PersonalDataHolders []PersonalDataHolder
	// Charges, when set, are the charges with a due date, whose orders (ChannelCharge) the
	// Service places and whose payments it counts; without it a charge takes no order.
	Charges Charges
	// SaleQRSeconds, when set, is how long the QR code of a sale of the point of sale lives
	// (its setting, read for each new attempt), instead of ExpirationSeconds.
	SaleQRSeconds func(context.Context) int
}

// Service is the checkout's domain: catalogue, carts, orders and their payment. It is safe for
// concurrent use.
type Service struct {
	// The parts that stand on their own, each with the few dependencies it uses; their
	// methods are the Service's.
	*Catalogue
	*Reports
	*PersonalData
	*Fulfilment
	*PaymentLinks

	store      Store
	gw         Gateway
	now        func() time.Time
	log        *slog.Logger
	newID      func() string
	webhookURL string
	merchant   string
	seller     func(context.Context) *gatewayclient.Seller
	expiration int
	cep        cep.Provider
	locks      *keyedMutex
	events     *broker
	qrImage    func(string) ([]byte, error)
	snaps      *snapshots
	snapMaxAge time.Duration
	announcer  Announcer
	shipping   func(context.Context) (Shipping, error)
	gatewayUp  func() bool
	observer   Observer
	charges    Charges
	// saleQRSeconds is ServiceOptions.SaleQRSeconds.
	saleQRSeconds func(context.Context) int
	// shopperTimeout bounds a shopper's request's call to the gateway.
	shopperTimeout time.Duration
	// completions are the attempts being completed in the background after the gateway's
	// pacing held them past ShopperGatewayWait (see ensureForShopper).
	completions *completions
}

// NewService returns a Service on store and gw.
func NewService(store Store, gw Gateway, opts ServiceOptions) *Service {
	s := &Service{
		store:         store,
		gw:            gw,
		now:           opts.Clock,
		log:           opts.Logger,
		newID:         opts.NewID,
		merchant:      opts.MerchantName,
		seller:        opts.Seller,
		expiration:    opts.ExpirationSeconds,
		cep:           opts.CEP,
		locks:         newKeyedMutex(),
		events:        newBroker(),
		qrImage:       opts.QRImage,
		snapMaxAge:    opts.SnapshotMaxAge,
		announcer:     opts.Announcer,
		shipping:      opts.Shipping,
		gatewayUp:     opts.GatewayUp,
		observer:      opts.Observer,
		charges:       opts.Charges,
		saleQRSeconds: opts.SaleQRSeconds,

		shopperTimeout: cmp.Or(opts.ShopperGatewayTimeout, DefaultShopperGatewayTimeout),

		completions: newCompletions(),
	}
	if opts.Snapshots <= 0 {
		opts.Snapshots = DefaultSnapshots
	}
	if s.now == nil {
		s.now = time.Now
	}
	s.Catalogue = &Catalogue{store: store, now: s.now, pictures: imaging.NewLimiter(pictureDecodes, pictureWait),
		fetchImage: opts.FetchImage}
	s.Reports = &Reports{store: store, now: s.now}
	s.snaps = newSnapshots(opts.Snapshots)
	if s.log == nil {
		s.log = slog.Default()
	}
	if s.newID == nil {
		s.newID = NewID
	}
	if s.expiration == 0 {
		s.expiration = gatewayclient.DefaultExpirationSeconds
	}
	s.Fulfilment = &Fulfilment{update: s.update, now: s.now, log: s.log}
	s.PaymentLinks = &PaymentLinks{store: store, now: s.now, newID: s.newID, log: s.log, itemLines: s.itemLines}
	s.PersonalData = &PersonalData{store: store, now: s.now, log: s.log, changed: s.Changed, forget: s.snaps.forget,
		holders: opts.PersonalDataHolders}
	if h, err := NewPersonalDataHasher(opts.PersonalDataKey); err == nil {
		s.PersonalData.hasher = h
	}
	s.webhookURL = WebhookURL(opts.PublicURL)
	return s
}

// WebhookURL returns the webhookUrl to send for a checkout reachable at publicURL, or "" when
// it would not satisfy the spec (checked with the gateway client's own validation).
func WebhookURL(publicURL string) string {
	if publicURL == "" {
		return ""
	}
	u := strings.TrimRight(publicURL, "/") + WebhookPath
	req := gatewayclient.CreateTransactionRequest{WebhookURL: u}
	var ve *gatewayclient.ValidationError
	if err := req.Validate(); errors.As(err, &ve) {
		for _, v := range ve.Violations {
			if v.Field == "webhookUrl" {
				return ""
			}
		}
	}
	return u
}

// MerchantName is the merchant's name shown to shoppers.
func (s *Service) MerchantName() string { return s.merchant }

// Now is the service's clock; pages use it to render countdowns consistently.
func (s *Service) Now() time.Time { return s.now() }

// NewCart creates an empty cart.
func (s *Service) NewCart(ctx context.Context) (*Cart, error) {
	now := s.now().UTC()
	c := Cart{ID: s.newID(), CreatedAt: now, UpdatedAt: now}
	if err := s.store.CreateCart(ctx, c); err != nil {
		return nil, fmt.Errorf("checkout: creating a cart: %w", err)
	}
	return &c, nil
}

// Cart returns a cart with current catalogue prices, or ErrNotFound.
func (s *Service) Cart(ctx context.Context, id string) (*Cart, error) {
	c, err := s.store.Cart(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("checkout: cart: %w", err)
	}
	return c, nil
}

// AddToCart adds qty of a product to a cart (creating the line or increasing it); cartID ""
// starts a new cart, made only once the product and the quantity are accepted. The result must
// stay within MinQuantity..MaxQuantity, else a *ValidationError naming FieldQuantity; an unknown
// or inactive product, or an unknown cart, is ErrNotFound.
func (s *Service) AddToCart(ctx context.Context, cartID string, productID ProductID, qty int) (*Cart, error) {
	if err := checkQuantity(qty); err != nil {
		return nil, err
	}
	p, err := s.Product(ctx, productID)
	if err != nil {
		return nil, err
	}
	if cartID == "" {
		// Made with its line in one transaction, rather than made empty and then updated: the
		// first product of every purchase.
		now := s.now().UTC()
		c := Cart{ID: s.newID(), CreatedAt: now, UpdatedAt: now, Lines: []CartLine{{Product: *p, Quantity: qty}}}
		if err := s.store.CreateCart(ctx, c); err != nil {
			return nil, fmt.Errorf("checkout: creating a cart: %w", err)
		}
		return &c, nil
	}
	return s.updateCart(ctx, cartID, func(c *Cart) error {
		if l := c.Line(productID); l != nil {
			if err := checkQuantity(l.Quantity + qty); err != nil {
				return err
			}
			l.Quantity += qty
			return nil
		}
		c.Lines = append(c.Lines, CartLine{Product: *p, Quantity: qty})
		return nil
	})
}

// SetQuantity sets the quantity of a product already in a cart (MinQuantity..MaxQuantity, else
// a *ValidationError naming "quantity"; ErrNotFound when the product is not in the cart).
func (s *Service) SetQuantity(ctx context.Context, cartID string, productID ProductID, qty int) (*Cart, error) {
	if err := checkQuantity(qty); err != nil {
		return nil, err
	}
	return s.updateCart(ctx, cartID, func(c *Cart) error {
		l := c.Line(productID)
		if l == nil {
			return fmt.Errorf("checkout: product %q is not in the cart: %w", productID, ErrNotFound)
		}
		l.Quantity = qty
		return nil
	})
}

// RemoveFromCart removes a product from a cart; removing a product not in it changes nothing.
func (s *Service) RemoveFromCart(ctx context.Context, cartID string, productID ProductID) (*Cart, error) {
	return s.updateCart(ctx, cartID, func(c *Cart) error {
		lines := c.Lines[:0]
		for _, l := range c.Lines {
			if l.Product.ID != productID {
				lines = append(lines, l)
			}
		}
		c.Lines = lines
		return nil
	})
}

func (s *Service) updateCart(ctx context.Context, cartID string, fn func(c *Cart) error) (*Cart, error) {
	c, err := s.store.UpdateCart(ctx, cartID, s.now().UTC(), fn)
	if err != nil {
		var fe *ValidationError
		if errors.As(err, &fe) {
			return nil, err
		}
		return nil, fmt.Errorf("checkout: updating cart: %w", err)
	}
	return c, nil
}

func checkQuantity(qty int) error {
	// The codes are gatewayclient's CodeMin and CodeMax, so that pages translate them alike.
	switch {
	case qty < MinQuantity:
		return fieldError(FieldQuantity, "min", fmt.Sprintf("must be at least %d", MinQuantity))
	case qty > MaxQuantity:
		return fieldError(FieldQuantity, "max", fmt.Sprintf("must be at most %d", MaxQuantity))
	}
	return nil
}

// Order returns an order as stored, read from the store, or ErrNotFound. Pages that only show
// an order read its Snapshot instead.
func (s *Service) Order(ctx context.Context, id string) (*Order, error) {
	o, err := s.store.Order(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("checkout: order: %w", err)
	}
	return o, nil
}

// Subscribe returns a channel receiving the status changes of one order, and a function that
// ends the subscription (it must be called). Events are dropped for a subscriber that does not
// keep up: a subscriber re-reads the order after each event, so it never misses the final state.
// Each version of the order is delivered at most once, in increasing order of versions.
func (s *Service) Subscribe(orderID string) (<-chan OrderEvent, func()) {
	return s.events.subscribe(orderID)
}

// SubscribeTerminal returns a channel signalled whenever a sale of a terminal of the point of
// sale changed (placed, its QR made, paid…), made in this process or heard of from the change
// feed (TerminalChanged), and a function that ends the subscription (it must be called).
// Signals coalesce: the subscriber reads the terminal's current sale again on each.
func (s *Service) SubscribeTerminal(terminalID string) (<-chan struct{}, func()) {
	return s.events.subscribeTerminal(terminalID)
}

// TerminalChanged tells the subscribers of a terminal that one of its sales was changed by
// another process (the change feed's kind for terminals).
func (s *Service) TerminalChanged(terminalID string) { s.events.publishTerminal(terminalID) }

// Changed tells the service that an order was changed by another process sharing the store
// (another instance, heard of through the database): it is read again, its snapshot replaced,
// and published to this process's subscribers when it differs from the snapshot (its state or
// anything else: its version).
func (s *Service) Changed(ctx context.Context, id string) error {
	var before OrderStatus
	var version int
	if o := s.snaps.get(id, s.now(), 0); o != nil {
		before, version = o.Status, o.Version
	}
	o, err := s.store.Order(ctx, id)
	if err != nil {
		if errors.Is(err, ErrNotFound) {
			s.snaps.forget(id)
		}
		return fmt.Errorf("checkout: order: %w", err)
	}
	s.remember(o)
	// Another change than its state's (shipped, a refund recorded…) is heard of too: the
	// shopper's order page shows it.
	if o.Status != before || o.Version != version {
		s.events.publish(eventOf(o))
	}
	return nil
}

// update reads the order, lets fn change it and stores it with compare-and-set, retrying on a
// concurrent update. fn reports whether it changed anything; nothing is written when it did not.
// When the status changed, the Announcer's messages are stored in the same transaction, and an
// event is published once it committed.
func (s *Service) update(ctx context.Context, id string, fn func(o *Order) (bool, error)) (*Order, bool, error) {
	return s.updateFrom(ctx, id, nil, fn)
}

// updateFrom is update starting from known, when not nil: the order as the caller read or
// wrote it a moment ago, which it owns and gives up. That saves a read; if the order changed
// since, the write conflicts on its version and the order is read again.
func (s *Service) updateFrom(ctx context.Context, id string, known *Order, fn func(o *Order) (bool, error)) (*Order, bool, error) {
	for range 8 {
		o, fresh := known, known == nil
		known = nil
		if fresh {
			var err error
			if o, err = s.store.Order(ctx, id); err != nil {
				return nil, false, err
			}
		}
		before, history := o.Status, len(o.History)
		// The order as stored now replaces an older snapshot even when nothing changes (another
		// instance may have changed it); a known order may be older than the snapshot.
		stored := snapshotOf(o)
		changed, err := fn(o)
		if err != nil || !changed {
			if err == nil && fresh {
				s.snaps.put(stored, s.now())
			}
			return o, false, err
		}
		o.UpdatedAt = s.now().UTC()
		out, err := s.announce(ctx, o, before, o.History[history:])
		if err != nil {
			return nil, false, err
		}
		if err := s.store.UpdateOrder(ctx, o, out...); errors.Is(err, ErrConflict) {
			continue
		} else if err != nil {
			return nil, false, err
		}
		s.remember(o)
		if len(out) > 0 {
			s.announcer.Announced()
		}
		s.tell(o, before, o.History[history:])
		return o, true, nil
	}
	return nil, false, fmt.Errorf("checkout: updating an order: %w (too many concurrent updates)", ErrConflict)
}

// tell publishes o's change to its subscribers when its shopper sees it (a change of state, or
// an entry shopperSees among changes), and tells the observer of a change of state.
func (s *Service) tell(o *Order, before OrderStatus, changes []StatusChange) {
	if o.Status != before || shopperSees(changes) {
		s.events.publish(eventOf(o))
	}
	if o.Status != before && s.observer != nil {
		s.observer.StatusChanged(before, o.Status)
	}
}

// announce returns the Announcer's messages for o's new history entries, written with the
// order: when its state changed, or an entry is announced without a change of state, or its
// shopper sees one (a payment to return: the shopper's e-mails tell it).
func (s *Service) announce(ctx context.Context, o *Order, before OrderStatus, changes []StatusChange) ([]OutboxMessage, error) {
	if s.announcer == nil || len(changes) == 0 || (o.Status == before && !announced(changes) && !shopperSees(changes)) {
		return nil, nil
	}
	out, err := s.announcer.Announce(ctx, o, changes)
	if err != nil {
		return nil, fmt.Errorf("checkout: announcing order %s's change: %w", o.Number, err)
	}
	return out, nil
}

// announced reports whether changes hold an entry announced without a change of state (a
// merchant's action: ReasonCode.Announced).
func announced(changes []StatusChange) bool {
	for _, c := range changes {
		if c.Reason.Code.Announced() {
			return true
		}
	}
	return false
}

// shopperSees reports whether changes hold an entry that leaves the order's state as it was
// and that its shopper's page shows (shipped, delivered, money to return or returned): its
// subscribers hear of it as of a change of state.
func shopperSees(changes []StatusChange) bool {
	for _, c := range changes {
		switch c.Reason.Code {
		case ReasonShipped, ReasonDelivered, ReasonRefundRecorded, ReasonPaidTwice, ReasonPaidAfterCancel, ReasonLinkBeyondCap:
			return true
		}
	}
	return false
}

// setStatus moves o to status to, recording why, when the transition table allows it.
func (o *Order) setStatus(to OrderStatus, reason Reason, at time.Time) bool {
	if o.Status == to || !CanTransition(o.Status, to) {
		return false
	}
	o.History = append(o.History, StatusChange{From: o.Status, To: to, At: at, Reason: reason})
	o.Status = to
	switch {
	case (to == StatusRefunding || to == StatusRefunded) && o.RefundedAt.IsZero():
		o.RefundedAt = at.UTC()
	case to == StatusUnderReview:
		o.HeldAt = at.UTC()
	}
	return true
}

// Orders lists orders matching f, newest first (for the merchant's dashboard).
func (s *Service) Orders(ctx context.Context, f OrderFilter) ([]*Order, error) {
	os, err := s.store.Orders(ctx, f)
	if err != nil {
		return nil, fmt.Errorf("checkout: listing orders: %w", err)
	}
	return os, nil
}
