package charges

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
	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/brdoc"
)

// Status is where a charge is. It only moves forward: open → paid; open → overdue (the day
// after the due date, São Paulo) → paid (late); open or overdue → canceled.
type Status string

// The statuses of a charge, as the API says them.
const (
	StatusOpen     Status = "open"
	StatusOverdue  Status = "overdue"
	StatusPaid     Status = "paid"
	StatusCanceled Status = "canceled"
)

// Statuses lists every status: the stores' constraint and the API's filter.
func Statuses() []Status { return []Status{StatusOpen, StatusOverdue, StatusPaid, StatusCanceled} }

// Final reports whether nothing moves a charge in s any more.
func (s Status) Final() bool { return s == StatusPaid || s == StatusCanceled }

// Customer is the named person or company a charge bills.
type Customer struct {
	Name, Document, Email string
	Phone                 string // optional
}

// Charge is an amount billed to a named customer by a due date ("cobrança"); each day's
// amount is paid through an order of its own (checkout.ChannelCharge).
type Charge struct {
	ID           string // unguessable: the customer's page /c/{ID} needs no sign-in
	Customer     Customer
	Description  string
	Terms        Terms
	ExternalCode string // the merchant's own reference
	Status       Status
	Paid         Cents     // what its orders collected so far
	PaidAt       time.Time // when it became paid (zero until then)
	CreatedAt    time.Time
	UpdatedAt    time.Time
	// Version counts its changes (1 when created): a change is stored only over the version it
	// was read at, and each is an Event of the timeline with that number.
	Version int
	// IdempotencyKey is the Idempotency-Key the merchant API made it with ("" none), and
	// RequestHash the digest of that request: stored when it is created, read only by
	// Store.ChargeByIdempotencyKey.
	IdempotencyKey, RequestHash string
	// Period is the subscription's period it was issued for (zero: none).
	Period Period
}

// Period names one period of a subscription ("assinatura"): the subscription's id and the due
// date its schedule gives the period (a charge issued late may be due later). A store holds at
// most one charge per period, so that a period is issued once whoever issues it.
type Period struct {
	Subscription string
	Due          Date
}

// IsZero reports whether p names no period.
func (p Period) IsZero() bool { return p.Subscription == "" }

// PaidLate reports whether c was paid after its due date (São Paulo days).
func (c *Charge) PaidLate() bool {
	return c.Status == StatusPaid && DaysBetween(c.Terms.Due, Today(c.PaidAt)) > 0
}

// Balance is what c asks on day: the day's amount less what was paid (never below zero; zero
// once paid or canceled).
func (c *Charge) Balance(day Date) Cents {
	if c.Status.Final() {
		return 0
	}
	return max(c.Terms.On(day).Total-c.Paid, 0)
}

// Event is one line of a charge's timeline: its status after a change, and why.
type Event struct {
	ChargeID string
	Version  int // the charge's version the change made
	At       time.Time
	Status   Status
	Reason   Reason
	Actor    string // who changed it: a user's e-mail, an API key's name; "" for the product itself
	// OrderID is the order whose payment the event counts ("" for the other events): the
	// store keeps at most one event per charge and order, so an order's payment is counted
	// once, whoever applies it and however often.
	OrderID string
	Paid    Cents // what the order's payment counted towards the charge
	Refund  Cents // what of it the charge could not take: a refund due from the order
}

// Reason says why a charge's timeline has an event.
type Reason string

// The reasons of a charge's events.
const (
	ReasonCreated       Reason = "created"
	ReasonPartiallyPaid Reason = "partially_paid" // a payment short of what the charge asked that day (Paid)
	// ReasonPaid: a payment covered what the charge asked that day (Paid); any excess over its
	// balance is Refund.
	ReasonPaid     Reason = "paid"
	ReasonOverdue  Reason = "overdue"
	ReasonCanceled Reason = "canceled" // by Actor
	// ReasonRefundDue: a payment that arrived once the charge was paid or canceled, all of it
	// to refund (Refund).
	ReasonRefundDue Reason = "refund_due"
)

// Reasons lists every reason, for the stores' tests and the pages' texts.
func Reasons() []Reason {
	return []Reason{ReasonCreated, ReasonPartiallyPaid, ReasonPaid, ReasonOverdue, ReasonCanceled, ReasonRefundDue}
}

