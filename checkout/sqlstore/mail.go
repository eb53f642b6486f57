package sqlstore

import (
	"context"
	"strings"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout/mail"
)

// The e-mail suppression list (table mail_suppressions, see package mail): addresses are kept
// in lower case, so that a refusal of Ana@Example.com holds for ana@example.com.

// Suppression returns the reply that suppressed addr, or "" when it is not suppressed.
func (s *Store) Suppression(ctx context.Context, addr string) (string, error) {
	addr = strings.ToLower(addr)
	if !s.storable(addr) {
		return "", nil
	}
	var reply string
	err := s.db.Read(ctx, Stmt{SQL: `SELECT reply FROM mail_suppressions WHERE address = $1`, Args: []any{addr},
		Rows: each(func(r Rows) error { return r.Scan(&reply) })})
	if err != nil {
		return "", s.errorf("reading the suppression of an address: %w", err)
	}
	return reply, nil
}

// Suppress adds addr to the suppression list with the server's reply; an address suppressed
// already keeps its first reply.
func (s *Store) Suppress(ctx context.Context, addr, reply string, at time.Time) error {
	addr = strings.ToLower(addr)
	if !s.storable(addr) || !s.storable(reply) {
		return s.errorf("suppressing an address: not storable text")
	}
	if err := s.db.Write(ctx, Stmt{SQL: `INSERT INTO mail_suppressions (address, reply, created_at) VALUES ($1, $2, $3)
		ON CONFLICT (address) DO NOTHING`, Args: []any{addr, reply, ms(at)}}); err != nil {
		return s.errorf("suppressing an address: %w", err)
	}
	return nil
}

// Unsuppress removes addr from the suppression list (an owner cleared it); absent, nothing.
func (s *Store) Unsuppress(ctx context.Context, addr string) error {
	addr = strings.ToLower(addr)
	if !s.storable(addr) {
		return nil
	}
	if err := s.db.Write(ctx, Stmt{SQL: `DELETE FROM mail_suppressions WHERE address = $1`, Args: []any{addr}}); err != nil {
		return s.errorf("clearing a suppressed address: %w", err)
	}
	return nil
}

// Suppressions lists the suppressed addresses, newest first, at most limit (≤ 0: 100).
func (s *Store) Suppressions(ctx context.Context, limit int) ([]mail.Suppression, error) {
	if limit <= 0 {
		limit = 100
	}
	var out []mail.Suppression
	err := s.db.Read(ctx, Stmt{SQL: `SELECT address, reply, created_at FROM mail_suppressions
		ORDER BY created_at DESC, address LIMIT $1`, Args: []any{limit},
		Rows: each(func(r Rows) error {
			var (
				x  mail.Suppression
				at int64
			)
			if err := r.Scan(&x.Address, &x.Reply, &at); err != nil {
				return err
			}
			x.At = fromMS(at)
			out = append(out, x)
			return nil
		})})
	if err != nil {
		return nil, s.errorf("listing suppressed addresses: %w", err)
	}
	return out, nil
}
