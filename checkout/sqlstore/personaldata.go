package sqlstore

import (
	"context"
	"encoding/hex"
	"strings"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
)

var _ checkout.PersonalDataStore = (*Store)(nil)

// The key of the personal data's hashes is one row of personal_data_key, in hexadecimal, sealed
// as every secret of the store (sealed.go) when the store has keys: a dump of the database alone
// does not give it, so a hash cannot be tied to a CPF by trying them all. Reading and writing it
// go through readKey and writeKey alone.

// readKey reads the stored key; found is false when there is none.
func (s *Store) readKey(ctx context.Context) (key []byte, found bool, err error) {
	var stored string
	err = s.db.Read(ctx, Stmt{SQL: `SELECT key_text FROM personal_data_key WHERE id = 1`,
		Rows: func(r Rows) error {
			if found = r.Next(); found {
				return r.Scan(&stored)
			}
			return nil
		}})
	if err != nil || !found {
		return nil, found, err
	}
	text, err := s.open(stored)
	if err != nil {
		return nil, true, err
	}
	key, err = hex.DecodeString(text)
	return key, true, err
}

// writeKey stores key unless a key is stored.
func (s *Store) writeKey(ctx context.Context, key []byte, at time.Time) error {
	stored, err := s.seal(hex.EncodeToString(key))
	if err != nil {
		return err
	}
	return s.db.Write(ctx, Stmt{SQL: `INSERT INTO personal_data_key (id, key_text, created_at) VALUES (1, $1, $2)
		ON CONFLICT (id) DO NOTHING`, Args: []any{stored, ms(at)}})
}

// PersonalDataKey returns the stored key of the personal data's hashes, or checkout.ErrNotFound.
func (s *Store) PersonalDataKey(ctx context.Context) ([]byte, error) {
	key, found, err := s.readKey(ctx)
	switch {
	case err != nil:
		return nil, s.errorf("reading the personal data key: %w", err)
	case !found:
		return nil, checkout.ErrNotFound
	}
	return key, nil
}

// AddPersonalDataKey stores key unless one is stored, and returns the stored key.
func (s *Store) AddPersonalDataKey(ctx context.Context, key []byte, at time.Time) ([]byte, error) {
	if len(key) == 0 {
		return nil, s.errorf("storing the personal data key: empty key")
	}
	if err := s.writeKey(ctx, key, at); err != nil {
		return nil, s.errorf("storing the personal data key: %w", err)
	}
	return s.PersonalDataKey(ctx)
}

// subjectQuery returns the statement text selecting cols of table (alias t) whose customer m
// finds, newest first, its arguments added to p; "" when m finds nothing. Each way to find the
// subject (the document or e-mail in clear, or their hash) is a SELECT of its own, joined by
// UNION, so that each reads its index: an OR of them cannot use the hashes' partial indexes in
// a plan made before the values are known.
func subjectQuery(table, t, cols string, m checkout.SubjectMatch, p *Params) string {
	var conds []string
	if m.Document != "" {
		conds = append(conds, t+".customer_document = "+p.Add(m.Document))
	}
	if m.DocumentHash != "" {
		conds = append(conds, t+".customer_document_hash = "+p.Add(m.DocumentHash)+" AND "+t+".customer_document_hash <> ''")
	}
	if m.Email != "" {
		conds = append(conds, "lower("+t+".customer_email) = "+p.Add(strings.ToLower(m.Email)))
	}
	if m.EmailHash != "" {
		conds = append(conds, t+".customer_email_hash = "+p.Add(m.EmailHash)+" AND "+t+".customer_email_hash <> ''")
	}
	if len(conds) == 0 {
		return ""
	}
	selects := make([]string, len(conds))
	for i, c := range conds {
		selects[i] = "SELECT " + cols + ", " + t + ".created_at FROM " + table + " " + t + " WHERE " + c
	}
	return strings.Join(selects, " UNION ") + " ORDER BY created_at DESC, id DESC"
}

// SubjectOrders returns the orders m finds, newest first, with when each was anonymised.
func (s *Store) SubjectOrders(ctx context.Context, m checkout.SubjectMatch) ([]checkout.SubjectOrder, error) {
	var p Params
	q := subjectQuery("orders", "o", "o.id, o.anonymised_at", m, &p)
	if q == "" {
		return nil, nil
	}
	var out []checkout.SubjectOrder
	err := s.db.Read(ctx, Stmt{SQL: q, Args: p,
		Rows: each(func(r Rows) error {
			var so checkout.SubjectOrder
			var at, created int64
			if err := r.Scan(&so.ID, &at, &created); err != nil {
				return err
			}
			so.AnonymisedAt = fromMS(at)
			out = append(out, so)
			return nil
		})})
	if err != nil {
		return nil, s.errorf("finding a data subject's orders: %w", err)
	}
	return out, nil
}

