package checkout

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/brdoc"
)

// Personal data under the LGPD (Lei 13.709/2018). An order keeps its shopper's name, document,
// e-mail, phone, address and IP address only as long as its purpose needs: once the order has
// been in a final state (paid, expired, failed, refunded) for the retention
// (CHECKOUT_RETENTION_PERSONAL_DATA, DefaultPersonalDataRetention), or at once on the data
// subject's request, they are anonymised: emptied, the document kept only masked and as a keyed
// hash, the e-mail only as a keyed hash, so that a later request about the same person still
// finds the order. What fiscal rules ask to keep stays: amounts, items, dates, statuses, the
// gateway's ids and the PIX end-to-end ids. The same goes for the order's copies of that data:
// its checkout session's prefill, the transaction requests sent to the gateway, the
// notifications' bodies in the delivery log and the search index (kept in step by the
// database).

// DefaultPersonalDataRetention is how long an order keeps its shopper's personal data after it
// reached a final state, unless configured: one year.
const DefaultPersonalDataRetention = 365 * 24 * time.Hour

// PersonalDataKeySize is the size of the key of the personal data's hashes.
const PersonalDataKeySize = 32

// FieldSubject names, in forms and ValidationError, the document or e-mail a data subject's request
// is about.
const FieldSubject = "subject"

// Subject is the person a data subject's request is about, named by their CPF or CNPJ or by
// their e-mail address: exactly one of Document (normalised, brdoc.NormalizeDocument) and
// Email (trimmed, lower case) is set.
type Subject struct {
	Document string
	Email    string
}

// ParseSubject reads a CPF, a CNPJ (masked or not; the alphanumeric CNPJ too) or an e-mail
// address as typed. Anything else is a *ValidationError on FieldSubject.
func ParseSubject(s string) (Subject, error) {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return Subject{}, fieldError(FieldSubject, gatewayclient.CodeRequired, "type a CPF, a CNPJ or an e-mail address")
	case strings.Contains(s, "@"):
		if !brdoc.ValidEmail(s) {
			return Subject{}, fieldError(FieldSubject, gatewayclient.CodeFormat, "is not a valid e-mail address")
		}
		return Subject{Email: strings.ToLower(s)}, nil
	case !brdoc.ValidDocument(s):
		return Subject{}, fieldError(FieldSubject, gatewayclient.CodeFormat, "is not a valid CPF, CNPJ or e-mail address")
	}
	return Subject{Document: brdoc.NormalizeDocument(s)}, nil
}

// Masked returns the subject as it may be written down (the audit log, the export's heading):
// a document masked (brdoc.MaskDocument), an e-mail with its local part hidden but its first
// letter.
func (s Subject) Masked() string {
	if s.Document != "" {
		return brdoc.MaskDocument(s.Document)
	}
	local, domain, ok := strings.Cut(s.Email, "@")
	if !ok || local == "" {
		return "***"
	}
	return local[:1] + "***@" + domain
}

// IsEmail reports whether the subject is named by an e-mail address.
func (s Subject) IsEmail() bool { return s.Email != "" }

// SubjectMatch is what a store looks for to find a subject's records: the document or e-mail in
// clear (records not anonymised) and their keyed hashes (records anonymised). Empty fields
// match nothing.
type SubjectMatch struct {
	Document, DocumentHash string
	Email, EmailHash       string
}

// PersonalDataHasher makes the keyed hashes (HMAC-SHA256, hex) that stand for a document or an
// e-mail once an order is anonymised. Without its key, a hash cannot be tied to a document by
// trying every CPF (there are only about 10^9 of them).
type PersonalDataHasher struct{ key []byte }

// NewPersonalDataHasher returns the hasher of key, which must have PersonalDataKeySize bytes.
func NewPersonalDataHasher(key []byte) (*PersonalDataHasher, error) {
	if len(key) != PersonalDataKeySize {
		return nil, fmt.Errorf("checkout: the personal data key has %d bytes, not %d", len(key), PersonalDataKeySize)
	}
	return &PersonalDataHasher{key: slices.Clone(key)}, nil
}

