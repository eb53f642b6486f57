package checkout

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/brdoc"
	"github.com/pixcheckout/pixcheckout/gatewayclient/decode"
)

// PlaceOrderInput is the customer form's submission, for any checkout source.
type PlaceOrderInput struct {
	// Channel and Source name the checkout source (see Service.Source): ChannelShop (the zero
	// value's meaning) and the cart's id, ChannelSession and the session's id, ChannelLink and
	// the link's slug, ChannelCharge and the charge's id; Amount is what the payer typed for a link that asks for it.
	Channel Channel
	Source  string
	Amount  gatewayclient.Cents
	// RequestKey is made when the form is rendered (a hidden field, Source.NewRequestKey):
	// submitting the same form twice (double click, retry after a lost answer) gives the same
	// order. A checkout session has one order and needs none.
	RequestKey string
	Customer   Customer
	Address    *Address // required when a product is physical; ignored otherwise
	Lang       string
	ShopperIP  string // sent as customer.ip when it parses as an IP address
	// Sale is the point of sale's sale (Channel ChannelPOS; Source is then ignored): its
	// terminal and cashier, an amount or products, a customer only when the cashier gave one.
	Sale *Sale
}

// Maximum length of a request key as the form sends it. The store keeps it scoped by its cart
// (scopedRequestKey), within 255 characters.
const maxRequestKey = 200

// Length limits of the customer's name. The gateway asks for "international alphanumeric text"
// without a length; the checkout wants a name the merchant can ship to and a bank app can show,
// within the limits every other text of the spec has.
const (
	MinNameLength = 2
	MaxNameLength = 150
)

// PlaceOrder turns a checkout source (see Source) into an order and asks the gateway for its QR
// code. A source that takes no order is Source's error; the order a checkout session already has
// is returned as it is.
//
// The input is checked whole before anything is stored: the gateway client's own validation of
// the transaction it will send, plus the checkout's own rules (e-mail and mobile phone are
// required, a phone that is not a Brazilian number is an error, not dropped; a name has
// MinNameLength to MaxNameLength characters). Every violation comes back at once in a
// *ValidationError keyed by form field (see FormField); nothing is stored then. Prices come from
// the source (a cart's from the catalogue). The order and its first attempt (with its idempotency key) are written in one
// store transaction before the gateway is called; an order of the same source with the same
// RequestKey is returned as it is instead of making another one (a key is scoped by its source).
//
// The returned order's status says what happened:
//   - awaiting_payment: the QR code is ready (Order.QR).
//   - pending: the gateway did not answer (it is down, or the answer was lost); the error is
//     logged, not returned, because the order is safely stored: EnsurePayment retries with the
//     same key, which the PIX page does (CurrentOrder). Pending too when the gateway's pacing
//     (after a 429) would have held the call past ShopperGatewayWait: the Service completes
//     the attempt in the background, with the same key, and publishes the order's new status.
//   - failed: the gateway refused the transaction (a 422, returned as a *ValidationError beside
//     the order so that the form shows it, also on a replay of the same submission), or its BR
//     Code did not match the order (no error: the PIX page offers a new QR code). A refused
//     request key is spent: the form is rendered again with a new key; the cart is kept.
func (s *Service) PlaceOrder(ctx context.Context, in PlaceOrderInput) (*Order, error) {
	channel := cmp.Or(in.Channel, ChannelShop)
	if channel != ChannelSession && (in.RequestKey == "" || len(in.RequestKey) > maxRequestKey) {
		return nil, fieldError(FieldRequestKey, "required", "the form is outdated: submit it again")
	}
	var src *Source
	var err error
	if channel == ChannelPOS && in.Sale != nil {
		src, err = s.saleSource(ctx, in.Sale)
	} else {
		src, err = s.Source(ctx, channel, in.Source, in.Amount)
	}
	if err != nil {
		return nil, err
	}
	if src.Placed != nil {
		return src.Placed, nil
	}
	fe := &ValidationError{}
	if err := src.check(fe, in.RequestKey); err != nil {
		return nil, err
	}
	typed := in.Customer
	if src.sale != nil {
		typed = src.sale.Customer
	}
	return s.place(ctx, fe, typed, s.newOrder(src, in))
}

