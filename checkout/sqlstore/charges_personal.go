package sqlstore

import (
	"context"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/charges"
	"github.com/pixcheckout/pixcheckout/checkout/subscriptions"
)

// The personal data of charges and subscriptions (their stores' part for data subjects'
// requests and the retention rule): found as an order's are (subjectQuery, through the indexes
// of migrations 0113 and 0119), anonymised as an order's are, with the bodies of their
// notifications and e-mails (record kind charges.HeldKind, subscriptions.HeldKind in the
// delivery log).

// heldTable is a table of records beside the orders that hold a customer's personal data.
type heldTable struct {
	table, kind string
	// anonymisable is the condition on its rows that they may be anonymised now (their
	// retention aside): not yet, and final. It is that of its partial index *_personal_data_due.
	anonymisable string
}

var (
	chargesHeld       = heldTable{"charges", charges.HeldKind, `anonymised_at = 0 AND status IN ('paid', 'canceled')`}
	subscriptionsHeld = heldTable{"subscriptions", subscriptions.HeldKind, `anonymised_at = 0 AND status IN ('canceled', 'ended')`}
)

// subjectIDs returns the ids of the rows of h that m finds, newest first, when each was
// anonymised and the notifications about each.
func (s *Store) subjectIDs(ctx context.Context, h heldTable, m checkout.SubjectMatch) ([]string, map[string]time.Time, map[string][]checkout.Notification, error) {
	var p Params
	q := subjectQuery(h.table, "r", "r.id, r.anonymised_at", m, &p)
	if q == "" {
		return nil, nil, nil, nil
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
		return nil, nil, nil, s.errorf("finding a data subject's %s: %w", h.table, err)
	}
	notes := map[string][]checkout.Notification{}
	err = s.recordNotifications(ctx, h.kind, ids, func(id string, n checkout.Notification) {
		notes[id] = append(notes[id], n)
	})
	if err != nil {
		return nil, nil, nil, s.errorf("reading the notifications of %s: %w", h.table, err)
	}
	return ids, anonymised, notes, nil
}

// SubjectCharges returns the charges m finds, newest first, with when each was anonymised and
// their notifications.
func (s *Store) SubjectCharges(ctx context.Context, m checkout.SubjectMatch) ([]charges.SubjectCharge, error) {
	return subjectRecords(ctx, s, chargesHeld, m, s.Charge,
		func(c charges.Charge, at time.Time, notes []checkout.Notification) charges.SubjectCharge {
			return charges.SubjectCharge{Charge: c, AnonymisedAt: at, Notifications: notes}
		})
}

// SubjectSubscriptions returns the subscriptions m finds, newest first, with when each was
// anonymised.
func (s *Store) SubjectSubscriptions(ctx context.Context, m checkout.SubjectMatch) ([]subscriptions.SubjectSubscription, error) {
	return subjectRecords(ctx, s, subscriptionsHeld, m, s.Subscription,
		func(sub subscriptions.Subscription, at time.Time, notes []checkout.Notification) subscriptions.SubjectSubscription {
			return subscriptions.SubjectSubscription{Subscription: sub, AnonymisedAt: at, Notifications: notes}
		})
}

// subjectRecords returns the rows of ht that m finds, newest first, each read by read and
// given with when it was anonymised and its notifications to found.
func subjectRecords[T, R any](ctx context.Context, s *Store, ht heldTable, m checkout.SubjectMatch,
	read func(context.Context, string) (T, error), found func(T, time.Time, []checkout.Notification) R) ([]R, error) {
	ids, anonymised, notes, err := s.subjectIDs(ctx, ht, m)
	if err != nil {
		return nil, err
	}
	out := make([]R, 0, len(ids))
	for _, id := range ids {
		rec, err := read(ctx, id)
		if err != nil {
			return nil, err
		}
		out = append(out, found(rec, anonymised[id], notes[id]))
	}
	return out, nil
}

// AnonymiseCharges anonymises those of the charges ids that are final and not yet anonymised.
func (s *Store) AnonymiseCharges(ctx context.Context, ids []string, at time.Time, h *checkout.PersonalDataHasher) ([]string, error) {
	return s.anonymiseHeld(ctx, chargesHeld, ids, at, h)
}

