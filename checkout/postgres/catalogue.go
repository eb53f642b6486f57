package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

const productColumns = `id, slug, title, description, unit_price, physical, active, created_at, updated_at`

// UpsertProduct creates the product or replaces it by ID.
func (s *Store) UpsertProduct(ctx context.Context, p checkout.Product) error {
	if p.ID == "" {
		return errors.New("postgres: a product needs an id")
	}
	_, err := s.pool.Exec(ctx, `INSERT INTO products (`+productColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
		ON CONFLICT (id) DO UPDATE SET slug = excluded.slug, title = excluded.title,
			description = excluded.description, unit_price = excluded.unit_price,
			physical = excluded.physical, active = excluded.active, updated_at = excluded.updated_at`,
		string(p.ID), p.Slug, p.Title, p.Description, int64(p.UnitPrice), p.Physical, p.Active,
		ms(p.CreatedAt), ms(p.UpdatedAt))
	if err != nil {
		return fmt.Errorf("postgres: storing product %s: %w", p.ID, err)
	}
	return nil
}

// Product returns one product or checkout.ErrNotFound.
func (s *Store) Product(ctx context.Context, id checkout.ProductID) (*checkout.Product, error) {
	return s.productWhere(ctx, "id = $1", string(id))
}

// ProductBySlug returns one product by slug or checkout.ErrNotFound.
func (s *Store) ProductBySlug(ctx context.Context, slug string) (*checkout.Product, error) {
	return s.productWhere(ctx, "slug = $1", slug)
}

func (s *Store) productWhere(ctx context.Context, where string, arg string) (*checkout.Product, error) {
	if !storable(arg) {
		return nil, checkout.ErrNotFound
	}
	p, err := scanProduct(s.pool.QueryRow(ctx, `SELECT `+productColumns+` FROM products WHERE `+where, arg))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, checkout.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("postgres: reading product: %w", err)
	}
	return &p, nil
}

// Products lists the catalogue by title.
func (s *Store) Products(ctx context.Context, activeOnly bool) ([]checkout.Product, error) {
	q := `SELECT ` + productColumns + ` FROM products`
	if activeOnly {
		q += ` WHERE active`
	}
	// COLLATE "C": the same byte order as SQLite's, whatever the database's locale.
	rows, err := s.pool.Query(ctx, q+` ORDER BY title COLLATE "C", id`)
	if err != nil {
		return nil, fmt.Errorf("postgres: listing products: %w", err)
	}
	defer rows.Close()
	var out []checkout.Product
	for rows.Next() {
		p, err := scanProduct(rows)
		if err != nil {
			return nil, fmt.Errorf("postgres: listing products: %w", err)
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: listing products: %w", err)
	}
	return out, nil
}

// scanner is what a pgx.Row and pgx.Rows have in common.
type scanner interface{ Scan(dest ...any) error }

func scanProduct(sc scanner, extra ...any) (checkout.Product, error) {
	var p checkout.Product
	var id string
	var price, created, updated int64
	err := sc.Scan(append(extra, &id, &p.Slug, &p.Title, &p.Description, &price, &p.Physical, &p.Active,
		&created, &updated)...)
	p.ID = checkout.ProductID(id)
	p.UnitPrice = gatewayclient.Cents(price)
	p.CreatedAt, p.UpdatedAt = fromMS(created), fromMS(updated)
	return p, err
}

// CreateCart stores a new cart and its lines.
func (s *Store) CreateCart(ctx context.Context, c checkout.Cart) error {
	return s.write(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO carts (id, created_at, updated_at) VALUES ($1, $2, $3)`,
			c.ID, ms(c.CreatedAt), ms(c.UpdatedAt)); err != nil {
			return fmt.Errorf("postgres: creating cart: %w", err)
		}
		return writeCartLines(ctx, tx, &c)
	})
}