// place checks the order o with the checkout's own
// rules on the customer as typed and every rule of the gateway on its transaction request,
// adding to the violations already in fe; then stores it with its first attempt and asks the
// gateway for its QR code (see PlaceOrder for what the returned order's status says).
func (s *Service) place(ctx context.Context, fe *ValidationError, typed Customer, o *Order) (res *Order, err error) {
	created := false
	if s.observer != nil {
		start := time.Now()
		defer func() { s.observer.Placement(time.Since(start), o.Channel, placementOutcome(res, err), created) }()
	}
	req := s.request(ctx, o, o.CurrentAttempt())
	if fe := s.checkOrder(fe, typed, o, req); fe != nil {
		return nil, fe
	}
	if o.CurrentAttempt().Request, err = json.Marshal(req); err != nil {
		return nil, fmt.Errorf("checkout: placing an order: encoding the request: %w", err)
	}
	// A payment link with a maximum of payments: no QR code without a place.
	if err := s.holdLinkPlace(ctx, o, *req.Pix.ExpirationSeconds); err != nil {
		return nil, err
	}
	stored, created, err := s.store.CreateOrder(ctx, o)
	if err != nil {
		s.releaseLinkPlace(ctx, o)
		return nil, fmt.Errorf("checkout: placing an order: %w", err)
	}
	s.remember(stored)
	var built *gatewayclient.CreateTransactionRequest // a replay sends the request stored earlier
	if created {
		built = &req
		s.log.InfoContext(ctx, "order placed", "number", stored.Number, "amount", int64(stored.Amount))
	}
	res, err = s.ensureForShopper(ctx, stored.ID, stored, built)
	if err != nil {
		if res == nil {
			return nil, err
		}
		// The order is stored and its attempt is pending: EnsurePayment retries.
		s.log.WarnContext(ctx, GatewayProblem(err)+"; the attempt stays pending", "number", stored.Number, "code", string(ErrorCode(err)), "err", err)
	}
	if a := res.CurrentAttempt(); res.Status == StatusFailed && a != nil && len(a.Violations) > 0 {
		return res, fieldErrors(a.Violations)
	}
	return res, nil
}

// checkOrder returns every reason why the order o may not be placed, or nil: those already in
// fe, the checkout's own rules on the customer (typed, as sent), and every rule of the gateway
// on the transaction request req (which also asks for an address when a product is physical).
func (s *Service) checkOrder(fe *ValidationError, typed Customer, o *Order, req gatewayclient.CreateTransactionRequest) *ValidationError {
	checkTexts(fe, customerTexts(typed, o.Address)...)
	checkCustomer(fe, typed, o.Customer, o.notAsked)
	var ve *gatewayclient.ValidationError
	if err := req.ValidateAt(s.now()); errors.As(err, &ve) {
		fe.Violations = append(fe.Violations, ve.Violations...)
	} else if err != nil {
		fe.Add("", gatewayclient.CodeFormat, err.Error())
	}
	return fe.OrNil()
}

// customerTexts are the texts of the customer form, the customer as typed and the address,
// by form field, for CheckText.
func customerTexts(c Customer, a *Address) []textField {
	t := func(path, v string) textField { return textField{path, v} }
	texts := []textField{t("customer.name", c.Name), t("customer.document", c.Document),
		t("customer.email", c.Email), t("customer.mobilePhone", c.Phone)}
	if a != nil {
		texts = append(texts, t("address.zipCode", a.ZipCode), t("address.street", a.Street), t("address.number", a.Number),
			t("address.complement", a.Complement), t("address.neighborhood", a.Neighborhood), t("address.city", a.City),
			t("address.state", a.State), t("address.country", a.Country))
	}
	return texts
}