// DocumentHash returns the hash of a CPF or CNPJ, over its normalised characters ("" for "").
func (h *PersonalDataHasher) DocumentHash(doc string) string {
	return h.sum("document", brdoc.NormalizeDocument(strings.TrimSpace(doc)))
}

// EmailHash returns the hash of an e-mail address, case and surrounding space aside ("" for "").
func (h *PersonalDataHasher) EmailHash(email string) string {
	return h.sum("email", strings.ToLower(strings.TrimSpace(email)))
}

func (h *PersonalDataHasher) sum(kind, v string) string {
	if v == "" {
		return ""
	}
	m := hmac.New(sha256.New, h.key)
	m.Write([]byte(kind + ":" + v))
	return hex.EncodeToString(m.Sum(nil))
}

// Match returns what finds s's records.
func (h *PersonalDataHasher) Match(s Subject) SubjectMatch {
	if s.Document != "" {
		return SubjectMatch{Document: s.Document, DocumentHash: h.DocumentHash(s.Document)}
	}
	return SubjectMatch{Email: s.Email, EmailHash: h.EmailHash(s.Email)}
}

// Anonymised is what an anonymised record keeps of its customer: the document masked, and the
// keyed hashes of the document and e-mail.
type Anonymised struct {
	MaskedDocument, DocumentHash, EmailHash string
}

// Anonymise returns what a record of customer c keeps once anonymised.
func (h *PersonalDataHasher) Anonymise(c Customer) Anonymised {
	return Anonymised{MaskedDocument: brdoc.MaskDocument(c.Document), DocumentHash: h.DocumentHash(c.Document),
		EmailHash: h.EmailHash(c.Email)}
}

// ScrubPersonalData returns the JSON document b without its personal data, for the copies an
// order keeps of them (the transaction request sent to the gateway, a notification's body):
// every "customer" object (and a deposit's "payer", the gateway's name for the account that
// paid) becomes one holding only its document, masked, and every "address" is removed. Anything else is kept as it is. A b that is not JSON gives an error.
func ScrubPersonalData(b []byte) ([]byte, error) {
	if len(bytes.TrimSpace(b)) == 0 {
		return b, nil
	}
	var v any
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber() // amounts stay exactly as written
	if err := d.Decode(&v); err != nil {
		return nil, fmt.Errorf("checkout: scrubbing personal data: %w", err)
	}
	out, err := json.Marshal(scrub(v))
	if err != nil {
		return nil, fmt.Errorf("checkout: scrubbing personal data: %w", err)
	}
	return out, nil
}

func scrub(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			switch k {
			case "customer", "payer":
				c := map[string]any{}
				if m, ok := e.(map[string]any); ok {
					if d, ok := m["document"].(string); ok && d != "" {
						c["document"] = brdoc.MaskDocument(d)
					}
				}
				x[k] = c
			case "address":
				delete(x, k)
			default:
				x[k] = scrub(e)
			}
		}
	case []any:
		for i := range x {
			x[i] = scrub(x[i])
		}
	}
	return v
}

// The reasons why an order's personal data may not be anonymised yet (AnonymiseBlocker).
const (
	BlockedAwaitingPayment = "awaiting_payment" // pending or awaiting payment: the shopper may still pay
	BlockedUnderReview     = "under_review"     // under review, or its refund under way
	BlockedRefundDue       = "refund_due"       // the merchant owes the shopper a refund
)

// anonymisable are the final states: an order in one may lose its personal data.
var anonymisable = []OrderStatus{StatusPaid, StatusExpired, StatusFailed, StatusRefunded}

// AnonymisableStatuses returns the states in which an order may be anonymised (unless a refund
// is due).
func AnonymisableStatuses() []OrderStatus { return slices.Clone(anonymisable) }

