package sqlstore

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

const orderColumns = `o.id, o.number, o.external_code, o.request_key, o.status, o.amount,
	o.customer_name, o.customer_document, o.customer_email, o.customer_phone, o.has_address, o.zip_code,
	o.street, o.street_number, o.complement, o.neighborhood, o.city, o.state, o.country, o.physical,
	o.late_payment, o.lang, o.shopper_ip, o.created_at, o.updated_at, o.paid_at, o.version, o.refund_due,
	o.session_id, o.merchant_reference, o.pay_by, o.link_id, o.shipping, o.delivery_days,
	o.carrier, o.tracking_code, o.shipped_at, o.delivered_at, o.channel, o.fee, o.refunded_at, o.held_at, o.charge_id,
	o.terminal_id, o.cashier_id`

// CreateOrder stores a new order with its lines, history and attempts in one transaction, or
// returns the order already stored under the same request key.
//
// The order row goes in with ON CONFLICT (request_key) DO NOTHING, its children after it, and
// the whole goes as one batch (on PostgreSQL one round trip, COMMIT included): when the key is
// taken the order row is not inserted, so its children fail their foreign key and nothing is
// kept. In PostgreSQL, an insert of a key another transaction is inserting waits for it, then
// skips the row if it committed; in SQLite the transaction holds the database. Only then is
// the stored order read, by its request key. A created order is not read back: what was
// written is returned, as a copy that a read would give.
func (s *Store) CreateOrder(ctx context.Context, o *checkout.Order) (*checkout.Order, bool, error) {
	if o.ID == "" || o.RequestKey == "" {
		return nil, false, s.errorf("an order needs an id and a request key")
	}
	version := o.Version
	if version == 0 {
		version = 1
	}
	// Everything but the transaction is prepared before it begins.
	children, err := s.orderChildInserts(o)
	if err != nil {
		return nil, false, err
	}
	a := o.Address
	hasAddr := a != nil
	if a == nil {
		a = &checkout.Address{}
	}
	created := false
	insert := Stmt{SQL: `INSERT INTO orders (id, number, external_code, request_key, status, amount,
			customer_name, customer_document, customer_email, customer_phone, has_address, zip_code, street,
			street_number, complement, neighborhood, city, state, country, physical, late_payment, lang,
			shopper_ip, created_at, updated_at, paid_at, version, refund_due, session_id, merchant_reference, pay_by, link_id,
			shipping, delivery_days, channel, fee, refunded_at, held_at, charge_id, terminal_id, cashier_id)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22,
			$23, $24, $25, $26, $27, $28, $29, $30, $31, $32, $33, $34, $35, $36, $37, $38, $39, $40, $41)
		ON CONFLICT (request_key) DO NOTHING
		RETURNING id`,
		Args: []any{o.ID, o.Number, o.ExternalCode, o.RequestKey, string(o.Status), int64(o.Amount),
			o.Customer.Name, o.Customer.Document, o.Customer.Email, o.Customer.Phone, hasAddr, a.ZipCode, a.Street,
			a.Number, a.Complement, a.Neighborhood, a.City, a.State, a.Country, o.Physical, o.LatePayment, o.Lang,
			o.ShopperIP, ms(o.CreatedAt), ms(o.UpdatedAt), ms(o.PaidAt), version, int64(o.RefundDue), o.SessionID,
			o.MerchantReference, ms(o.PayBy), o.LinkID, int64(o.Shipping), o.DeliveryDays, string(cmp.Or(o.Channel, checkout.ChannelShop)), // the column's default, as for an order of before channels
			feeColumn(o.Fee), ms(o.RefundedAt), ms(o.HeldAt), o.ChargeID, o.TerminalID, o.CashierID},
		Rows: func(r Rows) error { created = r.Next(); return nil }}
	err = s.writeBatch(ctx, append([]Stmt{insert}, children...)...)
	if created {
		if err != nil {
			return nil, false, s.errorf("storing order: %w", err)
		}
		o.Version = version
		return asStored(o), true, nil
	}
	// The request key is taken (the children's failure, if any, is that): the order stored
	// under it is the answer. A failure of the order row itself (a taken number) finds none.
	var stored []*checkout.Order
	if rerr := s.readBatch(ctx, s.readOrder(s.byRequestKey, o.RequestKey, &stored)...); rerr != nil {
		return nil, false, s.errorf("storing order: %w", errors.Join(err, rerr))
	}
	if len(stored) == 0 {
		if err != nil {
			return nil, false, s.errorf("storing order: %w", err)
		}
		return nil, false, s.errorf("order %s vanished while it was stored", o.Number)
	}
	return stored[0], false, nil
}