// AnonymiseChargesDue anonymises, oldest change first, at most limit final charges unchanged
// since before, in one transaction that skips charges another holds.
func (s *Store) AnonymiseChargesDue(ctx context.Context, before, at time.Time, limit int, h *checkout.PersonalDataHasher) ([]string, error) {
	return s.anonymiseHeldDue(ctx, chargesHeld, before, at, limit, h)
}

// AnonymiseSubscriptions anonymises those of the subscriptions ids that are canceled or ended
// and not yet anonymised.
func (s *Store) AnonymiseSubscriptions(ctx context.Context, ids []string, at time.Time, h *checkout.PersonalDataHasher) ([]string, error) {
	return s.anonymiseHeld(ctx, subscriptionsHeld, ids, at, h)
}

// AnonymiseSubscriptionsDue anonymises, oldest change first, at most limit canceled or ended
// subscriptions unchanged since before.
func (s *Store) AnonymiseSubscriptionsDue(ctx context.Context, before, at time.Time, limit int, h *checkout.PersonalDataHasher) ([]string, error) {
	return s.anonymiseHeldDue(ctx, subscriptionsHeld, before, at, limit, h)
}

// anonymiseHeld anonymises those of the rows ids of ht that may be.
func (s *Store) anonymiseHeld(ctx context.Context, ht heldTable, ids []string, at time.Time, h *checkout.PersonalDataHasher) ([]string, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	var due []dueOrder
	err := s.db.WriteTx(ctx, func(tx Runner) error {
		err := tx.Run(ctx, Stmt{SQL: `SELECT id, customer_document, customer_email, '' FROM ` + ht.table + `
			WHERE ` + ht.anonymisable + ` AND ` + s.d.OneOf("id", "$1") + s.lockRows(` FOR UPDATE`),
			Args: []any{s.d.List(ids)}, Rows: scanDue(&due)})
		if err != nil {
			return err
		}
		return s.anonymiseRows(ctx, tx, ht, due, at, h)
	})
	if err != nil {
		return nil, s.errorf("anonymising %s: %w", ht.table, err)
	}
	return dueIDs(due), nil
}

// anonymiseHeldDue anonymises, oldest change first, at most limit rows of ht that may be and
// are unchanged since before, in one transaction that skips rows another holds.
func (s *Store) anonymiseHeldDue(ctx context.Context, ht heldTable, before, at time.Time, limit int, h *checkout.PersonalDataHasher) ([]string, error) {
	if limit <= 0 {
		return nil, s.errorf("anonymising %s: %w", ht.table, errLimit)
	}
	var due []dueOrder
	err := s.db.WriteTx(ctx, func(tx Runner) error {
		err := tx.Run(ctx, Stmt{SQL: `SELECT id, customer_document, customer_email, '' FROM ` + ht.table + `
			WHERE ` + ht.anonymisable + ` AND updated_at < $1 ORDER BY updated_at LIMIT $2` +
			s.lockRows(` FOR UPDATE SKIP LOCKED`), Args: []any{ms(before), limit}, Rows: scanDue(&due)})
		if err != nil {
			return err
		}
		return s.anonymiseRows(ctx, tx, ht, due, at, h)
	})
	if err != nil {
		return nil, s.errorf("anonymising %s: %w", ht.table, err)
	}
	return dueIDs(due), nil
}

// anonymiseRows removes the personal data of the rows due of ht, held by tx, and of their
// notifications' and e-mails' bodies. The row's version stays: anonymising is no change of
// status, and no event of its timeline.
func (s *Store) anonymiseRows(ctx context.Context, tx Runner, ht heldTable, due []dueOrder, at time.Time, h *checkout.PersonalDataHasher) error {
	if len(due) == 0 {
		return nil
	}
	c := &personalCopies{}
	if err := tx.Run(ctx, s.readDeliveries(ht.kind, dueIDs(due), &c.bodies)); err != nil {
		return err
	}
	stmts := make([]Stmt, 0, len(due)+len(c.bodies))
	for _, o := range due {
		a := h.Anonymise(checkout.Customer{Document: o.document, Email: o.email})
		stmts = append(stmts, Stmt{SQL: `UPDATE ` + ht.table + ` SET customer_name = '', customer_document = $1, customer_email = '',
				customer_phone = '', customer_document_hash = $2, customer_email_hash = $3, anonymised_at = $4
			WHERE id = $5`, Args: []any{a.MaskedDocument, a.DocumentHash, a.EmailHash, ms(at), o.id}})
	}
	return tx.Run(ctx, append(stmts, c.updates()...)...)
}
