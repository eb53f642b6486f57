package checkout

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// A checkout session is a checkout made by the merchant's server through the merchant API: its
// own lines (catalogue products or ad-hoc items at the merchant's prices), its reference
// (ExternalCode), the origin of the page allowed to frame it, a customer prefill and where to
// send the shopper afterwards. Its id is unguessable and its page (/s/{id}) is the customer
// form, prefilled; the shopper's submission turns it into one order (request key
// "session:"+id, so a session never gets two orders), paid on the usual PIX page.
//
// A session may be turned into an order until ExpiresAt; the order's QR codes never outlive it
// (Order.PayBy).

// Limits of a checkout session.
const (
	MaxSessionItems                = 100   // lines of a session
	MinSessionSeconds              = 120   // expiresInSeconds: at least one QR code of 60 s
	MaxSessionSeconds              = 86400 // expiresInSeconds: one day
	DefaultSessionSeconds          = 86400
	MaxMetadataKeys                = 50
	MaxMetadataKeyLength           = 40
	MaxMetadataValueLength         = 500
	MaxIdempotencyKeyLength        = 255
	sessionRequestKeyPrefix        = "session:"
	minQRSeconds                   = gatewayclient.MinExpirationSeconds
	maxSessionURLLength            = 2048
	sessionOrderReasonAfterExpired = "the checkout session expired"
)

// Item types of a checkout session's ad-hoc items.
const (
	ItemDigital  = "DIGITAL"
	ItemPhysical = "PHYSICAL"
)

// ErrSessionExpired: the checkout session can no longer be turned into an order.
var ErrSessionExpired = &Error{Code: CodeConflict, Message: sessionOrderReasonAfterExpired}

// CheckoutSession is a checkout session.
type CheckoutSession struct {
	ID             string // >= 128 random bits (NewID): the shopper's credential, in the URL
	IdempotencyKey string // the merchant's Idempotency-Key ("" when none was sent); unique
	RequestHash    string // digest of the creation request, to tell a replay from another request
	ExternalCode   string // the merchant's reference
	EmbedOrigin    string // origin of the page allowed to frame the session ("" none)
	SuccessURL     string // where the shopper goes once paid ("" none)
	CancelURL      string // where the shopper goes to give up ("" none)
	Lines          []OrderLine
	Amount         gatewayclient.Cents // items and shipping
	// Shipping is what the session's order pays for shipping (in Amount): the merchant's, set
	// through the API, or else the shipping settings' when the session was made.
	Shipping     gatewayclient.Cents
	DeliveryDays int      // delivery estimate in business days; 0 none
	Customer     Customer // prefill (may be partial)
	Address      *Address // prefill (may be partial); nil when none
	Metadata     map[string]string
	APIKeyID     string // the key that made it
	ExpiresAt    time.Time
	CreatedAt    time.Time
}

// Physical reports whether any line is a physical product (the shopper then gives an address).
func (s *CheckoutSession) Physical() bool {
	for _, l := range s.Lines {
		if l.Physical {
			return true
		}
	}
	return false
}

// Open reports whether the session may still be turned into an order at now: a QR code of at
// least a minute must fit before it expires.
func (s *CheckoutSession) Open(now time.Time) bool {
	return now.Add(minQRSeconds * time.Second).Before(s.ExpiresAt)
}

// CheckoutSessionStore keeps checkout sessions. Idempotency keys are unique (enforced by the database).
type CheckoutSessionStore interface {
	// CreateCheckoutSession stores s, unless a session with its IdempotencyKey exists: then it stores
	// nothing and returns that session with created false (concurrent callers with one key get
	// one session).
	CreateCheckoutSession(ctx context.Context, s *CheckoutSession) (stored *CheckoutSession, created bool, err error)
	// CheckoutSession returns a session, or ErrNotFound.
	CheckoutSession(ctx context.Context, id string) (*CheckoutSession, error)
	// CheckoutSessionByIdempotencyKey returns the session made with that key, or ErrNotFound.
	CheckoutSessionByIdempotencyKey(ctx context.Context, key string) (*CheckoutSession, error)
	// PruneCheckoutSessions deletes, soonest expired first, at most limit sessions that expired before
	// expiredBefore and never got an order, and returns how many it deleted. One call is one
	// short batch; limit must be positive.
	PruneCheckoutSessions(ctx context.Context, expiredBefore time.Time, limit int) (int, error)
}