// AnonymiseBlocker says why o's personal data may not be anonymised now ("" when it may): while
// it may still be paid, while under review or being refunded, and while a refund is due, the
// merchant needs to reach the shopper.
func AnonymiseBlocker(o *Order) string {
	switch {
	case o.Status == StatusPending || o.Status == StatusAwaitingPayment:
		return BlockedAwaitingPayment
	case !slices.Contains(anonymisable, o.Status):
		return BlockedUnderReview
	case o.RefundDue > 0:
		return BlockedRefundDue
	}
	return ""
}

// PersonalDataStore is the part of a store that finds and anonymises personal data. Every
// implementation must pass checkout/storetest.
type PersonalDataStore interface {
	// PersonalDataKey returns the stored key of the hashes, or ErrNotFound when there is none.
	PersonalDataKey(ctx context.Context) ([]byte, error)
	// AddPersonalDataKey stores key unless a key is stored, and returns the stored key (key,
	// or the one another process stored first).
	AddPersonalDataKey(ctx context.Context, key []byte, at time.Time) ([]byte, error)
	// SubjectOrders returns the orders m finds (document or e-mail in clear, or their hashes),
	// newest first, with when each was anonymised (zero: not).
	SubjectOrders(ctx context.Context, m SubjectMatch) ([]SubjectOrder, error)
	// SubjectSessions returns the ids of the checkout sessions m finds, newest first.
	SubjectSessions(ctx context.Context, m SubjectMatch) ([]string, error)
	// OrderNotifications returns the notifications about the orders ids held in the delivery
	// log, oldest first.
	OrderNotifications(ctx context.Context, ids []string) ([]Notification, error)
	// AnonymiseDue anonymises, oldest change first, at most limit orders not anonymised yet
	// that are in a final state without a refund due and have not changed since before, with
	// their copies of the personal data (see Anonymised), and returns their ids. One call is
	// one short transaction that skips orders in use.
	AnonymiseDue(ctx context.Context, before, at time.Time, limit int, h *PersonalDataHasher) ([]string, error)
	// AnonymiseOrders anonymises the orders ids that may be (see AnonymiseDue; their retention
	// aside) and returns the ids of those it anonymised now.
	AnonymiseOrders(ctx context.Context, ids []string, at time.Time, h *PersonalDataHasher) ([]string, error)
	// AnonymiseSessions anonymises the customer prefill of the checkout sessions ids.
	AnonymiseSessions(ctx context.Context, ids []string, h *PersonalDataHasher) error
}

// HeldRecord is a record beside the orders that holds a data subject's personal data (a charge
// with a due date, a subscription), as a data subject's request shows it.
type HeldRecord struct {
	Kind         string // the holder's (PersonalDataHolder.HeldKind): "charge"
	ID           string
	Status       string // the record's own status ("open", "paid", …)
	Description  string
	Amount       Cents
	Customer     Customer
	CreatedAt    time.Time
	AnonymisedAt time.Time // zero: not anonymised
	// Blocker says why its personal data may not be anonymised yet ("" when they may): a
	// record that may still be paid is BlockedAwaitingPayment.
	Blocker string
	// Notifications are the merchant's notifications (and e-mails) about it in the delivery
	// log, oldest first.
	Notifications []Notification
}

// PersonalDataHolder is a part of the product that keeps data subjects' personal data beside
// the orders (the charges with a due date): data subjects' requests find, export and anonymise
// its records with the orders (ServiceOptions.PersonalDataHolders), and the retention rule
// anonymises those that are final and past the retention. Its anonymisation is an order's:
// the name, e-mail and phone emptied, the document kept masked, the document and e-mail kept
// as keyed hashes (PersonalDataHasher.Anonymise) so that a later request still finds the
// record, and its notifications' bodies scrubbed (ScrubPersonalData; e-mails emptied).
type PersonalDataHolder interface {
	// HeldKind names the holder's records (HeldRecord.Kind).
	HeldKind() string
	// SubjectHeld returns the records m finds (in clear, or by their hashes once anonymised),
	// newest first.
	SubjectHeld(ctx context.Context, m SubjectMatch) ([]HeldRecord, error)
	// AnonymiseHeld anonymises those of the records ids that may be (final, not anonymised)
	// at at, and returns their ids.
	AnonymiseHeld(ctx context.Context, ids []string, at time.Time, h *PersonalDataHasher) ([]string, error)
	// AnonymiseHeldDue anonymises at most limit final records unchanged since before, oldest
	// change first, in one short transaction, and returns their ids.
	AnonymiseHeldDue(ctx context.Context, before, at time.Time, limit int, h *PersonalDataHasher) ([]string, error)
}

