package checkout

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"strings"
	"time"

	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// A payment link is a stored, reusable checkout recipe with a short public URL (/l/{slug}):
// what is paid (catalogue products or ad-hoc items, one fixed amount with a description, or an
// amount the payer types within bounds), whether an address is asked, an optional expiry and
// maximum number of payments, active or not. Every payment is an order of its own, tagged with
// the link (Order.LinkID), placed and paid through the usual customer form and PIX page.
//
// A link with a maximum number of payments holds a place for each order while its QR code may
// be paid (LinkStore.HoldLinkPlace): taken when the QR code is made, over when it expires or
// the order leaves pending and awaiting_payment; no QR code is made without a place. Since the
// gateway cannot cancel a QR code, one paid after its place was given to another shopper still
// pays its order: the order is a late payment with a refund due (settleLinkCap), as an order
// paid twice is.

// Kinds of payment link: what the payer pays.
const (
	LinkItems  = "items"  // catalogue products or ad-hoc items, as a checkout session's
	LinkFixed  = "fixed"  // one amount with a description
	LinkCustom = "custom" // an amount the payer types, within optional bounds
)

// Limits of a payment link.
const (
	// A link's title and description become its order's item's (the gateway's 2 to 150 and
	// 2 to 255 characters).
	MinLinkTitleLength       = 2
	MaxLinkTitleLength       = 120
	MinLinkDescriptionLength = 2
	MaxLinkDescriptionLength = 255
	MaxLinkPayments          = 1000000
	minSlugLength            = 3
	maxSlugLength            = 64
	generatedSlugLength      = 8
	// linkHoldGrace is added to a QR code's lifetime for its place: the gateway's clock and the
	// answer's travel make the code's real expiry a little later than the request's.
	linkHoldGrace      = 30 * time.Second
	linkRequestKeyPart = "link:"
)

// Errors of payment links.
var (
	// ErrLinkClosed: the link is inactive or expired; it takes no new order.
	ErrLinkClosed = &Error{Code: CodeConflict, Message: "the payment link is no longer active"}
	// ErrLinkFull: every place of a link with a maximum number of payments is paid or held by
	// a QR code that may still be paid.
	ErrLinkFull = &Error{Code: CodeConflict, Message: "the payment link has no payment left"}
	// ErrSlugTaken: another link has that slug.
	ErrSlugTaken = &Error{Code: CodeConflict, Message: "another payment link has this slug"}
)

// PaymentLink is a payment link.
type PaymentLink struct {
	ID             string
	Slug           string // the public URL's last part: /l/{slug}; unique
	IdempotencyKey string // the merchant's Idempotency-Key ("" when none was sent); unique
	RequestHash    string // digest of the creation request, to tell a replay from another request
	Title          string
	Description    string // a fixed or typed amount's description ("" none)
	Kind           string // LinkItems, LinkFixed or LinkCustom
	Lines          []OrderLine
	Amount         gatewayclient.Cents // the total of the lines; 0 for LinkCustom
	// MinAmount and MaxAmount bound the amount typed (LinkCustom); 0: the gateway's own bound.
	MinAmount, MaxAmount gatewayclient.Cents
	RequireAddress       bool
	// AskEmail and AskPhone: the form asks the payer's e-mail and mobile phone (name and
	// document it always asks: the gateway needs them).
	AskEmail, AskPhone   bool
	MaxPayments          int       // 0: no maximum
	ExpiresAt            time.Time // zero: never
	Active               bool
	CreatedAt, UpdatedAt time.Time
}

// Open reports whether the link takes new orders at now: active and not expired.
func (l *PaymentLink) Open(now time.Time) bool {
	return l.Active && (l.ExpiresAt.IsZero() || now.Before(l.ExpiresAt))
}

// Expired reports whether the link's expiry has passed at now.
func (l *PaymentLink) Expired(now time.Time) bool {
	return !l.ExpiresAt.IsZero() && !now.Before(l.ExpiresAt)
}

