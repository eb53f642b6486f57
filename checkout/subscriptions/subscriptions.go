package subscriptions

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/audit"
	"github.com/pixcheckout/pixcheckout/checkout/charges"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/brdoc"
)

// Status is where a subscription is: active (issuing), paused (issuing nothing until resumed),
// canceled by the merchant, or ended (its schedule has nothing left). Canceled and ended are
// final.
type Status string

// The statuses of a subscription, as the API says them.
const (
	StatusActive   Status = "active"
	StatusPaused   Status = "paused"
	StatusCanceled Status = "canceled"
	StatusEnded    Status = "ended"
)

// Statuses lists every status: the stores' constraint and the filters.
func Statuses() []Status { return []Status{StatusActive, StatusPaused, StatusCanceled, StatusEnded} }

// Final reports whether nothing moves a subscription in s any more.
func (s Status) Final() bool { return s == StatusCanceled || s == StatusEnded }

// DefaultLeadDays is how many days before its due date a period's charge is issued when the
// merchant did not set it: time for the customer to be reminded and pay.
const DefaultLeadDays = 10

// MaxLeadDays bounds the merchant's setting.
const MaxLeadDays = 60

// Subscription bills a customer the same amount on a schedule ("assinatura").
type Subscription struct {
	ID          string
	Customer    charges.Customer
	Description string
	// Terms are each charge's: the amount (a change applies to the charges not issued yet),
	// the fine, the interest and the discount (Bps or Amount); Due and Discount.Until are
	// each period's, so zero here.
	Terms charges.Terms
	// DiscountDays: the discount holds until this many days before each due date.
	DiscountDays int
	Schedule     Schedule
	ExternalCode string
	Status       Status
	// NextPeriod is the period to issue next (0 the first) and NextDue the due date the
	// schedule gives it (zero once the schedule has nothing left); Issued counts the charges
	// issued (periods skipped while paused are not).
	NextPeriod int
	NextDue    Date
	Issued     int
	CreatedAt  time.Time
	UpdatedAt  time.Time
	Version    int // counts its changes (1 when created); a change is stored over the version read
	// IdempotencyKey and RequestHash: as charges.Charge's.
	IdempotencyKey, RequestHash string
}

// TermsFor are the terms of the charge of a period due on due and issued on today: the
// subscription's with the discount until DiscountDays before due (today at the earliest, and
// none when that leaves no day before the due date).
func (s *Subscription) TermsFor(due, today Date) charges.Terms {
	t := s.Terms
	t.Due = due
	if t.Discount.IsZero() {
		return t
	}
	until := charges.AddDays(due, -s.DiscountDays)
	if charges.DaysBetween(today, until) < 0 {
		until = today
	}
	if charges.DaysBetween(until, due) < 1 {
		t.Discount = charges.Discount{}
		return t
	}
	t.Discount.Until = until
	return t
}

// Filter selects subscriptions, newest first, a page at a time (as charges.Filter).
type Filter struct {
	Status []Status // none: any
	// Search: the customer's name or e-mail, the external code or the id holds it (case
	// aside), or the customer's document holds its digits.
	Search       string
	AfterCreated time.Time
	AfterID      string
	Backward     bool
	Limit        int
}

// Store keeps subscriptions. Implementations must pass checkout/storetest.RunSubscriptions.
type Store interface {
	// CreateSubscription stores a new subscription (Version 1).
	CreateSubscription(ctx context.Context, s Subscription) error
	// Subscription returns the subscription with that id, or checkout.ErrNotFound.
	Subscription(ctx context.Context, id string) (Subscription, error)
	// UpdateSubscription stores s over version s.Version−1, or answers checkout.ErrConflict
	// (changed since read) or checkout.ErrNotFound.
	UpdateSubscription(ctx context.Context, s Subscription) error
	// ListSubscriptions returns the subscriptions f selects, newest first.
	ListSubscriptions(ctx context.Context, f Filter) ([]Subscription, error)
	// CountSubscriptions counts the subscriptions f selects, whatever its page, up to limit.
	CountSubscriptions(ctx context.Context, f Filter, limit int) (int, error)
	// SubscriptionByIdempotencyKey returns the subscription made with that Idempotency-Key,
	// with its IdempotencyKey and RequestHash, or checkout.ErrNotFound.
	SubscriptionByIdempotencyKey(ctx context.Context, key string) (Subscription, error)
	// SubscriptionsDue returns up to limit active subscriptions whose next due date is on or
	// before day, soonest first (by next due date, then id), after the one due afterDue with id
	// afterID ("": from the first).
	SubscriptionsDue(ctx context.Context, day, afterDue Date, afterID string, limit int) ([]Subscription, error)
	// SubjectSubscriptions returns the subscriptions m finds (their customer's document or
	// e-mail in clear, or their hashes once anonymised), newest first, with when each was
	// anonymised (zero: not).
	SubjectSubscriptions(ctx context.Context, m checkout.SubjectMatch) ([]SubjectSubscription, error)
	// AnonymiseSubscriptions anonymises those of the subscriptions ids that are canceled or
	// ended and not anonymised yet, and returns their ids.
	AnonymiseSubscriptions(ctx context.Context, ids []string, at time.Time, h *checkout.PersonalDataHasher) ([]string, error)
	// AnonymiseSubscriptionsDue anonymises, oldest change first, at most limit canceled or
	// ended subscriptions not anonymised yet that have not changed since before, in one short
	// transaction that skips those in use, and returns their ids.
	AnonymiseSubscriptionsDue(ctx context.Context, before, at time.Time, limit int, h *checkout.PersonalDataHasher) ([]string, error)
}

