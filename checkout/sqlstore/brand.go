package sqlstore

import (
	"context"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/brand"
	"github.com/pixcheckout/pixcheckout/checkout/imaging"
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
	// The logo's header picture gives its size (no logo, or its pictures missing, reads 0 × 0).
	size := func(col string) string {
		return `COALESCE((SELECT i.` + col + ` FROM store_logo_images i WHERE i.logo_key = store_profile.logo_key AND i.size = $1), 0)`
	}
	err := s.db.Read(ctx, Stmt{SQL: `SELECT ` + storeProfileColumns + `, ` + size("width") + `, ` + size("height") + `
		FROM store_profile WHERE id = 1`, Args: []any{imaging.LogoHeader},
		Rows: each(func(r Rows) error {
			var updated int64
			found = true
			if err := r.Scan(&p.Name, &p.LegalName, &p.Document, &p.Address, &p.SupportEmail, &p.SupportPhone, &p.SupportURL,
				&p.BrandColor, &p.AccentColor, &p.Note, &p.Thanks, &p.LogoKey, &updated, &p.Version,
				&p.LogoWidth, &p.LogoHeight); err != nil {
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

// SaveStoreLogo stores the pictures of l, once per key.
func (s *Store) SaveStoreLogo(ctx context.Context, l *imaging.Logo) error {
	now := time.Now()
	stmts := make([]Stmt, 0, len(l.Variants))
	for i, size := range imaging.LogoSizes {
		stmts = append(stmts, saveLogoImage(l.Key, size, l.Variants[i], now))
	}
	if err := s.writeBatch(ctx, stmts...); err != nil {
		return s.errorf("storing the store's logo: %w", err)
	}
	return nil
}

// SaveStoreLogoImage stores one picture of a logo, once per key and size.
func (s *Store) SaveStoreLogoImage(ctx context.Context, key, size string, v imaging.Variant) error {
	if err := s.writeBatch(ctx, saveLogoImage(key, size, v, time.Now())); err != nil {
		return s.errorf("storing the store's logo's picture %s: %w", size, err)
	}
	return nil
}

// saveLogoImage is the statement storing picture v of logo key at size.
func saveLogoImage(key, size string, v imaging.Variant, now time.Time) Stmt {
	return Stmt{SQL: `INSERT INTO store_logo_images (logo_key, size, content_type, width, height, data, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (logo_key, size) DO NOTHING`,
		Args: []any{key, size, v.ContentType, v.Width, v.Height, v.Data, ms(now)}}
}

// StoreLogoImage returns one picture of a logo, or checkout.ErrNotFound.
func (s *Store) StoreLogoImage(ctx context.Context, key, size string) (*checkout.ImageVariant, error) {
	return s.imageVariant(ctx, `SELECT content_type, data FROM store_logo_images WHERE logo_key = $1 AND size = $2`,
		key, size, "the store's logo")
}