// Filter selects charges, newest first, a page at a time.
type Filter struct {
	Status []Status // none: any
	// Search: the customer's name or e-mail, the external code or the id holds it (case
	// aside), or the customer's document holds its digits (and a CNPJ's letters).
	Search string
	// DueFrom, DueTo: due on or after, and on or before, these São Paulo days (zero: no bound).
	DueFrom, DueTo Date
	// MinAmount, MaxAmount: a principal of at least, and at most (0: no bound).
	MinAmount, MaxAmount Cents
	// After is the last charge of the previous page (zero: the first page); with Backward, the
	// first charge of the next page, to read the page before it (still listed newest first).
	AfterCreated time.Time
	AfterID      string
	Backward     bool
	Limit        int
	// Subscription: issued by that subscription ("": any).
	Subscription string
}

// Store keeps charges and their timelines. Implementations must pass
// checkout/storetest.RunCharges.
type Store interface {
	// CreateCharge stores a new charge (Version 1) with the first event of its timeline and what
	// w holds, in one transaction; a companion whose record changed since it was read refuses
	// it all with checkout.ErrConflict.
	CreateCharge(ctx context.Context, c Charge, e Event, w With) error
	// Charge returns the charge with that id, or checkout.ErrNotFound.
	Charge(ctx context.Context, id string) (Charge, error)
	// UpdateCharge stores c over version c.Version−1 with the event e and the outbox messages
	// announcing it in one transaction, or answers checkout.ErrConflict (changed since read, or
	// e counts the payment of an order the timeline counted already: nothing is stored) or
	// checkout.ErrNotFound.
	UpdateCharge(ctx context.Context, c Charge, e Event, msgs ...checkout.OutboxMessage) error
	// ChargeEvents returns the timeline of a charge, oldest first.
	ChargeEvents(ctx context.Context, id string) ([]Event, error)
	// ListCharges returns the charges f selects, newest first.
	ListCharges(ctx context.Context, f Filter) ([]Charge, error)
	// ChargeByIdempotencyKey returns the charge made with that Idempotency-Key, with its
	// IdempotencyKey and RequestHash, or checkout.ErrNotFound.
	ChargeByIdempotencyKey(ctx context.Context, key string) (Charge, error)
	// CountCharges counts the charges f selects, whatever its page, up to limit.
	CountCharges(ctx context.Context, f Filter, limit int) (int, error)
	// OpenChargesDueBefore returns up to limit open charges whose due date is before day.
	OpenChargesDueBefore(ctx context.Context, day Date, limit int) ([]Charge, error)
	// SubjectCharges returns the charges m finds (their customer's document or e-mail in
	// clear, or their hashes once anonymised), newest first, with when each was anonymised
	// (zero: not), and the notifications about them in the delivery log.
	SubjectCharges(ctx context.Context, m checkout.SubjectMatch) ([]SubjectCharge, error)
	// AnonymiseCharges anonymises those of the charges ids that are final and not anonymised
	// yet, with their notifications' bodies, and returns their ids.
	AnonymiseCharges(ctx context.Context, ids []string, at time.Time, h *checkout.PersonalDataHasher) ([]string, error)
	// AnonymiseChargesDue anonymises, oldest change first, at most limit final charges not
	// anonymised yet that have not changed since before, in one short transaction that skips
	// charges in use, and returns their ids.
	AnonymiseChargesDue(ctx context.Context, before, at time.Time, limit int, h *checkout.PersonalDataHasher) ([]string, error)
	// Receivables sums what the open and overdue charges still ask of their principal
	// (amount less what was paid), split by their due date against today: due today or later
	// is open, before today overdue.
	Receivables(ctx context.Context, today Date) (Receivables, error)
	// ChargeOfPeriod returns the charge issued for subscription period p, or
	// checkout.ErrNotFound. CreateCharge refuses a second charge of a period.
	ChargeOfPeriod(ctx context.Context, p Period) (Charge, error)
}

// With is what a new charge's transaction stores besides the charge and its first event: what
// goes with a charge is committed with it or not at all, in one turn of the database's writer
// (SQLite's one writer is shared with the shoppers' orders, which a day's thousands of
// subscriptions' charges must not hold up).
type With struct {
	// Messages announce it: its notification, its customer's reminders.
	Messages []checkout.OutboxMessage
	// Audit is its entry of the audit log (nil: none).
	Audit *audit.Entry
	// Companion is a change of another record made with the charge (Input.Companion; nil: none).
	Companion Companion
}

// Companion is a change of a record of another kind that a charge's creation commits with it:
// the subscriptions' issuer moves its subscription past the period the charge is issued for,
// so that a period's charge and its subscription's advance are stored together. The store
// keeping charges writes the kinds it knows (a subscriptions.Subscription, stored over its
// version Version−1 as subscriptions.Store.UpdateSubscription does) and refuses any other.
type Companion any

