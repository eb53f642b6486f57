package sqlstore

import (
	"context"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/pos"
)

// The point of sale's customer displays (pos.DisplayStore): pairing codes and paired displays,
// both kept by the hashes of their secrets.

var _ pos.DisplayStore = (*Store)(nil)

// CreateDisplayCode stores a pairing code's hash, forgetting the expired codes first (a code's
// digits come round again); an unexpired code with the same hash is ok false.
func (s *Store) CreateDisplayCode(ctx context.Context, codeHash, terminalID string, created, expires time.Time) (bool, error) {
	ok := false
	err := s.db.WriteTx(ctx, func(tx Runner) error {
		return tx.Run(ctx,
			Stmt{SQL: `DELETE FROM pos_display_codes WHERE expires_at <= $1`, Args: []any{ms(created)}},
			Stmt{SQL: `INSERT INTO pos_display_codes (code_hash, terminal_id, expires_at, used_at, created_at)
				VALUES ($1, $2, $3, 0, $4) ON CONFLICT (code_hash) DO NOTHING`,
				Args:     []any{codeHash, terminalID, ms(expires), ms(created)},
				Affected: func(n int64) error { ok = n == 1; return nil }})
	})
	if err != nil {
		return false, s.errorf("storing a pairing code of terminal %s: %w", terminalID, err)
	}
	return ok, nil
}

// PairDisplay uses a live code and stores the display it pairs, in one transaction: of two
// displays typing the same code at once, one pairs.
func (s *Store) PairDisplay(ctx context.Context, codeHash, tokenHash string, now time.Time, d *pos.Display) error {
	terminal := ""
	err := s.db.WriteTx(ctx, func(tx Runner) error {
		if err := tx.Run(ctx, Stmt{SQL: `UPDATE pos_display_codes SET used_at = $1
			WHERE code_hash = $2 AND used_at = 0 AND expires_at > $1 RETURNING terminal_id`,
			Args: []any{ms(now), codeHash}, Rows: each(func(r Rows) error { return r.Scan(&terminal) })}); err != nil || terminal == "" {
			return err
		}
		return tx.Run(ctx, Stmt{SQL: `INSERT INTO pos_displays (id, terminal_id, token_hash, created_at, revoked_at)
			VALUES ($1, $2, $3, $4, 0)`, Args: []any{d.ID, terminal, tokenHash, ms(d.CreatedAt)}})
	})
	if err != nil {
		return s.errorf("pairing a display: %w", err)
	}
	if terminal == "" {
		return checkout.ErrNotFound
	}
	d.TerminalID = terminal
	return nil
}

// DisplayByToken returns the display of a token's hash.
func (s *Store) DisplayByToken(ctx context.Context, tokenHash string) (*pos.Display, error) {
	list, err := s.readDisplays(ctx, `WHERE token_hash = $1`, tokenHash)
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, checkout.ErrNotFound
	}
	return &list[0], nil
}

// Displays lists every display, newest first.
func (s *Store) Displays(ctx context.Context) ([]pos.Display, error) { return s.readDisplays(ctx, "") }

// readDisplays reads the displays a WHERE clause ("" all) keeps, newest first.
func (s *Store) readDisplays(ctx context.Context, where string, args ...any) ([]pos.Display, error) {
	var out []pos.Display
	err := s.db.Read(ctx, Stmt{SQL: `SELECT id, terminal_id, created_at, revoked_at FROM pos_displays ` + where +
		` ORDER BY created_at DESC, id`, Args: args,
		Rows: each(func(r Rows) error {
			var d pos.Display
			var created, revoked int64
			if err := r.Scan(&d.ID, &d.TerminalID, &created, &revoked); err != nil {
				return err
			}
			d.CreatedAt, d.RevokedAt = fromMS(created), fromMS(revoked)
			out = append(out, d)
			return nil
		})})
	if err != nil {
		return nil, s.errorf("reading the displays: %w", err)
	}
	return out, nil
}

// RevokeDisplay marks a display revoked; revoking it again keeps the first moment.
func (s *Store) RevokeDisplay(ctx context.Context, id string, at time.Time) (string, error) {
	terminal := ""
	err := s.db.Write(ctx, Stmt{SQL: `UPDATE pos_displays SET revoked_at = CASE WHEN revoked_at = 0 THEN $1 ELSE revoked_at END
		WHERE id = $2 RETURNING terminal_id`, Args: []any{ms(at), id}, Rows: each(func(r Rows) error { return r.Scan(&terminal) })})
	if err != nil {
		return "", s.errorf("revoking display %s: %w", id, err)
	}
	if terminal == "" {
		return "", checkout.ErrNotFound
	}
	return terminal, nil
}