// SubjectOrder is an order a data subject's request found.
type SubjectOrder struct {
	ID           string
	AnonymisedAt time.Time // zero: not anonymised
}

// Notification is a notification about an order as the delivery log holds it.
type Notification struct {
	ID        string // the message id (webhook-id)
	OrderID   string
	Type      string
	Status    string // the delivery's state: pending, delivered, dead, skipped
	CreatedAt time.Time
	Body      []byte // JSON
}

// LoadPersonalDataKey returns the key of the personal data's hashes stored in st, making and
// storing a random one the first time. It is read at start and given to the Service
// (ServiceOptions.PersonalDataKey).
func LoadPersonalDataKey(ctx context.Context, st PersonalDataStore, now time.Time) ([]byte, error) {
	key, err := st.PersonalDataKey(ctx)
	if err == nil {
		return key, nil
	}
	if !errors.Is(err, ErrNotFound) {
		return nil, fmt.Errorf("checkout: reading the personal data key: %w", err)
	}
	key = make([]byte, PersonalDataKeySize)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("checkout: making the personal data key: %w", err)
	}
	if key, err = st.AddPersonalDataKey(ctx, key, now); err != nil {
		return nil, fmt.Errorf("checkout: storing the personal data key: %w", err)
	}
	return key, nil
}

// SubjectRecords is everything the shop holds about a data subject.
type SubjectRecords struct {
	Subject Subject
	// Orders found, newest first, each with when it was anonymised (zero: not).
	Orders       []*Order
	AnonymisedAt map[string]time.Time
	// Sessions are the checkout sessions made for the subject (a merchant's prefill).
	Sessions []*CheckoutSession
	// Notifications are the notifications about the orders in the delivery log.
	Notifications []Notification
	// Held are the subject's records beside the orders (charges), each holder's newest first.
	Held []HeldRecord
}

// ErrNoPersonalData is returned when the Service has no personal data store or key.
var ErrNoPersonalData = errors.New("checkout: data subjects' requests need a store of personal data and its key")

// PersonalData is the part of the Service that answers data subjects' requests and anonymises
// orders: the pages read the orders it anonymises again (changed), or forget what they kept.
type PersonalData struct {
	store   Store
	hasher  *PersonalDataHasher // nil without a key: ErrNoPersonalData
	now     func() time.Time
	log     *slog.Logger
	changed func(ctx context.Context, id string) error // Service.Changed
	forget  func(id string)                            // drops the order's snapshot
	holders []PersonalDataHolder                       // records beside the orders (ServiceOptions.PersonalDataHolders)
}

func (p *PersonalData) personalData() (PersonalDataStore, *PersonalDataHasher, error) {
	if p.hasher == nil {
		return nil, nil, ErrNoPersonalData
	}
	return p.store, p.hasher, nil
}

