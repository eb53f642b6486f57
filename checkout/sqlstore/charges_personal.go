package sqlstore

import (
	"context"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/charges"
)

// The personal data of charges (charges.Store's part for data subjects' requests and the
// retention rule): found as an order's are (subjectQuery, through the indexes of migration
// 0113), anonymised as an order's are, with the bodies of their notifications and e-mails
// (record kind charges.HeldKind in the delivery log).

// chargeAnonymisable is the condition on charges that they may be anonymised now (their
// retention aside): not yet, and final. It is that of the partial index
// charges_personal_data_due.
const chargeAnonymisable = `anonymised_at = 0 AND status IN ('paid', 'canceled')`

// SubjectCharges returns the charges m finds, newest first, with when each was anonymised and
// their notifications.
func (s *Store) SubjectCharges(ctx context.Context, m checkout.SubjectMatch) ([]charges.SubjectCharge, error) {
	var p Params
	q := subjectQuery("charges", "c", "c.id, c.anonymised_at", m, &p)
	if q == "" {
		return nil, nil
	}
	var ids []string
	anonymised := map[string]time.Time{}
	err := s.db.Read(ctx, Stmt{SQL: q, Args: p, Rows: each(func(r Rows) error {
		var id string
		var at, created int64
		if err := r.Scan(&id, &at, &created); err != nil {
			return err
		}
		ids, anonymised[id] = append(ids, id), fromMS(at)
		return nil
	})})
	if err != nil {
		return nil, s.errorf("finding a data subject's charges: %w", err)
	}
	notes := map[string][]checkout.Notification{}
	err = s.recordNotifications(ctx, charges.HeldKind, ids, func(id string, n checkout.Notification) {
		notes[id] = append(notes[id], n)
	})
	if err != nil {
		return nil, s.errorf("reading the notifications of charges: %w", err)
	}
	out := make([]charges.SubjectCharge, 0, len(ids))
	for _, id := range ids {
		c, err := s.Charge(ctx, id)
		if err != nil {
			return nil, err
		}
		out = append(out, charges.SubjectCharge{Charge: c, AnonymisedAt: anonymised[id], Notifications: notes[id]})
	}
	return out, nil
}

// AnonymiseCharges anonymises those of the charges ids that are final and not yet anonymised.
func (s *Store) AnonymiseCharges(ctx context.Context, ids []string, at time.Time, h *checkout.PersonalDataHasher) ([]string, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	var due []dueOrder
	err := s.db.WriteTx(ctx, func(tx Runner) error {
		err := tx.Run(ctx, Stmt{SQL: `SELECT id, customer_document, customer_email, '' FROM charges
			WHERE ` + chargeAnonymisable + ` AND ` + s.d.OneOf("id", "$1") + s.lockRows(` FOR UPDATE`),
			Args: []any{s.d.List(ids)}, Rows: scanDue(&due)})
		if err != nil {
			return err
		}
		return s.anonymiseCharges(ctx, tx, due, at, h)
	})
	if err != nil {
		return nil, s.errorf("anonymising charges: %w", err)
	}
	return dueIDs(due), nil
}

// AnonymiseChargesDue anonymises, oldest change first, at most limit final charges unchanged
// since before, in one transaction that skips charges another holds.
func (s *Store) AnonymiseChargesDue(ctx context.Context, before, at time.Time, limit int, h *checkout.PersonalDataHasher) ([]string, error) {
	if limit <= 0 {
		return nil, s.errorf("anonymising charges: %w", errLimit)
	}
	var due []dueOrder
	err := s.db.WriteTx(ctx, func(tx Runner) error {
		err := tx.Run(ctx, Stmt{SQL: `SELECT id, customer_document, customer_email, '' FROM charges
			WHERE ` + chargeAnonymisable + ` AND updated_at < $1 ORDER BY updated_at LIMIT $2` +
			s.lockRows(` FOR UPDATE SKIP LOCKED`), Args: []any{ms(before), limit}, Rows: scanDue(&due)})
		if err != nil {
			return err
		}
		return s.anonymiseCharges(ctx, tx, due, at, h)
	})
	if err != nil {
		return nil, s.errorf("anonymising charges: %w", err)
	}
	return dueIDs(due), nil
}

// anonymiseCharges removes the personal data of the charges due, held by tx, and of their
// notifications' and e-mails' bodies. The charge's version stays: anonymising is no change of
// status, and no event of its timeline.
func (s *Store) anonymiseCharges(ctx context.Context, tx Runner, due []dueOrder, at time.Time, h *checkout.PersonalDataHasher) error {
	if len(due) == 0 {
		return nil
	}
	c := &personalCopies{}
	if err := tx.Run(ctx, s.readDeliveries(charges.HeldKind, dueIDs(due), &c.bodies)); err != nil {
		return err
	}
	stmts := make([]Stmt, 0, len(due)+len(c.bodies))
	for _, o := range due {
		a := h.Anonymise(checkout.Customer{Document: o.document, Email: o.email})
		stmts = append(stmts, Stmt{SQL: `UPDATE charges SET customer_name = '', customer_document = $1, customer_email = '',
				customer_phone = '', customer_document_hash = $2, customer_email_hash = $3, anonymised_at = $4
			WHERE id = $5`, Args: []any{a.MaskedDocument, a.DocumentHash, a.EmailHash, ms(at), o.id}})
	}
	return tx.Run(ctx, append(stmts, c.updates()...)...)
}