// Physical reports whether a payment of the link asks for the address.
func (l *PaymentLink) Physical() bool {
	if l.RequireAddress {
		return true
	}
	for _, ln := range l.Lines {
		if ln.Physical {
			return true
		}
	}
	return false
}

// Optional customer fields a link's form may leave out.
const (
	LinkAskEmail = "email"
	LinkAskPhone = "phone"
)

// CustomerFields are the optional customer fields the link's form asks (LinkAskEmail,
// LinkAskPhone).
func (l *PaymentLink) CustomerFields() []string {
	out := []string{}
	if l.AskEmail {
		out = append(out, LinkAskEmail)
	}
	if l.AskPhone {
		out = append(out, LinkAskPhone)
	}
	return out
}

// NotAsked are the form fields (FieldEmail, FieldPhone) the link's form leaves out.
func (l *PaymentLink) NotAsked() []string {
	var out []string
	if !l.AskEmail {
		out = append(out, FieldEmail)
	}
	if !l.AskPhone {
		out = append(out, FieldPhone)
	}
	return out
}

// AmountBounds are the amounts a payer may type for a LinkCustom link: its own bounds, or the
// gateway's.
func (l *PaymentLink) AmountBounds() (lo, hi gatewayclient.Cents) {
	lo, hi = gatewayclient.MinAmount, gatewayclient.MaxAmount
	if l.MinAmount > 0 {
		lo = l.MinAmount
	}
	if l.MaxAmount > 0 {
		hi = l.MaxAmount
	}
	return lo, hi
}

// LinkStats are the payments of a link: the orders paid through it and their total.
type LinkStats struct {
	Payments int
	Received gatewayclient.Cents
}

// LinkStore keeps payment links and the places held on them (a part of Store).
type LinkStore interface {
	// CreateLink stores l, unless a link with its IdempotencyKey exists: then it stores nothing
	// and returns that link with created false. A slug another link has is ErrSlugTaken.
	CreateLink(ctx context.Context, l *PaymentLink) (stored *PaymentLink, created bool, err error)
	// Link returns a link by id, LinkBySlug by slug, LinkByIdempotencyKey by the key that made
	// it; ErrNotFound when none.
	Link(ctx context.Context, id string) (*PaymentLink, error)
	LinkBySlug(ctx context.Context, slug string) (*PaymentLink, error)
	LinkByIdempotencyKey(ctx context.Context, key string) (*PaymentLink, error)
	// Links lists every link, newest first.
	Links(ctx context.Context) ([]PaymentLink, error)
	// UpdateLink stores the changeable part of l (everything but its id, idempotency key and
	// creation time). ErrNotFound, or ErrSlugTaken.
	UpdateLink(ctx context.Context, l *PaymentLink) error
	// HoldLinkPlace holds a place of link linkID for the order of request key orderKey
	// (Order.RequestKey) until until, when fewer than max places are taken at now, and reports
	// whether it did. A place is taken by an order of the link that was paid (or is under
	// review, refunding, refunded), and by a hold whose until is after now, of an order not yet
	// stored, or pending, awaiting payment or expired (not failed, not paid). The order's own
	// hold does not count and is replaced (the same form sent again, a new QR code).
	// Concurrent calls, from any process, never hold more than max places.
	HoldLinkPlace(ctx context.Context, linkID, orderKey string, until, now time.Time, max int) (bool, error)
	// ReleaseLinkPlace gives up the hold of the order of request key orderKey, if any.
	ReleaseLinkPlace(ctx context.Context, orderKey string) error
	// LinkStats returns the payments of the links ids (links without any are absent).
	LinkStats(ctx context.Context, ids []string) (map[string]LinkStats, error)
}

// CustomAmount asks the payer to type the amount, within optional bounds (cents; 0: none).
type CustomAmount struct {
	Min gatewayclient.Cents `json:"min,omitempty"`
	Max gatewayclient.Cents `json:"max,omitempty"`
}