// SubjectRecords finds everything held about subj: their orders before and after
// anonymisation, their checkout sessions, the notifications about those orders.
func (p *PersonalData) SubjectRecords(ctx context.Context, subj Subject) (*SubjectRecords, error) {
	st, h, err := p.personalData()
	if err != nil {
		return nil, err
	}
	m := h.Match(subj)
	found, err := st.SubjectOrders(ctx, m)
	if err != nil {
		return nil, fmt.Errorf("checkout: finding a data subject's orders: %w", err)
	}
	res := &SubjectRecords{Subject: subj, AnonymisedAt: map[string]time.Time{}}
	ids := make([]string, 0, len(found))
	for _, f := range found {
		o, err := p.store.Order(ctx, f.ID)
		if err != nil {
			return nil, fmt.Errorf("checkout: reading a data subject's order: %w", err)
		}
		res.Orders = append(res.Orders, o)
		ids = append(ids, o.ID)
		if !f.AnonymisedAt.IsZero() {
			res.AnonymisedAt[o.ID] = f.AnonymisedAt
		}
	}
	sids, err := st.SubjectSessions(ctx, m)
	if err != nil {
		return nil, fmt.Errorf("checkout: finding a data subject's checkout sessions: %w", err)
	}
	for _, id := range sids {
		sess, err := p.store.CheckoutSession(ctx, id)
		if err != nil {
			return nil, fmt.Errorf("checkout: reading a data subject's checkout session: %w", err)
		}
		res.Sessions = append(res.Sessions, sess)
	}
	if res.Notifications, err = st.OrderNotifications(ctx, ids); err != nil {
		return nil, fmt.Errorf("checkout: reading the notifications of a data subject's orders: %w", err)
	}
	for _, hd := range p.holders {
		held, err := hd.SubjectHeld(ctx, m)
		if err != nil {
			return nil, fmt.Errorf("checkout: finding a data subject's %s records: %w", hd.HeldKind(), err)
		}
		res.Held = append(res.Held, held...)
	}
	return res, nil
}

// AnonymiseResult says what an anonymisation on request did.
type AnonymiseResult struct {
	// Anonymised are the orders anonymised now; Already those anonymised before.
	Anonymised, Already []*Order
	// Refused are the orders that may not be anonymised yet, each with its AnonymiseBlocker.
	Refused []RefusedOrder
	// Sessions is how many checkout sessions were anonymised.
	Sessions int
	// HeldAnonymised are the records beside the orders anonymised now, HeldAlready those
	// anonymised before, HeldRefused those that may not be yet (each with its Blocker).
	HeldAnonymised, HeldAlready, HeldRefused []HeldRecord
}

// RefusedOrder is an order whose personal data stays for now, and why (AnonymiseBlocker).
type RefusedOrder struct {
	Order  *Order
	Reason string
}

// AnonymiseSubject anonymises at once, on the data subject's request, every order of subj
// that may be (see AnonymiseBlocker), with its copies of the personal data, and the checkout
// sessions made for subj whose order is anonymised or that have none. Orders that may not be
// anonymised yet are left as they are and returned in Refused.
func (p *PersonalData) AnonymiseSubject(ctx context.Context, subj Subject) (*AnonymiseResult, error) {
	st, h, err := p.personalData()
	if err != nil {
		return nil, err
	}
	recs, err := p.SubjectRecords(ctx, subj)
	if err != nil {
		return nil, err
	}
	res := &AnonymiseResult{}
	var due []string
	kept := map[string]bool{} // sessions of orders that stay
	for _, o := range recs.Orders {
		switch reason := AnonymiseBlocker(o); {
		case !recs.AnonymisedAt[o.ID].IsZero():
			res.Already = append(res.Already, o)
		case reason != "":
			res.Refused = append(res.Refused, RefusedOrder{Order: o, Reason: reason})
			kept[o.SessionID] = true
		default:
			due = append(due, o.ID)
		}
	}
	done, err := st.AnonymiseOrders(ctx, due, p.now(), h)
	if err != nil {
		return nil, fmt.Errorf("checkout: anonymising a data subject's orders: %w", err)
	}
	for _, o := range recs.Orders {
		switch {
		case slices.Contains(done, o.ID):
			p.anonymised(ctx, o.ID, res)
		case slices.Contains(due, o.ID):
			p.stayed(ctx, o, res, kept)
		}
	}
	var sessions []string
	for _, sess := range recs.Sessions {
		if !kept[sess.ID] {
			sessions = append(sessions, sess.ID)
		}
	}
	if len(sessions) > 0 {
		if err := st.AnonymiseSessions(ctx, sessions, h); err != nil {
			return nil, fmt.Errorf("checkout: anonymising a data subject's checkout sessions: %w", err)
		}
	}
	res.Sessions = len(sessions)
	if err := p.anonymiseHeld(ctx, recs.Held, res); err != nil {
		return nil, err
	}
	return res, nil
}

