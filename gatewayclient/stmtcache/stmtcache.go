// Package stmtcache opens SQLite databases (modernc.org/sqlite) whose connections keep the
// statements they run prepared, so that a statement run again is not parsed and planned again.
//
// database/sql prepares nothing by itself: ExecContext and QueryContext, on a *sql.DB or a
// *sql.Tx alike, hand the SQL text to the driver, which parses it every time — for the
// checkout's short statements, parsing cost more than running them. Preparing *sql.Stmt values
// by hand would mean changing every call site (and scs's session store, which we do not own),
// and each use inside a transaction would pass through Tx.StmtContext and the pool's lock.
// Here the cache sits under database/sql instead, in the driver connection: each connection maps
// the SQL text it has run to the statement SQLite prepared for it, and runs that statement again
// with the new arguments. Every statement of the process goes through it, on the pool or in a
// transaction, with no change to the code that runs them.
//
// A statement whose rows are still open is in use: the same text run again on the same
// connection meanwhile (a query inside the loop over another's rows) is prepared for that one
// run and finalized after it. Each connection keeps at most Size statements, dropping the least
// recently used (finalized once its rows close); a text holding ";" (a migration's script) is
// never kept. Closing a connection finalizes its statements first.
//
// Explicit prepares (DB.PrepareContext, Tx.PrepareContext) go to the driver unchanged.
//
// It lives under gatewayclient because both of the project's SQLite users need it: the
// sandbox (gatewayclient/sandbox), which may not import the checkout, and the checkout's
// SQLite store, which may import gatewayclient's packages; the gateway client itself never
// imports it.
package stmtcache

import (
	"container/list"
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"reflect"
	"strings"
	"sync"

	"modernc.org/sqlite"
)

// Size is the number of statements each connection keeps prepared: more than the distinct
// statements of any hot path (a few dozen), few enough that the memory they hold (a few KB
// each) stays small whatever texts a dashboard's filters build.
const Size = 256

// Open returns a database on dsn (modernc.org/sqlite's syntax) whose connections cache their
// prepared statements (see the package doc). Like sql.Open it opens no connection yet.
func Open(dsn string) (*sql.DB, error) {
	return open(dsn, Size)
}

func open(dsn string, size int) (*sql.DB, error) {
	c, err := sqlite.NewConnector(dsn)
	if err != nil {
		return nil, err
	}
	return sql.OpenDB(connector{Connector: c, size: size}), nil
}

// connector wraps every connection the driver opens.
type connector struct {
	driver.Connector
	size int
}

func (c connector) Connect(ctx context.Context) (driver.Conn, error) {
	inner, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	for _, need := range []bool{
		implements[driver.ExecerContext](inner), implements[driver.QueryerContext](inner),
		implements[driver.ConnPrepareContext](inner), implements[driver.ConnBeginTx](inner),
	} {
		if !need {
			_ = inner.Close()
			return nil, errors.New("stmtcache: the sqlite driver's connection lacks a context method")
		}
	}
	return &conn{inner: inner, size: c.size, stmts: make(map[string]*list.Element)}, nil
}

func implements[T any](v any) bool { _, ok := v.(T); return ok }

// conn is a driver connection with its statements. database/sql never uses a connection from
// two goroutines at once, but a Rows may be closed from another goroutine (a cancelled
// context): mu guards the cache all the same.
type conn struct {
	inner driver.Conn
	size  int

	mu       sync.Mutex
	stmts    map[string]*list.Element // of *entry, by SQL text
	lru      list.List                // most recently used first
	prepared int                      // statements prepared for the cache, for the tests
}

// entry is one prepared statement.
type entry struct {
	query   string
	stmt    driver.Stmt
	busy    bool // its rows are open
	dropped bool // evicted or its connection closed while busy: finalize when released
}

var (
	_ driver.ExecerContext      = (*conn)(nil)
	_ driver.QueryerContext     = (*conn)(nil)
	_ driver.ConnPrepareContext = (*conn)(nil)
	_ driver.ConnBeginTx        = (*conn)(nil)
	_ driver.Pinger             = (*conn)(nil)
	_ driver.SessionResetter    = (*conn)(nil)
	_ driver.Validator          = (*conn)(nil)
)

// acquire returns the cached statement for query, prepared now when missing, marked busy; nil
// (and no error) when the statement is busy already or must not be kept.
func (c *conn) acquire(ctx context.Context, query string) (*entry, error) {
	if strings.Contains(query, ";") {
		return nil, nil
	}
	c.mu.Lock()
	if el, ok := c.stmts[query]; ok {
		e := el.Value.(*entry)
		if e.busy {
			c.mu.Unlock()
			return nil, nil
		}
		e.busy = true
		c.lru.MoveToFront(el)
		c.mu.Unlock()
		return e, nil
	}
	c.mu.Unlock()
	s, err := c.inner.(driver.ConnPrepareContext).PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	e := &entry{query: query, stmt: s, busy: true}
	var evicted []driver.Stmt
	c.mu.Lock()
	c.prepared++
	if _, ok := c.stmts[query]; ok {
		// Never with database/sql, which uses a connection from one goroutine at a time.
		e.dropped = true
		c.mu.Unlock()
		return e, nil
	}
	c.stmts[query] = c.lru.PushFront(e)
	for c.lru.Len() > c.size {
		old := c.lru.Back().Value.(*entry)
		c.lru.Remove(c.lru.Back())
		delete(c.stmts, old.query)
		if old.busy {
			old.dropped = true
		} else {
			evicted = append(evicted, old.stmt)
		}
	}
	c.mu.Unlock()
	for _, s := range evicted {
		_ = s.Close()
	}
	return e, nil
}