// Input is a new subscription as the dashboard or the API gives it.
type Input struct {
	Customer     charges.Customer
	Description  string
	Terms        charges.Terms // Due and Discount.Until are ignored
	DiscountDays int
	Schedule     Schedule
	ExternalCode string
}

// Manager makes subscriptions, changes them, and issues their charges through the charges'
// Manager (so that each is made, announced, audited and reminded as any charge).
type Manager struct {
	store   Store
	charges *charges.Manager
	audit   *audit.Log
	now     func() time.Time
	lead    func(context.Context) (int, error)
	pause   time.Duration
	workers int
}

// Option configures a Manager.
type Option func(*Manager)

// WithLeadDays reads how many days before its due date a charge is issued (the merchant's
// setting); without it, DefaultLeadDays.
func WithLeadDays(lead func(context.Context) (int, error)) Option {
	return func(m *Manager) { m.lead = lead }
}

// WithPause rests between two batches of issued charges, so that shoppers' writes go first
// while a day's thousands of charges are issued.
func WithPause(d time.Duration) Option { return func(m *Manager) { m.pause = d } }

// WithWorkers issues the charges of n subscriptions at once (1 when unset): worth it where
// writers run side by side (PostgreSQL), not where they take turns (SQLite's one writer, where
// more issuers would only take more turns from the shoppers).
func WithWorkers(n int) Option { return func(m *Manager) { m.workers = n } }

// NewManager returns a Manager on store issuing through ch; log may be nil (no audit), clock
// nil (time.Now).
func NewManager(store Store, ch *charges.Manager, log *audit.Log, clock func() time.Time, opts ...Option) *Manager {
	if clock == nil {
		clock = time.Now
	}
	m := &Manager{store: store, charges: ch, audit: log, now: clock}
	for _, o := range opts {
		o(m)
	}
	return m
}

// Errors of a change a subscription's status does not allow (code conflict: 409 in the API).
var (
	ErrFinal     = &checkout.Error{Code: checkout.CodeConflict, Message: "the subscription is canceled or ended"}
	ErrNotPaused = &checkout.Error{Code: checkout.CodeConflict, Message: "the subscription is not paused"}
	ErrNotActive = &checkout.Error{Code: checkout.CodeConflict, Message: "the subscription is not active"}
)

// Create checks in and stores it as an active subscription, made by actor from address; a bad
// input is a *charges.ValidationError naming each field.
func (m *Manager) Create(ctx context.Context, actor, address string, in Input) (Subscription, error) {
	s, _, err := m.CreateOnce(ctx, actor, address, "", in)
	return s, err
}

// CreateOnce is Create at most once per Idempotency-Key key ("" none), as charges.CreateOnce.
func (m *Manager) CreateOnce(ctx context.Context, actor, address, key string, in Input) (Subscription, bool, error) {
	hash := in.digest()
	return checkout.CreateOnce(ctx, key, hash, func(s Subscription) string { return s.RequestHash },
		m.store.SubscriptionByIdempotencyKey, func() (Subscription, bool, error) {
			s, err := m.create(ctx, actor, address, key, hash, in)
			if err != nil && key != "" && !errors.As(err, new(*charges.ValidationError)) {
				// A concurrent request with the same key may have stored its subscription first.
				if prev, ferr := m.store.SubscriptionByIdempotencyKey(ctx, key); ferr == nil {
					return prev, false, nil
				}
			}
			return s, err == nil, err
		})
}

// digest is the digest of a creation request: its input as given.
func (in Input) digest() string {
	sum := sha256.Sum256(fmt.Appendf(nil, "%#v", in))
	return hex.EncodeToString(sum[:])
}

