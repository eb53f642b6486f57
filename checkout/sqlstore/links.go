package sqlstore

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

var _ checkout.LinkStore = (*Store)(nil)

// A payment link's lines are kept as JSON in its row, as a checkout session's (sessionLine):
// it is written and read with one statement.

const linkColumns = `id, slug, idempotency_key, request_hash, title, description, kind, lines, amount, min_amount,
	max_amount, require_address, max_payments, expires_at, active, created_at, updated_at, ask_email, ask_phone`

func linkLinesJSON(l *checkout.PaymentLink) (string, error) {
	if len(l.Lines) == 0 {
		return "", nil
	}
	lines := make([]sessionLine, len(l.Lines))
	for i, ln := range l.Lines {
		lines[i] = sessionLine{ProductID: string(ln.ProductID), Title: ln.Title, Description: ln.Description,
			UnitPrice: int64(ln.UnitPrice), Quantity: ln.Quantity, Physical: ln.Physical}
	}
	b, err := json.Marshal(lines)
	return string(b), err
}

// CreateLink stores l, or returns the link of its idempotency key (created false); a slug
// taken by another link is checkout.ErrSlugTaken. The insert skips any conflict of a unique
// column, and a read says which it was.
func (s *Store) CreateLink(ctx context.Context, l *checkout.PaymentLink) (*checkout.PaymentLink, bool, error) {
	if l.ID == "" || l.Slug == "" {
		return nil, false, s.errorf("a payment link needs an id and a slug")
	}
	lj, err := linkLinesJSON(l)
	if err != nil {
		return nil, false, s.errorf("encoding the payment link's lines: %w", err)
	}
	created := false
	var stored []*checkout.PaymentLink
	err = s.db.WriteTx(ctx, func(tx Runner) error {
		insert := Stmt{SQL: `INSERT INTO payment_links (` + linkColumns + `)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)
			ON CONFLICT DO NOTHING RETURNING id`,
			Args: []any{l.ID, l.Slug, nullString(l.IdempotencyKey), l.RequestHash, l.Title, l.Description, l.Kind, lj,
				int64(l.Amount), int64(l.MinAmount), int64(l.MaxAmount), l.RequireAddress, l.MaxPayments, ms(l.ExpiresAt),
				l.Active, ms(l.CreatedAt), ms(l.UpdatedAt), l.AskEmail, l.AskPhone},
			Rows: func(r Rows) error { created = r.Next(); return nil }}
		if err := tx.Run(ctx, insert); err != nil || created || l.IdempotencyKey == "" {
			return err
		}
		return tx.Run(ctx, s.readLinks(`WHERE idempotency_key = $1`, []any{l.IdempotencyKey}, &stored))
	})
	switch {
	case err != nil:
		return nil, false, s.errorf("storing a payment link: %w", err)
	case created:
		return l, true, nil
	case len(stored) > 0:
		return stored[0], false, nil
	}
	return nil, false, checkout.ErrSlugTaken
}

// UpdateLink stores the changeable part of l.
func (s *Store) UpdateLink(ctx context.Context, l *checkout.PaymentLink) error {
	lj, err := linkLinesJSON(l)
	if err != nil {
		return s.errorf("encoding the payment link's lines: %w", err)
	}
	taken, found := false, false
	err = s.db.WriteTx(ctx, func(tx Runner) error {
		if err := tx.Run(ctx, Stmt{SQL: `SELECT 1 FROM payment_links WHERE slug = $1 AND id <> $2`, Args: []any{l.Slug, l.ID},
			Rows: func(r Rows) error { taken = r.Next(); return nil }}); err != nil || taken {
			return err
		}
		return tx.Run(ctx, Stmt{SQL: `UPDATE payment_links SET slug = $1, title = $2, description = $3, kind = $4,
				lines = $5, amount = $6, min_amount = $7, max_amount = $8, require_address = $9, max_payments = $10,
				expires_at = $11, active = $12, updated_at = $13, ask_email = $14, ask_phone = $15
			WHERE id = $16`,
			Args: []any{l.Slug, l.Title, l.Description, l.Kind, lj, int64(l.Amount), int64(l.MinAmount), int64(l.MaxAmount),
				l.RequireAddress, l.MaxPayments, ms(l.ExpiresAt), l.Active, ms(l.UpdatedAt), l.AskEmail, l.AskPhone, l.ID},
			Affected: func(n int64) error { found = n == 1; return nil }})
	})
	switch {
	case err != nil:
		return s.errorf("updating payment link %s: %w", l.ID, err)
	case taken:
		return checkout.ErrSlugTaken
	case !found:
		return checkout.ErrNotFound
	}
	return nil
}

