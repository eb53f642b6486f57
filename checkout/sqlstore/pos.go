package sqlstore

import (
	"context"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/pos"
)

// The point of sale's records (pos.Store): terminals, the terminals each cashier is narrowed
// to, and the settings.

var _ pos.Store = (*Store)(nil)

// Terminals lists every terminal, archived ones too, by name.
func (s *Store) Terminals(ctx context.Context) ([]pos.Terminal, error) {
	var out []pos.Terminal
	err := s.db.Read(ctx, Stmt{SQL: `SELECT id, name, archived_at, created_at, updated_at FROM pos_terminals
		ORDER BY name ` + s.d.CollateBytes + `, id`,
		Rows: each(func(r Rows) error {
			var t pos.Terminal
			var archived, created, updated int64
			if err := r.Scan(&t.ID, &t.Name, &archived, &created, &updated); err != nil {
				return err
			}
			t.ArchivedAt, t.CreatedAt, t.UpdatedAt = fromMS(archived), fromMS(created), fromMS(updated)
			out = append(out, t)
			return nil
		})})
	if err != nil {
		return nil, s.errorf("reading the terminals: %w", err)
	}
	return out, nil
}

// nameTaken is the statement that finds another active terminal named as t.
func nameTaken(t pos.Terminal, taken *bool) Stmt {
	return Stmt{SQL: `SELECT 1 FROM pos_terminals WHERE name = $1 AND id <> $2 AND archived_at = 0`, Args: []any{t.Name, t.ID},
		Rows: func(r Rows) error { *taken = r.Next(); return nil }}
}

// CreateTerminal stores a new terminal; a name another active terminal has is pos.ErrNameTaken.
func (s *Store) CreateTerminal(ctx context.Context, t pos.Terminal) error {
	taken := false
	err := s.db.WriteTx(ctx, func(tx Runner) error {
		if err := tx.Run(ctx, nameTaken(t, &taken)); err != nil || taken {
			return err
		}
		return tx.Run(ctx, Stmt{SQL: `INSERT INTO pos_terminals (id, name, archived_at, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5)`, Args: []any{t.ID, t.Name, ms(t.ArchivedAt), ms(t.CreatedAt), ms(t.UpdatedAt)}})
	})
	if err != nil {
		return s.errorf("storing a terminal: %w", err)
	}
	if taken {
		return pos.ErrNameTaken
	}
	return nil
}

// UpdateTerminal stores a terminal's name and archival.
func (s *Store) UpdateTerminal(ctx context.Context, t pos.Terminal) error {
	taken, found := false, false
	err := s.db.WriteTx(ctx, func(tx Runner) error {
		if !t.Active() {
			taken = false // an archived terminal's name may be anybody's
		} else if err := tx.Run(ctx, nameTaken(t, &taken)); err != nil || taken {
			return err
		}
		return tx.Run(ctx, Stmt{SQL: `UPDATE pos_terminals SET name = $1, archived_at = $2, updated_at = $3 WHERE id = $4`,
			Args:     []any{t.Name, ms(t.ArchivedAt), ms(t.UpdatedAt), t.ID},
			Affected: func(n int64) error { found = n == 1; return nil }})
	})
	switch {
	case err != nil:
		return s.errorf("updating terminal %s: %w", t.ID, err)
	case taken:
		return pos.ErrNameTaken
	case !found:
		return checkout.ErrNotFound
	}
	return nil
}

// CashierTerminals lists the terminals a user was narrowed to.
func (s *Store) CashierTerminals(ctx context.Context, userID string) ([]string, error) {
	var out []string
	err := s.db.Read(ctx, Stmt{SQL: `SELECT terminal_id FROM pos_cashier_terminals WHERE user_id = $1 ORDER BY terminal_id`,
		Args: []any{userID}, Rows: each(func(r Rows) error {
			var id string
			if err := r.Scan(&id); err != nil {
				return err
			}
			out = append(out, id)
			return nil
		})})
	if err != nil {
		return nil, s.errorf("reading the terminals of user %s: %w", userID, err)
	}
	return out, nil
}

// SetCashierTerminals replaces the terminals a user is narrowed to, in one transaction.
func (s *Store) SetCashierTerminals(ctx context.Context, userID string, terminals []string) error {
	found, missing := false, false
	err := s.db.WriteTx(ctx, func(tx Runner) error {
		if err := tx.Run(ctx, Stmt{SQL: `SELECT 1 FROM dashboard_users WHERE id = $1`, Args: []any{userID},
			Rows: func(r Rows) error { found = r.Next(); return nil }}); err != nil || !found {
			return err
		}
		stmts := []Stmt{{SQL: `DELETE FROM pos_cashier_terminals WHERE user_id = $1`, Args: []any{userID}}}
		for _, id := range terminals {
			stmts = append(stmts, Stmt{SQL: `INSERT INTO pos_cashier_terminals (user_id, terminal_id)
				SELECT $1, id FROM pos_terminals WHERE id = $2`, Args: []any{userID, id},
				Affected: func(n int64) error { missing = missing || n == 0; return nil }})
		}
		if err := tx.Run(ctx, stmts...); err != nil {
			return err
		}
		if missing {
			return checkout.ErrNotFound // rolls the change back
		}
		return nil
	})
	switch {
	case missing || (err == nil && !found):
		return checkout.ErrNotFound
	case err != nil:
		return s.errorf("narrowing the terminals of user %s: %w", userID, err)
	}
	return nil
}

