package sqlite

import (
	"context"
	"fmt"
	"time"

	"github.com/alexedwards/scs/sqlite3store"

	"github.com/pixcheckout/pixcheckout/checkout/team"
)

// SignInTokens returns the store of scs sessions in this database: scs's own sqlite3store, reading
// on the read pool and writing through the writer connection like every other write (see the
// package doc), keyed by team.TokenHash of each token, without its cleanup goroutine (PruneSignInTokens does that, driven by the app).
func (s *Store) SignInTokens() team.SignInTokenStore {
	return sessions{
		r:     sqlite3store.NewWithCleanupInterval(s.r.DB, 0),
		w:     sqlite3store.NewWithCleanupInterval(s.w.DB, 0),
		store: s,
	}
}

// sessions splits scs's sqlite3store between the pools.
type sessions struct {
	r, w  *sqlite3store.SQLite3Store
	store *Store
}

// Find reads a session on the read pool, by its token's hash.
func (x sessions) Find(token string) ([]byte, bool, error) {
	return x.r.Find(team.TokenHash(token))
}

// Commit writes a session through the writer, under its token's hash.
func (x sessions) Commit(token string, b []byte, expiry time.Time) error {
	return x.w.Commit(team.TokenHash(token), b, expiry)
}

// Delete removes a session through the writer, by its token's hash.
func (x sessions) Delete(token string) error { return x.w.Delete(team.TokenHash(token)) }

// PruneSignInTokens deletes the sessions expired before now (their expiry is a Julian day, as
// sqlite3store writes it).
func (x sessions) PruneSignInTokens(ctx context.Context, now time.Time) (int, error) {
	res, err := x.store.w.ExecContext(ctx, `DELETE FROM sessions WHERE expiry < julianday($1)`,
		now.UTC().Format("2006-01-02T15:04:05.999"))
	if err != nil {
		return 0, fmt.Errorf("sqlite: pruning sessions: %w", err)
	}
	n, err := res.RowsAffected()
	return int(n), err
}