// SubjectSessions returns the ids of the checkout sessions m finds, newest first.
func (s *Store) SubjectSessions(ctx context.Context, m checkout.SubjectMatch) ([]string, error) {
	var p Params
	q := subjectQuery("checkout_sessions", "cs", "cs.id", m, &p)
	if q == "" {
		return nil, nil
	}
	var out []string
	err := s.db.Read(ctx, Stmt{SQL: q, Args: p,
		Rows: each(func(r Rows) error {
			var id string
			var created int64
			if err := r.Scan(&id, &created); err != nil {
				return err
			}
			out = append(out, id)
			return nil
		})})
	if err != nil {
		return nil, s.errorf("finding a data subject's checkout sessions: %w", err)
	}
	return out, nil
}

// notificationRecord is the record kind of the order notifications in the shared outbox
// (package notify's).
const notificationRecord = "order"

// OrderNotifications returns the notifications about the orders ids in the delivery log, oldest
// first.
func (s *Store) OrderNotifications(ctx context.Context, ids []string) ([]checkout.Notification, error) {
	var out []checkout.Notification
	err := s.recordNotifications(ctx, notificationRecord, ids, func(id string, n checkout.Notification) {
		n.OrderID = id
		out = append(out, n)
	})
	if err != nil {
		return nil, s.errorf("reading the notifications of orders: %w", err)
	}
	return out, nil
}

// recordNotifications reads the notifications (and e-mails) about the records ids of kind in
// the delivery log, oldest first, giving each to add with its record's id.
func (s *Store) recordNotifications(ctx context.Context, kind string, ids []string, add func(id string, n checkout.Notification)) error {
	if len(ids) == 0 {
		return nil
	}
	return s.db.Read(ctx, Stmt{SQL: `SELECT message_id, record_id, type, status, created_at, body FROM webhook_deliveries
		WHERE record_kind = $1 AND ` + s.d.OneOf("record_id", "$2") + ` ORDER BY id`,
		Args: []any{kind, s.d.List(ids)},
		Rows: each(func(r Rows) error {
			var n checkout.Notification
			var at int64
			var body, id string
			if err := r.Scan(&n.ID, &id, &n.Type, &n.Status, &at, &body); err != nil {
				return err
			}
			n.CreatedAt, n.Body = fromMS(at), []byte(body)
			add(id, n)
			return nil
		})})
}

// anonymisableCondition is the condition on orders o that they may be anonymised now (their
// retention aside): not yet, in a final state, no refund due.
func anonymisableCondition() string {
	var b strings.Builder
	b.WriteString("o.anonymised_at = 0 AND o.refund_due = 0 AND o.status IN (")
	for i, st := range checkout.AnonymisableStatuses() {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("'" + string(st) + "'")
	}
	b.WriteString(")")
	return b.String()
}

// dueOrder is an order about to be anonymised: what its anonymisation needs.
type dueOrder struct {
	id, document, email, session string
}

func scanDue(out *[]dueOrder) func(Rows) error {
	return each(func(r Rows) error {
		var o dueOrder
		if err := r.Scan(&o.id, &o.document, &o.email, &o.session); err != nil {
			return err
		}
		*out = append(*out, o)
		return nil
	})
}

// AnonymiseDue anonymises, oldest change first, at most limit orders in a final state without a
// refund due, unchanged since before, in one transaction that skips orders another holds, and
// returns their ids.
func (s *Store) AnonymiseDue(ctx context.Context, before, at time.Time, limit int, h *checkout.PersonalDataHasher) ([]string, error) {
	if limit <= 0 {
		return nil, s.errorf("anonymising personal data: %w", errLimit)
	}
	var due []dueOrder
	err := s.db.WriteTx(ctx, func(tx Runner) error {
		// "updated_at" and the state's condition are those of the partial index
		// orders_personal_data_due.
		err := tx.Run(ctx, Stmt{SQL: `SELECT o.id, o.customer_document, o.customer_email, o.session_id FROM orders o
			WHERE ` + anonymisableCondition() + ` AND o.updated_at < $1
			ORDER BY o.updated_at LIMIT $2` + s.lockRows(` FOR UPDATE SKIP LOCKED`),
			Args: []any{ms(before), limit}, Rows: scanDue(&due)})
		if err != nil {
			return err
		}
		return s.anonymise(ctx, tx, due, at, h)
	})
	if err != nil {
		return nil, s.errorf("anonymising personal data: %w", err)
	}
	return dueIDs(due), nil
}

