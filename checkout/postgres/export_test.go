package postgres

import (
	"context"

	"github.com/pixcheckout/pixcheckout/checkout/sqlstore"
)

// OpenWrapped is Open with a wrapper that sees every statement, for tests that count them.
func OpenWrapped(ctx context.Context, url string, wrap func(sqlstore.DB) sqlstore.DB) (*Store, error) {
	return open(ctx, url, Options{}, wrap)
}

// Plan is the store's migrations.
var Plan = plan

// MaxConns is the size of the store's connection pool.
func (s *Store) MaxConns() int32 { return s.pool.Config().MaxConns }

// ReadBatch runs stmts through the store's ReadBatch.
func (s *Store) ReadBatch(ctx context.Context, stmts ...sqlstore.Stmt) error {
	return database{s.pool}.ReadBatch(ctx, stmts...)
}

// WriteBatch runs stmts through the store's WriteBatch.
func (s *Store) WriteBatch(ctx context.Context, stmts ...sqlstore.Stmt) error {
	return database{s.pool}.WriteBatch(ctx, stmts...)
}
