package checkout

import (
	"context"
	"errors"
	"fmt"
	"github.com/pixcheckout/pixcheckout/checkout/imaging"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/brcode"
)

// The merchant's catalogue: products made, changed and deactivated from the dashboard. Carts
// read their products from the store each time, so a change shows in the shop at once; placed
// orders keep the price they were placed at.

// Names of the product form's fields (and of ValidationError).
const (
	FieldTitle       = "title"
	FieldDescription = "description"
	FieldUnitPrice   = "unit_price"
)

// ProductInput is a product as the merchant edits it.
type ProductInput struct {
	Title       string
	Description string // optional
	UnitPrice   gatewayclient.Cents
	Physical    bool
	Active      bool
}

// Catalogue is the part of the Service that keeps the products: the shop's (active) and the
// merchant's, with their pictures.
type Catalogue struct {
	store      Store
	now        func() time.Time
	fetchImage func(context.Context, string) (io.ReadCloser, error)
	pictures   *imaging.Limiter // how many uploads decode at once
}

// Products lists the active products of the catalogue.
func (c *Catalogue) Products(ctx context.Context) ([]Product, error) {
	ps, err := c.store.Products(ctx, true)
	if err != nil {
		return nil, fmt.Errorf("checkout: listing products: %w", err)
	}
	return ps, nil
}

// Product returns an active product, or ErrNotFound.
func (c *Catalogue) Product(ctx context.Context, id ProductID) (*Product, error) {
	p, err := c.store.Product(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("checkout: product %q: %w", id, err)
	}
	if !p.Active {
		return nil, fmt.Errorf("checkout: product %q: %w", id, ErrNotFound)
	}
	return p, nil
}

// MerchantProduct returns one product of the catalogue, on sale or not, or ErrNotFound.
func (c *Catalogue) MerchantProduct(ctx context.Context, id ProductID) (*Product, error) {
	return c.store.Product(ctx, id)
}

// AllProducts lists the whole catalogue, inactive products too, by title.
func (c *Catalogue) AllProducts(ctx context.Context) ([]Product, error) {
	return c.store.Products(ctx, false)
}

// CheckProduct checks a product as CreateProduct and UpdateProduct do, without storing it;
// nil when it is valid. A form that could not read a field (a price typed wrong) uses it to
// report the other fields' errors at the same time.
func CheckProduct(in ProductInput) *ValidationError { return checkProduct(&in) }

// checkProduct checks a product with the gateway's own rules for a transaction's item (title
// 2..150 characters, description 2..255 when given, unit price 1..10000000 cents) and the text
// rule (CheckText): a product the gateway would refuse in an order is refused here. Texts are
// trimmed.
func checkProduct(in *ProductInput) *ValidationError {
	in.Title, in.Description = strings.TrimSpace(in.Title), strings.TrimSpace(in.Description)
	req := gatewayclient.CreateTransactionRequest{Amount: max(in.UnitPrice, 1), PaymentMethod: gatewayclient.PaymentMethodPIX,
		IdempotencyKey: "product-check", Pix: &gatewayclient.PixRequest{},
		Items: []gatewayclient.Item{{Title: in.Title, Description: in.Description, UnitPrice: in.UnitPrice, Quantity: gatewayclient.Ptr(1)}}}
	fe := &ValidationError{}
	checkTexts(fe, textField{FieldTitle, in.Title}, textField{FieldDescription, in.Description})
	var ve *gatewayclient.ValidationError
	if err := req.Validate(); errors.As(err, &ve) {
		// The form's fields are the transaction item's.
		fields := map[string]string{"items[0].title": FieldTitle, "items[0].description": FieldDescription, "items[0].unitPrice": FieldUnitPrice}
		for _, v := range ve.Violations {
			if f := fields[v.Field]; f != "" {
				fe.Add(f, v.Code, v.Message)
			}
		}
	}
	if in.UnitPrice == 0 && !fe.Has(FieldUnitPrice) {
		fe.Add(FieldUnitPrice, gatewayclient.CodeRequired, "is required")
	}
	return fe.OrNil()
}

// CreateProduct adds a product to the catalogue. Its id and slug come from its title ("Caneca
// de cerâmica" is caneca-de-ceramica, then caneca-de-ceramica-2...), unique even when two are
// made at once.
func (c *Catalogue) CreateProduct(ctx context.Context, in ProductInput) (*Product, error) {
	if fe := checkProduct(&in); fe != nil {
		return nil, fe
	}
	now := c.now()
	base := slugify(in.Title)
	for n := 1; n <= 100; n++ {
		slug := base
		if n > 1 {
			slug = base + "-" + strconv.Itoa(n)
		}
		p := Product{ID: ProductID(slug), Slug: slug, Title: in.Title, Description: in.Description, UnitPrice: in.UnitPrice,
			Physical: in.Physical, Active: in.Active, CreatedAt: now, UpdatedAt: now}
		added, err := c.store.AddProduct(ctx, p)
		if err != nil {
			return nil, err
		}
		if added {
			return &p, nil
		}
	}
	return nil, &Error{Code: CodeConflict, Message: "too many products with that title"}
}

// UpdateProduct changes a product's title, description, price, kind and state; its id and slug
// stay (carts and links name it).
func (c *Catalogue) UpdateProduct(ctx context.Context, id ProductID, in ProductInput) (*Product, error) {
	if fe := checkProduct(&in); fe != nil {
		return nil, fe
	}
	p, err := c.store.Product(ctx, id)
	if err != nil {
		return nil, err
	}
	p.Title, p.Description, p.UnitPrice, p.Physical, p.Active = in.Title, in.Description, in.UnitPrice, in.Physical, in.Active
	p.UpdatedAt = c.now()
	if err := c.store.UpsertProduct(ctx, *p); err != nil {
		return nil, fmt.Errorf("checkout: updating product %s: %w", id, err)
	}
	return p, nil
}

// SetProductActive shows (true) or hides (false) a product in the shop. A hidden product can
// no longer be added to a cart; carts holding it ask the shopper to remove it.
func (c *Catalogue) SetProductActive(ctx context.Context, id ProductID, active bool) (*Product, error) {
	p, err := c.store.Product(ctx, id)
	if err != nil {
		return nil, err
	}
	if p.Active == active {
		return p, nil
	}
	p.Active, p.UpdatedAt = active, c.now()
	if err := c.store.UpsertProduct(ctx, *p); err != nil {
		return nil, fmt.Errorf("checkout: updating product %s: %w", id, err)
	}
	return p, nil
}

// slugify makes a URL-friendly name of a title: ASCII letters and digits in lower case joined
// by single hyphens, at most 60 characters; "produto" when nothing is left.
func slugify(title string) string {
	var b strings.Builder
	hyphen := false
	for _, r := range strings.ToLower(brcode.Sanitize(title, 0)) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if hyphen && b.Len() > 0 {
				b.WriteByte('-')
			}
			hyphen = false
			b.WriteRune(r)
			if b.Len() >= 60 {
				break
			}
			continue
		}
		hyphen = true
	}
	if b.Len() == 0 {
		return "produto"
	}
	return b.String()
}