// Receivables are the money the charges still ask ("a receber"): of those not yet due, and of
// those past their due date ("vencido"). Amounts are principals less what was paid, fines and
// interest aside.
type Receivables struct {
	Open, Overdue Owed
}

// Owed is a count of charges and what they ask.
type Owed struct {
	Charges int
	Amount  Cents
}

// SubjectCharge is a charge a data subject's request found.
type SubjectCharge struct {
	Charge        Charge
	AnonymisedAt  time.Time // zero: not anonymised
	Notifications []checkout.Notification
}

// Input is a new charge as the dashboard or the API gives it.
type Input struct {
	Customer     Customer
	Description  string
	Terms        Terms
	ExternalCode string
	// Period is the subscription's period the charge is issued for (zero: none): set by the
	// subscriptions' issuer only, and out of the request's digest.
	Period Period
	// Companion is stored in the charge's transaction (With.Companion; nil: nothing): set by
	// the subscriptions' issuer only, and out of the request's digest.
	Companion Companion
}

// Manager makes charges and moves them through their statuses, each change in the charge's
// timeline, the audit log and, with an Announcer, the merchant's notifications.
type Manager struct {
	store     Store
	audit     *audit.Log
	now       func() time.Time
	announcer Announcer // nil: nothing announced
}

// Announcer makes the outbox messages of a charge's change of status (its creation included):
// the store writes them in the transaction of the change, so that each change is announced
// exactly when it is committed, once.
type Announcer interface {
	// Announce returns the messages announcing that c (as it is about to be stored) changed as
	// e says: every change, a partial payment or a refund due (which leave the status as it
	// was) included. It must not change c; an error aborts the change.
	Announce(ctx context.Context, c *Charge, e Event) ([]checkout.OutboxMessage, error)
	// Announced is called once messages were committed, so that a worker delivers them at
	// once. It must not block.
	Announced()
}

// Option configures a Manager.
type Option func(*Manager)

// WithAnnouncer announces every change of status through a (the merchant's notifications).
func WithAnnouncer(a Announcer) Option { return func(m *Manager) { m.announcer = a } }

// NewManager returns a Manager on store; log may be nil (no audit), clock nil (time.Now). A
// charge's creation has store write its audit entry in the charge's transaction: log must be
// the audit log of store's database.
func NewManager(store Store, log *audit.Log, clock func() time.Time, opts ...Option) *Manager {
	if clock == nil {
		clock = time.Now
	}
	m := &Manager{store: store, audit: log, now: clock}
	for _, o := range opts {
		o(m)
	}
	return m
}

// announce returns the messages of c's change e (none without an announcer).
func (m *Manager) announce(ctx context.Context, c *Charge, e Event) ([]checkout.OutboxMessage, error) {
	if m.announcer == nil {
		return nil, nil
	}
	msgs, err := m.announcer.Announce(ctx, c, e)
	if err != nil {
		return nil, fmt.Errorf("charges: announcing charge %s: %w", c.ID, err)
	}
	return msgs, nil
}

// announced tells the announcer that msgs were committed.
func (m *Manager) announced(msgs []checkout.OutboxMessage) {
	if len(msgs) > 0 {
		m.announcer.Announced()
	}
}

// Now is the manager's clock.
func (m *Manager) Now() time.Time { return m.now() }

// Today is the São Paulo day of the manager's clock.
func (m *Manager) Today() Date { return Today(m.now()) }

// ErrFinal: the charge is paid or canceled; nothing changes it any more.
var ErrFinal = errors.New("charges: the charge is paid or canceled")

// Create checks in and stores it as an open charge, made by actor from address; a bad input
// is a *ValidationError naming each field.
func (m *Manager) Create(ctx context.Context, actor, address string, in Input) (Charge, error) {
	c, _, err := m.CreateOnce(ctx, actor, address, "", in)
	return c, err
}

// CreateOnce is Create at most once per Idempotency-Key key ("" none), as the merchant API
// makes checkout sessions and payment links (checkout.CreateOnce): the same key with the same
// input answers the charge it made (created false); with another input, an error of code
// checkout.CodeIdempotencyReused.
func (m *Manager) CreateOnce(ctx context.Context, actor, address, key string, in Input) (Charge, bool, error) {
	hash := in.digest()
	return checkout.CreateOnce(ctx, key, hash, func(c Charge) string { return c.RequestHash }, m.store.ChargeByIdempotencyKey,
		func() (Charge, bool, error) {
			c, err := m.create(ctx, actor, address, key, hash, in)
			if err != nil && key != "" && !errors.As(err, new(*ValidationError)) {
				// A concurrent request with the same key may have stored its charge first.
				if prev, ferr := m.store.ChargeByIdempotencyKey(ctx, key); ferr == nil {
					return prev, false, nil
				}
			}
			return c, err == nil, err
		})
}

