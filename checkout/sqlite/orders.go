package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

func centsOf(v int64) gatewayclient.Cents { return gatewayclient.Cents(v) }

// CreateOrder stores a new order with its lines, history and attempts in one transaction, or
// returns the order already stored under the same request key.
func (s *Store) CreateOrder(ctx context.Context, o *checkout.Order) (*checkout.Order, bool, error) {
	if o.ID == "" || o.RequestKey == "" {
		return nil, false, errors.New("sqlite: an order needs an id and a request key")
	}
	var stored *checkout.Order
	created := false
	err := s.write(ctx, func(tx *sql.Tx) error {
		var id string
		err := tx.QueryRowContext(ctx, `SELECT id FROM orders WHERE request_key = ?`, o.RequestKey).Scan(&id)
		if err == nil {
			stored, err = readOrder(ctx, tx, "o.id = ?", id)
			return err
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("sqlite: looking up the request key: %w", err)
		}
		if err := insertOrder(ctx, tx, o); err != nil {
			return err
		}
		created = true
		stored, err = readOrder(ctx, tx, "o.id = ?", o.ID)
		return err
	})
	if err != nil && isUnique(err) {
		// Another process stored the same request key between our look-up and our insert.
		if existing, rerr := s.orderWhere(ctx, "o.request_key = ?", o.RequestKey); rerr == nil {
			return existing, false, nil
		}
	}
	if err != nil {
		return nil, false, err
	}
	return stored, created, nil
}

