package sqlstore

import (
	"context"
	"errors"
	"time"
)

// PruneCarts deletes, oldest first, at most limit carts (with their lines) last changed before
// olderThan, and returns how many it deleted. An order keeps its own copy of its cart's lines,
// so a cart that became an order is deleted like any other. Each call is one short statement:
// where rows are locked, a cart a shopper is changing right now is skipped, never waited for.
func (s *Store) PruneCarts(ctx context.Context, olderThan time.Time, limit int) (int, error) {
	n, err := s.prune(ctx, "carts", "updated_at", olderThan, limit)
	if err != nil {
		return 0, s.errorf("pruning carts: %w", err)
	}
	return n, nil
}

// PruneWebhooks deletes, oldest first, at most limit recorded webhook ids received before
// olderThan, and returns how many it deleted. A redelivery of a deleted id is processed again,
// so olderThan must lie beyond the gateway's retry window.
func (s *Store) PruneWebhooks(ctx context.Context, olderThan time.Time, limit int) (int, error) {
	n, err := s.prune(ctx, "webhook_events", "received_at", olderThan, limit)
	if err != nil {
		return 0, s.errorf("pruning webhook ids: %w", err)
	}
	return n, nil
}

// prune deletes at most limit rows of table whose column (indexed) is before olderThan.
func (s *Store) prune(ctx context.Context, table, column string, olderThan time.Time, limit int) (int, error) {
	if limit <= 0 {
		return 0, errLimit
	}
	var n int64
	err := s.db.Write(ctx, Stmt{
		SQL: `DELETE FROM ` + table + ` WHERE id IN (SELECT id FROM ` + table + ` WHERE ` + column + ` < $1
			ORDER BY ` + column + ` LIMIT $2` + s.lockRows(` FOR UPDATE SKIP LOCKED`) + `)`,
		Args:     []any{ms(olderThan), limit},
		Affected: func(v int64) error { n = v; return nil },
	})
	return int(n), err
}

// errLimit refuses a prune without a batch size.
var errLimit = errors.New("the batch size (limit) must be positive")

// PruneCheckoutSessions deletes, soonest expired first, at most limit checkout sessions that expired
// before expiredBefore without an order placed from them, and returns how many it deleted. A
// session with an order is the merchant's record of that order and stays with it.
func (s *Store) PruneCheckoutSessions(ctx context.Context, expiredBefore time.Time, limit int) (int, error) {
	if limit <= 0 {
		return 0, s.errorf("pruning checkout sessions: %w", errLimit)
	}
	var n int64
	// "o.session_id <> ''" lets the planner use the partial index orders_session.
	err := s.db.Write(ctx, Stmt{
		SQL: `DELETE FROM checkout_sessions WHERE id IN (SELECT cs.id FROM checkout_sessions cs
			WHERE cs.expires_at < $1 AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.session_id = cs.id AND o.session_id <> '')
			ORDER BY cs.expires_at LIMIT $2` + s.lockRows(` FOR UPDATE OF cs SKIP LOCKED`) + `)`,
		Args:     []any{ms(expiredBefore), limit},
		Affected: func(v int64) error { n = v; return nil },
	})
	if err != nil {
		return 0, s.errorf("pruning checkout sessions: %w", err)
	}
	return int(n), nil
}
