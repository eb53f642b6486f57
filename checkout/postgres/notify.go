package postgres

import (
	"context"
	"errors"
	"fmt"
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

// profileKind is the change feed's kind for the store's profile (brand.Profile): the
// store_profile_changed trigger (migration 0103) announces each save as "store_profile:version".
// An order's id is lower-case base32, never this.
const profileKind = "store_profile"

// OnStoreProfile makes the change feed call changed whenever the store's profile was saved, by
// any process, and after a gap in the feed (a save may have been missed): the caller drops what
// it kept of the profile (brand.Manager.Forget). Set it before Follow; changed runs on Follow's
// goroutine.
func (s *Store) OnStoreProfile(changed func()) { s.onProfile.Store(&changed) }

// profileChanged tells OnStoreProfile's function, if any.
func (s *Store) profileChanged() {
	if f := s.onProfile.Load(); f != nil {
		(*f)()
	}
}

// terminalKind prefixes the change feed's kind for the terminals of the point of sale: the
// pos_terminal_changed trigger (migration 0123) announces each change of a sale as
// "pos_terminal/<terminal id>:version", beside the order's own "id:version". An order's id has
// no slash.
const terminalKind = "pos_terminal/"

// OnTerminal makes the change feed call changed with a terminal's id whenever one of its sales
// was placed or changed, by any process: the caller tells that terminal's customer displays
// (checkout.Service.TerminalChanged). Set it before Follow; changed runs on Follow's goroutine
// and must not block.
func (s *Store) OnTerminal(changed func(terminalID string)) { s.onTerminal.Store(&changed) }

// terminalChanged tells OnTerminal's function, if any.
func (s *Store) terminalChanged(id string) {
	if f := s.onTerminal.Load(); f != nil {
		(*f)(id)
	}
}

// AnnounceTerminal tells every instance's change feed (this one's too) that something of a
// terminal changed that no order's trigger announces: a display of it revoked, whose open
// streams then read their token again and end. The notification is sent once the caller's
// change is committed, so that whoever hears it reads that change.
func (s *Store) AnnounceTerminal(ctx context.Context, terminalID string) error {
	if _, err := s.pool.Exec(ctx, "SELECT pg_notify($1, $2)", changesChannel, terminalKind+terminalID+":0"); err != nil {
		return fmt.Errorf("postgres: announcing terminal %s: %w", terminalID, err)
	}
	return nil
}

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
//
// Each change of the feed's state (its connection lost, or listening again) is kept for
// FeedState and told to Options.OnFeed.
func (s *Store) Follow(ctx context.Context, changed func(orderID string, version int), gap func(since time.Time)) {
	alive := time.Now() // nothing was heard before this: a gap until the first connection
	wait := 100 * time.Millisecond
	for ctx.Err() == nil {
		conn, err := s.listen(ctx)
		if err != nil {
			if ctx.Err() == nil {
				s.feedChanged(false, err)
			}
			select {
			case <-ctx.Done():
			case <-time.After(wait):
			}
			wait = min(2*wait, 5*time.Second)
			continue
		}
		s.feedChanged(true, nil)
		wait = 100 * time.Millisecond
		s.profileChanged()
		gap(alive)
		alive = time.Now()
		alive, err = s.receive(ctx, conn, alive, changed)
		if ctx.Err() == nil {
			s.feedChanged(false, err)
		}
		_ = conn.Close(context.WithoutCancel(ctx))
	}
}

// feedState is the change feed's state, as FeedState tells it.
type feedState struct {
	mu     sync.Mutex
	failed bool
	since  time.Time
	err    error
}

// FeedState tells whether the change feed listens: ok is false from the moment its connection
// failed until it listens again (since, with the error). Before Follow it is ok.
func (s *Store) FeedState() (ok bool, since time.Time, err error) {
	s.feed.mu.Lock()
	defer s.feed.mu.Unlock()
	return !s.feed.failed, s.feed.since, s.feed.err
}

// feedChanged records the feed's state, telling OnFeed when it changes.
func (s *Store) feedChanged(ok bool, err error) {
	s.feed.mu.Lock()
	changed := s.feed.failed == ok
	if changed {
		s.feed.failed, s.feed.since, s.feed.err = !ok, time.Now(), err
	}
	s.feed.mu.Unlock()
	if changed && s.onFeed != nil {
		s.onFeed(ok, err)
	}
}

// listen opens the feed's connection and subscribes it to the channel.
func (s *Store) listen(ctx context.Context) (*pgx.Conn, error) {
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	conn, err := s.sessionConn(cctx)
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
// moment the connection was known to work, with why it stopped.
func (s *Store) receive(ctx context.Context, conn *pgx.Conn, alive time.Time, changed func(string, int)) (time.Time, error) {
	for {
		wctx, cancel := context.WithTimeout(ctx, feedPing)
		n, err := conn.WaitForNotification(wctx)
		cancel()
		switch {
		case err == nil:
			alive = time.Now()
			id, version, ok := parseChange(n.Payload)
			switch {
			case ok && id == profileKind:
				s.profileChanged()
			case ok && strings.HasPrefix(id, terminalKind):
				s.terminalChanged(strings.TrimPrefix(id, terminalKind))
			case ok:
				changed(id, version)
			}
		case ctx.Err() != nil:
			return alive, ctx.Err()
		case errors.Is(err, context.DeadlineExceeded):
			// Nothing for a while: is the connection still there?
			before := time.Now()
			pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			err := conn.Ping(pctx)
			cancel()
			if err != nil {
				return alive, err
			}
			alive = before
		default:
			return alive, err
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

// sessionConn opens a connection of its own, outside the pool, to the direct URL (see
// Options.DirectURL), and asks the server for TCP keepalives on it, so that a process that
// vanished without closing its connection (a host gone) loses what the connection holds (the
// lease) within about half a minute. They are set once connected, never as startup parameters,
// which a pooler refuses ("unsupported startup parameter").
func (s *Store) sessionConn(ctx context.Context) (*pgx.Conn, error) {
	conn, err := pgx.ConnectConfig(ctx, s.session.Copy())
	if err != nil {
		return nil, err
	}
	for _, set := range []string{"SET tcp_keepalives_idle = 10", "SET tcp_keepalives_interval = 5", "SET tcp_keepalives_count = 3"} {
		if _, err := conn.Exec(ctx, set); err != nil {
			_ = conn.Close(context.WithoutCancel(ctx))
			return nil, err
		}
	}
	return conn, nil
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
		conn, err := l.store.sessionConn(ctx)
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

// CheckSession checks that the connections of the direct URL (Options.DirectURL, else the
// pool's URL) are session connections straight to PostgreSQL, as the change feed's LISTEN and
// the lease's advisory lock need, and returns why not. Through a pooler in transaction mode
// both fail silently: the LISTEN hears nothing, and the lock stays on a server connection
// handed to other clients, so that two processes hold it at once. Two checks, within a few
// seconds:
//   - a connection keeps its server process (pg_backend_pid()) across three transactions,
//     while a second connection's transactions interleave with its own (a pooler hands the
//     server process it freed last, or first, to the next transaction: one of the orders
//     moves it);
//   - a NOTIFY sent through the pool reaches a LISTEN on that connection.
func (s *Store) CheckSession(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	a, err := s.sessionConn(ctx)
	if err != nil {
		return fmt.Errorf("connecting: %w", err)
	}
	defer a.Close(context.WithoutCancel(ctx))
	b, err := s.sessionConn(ctx)
	if err != nil {
		return fmt.Errorf("connecting: %w", err)
	}
	defer b.Close(context.WithoutCancel(ctx))
	var first int32
	for round := range 3 {
		ta, pa, err := pidInTx(ctx, a)
		if err != nil {
			return err
		}
		tb, _, err := pidInTx(ctx, b)
		if err != nil {
			_ = ta.Rollback(ctx)
			return fmt.Errorf("a second connection's transaction waited for the first's (%w): the connections go through a pooler", err)
		}
		order := []pgx.Tx{ta, tb}
		if round%2 == 1 {
			order = []pgx.Tx{tb, ta}
		}
		for _, tx := range order {
			if err := tx.Commit(ctx); err != nil {
				return err
			}
		}
		if round == 0 {
			first = pa
		} else if pa != first {
			return fmt.Errorf("one connection's transactions ran in different server processes (pg_backend_pid %d, then %d): it is not a session connection", first, pa)
		}
	}
	channel := "checkout_check_" + strconv.FormatInt(time.Now().UnixNano(), 36)
	if _, err := a.Exec(ctx, "LISTEN "+channel); err != nil {
		return err
	}
	if _, err := s.pool.Exec(ctx, "SELECT pg_notify($1, 'check')", channel); err != nil {
		return err
	}
	wctx, wcancel := context.WithTimeout(ctx, 5*time.Second)
	defer wcancel()
	if _, err := a.WaitForNotification(wctx); err != nil {
		return errors.New("a NOTIFY sent through the pool did not reach the LISTEN of the direct connection within 5 s")
	}
	return nil
}

// pidInTx begins a transaction on conn and reads its server process id in it, within 3 s.
func pidInTx(ctx context.Context, conn *pgx.Conn) (pgx.Tx, int32, error) {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	tx, err := conn.Begin(ctx)
	if err != nil {
		return nil, 0, err
	}
	var pid int32
	if err := tx.QueryRow(ctx, "SELECT pg_backend_pid()").Scan(&pid); err != nil {
		_ = tx.Rollback(context.WithoutCancel(ctx))
		return nil, 0, err
	}
	return tx, pid, nil
}
