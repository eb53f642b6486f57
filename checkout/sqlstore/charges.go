package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/charges"
	"github.com/pixcheckout/pixcheckout/checkout/subscriptions"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/outbox"
)

// ReminderWithdrawn starts the reason kept with a charge's reminder that was not sent because
// the charge became final before it was due ("charge paid", "charge canceled").
const ReminderWithdrawn = "charge "

// Charges with due dates and their timelines (charges.Store). Days are kept as YYYY-MM-DD
// text, which sorts as the calendar does.

var _ charges.Store = (*Store)(nil)

const chargeColumns = `id, status, customer_name, customer_document, customer_email, customer_phone, description,
	amount, due_date, fine_bps, interest_bps, discount_bps, discount_amount, discount_until, external_code,
	paid, paid_at, created_at, updated_at, version, subscription_id, subscription_period`

// chargeArgs are the values of chargeColumns, in their order.
func chargeArgs(c *charges.Charge) []any {
	until := ""
	if !c.Terms.Discount.Until.IsZero() {
		until = c.Terms.Discount.Until.String()
	}
	period := ""
	if !c.Period.IsZero() {
		period = c.Period.Due.String()
	}
	return []any{c.ID, string(c.Status), c.Customer.Name, c.Customer.Document, c.Customer.Email, c.Customer.Phone,
		c.Description, int64(c.Terms.Amount), c.Terms.Due.String(), c.Terms.FineBps, c.Terms.InterestBpsPerMonth,
		c.Terms.Discount.Bps, int64(c.Terms.Discount.Amount), until, c.ExternalCode,
		int64(c.Paid), ms(c.PaidAt), ms(c.CreatedAt), ms(c.UpdatedAt), c.Version, c.Period.Subscription, period}
}

// scanCharges reads rows of chargeColumns into out.
func scanCharges(out *[]charges.Charge) func(Rows) error {
	return each(func(r Rows) error {
		var c charges.Charge
		var status, due, until, period string
		var amount, discount, paid, paidAt, created, updated int64
		if err := r.Scan(&c.ID, &status, &c.Customer.Name, &c.Customer.Document, &c.Customer.Email, &c.Customer.Phone,
			&c.Description, &amount, &due, &c.Terms.FineBps, &c.Terms.InterestBpsPerMonth, &c.Terms.Discount.Bps,
			&discount, &until, &c.ExternalCode, &paid, &paidAt, &created, &updated, &c.Version,
			&c.Period.Subscription, &period); err != nil {
			return err
		}
		var err error
		if c.Terms.Due, err = gatewayclient.ParseDate(due); err != nil {
			return fmt.Errorf("charge %s: %w", c.ID, err)
		}
		if c.Terms.Discount.Until, err = optionalDate(until); err != nil {
			return fmt.Errorf("charge %s: %w", c.ID, err)
		}
		if c.Period.Due, err = optionalDate(period); err != nil {
			return fmt.Errorf("charge %s: %w", c.ID, err)
		}
		c.Status, c.Terms.Amount, c.Terms.Discount.Amount, c.Paid = charges.Status(status), charges.Cents(amount),
			charges.Cents(discount), charges.Cents(paid)
		c.PaidAt, c.CreatedAt, c.UpdatedAt = fromMS(paidAt), fromMS(created), fromMS(updated)
		*out = append(*out, c)
		return nil
	})
}

// optionalDate reads a YYYY-MM-DD day kept as text, "" being none.
func optionalDate(s string) (charges.Date, error) {
	if s == "" {
		return charges.Date{}, nil
	}
	return gatewayclient.ParseDate(s)
}

// eventStmt inserts e into the timeline, unless the timeline counts its order's payment
// already (the unique index charge_events_order): then it inserts nothing.
func eventStmt(e charges.Event) Stmt {
	var order any // NULL: not a payment's event, which the unique index lets repeat
	if e.OrderID != "" {
		order = e.OrderID
	}
	return Stmt{SQL: `INSERT INTO charge_events (charge_id, version, at, status, reason, actor, order_id, paid, refund)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT DO NOTHING`,
		Args: []any{e.ChargeID, e.Version, ms(e.At), string(e.Status), string(e.Reason), e.Actor, order, int64(e.Paid), int64(e.Refund)}}
}

// CreateCharge stores a new charge with the first event of its timeline and what w holds, in
// one transaction: on PostgreSQL one round trip, unless w has a companion, whose version's
// check must be able to roll the transaction back.
func (s *Store) CreateCharge(ctx context.Context, c charges.Charge, e charges.Event, w charges.With) error {
	out, err := OutboxStatements(w.Messages...)
	if err != nil {
		return s.errorf("storing a charge: %w", err)
	}
	stmts := append([]Stmt{{SQL: `INSERT INTO charges (` + chargeColumns + `)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22)`,
		Args: chargeArgs(&c)}, eventStmt(e), idempotencyStmt(&c)}, out...)
	if w.Audit != nil {
		stmts = append(stmts, auditStmt(*w.Audit))
	}
	switch companion := w.Companion.(type) {
	case nil:
		err = s.writeBatch(ctx, stmts...)
	case subscriptions.Subscription:
		update := subscriptionUpdate(&companion, func(updated bool) error {
			if !updated {
				return checkout.ErrConflict // the subscription changed since read: no charge either
			}
			return nil
		})
		err = s.db.WriteTx(ctx, func(tx Runner) error { return tx.Run(ctx, append(stmts, update)...) })
	default:
		err = fmt.Errorf("a charge's companion of type %T is not one this store keeps", w.Companion)
	}
	if err != nil {
		return s.errorf("storing a charge: %w", err)
	}
	return nil
}

