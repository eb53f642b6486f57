package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// CreateOrder stores a new order with its lines, history and attempts in one transaction, or
// returns the order already stored under the same request key.
//
// The order row goes in with ON CONFLICT (request_key) DO NOTHING: when another transaction
// is inserting the same key, PostgreSQL makes this one wait for it, then skips the insert if
// it committed; the stored order is then read in a fresh statement, which sees it.
func (s *Store) CreateOrder(ctx context.Context, o *checkout.Order) (*checkout.Order, bool, error) {
	if o.ID == "" || o.RequestKey == "" {
		return nil, false, errors.New("postgres: an order needs an id and a request key")
	}
	var stored *checkout.Order
	created := false
	err := s.write(ctx, func(tx pgx.Tx) error {
		inserted, err := insertOrder(ctx, tx, o)
		if err != nil {
			return err
		}
		if inserted {
			created = true
			stored, err = readOrder(ctx, tx, "o.id = $1", o.ID)
			return err
		}
		stored, err = readOrder(ctx, tx, "o.request_key = $1", o.RequestKey)
		return err
	})
	if err != nil {
		return nil, false, err
	}
	return stored, created, nil
}

// insertOrder inserts o with its lines, history and attempts; inserted is false, and nothing
// is written, when an order with o's request key exists.
func insertOrder(ctx context.Context, tx pgx.Tx, o *checkout.Order) (inserted bool, err error) {
	a := o.Address
	hasAddr := a != nil
	if a == nil {
		a = &checkout.Address{}
	}
	version := o.Version
	if version == 0 {
		version = 1
	}
	var id string
	err = tx.QueryRow(ctx, `INSERT INTO orders (id, number, external_code, request_key, status, amount,
			customer_name, customer_document, customer_email, customer_phone, has_address, zip_code, street,
			street_number, complement, neighborhood, city, state, country, physical, late_payment, lang,
			shopper_ip, created_at, updated_at, paid_at, version, refund_due)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22,
			$23, $24, $25, $26, $27, $28)
		ON CONFLICT (request_key) DO NOTHING
		RETURNING id`,
		o.ID, o.Number, o.ExternalCode, o.RequestKey, string(o.Status), int64(o.Amount),
		o.Customer.Name, o.Customer.Document, o.Customer.Email, o.Customer.Phone, hasAddr, a.ZipCode, a.Street,
		a.Number, a.Complement, a.Neighborhood, a.City, a.State, a.Country, o.Physical, o.LatePayment, o.Lang,
		o.ShopperIP, ms(o.CreatedAt), ms(o.UpdatedAt), ms(o.PaidAt), version, int64(o.RefundDue)).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("postgres: storing order: %w", err)
	}
	o.Version = version

	// The rest goes in one round trip.
	b := &pgx.Batch{}
	for i, l := range o.Lines {
		b.Queue(`INSERT INTO order_lines (order_id, position, product_id, title, unit_price, quantity, physical)
			VALUES ($1, $2, $3, $4, $5, $6, $7)`, o.ID, i, string(l.ProductID), l.Title, int64(l.UnitPrice), l.Quantity, l.Physical)
	}
	queueHistory(b, o.ID, 0, o.History)
	for i := range o.Attempts {
		if err := queueAttempt(b, o.ID, &o.Attempts[i]); err != nil {
			return false, err
		}
	}
	if err := runBatch(ctx, tx, b); err != nil {
		return false, fmt.Errorf("postgres: storing order: %w", err)
	}
	return true, nil
}

// runBatch sends b and reads every result, running the statements' callbacks; it returns the
// first error.
func runBatch(ctx context.Context, tx pgx.Tx, b *pgx.Batch) error {
	if b.Len() == 0 {
		return nil
	}
	return tx.SendBatch(ctx, b).Close()
}

