package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/alexedwards/scs/pgxstore"

	"github.com/pixcheckout/pixcheckout/checkout/team"
)

// SignInTokens returns the store of scs sessions in this database: scs's own pgxstore on the
// store's pool, keyed by team.TokenHash of each token, without its cleanup goroutine (PruneSignInTokens does that, driven by the app).
func (s *Store) SignInTokens() team.SignInTokenStore {
	return sessions{pg: pgxstore.NewWithCleanupInterval(s.pool, 0), store: s}
}

type sessions struct {
	pg    *pgxstore.PostgresStore
	store *Store
}

// Find reads a session by its token's hash.
func (x sessions) Find(token string) ([]byte, bool, error) {
	return x.pg.Find(team.TokenHash(token))
}

// Commit writes a session under its token's hash.
func (x sessions) Commit(token string, b []byte, expiry time.Time) error {
	return x.pg.Commit(team.TokenHash(token), b, expiry)
}

// Delete removes a session by its token's hash.
func (x sessions) Delete(token string) error { return x.pg.Delete(team.TokenHash(token)) }

// PruneSignInTokens deletes the sessions expired before now.
func (x sessions) PruneSignInTokens(ctx context.Context, now time.Time) (int, error) {
	tag, err := x.store.pool.Exec(ctx, `DELETE FROM sessions WHERE expiry < $1`, now)
	if err != nil {
		return 0, fmt.Errorf("postgres: pruning sessions: %w", err)
	}
	return int(tag.RowsAffected()), nil
}