func dueIDs(due []dueOrder) []string {
	out := make([]string, len(due))
	for i, o := range due {
		out[i] = o.id
	}
	return out
}

// AnonymiseOrders anonymises those of the orders ids that may be, and returns their ids.
func (s *Store) AnonymiseOrders(ctx context.Context, ids []string, at time.Time, h *checkout.PersonalDataHasher) ([]string, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	var due []dueOrder
	err := s.db.WriteTx(ctx, func(tx Runner) error {
		err := tx.Run(ctx, Stmt{SQL: `SELECT o.id, o.customer_document, o.customer_email, o.session_id FROM orders o
			WHERE ` + anonymisableCondition() + ` AND ` + s.d.OneOf("o.id", "$1") + s.lockRows(` FOR UPDATE`),
			Args: []any{s.d.List(ids)}, Rows: scanDue(&due)})
		if err != nil {
			return err
		}
		return s.anonymise(ctx, tx, due, at, h)
	})
	if err != nil {
		return nil, s.errorf("anonymising orders: %w", err)
	}
	return dueIDs(due), nil
}

// anonymise removes the personal data of the orders due, held by tx, and of their copies:
// their attempts' transaction requests, their notifications' bodies, their checkout sessions'
// prefill. The search index follows the orders' columns (SQLite's triggers, PostgreSQL's index).
func (s *Store) anonymise(ctx context.Context, tx Runner, due []dueOrder, at time.Time, h *checkout.PersonalDataHasher) error {
	if len(due) == 0 {
		return nil
	}
	c, err := s.readCopies(ctx, tx, due)
	if err != nil {
		return err
	}
	stmts := make([]Stmt, 0, len(due)+len(c.requests)+len(c.bodies)+1)
	for _, o := range due {
		a := h.Anonymise(checkout.Customer{Document: o.document, Email: o.email})
		stmts = append(stmts, Stmt{SQL: `UPDATE orders SET customer_name = '', customer_document = $1, customer_email = '',
				customer_phone = '', has_address = $2, zip_code = '', street = '', street_number = '', complement = '',
				neighborhood = '', city = '', state = '', country = '', shopper_ip = '', customer_document_hash = $3,
				customer_email_hash = $4, anonymised_at = $5, version = version + 1
			WHERE id = $6`,
			Args: []any{a.MaskedDocument, false, a.DocumentHash, a.EmailHash, ms(at), o.id}})
	}
	stmts = append(stmts, c.updates()...)
	stmts = append(stmts, sessionUpdates(c.prefill, h)...)
	return tx.Run(ctx, stmts...)
}

// personalCopies are the copies of the personal data of orders being anonymised: their
// attempts' transaction requests, their notifications' (and e-mails') bodies, their checkout
// sessions' prefill.
type personalCopies struct {
	requests []storedRequest
	bodies   []storedDelivery
	prefill  []sessionPrefill
}

type storedRequest struct{ id, body string }

type storedDelivery struct {
	id            int64
	body, channel string
}

// readCopies reads, in tx, the copies of the personal data of the orders due.
func (s *Store) readCopies(ctx context.Context, tx Runner, due []dueOrder) (*personalCopies, error) {
	ids, sessions := make([]string, 0, len(due)), make([]string, 0, len(due))
	for _, o := range due {
		ids = append(ids, o.id)
		if o.session != "" {
			sessions = append(sessions, o.session)
		}
	}
	c := &personalCopies{}
	err := tx.Run(ctx,
		Stmt{SQL: `SELECT id, request FROM attempts WHERE ` + s.d.OneOf("order_id", "$1") + ` AND request IS NOT NULL`,
			Args: []any{s.d.List(ids)}, Rows: each(func(r Rows) error {
				var d storedRequest
				if err := r.Scan(&d.id, &d.body); err != nil {
					return err
				}
				c.requests = append(c.requests, d)
				return nil
			})},
		s.readDeliveries(notificationRecord, ids, &c.bodies),
		s.readPrefill(sessions, &c.prefill))
	if err != nil {
		return nil, err
	}
	return c, nil
}

