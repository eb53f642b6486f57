package sqlstore

import (
	"context"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/brand"
)

var _ brand.Store = (*Store)(nil)

// storeProfileColumns are the columns of store_profile in the order profileArgs gives them.
const storeProfileColumns = `name, legal_name, document, address, support_email, support_phone, support_url,
	brand_color, accent_color, note, thanks, logo_key, updated_at, version`

// profileArgs are p's values in the order of storeProfileColumns.
func profileArgs(p brand.Profile) []any {
	return []any{p.Name, p.LegalName, p.Document, p.Address, p.SupportEmail, p.SupportPhone, p.SupportURL,
		p.BrandColor, p.AccentColor, p.Note, p.Thanks, p.LogoKey, ms(p.UpdatedAt), p.Version}
}

// StoreProfile returns the stored profile of the store, or checkout.ErrNotFound.
func (s *Store) StoreProfile(ctx context.Context) (brand.Profile, error) {
	var p brand.Profile
	found := false
	err := s.db.Read(ctx, Stmt{SQL: `SELECT ` + storeProfileColumns + ` FROM store_profile WHERE id = 1`,
		Rows: each(func(r Rows) error {
			var updated int64
			found = true
			if err := r.Scan(&p.Name, &p.LegalName, &p.Document, &p.Address, &p.SupportEmail, &p.SupportPhone, &p.SupportURL,
				&p.BrandColor, &p.AccentColor, &p.Note, &p.Thanks, &p.LogoKey, &updated, &p.Version); err != nil {
				return err
			}
			p.UpdatedAt = fromMS(updated)
			return nil
		})})
	if err != nil {
		return brand.Profile{}, s.errorf("reading the store's profile: %w", err)
	}
	if !found {
		return brand.Profile{}, checkout.ErrNotFound
	}
	return p, nil
}

// SaveStoreProfile stores p as version p.Version, the stored one's next (1: the first), or
// answers checkout.ErrConflict.
func (s *Store) SaveStoreProfile(ctx context.Context, p brand.Profile) error {
	saved := false
	affected := func(n int64) error { saved = n == 1; return nil }
	var st Stmt
	if p.Version <= 1 {
		st = Stmt{SQL: `INSERT INTO store_profile (id, ` + storeProfileColumns + `)
			VALUES (1, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) ON CONFLICT (id) DO NOTHING`,
			Args: profileArgs(p), Affected: affected}
	} else {
		st = Stmt{SQL: `UPDATE store_profile SET name = $1, legal_name = $2, document = $3, address = $4, support_email = $5,
			support_phone = $6, support_url = $7, brand_color = $8, accent_color = $9, note = $10, thanks = $11, logo_key = $12,
			updated_at = $13, version = $14 WHERE id = 1 AND version = $15`,
			Args: append(profileArgs(p), p.Version-1), Affected: affected}
	}
	if err := s.db.Write(ctx, st); err != nil {
		return s.errorf("saving the store's profile: %w", err)
	}
	if !saved {
		return checkout.ErrConflict
	}
	return nil
}
