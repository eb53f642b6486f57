package sqlstore

import (
	"context"
	"fmt"
	"strings"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/charges"
	"github.com/pixcheckout/pixcheckout/checkout/subscriptions"
)

// Subscriptions (subscriptions.Store). Days are kept as YYYY-MM-DD text ("" none), as charges'.

var _ subscriptions.Store = (*Store)(nil)

const subscriptionColumns = `id, status, customer_name, customer_document, customer_email, customer_phone, description,
	amount, fine_bps, interest_bps, discount_bps, discount_amount, discount_days, day_of_month, every_weeks,
	start_date, end_date, max_charges, external_code, next_period, next_due, issued, created_at, updated_at, version`

// dayText is day as kept: YYYY-MM-DD, "" when zero.
func dayText(day charges.Date) string {
	if day.IsZero() {
		return ""
	}
	return day.String()
}

// subscriptionArgs are the values of subscriptionColumns, in their order.
func subscriptionArgs(s *subscriptions.Subscription) []any {
	t, sc := &s.Terms, &s.Schedule
	return []any{s.ID, string(s.Status), s.Customer.Name, s.Customer.Document, s.Customer.Email, s.Customer.Phone,
		s.Description, int64(t.Amount), t.FineBps, t.InterestBpsPerMonth, t.Discount.Bps, int64(t.Discount.Amount),
		s.DiscountDays, sc.DayOfMonth, sc.EveryWeeks, dayText(sc.Start), dayText(sc.End), sc.Count, s.ExternalCode,
		s.NextPeriod, dayText(s.NextDue), s.Issued, ms(s.CreatedAt), ms(s.UpdatedAt), s.Version}
}

// scanSubscriptions reads rows of subscriptionColumns into out.
func scanSubscriptions(out *[]subscriptions.Subscription) func(Rows) error {
	return each(func(r Rows) error {
		var s subscriptions.Subscription
		t, sc := &s.Terms, &s.Schedule
		var status, start, end, next string
		var amount, discount, created, updated int64
		if err := r.Scan(&s.ID, &status, &s.Customer.Name, &s.Customer.Document, &s.Customer.Email, &s.Customer.Phone,
			&s.Description, &amount, &t.FineBps, &t.InterestBpsPerMonth, &t.Discount.Bps, &discount,
			&s.DiscountDays, &sc.DayOfMonth, &sc.EveryWeeks, &start, &end, &sc.Count, &s.ExternalCode,
			&s.NextPeriod, &next, &s.Issued, &created, &updated, &s.Version); err != nil {
			return err
		}
		for _, d := range []struct {
			text string
			day  *charges.Date
		}{{start, &sc.Start}, {end, &sc.End}, {next, &s.NextDue}} {
			var err error
			if *d.day, err = optionalDate(d.text); err != nil {
				return fmt.Errorf("subscription %s: %w", s.ID, err)
			}
		}
		s.Status, t.Amount, t.Discount.Amount = subscriptions.Status(status), charges.Cents(amount), charges.Cents(discount)
		s.CreatedAt, s.UpdatedAt = fromMS(created), fromMS(updated)
		*out = append(*out, s)
		return nil
	})
}

// CreateSubscription stores a new subscription.
func (s *Store) CreateSubscription(ctx context.Context, sub subscriptions.Subscription) error {
	var key any // NULL: none, which the unique index lets repeat
	if sub.IdempotencyKey != "" {
		key = sub.IdempotencyKey
	}
	err := s.db.Write(ctx, Stmt{SQL: `INSERT INTO subscriptions (` + subscriptionColumns + `, idempotency_key, request_hash)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23,
			$24, $25, $26, $27)`,
		Args: append(subscriptionArgs(&sub), key, sub.RequestHash)})
	if err != nil {
		return s.errorf("storing a subscription: %w", err)
	}
	return nil
}

// Subscription returns the subscription with that id, or checkout.ErrNotFound.
func (s *Store) Subscription(ctx context.Context, id string) (subscriptions.Subscription, error) {
	var out []subscriptions.Subscription
	if err := s.db.Read(ctx, Stmt{SQL: `SELECT ` + subscriptionColumns + ` FROM subscriptions WHERE id = $1`, Args: []any{id},
		Rows: scanSubscriptions(&out)}); err != nil {
		return subscriptions.Subscription{}, s.errorf("reading a subscription: %w", err)
	}
	if len(out) == 0 {
		return subscriptions.Subscription{}, checkout.ErrNotFound
	}
	return out[0], nil
}

// SubscriptionByIdempotencyKey returns the subscription made with that Idempotency-Key, or
// checkout.ErrNotFound.
func (s *Store) SubscriptionByIdempotencyKey(ctx context.Context, key string) (subscriptions.Subscription, error) {
	c, hash, err := byIdempotencyKey(ctx, s, "subscriptions", subscriptionColumns, key, scanSubscriptions)
	if err != nil {
		return c, err
	}
	c.IdempotencyKey, c.RequestHash = key, hash
	return c, nil
}