// Link returns a payment link by id.
func (s *Store) Link(ctx context.Context, id string) (*checkout.PaymentLink, error) {
	return s.linkWhere(ctx, `WHERE id = $1`, id)
}

// LinkBySlug returns a payment link by slug.
func (s *Store) LinkBySlug(ctx context.Context, slug string) (*checkout.PaymentLink, error) {
	return s.linkWhere(ctx, `WHERE slug = $1`, slug)
}

// LinkByIdempotencyKey returns the payment link made with key.
func (s *Store) LinkByIdempotencyKey(ctx context.Context, key string) (*checkout.PaymentLink, error) {
	return s.linkWhere(ctx, `WHERE idempotency_key = $1`, key)
}

func (s *Store) linkWhere(ctx context.Context, where, key string) (*checkout.PaymentLink, error) {
	if key == "" || !s.storable(key) {
		return nil, checkout.ErrNotFound
	}
	var list []*checkout.PaymentLink
	if err := s.db.Read(ctx, s.readLinks(where, []any{key}, &list)); err != nil {
		return nil, s.errorf("reading a payment link: %w", err)
	}
	if len(list) == 0 {
		return nil, checkout.ErrNotFound
	}
	return list[0], nil
}

// Links lists every payment link, newest first.
func (s *Store) Links(ctx context.Context) ([]checkout.PaymentLink, error) {
	var list []*checkout.PaymentLink
	if err := s.db.Read(ctx, s.readLinks(`ORDER BY created_at DESC, id DESC`, nil, &list)); err != nil {
		return nil, s.errorf("listing payment links: %w", err)
	}
	out := make([]checkout.PaymentLink, len(list))
	for i, l := range list {
		out[i] = *l
	}
	return out, nil
}

// readLinks returns the statement reading the links tail selects into *out.
func (s *Store) readLinks(tail string, args []any, out *[]*checkout.PaymentLink) Stmt {
	return Stmt{SQL: `SELECT ` + linkColumns + ` FROM payment_links ` + tail, Args: args,
		Rows: each(func(r Rows) error {
			l := &checkout.PaymentLink{}
			var key *string
			var lj string
			var amount, lo, hi, expires, created, updated int64
			if err := r.Scan(&l.ID, &l.Slug, &key, &l.RequestHash, &l.Title, &l.Description, &l.Kind, &lj, &amount, &lo,
				&hi, &l.RequireAddress, &l.MaxPayments, &expires, &l.Active, &created, &updated, &l.AskEmail,
				&l.AskPhone); err != nil {
				return fmt.Errorf("reading payment links: %w", err)
			}
			if key != nil {
				l.IdempotencyKey = *key
			}
			if lj != "" {
				var lines []sessionLine
				if err := json.Unmarshal([]byte(lj), &lines); err != nil {
					return fmt.Errorf("reading the lines of a payment link: %w", err)
				}
				for _, ln := range lines {
					l.Lines = append(l.Lines, checkout.OrderLine{ProductID: checkout.ProductID(ln.ProductID), Title: ln.Title,
						Description: ln.Description, UnitPrice: gatewayclient.Cents(ln.UnitPrice), Quantity: ln.Quantity,
						Physical: ln.Physical})
				}
			}
			l.Amount, l.MinAmount, l.MaxAmount = gatewayclient.Cents(amount), gatewayclient.Cents(lo), gatewayclient.Cents(hi)
			l.ExpiresAt, l.CreatedAt, l.UpdatedAt = fromMS(expires), fromMS(created), fromMS(updated)
			*out = append(*out, l)
			return nil
		})}
}