// anonymiseHeld anonymises, on the data subject's request, those of the records held beside
// the orders that may be, and sorts them into res.
func (p *PersonalData) anonymiseHeld(ctx context.Context, held []HeldRecord, res *AnonymiseResult) error {
	for _, hd := range p.holders {
		var due []string
		for _, r := range held {
			switch {
			case r.Kind != hd.HeldKind():
			case !r.AnonymisedAt.IsZero():
				res.HeldAlready = append(res.HeldAlready, r)
			case r.Blocker != "":
				res.HeldRefused = append(res.HeldRefused, r)
			default:
				due = append(due, r.ID)
			}
		}
		if len(due) == 0 {
			continue
		}
		done, err := hd.AnonymiseHeld(ctx, due, p.now(), p.hasher)
		if err != nil {
			return fmt.Errorf("checkout: anonymising a data subject's %s records: %w", hd.HeldKind(), err)
		}
		for _, r := range held {
			switch {
			case r.Kind != hd.HeldKind() || !slices.Contains(due, r.ID):
			case slices.Contains(done, r.ID):
				res.HeldAnonymised = append(res.HeldAnonymised, r)
			default:
				// It changed in between (paid late): it stays until final.
				r.Blocker = BlockedAwaitingPayment
				res.HeldRefused = append(res.HeldRefused, r)
			}
		}
	}
	return nil
}

// anonymised tells pages and other instances that order id was anonymised (they read it again:
// snapshots, the live status), and adds it to res.
func (p *PersonalData) anonymised(ctx context.Context, id string, res *AnonymiseResult) {
	if err := p.changed(ctx, id); err != nil {
		p.log.WarnContext(ctx, "reading an anonymised order again", "err", err)
	}
	if cur, err := p.store.Order(ctx, id); err == nil {
		res.Anonymised = append(res.Anonymised, cur)
	}
}

// stayed adds to res an order due for anonymisation that changed in between (paid late, put
// under review): it stays, and says why; its session stays with it.
func (p *PersonalData) stayed(ctx context.Context, o *Order, res *AnonymiseResult, kept map[string]bool) {
	if cur, err := p.store.Order(ctx, o.ID); err == nil && AnonymiseBlocker(cur) != "" {
		res.Refused = append(res.Refused, RefusedOrder{Order: cur, Reason: AnonymiseBlocker(cur)})
		kept[o.SessionID] = true
	}
}

// AnonymiseDue anonymises at most limit orders that reached a final state before before (see
// PersonalDataStore.AnonymiseDue), and at most limit records of each holder final since
// before (PersonalDataHolder.AnonymiseHeldDue), for the retention sweep, and returns how many it
// did: the sweep calls it again while that is limit or more.
func (p *PersonalData) AnonymiseDue(ctx context.Context, before time.Time, limit int) (int, error) {
	st, h, err := p.personalData()
	if err != nil {
		return 0, err
	}
	ids, err := st.AnonymiseDue(ctx, before, p.now(), limit, h)
	for _, id := range ids {
		// No page of this process shows the order's old data any more (other processes hear of
		// the change through the store's feed, where it has one).
		p.forget(id)
	}
	n := len(ids)
	if err != nil {
		return n, err
	}
	for _, hd := range p.holders {
		done, err := hd.AnonymiseHeldDue(ctx, before, p.now(), limit, h)
		n += len(done)
		if err != nil {
			return n, fmt.Errorf("checkout: anonymising %s records: %w", hd.HeldKind(), err)
		}
	}
	return n, nil
}