// Cart returns a cart with its lines' products, or checkout.ErrNotFound.
func (s *Store) Cart(ctx context.Context, id string) (*checkout.Cart, error) {
	if !storable(id) {
		return nil, checkout.ErrNotFound
	}
	var c *checkout.Cart
	err := s.read(ctx, func(tx pgx.Tx) error {
		var err error
		c, err = readCart(ctx, tx, id, false)
		return err
	})
	return c, err
}

// UpdateCart reads the cart with its row locked, lets fn change it and writes it back, in one
// transaction: concurrent updates of one cart, from any process, queue on the lock.
func (s *Store) UpdateCart(ctx context.Context, id string, now time.Time, fn func(c *checkout.Cart) error) (*checkout.Cart, error) {
	if !storable(id) {
		return nil, checkout.ErrNotFound
	}
	var c *checkout.Cart
	err := s.write(ctx, func(tx pgx.Tx) error {
		var err error
		if c, err = readCart(ctx, tx, id, true); err != nil {
			return err
		}
		if err := fn(c); err != nil {
			return err
		}
		c.UpdatedAt = now.UTC()
		if _, err := tx.Exec(ctx, `UPDATE carts SET updated_at = $1 WHERE id = $2`, ms(c.UpdatedAt), id); err != nil {
			return fmt.Errorf("postgres: updating cart: %w", err)
		}
		if _, err := tx.Exec(ctx, `DELETE FROM cart_lines WHERE cart_id = $1`, id); err != nil {
			return fmt.Errorf("postgres: updating cart: %w", err)
		}
		if err := writeCartLines(ctx, tx, c); err != nil {
			return err
		}
		// Read back so that each line carries the catalogue's product, whatever fn put there.
		c, err = readCart(ctx, tx, id, false)
		return err
	})
	if err != nil {
		return nil, err
	}
	return c, nil
}

func writeCartLines(ctx context.Context, tx pgx.Tx, c *checkout.Cart) error {
	for i, l := range c.Lines {
		if l.Quantity < checkout.MinQuantity || l.Quantity > checkout.MaxQuantity {
			return fmt.Errorf("postgres: cart line %s: quantity %d out of %d..%d", l.Product.ID, l.Quantity,
				checkout.MinQuantity, checkout.MaxQuantity)
		}
		if _, err := tx.Exec(ctx, `INSERT INTO cart_lines (cart_id, product_id, position, quantity) VALUES ($1, $2, $3, $4)`,
			c.ID, string(l.Product.ID), i, l.Quantity); err != nil {
			return fmt.Errorf("postgres: storing cart line %s: %w", l.Product.ID, err)
		}
	}
	return nil
}

// readCart reads a cart and its lines; lock takes the cart's row lock for the rest of tx.
func readCart(ctx context.Context, tx pgx.Tx, id string, lock bool) (*checkout.Cart, error) {
	c := &checkout.Cart{ID: id}
	q := `SELECT created_at, updated_at FROM carts WHERE id = $1`
	if lock {
		q += ` FOR UPDATE`
	}
	var created, updated int64
	err := tx.QueryRow(ctx, q, id).Scan(&created, &updated)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, checkout.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("postgres: reading cart: %w", err)
	}
	c.CreatedAt, c.UpdatedAt = fromMS(created), fromMS(updated)
	rows, err := tx.Query(ctx, `SELECT l.quantity, p.id, p.slug, p.title, p.description, p.unit_price, p.physical,
			p.active, p.created_at, p.updated_at
		FROM cart_lines l JOIN products p ON p.id = l.product_id
		WHERE l.cart_id = $1 ORDER BY l.position`, id)
	if err != nil {
		return nil, fmt.Errorf("postgres: reading cart lines: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var qty int
		p, err := scanProduct(rows, &qty)
		if err != nil {
			return nil, fmt.Errorf("postgres: reading cart lines: %w", err)
		}
		c.Lines = append(c.Lines, checkout.CartLine{Product: p, Quantity: qty})
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: reading cart lines: %w", err)
	}
	return c, nil
}