func (m *Manager) create(ctx context.Context, actor, address, key, hash string, in Input) (Subscription, error) {
	today := charges.Today(m.now())
	if ve := in.Validate(today); ve != nil {
		return Subscription{}, ve
	}
	now := m.now().UTC()
	in.Terms.Due, in.Terms.Discount.Until = Date{}, Date{}
	s := Subscription{ID: checkout.NewID(), Customer: in.Customer, Description: strings.TrimSpace(in.Description),
		Terms: in.Terms, DiscountDays: in.DiscountDays, Schedule: in.Schedule, ExternalCode: strings.TrimSpace(in.ExternalCode),
		Status: StatusActive, NextDue: in.Schedule.Due(0), CreatedAt: now, UpdatedAt: now, Version: 1,
		IdempotencyKey: key, RequestHash: hash}
	s.Customer.Name, s.Customer.Email = strings.TrimSpace(s.Customer.Name), strings.TrimSpace(s.Customer.Email)
	// Kept as its characters, as a charge's, so that a data subject's request finds it.
	s.Customer.Document = brdoc.NormalizeDocument(s.Customer.Document)
	if err := m.store.CreateSubscription(ctx, s); err != nil {
		return Subscription{}, fmt.Errorf("subscriptions: creating a subscription: %w", err)
	}
	m.record(ctx, actor, address, audit.SubscriptionCreated, s.ID, "")
	s.IdempotencyKey, s.RequestHash = "", ""
	return s, nil
}

// Validate checks a new subscription on the day today: the customer, the description and the
// external code as a charge's, the terms as those of its first charge, the discount's days
// (discountDays) and the schedule.
func (in Input) Validate(today Date) *charges.ValidationError {
	ve := &charges.ValidationError{Kind: gatewayclient.KindValidation}
	if sv := in.Schedule.Validate(today); sv != nil {
		ve.Violations = append(ve.Violations, sv.Violations...)
	}
	first := today
	if !ve.Has("startDate") && !ve.Has("dayOfMonth") && !ve.Has("everyWeeks") {
		first = in.Schedule.Due(0)
	}
	ch := charges.Input{Customer: in.Customer, Description: in.Description, ExternalCode: in.ExternalCode,
		Terms: charges.Terms{Amount: in.Terms.Amount, Due: first, FineBps: in.Terms.FineBps,
			InterestBpsPerMonth: in.Terms.InterestBpsPerMonth}}
	if !in.Terms.Discount.IsZero() {
		ch.Terms.Discount = in.firstDiscount(ve, today, first)
	}
	if cve := ch.Validate(today); cve != nil {
		for _, v := range cve.Violations {
			if v.Field == "dueDate" || v.Field == "discount.until" || ve.Has(v.Field) {
				continue // the schedule's and the discount's days are checked above
			}
			ve.Violations = append(ve.Violations, v)
		}
	}
	if len([]rune(in.ExternalCode)) > MaxExternalCode && !ve.Has("externalCode") {
		ve.Add("externalCode", gatewayclient.CodeMaxLength, "must be at most 80 characters")
	}
	return ve.OrNil()
}

// firstDiscount is the discount of the first charge, due on first, for checking its amount
// (its day is each period's, DiscountDays before the due date, checked here).
func (in Input) firstDiscount(ve *charges.ValidationError, today, first Date) charges.Discount {
	d := in.Terms.Discount
	d.Until = charges.AddDays(first, -1)
	if charges.DaysBetween(today, d.Until) < 0 {
		d.Until = today
	}
	if in.DiscountDays < 1 || in.DiscountDays > 28 {
		ve.Add("discount.daysBefore", gatewayclient.CodeMax, "must be between 1 and 28 days before each due date")
	}
	return d
}

// MaxExternalCode bounds a subscription's external code: each of its charges' is the code and
// the period's due date.
const MaxExternalCode = 80

// Subscription returns the subscription with that id, or an error wrapping checkout.ErrNotFound.
func (m *Manager) Subscription(ctx context.Context, id string) (Subscription, error) {
	s, err := m.store.Subscription(ctx, id)
	if err != nil {
		return Subscription{}, fmt.Errorf("subscriptions: reading subscription %s: %w", id, err)
	}
	return s, nil
}

// List returns the subscriptions f selects, newest first, and how many match f whatever its
// page, counted up to limit.
func (m *Manager) List(ctx context.Context, f Filter, limit int) ([]Subscription, int, error) {
	list, err := m.store.ListSubscriptions(ctx, f)
	if err != nil {
		return nil, 0, fmt.Errorf("subscriptions: listing: %w", err)
	}
	n, err := m.store.CountSubscriptions(ctx, f, limit)
	if err != nil {
		return nil, 0, fmt.Errorf("subscriptions: counting: %w", err)
	}
	return list, n, nil
}

// Charges returns the charges a subscription issued, newest first, a page at a time (f's
// Subscription is set to id).
func (m *Manager) Charges(ctx context.Context, id string, f charges.Filter) ([]charges.Charge, int, error) {
	f.Subscription = id
	return m.charges.List(ctx, f, checkout.MaxCounted+1)
}