// idempotencyStmt records the Idempotency-Key c was made with, when any (a no-op otherwise):
// the key's unique index refuses a second charge with it.
func idempotencyStmt(c *charges.Charge) Stmt {
	var key any // NULL: none, which the unique index lets repeat
	if c.IdempotencyKey != "" {
		key = c.IdempotencyKey
	}
	return Stmt{SQL: `UPDATE charges SET idempotency_key = $1, request_hash = $2 WHERE id = $3`,
		Args: []any{key, c.RequestHash, c.ID}}
}

// ChargeByIdempotencyKey returns the charge made with that Idempotency-Key, or
// checkout.ErrNotFound.
func (s *Store) ChargeByIdempotencyKey(ctx context.Context, key string) (charges.Charge, error) {
	c, hash, err := byIdempotencyKey(ctx, s, "charges", chargeColumns, key, scanCharges)
	if err != nil {
		return c, err
	}
	c.IdempotencyKey, c.RequestHash = key, hash
	return c, nil
}

// prefixed reads rows whose first column is first's, before those its reader scans.
type prefixed struct {
	Rows
	first any
}

func (p prefixed) Scan(dest ...any) error { return p.Rows.Scan(append([]any{p.first}, dest...)...) }

// Charge returns the charge with that id, or checkout.ErrNotFound.
func (s *Store) Charge(ctx context.Context, id string) (charges.Charge, error) {
	var out []charges.Charge
	if err := s.db.Read(ctx, Stmt{SQL: `SELECT ` + chargeColumns + ` FROM charges WHERE id = $1`, Args: []any{id},
		Rows: scanCharges(&out)}); err != nil {
		return charges.Charge{}, s.errorf("reading a charge: %w", err)
	}
	if len(out) == 0 {
		return charges.Charge{}, checkout.ErrNotFound
	}
	return out[0], nil
}

// UpdateCharge stores c over version c.Version−1 with its event and msgs, or answers
// checkout.ErrConflict (or checkout.ErrNotFound when there is no such charge). A charge that
// becomes paid or canceled gives up its pending e-mails (its reminders) in the same
// transaction.
func (s *Store) UpdateCharge(ctx context.Context, c charges.Charge, e charges.Event, msgs ...checkout.OutboxMessage) error {
	out, err := OutboxStatements(msgs...)
	if err != nil {
		return s.errorf("storing a charge: %w", err)
	}
	err = s.db.WriteTx(ctx, func(tx Runner) error {
		updated := false
		err := tx.Run(ctx, Stmt{SQL: `UPDATE charges SET status = $2, paid = $3, paid_at = $4, updated_at = $5, version = $6
			WHERE id = $1 AND version = $7`,
			Args:     []any{c.ID, string(c.Status), int64(c.Paid), ms(c.PaidAt), ms(c.UpdatedAt), c.Version, c.Version - 1},
			Affected: func(n int64) error { updated = n == 1; return nil }})
		if err != nil {
			return err
		}
		if !updated {
			return checkout.ErrConflict
		}
		ev := eventStmt(e)
		ev.Affected = func(n int64) error {
			if n == 0 {
				return checkout.ErrConflict // the order's payment is counted already: all rolled back
			}
			return nil
		}
		stmts := append([]Stmt{ev}, out...)
		if c.Status.Final() {
			// Its reminders still to come are moot: given up in the change's transaction, so
			// that none is sent after it commits, by any instance.
			w := outbox.Withdraw(outbox.ChannelSMTP, ChargeRecord, c.ID, ReminderWithdrawn+string(c.Status), c.UpdatedAt)
			stmts = append(stmts, Stmt{SQL: w.SQL, Args: w.Args})
		}
		return tx.Run(ctx, stmts...)
	})
	if errors.Is(err, checkout.ErrConflict) {
		if _, err := s.Charge(ctx, c.ID); err != nil {
			return err
		}
		return checkout.ErrConflict
	}
	if err != nil {
		return s.errorf("storing a charge: %w", err)
	}
	return nil
}