// HoldLinkPlace holds a place of a link for an order, when one is free, in one transaction
// that holds the link's row (PostgreSQL: FOR UPDATE; SQLite: the write transaction holds the
// database): the count and the hold are one step for every other holder.
//
// A hold counts while its until is ahead and its order is not stored yet (the order is written
// just after its place is held), or waits for payment, or expired (until ends it: a QR code's
// lifetime and a grace), and not once the order failed or was paid (paid orders count as
// such).
func (s *Store) HoldLinkPlace(ctx context.Context, linkID, orderKey string, until, now time.Time, max int) (bool, error) {
	places := s.d.List(statusStrings(checkout.LinkPlaceStatuses()))
	open := s.d.List([]string{string(checkout.StatusPending), string(checkout.StatusAwaitingPayment),
		string(checkout.StatusExpired)})
	held := false
	err := s.db.WriteTx(ctx, func(tx Runner) error {
		found := false
		if err := tx.Run(ctx, Stmt{SQL: `SELECT id FROM payment_links WHERE id = $1 ` + s.lockRows("FOR UPDATE"),
			Args: []any{linkID}, Rows: func(r Rows) error { found = r.Next(); return nil }}); err != nil {
			return err
		}
		if !found {
			return checkout.ErrNotFound
		}
		var taken int
		err := tx.Run(ctx, Stmt{SQL: `SELECT
				(SELECT COUNT(*) FROM orders o WHERE o.link_id = $1 AND o.link_id <> '' AND ` + s.d.OneOf("o.status", "$2") + `)
				+ (SELECT COUNT(*) FROM payment_link_holds h LEFT JOIN orders o ON o.request_key = h.order_key
					WHERE h.link_id = $1 AND h.until > $3 AND h.order_key <> $4
					AND (o.id IS NULL OR ` + s.d.OneOf("o.status", "$5") + `))`,
			Args: []any{linkID, places, ms(now), orderKey, open},
			Rows: each(func(r Rows) error { return r.Scan(&taken) })})
		if err != nil || taken >= max {
			return err
		}
		held = true
		return tx.Run(ctx, Stmt{SQL: `INSERT INTO payment_link_holds (order_key, link_id, until) VALUES ($1, $2, $3)
			ON CONFLICT (order_key) DO UPDATE SET until = excluded.until`, Args: []any{orderKey, linkID, ms(until)}})
	})
	if err == checkout.ErrNotFound {
		return false, err
	}
	if err != nil {
		return false, s.errorf("holding a place of payment link %s: %w", linkID, err)
	}
	return held, nil
}

// ReleaseLinkPlace deletes the hold of an order, by its request key.
func (s *Store) ReleaseLinkPlace(ctx context.Context, orderKey string) error {
	if err := s.db.Write(ctx, Stmt{SQL: `DELETE FROM payment_link_holds WHERE order_key = $1`, Args: []any{orderKey}}); err != nil {
		return s.errorf("releasing a place: %w", err)
	}
	return nil
}

// LinkStats counts and sums the orders of the links that were paid.
func (s *Store) LinkStats(ctx context.Context, ids []string) (map[string]checkout.LinkStats, error) {
	out := map[string]checkout.LinkStats{}
	if len(ids) == 0 {
		return out, nil
	}
	paid := []string{string(checkout.StatusPaid), string(checkout.StatusRefunding), string(checkout.StatusRefunded)}
	err := s.db.Read(ctx, Stmt{SQL: `SELECT link_id, COUNT(*), COALESCE(SUM(amount), 0) FROM orders
		WHERE link_id <> '' AND ` + s.d.OneOf("link_id", "$1") + ` AND ` + s.d.OneOf("status", "$2") + `
		GROUP BY link_id`,
		Args: []any{s.d.List(ids), s.d.List(paid)},
		Rows: each(func(r Rows) error {
			var id string
			var st checkout.LinkStats
			var sum int64
			if err := r.Scan(&id, &st.Payments, &sum); err != nil {
				return err
			}
			st.Received = gatewayclient.Cents(sum)
			out[id] = st
			return nil
		})})
	if err != nil {
		return nil, s.errorf("payments of payment links: %w", err)
	}
	return out, nil
}

func statusStrings(sts []checkout.OrderStatus) []string {
	out := make([]string, len(sts))
	for i, st := range sts {
		out[i] = string(st)
	}
	return out
}

// linkCond is the condition of OrderFilter.LinkID; the "<> ”" term repeats the predicate of
// the partial index orders_link (see ordersWhere).
func linkCond(id string, p *Params) string {
	return "o.link_id = " + p.Add(id) + " AND o.link_id <> ''"
}
