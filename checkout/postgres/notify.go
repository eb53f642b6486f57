package postgres

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// changesChannel is the channel on which the orders_changed trigger (the baseline migration) announces
// every change of an order as "id:version".
const changesChannel = "checkout_orders"

// feedPing is how long the feed waits for a notification before checking its connection: the
// time a silently dead connection may go unnoticed, hence how far back a catch-up reads.
const feedPing = 30 * time.Second

var (
	_ checkout.ChangeFeed = (*Store)(nil)
	_ checkout.Lease      = (*Lease)(nil)
)

// Follow is checkout.ChangeFeed: it listens to the changes of orders on a connection of its own
// (one per process), announced by the database itself at each commit whoever made it. A lost
// connection is made again, waiting longer between tries up to 5 s; once it is back, gap is
// called with the last moment the old one was known to work. The first connection reports a gap
// too, from the moment Follow began: the process may read orders before its feed listens (the
// server answers as soon as it starts), and a change made elsewhere in between would otherwise
// never reach those snapshots. Follow returns when ctx ends.
func (s *Store) Follow(ctx context.Context, changed func(orderID string, version int), gap func(since time.Time)) {
	alive := time.Now() // nothing was heard before this: a gap until the first connection
	wait := 100 * time.Millisecond
	for ctx.Err() == nil {
		conn, err := s.listen(ctx)
		if err != nil {
			select {
			case <-ctx.Done():
			case <-time.After(wait):
			}
			wait = min(2*wait, 5*time.Second)
			continue
		}
		wait = 100 * time.Millisecond
		gap(alive)
		alive = time.Now()
		alive = s.receive(ctx, conn, alive, changed)
		_ = conn.Close(context.WithoutCancel(ctx))
	}
}

// listen opens the feed's connection and subscribes it to the channel.
func (s *Store) listen(ctx context.Context) (*pgx.Conn, error) {
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	conn, err := pgx.ConnectConfig(cctx, s.connConfig())
	if err != nil {
		return nil, err
	}
	if _, err := conn.Exec(cctx, "LISTEN "+changesChannel); err != nil {
		_ = conn.Close(context.WithoutCancel(ctx))
		return nil, err
	}
	return conn, nil
}

// receive passes on the notifications of conn until it fails or ctx ends, and returns the last
// moment the connection was known to work.
func (s *Store) receive(ctx context.Context, conn *pgx.Conn, alive time.Time, changed func(string, int)) time.Time {
	for {
		wctx, cancel := context.WithTimeout(ctx, feedPing)
		n, err := conn.WaitForNotification(wctx)
		cancel()
		switch {
		case err == nil:
			alive = time.Now()
			id, version, ok := parseChange(n.Payload)
			if ok {
				changed(id, version)
			}
		case ctx.Err() != nil:
			return alive
		case errors.Is(err, context.DeadlineExceeded):
			// Nothing for a while: is the connection still there?
			before := time.Now()
			pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			err := conn.Ping(pctx)
			cancel()
			if err != nil {
				return alive
			}
			alive = before
		default:
			return alive
		}
	}
}

// parseChange reads a notification's "id:version".
func parseChange(payload string) (id string, version int, ok bool) {
	i := strings.LastIndexByte(payload, ':')
	if i <= 0 {
		return "", 0, false
	}
	v, err := strconv.Atoi(payload[i+1:])
	if err != nil {
		return "", 0, false
	}
	return payload[:i], v, true
}

// connConfig is the configuration of a connection of its own, outside the pool: the pool's,
// with TCP keepalives asked of the server, so that a process that vanished without closing
// its connection (a host gone) loses what the connection holds within about half a minute.
func (s *Store) connConfig() *pgx.ConnConfig {
	cfg := s.pool.Config().ConnConfig.Copy()
	if cfg.RuntimeParams == nil {
		cfg.RuntimeParams = map[string]string{}
	}
	for k, v := range map[string]string{"tcp_keepalives_idle": "10", "tcp_keepalives_interval": "5", "tcp_keepalives_count": "3"} {
		if _, set := cfg.RuntimeParams[k]; !set {
			cfg.RuntimeParams[k] = v
		}
	}
	return cfg
}

// reconcileLock is the key of the advisory lock of the reconciler's lease: the bytes of
// "pixreco1".
const reconcileLock int64 = 0x706978726563_6f31

// Lease is a checkout.Lease on PostgreSQL: a session advisory lock held by a connection of its
// own. The server releases it when that connection ends (the process stopped or died, or its
// host vanished: the connection's keepalives notice within about half a minute), and another
// process takes it at its next try. Make one with Store.ReconcileLease; Close releases it.
type Lease struct {
	store *Store
	key   int64

	mu   sync.Mutex
	conn *pgx.Conn
	held bool
}

// ReconcileLease returns the lease that lets one process at a time reconcile payments.
func (s *Store) ReconcileLease() *Lease {
	return &Lease{store: s, key: reconcileLock}
}

// Held reports whether this process holds the lease, trying to take it when it does not. A
// holder checks that its connection is still there (losing the connection loses the lease).
func (l *Lease) Held(ctx context.Context) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if l.conn != nil && l.held {
		if l.conn.Ping(ctx) == nil {
			return true
		}
		l.closeLocked()
	}
	if l.conn == nil || l.conn.IsClosed() {
		conn, err := pgx.ConnectConfig(ctx, l.store.connConfig())
		if err != nil {
			return false
		}
		l.conn = conn
	}
	var got bool
	if err := l.conn.QueryRow(ctx, "SELECT pg_try_advisory_lock($1)", l.key).Scan(&got); err != nil {
		l.closeLocked()
		return false
	}
	l.held = got
	return got
}

// Close releases the lease (with its connection).
func (l *Lease) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closeLocked()
	return nil
}

func (l *Lease) closeLocked() {
	if l.conn != nil {
		_ = l.conn.Close(context.Background())
	}
	l.conn, l.held = nil, false
}