// CheckoutSessionItem is a line of a session being created: a catalogue product (ProductID, Quantity)
// or an ad-hoc item (Title, Description, UnitPrice, Quantity, Type).
type CheckoutSessionItem struct {
	ProductID   ProductID           `json:"productId,omitempty"`
	Title       string              `json:"title,omitempty"`
	Description string              `json:"description,omitempty"`
	UnitPrice   gatewayclient.Cents `json:"unitPrice,omitempty"`
	Quantity    int                 `json:"quantity"`
	Type        string              `json:"type,omitempty"` // ItemDigital or ItemPhysical
	// ImageURL is an ad-hoc item's picture: an https URL the checkout fetches once, when the
	// session is made, and serves as its own (see Service.sessionImage).
	ImageURL string `json:"imageUrl,omitempty"`
}

// CreateCheckoutSessionInput is a request of the merchant to create a checkout session. Field paths
// in its errors are those of the API's JSON (items[0].unitPrice, customer.document,
// customer.address.zipCode, successUrl...).
type CreateCheckoutSessionInput struct {
	// ReadErrors are the violations found while reading the request (wrong JSON types, unknown
	// fields): the session is refused with them and every other violation, reported at once.
	ReadErrors       *ValidationError      `json:"-"`
	IdempotencyKey   string                `json:"-"`
	APIKeyID         string                `json:"-"`
	Items            []CheckoutSessionItem `json:"items"`
	ExternalCode     string                `json:"externalCode,omitempty"`
	EmbedOrigin      string                `json:"embedOrigin,omitempty"`
	Customer         *Customer             `json:"customer,omitempty"`
	Address          *Address              `json:"address,omitempty"`
	SuccessURL       string                `json:"successUrl,omitempty"`
	CancelURL        string                `json:"cancelUrl,omitempty"`
	ExpiresInSeconds int                   `json:"expiresInSeconds,omitempty"`
	Metadata         map[string]string     `json:"metadata,omitempty"`
	// Shipping, when set, is what the order pays for shipping (0: free), instead of what the
	// shipping settings give; only a session with a physical item ships.
	Shipping *gatewayclient.Cents `json:"shipping,omitempty"`
}

