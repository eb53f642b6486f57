package sqlmigrate

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	_ "modernc.org/sqlite"
)

func openDB(t *testing.T) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(t.TempDir(), "m.db")+"?_txlock=immediate")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	return db
}

func files(m map[string]string) fstest.MapFS {
	fs := fstest.MapFS{}
	for name, body := range m {
		fs["migrations/"+name] = &fstest.MapFile{Data: []byte(body)}
	}
	return fs
}

// versions returns the recorded versions of component, in order.
func versions(t *testing.T, db *sql.DB, component string) []int {
	t.Helper()
	rows, err := db.Query(`SELECT version FROM schema_migrations WHERE component = ? ORDER BY version`, component)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []int
	for rows.Next() {
		var v int
		if err := rows.Scan(&v); err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	return out
}

func TestApplyInOrderOnceWithSteps(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	steps := 0
	p := Plan{Component: "a", FS: files(map[string]string{
		"0002_fill.sql": `INSERT INTO t (v) VALUES ('two');`,
		"0001_init.sql": `CREATE TABLE t (v TEXT); INSERT INTO t (v) VALUES ('one');`,
		"0010_more.sql": `INSERT INTO t (v) VALUES ('ten');`,
	}), Steps: map[int]Step{2: func(ctx context.Context, tx *sql.Tx) error {
		steps++
		_, err := tx.ExecContext(ctx, `INSERT INTO t (v) VALUES ('step')`)
		return err
	}}}
	for range 2 {
		if err := Apply(ctx, db, "", p); err != nil {
			t.Fatal(err)
		}
	}
	var got string
	if err := db.QueryRow(`SELECT group_concat(v, ',') FROM (SELECT v FROM t ORDER BY rowid)`).Scan(&got); err != nil {
		t.Fatal(err)
	}
	if got != "one,two,step,ten" || steps != 1 {
		t.Fatalf("rows %q after %d steps, want one,two,step,ten after 1", got, steps)
	}
	if v := versions(t, db, "a"); len(v) != 3 || v[0] != 1 || v[1] != 2 || v[2] != 10 {
		t.Fatalf("recorded %v", v)
	}
	// Another component in the same database numbers its own migrations.
	if err := Apply(ctx, db, "", Plan{Component: "b", FS: files(map[string]string{"0001_init.sql": `CREATE TABLE u (x INTEGER);`})}); err != nil {
		t.Fatal(err)
	}
	if v := versions(t, db, "b"); len(v) != 1 || v[0] != 1 {
		t.Fatalf("component b recorded %v", v)
	}
}

func TestFailedMigrationLeavesNothing(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	p := Plan{Component: "a", FS: files(map[string]string{
		"0001_init.sql": `CREATE TABLE t (v TEXT);`,
		"0002_bad.sql":  `CREATE TABLE half (x INTEGER); INSERT INTO nowhere VALUES (1);`,
	})}
	err := Apply(ctx, db, "", p)
	if err == nil || !strings.Contains(err.Error(), "0002_bad.sql") {
		t.Fatalf("Apply: %v, want an error naming 0002_bad.sql", err)
	}
	var half int
	if err := db.QueryRow(`SELECT COUNT(*) FROM sqlite_schema WHERE name = 'half'`).Scan(&half); err != nil || half != 0 {
		t.Fatalf("the failed migration left table half (%d, %v)", half, err)
	}
	if v := versions(t, db, "a"); len(v) != 1 || v[0] != 1 {
		t.Fatalf("recorded %v, want [1]", v)
	}
	// A failing step rolls back its migration's SQL too.
	p.FS = files(map[string]string{"0001_init.sql": `CREATE TABLE t (v TEXT);`, "0002_ok.sql": `CREATE TABLE half (x INTEGER);`})
	p.Steps = map[int]Step{2: func(context.Context, *sql.Tx) error { return errors.New("step failed") }}
	if err := Apply(ctx, db, "", p); err == nil || !strings.Contains(err.Error(), "step failed") {
		t.Fatalf("Apply with a failing step: %v", err)
	}
	if err := db.QueryRow(`SELECT COUNT(*) FROM sqlite_schema WHERE name = 'half'`).Scan(&half); err != nil || half != 0 {
		t.Fatalf("the failed step left table half (%d, %v)", half, err)
	}
}

func TestBaselineAdoptsAnExistingSchema(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	// A database made before the migrations were numbered: table t exists with a row.
	if _, err := db.Exec(`CREATE TABLE t (v TEXT); INSERT INTO t VALUES ('old');`); err != nil {
		t.Fatal(err)
	}
	calls := 0
	p := Plan{Component: "a", FS: files(map[string]string{
		"0001_init.sql": `CREATE TABLE t (v TEXT);`,
		"0002_more.sql": `INSERT INTO t VALUES ('new');`,
	}), Baseline: func(ctx context.Context, tx *sql.Tx) (int, error) {
		calls++
		var exists bool
		err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE name = 't')`).Scan(&exists)
		if exists {
			return 1, err
		}
		return 0, err
	}}
	for range 2 {
		if err := Apply(ctx, db, "", p); err != nil {
			t.Fatal(err)
		}
	}
	var got string
	if err := db.QueryRow(`SELECT group_concat(v, ',') FROM t`).Scan(&got); err != nil || got != "old,new" {
		t.Fatalf("rows %q (%v), want old,new", got, err)
	}
	if calls != 1 {
		t.Fatalf("Baseline called %d times, want once (only while nothing is recorded)", calls)
	}
	// A fresh database is not adopted: every migration runs.
	fresh := openDB(t)
	if err := Apply(ctx, fresh, "", p); err != nil {
		t.Fatal(err)
	}
	if v := versions(t, fresh, "a"); len(v) != 2 {
		t.Fatalf("fresh database recorded %v", v)
	}
}

func TestBadMigrationNames(t *testing.T) {
	db := openDB(t)
	for _, fs := range []fstest.MapFS{
		files(map[string]string{"init.sql": ``}),
		files(map[string]string{"1_init.sql": ``}),
		files(map[string]string{"0001_a.sql": ``, "0001_b.sql": ``}),
	} {
		if err := Apply(context.Background(), db, "", Plan{Component: "a", FS: fs}); err == nil {
			t.Errorf("%v: no error", fs)
		}
	}
}

// TestUnnamedRecordsAreConverted: a schema_migrations made before components (version, name,
// applied_at) becomes the component table, its rows the Unnamed plan's; nothing recorded there
// runs again, and another component starts its own numbering.
func TestUnnamedRecordsAreConverted(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	if _, err := db.Exec(`CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL);
		INSERT INTO schema_migrations VALUES (1, '0001_init.sql', 7);
		CREATE TABLE t (v TEXT);`); err != nil {
		t.Fatal(err)
	}
	main := Plan{Component: "main", Unnamed: true, FS: files(map[string]string{
		"0001_init.sql": `CREATE TABLE t (v TEXT);`,
		"0002_more.sql": `INSERT INTO t VALUES ('two');`,
	})}
	other := Plan{Component: "other", FS: files(map[string]string{"0001_init.sql": `CREATE TABLE u (x INTEGER);`})}
	// The other plan goes first: the conversion does not depend on the order of the plans.
	for range 2 {
		if err := Apply(ctx, db, "", other, main); err != nil {
			t.Fatal(err)
		}
	}
	if v := versions(t, db, "main"); len(v) != 2 || v[0] != 1 || v[1] != 2 {
		t.Fatalf("main recorded %v, want [1 2]", v)
	}
	if v := versions(t, db, "other"); len(v) != 1 {
		t.Fatalf("other recorded %v, want [1]", v)
	}
	var at int64
	if err := db.QueryRow(`SELECT applied_at FROM schema_migrations WHERE component = 'main' AND version = 1`).Scan(&at); err != nil || at != 7 {
		t.Fatalf("the old record's time: %d, %v; want it kept (7)", at, err)
	}
	// Without a plan that owns them, the old rows are not guessed at.
	old := openDB(t)
	if _, err := old.Exec(`CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	if err := Apply(ctx, old, "", other); err == nil {
		t.Fatal("an old schema_migrations was converted with no plan owning its rows")
	}
}
