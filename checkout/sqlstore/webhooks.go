package sqlstore

import (
	"context"
	"time"
)

// webhookKey is the key recording webhook id (see Dialect.StoredKey).
func (s *Store) webhookKey(id string) string {
	if s.d.StoredKey == nil {
		return id
	}
	return s.d.StoredKey(id)
}

// MarkWebhook records a webhook id; first is false when it was already there. A concurrent
// insert of the same id makes this one wait for its outcome, so exactly one caller is first.
func (s *Store) MarkWebhook(ctx context.Context, id string, at time.Time) (bool, error) {
	first := false
	err := s.db.Write(ctx, Stmt{SQL: `INSERT INTO webhook_events (id, received_at) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING`,
		Args: []any{s.webhookKey(id), ms(at)}, Affected: func(n int64) error { first = n == 1; return nil }})
	if err != nil {
		return false, s.errorf("recording webhook: %w", err)
	}
	return first, nil
}

// ForgetWebhook removes a recorded webhook id.
func (s *Store) ForgetWebhook(ctx context.Context, id string) error {
	if err := s.db.Write(ctx, Stmt{SQL: `DELETE FROM webhook_events WHERE id = $1`, Args: []any{s.webhookKey(id)}}); err != nil {
		return s.errorf("forgetting webhook: %w", err)
	}
	return nil
}