// checkCustomer adds the violations of the checkout's own rules on the customer, beyond the
// gateway's (which the request's validation checks): typed is the form as sent, c the same
// normalised.
func checkCustomer(fe *ValidationError, typed, c Customer, notAsked []string) {
	if n := utf8.RuneCountInString(c.Name); n > 0 && n < MinNameLength {
		fe.Add("customer.name", gatewayclient.CodeMinLength, fmt.Sprintf("must have at least %d characters", MinNameLength))
	} else if n > MaxNameLength {
		fe.Add("customer.name", gatewayclient.CodeMaxLength, fmt.Sprintf("must have at most %d characters", MaxNameLength))
	}
	// The gateway takes e-mail and phone as optional; the merchant needs them to reach the
	// shopper about the order.
	if c.Email == "" && !slices.Contains(notAsked, FieldEmail) {
		fe.Add("customer.email", gatewayclient.CodeRequired, "is required")
	}
	switch {
	case strings.TrimSpace(typed.Phone) == "" && slices.Contains(notAsked, FieldPhone):
		// Not asked (a payment link's form without it): none is fine.
	case strings.TrimSpace(typed.Phone) == "":
		fe.Add("customer.mobilePhone", gatewayclient.CodeRequired, "is required")
	case c.Phone == "":
		// Typed but not a Brazilian number: normalising gave nothing, and an empty phone would
		// pass the gateway's validation unnoticed.
		fe.Add("customer.mobilePhone", gatewayclient.CodeFormat, "must be a Brazilian mobile number with area code")
	}
}

// cartFingerprint is a short digest of what the shopper is shown of a cart, and its shipping.
func cartFingerprint(c *Cart, shipping gatewayclient.Cents) string {
	h := sha256.New()
	for _, l := range c.Lines {
		fmt.Fprintf(h, "%q %d %d\n", l.Product.ID, l.Quantity, int64(l.Product.UnitPrice))
	}
	if shipping > 0 { // none: the digest of a cart without shipping, as before shipping existed
		fmt.Fprintf(h, "shipping %d\n", int64(shipping))
	}
	return idEncoding.EncodeToString(h.Sum(nil)[:10])
}

// scopedRequestKey is the request key as stored with the order: scoped by the source it was
// posted to (Source.requestKey).
func scopedRequestKey(cartID, key string) string { return cartID + "/" + key }

// requestKeyCart returns the cart fingerprint a request key made by NewRequestKey carries.
func requestKeyCart(key string) (string, bool) {
	i := strings.LastIndexByte(key, '.')
	if i < 0 {
		return "", false
	}
	return key[i+1:], true
}

// newOrder makes a new order of src and the form, with its first, pending attempt.
// checkOrder says whether it may be placed.
func (s *Service) newOrder(src *Source, in PlaceOrderInput) *Order {
	now := s.now().UTC()
	o := &Order{
		ID:                s.newID(),
		Number:            newOrderNumber(),
		RequestKey:        src.requestKey(in.RequestKey),
		Status:            StatusPending,
		Channel:           src.Channel,
		Customer:          normalizeCustomer(in.Customer),
		CreatedAt:         now,
		UpdatedAt:         now,
		Lang:              in.Lang,
		ShopperIP:         strings.TrimSpace(in.ShopperIP),
		MerchantReference: src.Reference,
		PayBy:             src.PayBy,
		notAsked:          src.NotAsked,
	}
	switch src.Channel {
	case ChannelSession:
		o.SessionID = src.ID
	case ChannelLink:
		o.LinkID = src.ID
	case ChannelCharge:
		o.ChargeID = src.ID
	case ChannelPOS:
		o.ShopperIP = "" // the cashier's address, not a customer's
	}
	// The order number, not the id: the id is the shopper's credential (the URL of the PIX
	// page) and must not travel to the gateway, its dashboards and its logs.
	o.ExternalCode = o.Number
	for _, l := range src.Lines {
		o.Lines = append(o.Lines, l)
		o.Amount += l.Subtotal()
		o.Physical = o.Physical || l.Physical
	}
	o.setShipping(src.Shipping, src.DeliveryDays)
	if o.Physical && in.Address != nil {
		a := normalizeAddress(*in.Address)
		o.Address = &a
	}
	if src.sale != nil {
		o.Customer = normalizeCustomer(src.sale.Customer)
		saleOrder(o, src.sale)
	}
	o.History = []StatusChange{{To: StatusPending, At: now, Reason: Reason{Code: ReasonOrderPlaced}}}
	o.Attempts = []Attempt{s.newAttempt(o, 1, now)}
	return o
}