func queueHistory(b *pgx.Batch, orderID string, from int, hs []checkout.StatusChange) {
	for i, h := range hs {
		b.Queue(`INSERT INTO order_history (order_id, position, from_status, to_status, at, reason)
			VALUES ($1, $2, $3, $4, $5, $6)`, orderID, from+i, string(h.From), string(h.To), ms(h.At), h.Reason)
	}
}

// requestText stores an attempt's request as TEXT (not JSONB, which would reformat it: the
// exact bytes are kept); none is NULL.
func requestText(b []byte) *string {
	if len(b) == 0 {
		return nil
	}
	s := string(b)
	return &s
}

// violationsJSON encodes the gateway's violations for the JSONB column; none is NULL. The JSON
// goes as a string, not []byte: in pgx's exec and simple protocol modes (used behind
// PgBouncer) a []byte parameter is sent as bytea, which is not JSON.
func violationsJSON(vs []gatewayclient.Violation) (*string, error) {
	if len(vs) == 0 {
		return nil, nil
	}
	b, err := json.Marshal(vs)
	if err != nil {
		return nil, err
	}
	js := string(b)
	return &js, nil
}

// queueAttempt queues the insert of a, or the update of its changing fields when it exists.
// The update only applies to an attempt of the same order: an attempt id of another order
// makes the statement affect no row, which the batch reports as an error.
func queueAttempt(b *pgx.Batch, orderID string, a *checkout.Attempt) error {
	if a.OrderID == "" {
		a.OrderID = orderID
	}
	if a.OrderID != orderID {
		return fmt.Errorf("postgres: attempt %s belongs to another order", a.ID)
	}
	vs, err := violationsJSON(a.Violations)
	if err != nil {
		return fmt.Errorf("postgres: encoding violations: %w", err)
	}
	n := a.N
	b.Queue(`INSERT INTO attempts (id, order_id, n, idempotency_key, state, transaction_id, br_code,
			qr_png, expires_at, deposit_status, error, violations, created_at, updated_at, request)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
		ON CONFLICT (id) DO UPDATE SET state = excluded.state, transaction_id = excluded.transaction_id,
			br_code = excluded.br_code, qr_png = excluded.qr_png, expires_at = excluded.expires_at,
			deposit_status = excluded.deposit_status, error = excluded.error, violations = excluded.violations,
			updated_at = excluded.updated_at
		WHERE attempts.order_id = excluded.order_id`,
		a.ID, a.OrderID, a.N, a.IdempotencyKey, string(a.State), nullString(a.TransactionID), a.BRCode, a.QRCodePNG,
		ms(a.ExpiresAt), string(a.DepositStatus), a.Error, vs, ms(a.CreatedAt), ms(a.UpdatedAt), requestText(a.Request)).
		Exec(func(tag pgconn.CommandTag) error {
			if tag.RowsAffected() != 1 {
				return fmt.Errorf("attempt %d: its id belongs to another order", n)
			}
			return nil
		})
	return nil
}

