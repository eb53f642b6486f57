package sqlstore

import (
	"context"
	"errors"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/team"
)

// The dashboard's self-service password resets (team.PasswordResetStore).

var _ team.PasswordResetStore = (*Store)(nil)

const resetColumns = `id, user_id, token_hash, created_at, expires_at, used_at`

// CreatePasswordReset stores a new password reset, and the messages out (its e-mail) in the
// same transaction.
func (s *Store) CreatePasswordReset(ctx context.Context, r team.PasswordReset, out ...checkout.OutboxMessage) error {
	msgs, err := OutboxStatements(out...)
	if err != nil {
		return s.errorf("storing a password reset: %w", err)
	}
	err = s.writeBatch(ctx, append([]Stmt{{SQL: `INSERT INTO password_resets (` + resetColumns + `) VALUES ($1, $2, $3, $4, $5, $6)`,
		Args: []any{r.ID, r.UserID, r.TokenHash, ms(r.CreatedAt), ms(r.ExpiresAt), ms(r.UsedAt)}}}, msgs...)...)
	if err != nil {
		return s.errorf("storing a password reset: %w", err)
	}
	return nil
}

// PasswordResetByTokenHash returns the reset with that token hash, or checkout.ErrNotFound.
func (s *Store) PasswordResetByTokenHash(ctx context.Context, hash string) (*team.PasswordReset, error) {
	var out []team.PasswordReset
	err := s.db.Read(ctx, Stmt{SQL: `SELECT ` + resetColumns + ` FROM password_resets WHERE token_hash = $1`, Args: []any{hash},
		Rows: each(func(r Rows) error {
			var pr team.PasswordReset
			var created, expires, used int64
			if err := r.Scan(&pr.ID, &pr.UserID, &pr.TokenHash, &created, &expires, &used); err != nil {
				return err
			}
			pr.CreatedAt, pr.ExpiresAt, pr.UsedAt = fromMS(created), fromMS(expires), fromMS(used)
			out = append(out, pr)
			return nil
		})})
	if err != nil {
		return nil, s.errorf("reading a password reset: %w", err)
	}
	if len(out) == 0 {
		return nil, checkout.ErrNotFound
	}
	return &out[0], nil
}

// UsePasswordReset marks the reset used (with the user's other unused ones) and sets the
// user's password, in one transaction; the first UPDATE decides, so that two uses of one link
// at once make one password.
func (s *Store) UsePasswordReset(ctx context.Context, id, hash string, at time.Time) error {
	err := s.db.WriteTx(ctx, func(tx Runner) error {
		used := false
		err := tx.Run(ctx, Stmt{SQL: `UPDATE password_resets SET used_at = $2 WHERE id = $1 AND used_at = 0 AND expires_at > $2`,
			Args: []any{id, ms(at)}, Affected: func(n int64) error { used = n == 1; return nil }})
		if err != nil {
			return err
		}
		if !used {
			return team.ErrPasswordResetInvalid
		}
		err = tx.Run(ctx, Stmt{SQL: `UPDATE password_resets SET used_at = $2
			WHERE user_id = (SELECT user_id FROM password_resets WHERE id = $1) AND used_at = 0`, Args: []any{id, ms(at)}})
		if err != nil {
			return err
		}
		found := false
		err = tx.Run(ctx, Stmt{SQL: `UPDATE dashboard_users SET password_hash = $2, updated_at = $3
			WHERE id = (SELECT user_id FROM password_resets WHERE id = $1)`,
			Args: []any{id, hash, ms(at)}, Affected: func(n int64) error { found = n == 1; return nil }})
		if err != nil {
			return err
		}
		if !found {
			return team.ErrPasswordResetInvalid
		}
		return nil
	})
	if errors.Is(err, team.ErrPasswordResetInvalid) {
		return err
	}
	if err != nil {
		return s.errorf("using a password reset: %w", err)
	}
	return nil
}
