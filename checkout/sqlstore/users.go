package sqlstore

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/team"
)

// The dashboard's users (team.UserStore) and the failed sign-ins counted against them
// (team.ThrottleStore).

var (
	_ team.UserStore     = (*Store)(nil)
	_ team.ThrottleStore = (*Store)(nil)
)

const userColumns = `id, email, password_hash, created_at, updated_at, role, last_sign_in_at, totp_secret, totp_enabled_at, totp_last_step`

// userValues are the placeholders of userColumns.
const userValues = `$1, $2, $3, $4, $5, $6, $7, $8, $9, $10`

// userArgs are the values of userColumns.
func (s *Store) userArgs(u team.User) ([]any, error) {
	var err error
	if u.TOTPSecret, err = s.seal(u.TOTPSecret); err != nil {
		return nil, err
	}
	return []any{u.ID, u.Email, u.PasswordHash, ms(u.CreatedAt), ms(u.UpdatedAt), string(u.Role), ms(u.LastSignInAt),
		u.TOTPSecret, ms(u.TOTPEnabledAt), u.TOTPLastStep}, nil
}

// CreateUser stores a new user; a taken e-mail gives team.ErrEmailTaken, also when another
// process inserts it at the same moment (the unique index decides).
func (s *Store) CreateUser(ctx context.Context, u team.User) error {
	inserted := false
	args, err := s.userArgs(u)
	if err != nil {
		return s.errorf("storing user: %w", err)
	}
	err = s.db.Write(ctx, Stmt{SQL: `INSERT INTO dashboard_users (` + userColumns + `) VALUES (` + userValues + `)
		ON CONFLICT DO NOTHING`,
		Args:     args,
		Affected: func(n int64) error { inserted = n == 1; return nil }})
	if err != nil {
		return s.errorf("storing user: %w", err)
	}
	if !inserted {
		return team.ErrEmailTaken
	}
	return nil
}

// User returns the user with that id, or checkout.ErrNotFound.
func (s *Store) User(ctx context.Context, id string) (*team.User, error) {
	return s.userWhere(ctx, "id = $1", id)
}

// UserByEmail returns the user with that e-mail, or checkout.ErrNotFound.
func (s *Store) UserByEmail(ctx context.Context, email string) (*team.User, error) {
	return s.userWhere(ctx, "email = $1", email)
}

func (s *Store) userWhere(ctx context.Context, where, key string) (*team.User, error) {
	if !s.storable(key) {
		return nil, checkout.ErrNotFound
	}
	var u *team.User
	err := s.db.Read(ctx, Stmt{SQL: `SELECT ` + userColumns + ` FROM dashboard_users WHERE ` + where, Args: []any{key},
		Rows: each(func(r Rows) error {
			v, err := s.scanUser(r)
			u = &v
			return err
		})})
	if err != nil {
		return nil, s.errorf("reading user: %w", err)
	}
	if u == nil {
		return nil, checkout.ErrNotFound
	}
	return u, nil
}

func (s *Store) scanUser(r Rows) (team.User, error) {
	var u team.User
	var created, updated, signedIn, totpOn int64
	var role string
	if err := r.Scan(&u.ID, &u.Email, &u.PasswordHash, &created, &updated, &role, &signedIn, &u.TOTPSecret, &totpOn, &u.TOTPLastStep); err != nil {
		return u, err
	}
	u.CreatedAt, u.UpdatedAt, u.LastSignInAt, u.Role = fromMS(created), fromMS(updated), fromMS(signedIn), team.Role(role)
	u.TOTPEnabledAt = fromMS(totpOn)
	var err error
	u.TOTPSecret, err = s.open(u.TOTPSecret)
	return u, err
}

// SetPasswordHash replaces a user's password hash, or returns checkout.ErrNotFound.
func (s *Store) SetPasswordHash(ctx context.Context, id, hash string, at time.Time) error {
	found := false
	err := s.db.Write(ctx, Stmt{SQL: `UPDATE dashboard_users SET password_hash = $2, updated_at = $3 WHERE id = $1`,
		Args: []any{id, hash, ms(at)}, Affected: func(n int64) error { found = n == 1; return nil }})
	if err != nil {
		return s.errorf("storing a password: %w", err)
	}
	if !found {
		return checkout.ErrNotFound
	}
	return nil
}

// Users lists every user by e-mail.
func (s *Store) Users(ctx context.Context) ([]team.User, error) {
	var out []team.User
	err := s.db.Read(ctx, Stmt{SQL: `SELECT ` + userColumns + ` FROM dashboard_users ORDER BY email ` + s.d.CollateBytes,
		Rows: each(func(r Rows) error {
			u, err := s.scanUser(r)
			out = append(out, u)
			return err
		})})
	if err != nil {
		return nil, s.errorf("listing users: %w", err)
	}
	return out, nil
}

// SetUserRole gives a user another role; the last owner keeps theirs (team.ErrLastOwner).
func (s *Store) SetUserRole(ctx context.Context, id string, role team.Role, out ...checkout.OutboxMessage) error {
	return s.changeUser(ctx, id, role != team.RoleOwner, Stmt{SQL: `UPDATE dashboard_users SET role = $2 WHERE id = $1`,
		Args: []any{id, string(role)}}, "changing a role", out)
}

// DeleteUser removes a user; the last owner stays (team.ErrLastOwner).
func (s *Store) DeleteUser(ctx context.Context, id string, out ...checkout.OutboxMessage) error {
	return s.changeUser(ctx, id, true, Stmt{SQL: `DELETE FROM dashboard_users WHERE id = $1`, Args: []any{id}}, "removing a user", out)
}

