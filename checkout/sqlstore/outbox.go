package sqlstore

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/merchant"
)

var _ merchant.NotificationStore = (*Store)(nil)

// The outbox holds the messages UpdateOrder writes with an order's change (checkout.OutboxMessage)
// and, in the same rows, their delivery: status, attempts, next attempt, lease. Package merchant
// reads them as its notifications. seq, given by the database in the order of the inserts,
// orders the messages of one order: UpdateOrder holds the order while it writes them.

// insertOutbox is the statement writing m as a pending message, due at once.
func insertOutbox(m checkout.OutboxMessage) Stmt {
	return Stmt{SQL: `INSERT INTO outbox (id, order_id, type, payload, created_at, status, next_attempt_at)
		VALUES ($1, $2, $3, $4, $5, $6, $5)`,
		// A string, not []byte: pgx would send []byte as bytea.
		Args: []any{m.ID, m.OrderID, m.Type, string(m.Payload), ms(m.CreatedAt), merchant.NotificationPending}}
}

// pendingLiteral is merchant.NotificationPending as an SQL literal, the value the outbox's
// partial indexes are defined on.
const pendingLiteral = `'` + merchant.NotificationPending + `'`

const notificationColumns = `id, order_id, type, payload, created_at, status, attempts, next_attempt_at, last_error,
	last_status_code`

func scanNotification(r Rows) (merchant.Notification, error) {
	var n merchant.Notification
	var payload string
	var created, next int64
	if err := r.Scan(&n.ID, &n.OrderID, &n.Type, &payload, &created, &n.Status, &n.Attempts, &next, &n.LastError,
		&n.LastStatusCode); err != nil {
		return n, fmt.Errorf("reading notifications: %w", err)
	}
	n.Payload = []byte(payload)
	n.CreatedAt, n.NextAttemptAt = fromMS(created), fromMS(next)
	return n, nil
}

// ClaimNotifications leases up to limit pending notifications due at now, each the oldest
// pending one of its order and not leased by another worker, until now+lease, and returns them
// oldest first. One statement: the rows are chosen and leased at once, and where the database
// locks rows a row another worker is claiming is skipped, not waited for.
func (s *Store) ClaimNotifications(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]merchant.Notification, error) {
	if limit <= 0 {
		return nil, s.errorf("claiming notifications: %w", errLimit)
	}
	var out []merchant.Notification
	// The status is written in the statement, not bound: the outbox's indexes are partial (WHERE
	// status = 'pending'), and a planner that sees a parameter cannot use them — PostgreSQL's
	// generic plan and SQLite then scanned every notification ever written at every claim.
	claim := Stmt{SQL: `UPDATE outbox SET leased_until = $1 WHERE seq IN (
			SELECT n.seq FROM outbox n
			WHERE n.status = ` + pendingLiteral + ` AND n.next_attempt_at <= $2 AND n.leased_until <= $2
				AND NOT EXISTS (SELECT 1 FROM outbox p WHERE p.order_id = n.order_id AND p.status = ` + pendingLiteral + ` AND p.seq < n.seq)
			ORDER BY n.seq LIMIT $3` + s.lockRows(` FOR UPDATE SKIP LOCKED`) + `)
		RETURNING ` + notificationColumns,
		Args: []any{ms(now.Add(lease)), ms(now), limit},
		Rows: each(func(r Rows) error {
			n, err := scanNotification(r)
			if err != nil {
				return err
			}
			out = append(out, n)
			return nil
		})}
	// In a transaction of its own, one round trip, after the dialect's PlainIndexScans where it
	// has one: without it a claim under load took milliseconds on PostgreSQL, visiting every
	// notification handled since the last vacuum.
	stmts := []Stmt{claim}
	if s.d.PlainIndexScans != "" {
		stmts = []Stmt{{SQL: s.d.PlainIndexScans}, claim}
	}
	if err := s.writeBatch(ctx, stmts...); err != nil {
		return nil, s.errorf("claiming notifications: %w", err)
	}
	// RETURNING gives no order: oldest first, by creation (one per order, so ties do not matter).
	sort.SliceStable(out, func(i, j int) bool { return out[i].CreatedAt.Before(out[j].CreatedAt) })
	return out, nil
}

