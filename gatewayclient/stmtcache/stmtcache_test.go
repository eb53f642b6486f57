package stmtcache

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// openTest opens a database of one connection in a new file, with a table t(id, v) of n rows.
func openTest(t *testing.T, size, n int) *sql.DB {
	t.Helper()
	path := filepath.Join(t.TempDir(), "t.db")
	db, err := open("file:"+path+"?_pragma=journal_mode(WAL)", size)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	db.SetMaxOpenConns(1)
	ctx := context.Background()
	if _, err := db.ExecContext(ctx, `CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= n; i++ {
		if _, err := db.ExecContext(ctx, `INSERT INTO t (id, v) VALUES ($1, $2)`, i, fmt.Sprint("v", i)); err != nil {
			t.Fatal(err)
		}
	}
	return db
}

// stats reads the cache of the database's one connection.
func stats(t *testing.T, db *sql.DB) (prepared, kept int) {
	t.Helper()
	sc, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer sc.Close()
	if err := sc.Raw(func(dc any) error {
		c := dc.(*conn)
		c.mu.Lock()
		defer c.mu.Unlock()
		prepared, kept = c.prepared, len(c.stmts)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return prepared, kept
}

func TestStatementPreparedOnceOnPoolAndInTransactions(t *testing.T) {
	ctx := context.Background()
	db := openTest(t, Size, 3)
	p0, _ := stats(t, db)
	const q = `SELECT v FROM t WHERE id = $1`
	for i := range 30 {
		id := i%3 + 1
		var v string
		if i%2 == 0 {
			if err := db.QueryRowContext(ctx, q, id).Scan(&v); err != nil {
				t.Fatal(err)
			}
		} else {
			tx, err := db.BeginTx(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := tx.QueryRowContext(ctx, q, id).Scan(&v); err != nil {
				t.Fatal(err)
			}
			if _, err := tx.ExecContext(ctx, `UPDATE t SET v = v WHERE id = $1`, id); err != nil {
				t.Fatal(err)
			}
			if err := tx.Commit(); err != nil {
				t.Fatal(err)
			}
		}
		// Each run binds its own arguments: a reused statement answers for this id.
		if want := fmt.Sprint("v", id); v != want {
			t.Fatalf("run %d: v = %q, want %q", i, v, want)
		}
	}
	if p, _ := stats(t, db); p-p0 != 2 {
		t.Errorf("prepared %d statements for 2 texts run 30 times", p-p0)
	}
}

func TestSameTextWhileItsRowsAreOpen(t *testing.T) {
	ctx := context.Background()
	db := openTest(t, Size, 3)
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	const q = `SELECT id, v FROM t WHERE id >= $1 ORDER BY id`
	outer, err := tx.QueryContext(ctx, q, 1)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for outer.Next() {
		var id int
		var v string
		if err := outer.Scan(&id, &v); err != nil {
			t.Fatal(err)
		}
		// The same text, on the same connection, while the outer rows are open.
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM (`+q+`)`, id).Scan(&n); err != nil {
			t.Fatal(err)
		}
		inner, err := tx.QueryContext(ctx, q, id)
		if err != nil {
			t.Fatal(err)
		}
		var m int
		for inner.Next() {
			m++
		}
		if err := inner.Close(); err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%s:%d:%d", v, n, m))
	}
	if err := outer.Err(); err != nil {
		t.Fatal(err)
	}
	outer.Close()
	if fmt.Sprint(got) != "[v1:3:3 v2:2:2 v3:1:1]" {
		t.Errorf("got %v", got)
	}
	// Free again: the next run uses the cached statement.
	tx.Commit()
	p0, _ := stats(t, db)
	rows, err := db.QueryContext(ctx, q, 2)
	if err != nil {
		t.Fatal(err)
	}
	rows.Close()
	if p, _ := stats(t, db); p != p0 {
		t.Errorf("prepared %d statements again for a cached text", p-p0)
	}
}

func TestBoundedAndScripts(t *testing.T) {
	ctx := context.Background()
	db := openTest(t, 4, 1)
	// A script (with ";") runs whole and is not kept.
	if _, err := db.ExecContext(ctx, `CREATE TABLE u (x); INSERT INTO u VALUES (1); INSERT INTO u VALUES (2);`); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM u`).Scan(&n); err != nil || n != 2 {
		t.Fatalf("count = %d, %v", n, err)
	}
	// Rows held open while their statement is evicted: they still read, and the statement is
	// finalized when they close. (In a transaction: the rows keep the one connection.)
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	held, err := tx.QueryContext(ctx, `SELECT x FROM u ORDER BY x`)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 10 {
		if err := tx.QueryRowContext(ctx, fmt.Sprintf(`SELECT %d + id FROM t`, i)).Scan(&n); err != nil || n != i+1 {
			t.Fatalf("query %d = %d, %v", i, n, err)
		}
	}
	var xs []int
	for held.Next() {
		var x int
		if err := held.Scan(&x); err != nil {
			t.Fatal(err)
		}
		xs = append(xs, x)
	}
	if err := held.Close(); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(xs) != "[1 2]" {
		t.Errorf("held rows read %v", xs)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if _, kept := stats(t, db); kept > 4 {
		t.Errorf("%d statements kept, the bound is 4", kept)
	}
}

func TestSchemaChangeSeenByCachedStatement(t *testing.T) {
	ctx := context.Background()
	db := openTest(t, Size, 1)
	cols := func() []string {
		rows, err := db.QueryContext(ctx, `SELECT * FROM t`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		c, err := rows.Columns()
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	if c := cols(); len(c) != 2 {
		t.Fatalf("columns %v", c)
	}
	if _, err := db.ExecContext(ctx, `ALTER TABLE t ADD COLUMN w TEXT`); err != nil {
		t.Fatal(err)
	}
	if c := cols(); len(c) != 3 {
		t.Errorf("after ALTER TABLE the cached statement reads columns %v", c)
	}
}

func TestCloseFinalizesAndCheckpoints(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "t.db")
	db, err := Open("file:" + path + "?_pragma=journal_mode(WAL)")
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{`CREATE TABLE t (x)`, `INSERT INTO t VALUES (1)`} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	var x int
	if err := db.QueryRowContext(ctx, `SELECT x FROM t`).Scan(&x); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	// SQLite removes the WAL when its last connection closes for good, which it does only
	// once every statement of that connection is finalized.
	if _, err := os.Stat(path + "-wal"); !os.IsNotExist(err) {
		t.Errorf("the WAL is still there after Close: %v", err)
	}
	if err := db.QueryRowContext(ctx, `SELECT x FROM t`).Scan(&x); err == nil {
		t.Error("a closed database answered")
	}
}