// changeUser runs change, which names the user id, in a transaction that first locks the
// owners' rows: when demotes (the change takes the owner role away, if the user has it), it is
// refused unless another owner remains. Locking every owner makes two owners demoting each
// other at once wait in turn, so that the second sees the first's change (PostgreSQL; SQLite's
// writing transaction holds the whole database). The messages out are written with the change.
func (s *Store) changeUser(ctx context.Context, id string, demotes bool, change Stmt, what string, out []checkout.OutboxMessage) error {
	if !s.storable(id) {
		return checkout.ErrNotFound
	}
	msgs, err := OutboxStatements(out...)
	if err != nil {
		return s.errorf("%s: %w", what, err)
	}
	err = s.db.WriteTx(ctx, func(tx Runner) error {
		found, owner, others := false, false, 0
		err := tx.Run(ctx, Stmt{SQL: `SELECT id FROM dashboard_users WHERE role = 'owner' OR id = $1 ORDER BY id` + s.lockRows(" FOR UPDATE"),
			Args: []any{id}, Rows: each(func(r Rows) error { return nil })},
			Stmt{SQL: `SELECT id, role FROM dashboard_users WHERE role = 'owner' OR id = $1`, Args: []any{id},
				Rows: each(func(r Rows) error {
					var uid, role string
					if err := r.Scan(&uid, &role); err != nil {
						return err
					}
					switch {
					case uid == id:
						found, owner = true, role == string(team.RoleOwner)
					default:
						others++
					}
					return nil
				})})
		if err != nil {
			return err
		}
		if !found {
			return checkout.ErrNotFound
		}
		if demotes && owner && others == 0 {
			return team.ErrLastOwner
		}
		return tx.Run(ctx, append([]Stmt{change}, msgs...)...)
	})
	if errors.Is(err, checkout.ErrNotFound) || errors.Is(err, team.ErrLastOwner) {
		return err
	}
	if err != nil {
		return s.errorf("%s: %w", what, err)
	}
	return nil
}

// RecordSignIn sets a user's last sign-in time.
func (s *Store) RecordSignIn(ctx context.Context, id string, at time.Time) error {
	if err := s.db.Write(ctx, Stmt{SQL: `UPDATE dashboard_users SET last_sign_in_at = $2 WHERE id = $1`, Args: []any{id, ms(at)}}); err != nil {
		return s.errorf("recording a sign-in: %w", err)
	}
	return nil
}

// LoginFailures returns the failures counted for key and the time of the last.
func (s *Store) LoginFailures(ctx context.Context, key string) (int, time.Time, error) {
	var n int
	var last int64
	err := s.db.Read(ctx, Stmt{SQL: `SELECT failures, last_at FROM login_failures WHERE throttle_key = $1`, Args: []any{s.throttleKey(key)},
		Rows: each(func(r Rows) error { return r.Scan(&n, &last) })})
	if err != nil {
		return 0, time.Time{}, s.errorf("reading failed sign-ins: %w", err)
	}
	return n, fromMS(last), nil
}

// RecordLoginFailure adds a failure to key in one statement, so that concurrent failures, of
// this process or another, are all counted; a count whose last failure is before since starts
// again at 1.
func (s *Store) RecordLoginFailure(ctx context.Context, key string, at, since time.Time) (int, error) {
	key = s.throttleKey(key)
	n := 0
	err := s.db.Write(ctx, Stmt{SQL: `INSERT INTO login_failures (throttle_key, failures, last_at) VALUES ($1, 1, $2)
		ON CONFLICT (throttle_key) DO UPDATE SET
			failures = CASE WHEN login_failures.last_at < $3 THEN 1 ELSE login_failures.failures + 1 END,
			last_at = CASE WHEN login_failures.last_at > excluded.last_at THEN login_failures.last_at ELSE excluded.last_at END
		RETURNING failures`,
		Args: []any{key, ms(at), ms(since)},
		Rows: each(func(r Rows) error { return r.Scan(&n) })})
	if err != nil {
		return 0, s.errorf("recording a failed sign-in: %w", err)
	}
	return n, nil
}

// ResetLoginFailures forgets the failures of key.
func (s *Store) ResetLoginFailures(ctx context.Context, key string) error {
	if err := s.db.Write(ctx, Stmt{SQL: `DELETE FROM login_failures WHERE throttle_key = $1`, Args: []any{s.throttleKey(key)}}); err != nil {
		return s.errorf("forgetting failed sign-ins: %w", err)
	}
	return nil
}

// PruneLoginFailures forgets the keys whose last failure was before t.
func (s *Store) PruneLoginFailures(ctx context.Context, before time.Time) (int, error) {
	var n int64
	err := s.db.Write(ctx, Stmt{SQL: `DELETE FROM login_failures WHERE last_at < $1`, Args: []any{ms(before)},
		Affected: func(v int64) error { n = v; return nil }})
	if err != nil {
		return 0, s.errorf("pruning failed sign-ins: %w", err)
	}
	return int(n), nil
}

// throttleKey is key made storable: an e-mail typed at the sign-in may hold anything (invalid
// UTF-8, NUL bytes). Such keys may share a row; they are only ever throttled more.
func (s *Store) throttleKey(key string) string {
	if s.storable(key) {
		return key
	}
	return strings.ToValidUTF8(strings.ReplaceAll(key, "\x00", "\uFFFD"), "\uFFFD")
}