// digest is the digest of a creation request: its input as given.
func (in Input) digest() string {
	in.Period, in.Companion = Period{}, nil
	sum := sha256.Sum256(fmt.Appendf(nil, "%#v", in))
	return hex.EncodeToString(sum[:])
}

// create checks in and stores it as an open charge, made with Idempotency-Key key of a request
// whose digest is hash.
func (m *Manager) create(ctx context.Context, actor, address, key, hash string, in Input) (Charge, error) {
	if ve := in.Validate(m.Today()); ve != nil {
		return Charge{}, ve
	}
	now := m.now().UTC()
	c := Charge{ID: checkout.NewID(), Customer: in.Customer, Description: strings.TrimSpace(in.Description),
		Terms: in.Terms, ExternalCode: strings.TrimSpace(in.ExternalCode), Status: StatusOpen,
		CreatedAt: now, UpdatedAt: now, Version: 1, IdempotencyKey: key, RequestHash: hash, Period: in.Period}
	c.Customer.Name, c.Customer.Email = strings.TrimSpace(c.Customer.Name), strings.TrimSpace(c.Customer.Email)
	// Kept as its characters, as an order keeps it: a data subject's request finds it however
	// it was typed.
	c.Customer.Document = brdoc.NormalizeDocument(c.Customer.Document)
	e := Event{ChargeID: c.ID, Version: 1, At: now, Status: StatusOpen, Reason: ReasonCreated, Actor: actor}
	msgs, err := m.announce(ctx, &c, e)
	if err != nil {
		return Charge{}, err
	}
	w := With{Messages: msgs, Companion: in.Companion}
	if m.audit != nil {
		entry := m.audit.Stamp(auditEntry(actor, address, audit.ChargeCreated, &c))
		w.Audit = &entry
	}
	if err := m.store.CreateCharge(ctx, c, e, w); err != nil {
		return Charge{}, fmt.Errorf("charges: creating a charge: %w", err)
	}
	m.announced(msgs)
	c.IdempotencyKey, c.RequestHash = "", "" // as Store.Charge reads it
	return c, nil
}

// Validate checks a new charge on the day today: the customer (customer.name,
// customer.document, customer.email, customer.phone), the description and the terms.
func (in Input) Validate(today Date) *ValidationError {
	ve := &ValidationError{Kind: gatewayclient.KindValidation}
	cust := gatewayclient.Customer{Name: in.Customer.Name, Document: in.Customer.Document, Email: in.Customer.Email,
		MobilePhone: in.Customer.Phone}
	for _, t := range [][2]string{{"customer.name", in.Customer.Name}, {"customer.email", in.Customer.Email},
		{"description", in.Description}, {"externalCode", in.ExternalCode}} {
		if err := checkout.CheckText(t[1]); err != nil {
			ve.Add(t[0], checkout.CodeText, err.Error())
		}
	}
	var cve *ValidationError
	if errors.As(cust.Validate(EndOfDay(today)), &cve) {
		for _, v := range cve.Violations {
			if v.Field == "customer.mobilePhone" {
				v.Field = "customer.phone" // as a charge names it
			}
			if !ve.Has(v.Field) {
				ve.Violations = append(ve.Violations, v)
			}
		}
	}
	if strings.TrimSpace(in.Customer.Email) == "" {
		// The gateway takes a customer without one; a charge is sent and reminded by e-mail.
		ve.Add("customer.email", gatewayclient.CodeRequired, "is required")
	}
	switch d := strings.TrimSpace(in.Description); {
	case ve.Has("description"):
	case d == "":
		ve.Add("description", gatewayclient.CodeRequired, "is required")
	case len([]rune(d)) > 200:
		ve.Add("description", gatewayclient.CodeMaxLength, "must be at most 200 characters")
	}
	if len([]rune(in.ExternalCode)) > 100 && !ve.Has("externalCode") {
		ve.Add("externalCode", gatewayclient.CodeMaxLength, "must be at most 100 characters")
	}
	if tv := in.Terms.Validate(today); tv != nil {
		ve.Violations = append(ve.Violations, tv.Violations...)
	}
	return ve.OrNil()
}