// RecordAttempt stores the attempt a and the notification's outcome n, and releases its
// lease, in one transaction.
func (s *Store) RecordAttempt(ctx context.Context, n merchant.Notification, a merchant.DeliveryAttempt) error {
	found := false
	err := s.db.WriteTx(ctx, func(tx Runner) error {
		var err error
		found, err = s.recordAttempt(ctx, tx, n, a)
		return err
	})
	if err != nil {
		return s.errorf("recording a delivery attempt: %w", err)
	}
	if !found {
		return checkout.ErrNotFound
	}
	return nil
}

// Notifications lists the delivery log, newest first, 50 at most unless f.Limit says.
func (s *Store) Notifications(ctx context.Context, f merchant.NotificationFilter) ([]merchant.Notification, error) {
	var conds []string
	var p Params
	for _, c := range []struct{ col, v string }{{"order_id", f.OrderID}, {"status", f.Status}, {"type", f.Type}} {
		if c.v != "" {
			if !s.storable(c.v) {
				return nil, nil
			}
			conds = append(conds, c.col+" = "+p.Add(c.v))
		}
	}
	q := `SELECT ` + notificationColumns + ` FROM outbox`
	if len(conds) > 0 {
		q += ` WHERE ` + strings.Join(conds, " AND ")
	}
	limit := f.Limit
	if limit <= 0 {
		limit = 50
	}
	q += ` ORDER BY seq DESC LIMIT ` + p.Add(limit) + ` OFFSET ` + p.Add(max(f.Offset, 0))
	var out []merchant.Notification
	err := s.db.Read(ctx, Stmt{SQL: q, Args: p, Rows: each(func(r Rows) error {
		n, err := scanNotification(r)
		if err == nil {
			out = append(out, n)
		}
		return err
	})})
	if err != nil {
		return nil, s.errorf("listing notifications: %w", err)
	}
	return out, nil
}

// Notification returns one notification of the log, or checkout.ErrNotFound.
func (s *Store) Notification(ctx context.Context, id string) (*merchant.Notification, error) {
	if !s.storable(id) {
		return nil, checkout.ErrNotFound
	}
	var out []merchant.Notification
	err := s.db.Read(ctx, Stmt{SQL: `SELECT ` + notificationColumns + ` FROM outbox WHERE id = $1`, Args: []any{id},
		Rows: each(func(r Rows) error {
			n, err := scanNotification(r)
			if err == nil {
				out = append(out, n)
			}
			return err
		})})
	if err != nil {
		return nil, s.errorf("reading a notification: %w", err)
	}
	if len(out) == 0 {
		return nil, checkout.ErrNotFound
	}
	return &out[0], nil
}

// NotificationAttempts lists the attempts of one notification, first first.
func (s *Store) NotificationAttempts(ctx context.Context, id string) ([]merchant.DeliveryAttempt, error) {
	if !s.storable(id) {
		return nil, nil
	}
	var out []merchant.DeliveryAttempt
	err := s.db.Read(ctx, Stmt{SQL: `SELECT message_id, n, at, url, status_code, error, duration_ms
			FROM outbox_attempts WHERE message_id = $1 ORDER BY n`, Args: []any{id},
		Rows: each(func(r Rows) error {
			var a merchant.DeliveryAttempt
			var at, dur int64
			if err := r.Scan(&a.NotificationID, &a.N, &at, &a.URL, &a.StatusCode, &a.Error, &dur); err != nil {
				return fmt.Errorf("reading delivery attempts: %w", err)
			}
			a.At, a.Duration = fromMS(at), time.Duration(dur)*time.Millisecond
			out = append(out, a)
			return nil
		})})
	if err != nil {
		return nil, s.errorf("listing delivery attempts: %w", err)
	}
	return out, nil
}