// readDeliveries returns the statement reading the bodies of the deliveries (notifications and
// e-mails) about the records ids of kind into out.
func (s *Store) readDeliveries(kind string, ids []string, out *[]storedDelivery) Stmt {
	return Stmt{SQL: `SELECT id, body, channel FROM webhook_deliveries WHERE record_kind = $1 AND ` + s.d.OneOf("record_id", "$2"),
		Args: []any{kind, s.d.List(ids)}, Rows: each(func(r Rows) error {
			var d storedDelivery
			if err := r.Scan(&d.id, &d.body, &d.channel); err != nil {
				return err
			}
			*out = append(*out, d)
			return nil
		})}
}

// updates are the statements scrubbing the requests and the deliveries' bodies of c. A copy
// that is not JSON cannot be scrubbed: it goes whole (a request is then NULL, as for attempts
// stored before requests were kept; a body, an empty object), rather than stop every later
// sweep at this order.
func (c *personalCopies) updates() []Stmt {
	stmts := make([]Stmt, 0, len(c.requests)+len(c.bodies))
	for _, r := range c.requests {
		var req any
		if b, err := checkout.ScrubPersonalData([]byte(r.body)); err == nil {
			req = string(b)
		}
		stmts = append(stmts, Stmt{SQL: `UPDATE attempts SET request = $1 WHERE id = $2`, Args: []any{req, r.id}})
	}
	for _, d := range c.bodies {
		if d.channel == checkout.ChannelMail {
			// An e-mail is personal data through and through (the name, the address, what was
			// bought): it goes whole, its recipient too; one not sent yet never will be.
			stmts = append(stmts, Stmt{SQL: `UPDATE webhook_deliveries SET body = '{}', recipient = '',
				last_error = CASE WHEN status = 'pending' THEN 'anonymised before it was sent' ELSE last_error END,
				status = CASE WHEN status = 'pending' THEN 'dead' ELSE status END WHERE id = $1`, Args: []any{d.id}})
			continue
		}
		b, err := checkout.ScrubPersonalData([]byte(d.body))
		if err != nil {
			b = []byte("{}")
		}
		stmts = append(stmts, Stmt{SQL: `UPDATE webhook_deliveries SET body = $1 WHERE id = $2`,
			Args: []any{string(b), d.id}})
	}
	return stmts
}

// AnonymiseSessions anonymises the customer prefill of the checkout sessions ids.
func (s *Store) AnonymiseSessions(ctx context.Context, ids []string, h *checkout.PersonalDataHasher) error {
	if len(ids) == 0 {
		return nil
	}
	err := s.db.WriteTx(ctx, func(tx Runner) error {
		var prefill []sessionPrefill
		if err := tx.Run(ctx, s.readPrefill(ids, &prefill)); err != nil {
			return err
		}
		return tx.Run(ctx, sessionUpdates(prefill, h)...)
	})
	if err != nil {
		return s.errorf("anonymising checkout sessions: %w", err)
	}
	return nil
}

// sessionPrefill is a checkout session's customer prefill, as its anonymisation needs it.
type sessionPrefill struct{ id, document, email string }

// readPrefill returns the statement reading the prefill of those of the sessions ids that hold
// one not anonymised yet.
func (s *Store) readPrefill(ids []string, out *[]sessionPrefill) Stmt {
	return Stmt{SQL: `SELECT id, customer_document, customer_email FROM checkout_sessions
		WHERE ` + s.d.OneOf("id", "$1") + ` AND customer_document_hash = '' AND customer_email_hash = ''
			AND (customer_name <> '' OR customer_document <> '' OR customer_email <> '' OR customer_phone <> '' OR has_address)` +
		s.lockRows(` FOR UPDATE`),
		Args: []any{s.d.List(ids)}, Rows: each(func(r Rows) error {
			var p sessionPrefill
			if err := r.Scan(&p.id, &p.document, &p.email); err != nil {
				return err
			}
			*out = append(*out, p)
			return nil
		})}
}

// sessionUpdates returns the statements emptying the sessions' prefill, keeping the document
// masked and the hashes.
func sessionUpdates(prefill []sessionPrefill, h *checkout.PersonalDataHasher) []Stmt {
	stmts := make([]Stmt, 0, len(prefill))
	for _, p := range prefill {
		a := h.Anonymise(checkout.Customer{Document: p.document, Email: p.email})
		stmts = append(stmts, Stmt{SQL: `UPDATE checkout_sessions SET customer_name = '', customer_document = $1,
				customer_email = '', customer_phone = '', has_address = $2, zip_code = '', street = '', street_number = '',
				complement = '', neighborhood = '', city = '', state = '', country = '', customer_document_hash = $3,
				customer_email_hash = $4
			WHERE id = $5`, Args: []any{a.MaskedDocument, false, a.DocumentHash, a.EmailHash, p.id}})
	}
	return stmts
}