func (s *Service) newAttempt(o *Order, n int, now time.Time) Attempt {
	return Attempt{
		ID:      s.newID(),
		OrderID: o.ID,
		N:       n,
		// Random and stored with the attempt before the gateway is called, so that every retry
		// of this attempt sends it again; unrelated to the order id, which is a credential.
		IdempotencyKey: s.newID(),
		State:          AttemptPending,
		CreatedAt:      now,
		UpdatedAt:      now,
	}
}

func normalizeCustomer(c Customer) Customer {
	return Customer{
		Name:     strings.Join(strings.Fields(c.Name), " "),
		Document: brdoc.NormalizeDocument(strings.TrimSpace(c.Document)),
		Email:    strings.TrimSpace(c.Email),
		Phone:    brdoc.NormalizePhone(strings.TrimSpace(c.Phone)),
	}
}

// DefaultCountry is the country of every address: PIX is a Brazilian payment, so the form does
// not ask for it.
const DefaultCountry = "Brasil"

func normalizeAddress(a Address) Address {
	t := strings.TrimSpace
	country := t(a.Country)
	if country == "" {
		country = DefaultCountry
	}
	return Address{ZipCode: t(a.ZipCode), Street: t(a.Street), Number: t(a.Number), Complement: t(a.Complement),
		Neighborhood: t(a.Neighborhood), City: t(a.City), State: t(a.State), Country: country}
}

// request builds the transaction request of attempt a from the order and the current settings.
// It is built once, when the attempt is written, and stored with it (Attempt.Request): retries
// send the stored body, since settings may change in between.
func (s *Service) request(ctx context.Context, o *Order, a *Attempt) gatewayclient.CreateTransactionRequest {
	exp := s.expiration
	if o.Channel == ChannelPOS && s.saleQRSeconds != nil {
		// A sale's QR code lives as long as the point of sale's setting says (the counter's queue).
		exp = s.saleQRSeconds(ctx)
	}
	if !o.PayBy.IsZero() {
		// A QR code never outlives the order's deadline (its checkout session's expiry).
		if left := int(o.PayBy.Sub(s.now()) / time.Second); left < exp {
			exp = max(left, gatewayclient.MinExpirationSeconds)
		}
	}
	req := gatewayclient.CreateTransactionRequest{
		Amount:         o.Amount,
		PaymentMethod:  gatewayclient.PaymentMethodPIX,
		WebhookURL:     s.webhookURL,
		ExternalCode:   o.ExternalCode,
		IdempotencyKey: a.IdempotencyKey,
		IsInfoProduct:  gatewayclient.Ptr(!o.Physical),
		Metadata:       map[string]any{"orderNumber": o.Number},
		Pix:            &gatewayclient.PixRequest{ExpirationSeconds: &exp},
	}
	if s.seller != nil {
		req.Seller = s.seller(ctx)
	}
	// The gateway's customer is optional: a sale at the counter has none unless the cashier
	// gave a CPF, and none is made up. Every other channel asks for one, so its request always
	// carries it and a form sent empty is refused field by field (name, document) by the
	// request's validation rather than reaching the gateway without a customer.
	if o.Customer != (Customer{}) || o.Channel != ChannelPOS {
		req.Customer = &gatewayclient.Customer{Name: o.Customer.Name, Document: o.Customer.Document,
			Email: o.Customer.Email, MobilePhone: o.Customer.Phone}
		if ip := o.ShopperIP; ip != "" && validIP(ip) {
			req.Customer.IP = ip
		}
	}
	if o.Address != nil {
		ad := o.Address
		req.Address = &gatewayclient.Address{ZipCode: ad.ZipCode, Street: ad.Street, Number: ad.Number,
			Complement: ad.Complement, Neighborhood: ad.Neighborhood, City: ad.City, State: ad.State, Country: ad.Country}
	}
	for _, l := range o.Lines {
		req.Items = append(req.Items, gatewayclient.Item{Title: l.Title, Description: l.Description,
			UnitPrice: l.UnitPrice, Quantity: gatewayclient.Ptr(l.Quantity)})
	}
	if o.Shipping > 0 { // free shipping sends no item: a unitPrice is at least 1
		req.Items = append(req.Items, gatewayclient.Item{Title: ShippingItemTitle, UnitPrice: o.Shipping, Quantity: gatewayclient.Ptr(1)})
	}
	return req
}

