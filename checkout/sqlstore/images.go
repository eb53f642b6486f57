package sqlstore

import (
	"context"
	"errors"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/imaging"
)

var _ checkout.ImageStore = (*Store)(nil)

// SaveProductImage stores pic's variants (once per key) and makes it product id's picture, in
// one transaction.
func (s *Store) SaveProductImage(ctx context.Context, id checkout.ProductID, pic *imaging.Picture) error {
	if !s.storable(string(id)) {
		return checkout.ErrNotFound
	}
	now := ms(time.Now())
	l := pic.Variants[1]
	update := Stmt{SQL: `UPDATE products SET image_key = $1, image_type = $2, image_width = $3, image_height = $4
		WHERE id = $5`, Args: []any{pic.Key, l.Ext(), l.Width, l.Height, string(id)},
		Affected: func(n int64) error {
			if n != 1 {
				return checkout.ErrNotFound
			}
			return nil
		}}
	inserts := imageInserts(pic, now)
	// The product first, on its own: when it is missing the transaction ends there, and no
	// variant is stored for nothing.
	err := s.db.WriteTx(ctx, func(tx Runner) error {
		if err := tx.Run(ctx, update); err != nil {
			return err
		}
		return tx.Run(ctx, inserts...)
	})
	if errors.Is(err, checkout.ErrNotFound) {
		return checkout.ErrNotFound
	}
	if err != nil {
		return s.errorf("storing a product picture: %w", err)
	}
	return nil
}

// imageInserts are the statements storing pic's variants, once per key.
func imageInserts(pic *imaging.Picture, now int64) []Stmt {
	inserts := make([]Stmt, 0, 2)
	for i, size := range []string{checkout.ImageSmall, checkout.ImageLarge} {
		v := pic.Variants[i]
		inserts = append(inserts, Stmt{SQL: `INSERT INTO product_images (image_key, size, content_type, width, height, data, created_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (image_key, size) DO NOTHING`,
			Args: []any{pic.Key, size, v.ContentType, v.Width, v.Height, v.Data, now}})
	}
	return inserts
}

// SaveImage stores pic's variants, once per key, for no product.
func (s *Store) SaveImage(ctx context.Context, pic *imaging.Picture) error {
	if err := s.writeBatch(ctx, imageInserts(pic, ms(time.Now()))...); err != nil {
		return s.errorf("storing a picture: %w", err)
	}
	return nil
}

// ProductImageVariant returns one stored variant, or checkout.ErrNotFound.
func (s *Store) ProductImageVariant(ctx context.Context, key, size string) (*checkout.ImageVariant, error) {
	return s.imageVariant(ctx, `SELECT content_type, data FROM product_images WHERE image_key = $1 AND size = $2`,
		key, size, "a product picture")
}

// imageVariant reads one picture by key and size with query (product pictures and the store's
// logo are stored alike), or checkout.ErrNotFound; what names it in an error.
func (s *Store) imageVariant(ctx context.Context, query, key, size, what string) (*checkout.ImageVariant, error) {
	if !s.storable(key) {
		return nil, checkout.ErrNotFound
	}
	var v *checkout.ImageVariant
	err := s.db.Read(ctx, Stmt{SQL: query, Args: []any{key, size}, Rows: each(func(r Rows) error {
		v = &checkout.ImageVariant{}
		return r.Scan(&v.ContentType, &v.Data)
	})})
	if err != nil {
		return nil, s.errorf("reading %s: %w", what, err)
	}
	if v == nil {
		return nil, checkout.ErrNotFound
	}
	return v, nil
}