// UpdateOrder stores the mutable part of an order when its version is still the stored one.
// The order's row is locked first, so the version check and the writes are one step for every
// other writer, in this process or another.
func (s *Store) UpdateOrder(ctx context.Context, o *checkout.Order) error {
	if !storable(o.ID) {
		return checkout.ErrNotFound
	}
	err := s.write(ctx, func(tx pgx.Tx) error {
		var status string
		var version int
		err := tx.QueryRow(ctx, `SELECT status, version FROM orders WHERE id = $1 FOR UPDATE`, o.ID).Scan(&status, &version)
		if errors.Is(err, pgx.ErrNoRows) {
			return checkout.ErrNotFound
		}
		if err != nil {
			return fmt.Errorf("postgres: reading order: %w", err)
		}
		if version != o.Version {
			return checkout.ErrConflict
		}
		from := checkout.OrderStatus(status)
		if from != o.Status && !checkout.CanTransition(from, o.Status) {
			return fmt.Errorf("postgres: order %s from %s to %s: %w", o.Number, from, o.Status, checkout.ErrInvalidTransition)
		}
		// Counted after the lock is held, so that the statement's snapshot sees every entry
		// committed by earlier holders.
		var histories int
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM order_history WHERE order_id = $1`, o.ID).Scan(&histories); err != nil {
			return fmt.Errorf("postgres: reading order history: %w", err)
		}
		if len(o.History) < histories {
			return fmt.Errorf("postgres: order %s: history entries are only appended: %w", o.Number, checkout.ErrConflict)
		}
		b := &pgx.Batch{}
		b.Queue(`UPDATE orders SET status = $1, late_payment = $2, paid_at = $3, updated_at = $4,
				lang = $5, refund_due = $6, version = version + 1 WHERE id = $7 AND version = $8`,
			string(o.Status), o.LatePayment, ms(o.PaidAt), ms(o.UpdatedAt), o.Lang, int64(o.RefundDue), o.ID, o.Version)
		queueHistory(b, o.ID, histories, o.History[histories:])
		for i := range o.Attempts {
			if err := queueAttempt(b, o.ID, &o.Attempts[i]); err != nil {
				return err
			}
		}
		if err := runBatch(ctx, tx, b); err != nil {
			return fmt.Errorf("postgres: updating order %s: %w", o.Number, err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	o.Version++
	return nil
}

// Order returns an order with its lines, history and attempts, or checkout.ErrNotFound.
func (s *Store) Order(ctx context.Context, id string) (*checkout.Order, error) {
	if !storable(id) {
		return nil, checkout.ErrNotFound
	}
	return s.orderWhere(ctx, "o.id = $1", id)
}

// OrderByTransaction returns the order of the attempt with that gateway transaction id.
func (s *Store) OrderByTransaction(ctx context.Context, transactionID string) (*checkout.Order, error) {
	if transactionID == "" || !storable(transactionID) {
		return nil, checkout.ErrNotFound
	}
	return s.orderWhere(ctx, "o.id = (SELECT order_id FROM attempts WHERE transaction_id = $1)", transactionID)
}

// OrderByExternalCode returns the order with that externalCode.
func (s *Store) OrderByExternalCode(ctx context.Context, code string) (*checkout.Order, error) {
	if code == "" || !storable(code) {
		return nil, checkout.ErrNotFound
	}
	return s.orderWhere(ctx, "o.external_code = $1", code)
}

func (s *Store) orderWhere(ctx context.Context, where string, args ...any) (*checkout.Order, error) {
	var o *checkout.Order
	err := s.read(ctx, func(tx pgx.Tx) error {
		var err error
		o, err = readOrder(ctx, tx, where, args...)
		return err
	})
	return o, err
}

// currentAttempt is the SQL of an order's current attempt (the highest n).
const currentAttempt = `(SELECT MAX(n) FROM attempts c WHERE c.order_id = o.id)`

// Orders lists orders matching f, newest first.
func (s *Store) Orders(ctx context.Context, f checkout.OrderFilter) ([]*checkout.Order, error) {
	var conds []string
	var p params
	if len(f.Statuses) > 0 {
		sts := make([]string, len(f.Statuses))
		for i, st := range f.Statuses {
			sts[i] = string(st)
		}
		conds = append(conds, "o.status = ANY("+p.add(sts)+")")
	}
	if !f.UpdatedSince.IsZero() {
		conds = append(conds, "o.updated_at >= "+p.add(ms(f.UpdatedSince)))
	}
	if !f.ExpiresBefore.IsZero() {
		conds = append(conds, `EXISTS (SELECT 1 FROM attempts a WHERE a.order_id = o.id AND a.n = `+currentAttempt+`
			AND a.state = `+p.add(string(checkout.AttemptActive))+` AND a.expires_at <= `+p.add(ms(f.ExpiresBefore))+`)`)
	}
	if f.PendingAttempt {
		conds = append(conds, `EXISTS (SELECT 1 FROM attempts a WHERE a.order_id = o.id AND a.n = `+currentAttempt+`
			AND a.state = `+p.add(string(checkout.AttemptPending))+`)`)
	}
	where := "TRUE"
	if len(conds) > 0 {
		where = strings.Join(conds, " AND ")
	}
	where += " ORDER BY o.created_at DESC, o.id DESC"
	if f.Limit > 0 {
		where += " LIMIT " + p.add(f.Limit)
	}
	if f.Offset > 0 {
		where += " OFFSET " + p.add(f.Offset)
	}
	var out []*checkout.Order
	err := s.read(ctx, func(tx pgx.Tx) error {
		var err error
		out, err = readOrders(ctx, tx, where, p...)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// readOrder reads the one order matching where, or checkout.ErrNotFound.
func readOrder(ctx context.Context, tx pgx.Tx, where string, args ...any) (*checkout.Order, error) {
	list, err := readOrders(ctx, tx, where, args...)
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, checkout.ErrNotFound
	}
	return list[0], nil
}

// readOrders reads the orders matching where (which may end with ORDER BY and LIMIT), then
// their lines, history and attempts with one query each, sent together in one round trip.
func readOrders(ctx context.Context, tx pgx.Tx, where string, args ...any) ([]*checkout.Order, error) {
	rows, err := tx.Query(ctx, `SELECT o.id, o.number, o.external_code, o.request_key, o.status, o.amount,
			o.customer_name, o.customer_document, o.customer_email, o.customer_phone, o.has_address, o.zip_code,
			o.street, o.street_number, o.complement, o.neighborhood, o.city, o.state, o.country, o.physical,
			o.late_payment, o.lang, o.shopper_ip, o.created_at, o.updated_at, o.paid_at, o.version, o.refund_due
		FROM orders o WHERE `+where, args...)
	if err != nil {
		return nil, fmt.Errorf("postgres: reading orders: %w", err)
	}
	var out []*checkout.Order
	for rows.Next() {
		o := &checkout.Order{}
		var a checkout.Address
		var status string
		var amount, created, updated, paid, refund int64
		var hasAddr bool
		if err := rows.Scan(&o.ID, &o.Number, &o.ExternalCode, &o.RequestKey, &status, &amount,
			&o.Customer.Name, &o.Customer.Document, &o.Customer.Email, &o.Customer.Phone, &hasAddr, &a.ZipCode,
			&a.Street, &a.Number, &a.Complement, &a.Neighborhood, &a.City, &a.State, &a.Country, &o.Physical,
			&o.LatePayment, &o.Lang, &o.ShopperIP, &created, &updated, &paid, &o.Version, &refund); err != nil {
			rows.Close()
			return nil, fmt.Errorf("postgres: reading orders: %w", err)
		}
		o.Status = checkout.OrderStatus(status)
		o.Amount, o.RefundDue = gatewayclient.Cents(amount), gatewayclient.Cents(refund)
		if hasAddr {
			o.Address = &a
		}
		o.CreatedAt, o.UpdatedAt, o.PaidAt = fromMS(created), fromMS(updated), fromMS(paid)
		out = append(out, o)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: reading orders: %w", err)
	}
	if len(out) == 0 {
		return nil, nil
	}
	ids := make([]string, len(out))
	byID := make(map[string]*checkout.Order, len(out))
	for i, o := range out {
		ids[i] = o.ID
		byID[o.ID] = o
	}
	if err := readChildren(ctx, tx, ids, byID); err != nil {
		return nil, err
	}
	return out, nil
}

// readChildren fills in the lines, history and attempts of the orders in byID.
func readChildren(ctx context.Context, tx pgx.Tx, ids []string, byID map[string]*checkout.Order) error {
	b := &pgx.Batch{}
	b.Queue(`SELECT order_id, product_id, title, unit_price, quantity, physical
		FROM order_lines WHERE order_id = ANY($1) ORDER BY order_id, position`, ids).
		Query(func(rows pgx.Rows) error {
			for rows.Next() {
				var oid, pid string
				var l checkout.OrderLine
				var price int64
				if err := rows.Scan(&oid, &pid, &l.Title, &price, &l.Quantity, &l.Physical); err != nil {
					return fmt.Errorf("postgres: reading order lines: %w", err)
				}
				l.ProductID, l.UnitPrice = checkout.ProductID(pid), gatewayclient.Cents(price)
				o := byID[oid]
				o.Lines = append(o.Lines, l)
			}
			return rows.Err()
		})
	b.Queue(`SELECT order_id, from_status, to_status, at, reason
		FROM order_history WHERE order_id = ANY($1) ORDER BY order_id, position`, ids).
		Query(func(rows pgx.Rows) error {
			for rows.Next() {
				var oid, from, to string
				var h checkout.StatusChange
				var at int64
				if err := rows.Scan(&oid, &from, &to, &at, &h.Reason); err != nil {
					return fmt.Errorf("postgres: reading order history: %w", err)
				}
				h.From, h.To, h.At = checkout.OrderStatus(from), checkout.OrderStatus(to), fromMS(at)
				o := byID[oid]
				o.History = append(o.History, h)
			}
			return rows.Err()
		})
	b.Queue(`SELECT order_id, id, n, idempotency_key, state, transaction_id, br_code, qr_png, expires_at,
			deposit_status, error, violations, created_at, updated_at, request
		FROM attempts WHERE order_id = ANY($1) ORDER BY order_id, n`, ids).
		Query(func(rows pgx.Rows) error {
			for rows.Next() {
				var a checkout.Attempt
				var state, deposit string
				var txID, req *string
				var vs []byte
				var expires, created, updated int64
				if err := rows.Scan(&a.OrderID, &a.ID, &a.N, &a.IdempotencyKey, &state, &txID, &a.BRCode, &a.QRCodePNG,
					&expires, &deposit, &a.Error, &vs, &created, &updated, &req); err != nil {
					return fmt.Errorf("postgres: reading attempts: %w", err)
				}
				a.State, a.DepositStatus = checkout.AttemptState(state), gatewayclient.DepositStatus(deposit)
				if txID != nil {
					a.TransactionID = *txID
				}
				if req != nil {
					a.Request = []byte(*req)
				}
				a.ExpiresAt, a.CreatedAt, a.UpdatedAt = fromMS(expires), fromMS(created), fromMS(updated)
				if len(vs) > 0 {
					if err := json.Unmarshal(vs, &a.Violations); err != nil {
						return fmt.Errorf("postgres: reading violations of attempt %d: %w", a.N, err)
					}
				}
				o := byID[a.OrderID]
				o.Attempts = append(o.Attempts, a)
			}
			return rows.Err()
		})
	if err := runBatch(ctx, tx, b); err != nil {
		return fmt.Errorf("postgres: reading orders: %w", err)
	}
	return nil
}

// MarkWebhook records a webhook id; first is false when it was already there. A concurrent
// insert of the same id makes this one wait for its outcome, so exactly one caller is first.
// The id comes from a request header and may be any bytes: it is stored through storedKey.
func (s *Store) MarkWebhook(ctx context.Context, id string, at time.Time) (bool, error) {
	tag, err := s.pool.Exec(ctx, `INSERT INTO webhook_events (id, received_at) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING`,
		storedKey(id), ms(at))
	if err != nil {
		return false, fmt.Errorf("postgres: recording webhook: %w", err)
	}
	return tag.RowsAffected() == 1, nil
}

// ForgetWebhook removes a recorded webhook id.
func (s *Store) ForgetWebhook(ctx context.Context, id string) error {
	if _, err := s.pool.Exec(ctx, `DELETE FROM webhook_events WHERE id = $1`, storedKey(id)); err != nil {
		return fmt.Errorf("postgres: forgetting webhook: %w", err)
	}
	return nil
}