// hash is the digest of the request: the same request sent again has the same digest,
// whatever the order of its JSON keys or its spacing.
func (in CreateCheckoutSessionInput) hash() string {
	b, _ := json.Marshal(in) // fields of plain types and sorted maps: never fails, deterministic
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// CreateCheckoutSession makes a checkout session, or returns the one made before with the same
// Idempotency-Key and request (created false). The same key with another request is an
// error of code CodeIdempotencyReused. Every rule is checked at once, those of the gateway
// (item and amount limits, lengths, documents, phones, CEP) through the gateway client's own
// validation of the transaction the session's order would send; violations come back as a
// *ValidationError whose Field paths name the API's JSON fields. Nothing is stored then.
func (s *Service) CreateCheckoutSession(ctx context.Context, in CreateCheckoutSessionInput) (*CheckoutSession, bool, error) {
	hash := in.hash()
	return createOnce(ctx, in.IdempotencyKey, hash, s.store.CheckoutSessionByIdempotencyKey, func() (*CheckoutSession, bool, error) {
		sess, err := s.newSession(ctx, in)
		if err != nil {
			return nil, false, err
		}
		sess.RequestHash = hash
		stored, created, err := s.store.CreateCheckoutSession(ctx, sess)
		if err != nil {
			return nil, false, fmt.Errorf("checkout: storing the session: %w", err)
		}
		if created {
			s.log.InfoContext(ctx, "checkout session created", "amount", int64(stored.Amount), "items", len(stored.Lines))
		}
		return stored, created, nil
	})
}

// requestDigest is the digest of the request that made the session (createOnce).
func (s *CheckoutSession) requestDigest() string { return s.RequestHash }

// newSession checks in and builds the session (not stored).
func (s *Service) newSession(ctx context.Context, in CreateCheckoutSessionInput) (*CheckoutSession, error) {
	now := s.now().UTC()
	fe, add := requestErrors(in.ReadErrors)
	checkTexts(fe, sessionTexts(in)...)
	sess := &CheckoutSession{
		ID:             s.newID(),
		IdempotencyKey: in.IdempotencyKey,
		ExternalCode:   strings.TrimSpace(in.ExternalCode),
		EmbedOrigin:    strings.TrimRight(strings.TrimSpace(in.EmbedOrigin), "/"),
		SuccessURL:     strings.TrimSpace(in.SuccessURL),
		CancelURL:      strings.TrimSpace(in.CancelURL),
		Metadata:       in.Metadata,
		APIKeyID:       in.APIKeyID,
		CreatedAt:      now,
	}
	if len(in.Items) == 0 {
		add("items", gatewayclient.CodeRequired, "at least one item is required")
	}
	var itemIndex []int
	sess.Lines, sess.Amount, itemIndex = s.itemLines(ctx, fe, in.Items)
	if err := s.sessionShipping(ctx, sess, in, add); err != nil {
		return nil, err
	}
	checkSessionURLs(add, sess)
	sess.ExpiresAt = now.Add(time.Duration(sessionSeconds(add, in.ExpiresInSeconds)) * time.Second)
	checkMetadata(add, in.Metadata)
	if in.Customer != nil {
		sess.Customer = normalizeCustomer(*in.Customer)
	}
	if in.Address != nil {
		a := normalizeAddress(*in.Address)
		sess.Address = &a
	}
	// The gateway's own rules, on the transaction the session's order would send: amount,
	// items, externalCode and whatever the prefill holds. Required customer fields the
	// merchant left to the shopper are stood in for, and their violations dropped.
	checkSessionRequest(fe, sess, in, itemIndex, now)
	if err := fe.OrNil(); err != nil {
		return nil, err
	}
	return sess, nil
}

// itemLines checks the items of a session or a link (at most MaxSessionItems) and returns the
// lines whose rules can be checked further, their total, and the index of each line's item in
// the request: the gateway's validation then names the merchant's item in each violation.
func (s *Service) itemLines(ctx context.Context, fe *ValidationError, items []CheckoutSessionItem) (lines []OrderLine, amount gatewayclient.Cents, itemIndex []int) {
	if len(items) > MaxSessionItems {
		fe.Add("items", gatewayclient.CodeMax, fmt.Sprintf("at most %d items", MaxSessionItems))
		return nil, 0, nil
	}
	for i, it := range items {
		if line, checkable := s.sessionLine(ctx, fe, fmt.Sprintf("items[%d]", i), it); checkable {
			lines = append(lines, line)
			amount += line.Subtotal()
			itemIndex = append(itemIndex, i)
		}
	}
	return lines, amount, itemIndex
}

// checkSessionURLs checks the session's embedOrigin, successUrl and cancelUrl, when given.
func checkSessionURLs(add addViolation, sess *CheckoutSession) {
	if sess.EmbedOrigin != "" {
		if err := CheckOrigin(sess.EmbedOrigin); err != nil {
			add("embedOrigin", gatewayclient.CodeFormat, err.Error())
		}
	}
	for field, u := range map[string]string{"successUrl": sess.SuccessURL, "cancelUrl": sess.CancelURL} {
		if u != "" {
			if err := checkShopperURL(u); err != nil {
				add(field, gatewayclient.CodeURL, err.Error())
			}
		}
	}
}

// sessionSeconds checks a session's expiresInSeconds and returns its lifetime (the default
// when none was given).
func sessionSeconds(add addViolation, secs int) int {
	switch {
	case secs == 0:
		return DefaultSessionSeconds
	case secs < MinSessionSeconds:
		add("expiresInSeconds", gatewayclient.CodeMin, fmt.Sprintf("must be at least %d", MinSessionSeconds))
	case secs > MaxSessionSeconds:
		add("expiresInSeconds", gatewayclient.CodeMax, fmt.Sprintf("must be at most %d", MaxSessionSeconds))
	}
	return secs
}

// sessionShipping sets the shipping of a session being made (its lines are set): the
// merchant's amount when the request has one, else the shipping settings'.
func (s *Service) sessionShipping(ctx context.Context, sess *CheckoutSession, in CreateCheckoutSessionInput, add addViolation) error {
	rule, err := s.ShippingRule(ctx)
	if err != nil {
		return err
	}
	physical := sess.Physical()
	if physical {
		sess.DeliveryDays = rule.DeliveryDays
	}
	switch sh := in.Shipping; {
	case sh == nil:
		sess.Shipping = rule.For(sess.Amount, physical)
	case *sh < 0:
		add("shipping", gatewayclient.CodeMin, "must not be negative")
	case *sh > gatewayclient.MaxAmount:
		add("shipping", gatewayclient.CodeMax, fmt.Sprintf("must be at most %d", int64(gatewayclient.MaxAmount)))
	case *sh > 0 && !physical:
		add("shipping", gatewayclient.CodeFormat, "only a session with a PHYSICAL item ships")
	default:
		sess.Shipping = *sh
	}
	sess.Amount += sess.Shipping
	return nil
}

// sessionTexts are the texts of a session's request, by their API path, for CheckText.
func sessionTexts(in CreateCheckoutSessionInput) []textField {
	t := func(path, v string) textField { return textField{path, v} }
	texts := []textField{t("externalCode", in.ExternalCode), t("embedOrigin", in.EmbedOrigin),
		t("successUrl", in.SuccessURL), t("cancelUrl", in.CancelURL)}
	for i, it := range in.Items {
		p := fmt.Sprintf("items[%d]", i)
		texts = append(texts, t(p+".productId", string(it.ProductID)), t(p+".title", it.Title),
			t(p+".description", it.Description), t(p+".type", it.Type), t(p+".imageUrl", it.ImageURL))
	}
	if c := in.Customer; c != nil {
		texts = append(texts, t("customer.name", c.Name), t("customer.document", c.Document),
			t("customer.email", c.Email), t("customer.phone", c.Phone))
	}
	if a := in.Address; a != nil {
		for _, f := range []struct{ name, v string }{{"zipCode", a.ZipCode}, {"street", a.Street}, {"number", a.Number},
			{"complement", a.Complement}, {"neighborhood", a.Neighborhood}, {"city", a.City}, {"state", a.State},
			{"country", a.Country}} {
			texts = append(texts, t("customer.address."+f.name, f.v))
		}
	}
	keys := make([]string, 0, len(in.Metadata))
	for k := range in.Metadata {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if CheckText(k) != nil {
			// The key cannot name the field: it is the key that is refused.
			texts = append(texts, textField{"metadata", k})
			continue
		}
		texts = append(texts, t("metadata."+k, in.Metadata[k]))
	}
	return texts
}

// sessionLine checks one item and returns its line, and whether the line can go on to the
// gateway's rules (an unknown product cannot).
func (s *Service) sessionLine(ctx context.Context, fe *ValidationError, path string, it CheckoutSessionItem) (OrderLine, bool) {
	add := func(field, code, msg string) {
		if !fe.Has(path + field) {
			fe.Add(path+field, code, msg)
		}
	}
	if it.Quantity < MinQuantity || it.Quantity > MaxQuantity {
		add(".quantity", map[bool]string{true: gatewayclient.CodeMin, false: gatewayclient.CodeMax}[it.Quantity < MinQuantity],
			fmt.Sprintf("must be %d to %d", MinQuantity, MaxQuantity))
	}
	if fe.Has(path) || fe.Has(path+".productId") {
		// The item, or its productId, could not be read (not an object, a productId that is
		// not a string or is empty): whether it is a product or an ad-hoc item is unknown, and
		// nothing more can truly be said of it.
		return OrderLine{}, false
	}
	if it.ProductID != "" {
		return s.catalogueLine(ctx, add, it)
	}
	return s.adHocLine(ctx, add, it), true
}

// catalogueLine is the line of an item of the catalogue, which takes only a product's id and
// a quantity; false when the product is not an active one of the catalogue.
func (s *Service) catalogueLine(ctx context.Context, add addViolation, it CheckoutSessionItem) (OrderLine, bool) {
	for field, set := range map[string]bool{".title": it.Title != "", ".description": it.Description != "",
		".unitPrice": it.UnitPrice != 0, ".type": it.Type != "", ".imageUrl": it.ImageURL != ""} {
		if set {
			add(field, "not_allowed", "a catalogue item takes only productId and quantity (its title and price are the catalogue's)")
		}
	}
	p, err := s.store.Product(ctx, it.ProductID)
	switch {
	case errors.Is(err, ErrNotFound) || err == nil && !p.Active:
		add(".productId", "unknown_product", "no active product of the catalogue has this id")
		return OrderLine{}, false
	case err != nil:
		add(".productId", "unavailable", "the catalogue could not be read")
		return OrderLine{}, false
	}
	return OrderLine{ProductID: p.ID, Title: p.Title, UnitPrice: p.UnitPrice, Quantity: it.Quantity, Physical: p.Physical,
		Image: p.Image}, true
}

// adHocLine is the line of an item the merchant describes in the request. Its title,
// description and price are checked with the gateway's rules by checkSessionRequest.
func (s *Service) adHocLine(ctx context.Context, add addViolation, it CheckoutSessionItem) OrderLine {
	physical := false
	switch it.Type {
	case ItemDigital:
	case ItemPhysical:
		physical = true
	case "":
		add(".type", gatewayclient.CodeRequired, "is required (DIGITAL or PHYSICAL) for an item without productId")
	default:
		add(".type", gatewayclient.CodeEnum, "must be one of: DIGITAL, PHYSICAL")
	}
	var img ProductImage
	if it.ImageURL != "" {
		var err error
		if img, err = s.sessionImage(ctx, it.ImageURL); err != nil {
			add(".imageUrl", gatewayclient.CodeURL, err.Error())
		}
	}
	return OrderLine{Title: strings.TrimSpace(it.Title), Description: strings.TrimSpace(it.Description),
		UnitPrice: it.UnitPrice, Quantity: it.Quantity, Physical: physical, Image: img}
}

// stand-ins for the customer fields a prefill may leave to the shopper: valid by the gateway's
// rules, never stored.
const (
	standInName     = "Stand In"
	standInDocument = "52998224725"
)

// checkSessionRequest validates, with the gateway client's rules, the transaction request the
// session's order would send, and adds the violations under the API's field paths.
func checkSessionRequest(fe *ValidationError, sess *CheckoutSession, in CreateCheckoutSessionInput, itemIndex []int, now time.Time) {
	req, standIns := sessionProbe(sess)
	if in.Customer != nil && strings.TrimSpace(in.Customer.Phone) != "" && sess.Customer.Phone == "" {
		fe.Add("customer.phone", gatewayclient.CodeFormat, "must be a Brazilian mobile number with area code")
	}
	var ve *gatewayclient.ValidationError
	if err := req.ValidateAt(now); !errors.As(err, &ve) {
		return
	}
	shippingItem := fmt.Sprintf("items[%d]", len(sess.Lines))
	var total []gatewayclient.Violation
	for _, v := range ve.Violations {
		switch {
		case standIns[v.Field]:
			continue
		case strings.HasPrefix(v.Field, shippingItem):
			v.Field = "shipping"
		case v.Field == "amount":
			v.Field = "items"
			v.Message = "the total of the items and shipping " + v.Message
			total = append(total, v)
			continue
		default:
			v.Field = apiPath(v.Field, itemIndex)
		}
		if !fe.Has(v.Field) {
			fe.Violations = append(fe.Violations, v)
		}
	}
	// The total is judged only when every item was resolved and is valid: a total computed
	// without the items that could not be read or found, or from a price or quantity that is
	// itself refused, is not the merchant's total, and reporting it would be untrue.
	if len(itemIndex) < len(in.Items) || itemViolated(fe) {
		return
	}
	for _, v := range total {
		if !fe.Has(v.Field) {
			fe.Violations = append(fe.Violations, v)
		}
	}
}

// sessionProbe is the transaction request the session's order would send, with stand-ins for
// what the shopper may still fill in (standIns names their fields, whose violations are not
// the merchant's).
func sessionProbe(sess *CheckoutSession) (req gatewayclient.CreateTransactionRequest, standIns map[string]bool) {
	c := sess.Customer
	standIns = map[string]bool{}
	if c.Name == "" {
		c.Name, standIns["customer.name"] = standInName, true
	}
	if c.Document == "" {
		c.Document, standIns["customer.document"] = standInDocument, true
	}
	req = gatewayclient.CreateTransactionRequest{
		Amount:         sess.Amount,
		PaymentMethod:  gatewayclient.PaymentMethodPIX,
		ExternalCode:   sess.ExternalCode,
		IdempotencyKey: "session-validation",
		Customer:       &gatewayclient.Customer{Name: c.Name, Document: c.Document, Email: c.Email, MobilePhone: c.Phone},
		IsInfoProduct:  gatewayclient.Ptr(true), // a partial address prefill is completed by the shopper
		Pix:            &gatewayclient.PixRequest{},
	}
	if a := sess.Address; a != nil {
		// Only the fields given are checked: stand in for the others with valid values.
		full := gatewayclient.Address{ZipCode: or(a.ZipCode, "01310-100"), Street: or(a.Street, "Rua"),
			Number: or(a.Number, "1"), Complement: a.Complement, Neighborhood: or(a.Neighborhood, "Centro"),
			City: or(a.City, "Cidade"), State: or(a.State, "SP"), Country: or(a.Country, "BR")}
		req.Address = &full
	}
	for _, l := range sess.Lines {
		req.Items = append(req.Items, gatewayclient.Item{Title: l.Title, Description: l.Description,
			UnitPrice: l.UnitPrice, Quantity: gatewayclient.Ptr(l.Quantity)})
	}
	if sess.Shipping > 0 {
		req.Items = append(req.Items, gatewayclient.Item{Title: ShippingItemTitle, UnitPrice: sess.Shipping, Quantity: gatewayclient.Ptr(1)})
	}
	return req, standIns
}

// itemViolated reports whether any item of a session request has a violation of its own.
func itemViolated(fe *ValidationError) bool {
	for _, v := range fe.Violations {
		if strings.HasPrefix(v.Field, "items[") {
			return true
		}
	}
	return false
}

// apiPath renames a gateway request path to the API's: address.* is under customer, the
// mobile phone is customer.phone, items keep the index the merchant sent.
func apiPath(p string, itemIndex []int) string {
	switch {
	case p == "customer.mobilePhone":
		return "customer.phone"
	case strings.HasPrefix(p, "address"):
		return "customer." + p
	case strings.HasPrefix(p, "items["):
		var i int
		var rest string
		if n, _ := fmt.Sscanf(p, "items[%d]", &i); n == 1 {
			rest = p[strings.IndexByte(p, ']')+1:]
			if i < len(itemIndex) {
				i = itemIndex[i]
			}
			return fmt.Sprintf("items[%d]%s", i, rest)
		}
	}
	return p
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// checkMetadata checks the merchant's metadata: at most MaxMetadataKeys keys of 1 to
// MaxMetadataKeyLength characters, values of at most MaxMetadataValueLength.
func checkMetadata(add addViolation, m map[string]string) {
	if len(m) > MaxMetadataKeys {
		add("metadata", gatewayclient.CodeMax, fmt.Sprintf("at most %d keys", MaxMetadataKeys))
		return
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if n := utf8.RuneCountInString(k); n == 0 || n > MaxMetadataKeyLength || !utf8.ValidString(k) {
			add("metadata", gatewayclient.CodeFormat, fmt.Sprintf("keys have 1 to %d characters", MaxMetadataKeyLength))
			continue
		}
		if v := m[k]; utf8.RuneCountInString(v) > MaxMetadataValueLength || !utf8.ValidString(v) {
			add("metadata."+k, gatewayclient.CodeMaxLength, fmt.Sprintf("must have at most %d characters", MaxMetadataValueLength))
		}
	}
}

// CheckOrigin checks a web origin (scheme://host[:port]) fit for a CSP frame-ancestors source
// and for postMessage: http or https, ASCII, no path, query, fragment, user information or
// wildcard, nothing that could end the directive.
func CheckOrigin(o string) error { return checkOrigin(o, false) }

// CheckFrameAncestor checks a frame-ancestors source written in the configuration: an origin
// as CheckOrigin wants it, where a trailing slash and a wildcard for the host's first labels
// (https://*.example.com, as CSP allows) are also accepted. It is never used for postMessage,
// whose target must be one exact origin.
func CheckFrameAncestor(o string) error { return checkOrigin(o, true) }

func checkOrigin(o string, source bool) error {
	bad := errors.New("must be an origin such as https://shop.example.com")
	if strings.ContainsAny(o, ";,'\" ") || (!source && strings.Contains(o, "*")) {
		return bad
	}
	// Browsers drop a whole CSP directive that holds a non-ASCII token: frame-ancestors would
	// then be gone and any site could frame the pages.
	if o != "" && !printableASCII(o) {
		return errors.New("must be ASCII (write an international domain in its xn-- form)")
	}
	u, ok := parseOrigin(o)
	switch {
	case !ok || !source && u.Path != "" || source && strings.Trim(u.Path, "/") != "":
		return bad
	case source && !wildcardOK(u.Host):
		return errors.New("a wildcard may only stand for the host's first labels, as in https://*.example.com")
	}
	return nil
}

// parseOrigin parses an http(s) URL with a host and neither user information, a query nor a
// fragment (not even an empty one).
func parseOrigin(o string) (*url.URL, bool) {
	u, err := url.Parse(o)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, false
	}
	return u, u.User == nil && u.RawQuery == "" && u.Fragment == "" && !strings.HasSuffix(o, "?") && !strings.HasSuffix(o, "#")
}

// wildcardOK reports whether host has a wildcard only for its first labels ("*.example.com"),
// or none.
func wildcardOK(host string) bool {
	host = strings.TrimPrefix(host, "*.")
	return !strings.Contains(host, "*") && host != ""
}

// checkShopperURL checks a URL the shopper is sent to (successUrl, cancelUrl): the gateway's
// URL rules (https, a public host name with a TLD, no user information), a fragment allowed;
// or http(s) on a loopback host, for a merchant developing on their machine.
func checkShopperURL(raw string) error {
	if len(raw) > maxSessionURLLength {
		return fmt.Errorf("must have at most %d characters", maxSessionURLLength)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return errors.New("must be a valid URL")
	}
	if (u.Scheme == "http" || u.Scheme == "https") && u.User == nil && isLoopback(u.Hostname()) {
		return nil
	}
	noFragment, _, _ := strings.Cut(raw, "#")
	req := gatewayclient.CreateTransactionRequest{WebhookURL: noFragment}
	var ve *gatewayclient.ValidationError
	if err := req.Validate(); errors.As(err, &ve) {
		for _, v := range ve.For("webhookUrl") {
			return errors.New(v.Message)
		}
	}
	return nil
}

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	a, err := netip.ParseAddr(host)
	return err == nil && a.IsLoopback()
}