// storedRequest returns the request of attempt a exactly as it was stored when the attempt was
// written, or rebuilds it for an attempt stored before requests were kept.
func (s *Service) storedRequest(ctx context.Context, o *Order, a *Attempt) (gatewayclient.CreateTransactionRequest, error) {
	if len(a.Request) == 0 {
		return s.request(ctx, o, a), nil
	}
	req, err := decode.CreateTransactionRequest(a.Request)
	if err != nil {
		return req, fmt.Errorf("decoding the stored request of attempt %d: %w", a.N, err)
	}
	return req, nil
}

// EnsurePayment makes sure the order's current attempt got the gateway's answer: when it is
// pending (the gateway never answered, or the process stopped before storing the answer), it
// calls the gateway again with the same idempotency key, so that the gateway replays the
// transaction it made, and stores the result. In this process one call per order is in flight
// at a time. It returns the order as stored; with a non-nil error (the gateway is unreachable)
// the order is returned too and its attempt stays pending.
func (s *Service) EnsurePayment(ctx context.Context, orderID string) (*Order, error) {
	return s.ensure(ctx, orderID)
}

func (s *Service) ensure(ctx context.Context, orderID string) (*Order, error) {
	unlock, err := s.locks.lock(ctx, orderID)
	if err != nil {
		return nil, fmt.Errorf("checkout: waiting for the order: %w", err)
	}
	defer unlock()
	return s.ensureLocked(ctx, orderID, nil, nil)
}

// ensureLocked is EnsurePayment with the order's lock held. known, when not nil, is the order
// as the caller just read or wrote it, and owns: it saves a read, and the write that follows
// is checked against the version it carries (a change made meanwhile is a conflict, and the
// order is read again). built, when not nil, is the request the caller built for known's
// current attempt and stored with it a moment ago: it is sent as it is, rather than decoded
// back from the stored bytes (the strict decoding was ≈ 2 % of an order's CPU). Every later
// call (a retry, another process) sends the stored request.
func (s *Service) ensureLocked(ctx context.Context, orderID string, known *Order, built *gatewayclient.CreateTransactionRequest) (*Order, error) {
	o := known
	var err error
	if o == nil {
		if o, err = s.store.Order(ctx, orderID); err != nil {
			return nil, fmt.Errorf("checkout: order: %w", err)
		}
	}
	a := o.CurrentAttempt()
	if a == nil || a.State != AttemptPending {
		return o, nil
	}
	attemptID := a.ID
	req := built
	if req == nil || known == nil {
		stored, err := s.storedRequest(ctx, o, a)
		if err != nil {
			return o, fmt.Errorf("checkout: order %s: %w", o.Number, err)
		}
		req = &stored
	}
	ans, err := s.createTransaction(ctx, o, *req)
	if err != nil {
		return o, err
	}
	res, _, err := s.updateFrom(ctx, orderID, o, func(o *Order) (bool, error) { return s.settleAttempt(o, attemptID, ans), nil })
	if err != nil {
		return nil, fmt.Errorf("checkout: storing the transaction of order %s: %w", o.Number, err)
	}
	if a := res.CurrentAttempt(); a != nil && a.State == AttemptFailed && a.ID == attemptID {
		s.log.WarnContext(ctx, "payment attempt failed", "number", res.Number, "attempt", a.N, "reason", a.Error.String())
	}
	return res, nil
}

