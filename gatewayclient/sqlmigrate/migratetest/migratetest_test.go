package migratetest

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/pixcheckout/pixcheckout/gatewayclient/sqlmigrate"

	_ "modernc.org/sqlite"
)

func openSQLite(t *testing.T) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(t.TempDir(), "m.db")+"?_txlock=immediate")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	return db
}

func plan(files map[string]string) sqlmigrate.Plan {
	fs := fstest.MapFS{}
	for name, body := range files {
		fs["migrations/"+name] = &fstest.MapFile{Data: []byte(body)}
	}
	return sqlmigrate.Plan{Component: "a", FS: fs, Releases: []sqlmigrate.Release{{Name: "0.1.0", Last: 100}}}
}

func TestNormaliseSQL(t *testing.T) {
	a := "CREATE TABLE t (\n    id TEXT PRIMARY KEY, -- the key\n    v  TEXT NOT NULL DEFAULT 'a  b', /* note */ w INTEGER\n);"
	b := `CREATE TABLE t(id TEXT PRIMARY KEY,v TEXT NOT NULL DEFAULT 'a  b',w INTEGER)`
	if NormaliseSQL(a) != NormaliseSQL(b) {
		t.Errorf("%q\n!= %q", NormaliseSQL(a), NormaliseSQL(b))
	}
	if got := NormaliseSQL(b); got != `CREATE TABLE t(id TEXT PRIMARY KEY, v TEXT NOT NULL DEFAULT 'a  b', w INTEGER)` {
		t.Errorf("normalised: %q", got)
	}
	// Quoted text and dollar-quoted bodies are kept as they are.
	if got := NormaliseSQL("SELECT 'it''s -- not a comment',  $$ a  b $$"); got != "SELECT 'it''s -- not a comment', $$ a  b $$" {
		t.Errorf("quoted: %q", got)
	}
	if NormaliseSQL("CREATE TABLE t (v TEXT)") == NormaliseSQL("CREATE TABLE t (v INTEGER)") {
		t.Error("a different type compares equal")
	}
}

// TestDumpSQLite: two databases made by different statements of the same schema dump the
// same; a different default, index or seeded row does not.
func TestDumpSQLite(t *testing.T) {
	ctx := context.Background()
	dump := func(stmts string) string {
		t.Helper()
		db := openSQLite(t)
		if _, err := db.Exec(stmts); err != nil {
			t.Fatal(err)
		}
		d, err := Dump(ctx, db, SQLite)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	chain := dump(`CREATE TABLE t (id TEXT PRIMARY KEY);
		ALTER TABLE t ADD COLUMN v INTEGER NOT NULL DEFAULT 0;
		CREATE INDEX t_v ON t (v);
		CREATE TABLE settings (k TEXT PRIMARY KEY, v TEXT);
		INSERT INTO settings VALUES ('mode', 'x');
		CREATE TABLE schema_migrations (version INTEGER);
		INSERT INTO schema_migrations VALUES (1);`)
	baseline := dump(`CREATE TABLE settings (
			k TEXT PRIMARY KEY,
			v TEXT
		);
		INSERT INTO settings VALUES ('mode', 'x');
		CREATE TABLE t (id TEXT PRIMARY KEY, v INTEGER NOT NULL DEFAULT 0);
		CREATE INDEX t_v ON t(v);`)
	if chain != baseline {
		t.Errorf("the same schema dumps differently:\n%s", Diff(chain, baseline))
	}
	want := "CREATE TABLE settings(k TEXT PRIMARY KEY, v TEXT);\nCREATE TABLE t(id TEXT PRIMARY KEY, v INTEGER NOT NULL DEFAULT 0);\n" +
		"CREATE INDEX t_v ON t(v);\nINSERT INTO settings (k, v) VALUES ('mode', 'x');\n"
	if chain != want {
		t.Errorf("dump:\n%s\nwant:\n%s", chain, want)
	}
	for _, other := range []string{
		`CREATE TABLE settings (k TEXT PRIMARY KEY, v TEXT); INSERT INTO settings VALUES ('mode', 'y');
			CREATE TABLE t (id TEXT PRIMARY KEY, v INTEGER NOT NULL DEFAULT 0); CREATE INDEX t_v ON t (v);`,
		`CREATE TABLE settings (k TEXT PRIMARY KEY, v TEXT); INSERT INTO settings VALUES ('mode', 'x');
			CREATE TABLE t (id TEXT PRIMARY KEY, v INTEGER NOT NULL DEFAULT 1); CREATE INDEX t_v ON t (v);`,
		`CREATE TABLE settings (k TEXT PRIMARY KEY, v TEXT); INSERT INTO settings VALUES ('mode', 'x');
			CREATE TABLE t (id TEXT PRIMARY KEY, v INTEGER NOT NULL DEFAULT 0); CREATE INDEX t_v ON t (v, id);`,
	} {
		if dump(other) == chain {
			t.Errorf("a different schema or row dumps the same: %s", other)
		}
	}
}

// TestUpgradeKeepsRows: a later migration that adds a column keeps every row; lost reports
// one that deletes a row, changes a value, or drops a column or a table, unless it is declared
// dropped.
func TestUpgradeKeepsRows(t *testing.T) {
	files := map[string]string{
		"0100_baseline.sql": `CREATE TABLE t (id TEXT PRIMARY KEY, v INTEGER NOT NULL); CREATE TABLE u (x TEXT);`,
		"0101_more.sql":     `ALTER TABLE t ADD COLUMN w TEXT NOT NULL DEFAULT '';`,
	}
	p := plan(files)
	checked := false
	Upgrade{
		Open:  openSQLite,
		Plans: []sqlmigrate.Plan{p},
		Write: func(t *testing.T, db *sql.DB, release string) {
			if _, err := db.Exec(`INSERT INTO t (id, v) VALUES ('a', 1), ('b', 2); INSERT INTO u VALUES ('x')`); err != nil {
				t.Fatal(err)
			}
		},
		Check: func(t *testing.T, db *sql.DB, release string) {
			var w string
			if err := db.QueryRow(`SELECT w FROM t WHERE id = 'a'`).Scan(&w); err != nil {
				t.Fatal(err)
			}
			checked = true
		},
	}.Run(t)
	if !checked {
		t.Error("Check did not run")
	}

	ctx := context.Background()
	for _, tc := range []struct {
		later   string
		dropped []string
		want    string
	}{
		{`DELETE FROM t WHERE id = 'b'`, nil, "table t: the row id='b'"},
		{`UPDATE t SET v = 3 WHERE id = 'a'`, nil, "table t: the row id='a'; v=1;"},
		{`ALTER TABLE t DROP COLUMN v`, nil, "column t.v is gone"},
		{`DROP TABLE u`, nil, "table u is gone with its 1 rows"},
		{`ALTER TABLE t DROP COLUMN v; DROP TABLE u`, []string{"t.v", "u"}, ""},
	} {
		db := openSQLite(t)
		if _, err := db.Exec(files["0100_baseline.sql"] + `INSERT INTO t (id, v) VALUES ('a', 1), ('b', 2); INSERT INTO u VALUES ('x')`); err != nil {
			t.Fatal(err)
		}
		before, err := snapshot(ctx, db, SQLite)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(tc.later); err != nil {
			t.Fatal(err)
		}
		after, err := snapshot(ctx, db, SQLite)
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Join(lost(before, after, tc.dropped), "\n")
		if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("%s: lost %q, want %q", tc.later, got, tc.want)
		}
	}
}