func printableASCII(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

// apiFieldError is one violation of one field of an API request.
func apiFieldError(field, code, msg string) *ValidationError {
	fe := &ValidationError{}
	fe.Add(field, code, msg)
	return fe
}

// CheckoutSession returns a checkout session, or ErrNotFound.
func (s *Service) CheckoutSession(ctx context.Context, id string) (*CheckoutSession, error) {
	sess, err := s.store.CheckoutSession(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("checkout: session: %w", err)
	}
	return sess, nil
}

// SessionOrder returns the order of a session, or nil when the shopper has not placed it yet.
func (s *Service) SessionOrder(ctx context.Context, sessionID string) (*Order, error) {
	os, err := s.store.Orders(ctx, OrderFilter{SessionID: sessionID, Limit: 1})
	if err != nil {
		return nil, fmt.Errorf("checkout: the order of a session: %w", err)
	}
	if len(os) == 0 {
		return nil, nil
	}
	return os[0], nil
}

// SessionStatus is the state of a session as the API shows it: SessionOpen or SessionExpired
// before an order exists, the order's state afterwards.
func SessionStatus(sess *CheckoutSession, o *Order, now time.Time) string {
	switch {
	case o != nil:
		return string(o.Status)
	case !sess.Open(now):
		return SessionExpired
	}
	return SessionOpen
}

// States of a session without an order.
const (
	SessionOpen    = "open"
	SessionExpired = "expired"
)