// asStored returns a copy of o as reading it back would give it: times to the millisecond in
// UTC, an empty request or list of violations as nil.
func asStored(o *checkout.Order) *checkout.Order {
	c := o.Clone()
	c.CreatedAt, c.UpdatedAt, c.PaidAt, c.PayBy = stored(o.CreatedAt), stored(o.UpdatedAt), stored(o.PaidAt), stored(o.PayBy)
	c.ShippedAt, c.DeliveredAt = stored(o.ShippedAt), stored(o.DeliveredAt)
	c.RefundedAt, c.HeldAt = stored(o.RefundedAt), stored(o.HeldAt)
	for i := range c.History {
		c.History[i].At = stored(c.History[i].At)
	}
	for i := range c.Attempts {
		at := &c.Attempts[i]
		at.CreatedAt, at.UpdatedAt, at.ExpiresAt = stored(at.CreatedAt), stored(at.UpdatedAt), stored(at.ExpiresAt)
		if len(at.Request) == 0 {
			at.Request = nil
		}
		if len(at.Violations) == 0 {
			at.Violations = nil
		}
	}
	return c
}

// feeColumn is the orders.fee column of a fee: -1 while unknown.
func feeColumn(fee *gatewayclient.Cents) int64 {
	if fee == nil {
		return -1
	}
	return int64(*fee)
}

// feeOf is the fee of an orders.fee column.
func feeOf(col int64) *gatewayclient.Cents {
	if col < 0 {
		return nil
	}
	f := gatewayclient.Cents(col)
	return &f
}

// stored is t as a column of Unix milliseconds keeps it.
func stored(t time.Time) time.Time { return fromMS(ms(t)) }

