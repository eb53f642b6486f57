package sqlstore

import (
	"context"
	"errors"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/merchant"
)

// The dashboard's invitations (merchant.InvitationStore) and the audit log
// (merchant.AuditStore).

var (
	_ merchant.InvitationStore = (*Store)(nil)
	_ merchant.AuditStore      = (*Store)(nil)
)

const invitationColumns = `id, token_hash, email, role, invited_by, created_at, expires_at, used_at`

// CreateInvitation stores a new invitation.
func (s *Store) CreateInvitation(ctx context.Context, inv merchant.Invitation) error {
	err := s.db.Write(ctx, Stmt{SQL: `INSERT INTO dashboard_invitations (` + invitationColumns + `) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
		Args: []any{inv.ID, inv.TokenHash, inv.Email, string(inv.Role), inv.InvitedBy, ms(inv.CreatedAt), ms(inv.ExpiresAt), ms(inv.UsedAt)}})
	if err != nil {
		return s.errorf("storing an invitation: %w", err)
	}
	return nil
}

// InvitationByTokenHash returns the invitation with that token hash, or checkout.ErrNotFound.
func (s *Store) InvitationByTokenHash(ctx context.Context, hash string) (*merchant.Invitation, error) {
	var out []merchant.Invitation
	if err := s.db.Read(ctx, readInvitations(`WHERE token_hash = $1`, []any{hash}, &out)); err != nil {
		return nil, s.errorf("reading an invitation: %w", err)
	}
	if len(out) == 0 {
		return nil, checkout.ErrNotFound
	}
	return &out[0], nil
}

// PendingInvitations lists the invitations neither used nor expired at now, newest first.
func (s *Store) PendingInvitations(ctx context.Context, now time.Time) ([]merchant.Invitation, error) {
	var out []merchant.Invitation
	if err := s.db.Read(ctx, readInvitations(`WHERE used_at = 0 AND expires_at > $1 ORDER BY created_at DESC, id`,
		[]any{ms(now)}, &out)); err != nil {
		return nil, s.errorf("listing invitations: %w", err)
	}
	return out, nil
}

// AcceptInvitation marks the invitation used and creates the user, in one transaction.
func (s *Store) AcceptInvitation(ctx context.Context, id string, u merchant.User, at time.Time) error {
	err := s.db.WriteTx(ctx, func(tx Runner) error {
		used, inserted := false, false
		err := tx.Run(ctx, Stmt{SQL: `UPDATE dashboard_invitations SET used_at = $2 WHERE id = $1 AND used_at = 0 AND expires_at > $2`,
			Args: []any{id, ms(at)}, Affected: func(n int64) error { used = n == 1; return nil }})
		if err != nil {
			return err
		}
		if !used {
			return merchant.ErrInvitationInvalid
		}
		err = tx.Run(ctx, Stmt{SQL: `INSERT INTO dashboard_users (` + userColumns + `) VALUES ($1, $2, $3, $4, $5, $6, $7)
			ON CONFLICT DO NOTHING`,
			Args:     []any{u.ID, u.Email, u.PasswordHash, ms(u.CreatedAt), ms(u.UpdatedAt), string(u.Role), ms(u.LastSignInAt)},
			Affected: func(n int64) error { inserted = n == 1; return nil }})
		if err != nil {
			return err
		}
		if !inserted {
			return merchant.ErrEmailTaken
		}
		return nil
	})
	if errors.Is(err, merchant.ErrInvitationInvalid) || errors.Is(err, merchant.ErrEmailTaken) {
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

func readInvitations(tail string, args []any, out *[]merchant.Invitation) Stmt {
	return Stmt{SQL: `SELECT ` + invitationColumns + ` FROM dashboard_invitations ` + tail, Args: args,
		Rows: each(func(r Rows) error {
			var inv merchant.Invitation
			var role string
			var created, expires, used int64
			if err := r.Scan(&inv.ID, &inv.TokenHash, &inv.Email, &role, &inv.InvitedBy, &created, &expires, &used); err != nil {
				return err
			}
			inv.Role, inv.CreatedAt, inv.ExpiresAt, inv.UsedAt = merchant.Role(role), fromMS(created), fromMS(expires), fromMS(used)
			*out = append(*out, inv)
			return nil
		})}
}

// AppendAudit adds an entry to the audit log.
func (s *Store) AppendAudit(ctx context.Context, e merchant.AuditEntry) error {
	err := s.db.Write(ctx, Stmt{SQL: `INSERT INTO audit_log (at, actor, action, object, address, detail) VALUES ($1, $2, $3, $4, $5, $6)`,
		Args: []any{ms(e.At), e.Actor, e.Action, e.Object, e.Address, e.Detail}})
	if err != nil {
		return s.errorf("appending to the audit log: %w", err)
	}
	return nil
}

// AuditEntries lists the entries f selects, newest first.
func (s *Store) AuditEntries(ctx context.Context, f merchant.AuditFilter) ([]merchant.AuditEntry, error) {
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
	var out []merchant.AuditEntry
	err := s.db.Read(ctx, Stmt{SQL: `SELECT id, at, actor, action, object, address, detail FROM audit_log ` + where +
		` ORDER BY id DESC` + tail, Args: p, Rows: each(func(r Rows) error {
		var e merchant.AuditEntry
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

// AuditActors lists every actor of the audit log, sorted.
func (s *Store) AuditActors(ctx context.Context) ([]string, error) {
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