// transactionAnswer is the gateway's answer to an attempt's request: the transaction and its
// QR image, or the error of a refused request with its violations.
type transactionAnswer struct {
	tx      *gatewayclient.Transaction
	png     []byte
	err     error
	refused []gatewayclient.Violation
}

// createTransaction sends req to the gateway. A refusal (a validation error) is an answer; any
// other error is returned, the attempt staying pending.
func (s *Service) createTransaction(ctx context.Context, o *Order, req gatewayclient.CreateTransactionRequest) (transactionAnswer, error) {
	tx, err := s.gw.CreateTransaction(ctx, req)
	if err != nil {
		if !errors.Is(err, gatewayclient.ErrValidation) {
			return transactionAnswer{}, fmt.Errorf("checkout: creating the transaction of order %s: %w", o.Number, err)
		}
		return transactionAnswer{err: err, refused: violationsOf(err)}, nil
	}
	ans := transactionAnswer{tx: tx}
	if s.qrImage != nil && s.checkTransaction(o, tx).IsZero() {
		// Drawn once, here, outside any transaction: the pages serve it as stored.
		if ans.png, err = s.qrImage(tx.PixResponse.URI); err != nil {
			s.log.WarnContext(ctx, "drawing the QR code", "number", o.Number, "err", err)
			ans.png = nil
		}
	}
	return ans, nil
}

// settleAttempt applies the gateway's answer to the attempt attemptID of o, unless it was
// settled meanwhile (another process, or a payment superseded it); it reports whether o
// changed.
func (s *Service) settleAttempt(o *Order, attemptID string, ans transactionAnswer) bool {
	a := o.CurrentAttempt()
	if a == nil || a.ID != attemptID || a.State != AttemptPending {
		return false
	}
	now := s.now().UTC()
	a.UpdatedAt = now
	if ans.err != nil {
		s.failAttempt(o, a, Reason{Code: ReasonGatewayRefused, Detail: ans.err.Error()}, now)
		a.Violations = ans.refused
		return true
	}
	tx := ans.tx
	a.TransactionID = tx.ID
	a.DepositStatus = tx.Status
	if reason := s.checkTransaction(o, tx); !reason.IsZero() {
		s.failAttempt(o, a, reason, now)
		return true
	}
	a.State = AttemptActive
	a.BRCode = tx.PixResponse.URI
	a.QRCodePNG = ans.png
	a.ExpiresAt = tx.PixResponse.ExpirationDate.UTC()
	if a.ExpiresAt.IsZero() {
		a.ExpiresAt = now.Add(time.Duration(s.expiration) * time.Second)
	}
	reason := Reason{Code: ReasonQRGenerated}
	if a.N > 1 {
		reason = Reason{Code: ReasonQRRenewed, Attempt: a.N}
	}
	o.setStatus(StatusAwaitingPayment, reason, now)
	return true
}

// failAttempt marks a as failed; the order fails too unless it already ended otherwise (an
// expired order whose new attempt failed stays expired, so the shopper may try again).
func (s *Service) failAttempt(o *Order, a *Attempt, reason Reason, now time.Time) {
	a.State = AttemptFailed
	a.Error = reason
	o.setStatus(StatusFailed, reason, now)
}