// ChargeEvents returns the timeline of a charge, oldest first.
func (s *Store) ChargeEvents(ctx context.Context, id string) ([]charges.Event, error) {
	var out []charges.Event
	err := s.db.Read(ctx, Stmt{SQL: `SELECT version, at, status, reason, actor, COALESCE(order_id, ''), paid, refund
		FROM charge_events WHERE charge_id = $1 ORDER BY version`,
		Args: []any{id}, Rows: each(func(r Rows) error {
			e := charges.Event{ChargeID: id}
			var at, paid, refund int64
			var status, reason string
			if err := r.Scan(&e.Version, &at, &status, &reason, &e.Actor, &e.OrderID, &paid, &refund); err != nil {
				return err
			}
			e.At, e.Status, e.Reason = fromMS(at), charges.Status(status), charges.Reason(reason)
			e.Paid, e.Refund = charges.Cents(paid), charges.Cents(refund)
			out = append(out, e)
			return nil
		})})
	if err != nil {
		return nil, s.errorf("reading a charge's timeline: %w", err)
	}
	return out, nil
}

// ListCharges returns the charges f selects, newest first, by the key (created_at, id).
func (s *Store) ListCharges(ctx context.Context, f charges.Filter) ([]charges.Charge, error) {
	var p Params
	page := keysetPage{AfterCreated: f.AfterCreated, AfterID: f.AfterID, Backward: f.Backward, Limit: f.Limit}
	return listKeyset(ctx, s, "charges", chargeColumns, chargesWhere(f, &p), p, page, scanCharges)
}

// CountCharges counts the charges f selects, whatever its page, up to limit: past it a list
// says "more than", without reading every match.
func (s *Store) CountCharges(ctx context.Context, f charges.Filter, limit int) (int, error) {
	var p Params
	return countMatches(ctx, s, "charges", chargesWhere(f, &p), p, limit)
}

// chargesWhere are the conditions of f's filters (not its page), their arguments added to p.
func chargesWhere(f charges.Filter, p *Params) []string {
	var where []string
	if len(f.Status) > 0 {
		in := make([]string, len(f.Status))
		for i, st := range f.Status {
			in[i] = p.Add(string(st))
		}
		where = append(where, `status IN (`+strings.Join(in, ", ")+`)`)
	}
	if !f.DueFrom.IsZero() {
		where = append(where, `due_date >= `+p.Add(f.DueFrom.String()))
	}
	if !f.DueTo.IsZero() {
		where = append(where, `due_date <= `+p.Add(f.DueTo.String()))
	}
	if f.MinAmount > 0 {
		where = append(where, `amount >= `+p.Add(int64(f.MinAmount)))
	}
	if f.MaxAmount > 0 {
		where = append(where, `amount <= `+p.Add(int64(f.MaxAmount)))
	}
	if f.Subscription != "" {
		where = append(where, `subscription_id = `+p.Add(f.Subscription))
	}
	if term := strings.TrimSpace(f.Search); term != "" {
		where = append(where, customerSearch(term, p))
	}
	return where
}

// OpenChargesDueBefore returns up to limit open charges whose due date is before day.
func (s *Store) OpenChargesDueBefore(ctx context.Context, day charges.Date, limit int) ([]charges.Charge, error) {
	var out []charges.Charge
	err := s.db.Read(ctx, Stmt{SQL: `SELECT ` + chargeColumns + ` FROM charges WHERE status = 'open' AND due_date < $1
		ORDER BY due_date, id LIMIT $2`, Args: []any{day.String(), limit}, Rows: scanCharges(&out)})
	if err != nil {
		return nil, s.errorf("reading overdue charges: %w", err)
	}
	return out, nil
}

// ChargeOfPeriod returns the charge issued for subscription period p, or checkout.ErrNotFound.
func (s *Store) ChargeOfPeriod(ctx context.Context, p charges.Period) (charges.Charge, error) {
	var out []charges.Charge
	err := s.db.Read(ctx, Stmt{SQL: `SELECT ` + chargeColumns + ` FROM charges WHERE subscription_id = $1 AND subscription_period = $2`,
		Args: []any{p.Subscription, p.Due.String()}, Rows: scanCharges(&out)})
	if err != nil {
		return charges.Charge{}, s.errorf("reading a subscription's charge: %w", err)
	}
	if len(out) == 0 || p.Subscription == "" {
		return charges.Charge{}, checkout.ErrNotFound
	}
	return out[0], nil
}

// Receivables sums the principal less what was paid of the open and overdue charges, split by
// their due date against today, through charges_status_due.
func (s *Store) Receivables(ctx context.Context, today charges.Date) (charges.Receivables, error) {
	var out charges.Receivables
	err := s.db.Read(ctx, Stmt{SQL: `SELECT due_date < $1, COUNT(*), CAST(COALESCE(SUM(amount - paid), 0) AS BIGINT)
		FROM charges WHERE status IN ('open', 'overdue') GROUP BY due_date < $1`,
		Args: []any{today.String()}, Rows: each(func(r Rows) error {
			var late bool
			var n, amount int64
			if err := r.Scan(&late, &n, &amount); err != nil {
				return err
			}
			o := &out.Open
			if late {
				o = &out.Overdue
			}
			o.Charges, o.Amount = int(n), charges.Cents(amount)
			return nil
		})})
	if err != nil {
		return charges.Receivables{}, s.errorf("summing the unpaid charges: %w", err)
	}
	return out, nil
}
