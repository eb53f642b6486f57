package sqlstore

import (
	"context"
	"fmt"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

const productColumns = `id, slug, title, description, unit_price, physical, active, created_at, updated_at,
	image_key, image_type, image_width, image_height`

// insertProduct inserts a product's columns; the caller adds what happens on a conflict.
const insertProduct = `INSERT INTO products (` + productColumns + `) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`

func productArgs(p checkout.Product) []any {
	return []any{string(p.ID), p.Slug, p.Title, p.Description, int64(p.UnitPrice), p.Physical, p.Active,
		ms(p.CreatedAt), ms(p.UpdatedAt), p.Image.Key, p.Image.Ext, p.Image.Width, p.Image.Height}
}

// UpsertProduct creates the product or replaces it by ID.
func (s *Store) UpsertProduct(ctx context.Context, p checkout.Product) error {
	if p.ID == "" {
		return s.errorf("a product needs an id")
	}
	err := s.db.Write(ctx, Stmt{SQL: insertProduct + `
		ON CONFLICT (id) DO UPDATE SET slug = excluded.slug, title = excluded.title,
			description = excluded.description, unit_price = excluded.unit_price,
			physical = excluded.physical, active = excluded.active, updated_at = excluded.updated_at,
			image_key = excluded.image_key, image_type = excluded.image_type, image_width = excluded.image_width,
			image_height = excluded.image_height`,
		Args: productArgs(p)})
	if err != nil {
		return s.errorf("storing product %s: %w", p.ID, err)
	}
	return nil
}

// AddProduct stores p unless a product with its ID or its slug is stored. The database decides
// (ON CONFLICT DO NOTHING, which waits for a concurrent insert of the same key to commit), so
// callers adding one product at once, from any process, add it once and none fails.
func (s *Store) AddProduct(ctx context.Context, p checkout.Product) (bool, error) {
	if p.ID == "" {
		return false, s.errorf("a product needs an id")
	}
	added := false
	err := s.db.Write(ctx, Stmt{SQL: insertProduct + ` ON CONFLICT DO NOTHING`, Args: productArgs(p),
		Affected: func(n int64) error { added = n == 1; return nil }})
	if err != nil {
		return false, s.errorf("adding product %s: %w", p.ID, err)
	}
	return added, nil
}

// Product returns one product or checkout.ErrNotFound.
func (s *Store) Product(ctx context.Context, id checkout.ProductID) (*checkout.Product, error) {
	return s.productWhere(ctx, "id = $1", string(id))
}

// ProductBySlug returns one product by slug or checkout.ErrNotFound.
func (s *Store) ProductBySlug(ctx context.Context, slug string) (*checkout.Product, error) {
	return s.productWhere(ctx, "slug = $1", slug)
}

func (s *Store) productWhere(ctx context.Context, where string, key string) (*checkout.Product, error) {
	if !s.storable(key) {
		return nil, checkout.ErrNotFound
	}
	var p *checkout.Product
	err := s.db.Read(ctx, Stmt{SQL: `SELECT ` + productColumns + ` FROM products WHERE ` + where, Args: []any{key},
		Rows: each(func(r Rows) error {
			v, err := scanProduct(r)
			p = &v
			return err
		})})
	if err != nil {
		return nil, s.errorf("reading product: %w", err)
	}
	if p == nil {
		return nil, checkout.ErrNotFound
	}
	return p, nil
}

// Products lists the catalogue by title, in the order of its bytes.
func (s *Store) Products(ctx context.Context, activeOnly bool) ([]checkout.Product, error) {
	q := `SELECT ` + productColumns + ` FROM products`
	if activeOnly {
		q += ` WHERE active`
	}
	var out []checkout.Product
	err := s.db.Read(ctx, Stmt{SQL: q + ` ORDER BY title ` + s.d.CollateBytes + `, id`,
		Rows: each(func(r Rows) error {
			p, err := scanProduct(r)
			out = append(out, p)
			return err
		})})
	if err != nil {
		return nil, s.errorf("listing products: %w", err)
	}
	return out, nil
}

// scanProduct reads the productColumns of a row.
func scanProduct(r Rows) (checkout.Product, error) {
	var p checkout.Product
	var id string
	var price, created, updated int64
	err := r.Scan(&id, &p.Slug, &p.Title, &p.Description, &price, &p.Physical, &p.Active, &created, &updated,
		&p.Image.Key, &p.Image.Ext, &p.Image.Width, &p.Image.Height)
	p.ID = checkout.ProductID(id)
	p.UnitPrice = gatewayclient.Cents(price)
	p.CreatedAt, p.UpdatedAt = fromMS(created), fromMS(updated)
	return p, err
}

// CreateCart stores a new cart and its lines.
func (s *Store) CreateCart(ctx context.Context, c checkout.Cart) error {
	lines, err := s.cartLineInserts(&c)
	if err != nil {
		return s.errorf("creating cart: %w", err)
	}
	// One batch: on PostgreSQL its BEGIN, inserts and COMMIT are one round trip.
	err = s.writeBatch(ctx, append([]Stmt{{SQL: `INSERT INTO carts (id, created_at, updated_at) VALUES ($1, $2, $3)`,
		Args: []any{c.ID, ms(c.CreatedAt), ms(c.UpdatedAt)}}}, lines...)...)
	if err != nil {
		return s.errorf("creating cart: %w", err)
	}
	return nil
}

// Cart returns a cart with its lines' products, or checkout.ErrNotFound.
func (s *Store) Cart(ctx context.Context, id string) (*checkout.Cart, error) {
	if !s.storable(id) {
		return nil, checkout.ErrNotFound
	}
	var c *checkout.Cart
	// One statement, which sees one snapshot by itself: no transaction to begin and end (the
	// cart is read twice an order).
	err := s.db.Read(ctx, s.readCart(id, false, &c)[0])
	if err != nil {
		return nil, s.errorf("reading cart: %w", err)
	}
	if c == nil {
		return nil, checkout.ErrNotFound
	}
	return c, nil
}

// UpdateCart reads the cart, lets fn change it and writes it back, in one transaction that
// holds the cart (its row lock, or the database's write lock): concurrent updates of one cart,
// from any process, queue.
func (s *Store) UpdateCart(ctx context.Context, id string, now time.Time, fn func(c *checkout.Cart) error) (*checkout.Cart, error) {
	if !s.storable(id) {
		return nil, checkout.ErrNotFound
	}
	var c *checkout.Cart
	var fnErr error
	err := s.db.WriteTx(ctx, func(tx Runner) error {
		if err := tx.Run(ctx, s.readCart(id, true, &c)...); err != nil {
			return err
		}
		if c == nil {
			return checkout.ErrNotFound
		}
		if fnErr = fn(c); fnErr != nil {
			return fnErr
		}
		c.UpdatedAt = now.UTC()
		lines, err := s.cartLineInserts(c)
		if err != nil {
			return err
		}
		stmts := append([]Stmt{
			{SQL: `UPDATE carts SET updated_at = $1 WHERE id = $2`, Args: []any{ms(c.UpdatedAt), id}},
			{SQL: `DELETE FROM cart_lines WHERE cart_id = $1`, Args: []any{id}},
		}, lines...)
		// Read back, so that each line carries the catalogue's product whatever fn put there.
		return tx.Run(ctx, append(stmts, s.readCart(id, false, &c)...)...)
	})
	switch {
	case err == nil:
		return c, nil
	case fnErr != nil, err == checkout.ErrNotFound:
		return nil, err
	}
	return nil, s.errorf("updating cart: %w", err)
}

// cartLineInserts returns the statements storing c's lines, or an error for a quantity out of
// range.
func (s *Store) cartLineInserts(c *checkout.Cart) ([]Stmt, error) {
	stmts := make([]Stmt, 0, len(c.Lines))
	for i, l := range c.Lines {
		if l.Quantity < checkout.MinQuantity || l.Quantity > checkout.MaxQuantity {
			return nil, fmt.Errorf("cart line %s: quantity %d out of %d..%d", l.Product.ID, l.Quantity,
				checkout.MinQuantity, checkout.MaxQuantity)
		}
		stmts = append(stmts, Stmt{SQL: `INSERT INTO cart_lines (cart_id, product_id, position, quantity) VALUES ($1, $2, $3, $4)`,
			Args: []any{c.ID, string(l.Product.ID), i, l.Quantity}})
	}
	return stmts, nil
}

// readCart returns the statements reading cart id and its lines' products into *c, left nil
// when there is no such cart: one statement, joining the lines. lock first takes the cart's
// row lock for the rest of the transaction, in a statement of its own: the read that follows
// it sees the lines its last writer left (a locking read joining the lines would see the lines
// as they were when it began, before it waited for the lock).
func (s *Store) readCart(id string, lock bool, c **checkout.Cart) []Stmt {
	*c = nil
	read := Stmt{SQL: `SELECT c.created_at, c.updated_at, l.quantity, p.id, p.slug, p.title,
			p.description, p.unit_price, p.physical, p.active, p.created_at, p.updated_at,
			COALESCE(p.image_key, ''), COALESCE(p.image_type, ''), COALESCE(p.image_width, 0), COALESCE(p.image_height, 0)
		FROM carts c LEFT JOIN cart_lines l ON l.cart_id = c.id LEFT JOIN products p ON p.id = l.product_id
		WHERE c.id = $1 ORDER BY l.position`, Args: []any{id}, Rows: each(func(r Rows) error {
		var created, updated int64
		var qty *int
		var pid, slug, title, description *string
		var price, pCreated, pUpdated *int64
		var physical, active *bool
		var img checkout.ProductImage
		if err := r.Scan(&created, &updated, &qty, &pid, &slug, &title, &description, &price, &physical, &active,
			&pCreated, &pUpdated, &img.Key, &img.Ext, &img.Width, &img.Height); err != nil {
			return fmt.Errorf("reading cart lines: %w", err)
		}
		if *c == nil {
			*c = &checkout.Cart{ID: id, CreatedAt: fromMS(created), UpdatedAt: fromMS(updated)}
		}
		if qty == nil || pid == nil || slug == nil || title == nil || description == nil || price == nil ||
			physical == nil || active == nil || pCreated == nil || pUpdated == nil {
			return nil // a cart without lines: its one row has none (nor has a line without its product)
		}
		(*c).Lines = append((*c).Lines, checkout.CartLine{Quantity: *qty, Product: checkout.Product{
			ID: checkout.ProductID(*pid), Slug: *slug, Title: *title, Description: *description,
			UnitPrice: gatewayclient.Cents(*price), Physical: *physical, Active: *active,
			CreatedAt: fromMS(*pCreated), UpdatedAt: fromMS(*pUpdated), Image: img}})
		return nil
	})}
	if !lock || !s.d.RowLocks {
		return []Stmt{read}
	}
	return []Stmt{{SQL: `SELECT id FROM carts WHERE id = $1 FOR UPDATE`, Args: []any{id}}, read}
}
