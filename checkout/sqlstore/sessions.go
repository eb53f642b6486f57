package sqlstore

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

var _ checkout.CheckoutSessionStore = (*Store)(nil)

// A session is written once and never changes: its lines and metadata are kept as JSON in its
// row, so that it is written and read with one statement.

const sessionColumns = `id, idempotency_key, request_hash, external_code, embed_origin, success_url, cancel_url,
	amount, lines, customer_name, customer_document, customer_email, customer_phone, has_address, zip_code,
	street, street_number, complement, neighborhood, city, state, country, metadata, api_key_id, expires_at,
	created_at, shipping, delivery_days`

// sessionLine is a line of a session as its JSON column keeps it.
type sessionLine struct {
	ProductID   string `json:"productId,omitempty"`
	Title       string `json:"title"`
	Description string `json:"description,omitempty"`
	UnitPrice   int64  `json:"unitPrice"`
	Quantity    int    `json:"quantity"`
	Physical    bool   `json:"physical,omitempty"`
	// An ad-hoc item's picture (fetched from its imageUrl): its key, type and large size.
	ImageKey    string `json:"imageKey,omitempty"`
	ImageExt    string `json:"imageExt,omitempty"`
	ImageWidth  int    `json:"imageWidth,omitempty"`
	ImageHeight int    `json:"imageHeight,omitempty"`
}

// CreateCheckoutSession stores sess, unless a session with its idempotency key is stored: then it
// returns that one with created false. Concurrent calls with one key store one session: the
// insert waits for a concurrent insert of the same key and then does nothing.
func (s *Store) CreateCheckoutSession(ctx context.Context, sess *checkout.CheckoutSession) (*checkout.CheckoutSession, bool, error) {
	if sess.ID == "" {
		return nil, false, s.errorf("a session needs an id")
	}
	lines := make([]sessionLine, len(sess.Lines))
	for i, l := range sess.Lines {
		lines[i] = sessionLine{ProductID: string(l.ProductID), Title: l.Title, Description: l.Description,
			UnitPrice: int64(l.UnitPrice), Quantity: l.Quantity, Physical: l.Physical, ImageKey: l.Image.Key,
			ImageExt: l.Image.Ext, ImageWidth: l.Image.Width, ImageHeight: l.Image.Height}
	}
	lj, err := json.Marshal(lines)
	if err != nil {
		return nil, false, s.errorf("encoding the session's lines: %w", err)
	}
	meta := ""
	if len(sess.Metadata) > 0 {
		b, err := json.Marshal(sess.Metadata)
		if err != nil {
			return nil, false, s.errorf("encoding the session's metadata: %w", err)
		}
		meta = string(b)
	}
	a, hasAddr := sess.Address, sess.Address != nil
	if a == nil {
		a = &checkout.Address{}
	}
	c := sess.Customer
	insert := Stmt{SQL: `INSERT INTO checkout_sessions (` + sessionColumns + `)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22,
			$23, $24, $25, $26, $27, $28)
		ON CONFLICT (idempotency_key) DO NOTHING
		RETURNING id`,
		Args: []any{sess.ID, nullString(sess.IdempotencyKey), sess.RequestHash, sess.ExternalCode, sess.EmbedOrigin,
			sess.SuccessURL, sess.CancelURL, int64(sess.Amount), string(lj), c.Name, c.Document, c.Email, c.Phone, hasAddr,
			a.ZipCode, a.Street, a.Number, a.Complement, a.Neighborhood, a.City, a.State, a.Country, meta, sess.APIKeyID,
			ms(sess.ExpiresAt), ms(sess.CreatedAt), int64(sess.Shipping), sess.DeliveryDays}}
	var stored []*checkout.CheckoutSession
	created := false
	err = s.db.WriteTx(ctx, func(tx Runner) error {
		insert.Rows = func(r Rows) error { created = r.Next(); return nil }
		if err := tx.Run(ctx, insert); err != nil {
			return err
		}
		if created {
			return nil
		}
		return tx.Run(ctx, s.readSession(`idempotency_key = $1`, sess.IdempotencyKey, &stored))
	})
	if err != nil {
		return nil, false, s.errorf("storing a checkout session: %w", err)
	}
	if created {
		return sess, true, nil
	}
	if len(stored) == 0 {
		return nil, false, s.errorf("the checkout session of an idempotency key vanished")
	}
	return stored[0], false, nil
}

