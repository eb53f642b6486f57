package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// querier is what reads need of a *sql.Tx or *sql.DB.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

const productColumns = `id, slug, title, description, unit_price, physical, active, created_at, updated_at`

// UpsertProduct creates the product or replaces it by ID.
func (s *Store) UpsertProduct(ctx context.Context, p checkout.Product) error {
	if p.ID == "" {
		return errors.New("sqlite: a product needs an id")
	}
	return s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO products (`+productColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (id) DO UPDATE SET slug = excluded.slug, title = excluded.title,
				description = excluded.description, unit_price = excluded.unit_price,
				physical = excluded.physical, active = excluded.active, updated_at = excluded.updated_at`,
			string(p.ID), p.Slug, p.Title, p.Description, int64(p.UnitPrice), boolInt(p.Physical), boolInt(p.Active),
			ms(p.CreatedAt), ms(p.UpdatedAt))
		if err != nil {
			return fmt.Errorf("sqlite: storing product %s: %w", p.ID, err)
		}
		return nil
	})
}

// Product returns one product or checkout.ErrNotFound.
func (s *Store) Product(ctx context.Context, id checkout.ProductID) (*checkout.Product, error) {
	return s.productWhere(ctx, "id = ?", string(id))
}

// ProductBySlug returns one product by slug or checkout.ErrNotFound.
func (s *Store) ProductBySlug(ctx context.Context, slug string) (*checkout.Product, error) {
	return s.productWhere(ctx, "slug = ?", slug)
}

func (s *Store) productWhere(ctx context.Context, where string, arg any) (*checkout.Product, error) {
	row := s.r.QueryRowContext(ctx, `SELECT `+productColumns+` FROM products WHERE `+where, arg)
	p, err := scanProduct(row)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, checkout.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: reading product: %w", err)
	}
	return &p, nil
}

// Products lists the catalogue by title.
func (s *Store) Products(ctx context.Context, activeOnly bool) ([]checkout.Product, error) {
	q := `SELECT ` + productColumns + ` FROM products`
	if activeOnly {
		q += ` WHERE active = 1`
	}
	rows, err := s.r.QueryContext(ctx, q+` ORDER BY title, id`)
	if err != nil {
		return nil, fmt.Errorf("sqlite: listing products: %w", err)
	}
	defer rows.Close()
	var out []checkout.Product
	for rows.Next() {
		p, err := scanProduct(rows)
		if err != nil {
			return nil, fmt.Errorf("sqlite: listing products: %w", err)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

type scanner interface{ Scan(dest ...any) error }

func scanProduct(sc scanner) (checkout.Product, error) {
	var p checkout.Product
	var id string
	var price, created, updated int64
	var physical, active int
	err := sc.Scan(&id, &p.Slug, &p.Title, &p.Description, &price, &physical, &active, &created, &updated)
	p.ID = checkout.ProductID(id)
	p.UnitPrice = centsOf(price)
	p.Physical, p.Active = physical != 0, active != 0
	p.CreatedAt, p.UpdatedAt = fromMS(created), fromMS(updated)
	return p, err
}

// CreateCart stores a new cart and its lines.
func (s *Store) CreateCart(ctx context.Context, c checkout.Cart) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO carts (id, created_at, updated_at) VALUES (?, ?, ?)`,
			c.ID, ms(c.CreatedAt), ms(c.UpdatedAt)); err != nil {
			return fmt.Errorf("sqlite: creating cart: %w", err)
		}
		return writeCartLines(ctx, tx, &c)
	})
}

// Cart returns a cart with its lines' products, or checkout.ErrNotFound.
func (s *Store) Cart(ctx context.Context, id string) (*checkout.Cart, error) {
	var c *checkout.Cart
	err := s.read(ctx, func(tx *sql.Tx) error {
		var err error
		c, err = readCart(ctx, tx, id)
		return err
	})
	return c, err
}

// UpdateCart reads, changes and writes a cart in one write transaction.
func (s *Store) UpdateCart(ctx context.Context, id string, now time.Time, fn func(c *checkout.Cart) error) (*checkout.Cart, error) {
	var c *checkout.Cart
	err := s.write(ctx, func(tx *sql.Tx) error {
		var err error
		if c, err = readCart(ctx, tx, id); err != nil {
			return err
		}
		if err := fn(c); err != nil {
			return err
		}
		c.UpdatedAt = now.UTC()
		if _, err := tx.ExecContext(ctx, `UPDATE carts SET updated_at = ? WHERE id = ?`, ms(c.UpdatedAt), id); err != nil {
			return fmt.Errorf("sqlite: updating cart: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM cart_lines WHERE cart_id = ?`, id); err != nil {
			return fmt.Errorf("sqlite: updating cart: %w", err)
		}
		if err := writeCartLines(ctx, tx, c); err != nil {
			return err
		}
		// Read back so that each line carries the catalogue's product, whatever fn put there.
		c, err = readCart(ctx, tx, id)
		return err
	})
	if err != nil {
		return nil, err
	}
	return c, nil
}

func writeCartLines(ctx context.Context, tx *sql.Tx, c *checkout.Cart) error {
	for i, l := range c.Lines {
		if l.Quantity < checkout.MinQuantity || l.Quantity > checkout.MaxQuantity {
			return fmt.Errorf("sqlite: cart line %s: quantity %d out of %d..%d", l.Product.ID, l.Quantity,
				checkout.MinQuantity, checkout.MaxQuantity)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO cart_lines (cart_id, product_id, position, quantity) VALUES (?, ?, ?, ?)`,
			c.ID, string(l.Product.ID), i, l.Quantity); err != nil {
			return fmt.Errorf("sqlite: storing cart line %s: %w", l.Product.ID, err)
		}
	}
	return nil
}

func readCart(ctx context.Context, q querier, id string) (*checkout.Cart, error) {
	c := &checkout.Cart{ID: id}
	var created, updated int64
	err := q.QueryRowContext(ctx, `SELECT created_at, updated_at FROM carts WHERE id = ?`, id).Scan(&created, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, checkout.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: reading cart: %w", err)
	}
	c.CreatedAt, c.UpdatedAt = fromMS(created), fromMS(updated)
	rows, err := q.QueryContext(ctx, `SELECT l.quantity, p.id, p.slug, p.title, p.description, p.unit_price, p.physical,
			p.active, p.created_at, p.updated_at
		FROM cart_lines l JOIN products p ON p.id = l.product_id
		WHERE l.cart_id = ? ORDER BY l.position`, id)
	if err != nil {
		return nil, fmt.Errorf("sqlite: reading cart lines: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var l checkout.CartLine
		var qty int
		p, err := scanProduct(prefixScanner{rows, &qty})
		if err != nil {
			return nil, fmt.Errorf("sqlite: reading cart lines: %w", err)
		}
		l.Product, l.Quantity = p, qty
		c.Lines = append(c.Lines, l)
	}
	return c, rows.Err()
}

// prefixScanner scans one leading column into first, then the rest into the caller's dests.
type prefixScanner struct {
	sc    scanner
	first any
}

func (p prefixScanner) Scan(dest ...any) error {
	return p.sc.Scan(append([]any{p.first}, dest...)...)
}
