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

// TestForeignDatabaseRefused: a database recording migrations the plan does not have — a
// development build's chain from before the baseline, a schema_migrations from before
// components, a later release's migrations — is refused before anything runs, in words that
// say which.
func TestForeignDatabaseRefused(t *testing.T) {
	ctx := context.Background()
	p := Plan{Component: "a", Releases: []Release{{Name: "0.1.0", Last: 100}}, FS: files(map[string]string{
		"0100_baseline.sql": `CREATE TABLE t (v TEXT);`,
		"0101_more.sql":     `CREATE TABLE u (v TEXT);`,
	})}
	other := Plan{Component: "b", FS: files(map[string]string{"0001_init.sql": `CREATE TABLE w (x INTEGER);`})}
	for _, tc := range []struct {
		name, setup, want string
	}{
		{"older chain", `CREATE TABLE schema_migrations (component TEXT NOT NULL, version INTEGER NOT NULL, name TEXT NOT NULL,
			applied_at BIGINT NOT NULL, PRIMARY KEY (component, version));
			INSERT INTO schema_migrations VALUES ('a', 1, '0001_init.sql', 1), ('a', 61, '0061_x.sql', 1);`,
			"the database records a migrations 0001–0061 (2 of them), from before release 0.1.0 (whose schema starts at migration 0100): it was made by a development build older than the first release"},
		{"no components", `CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL);
			INSERT INTO schema_migrations VALUES (1, '0001_init.sql', 7);`,
			"schema_migrations has no component column: the database was made by a development build older than the first release"},
		{"later release", `CREATE TABLE schema_migrations (component TEXT NOT NULL, version INTEGER NOT NULL, name TEXT NOT NULL,
			applied_at BIGINT NOT NULL, PRIMARY KEY (component, version));
			INSERT INTO schema_migrations VALUES ('a', 100, '0100_baseline.sql', 1), ('a', 102, '0102_later.sql', 1);`,
			"the database records a migrations 0102 that this program does not have: it was made by a later version"},
	} {
		db := openDB(t)
		if _, err := db.Exec(tc.setup); err != nil {
			t.Fatal(err)
		}
		// The other plan comes first: it is refused too, since nothing is applied before every
		// plan is checked.
		err := Apply(ctx, db, "", other, p)
		var fe *ForeignError
		if !errors.As(err, &fe) || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: Apply = %v, want a ForeignError saying %q", tc.name, err, tc.want)
		}
		var tables int
		if err := db.QueryRow(`SELECT COUNT(*) FROM sqlite_schema WHERE name IN ('t', 'u', 'w')`).Scan(&tables); err != nil || tables != 0 {
			t.Errorf("%s: %d tables made (%v): a refused database was changed", tc.name, tables, err)
		}
	}
}

// TestNumberedBeforeBaseline: a migration numbered before the first release's baseline would
// run before it on an empty database: the plan is refused, saying so.
func TestNumberedBeforeBaseline(t *testing.T) {
	p := Plan{Component: "a", Releases: []Release{{Name: "0.1.0", Last: 100}}, FS: files(map[string]string{
		"0100_baseline.sql": `CREATE TABLE t (v TEXT);`,
		"0076_late.sql":     `ALTER TABLE t ADD COLUMN w TEXT;`,
	})}
	err := Apply(context.Background(), openDB(t), "", p)
	if err == nil || !strings.Contains(err.Error(), "0076_late.sql is numbered before 0100, the baseline of release 0.1.0") {
		t.Errorf("Apply = %v", err)
	}
}