// LinkInput is a payment link as the merchant writes it (the API's JSON, the dashboard's form).
// Exactly one of Items, Amount (with Description) and CustomAmount says what is paid. Field
// paths in its errors are those of the JSON.
type LinkInput struct {
	// ReadErrors are the violations found while reading the request; the link is refused with
	// them and every other violation, reported at once.
	ReadErrors     *ValidationError      `json:"-"`
	IdempotencyKey string                `json:"-"`
	Title          string                `json:"title"`
	Items          []CheckoutSessionItem `json:"items,omitempty"`
	Amount         gatewayclient.Cents   `json:"amount,omitempty"`
	Description    string                `json:"description,omitempty"`
	CustomAmount   *CustomAmount         `json:"customAmount,omitempty"`
	Slug           string                `json:"slug,omitempty"`
	MaxPayments    int                   `json:"maxPayments,omitempty"`
	ExpiresAt      *time.Time            `json:"expiresAt,omitempty"`
	RequireAddress bool                  `json:"requireAddress,omitempty"`
	Active         *bool                 `json:"active,omitempty"`
	// CustomerFields are the optional customer fields asked (LinkAskEmail, LinkAskPhone);
	// nil: both.
	CustomerFields []string `json:"customerFields,omitempty"`
}

// hash is the digest of the request, the same for the same request.
func (in LinkInput) hash() string {
	b, _ := json.Marshal(in) // plain types: never fails, deterministic
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// Input returns the link as the input that makes it: the start of a change (UpdateLink), or
// of a copy.
func (l *PaymentLink) Input() LinkInput {
	in := LinkInput{Title: l.Title, Slug: l.Slug, MaxPayments: l.MaxPayments, RequireAddress: l.RequireAddress,
		Active: &l.Active, CustomerFields: l.CustomerFields()}
	if !l.ExpiresAt.IsZero() {
		t := l.ExpiresAt
		in.ExpiresAt = &t
	}
	switch l.Kind {
	case LinkFixed:
		in.Amount, in.Description = l.Amount, l.Description
	case LinkCustom:
		in.CustomAmount, in.Description = &CustomAmount{Min: l.MinAmount, Max: l.MaxAmount}, l.Description
	default:
		for _, ln := range l.Lines {
			if ln.ProductID != "" {
				in.Items = append(in.Items, CheckoutSessionItem{ProductID: ln.ProductID, Quantity: ln.Quantity})
				continue
			}
			typ := ItemDigital
			if ln.Physical {
				typ = ItemPhysical
			}
			in.Items = append(in.Items, CheckoutSessionItem{Title: ln.Title, Description: ln.Description,
				UnitPrice: ln.UnitPrice, Quantity: ln.Quantity, Type: typ})
		}
	}
	return in
}

// PaymentLinks is the payment links' part of the Service: making, changing and listing them,
// and counting their payments. Placing an order through a link (holding its place, settling
// its cap) belongs to the orders, since placing an order uses it.
type PaymentLinks struct {
	store LinkStore
	now   func() time.Time
	newID func() string
	log   *slog.Logger
	// itemLines reads a link's items as a checkout session's: the catalogue's products and
	// prices (Service.itemLines).
	itemLines func(ctx context.Context, fe *ValidationError, items []CheckoutSessionItem) ([]OrderLine, gatewayclient.Cents, []int)
}

// CreateLink makes a payment link, or returns the one made before with the same
// Idempotency-Key and request (created false); the same key with another request is
// CodeIdempotencyReused. Every rule is checked at once; violations come back as a *ValidationError
// naming the JSON fields. A generated slug is made when none is given.
func (p *PaymentLinks) CreateLink(ctx context.Context, in LinkInput) (*PaymentLink, bool, error) {
	hash := in.hash()
	return createOnce(ctx, in.IdempotencyKey, hash, p.store.LinkByIdempotencyKey, func() (*PaymentLink, bool, error) {
		now := p.now().UTC()
		l, err := p.checkLink(ctx, in, nil, now)
		if err != nil {
			return nil, false, err
		}
		l.ID, l.IdempotencyKey, l.RequestHash, l.CreatedAt, l.UpdatedAt = p.newID(), in.IdempotencyKey, hash, now, now
		chosen := l.Slug != ""
		for range 5 {
			if !chosen {
				l.Slug = newSlug()
			}
			stored, created, err := p.store.CreateLink(ctx, l)
			switch {
			case errors.Is(err, ErrSlugTaken) && chosen:
				return nil, false, apiFieldError("slug", "taken", "another payment link has this slug")
			case errors.Is(err, ErrSlugTaken):
				continue // a generated slug met another: make another
			case err != nil:
				return nil, false, fmt.Errorf("checkout: storing the payment link: %w", err)
			case created:
				p.log.InfoContext(ctx, "payment link created", "link", stored.ID, "kind", stored.Kind)
			}
			return stored, created, nil
		}
		return nil, false, errors.New("checkout: no free slug found for the payment link")
	})
}

// requestDigest is the digest of the request that made the link (createOnce).
func (l *PaymentLink) requestDigest() string { return l.RequestHash }

// UpdateLink changes link id: fn changes its input (see PaymentLink.Input), which is checked
// whole as at creation, except that an expiry already past may stay as it is (a link that
// expired may still be deactivated or renamed).
func (p *PaymentLinks) UpdateLink(ctx context.Context, id string, fn func(in *LinkInput)) (*PaymentLink, error) {
	prev, err := p.Link(ctx, id)
	if err != nil {
		return nil, err
	}
	in := prev.Input()
	fn(&in)
	l, err := p.checkLink(ctx, in, prev, p.now().UTC())
	if err != nil {
		return nil, err
	}
	if l.Slug == "" {
		l.Slug = prev.Slug
	}
	l.ID, l.IdempotencyKey, l.RequestHash, l.CreatedAt, l.UpdatedAt = prev.ID, prev.IdempotencyKey, prev.RequestHash,
		prev.CreatedAt, p.now().UTC()
	switch err := p.store.UpdateLink(ctx, l); {
	case errors.Is(err, ErrSlugTaken):
		return nil, apiFieldError("slug", "taken", "another payment link has this slug")
	case err != nil:
		return nil, fmt.Errorf("checkout: updating the payment link: %w", err)
	}
	return l, nil
}

// Link returns a payment link by id, or ErrNotFound.
func (p *PaymentLinks) Link(ctx context.Context, id string) (*PaymentLink, error) {
	l, err := p.store.Link(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("checkout: payment link: %w", err)
	}
	return l, nil
}

// LinkBySlug returns a payment link by its slug (active or not), or ErrNotFound.
func (p *PaymentLinks) LinkBySlug(ctx context.Context, slug string) (*PaymentLink, error) {
	if !validSlug(slug) {
		return nil, fmt.Errorf("checkout: payment link: %w", ErrNotFound)
	}
	l, err := p.store.LinkBySlug(ctx, slug)
	if err != nil {
		return nil, fmt.Errorf("checkout: payment link: %w", err)
	}
	return l, nil
}

// Links lists the payment links, newest first.
func (p *PaymentLinks) Links(ctx context.Context) ([]PaymentLink, error) {
	list, err := p.store.Links(ctx)
	if err != nil {
		return nil, fmt.Errorf("checkout: listing payment links: %w", err)
	}
	return list, nil
}

// LinkStats returns the payments of the links ids.
func (p *PaymentLinks) LinkStats(ctx context.Context, ids ...string) (map[string]LinkStats, error) {
	st, err := p.store.LinkStats(ctx, ids)
	if err != nil {
		return nil, fmt.Errorf("checkout: payments of payment links: %w", err)
	}
	return st, nil
}

var slugPattern = regexp.MustCompile(`^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$`)

func validSlug(s string) bool {
	return len(s) >= minSlugLength && len(s) <= maxSlugLength && slugPattern.MatchString(s)
}

// slugAlphabet has no letters or digits that read alike (0/o, 1/l/i): a slug is read aloud
// and typed from a poster.
const slugAlphabet = "abcdefghjkmnpqrstuvwxyz23456789"

func newSlug() string {
	var b [generatedSlugLength]byte
	_, _ = rand.Read(b[:])
	for i := range b {
		b[i] = slugAlphabet[int(b[i])%len(slugAlphabet)]
	}
	return string(b[:])
}

// checkLink checks in and builds the link (no id, not stored). prev is the link being
// changed, nil for a new one.
func (p *PaymentLinks) checkLink(ctx context.Context, in LinkInput, prev *PaymentLink, now time.Time) (*PaymentLink, error) {
	fe, add := requestErrors(in.ReadErrors)
	checkTexts(fe, linkTexts(in)...)
	l := &PaymentLink{Title: strings.Join(strings.Fields(in.Title), " "), Description: strings.TrimSpace(in.Description),
		Slug: in.Slug, RequireAddress: in.RequireAddress, MaxPayments: in.MaxPayments,
		Active: in.Active == nil || *in.Active}
	checkLength(fe, "title", l.Title, MinLinkTitleLength, MaxLinkTitleLength)
	if l.Description != "" {
		checkLength(fe, "description", l.Description, MinLinkDescriptionLength, MaxLinkDescriptionLength)
	}
	if l.Slug != "" && !validSlug(l.Slug) {
		add("slug", gatewayclient.CodeFormat, fmt.Sprintf("must have %d to %d lower-case letters, digits and inner hyphens",
			minSlugLength, maxSlugLength))
	}
	l.AskEmail, l.AskPhone = linkAsks(add, in.CustomerFields)
	if l.MaxPayments < 0 || l.MaxPayments > MaxLinkPayments {
		add("maxPayments", gatewayclient.CodeMax, fmt.Sprintf("must be 0 (no maximum) to %d", MaxLinkPayments))
	}
	if in.ExpiresAt != nil && !in.ExpiresAt.IsZero() {
		l.ExpiresAt = in.ExpiresAt.UTC().Truncate(time.Millisecond)
		// An expiry already past may stay as it is: a link that expired may still change.
		if unchanged := prev != nil && prev.ExpiresAt.Equal(l.ExpiresAt); !unchanged && !l.ExpiresAt.After(now) {
			add("expiresAt", gatewayclient.CodeMin, "must be in the future")
		}
	}
	p.checkLinkKind(ctx, fe, add, l, in, now)
	if err := fe.OrNil(); err != nil {
		return nil, err
	}
	return l, nil
}

// linkTexts are the texts of a link's request, by their JSON path, for CheckText.
func linkTexts(in LinkInput) []textField {
	t := func(path, v string) textField { return textField{path, v} }
	texts := []textField{t("title", in.Title), t("description", in.Description), t("slug", in.Slug)}
	for i, it := range in.Items {
		p := fmt.Sprintf("items[%d]", i)
		texts = append(texts, t(p+".productId", string(it.ProductID)), t(p+".title", it.Title),
			t(p+".description", it.Description), t(p+".type", it.Type))
	}
	return texts
}

// linkAsks reads which optional customer fields a link's form asks (nil: both).
func linkAsks(add addViolation, fields []string) (email, phone bool) {
	if fields == nil {
		return true, true
	}
	for i, f := range fields {
		path := fmt.Sprintf("customerFields[%d]", i)
		switch {
		case f == LinkAskEmail && !email:
			email = true
		case f == LinkAskPhone && !phone:
			phone = true
		case f == LinkAskEmail || f == LinkAskPhone:
			add(path, CodeDuplicate, "is listed twice")
		default:
			add(path, gatewayclient.CodeEnum, "must be one of: email, phone")
		}
	}
	return email, phone
}

// checkLinkKind checks what link l sells: exactly one of items, a fixed amount or an amount
// the payer types (within bounds, when given); it sets the kind, lines and amount.
func (p *PaymentLinks) checkLinkKind(ctx context.Context, fe *ValidationError, add addViolation, l *PaymentLink, in LinkInput, now time.Time) {
	kinds := 0
	for _, set := range []bool{len(in.Items) > 0, in.Amount != 0, in.CustomAmount != nil} {
		if set {
			kinds++
		}
	}
	switch {
	case kinds != 1:
		add("amount", gatewayclient.CodeRequired, "give exactly one of items, amount (with description) or customAmount")
	case len(in.Items) > 0:
		l.Kind = LinkItems
		p.checkLinkItems(ctx, fe, l, in, now)
	case in.Amount != 0:
		l.Kind = LinkFixed
		checkLinkAmount(add, "amount", in.Amount, gatewayclient.MinAmount, gatewayclient.MaxAmount)
		l.Lines = []OrderLine{{Title: l.Title, Description: l.Description, UnitPrice: in.Amount, Quantity: 1,
			Physical: l.RequireAddress}}
		l.Amount = in.Amount
	default:
		l.Kind = LinkCustom
		l.MinAmount, l.MaxAmount = in.CustomAmount.Min, in.CustomAmount.Max
		for field, c := range map[string]gatewayclient.Cents{"customAmount.min": l.MinAmount, "customAmount.max": l.MaxAmount} {
			if c != 0 {
				checkLinkAmount(add, field, c, gatewayclient.MinAmount, gatewayclient.MaxAmount)
			}
		}
		if l.MinAmount > 0 && l.MaxAmount > 0 && l.MinAmount > l.MaxAmount {
			add("customAmount.min", gatewayclient.CodeMax, "must not be above customAmount.max")
		}
	}
}

// checkLinkAmount adds a violation of field when c is outside lo..hi.
func checkLinkAmount(add addViolation, field string, c, lo, hi gatewayclient.Cents) {
	switch {
	case c < lo:
		add(field, gatewayclient.CodeMin, fmt.Sprintf("must be at least %d cents", int64(lo)))
	case c > hi:
		add(field, gatewayclient.CodeMax, fmt.Sprintf("must be at most %d cents", int64(hi)))
	}
}

// checkLinkItems checks a link's items as a checkout session's (the same rules, the gateway's
// on their total too) and sets its lines and amount.
func (p *PaymentLinks) checkLinkItems(ctx context.Context, fe *ValidationError, l *PaymentLink, in LinkInput, now time.Time) {
	lines, amount, itemIndex := p.itemLines(ctx, fe, in.Items)
	for i := range lines {
		lines[i].Physical = lines[i].Physical || l.RequireAddress
	}
	checkSessionRequest(fe, &CheckoutSession{Lines: lines, Amount: amount}, CreateCheckoutSessionInput{Items: in.Items}, itemIndex, now)
	l.Lines, l.Amount = lines, amount
}

// CheckLinkAmount checks an amount a payer typed for link l: within its bounds (its own, or
// the gateway's). The violation names FieldLinkAmount.
func CheckLinkAmount(l *PaymentLink, c gatewayclient.Cents) error {
	fe := &ValidationError{}
	lo, hi := l.AmountBounds()
	checkLinkAmount(func(field, code, msg string) {
		fe.Add(field, code, msg)
	}, FieldLinkAmount, c, lo, hi)
	if err := fe.OrNil(); err != nil {
		return err
	}
	return nil
}

// FieldLinkAmount names the amount a payer types on a link's page in its violation (not
// "amount", the gateway's path of a transaction's total).
const FieldLinkAmount = "link_amount"

// holdLinkPlace holds a place of o's link for o while a QR code of lifetime exp seconds may be
// paid, when the link has a maximum of payments; ErrLinkFull when none is left.
func (s *Service) holdLinkPlace(ctx context.Context, o *Order, exp int) error {
	if o.LinkID == "" {
		return nil
	}
	l, err := s.store.Link(ctx, o.LinkID)
	if err != nil {
		return fmt.Errorf("checkout: the payment link of order %s: %w", o.Number, err)
	}
	if l.MaxPayments == 0 {
		return nil
	}
	now := s.now().UTC()
	until := now.Add(time.Duration(exp)*time.Second + linkHoldGrace)
	ok, err := s.store.HoldLinkPlace(ctx, l.ID, o.RequestKey, until, now, l.MaxPayments)
	if err != nil {
		return fmt.Errorf("checkout: holding a place of payment link %s: %w", l.ID, err)
	}
	if !ok {
		return ErrLinkFull
	}
	return nil
}

// releaseLinkPlace gives up the hold taken for an order that could not be stored.
func (s *Service) releaseLinkPlace(ctx context.Context, o *Order) {
	if o.LinkID == "" {
		return
	}
	if err := s.store.ReleaseLinkPlace(ctx, o.RequestKey); err != nil {
		s.log.WarnContext(ctx, "releasing a payment link's place", "link", o.LinkID, "err", err)
	}
}

// settleLinkCap is called when order o of a link was just paid: when the link has a maximum of
// payments and o is beyond it (its QR code's place had gone to another payer when it was paid
// late), o is flagged a late payment with its amount as refund due, and a history note. The
// paid orders of the link are ranked on time payments first, then by payment time, so that
// every process ranks them alike.
func (s *Service) settleLinkCap(ctx context.Context, o *Order) error {
	if o.LinkID == "" {
		return nil
	}
	l, err := s.store.Link(ctx, o.LinkID)
	if err != nil || l.MaxPayments == 0 {
		return err
	}
	paid, err := s.store.Orders(ctx, OrderFilter{LinkID: l.ID, Statuses: linkPlaceStatuses})
	if err != nil {
		return fmt.Errorf("checkout: paid orders of payment link %s: %w", l.ID, err)
	}
	if len(paid) <= l.MaxPayments {
		return nil
	}
	rank := func(a *Order) (bool, time.Time, string) { return a.LatePayment, a.PaidAt, a.ID }
	before := func(a, b *Order) bool {
		la, ta, ia := rank(a)
		lb, tb, ib := rank(b)
		if la != lb {
			return !la
		}
		if !ta.Equal(tb) {
			return ta.Before(tb)
		}
		return ia < ib
	}
	ahead := 0
	for _, p := range paid {
		if p.ID != o.ID && before(p, o) {
			ahead++
		}
	}
	if ahead < l.MaxPayments {
		return nil
	}
	_, _, err = s.update(ctx, o.ID, func(o *Order) (bool, error) {
		for _, h := range o.History {
			if h.Reason.Code == ReasonLinkBeyondCap {
				return false, nil
			}
		}
		now := s.now().UTC()
		o.LatePayment = true
		o.RefundDue += o.Amount
		o.History = append(o.History, StatusChange{From: o.Status, To: o.Status, At: now,
			Reason: Reason{Code: ReasonLinkBeyondCap, Paid: o.Amount}})
		return true, nil
	})
	if err != nil {
		return fmt.Errorf("checkout: settling order %s beyond its link's maximum: %w", o.Number, err)
	}
	s.log.WarnContext(ctx, "payment beyond the payment link's maximum: a refund is due", "number", o.Number, "link", l.ID)
	return nil
}

// linkPlaceStatuses are the states of an order that keep a place of its link for good.
var linkPlaceStatuses = []OrderStatus{StatusPaid, StatusUnderReview, StatusRefunding, StatusRefunded}

// LinkPlaceStatuses are the states of an order that keep a place of its link for good (paid,
// or past paid); the stores count them.
func LinkPlaceStatuses() []OrderStatus { return append([]OrderStatus(nil), linkPlaceStatuses...) }