// POSSettings returns the saved settings, or checkout.ErrNotFound.
func (s *Store) POSSettings(ctx context.Context) (*pos.Settings, error) {
	var out *pos.Settings
	err := s.db.Read(ctx, Stmt{SQL: `SELECT qr_seconds, idle_seconds, updated_at FROM pos_settings WHERE id = 1`,
		Rows: each(func(r Rows) error {
			var qr, idle int
			var updated int64
			if err := r.Scan(&qr, &idle, &updated); err != nil {
				return err
			}
			out = &pos.Settings{QRLifetime: time.Duration(qr) * time.Second, IdleLimit: time.Duration(idle) * time.Second,
				UpdatedAt: fromMS(updated)}
			return nil
		})})
	if err != nil {
		return nil, s.errorf("reading the point of sale's settings: %w", err)
	}
	if out == nil {
		return nil, checkout.ErrNotFound
	}
	return out, nil
}

// SavePOSSettings stores the settings.
func (s *Store) SavePOSSettings(ctx context.Context, p pos.Settings) error {
	err := s.db.Write(ctx, Stmt{SQL: `INSERT INTO pos_settings (id, qr_seconds, idle_seconds, updated_at) VALUES (1, $1, $2, $3)
		ON CONFLICT (id) DO UPDATE SET qr_seconds = excluded.qr_seconds, idle_seconds = excluded.idle_seconds,
			updated_at = excluded.updated_at`,
		Args: []any{int(p.QRLifetime / time.Second), int(p.IdleLimit / time.Second), ms(p.UpdatedAt)}})
	if err != nil {
		return s.errorf("saving the point of sale's settings: %w", err)
	}
	return nil
}

// Closing reads the day's closing in two statements sent together: the totals of each
// terminal and cashier summed by the database, and the sales, first placed first. Both find
// the day's sales through orders_channel_created (or orders_terminal, orders_cashier).
func (s *Store) Closing(ctx context.Context, q pos.ClosingQuery) ([]pos.ClosingGroup, error) {
	f := checkout.OrderFilter{Channels: []checkout.Channel{checkout.ChannelPOS}, CreatedFrom: q.From, CreatedBefore: q.Before,
		TerminalID: q.TerminalID, CashierID: q.CashierID, Sort: checkout.SortCreatedAsc}
	var tp, lp Params
	totals := `SELECT o.terminal_id, o.cashier_id, COUNT(*),
		CAST(SUM(CASE WHEN o.paid_at > 0 THEN 1 ELSE 0 END) AS BIGINT),
		CAST(SUM(CASE WHEN o.paid_at > 0 THEN o.amount ELSE 0 END) AS BIGINT),
		CAST(SUM(CASE WHEN o.status = ` + tp.Add(string(checkout.StatusCanceled)) + ` THEN 1 ELSE 0 END) AS BIGINT),
		CAST(SUM(CASE WHEN o.status = ` + tp.Add(string(checkout.StatusExpired)) + ` THEN 1 ELSE 0 END) AS BIGINT),
		MIN(o.created_at), MAX(o.created_at)
		FROM orders o ` + s.ordersWhere(f, &tp) + ` GROUP BY o.terminal_id, o.cashier_id ORDER BY 1, 2`
	list := `SELECT ` + summaryColumns + ` FROM orders o ` + s.ordersWhere(f, &lp) + s.orderBy(f, "o.")
	var groups []pos.ClosingGroup
	index := map[[2]string]int{}
	var sales []checkout.OrderSummary
	err := s.report(ctx, func() error {
		return s.readBatch(ctx, Stmt{SQL: totals, Args: tp, Rows: each(func(r Rows) error {
			g, err := scanClosingTotals(r)
			index[[2]string{g.TerminalID, g.CashierID}] = len(groups)
			groups = append(groups, g)
			return err
		})}, Stmt{SQL: list, Args: lp, Rows: each(func(r Rows) error {
			o, err := scanSummary(r)
			sales = append(sales, o)
			return err
		})})
	})
	if err != nil {
		return nil, s.errorf("reading the closing: %w", err)
	}
	for _, o := range sales {
		if i, ok := index[[2]string{o.TerminalID, o.CashierID}]; ok {
			groups[i].Sales = append(groups[i].Sales, o)
		}
	}
	return groups, nil
}

// scanClosingTotals reads a row of the closing's totals.
func scanClosingTotals(r Rows) (pos.ClosingGroup, error) {
	var g pos.ClosingGroup
	var count, paid, amount, canceled, expired, first, last int64
	if err := r.Scan(&g.TerminalID, &g.CashierID, &count, &paid, &amount, &canceled, &expired, &first, &last); err != nil {
		return g, err
	}
	g.Count, g.Canceled, g.Expired = int(count), int(canceled), int(expired)
	g.Paid = checkout.PaidTotal{Orders: int(paid), Amount: checkout.Cents(amount)}
	g.First, g.Last = fromMS(first), fromMS(last)
	return g, nil
}