// Pause stops issuing until Resume; ErrNotActive unless active.
func (m *Manager) Pause(ctx context.Context, actor, address, id string) (Subscription, error) {
	return m.change(ctx, actor, address, id, audit.SubscriptionPaused, "", func(s *Subscription, _ Date) error {
		if s.Status != StatusActive {
			return ErrNotActive
		}
		s.Status = StatusPaused
		return nil
	})
}

// Resume issues again from the first period due today or later: the periods due while it was
// paused are skipped, never billed. ErrNotPaused unless paused.
func (m *Manager) Resume(ctx context.Context, actor, address, id string) (Subscription, error) {
	return m.change(ctx, actor, address, id, audit.SubscriptionResumed, "", func(s *Subscription, today Date) error {
		if s.Status != StatusPaused {
			return ErrNotPaused
		}
		s.Status = StatusActive
		for s.Status == StatusActive && charges.DaysBetween(today, s.NextDue) < 0 {
			s.advance(false)
		}
		return nil
	})
}

// Cancel ends the subscription: it issues nothing more (the charges it issued stay as they
// are; each may be canceled on its own). ErrFinal when canceled or ended already.
func (m *Manager) Cancel(ctx context.Context, actor, address, id string) (Subscription, error) {
	return m.change(ctx, actor, address, id, audit.SubscriptionCanceled, "", func(s *Subscription, _ Date) error {
		if s.Status.Final() {
			return ErrFinal
		}
		s.Status, s.NextDue = StatusCanceled, Date{}
		return nil
	})
}

// SetAmount changes the amount of the charges not issued yet (those issued keep theirs); a bad
// amount is a *charges.ValidationError naming "amount".
func (m *Manager) SetAmount(ctx context.Context, actor, address, id string, amount charges.Cents) (Subscription, error) {
	var before charges.Cents
	return m.change(ctx, actor, address, id, audit.SubscriptionChanged, "", func(s *Subscription, today Date) error {
		if s.Status.Final() {
			return ErrFinal
		}
		t := s.TermsFor(charges.AddDays(today, 1), today)
		t.Amount = amount
		if ve := t.Validate(today); ve != nil {
			ve.Violations = onlyField(ve.Violations, "amount")
			if err := ve.OrNil(); err != nil {
				return err
			}
		}
		before, s.Terms.Amount = s.Terms.Amount, amount
		return nil
	}, func() string { return fmt.Sprintf("amount %d -> %d", before, amount) })
}

// onlyField keeps the violations of field.
func onlyField(vs []gatewayclient.Violation, field string) []gatewayclient.Violation {
	var out []gatewayclient.Violation
	for _, v := range vs {
		if v.Field == field {
			out = append(out, v)
		}
	}
	return out
}

// advance moves s to its next period, counting the one it leaves as issued or not, and ends
// it when its schedule has nothing left.
func (s *Subscription) advance(issued bool) {
	if issued {
		s.Issued++
	}
	s.NextPeriod++
	s.NextDue = s.Schedule.Due(s.NextPeriod)
	if !s.Schedule.Within(s.Issued, s.NextDue) {
		s.Status, s.NextDue = StatusEnded, Date{}
	}
}

// change reads the subscription, applies fn and stores it, again from a fresh read when
// another change came first; the audit log records action with the detail details gives.
func (m *Manager) change(ctx context.Context, actor, address, id, action, detail string, fn func(*Subscription, Date) error,
	details ...func() string) (Subscription, error) {
	for range 5 {
		s, err := m.store.Subscription(ctx, id)
		if err != nil {
			return Subscription{}, fmt.Errorf("subscriptions: reading subscription %s: %w", id, err)
		}
		if err := fn(&s, charges.Today(m.now())); err != nil {
			return s, err
		}
		s.Version++
		s.UpdatedAt = m.now().UTC()
		err = m.store.UpdateSubscription(ctx, s)
		if errors.Is(err, checkout.ErrConflict) {
			continue
		}
		if err != nil {
			return Subscription{}, fmt.Errorf("subscriptions: storing subscription %s: %w", id, err)
		}
		for _, d := range details {
			detail = d()
		}
		m.record(ctx, actor, address, action, id, detail)
		return s, nil
	}
	return Subscription{}, fmt.Errorf("subscriptions: subscription %s: %w", id, checkout.ErrConflict)
}

// record writes a change to the audit log; a failure to record is not the change's.
func (m *Manager) record(ctx context.Context, actor, address, action, id, detail string) {
	if m.audit == nil {
		return
	}
	if actor == "" {
		actor = "system"
	}
	_ = m.audit.Record(ctx, audit.Entry{Actor: actor, Action: action, Object: id, Address: address, Detail: detail})
}