// release marks e free again, or finalizes it when it was dropped meanwhile.
func (c *conn) release(e *entry) error {
	c.mu.Lock()
	e.busy = false
	dropped := e.dropped
	c.mu.Unlock()
	if dropped {
		return e.stmt.Close()
	}
	return nil
}

// ExecContext runs query with its cached statement.
func (c *conn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	e, err := c.acquire(ctx, query)
	if err != nil {
		return nil, err
	}
	if e == nil {
		return c.inner.(driver.ExecerContext).ExecContext(ctx, query, args)
	}
	res, err := e.stmt.(driver.StmtExecContext).ExecContext(ctx, args)
	if rerr := c.release(e); err == nil && rerr != nil {
		return nil, rerr
	}
	return res, err
}

// QueryContext runs query with its cached statement, busy until its rows are closed.
func (c *conn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	e, err := c.acquire(ctx, query)
	if err != nil {
		return nil, err
	}
	if e == nil {
		return c.inner.(driver.QueryerContext).QueryContext(ctx, query, args)
	}
	r, err := e.stmt.(driver.StmtQueryContext).QueryContext(ctx, args)
	if err != nil {
		_ = c.release(e)
		return nil, err
	}
	return &rows{Rows: r, release: func() error { return c.release(e) }}, nil
}

// Close finalizes the statements, then closes the connection (SQLite closes a connection
// fully only once its statements are finalized).
func (c *conn) Close() error {
	c.mu.Lock()
	var stmts []driver.Stmt
	for el := c.lru.Front(); el != nil; el = el.Next() {
		e := el.Value.(*entry)
		if e.busy {
			e.dropped = true
		} else {
			stmts = append(stmts, e.stmt)
		}
	}
	c.stmts = map[string]*list.Element{}
	c.lru.Init()
	c.mu.Unlock()
	var errs []error
	for _, s := range stmts {
		errs = append(errs, s.Close())
	}
	return errors.Join(append(errs, c.inner.Close())...)
}

// The rest is the driver's connection as it is.

func (c *conn) Prepare(query string) (driver.Stmt, error) { return c.inner.Prepare(query) }

func (c *conn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	return c.inner.(driver.ConnPrepareContext).PrepareContext(ctx, query)
}

func (c *conn) Begin() (driver.Tx, error) {
	return c.BeginTx(context.Background(), driver.TxOptions{})
}

func (c *conn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	return c.inner.(driver.ConnBeginTx).BeginTx(ctx, opts)
}

func (c *conn) Ping(ctx context.Context) error {
	if p, ok := c.inner.(driver.Pinger); ok {
		return p.Ping(ctx)
	}
	return nil
}

func (c *conn) ResetSession(ctx context.Context) error {
	if r, ok := c.inner.(driver.SessionResetter); ok {
		return r.ResetSession(ctx)
	}
	return nil
}

func (c *conn) IsValid() bool {
	if v, ok := c.inner.(driver.Validator); ok {
		return v.IsValid()
	}
	return true
}

// rows are a cached statement's rows: closing them resets the statement (the driver does)
// and frees it for the next run.
type rows struct {
	driver.Rows
	release func() error
	closed  bool
}

func (r *rows) Close() error {
	if r.closed {
		return nil
	}
	r.closed = true
	err := r.Rows.Close()
	return errors.Join(err, r.release())
}

// The column type methods of the driver's rows, for Rows.ColumnTypes.

func (r *rows) ColumnTypeDatabaseTypeName(i int) string {
	if x, ok := r.Rows.(driver.RowsColumnTypeDatabaseTypeName); ok {
		return x.ColumnTypeDatabaseTypeName(i)
	}
	return ""
}

func (r *rows) ColumnTypeLength(i int) (int64, bool) {
	if x, ok := r.Rows.(driver.RowsColumnTypeLength); ok {
		return x.ColumnTypeLength(i)
	}
	return 0, false
}

func (r *rows) ColumnTypeNullable(i int) (bool, bool) {
	if x, ok := r.Rows.(driver.RowsColumnTypeNullable); ok {
		return x.ColumnTypeNullable(i)
	}
	return false, false
}

func (r *rows) ColumnTypePrecisionScale(i int) (int64, int64, bool) {
	if x, ok := r.Rows.(driver.RowsColumnTypePrecisionScale); ok {
		return x.ColumnTypePrecisionScale(i)
	}
	return 0, 0, false
}

func (r *rows) ColumnTypeScanType(i int) reflect.Type {
	if x, ok := r.Rows.(driver.RowsColumnTypeScanType); ok {
		return x.ColumnTypeScanType(i)
	}
	return reflect.TypeFor[any]()
}
