package sqlstore

import (
	"context"
	"errors"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/audit"
	"github.com/pixcheckout/pixcheckout/checkout/team"
)

// The dashboard's invitations (team.InvitationStore) and the audit log
// (audit.Store).

var (
	_ team.InvitationStore = (*Store)(nil)
	_ audit.Store          = (*Store)(nil)
)

const invitationColumns = `id, token_hash, email, role, invited_by, created_at, expires_at, used_at`

// CreateInvitation stores a new invitation, and the messages out in the same transaction.
func (s *Store) CreateInvitation(ctx context.Context, inv team.Invitation, out ...checkout.OutboxMessage) error {
	msgs, err := OutboxStatements(out...)
	if err != nil {
		return s.errorf("storing an invitation: %w", err)
	}
	err = s.writeBatch(ctx, append([]Stmt{{SQL: `INSERT INTO dashboard_invitations (` + invitationColumns + `) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
		Args: []any{inv.ID, inv.TokenHash, inv.Email, string(inv.Role), inv.InvitedBy, ms(inv.CreatedAt), ms(inv.ExpiresAt), ms(inv.UsedAt)}}}, msgs...)...)
	if err != nil {
		return s.errorf("storing an invitation: %w", err)
	}
	return nil
}

// InvitationByTokenHash returns the invitation with that token hash, or checkout.ErrNotFound.
func (s *Store) InvitationByTokenHash(ctx context.Context, hash string) (*team.Invitation, error) {
	var out []team.Invitation
	if err := s.db.Read(ctx, readInvitations(`WHERE token_hash = $1`, []any{hash}, &out)); err != nil {
		return nil, s.errorf("reading an invitation: %w", err)
	}
	if len(out) == 0 {
		return nil, checkout.ErrNotFound
	}
	return &out[0], nil
}

// PendingInvitations lists the invitations neither used nor expired at now, newest first.
func (s *Store) PendingInvitations(ctx context.Context, now time.Time) ([]team.Invitation, error) {
	var out []team.Invitation
	if err := s.db.Read(ctx, readInvitations(`WHERE used_at = 0 AND expires_at > $1 ORDER BY created_at DESC, id`,
		[]any{ms(now)}, &out)); err != nil {
		return nil, s.errorf("listing invitations: %w", err)
	}
	return out, nil
}

// AcceptInvitation marks the invitation used and creates the user, in one transaction.
func (s *Store) AcceptInvitation(ctx context.Context, id string, u team.User, at time.Time) error {
	err := s.db.WriteTx(ctx, func(tx Runner) error {
		used, inserted := false, false
		err := tx.Run(ctx, Stmt{SQL: `UPDATE dashboard_invitations SET used_at = $2 WHERE id = $1 AND used_at = 0 AND expires_at > $2`,
			Args: []any{id, ms(at)}, Affected: func(n int64) error { used = n == 1; return nil }})
		if err != nil {
			return err
		}
		if !used {
			return team.ErrInvitationInvalid
		}
		args, err := s.userArgs(u)
		if err != nil {
			return err
		}
		err = tx.Run(ctx, Stmt{SQL: `INSERT INTO dashboard_users (` + userColumns + `) VALUES (` + userValues + `)
			ON CONFLICT DO NOTHING`,
			Args:     args,
			Affected: func(n int64) error { inserted = n == 1; return nil }})
		if err != nil {
			return err
		}
		if !inserted {
			return team.ErrEmailTaken
		}
		return nil
	})
	if errors.Is(err, team.ErrInvitationInvalid) || errors.Is(err, team.ErrEmailTaken) {
		return err
	}
	if err != nil {
		return s.errorf("accepting an invitation: %w", err)
	}
	return nil
}

// DeleteInvitation withdraws an invitation.
func (s *Store) DeleteInvitation(ctx context.Context, id string) error {
	if !s.storable(id) {
		return checkout.ErrNotFound
	}
	found := false
	err := s.db.Write(ctx, Stmt{SQL: `DELETE FROM dashboard_invitations WHERE id = $1`, Args: []any{id},
		Affected: func(n int64) error { found = n == 1; return nil }})
	if err != nil {
		return s.errorf("withdrawing an invitation: %w", err)
	}
	if !found {
		return checkout.ErrNotFound
	}
	return nil
}

func readInvitations(tail string, args []any, out *[]team.Invitation) Stmt {
	return Stmt{SQL: `SELECT ` + invitationColumns + ` FROM dashboard_invitations ` + tail, Args: args,
		Rows: each(func(r Rows) error {
			var inv team.Invitation
			var role string
			var created, expires, used int64
			if err := r.Scan(&inv.ID, &inv.TokenHash, &inv.Email, &role, &inv.InvitedBy, &created, &expires, &used); err != nil {
				return err
			}
			inv.Role, inv.CreatedAt, inv.ExpiresAt, inv.UsedAt = team.Role(role), fromMS(created), fromMS(expires), fromMS(used)
			*out = append(*out, inv)
			return nil
		})}
}

// AppendAudit adds an entry to the audit log.
func (s *Store) AppendAudit(ctx context.Context, e audit.Entry) error {
	if err := s.db.Write(ctx, auditStmt(e)); err != nil {
		return s.errorf("appending to the audit log: %w", err)
	}
	return nil
}

// auditStmt appends e to the audit log, on its own or in the transaction of what it records.
func auditStmt(e audit.Entry) Stmt {
	return Stmt{SQL: `INSERT INTO audit_log (at, actor, action, object, address, detail) VALUES ($1, $2, $3, $4, $5, $6)`,
		Args: []any{ms(e.At), e.Actor, e.Action, e.Object, e.Address, e.Detail}}
}

// Entries lists the entries f selects, newest first.
func (s *Store) Entries(ctx context.Context, f audit.Filter) ([]audit.Entry, error) {
	var p Params
	where := "WHERE 1 = 1"
	if f.Actor != "" {
		where += " AND actor = " + p.Add(f.Actor)
	}
	if f.Action != "" {
		where += " AND action = " + p.Add(f.Action)
	}
	if f.BeforeID > 0 {
		where += " AND id < " + p.Add(f.BeforeID)
	}
	tail := ""
	if f.Limit > 0 {
		tail = " LIMIT " + p.Add(f.Limit)
	}
	var out []audit.Entry
	err := s.db.Read(ctx, Stmt{SQL: `SELECT id, at, actor, action, object, address, detail FROM audit_log ` + where +
		` ORDER BY id DESC` + tail, Args: p, Rows: each(func(r Rows) error {
		var e audit.Entry
		var at int64
		if err := r.Scan(&e.ID, &at, &e.Actor, &e.Action, &e.Object, &e.Address, &e.Detail); err != nil {
			return err
		}
		e.At = fromMS(at)
		out = append(out, e)
		return nil
	})})
	if err != nil {
		return nil, s.errorf("reading the audit log: %w", err)
	}
	return out, nil
}

// Actors lists every actor of the audit log, sorted.
func (s *Store) Actors(ctx context.Context) ([]string, error) {
	var out []string
	err := s.db.Read(ctx, Stmt{SQL: `SELECT actor FROM audit_log GROUP BY actor ORDER BY actor ` + s.d.CollateBytes,
		Rows: each(func(r Rows) error {
			var a string
			err := r.Scan(&a)
			out = append(out, a)
			return err
		})})
	if err != nil {
		return nil, s.errorf("listing the audit log's actors: %w", err)
	}
	return out, nil
}

// PruneAudit deletes the entries older than before.
func (s *Store) PruneAudit(ctx context.Context, before time.Time) (int, error) {
	var n int64
	err := s.db.Write(ctx, Stmt{SQL: `DELETE FROM audit_log WHERE at < $1`, Args: []any{ms(before)},
		Affected: func(v int64) error { n = v; return nil }})
	if err != nil {
		return 0, s.errorf("pruning the audit log: %w", err)
	}
	return int(n), nil
}

var _ team.SignInStore = (*Store)(nil)

const userSessionColumns = `id, user_id, created_at, seen_at, address, user_agent`

// CreateSignIn stores a new session of a user.
func (s *Store) CreateSignIn(ctx context.Context, us team.SignIn) error {
	err := s.db.Write(ctx, Stmt{SQL: `INSERT INTO dashboard_sessions (` + userSessionColumns + `) VALUES ($1, $2, $3, $4, $5, $6)`,
		Args: []any{us.ID, us.UserID, ms(us.CreatedAt), ms(us.SeenAt), us.Address, us.UserAgent}})
	if err != nil {
		return s.errorf("storing a user's session: %w", err)
	}
	return nil
}

// SignIn returns a session, or checkout.ErrNotFound.
func (s *Store) SignIn(ctx context.Context, id string) (*team.SignIn, error) {
	if !s.storable(id) {
		return nil, checkout.ErrNotFound
	}
	var out []team.SignIn
	if err := s.db.Read(ctx, readSignIns(`WHERE id = $1`, []any{id}, &out)); err != nil {
		return nil, s.errorf("reading a user's session: %w", err)
	}
	if len(out) == 0 {
		return nil, checkout.ErrNotFound
	}
	return &out[0], nil
}

// SeeSignIn sets a session's last request time.
func (s *Store) SeeSignIn(ctx context.Context, id string, at time.Time) error {
	if err := s.db.Write(ctx, Stmt{SQL: `UPDATE dashboard_sessions SET seen_at = $2 WHERE id = $1 AND seen_at < $2`,
		Args: []any{id, ms(at)}}); err != nil {
		return s.errorf("noting a session's request: %w", err)
	}
	return nil
}

// SignIns lists a user's sessions, the last seen first.
func (s *Store) SignIns(ctx context.Context, userID string) ([]team.SignIn, error) {
	var out []team.SignIn
	if err := s.db.Read(ctx, readSignIns(`WHERE user_id = $1 ORDER BY seen_at DESC, id`, []any{userID}, &out)); err != nil {
		return nil, s.errorf("listing a user's sessions: %w", err)
	}
	return out, nil
}

// DeleteSignIn ends one session of a user.
func (s *Store) DeleteSignIn(ctx context.Context, userID, id string) error {
	if !s.storable(id) {
		return checkout.ErrNotFound
	}
	found := false
	err := s.db.Write(ctx, Stmt{SQL: `DELETE FROM dashboard_sessions WHERE id = $1 AND user_id = $2`, Args: []any{id, userID},
		Affected: func(n int64) error { found = n == 1; return nil }})
	if err != nil {
		return s.errorf("ending a session: %w", err)
	}
	if !found {
		return checkout.ErrNotFound
	}
	return nil
}

// DeleteSignIns ends every session of a user but except.
func (s *Store) DeleteSignIns(ctx context.Context, userID, except string) (int, error) {
	var n int64
	err := s.db.Write(ctx, Stmt{SQL: `DELETE FROM dashboard_sessions WHERE user_id = $1 AND id <> $2`, Args: []any{userID, except},
		Affected: func(v int64) error { n = v; return nil }})
	if err != nil {
		return 0, s.errorf("ending sessions: %w", err)
	}
	return int(n), nil
}

// PruneSignIns deletes the sessions last seen before before.
func (s *Store) PruneSignIns(ctx context.Context, before time.Time) (int, error) {
	var n int64
	err := s.db.Write(ctx, Stmt{SQL: `DELETE FROM dashboard_sessions WHERE seen_at < $1`, Args: []any{ms(before)},
		Affected: func(v int64) error { n = v; return nil }})
	if err != nil {
		return 0, s.errorf("pruning sessions: %w", err)
	}
	return int(n), nil
}

func readSignIns(tail string, args []any, out *[]team.SignIn) Stmt {
	return Stmt{SQL: `SELECT ` + userSessionColumns + ` FROM dashboard_sessions ` + tail, Args: args,
		Rows: each(func(r Rows) error {
			var us team.SignIn
			var created, seen int64
			if err := r.Scan(&us.ID, &us.UserID, &created, &seen, &us.Address, &us.UserAgent); err != nil {
				return err
			}
			us.CreatedAt, us.SeenAt = fromMS(created), fromMS(seen)
			*out = append(*out, us)
			return nil
		})}
}

var _ team.TOTPStore = (*Store)(nil)

// EnableTOTP turns on a user's second factor and replaces their recovery codes, in one
// transaction.
func (s *Store) EnableTOTP(ctx context.Context, userID, secret string, at time.Time, step int64, codeHashes [][]byte) error {
	secret, err := s.seal(secret)
	if err != nil {
		return s.errorf("sealing a TOTP secret: %w", err)
	}
	err = s.db.WriteTx(ctx, func(tx Runner) error {
		found := false
		stmts := []Stmt{
			{SQL: `UPDATE dashboard_users SET totp_secret = $2, totp_enabled_at = $3, totp_last_step = $4 WHERE id = $1`,
				Args: []any{userID, secret, ms(at), step}, Affected: func(n int64) error { found = n == 1; return nil }},
			{SQL: `DELETE FROM totp_recovery_codes WHERE user_id = $1`, Args: []any{userID}},
		}
		if err := tx.Run(ctx, stmts...); err != nil {
			return err
		}
		if !found {
			return checkout.ErrNotFound
		}
		var inserts []Stmt
		for _, h := range codeHashes {
			inserts = append(inserts, Stmt{SQL: `INSERT INTO totp_recovery_codes (user_id, hash, used_at) VALUES ($1, $2, 0)`,
				Args: []any{userID, h}})
		}
		return tx.Run(ctx, inserts...)
	})
	if errors.Is(err, checkout.ErrNotFound) {
		return err
	}
	if err != nil {
		return s.errorf("turning on two-factor sign-in: %w", err)
	}
	return nil
}

// DisableTOTP turns a user's second factor off and forgets their recovery codes.
func (s *Store) DisableTOTP(ctx context.Context, userID string, out ...checkout.OutboxMessage) error {
	msgs, err := OutboxStatements(out...)
	if err != nil {
		return s.errorf("turning off two-factor sign-in: %w", err)
	}
	err = s.db.WriteTx(ctx, func(tx Runner) error {
		return tx.Run(ctx, append([]Stmt{
			{SQL: `UPDATE dashboard_users SET totp_secret = '', totp_enabled_at = 0, totp_last_step = 0 WHERE id = $1`, Args: []any{userID}},
			{SQL: `DELETE FROM totp_recovery_codes WHERE user_id = $1`, Args: []any{userID}}}, msgs...)...)
	})
	if err != nil {
		return s.errorf("turning off two-factor sign-in: %w", err)
	}
	return nil
}

// UseTOTPStep accepts a code's step once, in one statement (no two instances both accept it).
func (s *Store) UseTOTPStep(ctx context.Context, userID string, step int64) (bool, error) {
	ok := false
	err := s.db.Write(ctx, Stmt{SQL: `UPDATE dashboard_users SET totp_last_step = $2 WHERE id = $1 AND totp_last_step < $2 AND totp_enabled_at > 0`,
		Args: []any{userID, step}, Affected: func(n int64) error { ok = n == 1; return nil }})
	if err != nil {
		return false, s.errorf("accepting a code: %w", err)
	}
	return ok, nil
}

// UseRecoveryCode marks an unused recovery code used, in one statement.
func (s *Store) UseRecoveryCode(ctx context.Context, userID string, hash []byte, at time.Time) (bool, error) {
	ok := false
	err := s.db.Write(ctx, Stmt{SQL: `UPDATE totp_recovery_codes SET used_at = $3 WHERE user_id = $1 AND hash = $2 AND used_at = 0`,
		Args: []any{userID, hash, ms(at)}, Affected: func(n int64) error { ok = n == 1; return nil }})
	if err != nil {
		return false, s.errorf("using a recovery code: %w", err)
	}
	return ok, nil
}

// RecoveryCodesLeft counts a user's unused recovery codes.
func (s *Store) RecoveryCodesLeft(ctx context.Context, userID string) (int, error) {
	n := 0
	err := s.db.Read(ctx, Stmt{SQL: `SELECT COUNT(*) FROM totp_recovery_codes WHERE user_id = $1 AND used_at = 0`, Args: []any{userID},
		Rows: each(func(r Rows) error { return r.Scan(&n) })})
	if err != nil {
		return 0, s.errorf("counting recovery codes: %w", err)
	}
	return n, nil
}

// RequireTOTP reports whether every user must sign in with a second factor.
func (s *Store) RequireTOTP(ctx context.Context) (bool, error) {
	required := false
	err := s.db.Read(ctx, Stmt{SQL: `SELECT require_totp FROM team_settings WHERE id = 1`,
		Rows: each(func(r Rows) error { return r.Scan(&required) })})
	if err != nil {
		return false, s.errorf("reading the team settings: %w", err)
	}
	return required, nil
}

// SetRequireTOTP changes whether every user must sign in with a second factor.
func (s *Store) SetRequireTOTP(ctx context.Context, required bool) error {
	err := s.db.Write(ctx, Stmt{SQL: `INSERT INTO team_settings (id, require_totp) VALUES (1, $1)
		ON CONFLICT (id) DO UPDATE SET require_totp = excluded.require_totp`, Args: []any{required}})
	if err != nil {
		return s.errorf("saving the team settings: %w", err)
	}
	return nil
}
