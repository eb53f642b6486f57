package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// AnonymiseDue is sqlstore's, then a VACUUM of the tables it rewrote (see vacuumErased).
func (s *Store) AnonymiseDue(ctx context.Context, before, at time.Time, limit int, h *checkout.PersonalDataHasher) ([]string, error) {
	ids, err := s.Store.AnonymiseDue(ctx, before, at, limit, h)
	if err == nil && len(ids) > 0 {
		err = s.vacuumErased(ctx)
	}
	return ids, err
}

// AnonymiseOrders is sqlstore's, then a VACUUM of the tables it rewrote (see vacuumErased).
func (s *Store) AnonymiseOrders(ctx context.Context, ids []string, at time.Time, h *checkout.PersonalDataHasher) ([]string, error) {
	done, err := s.Store.AnonymiseOrders(ctx, ids, at, h)
	if err == nil && len(done) > 0 {
		err = s.vacuumErased(ctx)
	}
	return done, err
}

// AnonymiseCharges is sqlstore's, then a VACUUM of the tables it rewrote (see vacuumErased).
func (s *Store) AnonymiseCharges(ctx context.Context, ids []string, at time.Time, h *checkout.PersonalDataHasher) ([]string, error) {
	done, err := s.Store.AnonymiseCharges(ctx, ids, at, h)
	if err == nil && len(done) > 0 {
		err = s.vacuumErased(ctx)
	}
	return done, err
}

// AnonymiseChargesDue is sqlstore's, then a VACUUM of the tables it rewrote (see vacuumErased).
func (s *Store) AnonymiseChargesDue(ctx context.Context, before, at time.Time, limit int, h *checkout.PersonalDataHasher) ([]string, error) {
	done, err := s.Store.AnonymiseChargesDue(ctx, before, at, limit, h)
	if err == nil && len(done) > 0 {
		err = s.vacuumErased(ctx)
	}
	return done, err
}

// vacuumErased vacuums the tables an erasure rewrites: the old row versions holding the
// erased values become free space at once, to be overwritten, rather than when autovacuum
// comes by. It does not reach the WAL, replicas or backups (checkout/README.md says so).
func (s *Store) vacuumErased(ctx context.Context) error {
	if _, err := s.pool.Exec(ctx, `VACUUM orders, attempts, webhook_deliveries, charges`); err != nil {
		return fmt.Errorf("postgres: vacuum after an erasure: %w", err)
	}
	return nil
}