func insertOrder(ctx context.Context, tx *sql.Tx, o *checkout.Order) error {
	a := o.Address
	hasAddr := a != nil
	if a == nil {
		a = &checkout.Address{}
	}
	version := o.Version
	if version == 0 {
		version = 1
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO orders (id, number, external_code, request_key, status, amount,
			customer_name, customer_document, customer_email, customer_phone, has_address, zip_code, street,
			street_number, complement, neighborhood, city, state, country, physical, late_payment, lang,
			shopper_ip, created_at, updated_at, paid_at, version, refund_due)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		o.ID, o.Number, o.ExternalCode, o.RequestKey, string(o.Status), int64(o.Amount),
		o.Customer.Name, o.Customer.Document, o.Customer.Email, o.Customer.Phone, boolInt(hasAddr), a.ZipCode, a.Street,
		a.Number, a.Complement, a.Neighborhood, a.City, a.State, a.Country, boolInt(o.Physical), boolInt(o.LatePayment), o.Lang,
		o.ShopperIP, ms(o.CreatedAt), ms(o.UpdatedAt), ms(o.PaidAt), version, int64(o.RefundDue))
	if err != nil {
		return fmt.Errorf("sqlite: storing order: %w", err)
	}
	o.Version = version
	for i, l := range o.Lines {
		if _, err := tx.ExecContext(ctx, `INSERT INTO order_lines (order_id, position, product_id, title, unit_price, quantity, physical)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, o.ID, i, string(l.ProductID), l.Title, int64(l.UnitPrice), l.Quantity, boolInt(l.Physical)); err != nil {
			return fmt.Errorf("sqlite: storing order line: %w", err)
		}
	}
	if err := insertHistory(ctx, tx, o.ID, 0, o.History); err != nil {
		return err
	}
	for i := range o.Attempts {
		if err := insertAttempt(ctx, tx, &o.Attempts[i]); err != nil {
			return err
		}
	}
	return nil
}

func insertHistory(ctx context.Context, tx *sql.Tx, orderID string, from int, hs []checkout.StatusChange) error {
	for i, h := range hs {
		if _, err := tx.ExecContext(ctx, `INSERT INTO order_history (order_id, position, from_status, to_status, at, reason)
			VALUES (?, ?, ?, ?, ?, ?)`, orderID, from+i, string(h.From), string(h.To), ms(h.At), h.Reason); err != nil {
			return fmt.Errorf("sqlite: storing order history: %w", err)
		}
	}
	return nil
}

// nullString stores "" as NULL, for unique columns that may be unset.
func nullString(s string) sql.NullString { return sql.NullString{String: s, Valid: s != ""} }

func violationsJSON(vs []gatewayclient.Violation) (string, error) {
	if len(vs) == 0 {
		return "", nil
	}
	b, err := json.Marshal(vs)
	return string(b), err
}

func insertAttempt(ctx context.Context, tx *sql.Tx, a *checkout.Attempt) error {
	vs, err := violationsJSON(a.Violations)
	if err != nil {
		return fmt.Errorf("sqlite: encoding violations: %w", err)
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO attempts (id, order_id, n, idempotency_key, state, transaction_id, br_code,
			qr_png, expires_at, deposit_status, error, violations, created_at, updated_at, request)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		a.ID, a.OrderID, a.N, a.IdempotencyKey, string(a.State), nullString(a.TransactionID), a.BRCode, a.QRCodePNG,
		ms(a.ExpiresAt), string(a.DepositStatus), a.Error, vs, ms(a.CreatedAt), ms(a.UpdatedAt), nullString(string(a.Request)))
	if err != nil {
		return fmt.Errorf("sqlite: storing attempt %d: %w", a.N, err)
	}
	return nil
}

// UpdateOrder stores the mutable part of an order when its version is still the stored one.
func (s *Store) UpdateOrder(ctx context.Context, o *checkout.Order) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		var status string
		var version, histories int
		err := tx.QueryRowContext(ctx, `SELECT status, version, (SELECT COUNT(*) FROM order_history h WHERE h.order_id = o.id)
			FROM orders o WHERE id = ?`, o.ID).Scan(&status, &version, &histories)
		if errors.Is(err, sql.ErrNoRows) {
			return checkout.ErrNotFound
		}
		if err != nil {
			return fmt.Errorf("sqlite: reading order: %w", err)
		}
		if version != o.Version {
			return checkout.ErrConflict
		}
		from := checkout.OrderStatus(status)
		if from != o.Status && !checkout.CanTransition(from, o.Status) {
			return fmt.Errorf("sqlite: order %s from %s to %s: %w", o.Number, from, o.Status, checkout.ErrInvalidTransition)
		}
		if len(o.History) < histories {
			return fmt.Errorf("sqlite: order %s: history entries are only appended: %w", o.Number, checkout.ErrConflict)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE orders SET status = ?, late_payment = ?, paid_at = ?, updated_at = ?,
				lang = ?, refund_due = ?, version = version + 1 WHERE id = ? AND version = ?`,
			string(o.Status), boolInt(o.LatePayment), ms(o.PaidAt), ms(o.UpdatedAt), o.Lang, int64(o.RefundDue), o.ID, o.Version); err != nil {
			return fmt.Errorf("sqlite: updating order: %w", err)
		}
		if err := insertHistory(ctx, tx, o.ID, histories, o.History[histories:]); err != nil {
			return err
		}
		for i := range o.Attempts {
			if err := upsertAttempt(ctx, tx, o.ID, &o.Attempts[i]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	o.Version++
	return nil
}

func upsertAttempt(ctx context.Context, tx *sql.Tx, orderID string, a *checkout.Attempt) error {
	if a.OrderID == "" {
		a.OrderID = orderID
	}
	if a.OrderID != orderID {
		return fmt.Errorf("sqlite: attempt %d belongs to another order", a.N)
	}
	vs, err := violationsJSON(a.Violations)
	if err != nil {
		return fmt.Errorf("sqlite: encoding violations: %w", err)
	}
	res, err := tx.ExecContext(ctx, `UPDATE attempts SET state = ?, transaction_id = ?, br_code = ?, qr_png = ?,
			expires_at = ?, deposit_status = ?, error = ?, violations = ?, updated_at = ?
		WHERE id = ? AND order_id = ?`,
		string(a.State), nullString(a.TransactionID), a.BRCode, a.QRCodePNG, ms(a.ExpiresAt), string(a.DepositStatus),
		a.Error, vs, ms(a.UpdatedAt), a.ID, orderID)
	if err != nil {
		return fmt.Errorf("sqlite: updating attempt %d: %w", a.N, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("sqlite: updating attempt %d: %w", a.N, err)
	} else if n == 1 {
		return nil
	}
	return insertAttempt(ctx, tx, a)
}

// Order returns an order with its lines, history and attempts, or checkout.ErrNotFound.
func (s *Store) Order(ctx context.Context, id string) (*checkout.Order, error) {
	return s.orderWhere(ctx, "o.id = ?", id)
}

// OrderByTransaction returns the order of the attempt with that gateway transaction id.
func (s *Store) OrderByTransaction(ctx context.Context, transactionID string) (*checkout.Order, error) {
	if transactionID == "" {
		return nil, checkout.ErrNotFound
	}
	return s.orderWhere(ctx, "o.id = (SELECT order_id FROM attempts WHERE transaction_id = ?)", transactionID)
}

// OrderByExternalCode returns the order with that externalCode.
func (s *Store) OrderByExternalCode(ctx context.Context, code string) (*checkout.Order, error) {
	if code == "" {
		return nil, checkout.ErrNotFound
	}
	return s.orderWhere(ctx, "o.external_code = ?", code)
}

func (s *Store) orderWhere(ctx context.Context, where string, args ...any) (*checkout.Order, error) {
	var o *checkout.Order
	err := s.read(ctx, func(tx *sql.Tx) error {
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
	var args []any
	if len(f.Statuses) > 0 {
		conds = append(conds, "o.status IN (?"+strings.Repeat(", ?", len(f.Statuses)-1)+")")
		for _, st := range f.Statuses {
			args = append(args, string(st))
		}
	}
	if !f.UpdatedSince.IsZero() {
		conds = append(conds, "o.updated_at >= ?")
		args = append(args, ms(f.UpdatedSince))
	}
	if !f.ExpiresBefore.IsZero() {
		conds = append(conds, `EXISTS (SELECT 1 FROM attempts a WHERE a.order_id = o.id AND a.n = `+currentAttempt+`
			AND a.state = ? AND a.expires_at <= ?)`)
		args = append(args, string(checkout.AttemptActive), ms(f.ExpiresBefore))
	}
	if f.PendingAttempt {
		conds = append(conds, `EXISTS (SELECT 1 FROM attempts a WHERE a.order_id = o.id AND a.n = `+currentAttempt+`
			AND a.state = ?)`)
		args = append(args, string(checkout.AttemptPending))
	}
	q := `SELECT o.id FROM orders o`
	if len(conds) > 0 {
		q += " WHERE " + strings.Join(conds, " AND ")
	}
	q += " ORDER BY o.created_at DESC, o.id DESC"
	if f.Limit > 0 || f.Offset > 0 {
		limit := f.Limit
		if limit <= 0 {
			limit = -1 // SQLite: no limit
		}
		q += " LIMIT ? OFFSET ?"
		args = append(args, limit, f.Offset)
	}
	var out []*checkout.Order
	err := s.read(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, q, args...)
		if err != nil {
			return fmt.Errorf("sqlite: listing orders: %w", err)
		}
		var ids []string
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return fmt.Errorf("sqlite: listing orders: %w", err)
			}
			ids = append(ids, id)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("sqlite: listing orders: %w", err)
		}
		for _, id := range ids {
			o, err := readOrder(ctx, tx, "o.id = ?", id)
			if err != nil {
				return err
			}
			out = append(out, o)
		}
		return nil
	})
	return out, err
}

func readOrder(ctx context.Context, q querier, where string, args ...any) (*checkout.Order, error) {
	o := &checkout.Order{}
	var a checkout.Address
	var status string
	var amount, created, updated, paid, refund int64
	var hasAddr, physical, late int
	err := q.QueryRowContext(ctx, `SELECT o.id, o.number, o.external_code, o.request_key, o.status, o.amount,
			o.customer_name, o.customer_document, o.customer_email, o.customer_phone, o.has_address, o.zip_code,
			o.street, o.street_number, o.complement, o.neighborhood, o.city, o.state, o.country, o.physical,
			o.late_payment, o.lang, o.shopper_ip, o.created_at, o.updated_at, o.paid_at, o.version, o.refund_due
		FROM orders o WHERE `+where, args...).Scan(&o.ID, &o.Number, &o.ExternalCode, &o.RequestKey, &status, &amount,
		&o.Customer.Name, &o.Customer.Document, &o.Customer.Email, &o.Customer.Phone, &hasAddr, &a.ZipCode,
		&a.Street, &a.Number, &a.Complement, &a.Neighborhood, &a.City, &a.State, &a.Country, &physical,
		&late, &o.Lang, &o.ShopperIP, &created, &updated, &paid, &o.Version, &refund)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, checkout.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: reading order: %w", err)
	}
	o.Status = checkout.OrderStatus(status)
	o.Amount, o.RefundDue = centsOf(amount), centsOf(refund)
	if hasAddr != 0 {
		o.Address = &a
	}
	o.Physical, o.LatePayment = physical != 0, late != 0
	o.CreatedAt, o.UpdatedAt, o.PaidAt = fromMS(created), fromMS(updated), fromMS(paid)

	if err := readLines(ctx, q, o); err != nil {
		return nil, err
	}
	if err := readHistory(ctx, q, o); err != nil {
		return nil, err
	}
	if err := readAttempts(ctx, q, o); err != nil {
		return nil, err
	}
	return o, nil
}

func readLines(ctx context.Context, q querier, o *checkout.Order) error {
	rows, err := q.QueryContext(ctx, `SELECT product_id, title, unit_price, quantity, physical
		FROM order_lines WHERE order_id = ? ORDER BY position`, o.ID)
	if err != nil {
		return fmt.Errorf("sqlite: reading order lines: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var l checkout.OrderLine
		var pid string
		var price int64
		var physical int
		if err := rows.Scan(&pid, &l.Title, &price, &l.Quantity, &physical); err != nil {
			return fmt.Errorf("sqlite: reading order lines: %w", err)
		}
		l.ProductID, l.UnitPrice, l.Physical = checkout.ProductID(pid), centsOf(price), physical != 0
		o.Lines = append(o.Lines, l)
	}
	return rows.Err()
}

func readHistory(ctx context.Context, q querier, o *checkout.Order) error {
	rows, err := q.QueryContext(ctx, `SELECT from_status, to_status, at, reason
		FROM order_history WHERE order_id = ? ORDER BY position`, o.ID)
	if err != nil {
		return fmt.Errorf("sqlite: reading order history: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var h checkout.StatusChange
		var from, to string
		var at int64
		if err := rows.Scan(&from, &to, &at, &h.Reason); err != nil {
			return fmt.Errorf("sqlite: reading order history: %w", err)
		}
		h.From, h.To, h.At = checkout.OrderStatus(from), checkout.OrderStatus(to), fromMS(at)
		o.History = append(o.History, h)
	}
	return rows.Err()
}

func readAttempts(ctx context.Context, q querier, o *checkout.Order) error {
	rows, err := q.QueryContext(ctx, `SELECT id, n, idempotency_key, state, transaction_id, br_code, qr_png, expires_at,
			deposit_status, error, violations, created_at, updated_at, request
		FROM attempts WHERE order_id = ? ORDER BY n`, o.ID)
	if err != nil {
		return fmt.Errorf("sqlite: reading attempts: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		a := checkout.Attempt{OrderID: o.ID}
		var state, deposit, vs string
		var tx, req sql.NullString
		var expires, created, updated int64
		if err := rows.Scan(&a.ID, &a.N, &a.IdempotencyKey, &state, &tx, &a.BRCode, &a.QRCodePNG, &expires,
			&deposit, &a.Error, &vs, &created, &updated, &req); err != nil {
			return fmt.Errorf("sqlite: reading attempts: %w", err)
		}
		a.State, a.TransactionID, a.DepositStatus = checkout.AttemptState(state), tx.String, gatewayclient.DepositStatus(deposit)
		a.ExpiresAt, a.CreatedAt, a.UpdatedAt = fromMS(expires), fromMS(created), fromMS(updated)
		if req.Valid {
			a.Request = []byte(req.String)
		}
		if vs != "" {
			if err := json.Unmarshal([]byte(vs), &a.Violations); err != nil {
				return fmt.Errorf("sqlite: reading violations of attempt %d: %w", a.N, err)
			}
		}
		o.Attempts = append(o.Attempts, a)
	}
	return rows.Err()
}

// MarkWebhook records a webhook id; first is false when it was already there.
func (s *Store) MarkWebhook(ctx context.Context, id string, at time.Time) (bool, error) {
	first := false
	err := s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO webhook_events (id, received_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING`,
			id, ms(at))
		if err != nil {
			return fmt.Errorf("sqlite: recording webhook: %w", err)
		}
		n, err := res.RowsAffected()
		first = n == 1
		return err
	})
	return first, err
}

// ForgetWebhook removes a recorded webhook id.
func (s *Store) ForgetWebhook(ctx context.Context, id string) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM webhook_events WHERE id = ?`, id); err != nil {
			return fmt.Errorf("sqlite: forgetting webhook: %w", err)
		}
		return nil
	})
}
