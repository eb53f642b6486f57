package sqlstore

import (
	"context"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/team"
)

// The merchant's alerts (team.AlertStore): each user's preferences, and the gateway's
// outages every instance shares.

var _ team.AlertStore = (*Store)(nil)

const alertColumns = `user_id, paid, refund_due, gateway, export, lang, updated_at`

// scanAlertPrefs reads a row of alertColumns.
func scanAlertPrefs(r Rows) (team.AlertPrefs, error) {
	var p team.AlertPrefs
	var paid string
	var updated int64
	if err := r.Scan(&p.UserID, &paid, &p.RefundDue, &p.Gateway, &p.Export, &p.Lang, &updated); err != nil {
		return p, err
	}
	p.Paid, p.UpdatedAt = team.PaidMode(paid), fromMS(updated)
	return p, nil
}

// AlertPrefs returns a user's chosen preferences, or checkout.ErrNotFound.
func (s *Store) AlertPrefs(ctx context.Context, userID string) (*team.AlertPrefs, error) {
	var out *team.AlertPrefs
	err := s.db.Read(ctx, Stmt{SQL: `SELECT ` + alertColumns + ` FROM alert_preferences WHERE user_id = $1`, Args: []any{userID},
		Rows: each(func(r Rows) error {
			p, err := scanAlertPrefs(r)
			out = &p
			return err
		})})
	if err != nil {
		return nil, s.errorf("reading alert preferences: %w", err)
	}
	if out == nil {
		return nil, checkout.ErrNotFound
	}
	return out, nil
}

// SaveAlertPrefs stores a user's preferences; an unknown user is checkout.ErrNotFound (the
// INSERT … SELECT finds no user to insert for, so a user removed meanwhile leaves no row).
func (s *Store) SaveAlertPrefs(ctx context.Context, p team.AlertPrefs) error {
	found := false
	err := s.db.Write(ctx, Stmt{SQL: `INSERT INTO alert_preferences (` + alertColumns + `)
		SELECT id, $2, $3, $4, $5, $6, $7 FROM dashboard_users WHERE id = $1
		ON CONFLICT (user_id) DO UPDATE SET paid = excluded.paid, refund_due = excluded.refund_due, gateway = excluded.gateway,
			export = excluded.export, lang = excluded.lang, updated_at = excluded.updated_at`,
		Args:     []any{p.UserID, string(p.Paid), p.RefundDue, p.Gateway, p.Export, p.Lang, ms(p.UpdatedAt)},
		Affected: func(n int64) error { found = n == 1; return nil }})
	if err != nil {
		return s.errorf("saving alert preferences: %w", err)
	}
	if !found {
		return checkout.ErrNotFound
	}
	return nil
}

// UsersAlertPrefs lists every user (by e-mail) with their chosen preferences (nil: never
// chosen), in one statement.
func (s *Store) UsersAlertPrefs(ctx context.Context) ([]team.User, []*team.AlertPrefs, error) {
	var users []team.User
	var prefs []*team.AlertPrefs
	// CASE, not COALESCE: the flags are INTEGER in SQLite and boolean in PostgreSQL.
	flag := func(col string) string { return `CASE WHEN p.` + col + ` THEN 1 ELSE 0 END` }
	err := s.db.Read(ctx, Stmt{SQL: `SELECT u.id, u.email, u.role, COALESCE(p.paid, ''), ` + flag("refund_due") + `, ` +
		flag("gateway") + `, ` + flag("export") + `, COALESCE(p.lang, ''), COALESCE(p.updated_at, 0)
		FROM dashboard_users u LEFT JOIN alert_preferences p ON p.user_id = u.id ORDER BY u.email`,
		Rows: each(func(r Rows) error {
			var u team.User
			var role, paid string
			var p team.AlertPrefs
			var updated, refund, gateway, export int64
			if err := r.Scan(&u.ID, &u.Email, &role, &paid, &refund, &gateway, &export, &p.Lang, &updated); err != nil {
				return err
			}
			p.RefundDue, p.Gateway, p.Export = refund == 1, gateway == 1, export == 1
			u.Role = team.Role(role)
			users = append(users, u)
			if paid == "" {
				prefs = append(prefs, nil)
				return nil
			}
			p.UserID, p.Paid, p.UpdatedAt = u.ID, team.PaidMode(paid), fromMS(updated)
			prefs = append(prefs, &p)
			return nil
		})})
	if err != nil {
		return nil, nil, s.errorf("reading users' alert preferences: %w", err)
	}
	return users, prefs, nil
}

// OpenGatewayOutage records an outage started at since unless one is open, and returns the
// open one's start. The unique index on the open outage decides between instances: a second
// insert does nothing (waiting for a concurrent one to commit), and both read the same row.
func (s *Store) OpenGatewayOutage(ctx context.Context, since time.Time) (time.Time, error) {
	var start int64
	err := s.db.WriteTx(ctx, func(tx Runner) error {
		return tx.Run(ctx,
			Stmt{SQL: `INSERT INTO gateway_outages (started_at) VALUES ($1) ON CONFLICT DO NOTHING`, Args: []any{ms(since)}},
			Stmt{SQL: `SELECT started_at FROM gateway_outages WHERE recovered_at = 0`, Rows: each(func(r Rows) error { return r.Scan(&start) })})
	})
	if err != nil {
		return time.Time{}, s.errorf("recording the gateway's outage: %w", err)
	}
	if start == 0 {
		// The insert met an outage of the same start, already over: that one is this one.
		return since.UTC(), nil
	}
	return fromMS(start), nil
}

// CloseGatewayOutage marks the open outage recovered at at and returns its start.
func (s *Store) CloseGatewayOutage(ctx context.Context, at time.Time) (time.Time, bool, error) {
	var start int64
	err := s.db.Write(ctx, Stmt{SQL: `UPDATE gateway_outages SET recovered_at = $1 WHERE recovered_at = 0 RETURNING started_at`,
		Args: []any{ms(at)}, Rows: each(func(r Rows) error { return r.Scan(&start) })})
	if err != nil {
		return time.Time{}, false, s.errorf("ending the gateway's outage: %w", err)
	}
	return fromMS(start), start != 0, nil
}