// Cancel cancels an open or overdue charge (a payment that still arrives is a late payment
// with a refund due, as for orders); ErrFinal when it is paid or canceled already.
func (m *Manager) Cancel(ctx context.Context, actor, address, id string) (Charge, error) {
	c, _, err := m.change(ctx, id, address, func(c *Charge) (Event, string, error) {
		if c.Status.Final() {
			return Event{}, "", ErrFinal
		}
		c.Status = StatusCanceled
		return Event{Reason: ReasonCanceled, Actor: actor}, audit.ChargeCanceled, nil
	})
	return c, err
}

// applyPayment applies paid, collected at at by order orderID, to c, and returns the event of
// the timeline that says so with the audit log's action ("" none): the charge becomes paid
// when what it collected covers what it asked on that São Paulo day, and stays open (or
// overdue) for the difference otherwise. What passes its balance, or all of a payment once it
// is paid or canceled, is a refund due (Event.Refund), the charge's Paid never above its total.
func (c *Charge) applyPayment(orderID string, paid Cents, at time.Time) (Event, string) {
	e := Event{OrderID: orderID}
	if c.Status.Final() {
		e.Reason, e.Refund = ReasonRefundDue, paid
		return e, ""
	}
	total := c.Terms.On(Today(at)).Total
	e.Paid = min(paid, max(total-c.Paid, 0))
	e.Refund = paid - e.Paid
	c.Paid += e.Paid
	if c.Paid < total {
		e.Reason = ReasonPartiallyPaid
		return e, ""
	}
	c.Status, c.PaidAt = StatusPaid, at.UTC()
	e.Reason = ReasonPaid
	return e, audit.ChargePaid
}

// MarkOverdue moves every open charge whose due date has passed (São Paulo) to overdue, and
// says how many it moved; run it from any instance, as often as wanted.
func (m *Manager) MarkOverdue(ctx context.Context) (int, error) {
	moved := 0
	for {
		due, err := m.store.OpenChargesDueBefore(ctx, m.Today(), 100)
		if err != nil {
			return moved, fmt.Errorf("charges: reading overdue charges: %w", err)
		}
		if len(due) == 0 {
			return moved, nil
		}
		for _, c := range due {
			_, _, err := m.change(ctx, c.ID, "", func(c *Charge) (Event, string, error) {
				if c.Status != StatusOpen {
					return Event{}, "", ErrFinal
				}
				c.Status = StatusOverdue
				return Event{Reason: ReasonOverdue}, audit.ChargeOverdue, nil
			})
			switch {
			case err == nil:
				moved++
			case !errors.Is(err, ErrFinal):
				return moved, err
			}
		}
	}
}

// change reads the charge, applies fn (which returns the event of its change, whose Reason,
// Actor and payment it fills, and the audit log's action, "" none) and stores it with its
// event, again from a fresh read when another change came first. It returns the charge and
// the event as stored.
func (m *Manager) change(ctx context.Context, id, address string, fn func(*Charge) (Event, string, error)) (Charge, Event, error) {
	for range 5 {
		c, err := m.store.Charge(ctx, id)
		if err != nil {
			return Charge{}, Event{}, fmt.Errorf("charges: reading charge %s: %w", id, err)
		}
		e, action, err := fn(&c)
		if err != nil {
			return c, Event{}, err
		}
		c.Version++
		c.UpdatedAt = m.now().UTC()
		e.ChargeID, e.Version, e.At, e.Status = c.ID, c.Version, c.UpdatedAt, c.Status
		// Every change is given to the announcers, each of which tells what it concerns: the
		// merchant's notifications a change of status, the reminders a partial payment too.
		msgs, err := m.announce(ctx, &c, e)
		if err != nil {
			return Charge{}, Event{}, err
		}
		err = m.store.UpdateCharge(ctx, c, e, msgs...)
		if errors.Is(err, checkout.ErrConflict) {
			continue
		}
		if err != nil {
			return Charge{}, Event{}, fmt.Errorf("charges: storing charge %s: %w", id, err)
		}
		m.announced(msgs)
		if action != "" {
			m.record(ctx, e.Actor, address, action, &c)
		}
		return c, e, nil
	}
	return Charge{}, Event{}, fmt.Errorf("charges: charge %s: %w", id, checkout.ErrConflict)
}

// record writes a change of c to the audit log; a failure to record is not the change's.
func (m *Manager) record(ctx context.Context, actor, address, action string, c *Charge) {
	if m.audit == nil {
		return
	}
	_ = m.audit.Record(ctx, auditEntry(actor, address, action, c))
}

// auditEntry is the audit log's entry of a change of c by actor ("": the product itself).
func auditEntry(actor, address, action string, c *Charge) audit.Entry {
	if actor == "" {
		actor = "system"
	}
	return audit.Entry{Actor: actor, Action: action, Object: c.ID, Address: address}
}