// UpdateSubscription stores sub over version sub.Version−1, or answers checkout.ErrConflict (or
// checkout.ErrNotFound when there is no such subscription).
func (s *Store) UpdateSubscription(ctx context.Context, sub subscriptions.Subscription) error {
	updated := false
	err := s.db.Write(ctx, subscriptionUpdate(&sub, func(u bool) error { updated = u; return nil }))
	if err != nil {
		return s.errorf("storing a subscription: %w", err)
	}
	if !updated {
		if _, err := s.Subscription(ctx, sub.ID); err != nil {
			return err
		}
		return checkout.ErrConflict
	}
	return nil
}

// subscriptionUpdate stores sub over version sub.Version−1, telling then whether it did.
func subscriptionUpdate(sub *subscriptions.Subscription, then func(updated bool) error) Stmt {
	return Stmt{SQL: `UPDATE subscriptions SET status = $2, amount = $3, next_period = $4, next_due = $5,
		issued = $6, updated_at = $7, version = $8 WHERE id = $1 AND version = $9`,
		Args: []any{sub.ID, string(sub.Status), int64(sub.Terms.Amount), sub.NextPeriod, dayText(sub.NextDue), sub.Issued,
			ms(sub.UpdatedAt), sub.Version, sub.Version - 1},
		Affected: func(n int64) error { return then(n == 1) }}
}

// ListSubscriptions returns the subscriptions f selects, newest first, by (created_at, id).
func (s *Store) ListSubscriptions(ctx context.Context, f subscriptions.Filter) ([]subscriptions.Subscription, error) {
	var p Params
	page := keysetPage{AfterCreated: f.AfterCreated, AfterID: f.AfterID, Backward: f.Backward, Limit: f.Limit}
	return listKeyset(ctx, s, "subscriptions", subscriptionColumns, subscriptionsWhere(f, &p), p, page, scanSubscriptions)
}

// CountSubscriptions counts the subscriptions f selects, whatever its page, up to limit.
func (s *Store) CountSubscriptions(ctx context.Context, f subscriptions.Filter, limit int) (int, error) {
	var p Params
	return countMatches(ctx, s, "subscriptions", subscriptionsWhere(f, &p), p, limit)
}

// subscriptionsWhere are the conditions of f's filters (not its page), their arguments added to p.
func subscriptionsWhere(f subscriptions.Filter, p *Params) []string {
	var where []string
	if len(f.Status) > 0 {
		in := make([]string, len(f.Status))
		for i, st := range f.Status {
			in[i] = p.Add(string(st))
		}
		where = append(where, `status IN (`+strings.Join(in, ", ")+`)`)
	}
	if term := strings.TrimSpace(f.Search); term != "" {
		where = append(where, customerSearch(term, p))
	}
	return where
}

// customerSearch is the condition that a row of charges or subscriptions holds term: its id
// is term, its customer's name or e-mail or its external code holds it (case aside), or its
// customer's document holds its digits (kept as typed, "529.982.247-25", or not).
func customerSearch(term string, p *Params) string {
	like := p.Add("%" + escapeLike(strings.ToLower(term)) + "%")
	or := []string{`id = ` + p.Add(term)}
	for _, col := range []string{"customer_name", "customer_email", "external_code"} {
		or = append(or, `lower(`+col+`) LIKE `+like+` ESCAPE '\'`)
	}
	if doc := documentChars(term); doc != "" {
		or = append(or, `upper(replace(replace(replace(customer_document, '.', ''), '-', ''), '/', '')) LIKE `+p.Add("%"+doc+"%"))
	}
	return `(` + strings.Join(or, ` OR `) + `)`
}

// SubscriptionsDue returns up to limit active subscriptions due on or before day, by (next_due,
// id), after (afterDue, afterID).
func (s *Store) SubscriptionsDue(ctx context.Context, day, afterDue charges.Date, afterID string, limit int) ([]subscriptions.Subscription, error) {
	var p Params
	where := []string{`status = 'active'`, `next_due <> ''`, `next_due <= ` + p.Add(day.String())}
	if afterID != "" {
		where = append(where, `(next_due, id) > (`+p.Add(afterDue.String())+`, `+p.Add(afterID)+`)`)
	}
	var out []subscriptions.Subscription
	err := s.db.Read(ctx, Stmt{SQL: `SELECT ` + subscriptionColumns + ` FROM subscriptions WHERE ` + strings.Join(where, ` AND `) +
		` ORDER BY next_due, id LIMIT ` + p.Add(limit), Args: p, Rows: scanSubscriptions(&out)})
	if err != nil {
		return nil, s.errorf("reading the subscriptions due: %w", err)
	}
	return out, nil
}
