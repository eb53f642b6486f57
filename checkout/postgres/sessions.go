package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/alexedwards/scs/pgxstore"

	"github.com/pixcheckout/pixcheckout/checkout/merchant"
)

// SignInTokens returns the store of scs sessions in this database: scs's own pgxstore on the
// store's pool, without its cleanup goroutine (PruneSignInTokens does that, driven by the app).
func (s *Store) SignInTokens() merchant.SignInTokenStore {
	return sessions{PostgresStore: pgxstore.NewWithCleanupInterval(s.pool, 0), store: s}
}

type sessions struct {
	*pgxstore.PostgresStore
	store *Store
}

// PruneSignInTokens deletes the sessions expired before now.
func (x sessions) PruneSignInTokens(ctx context.Context, now time.Time) (int, error) {
	tag, err := x.store.pool.Exec(ctx, `DELETE FROM sessions WHERE expiry < $1`, now)
	if err != nil {
		return 0, fmt.Errorf("postgres: pruning sessions: %w", err)
	}
	return int(tag.RowsAffected()), nil
}