// orderChildInserts returns the statements inserting o's lines, history and attempts.
func (s *Store) orderChildInserts(o *checkout.Order) ([]Stmt, error) {
	stmts := make([]Stmt, 0, len(o.Lines)+len(o.History)+len(o.Attempts))
	for i, l := range o.Lines {
		stmts = append(stmts, Stmt{SQL: `INSERT INTO order_lines (order_id, position, product_id, title, unit_price, quantity,
				physical, description, image_key, image_type, image_width, image_height)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
			Args: []any{o.ID, i, string(l.ProductID), l.Title, int64(l.UnitPrice), l.Quantity, l.Physical, l.Description,
				l.Image.Key, l.Image.Ext, l.Image.Width, l.Image.Height}})
	}
	stmts = append(stmts, historyInserts(o.ID, o.History)...)
	for i := range o.Attempts {
		a := &o.Attempts[i]
		if a.OrderID == "" {
			a.OrderID = o.ID
		}
		args, err := s.attemptArgs(a)
		if err != nil {
			return nil, err
		}
		stmts = append(stmts, Stmt{SQL: insertAttempt, Args: args})
	}
	return stmts, nil
}

// historyInserts returns the statements writing an order's history whole, position by
// position; the entries already stored are skipped (an update writes the history the caller
// read and appended to).
func historyInserts(orderID string, hs []checkout.StatusChange) []Stmt {
	stmts := make([]Stmt, 0, len(hs))
	for i, h := range hs {
		code, params, detail := reasonColumns(h.Reason)
		stmts = append(stmts, Stmt{SQL: `INSERT INTO order_history (order_id, position, from_status, to_status, at, reason,
				reason_code, reason_params)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (order_id, position) DO NOTHING`,
			Args: []any{orderID, i, string(h.From), string(h.To), ms(h.At), detail, code, params}})
	}
	return stmts
}

const insertAttempt = `INSERT INTO attempts (id, order_id, n, idempotency_key, state, transaction_id, br_code,
		qr_png, expires_at, deposit_status, error, violations, created_at, updated_at, request, end_to_end,
		error_code, error_params)
	VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)`

// upsertAttempt inserts an attempt, or updates what changes of an existing one. The update only
// applies to an attempt of the same order: an attempt id of another order changes no row.
const upsertAttempt = insertAttempt + `
	ON CONFLICT (id) DO UPDATE SET state = excluded.state, transaction_id = excluded.transaction_id,
		br_code = excluded.br_code, qr_png = excluded.qr_png, expires_at = excluded.expires_at,
		deposit_status = excluded.deposit_status, error = excluded.error, error_code = excluded.error_code,
		error_params = excluded.error_params, violations = excluded.violations,
		updated_at = excluded.updated_at, end_to_end = excluded.end_to_end
	WHERE attempts.order_id = excluded.order_id`

// attemptArgs returns the arguments of insertAttempt for a. The request is kept as TEXT, byte
// for byte (a JSON column would reformat it); none is NULL.
func (s *Store) attemptArgs(a *checkout.Attempt) ([]any, error) {
	vs := s.d.EmptyJSON
	if len(a.Violations) > 0 {
		b, err := json.Marshal(a.Violations)
		if err != nil {
			return nil, s.errorf("encoding violations: %w", err)
		}
		// A string, not []byte: pgx sends []byte as bytea, which is not JSON.
		vs = string(b)
	}
	code, params, detail := reasonColumns(a.Error)
	return []any{a.ID, a.OrderID, a.N, a.IdempotencyKey, string(a.State), nullString(a.TransactionID), a.BRCode,
		a.QRCodePNG, ms(a.ExpiresAt), string(a.DepositStatus), detail, vs, ms(a.CreatedAt), ms(a.UpdatedAt),
		nullString(string(a.Request)), a.EndToEnd, code, params}, nil
}

// UpdateOrder stores the mutable part of an order when its version is still the stored one
// and the stored status may move to o's, and the outbox messages out with it, in one
// transaction. The UPDATE of the order's row comes first and decides: it holds the row (its
// row lock, or the database's write lock) so the version check and the writes are one step for
// every other writer, in this process or another, and the messages of one order go into the
// outbox in the order of its changes. When it changes no row, the transaction is rolled back
// and a read says why (not found, stale version, forbidden transition).
//
// On PostgreSQL that is two round trips: BEGIN with every statement, then COMMIT. The history
// is written whole, entries already stored skipped (ON CONFLICT DO NOTHING): with the version
// the caller read, the stored entries are the first of o.History, and nothing needs counting.
func (s *Store) UpdateOrder(ctx context.Context, o *checkout.Order, out ...checkout.OutboxMessage) error {
	if !s.storable(o.ID) {
		return checkout.ErrNotFound
	}
	stmts := make([]Stmt, 0, 1+len(o.History)+len(o.Attempts)+len(out))
	stmts = append(stmts, Stmt{SQL: `UPDATE orders SET status = $1, late_payment = $2, paid_at = $3, updated_at = $4,
			lang = $5, refund_due = $6, carrier = $10, tracking_code = $11, shipped_at = $12, delivered_at = $13,
			fee = $14, refunded_at = $15, held_at = $16, version = version + 1
		WHERE id = $7 AND version = $8 AND ` + s.d.OneOf("status", "$9"),
		Args: []any{string(o.Status), o.LatePayment, ms(o.PaidAt), ms(o.UpdatedAt), o.Lang, int64(o.RefundDue), o.ID,
			o.Version, s.d.List(s.reaching[o.Status]), o.Carrier, o.TrackingCode, ms(o.ShippedAt), ms(o.DeliveredAt),
			feeColumn(o.Fee), ms(o.RefundedAt), ms(o.HeldAt)},
		Affected: func(rows int64) error {
			if rows != 1 {
				return errNotUpdated
			}
			return nil
		}})
	stmts = append(stmts, historyInserts(o.ID, o.History)...)
	stmts = append(stmts, refundClaims(o.ID, o.History)...)
	for i := range o.Attempts {
		a := &o.Attempts[i]
		if a.OrderID == "" {
			a.OrderID = o.ID
		}
		if a.OrderID != o.ID {
			return s.errorf("attempt %d belongs to another order", a.N)
		}
		args, err := s.attemptArgs(a)
		if err != nil {
			return err
		}
		n := a.N
		stmts = append(stmts, Stmt{SQL: upsertAttempt, Args: args, Affected: func(rows int64) error {
			if rows != 1 {
				return fmt.Errorf("attempt %d: its id belongs to another order", n)
			}
			return nil
		}})
	}
	msgs, err := orderMessages(o.ID, out)
	if err != nil {
		return s.errorf("%w", err)
	}
	stmts = append(stmts, msgs...)
	err = s.db.WriteTx(ctx, func(tx Runner) error { return tx.Run(ctx, stmts...) })
	if errors.Is(err, errNotUpdated) {
		err = s.whyNotUpdated(ctx, o)
	}
	switch {
	case err == checkout.ErrNotFound, err == checkout.ErrConflict:
		return err
	case errors.Is(err, checkout.ErrEndToEndTaken):
		return checkout.ErrEndToEndTaken
	case err != nil:
		return s.errorf("updating order %s: %w", o.Number, err)
	}
	o.Version++
	return nil
}

// orderMessages returns the statements storing out, messages about the order orderID.
func orderMessages(orderID string, out []checkout.OutboxMessage) ([]Stmt, error) {
	for _, m := range out {
		if m.ID == "" || m.OrderID != orderID {
			return nil, errors.New("an outbox message needs an id and the order's id")
		}
	}
	return OutboxStatements(out...)
}

// errNotUpdated: UpdateOrder's UPDATE changed no row.
var errNotUpdated = errors.New("the order's row was not updated")

// whyNotUpdated says why UpdateOrder changed no row of o: checkout.ErrNotFound,
// checkout.ErrConflict when the stored version is another, else the forbidden transition.
func (s *Store) whyNotUpdated(ctx context.Context, o *checkout.Order) error {
	var status string
	var version int
	found := false
	err := s.db.Read(ctx, Stmt{SQL: `SELECT status, version FROM orders WHERE id = $1`, Args: []any{o.ID},
		Rows: each(func(r Rows) error { found = true; return r.Scan(&status, &version) })})
	switch {
	case err != nil:
		return err
	case !found:
		return checkout.ErrNotFound
	case version != o.Version:
		return checkout.ErrConflict
	}
	return fmt.Errorf("from %s to %s: %w", status, o.Status, checkout.ErrInvalidTransition)
}

// reachingStatuses maps every order status to the statuses an order may be stored in to be
// updated to it: itself (no transition) and those with a transition to it.
func reachingStatuses() map[checkout.OrderStatus][]string {
	m := make(map[checkout.OrderStatus][]string)
	for _, to := range checkout.OrderStatuses() {
		m[to] = []string{string(to)}
		for _, from := range checkout.OrderStatuses() {
			if checkout.CanTransition(from, to) {
				m[to] = append(m[to], string(from))
			}
		}
	}
	return m
}

// Order returns an order with its lines, history and attempts, or checkout.ErrNotFound.
func (s *Store) Order(ctx context.Context, id string) (*checkout.Order, error) {
	if !s.storable(id) {
		return nil, checkout.ErrNotFound
	}
	return s.orderWhere(ctx, s.byID, id)
}

// OrderByTransaction returns the order of the attempt with that gateway transaction id.
func (s *Store) OrderByTransaction(ctx context.Context, transactionID string) (*checkout.Order, error) {
	if transactionID == "" || !s.storable(transactionID) {
		return nil, checkout.ErrNotFound
	}
	return s.orderWhere(ctx, s.byTransaction, transactionID)
}

// OrderByExternalCode returns the order with that externalCode.
func (s *Store) OrderByExternalCode(ctx context.Context, code string) (*checkout.Order, error) {
	if code == "" || !s.storable(code) {
		return nil, checkout.ErrNotFound
	}
	return s.orderWhere(ctx, s.byExternalCode, code)
}

// orderWhere reads the order q selects by key, from one snapshot.
func (s *Store) orderWhere(ctx context.Context, q orderReads, key string) (*checkout.Order, error) {
	var list []*checkout.Order
	if err := s.readBatch(ctx, s.readOrder(q, key, &list)...); err != nil {
		return nil, s.errorf("reading order: %w", err)
	}
	if len(list) == 0 {
		return nil, checkout.ErrNotFound
	}
	return list[0], nil
}

// orderReads are the texts of the statements reading orders o and their lines, history and
// attempts.
type orderReads struct {
	orders, lines, history, attempts string
}

// newOrderReads makes the statements' texts: tail follows "FROM orders o" (WHERE, ORDER BY,
// LIMIT), cond selects the rows of the orders' lines, history and attempts by their order_id.
func newOrderReads(tail, cond string) orderReads {
	return orderReads{
		orders: `SELECT ` + orderColumns + ` FROM orders o ` + tail,
		lines: `SELECT order_id, product_id, title, unit_price, quantity, physical, description, image_key, image_type,
				image_width, image_height
			FROM order_lines WHERE ` + cond + ` ORDER BY order_id, position`,
		history: `SELECT order_id, from_status, to_status, at, reason, reason_code, reason_params
			FROM order_history WHERE ` + cond + ` ORDER BY order_id, position`,
		attempts: `SELECT order_id, id, n, idempotency_key, state, transaction_id, br_code, qr_png, expires_at,
				deposit_status, error, violations, created_at, updated_at, request, end_to_end, error_code, error_params
			FROM attempts WHERE ` + cond + ` ORDER BY order_id, n`,
	}
}

// keyedOrderReads makes the texts reading the order where selects (a condition on orders o,
// met by one row at most, with the one parameter $1). The lines, history and attempts are
// selected by the same condition, so that the four statements do not depend on each other's
// results and travel together.
func keyedOrderReads(where string) orderReads {
	return newOrderReads(`WHERE `+where, `order_id IN (SELECT o.id FROM orders o WHERE `+where+`)`)
}

// readOrder returns the statements reading the order q selects by key, with its lines, history
// and attempts, into *out.
func (s *Store) readOrder(q orderReads, key string, out *[]*checkout.Order) []Stmt {
	byID := map[string]*checkout.Order{}
	args := []any{key}
	return append([]Stmt{s.readOrderRows(q.orders, args, out, byID)}, s.readChildren(q, args, byID)...)
}

// currentAttemptOf is the SQL of the number of the current attempt (the highest n) of attempt
// a's order.
const currentAttemptOf = `(SELECT MAX(n) FROM attempts c WHERE c.order_id = a.order_id)`

// Orders lists orders matching f, newest first: one query for the orders, then one each for
// their lines, history and attempts, whatever their number.
func (s *Store) Orders(ctx context.Context, f checkout.OrderFilter) ([]*checkout.Order, error) {
	var p Params
	q := s.listQuery(orderColumns, f, &p)
	var out []*checkout.Order
	err := s.db.ReadTx(ctx, func(tx Runner) error {
		byID := map[string]*checkout.Order{}
		if err := tx.Run(ctx, s.readOrderRows(q, p, &out, byID)); err != nil || len(out) == 0 {
			return err
		}
		if backward(f) {
			slices.Reverse(out)
		}
		ids := make([]string, len(out))
		for i, o := range out {
			ids[i] = o.ID
		}
		return tx.Run(ctx, s.readChildren(s.listed, []any{s.d.List(ids)}, byID)...)
	})
	if err != nil {
		return nil, s.errorf("listing orders: %w", err)
	}
	return out, nil
}

// statusCond is the condition on the orders' statuses (at least one).
func (s *Store) statusCond(statuses []checkout.OrderStatus, p *Params) string {
	if len(statuses) == 1 {
		// Equality, not a list: both databases then read the index on (status, created_at, id)
		// in the list's order, and stop at the page's end.
		return "o.status = " + p.Add(string(statuses[0]))
	}
	sts := make([]string, len(statuses))
	for i, st := range statuses {
		sts[i] = string(st)
	}
	return s.d.OneOf("o.status", p.Add(s.d.List(sts)))
}

// pageCond is the condition of the page after (or before) f.Page.Key. A row value: both
// databases find it through the index on (created_at, id), or (amount, id) for the sorts by
// amount.
func pageCond(f checkout.OrderFilter, p *Params) string {
	k := f.Page.Key
	op := "<"
	if f.Page.Backward == f.Sort.Descending() {
		op = ">"
	}
	if f.Sort.ByAmount() {
		return "(o.amount, o.id) " + op + " (" + p.Add(int64(k.Amount)) + ", " + p.Add(k.ID) + ")"
	}
	return "(o.created_at, o.id) " + op + " (" + p.Add(ms(k.CreatedAt)) + ", " + p.Add(k.ID) + ")"
}

// ordersWhere is the WHERE clause (or "") selecting the orders of f on orders o, its arguments
// added to p.
func (s *Store) ordersWhere(f checkout.OrderFilter, p *Params) string {
	var conds []string
	if len(f.Statuses) > 0 {
		conds = append(conds, s.statusCond(f.Statuses, p))
	}
	if !f.UpdatedSince.IsZero() {
		conds = append(conds, "o.updated_at >= "+p.Add(ms(f.UpdatedSince)))
	}
	// Both read the attempts in that state through attempts_state_expires (the few due or
	// pending ones), rather than probing the attempts of every order of the statuses.
	if !f.ExpiresBefore.IsZero() {
		conds = append(conds, `o.id IN (SELECT a.order_id FROM attempts a WHERE a.state = `+p.Add(string(checkout.AttemptActive))+`
			AND a.expires_at <= `+p.Add(ms(f.ExpiresBefore))+` AND a.n = `+currentAttemptOf+`)`)
	}
	conds = append(conds, sourceConds(f, p)...)
	if !f.CreatedFrom.IsZero() {
		conds = append(conds, "o.created_at >= "+p.Add(ms(f.CreatedFrom)))
	}
	if !f.CreatedBefore.IsZero() {
		conds = append(conds, "o.created_at < "+p.Add(ms(f.CreatedBefore)))
	}
	if f.PendingAttempt {
		conds = append(conds, `o.id IN (SELECT a.order_id FROM attempts a WHERE a.state = `+p.Add(string(checkout.AttemptPending))+`
			AND a.n = `+currentAttemptOf+`)`)
	}
	conds = append(conds, moneyConds(f, p)...)
	conds = append(conds, s.merchantConds(f, p)...)
	conds = append(conds, attentionConds(f)...)
	if !f.Page.Key.IsZero() {
		conds = append(conds, pageCond(f, p))
	}
	if len(conds) == 0 {
		return ""
	}
	return "WHERE " + strings.Join(conds, " AND ")
}

// sourceConds are the conditions on where the orders of f came from: their session, payment
// link, charge, terminal and cashier, merchant reference and channels.
func sourceConds(f checkout.OrderFilter, p *Params) []string {
	var conds []string
	// The "<> ''" terms repeat the predicates of the partial indexes orders_session and
	// orders_merchant_reference: a planner does not see that a bound value is not empty (a
	// prepared statement's generic plan, SQLite's planner), and would scan the orders.
	if f.SessionID != "" {
		conds = append(conds, "o.session_id = "+p.Add(f.SessionID)+" AND o.session_id <> ''")
	}
	if f.LinkID != "" {
		conds = append(conds, linkCond(f.LinkID, p))
	}
	if f.ChargeID != "" {
		conds = append(conds, "o.charge_id = "+p.Add(f.ChargeID)+" AND o.charge_id <> ''")
	}
	if len(f.Channels) > 0 {
		conds = append(conds, channelCond(f.Channels, p))
	}
	if f.CashierID != "" {
		conds = append(conds, "o.cashier_id = "+p.Add(f.CashierID)+" AND o.cashier_id <> ''")
	}
	if f.TerminalID != "" {
		conds = append(conds, "o.terminal_id = "+p.Add(f.TerminalID)+" AND o.terminal_id <> ''")
	}
	if f.MerchantReference != "" {
		conds = append(conds, "o.merchant_reference = "+p.Add(f.MerchantReference)+" AND o.merchant_reference <> ''")
	}
	return conds
}

// channelCond is the condition that an order came through one of channels; one channel is read
// through orders_channel_created or orders_channel_amount, in the list's order.
func channelCond(channels []checkout.Channel, p *Params) string {
	in := make([]string, 0, len(channels))
	for _, ch := range channels {
		in = append(in, p.Add(string(ch)))
	}
	return "o.channel IN (" + strings.Join(in, ", ") + ")"
}

// orderBy is the ORDER BY of a list of f on the table t in f.Sort's order (newest first by
// default), or the other way to read the page before a key (Backward), which the caller
// reverses.
func (s *Store) orderBy(f checkout.OrderFilter, t string) string {
	col := "created_at"
	if f.Sort.ByAmount() {
		col = "amount"
	}
	if backward(f) == f.Sort.Descending() {
		return " ORDER BY " + t + col + ", " + t + "id"
	}
	return " ORDER BY " + t + col + " DESC, " + t + "id DESC"
}

// backward reports whether f reads the page before a key, oldest first.
func backward(f checkout.OrderFilter) bool { return f.Page.Backward && !f.Page.Key.IsZero() }

// listQuery is the SELECT of cols (of orders o) of the orders of f, in the list's order (see
// orderBy), limited to f's page, its arguments added to p. A filter on several statuses reads
// each status's page through the index on (status, created_at, id), already in order, and
// merges them: a list of statuses (IN) would read every row of them all, and sort them, to
// find the newest few.
func (s *Store) listQuery(cols string, f checkout.OrderFilter, p *Params) string {
	limited := f.Limit > 0 || f.Offset > 0
	limit := f.Limit
	if limit <= 0 {
		limit = math.MaxInt64 // no limit, in both dialects
	}
	if len(f.Statuses) < 2 || !limited {
		q := `SELECT ` + cols + ` FROM orders o ` + s.ordersWhere(f, p) + s.orderBy(f, "o.")
		if limited {
			q += " LIMIT " + p.Add(limit) + " OFFSET " + p.Add(max(f.Offset, 0))
		}
		return q
	}
	parts := make([]string, len(f.Statuses))
	for i, st := range f.Statuses {
		g := f
		g.Statuses = []checkout.OrderStatus{st}
		parts[i] = `SELECT * FROM (SELECT ` + cols + ` FROM orders o ` + s.ordersWhere(g, p) + s.orderBy(g, "o.") +
			` LIMIT ` + p.Add(min(limit, math.MaxInt64-max(f.Offset, 0))+max(f.Offset, 0)) + `) AS s` + strconv.Itoa(i)
	}
	return `SELECT * FROM (` + strings.Join(parts, " UNION ALL ") + `) AS o` + s.orderBy(f, "o.") +
		" LIMIT " + p.Add(limit) + " OFFSET " + p.Add(max(f.Offset, 0))
}

// readOrderRows returns the statement reading the orders that query (on orderColumns)
// selects into *out and byID.
func (s *Store) readOrderRows(query string, args []any, out *[]*checkout.Order, byID map[string]*checkout.Order) Stmt {
	return Stmt{SQL: query, Args: args, Rows: each(func(r Rows) error {
		o := &checkout.Order{}
		var a checkout.Address
		var status, channel string
		var amount, created, updated, paid, refund, payBy, shipping, shipped, delivered, fee, refunded, held int64
		var hasAddr bool
		if err := r.Scan(&o.ID, &o.Number, &o.ExternalCode, &o.RequestKey, &status, &amount,
			&o.Customer.Name, &o.Customer.Document, &o.Customer.Email, &o.Customer.Phone, &hasAddr, &a.ZipCode,
			&a.Street, &a.Number, &a.Complement, &a.Neighborhood, &a.City, &a.State, &a.Country, &o.Physical,
			&o.LatePayment, &o.Lang, &o.ShopperIP, &created, &updated, &paid, &o.Version, &refund,
			&o.SessionID, &o.MerchantReference, &payBy, &o.LinkID, &shipping, &o.DeliveryDays,
			&o.Carrier, &o.TrackingCode, &shipped, &delivered, &channel, &fee, &refunded, &held, &o.ChargeID,
			&o.TerminalID, &o.CashierID); err != nil {
			return fmt.Errorf("reading orders: %w", err)
		}
		o.Status, o.Channel = checkout.OrderStatus(status), checkout.Channel(channel)
		o.Amount, o.RefundDue, o.Shipping = gatewayclient.Cents(amount), gatewayclient.Cents(refund), gatewayclient.Cents(shipping)
		if hasAddr {
			o.Address = &a
		}
		o.CreatedAt, o.UpdatedAt, o.PaidAt, o.PayBy = fromMS(created), fromMS(updated), fromMS(paid), fromMS(payBy)
		o.ShippedAt, o.DeliveredAt = fromMS(shipped), fromMS(delivered)
		o.Fee, o.RefundedAt, o.HeldAt = feeOf(fee), fromMS(refunded), fromMS(held)
		*out = append(*out, o)
		byID[o.ID] = o
		return nil
	})}
}

// readChildren returns the statements of q reading lines, history and attempts into the orders
// of byID (filled by an earlier statement).
func (s *Store) readChildren(q orderReads, args []any, byID map[string]*checkout.Order) []Stmt {
	return []Stmt{
		{SQL: q.lines, Args: args, Rows: each(lineRows(byID))},
		{SQL: q.history, Args: args, Rows: each(historyRows(byID))},
		{SQL: q.attempts, Args: args, Rows: each(attemptRows(byID))},
	}
}

// childOf is the order of byID a child row (a line, a change, an attempt) belongs to.
func childOf(byID map[string]*checkout.Order, id string) (*checkout.Order, error) {
	if o := byID[id]; o != nil {
		return o, nil
	}
	return nil, errors.New("a row of an order that was not read")
}

// lineRows reads a row of order lines into its order of byID.
func lineRows(byID map[string]*checkout.Order) func(r Rows) error {
	return func(r Rows) error {
		var oid, pid string
		var l checkout.OrderLine
		var price int64
		if err := r.Scan(&oid, &pid, &l.Title, &price, &l.Quantity, &l.Physical, &l.Description, &l.Image.Key, &l.Image.Ext,
			&l.Image.Width, &l.Image.Height); err != nil {
			return fmt.Errorf("reading order lines: %w", err)
		}
		l.ProductID, l.UnitPrice = checkout.ProductID(pid), gatewayclient.Cents(price)
		o, err := childOf(byID, oid)
		if err != nil {
			return fmt.Errorf("reading order lines: %w", err)
		}
		o.Lines = append(o.Lines, l)
		return nil
	}
}

// historyRows reads a row of order history into its order of byID.
func historyRows(byID map[string]*checkout.Order) func(r Rows) error {
	return func(r Rows) error {
		var oid, from, to, detail, code, params string
		var h checkout.StatusChange
		var at int64
		if err := r.Scan(&oid, &from, &to, &at, &detail, &code, &params); err != nil {
			return fmt.Errorf("reading order history: %w", err)
		}
		reason, err := readReason(code, params, detail)
		if err != nil {
			return fmt.Errorf("reading order history: %w", err)
		}
		h.Reason = reason
		h.From, h.To, h.At = checkout.OrderStatus(from), checkout.OrderStatus(to), fromMS(at)
		o, err := childOf(byID, oid)
		if err != nil {
			return fmt.Errorf("reading order history: %w", err)
		}
		o.History = append(o.History, h)
		return nil
	}
}

// attemptRows reads a row of payment attempts into its order of byID.
func attemptRows(byID map[string]*checkout.Order) func(r Rows) error {
	return func(r Rows) error {
		var a checkout.Attempt
		var state, deposit, detail, code, params string
		var txID, req *string
		var vs []byte
		var expires, created, updated int64
		if err := r.Scan(&a.OrderID, &a.ID, &a.N, &a.IdempotencyKey, &state, &txID, &a.BRCode, &a.QRCodePNG,
			&expires, &deposit, &detail, &vs, &created, &updated, &req, &a.EndToEnd, &code, &params); err != nil {
			return fmt.Errorf("reading attempts: %w", err)
		}
		reason, err := readReason(code, params, detail)
		if err != nil {
			return fmt.Errorf("reading attempts: %w", err)
		}
		a.Error = reason
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
				return fmt.Errorf("reading violations of attempt %d: %w", a.N, err)
			}
		}
		o, err := childOf(byID, a.OrderID)
		if err != nil {
			return fmt.Errorf("reading attempts: %w", err)
		}
		o.Attempts = append(o.Attempts, a)
		return nil
	}
}
