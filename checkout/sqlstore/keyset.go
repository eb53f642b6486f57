package sqlstore

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// keysetPage is a page of a list of records newest first by (created_at, id), as charges' and
// subscriptions' filters give it.
type keysetPage struct {
	AfterCreated time.Time
	AfterID      string
	Backward     bool
	Limit        int
}

// listKeyset reads a page of table's rows that where selects (its arguments in p), newest first,
// scanned by scan into out.
func listKeyset[T any](ctx context.Context, s *Store, table, columns string, where []string, p Params, page keysetPage,
	scan func(*[]T) func(Rows) error) ([]T, error) {
	back := page.Backward && page.AfterID != ""
	if page.AfterID != "" {
		op := "<"
		if back {
			op = ">"
		}
		where = append(where, `(created_at, id) `+op+` (`+p.Add(ms(page.AfterCreated))+`, `+p.Add(page.AfterID)+`)`)
	}
	q := `SELECT ` + columns + ` FROM ` + table
	if len(where) > 0 {
		q += ` WHERE ` + strings.Join(where, ` AND `)
	}
	if back {
		q += ` ORDER BY created_at, id`
	} else {
		q += ` ORDER BY created_at DESC, id DESC`
	}
	if page.Limit > 0 {
		q += ` LIMIT ` + p.Add(page.Limit)
	}
	var out []T
	if err := s.db.Read(ctx, Stmt{SQL: q, Args: p, Rows: scan(&out)}); err != nil {
		return nil, s.errorf("listing %s: %w", table, err)
	}
	if back {
		slices.Reverse(out)
	}
	return out, nil
}

// countMatches counts table's rows that where selects (its arguments in p), up to limit: past
// it a list says "more than", without reading every match.
func countMatches(ctx context.Context, s *Store, table string, where []string, p Params, limit int) (int, error) {
	q := `SELECT id FROM ` + table
	if len(where) > 0 {
		q += ` WHERE ` + strings.Join(where, ` AND `)
	}
	n := 0
	err := s.db.Read(ctx, Stmt{SQL: `SELECT COUNT(*) FROM (` + q + ` LIMIT ` + p.Add(limit) + `) AS matches`, Args: p,
		Rows: each(func(r Rows) error { return r.Scan(&n) })})
	if err != nil {
		return 0, s.errorf("counting %s: %w", table, err)
	}
	return n, nil
}

// byIdempotencyKey reads the row of table made with Idempotency-Key key, and the digest of its
// request, or answers checkout.ErrNotFound.
func byIdempotencyKey[T any](ctx context.Context, s *Store, table, columns, key string, scan func(*[]T) func(Rows) error) (T, string, error) {
	var out []T
	var hash string
	err := s.db.Read(ctx, Stmt{SQL: `SELECT request_hash, ` + columns + ` FROM ` + table + ` WHERE idempotency_key = $1`,
		Args: []any{key}, Rows: func(r Rows) error { return scan(&out)(prefixed{r, &hash}) }})
	var none T
	if err != nil {
		return none, "", s.errorf("reading %s by its idempotency key: %w", table, err)
	}
	if len(out) == 0 {
		return none, "", checkout.ErrNotFound
	}
	return out[0], hash, nil
}