// CheckoutSession returns a checkout session, or checkout.ErrNotFound.
func (s *Store) CheckoutSession(ctx context.Context, id string) (*checkout.CheckoutSession, error) {
	if id == "" || !s.storable(id) {
		return nil, checkout.ErrNotFound
	}
	return s.sessionWhere(ctx, `id = $1`, id)
}

// CheckoutSessionByIdempotencyKey returns the session made with that key, or checkout.ErrNotFound.
func (s *Store) CheckoutSessionByIdempotencyKey(ctx context.Context, key string) (*checkout.CheckoutSession, error) {
	if key == "" || !s.storable(key) {
		return nil, checkout.ErrNotFound
	}
	return s.sessionWhere(ctx, `idempotency_key = $1`, key)
}

func (s *Store) sessionWhere(ctx context.Context, where, key string) (*checkout.CheckoutSession, error) {
	var list []*checkout.CheckoutSession
	if err := s.db.Read(ctx, s.readSession(where, key, &list)); err != nil {
		return nil, s.errorf("reading a checkout session: %w", err)
	}
	if len(list) == 0 {
		return nil, checkout.ErrNotFound
	}
	return list[0], nil
}

// readSession returns the statement reading the sessions where selects by key into *out.
func (s *Store) readSession(where, key string, out *[]*checkout.CheckoutSession) Stmt {
	return Stmt{SQL: `SELECT ` + sessionColumns + ` FROM checkout_sessions WHERE ` + where, Args: []any{key},
		Rows: each(func(r Rows) error {
			sess := &checkout.CheckoutSession{}
			var key *string
			var lj, meta string
			var amount, expires, created, shipping int64
			var hasAddr bool
			var a checkout.Address
			c := &sess.Customer
			if err := r.Scan(&sess.ID, &key, &sess.RequestHash, &sess.ExternalCode, &sess.EmbedOrigin, &sess.SuccessURL,
				&sess.CancelURL, &amount, &lj, &c.Name, &c.Document, &c.Email, &c.Phone, &hasAddr, &a.ZipCode, &a.Street,
				&a.Number, &a.Complement, &a.Neighborhood, &a.City, &a.State, &a.Country, &meta, &sess.APIKeyID,
				&expires, &created, &shipping, &sess.DeliveryDays); err != nil {
				return fmt.Errorf("reading checkout sessions: %w", err)
			}
			if key != nil {
				sess.IdempotencyKey = *key
			}
			sess.Shipping = gatewayclient.Cents(shipping)
			var lines []sessionLine
			if err := json.Unmarshal([]byte(lj), &lines); err != nil {
				return fmt.Errorf("reading the lines of a checkout session: %w", err)
			}
			for _, l := range lines {
				sess.Lines = append(sess.Lines, checkout.OrderLine{ProductID: checkout.ProductID(l.ProductID), Title: l.Title,
					Description: l.Description, UnitPrice: gatewayclient.Cents(l.UnitPrice), Quantity: l.Quantity, Physical: l.Physical,
					Image: checkout.ProductImage{Key: l.ImageKey, Ext: l.ImageExt, Width: l.ImageWidth, Height: l.ImageHeight}})
			}
			if meta != "" {
				if err := json.Unmarshal([]byte(meta), &sess.Metadata); err != nil {
					return fmt.Errorf("reading the metadata of a checkout session: %w", err)
				}
			}
			if hasAddr {
				sess.Address = &a
			}
			sess.Amount = gatewayclient.Cents(amount)
			sess.ExpiresAt, sess.CreatedAt = fromMS(expires), fromMS(created)
			*out = append(*out, sess)
			return nil
		})}
}