// checkTransaction returns why the gateway's answer must not be shown to the shopper, or the
// zero Reason.
// The BR Code is the payment order the shopper's bank executes: a code for another amount is
// refused, whatever the rest of the answer says.
func (s *Service) checkTransaction(o *Order, tx *gatewayclient.Transaction) Reason {
	switch {
	case tx == nil || tx.ID == "":
		return Reason{Code: ReasonNoTransaction}
	case tx.PixResponse == nil || tx.PixResponse.URI == "":
		return Reason{Code: ReasonNoPixCode}
	case tx.Amount != 0 && tx.Amount != o.Amount:
		return Reason{Code: ReasonAmountMismatch, Asked: tx.Amount, Amount: o.Amount}
	}
	return checkBRCode(tx.PixResponse.URI, o.Amount)
}

// violationsOf returns the violations of a validation error of the client or of a gateway 422.
func violationsOf(err error) []gatewayclient.Violation {
	var ve *gatewayclient.ValidationError
	if errors.As(err, &ve) {
		return ve.Violations
	}
	var ae *gatewayclient.APIError
	if errors.As(err, &ae) {
		if vs := ae.Violations(); len(vs) > 0 {
			return vs
		}
	}
	return []gatewayclient.Violation{{Message: err.Error()}}
}

// RegenerateQR gives an expired or failed order a new QR code: a new attempt with a new
// idempotency key, hence a new gateway transaction. The previous attempt stays as it was
// (expired or failed); a late payment of it still makes the order paid. The order moves back
// to awaiting_payment when the new QR code is ready (the transition reserved for renewals).
// An order awaiting payment whose QR code's time is over is expired first. Other states give
// ErrNotRenewable. When a renewal is already pending, it is completed instead
// of making another one.
func (s *Service) RegenerateQR(ctx context.Context, orderID string) (*Order, error) {
	// A shopper's request: a renewal already being completed in the background (or whoever
	// holds the order's lock past ShopperGatewayWait) completes it; the order is answered as is.
	unlock, busy, err := s.lockForShopper(ctx, orderID)
	if err != nil {
		return nil, err
	}
	if busy {
		return s.Snapshot(ctx, orderID)
	}
	defer unlock()
	if o, err := s.Snapshot(ctx, orderID); err == nil && o.LinkID != "" {
		// A payment link with a maximum of payments: no new QR code without a place.
		if err := s.holdLinkPlace(ctx, o, s.expiration); err != nil {
			return nil, err
		}
	}
	var built *gatewayclient.CreateTransactionRequest // the new attempt's request, once written
	renewed, _, err := s.update(ctx, orderID, func(o *Order) (bool, error) {
		built = nil
		now := s.now().UTC()
		// A QR code whose time is over is expired here, without waiting for the reconciler.
		expire(o, now)
		if o.Status != StatusExpired && o.Status != StatusFailed {
			return false, fmt.Errorf("checkout: order %s is %s: %w", o.Number, o.Status, ErrNotRenewable)
		}
		if !o.Renewable(now) {
			return false, fmt.Errorf("checkout: order %s is past its deadline: %w", o.Number, ErrNotRenewable)
		}
		cur := o.CurrentAttempt()
		if cur != nil && cur.State == AttemptPending {
			return false, nil // a renewal is already waiting for the gateway
		}
		if cur != nil && cur.State == AttemptActive {
			cur.State = AttemptSuperseded
			cur.UpdatedAt = now
		}
		o.Attempts = append(o.Attempts, s.newAttempt(o, len(o.Attempts)+1, now))
		a := o.CurrentAttempt()
		req := s.request(ctx, o, a)
		b, err := json.Marshal(req)
		if err != nil {
			return false, fmt.Errorf("checkout: order %s: encoding the request: %w", o.Number, err)
		}
		a.Request, built = b, &req
		return true, nil
	})
	if err != nil {
		return nil, err
	}
	return s.ensureLockedForShopper(ctx, orderID, renewed, built)
}