// PruneNotifications deletes, oldest first, up to limit notifications created before olderThan
// that are no longer pending (delivered, dead or skipped), with their attempts, and returns how
// many it deleted. A pending notification is never deleted, however old.
func (s *Store) PruneNotifications(ctx context.Context, olderThan time.Time, limit int) (int, error) {
	if limit <= 0 {
		return 0, s.errorf("pruning notifications: %w", errLimit)
	}
	var n int64
	err := s.db.Write(ctx, Stmt{SQL: `DELETE FROM outbox WHERE seq IN (SELECT seq FROM outbox
			WHERE created_at < $1 AND status <> $2 ORDER BY created_at LIMIT $3` + s.lockRows(` FOR UPDATE SKIP LOCKED`) + `)`,
		Args:     []any{ms(olderThan), merchant.NotificationPending, limit},
		Affected: func(v int64) error { n = v; return nil }})
	if err != nil {
		return 0, s.errorf("pruning notifications: %w", err)
	}
	return int(n), nil
}

// recordAttempt stores a and n's outcome in tx, and reports whether n was found.
func (s *Store) recordAttempt(ctx context.Context, tx Runner, n merchant.Notification, a merchant.DeliveryAttempt) (bool, error) {
	found := false
	if err := tx.Run(ctx, outcomeUpdate(n, &found)); err != nil || !found {
		return found, err // a notification pruned meanwhile has no log to add to
	}
	return true, tx.Run(ctx, attemptInsert(n, a))
}

// outcomeUpdate is the statement storing n's outcome and releasing its lease; it sets *found.
func outcomeUpdate(n merchant.Notification, found *bool) Stmt {
	return Stmt{SQL: `UPDATE outbox SET status = $1, attempts = $2, next_attempt_at = $3, last_error = $4,
			last_status_code = $5, leased_until = 0 WHERE id = $6`,
		Args:     []any{n.Status, n.Attempts, ms(n.NextAttemptAt), n.LastError, n.LastStatusCode, n.ID},
		Affected: func(rows int64) error { *found = rows == 1; return nil }}
}

// attemptInsert is the statement adding a to n's log. A second worker recording the same
// attempt (its lease lapsed) adds nothing.
func attemptInsert(n merchant.Notification, a merchant.DeliveryAttempt) Stmt {
	return Stmt{SQL: `INSERT INTO outbox_attempts (message_id, n, at, url, status_code, error, duration_ms)
		VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (message_id, n) DO NOTHING`,
		Args: []any{n.ID, a.N, ms(a.At), a.URL, a.StatusCode, a.Error, a.Duration.Milliseconds()}}
}

// RecordAttempts is RecordAttempt for each outcome, in one transaction of two batches (the
// outcomes, then the attempts of the notifications found); a notification pruned meanwhile is
// passed over.
func (s *Store) RecordAttempts(ctx context.Context, outcomes []merchant.Outcome) error {
	if len(outcomes) == 0 {
		return nil
	}
	found := make([]bool, len(outcomes))
	updates := make([]Stmt, len(outcomes))
	for i, o := range outcomes {
		updates[i] = outcomeUpdate(o.Notification, &found[i])
	}
	err := s.db.WriteTx(ctx, func(tx Runner) error {
		if err := tx.Run(ctx, updates...); err != nil {
			return err
		}
		inserts := make([]Stmt, 0, len(outcomes))
		for i, o := range outcomes {
			if found[i] {
				inserts = append(inserts, attemptInsert(o.Notification, o.Attempt))
			}
		}
		return tx.Run(ctx, inserts...)
	})
	if err != nil {
		return s.errorf("recording delivery attempts: %w", err)
	}
	return nil
}
