package migratetest

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"

	"github.com/pixcheckout/pixcheckout/gatewayclient/sqlmigrate"
)

// UpTo returns p with its migrations numbered up to last only: the plan as a release whose
// last migration was last shipped it.
func UpTo(t testing.TB, p sqlmigrate.Plan, last int) sqlmigrate.Plan {
	t.Helper()
	names, err := fs.Glob(p.FS, "migrations/*.sql")
	if err != nil {
		t.Fatal(err)
	}
	part := fstest.MapFS{}
	for _, name := range names {
		num, _, _ := strings.Cut(path.Base(name), "_")
		v, err := strconv.Atoi(num)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if v <= last {
			b, err := fs.ReadFile(p.FS, name)
			if err != nil {
				t.Fatal(err)
			}
			part[name] = &fstest.MapFile{Data: b}
		}
	}
	p.FS = part
	return p
}

// AtRelease returns the plans as the release named shipped them (see UpTo), and whether every
// plan lists that release.
func AtRelease(t testing.TB, release string, plans ...sqlmigrate.Plan) ([]sqlmigrate.Plan, bool) {
	t.Helper()
	out := make([]sqlmigrate.Plan, len(plans))
	for i, p := range plans {
		j := slices.IndexFunc(p.Releases, func(r sqlmigrate.Release) bool { return r.Name == release })
		if j < 0 {
			return nil, false
		}
		out[i] = UpTo(t, p, p.Releases[j].Last)
	}
	return out, true
}

// Upgrade describes the upgrade test of a database: the plans the program applies to it, and
// what to write into a database of each release.
type Upgrade struct {
	// Open returns a new, empty database (on SQLite, a pool of one connection), closed by the test's end.
	Open func(t *testing.T) *sql.DB
	// Dialect is Open's database; Lock is sqlmigrate.Apply's lock (PostgresLock on PostgreSQL).
	Dialect Dialect
	Lock    string
	// Plans are the program's plans for that database, in the order it applies them. Every
	// release of the first plan is tested; the others must list it too.
	Plans []sqlmigrate.Plan
	// Write writes sample rows into db, a database of release: an install of that release, with
	// a row in as many tables as it can (tables left empty are logged).
	Write func(t *testing.T, db *sql.DB, release string)
	// Check, when set, reads the samples back through the program once every migration ran
	// (the store opened on db), beside the row by row comparison.
	Check func(t *testing.T, db *sql.DB, release string)
	// Dropped are the tables ("table") and columns ("table.column") that a later migration
	// removes on purpose, with what they held.
	Dropped []string
}

// Run checks, for each release, that a database made by its migrations and holding the samples
// keeps every row when the program applies the migrations after it: every row of every table
// is found again, with the same values in every column that remains (Dropped aside), and Check
// passes. With no migration after a release yet, it checks that the program opens the
// release's database as it is.
func (u Upgrade) Run(t *testing.T) {
	if len(u.Plans) == 0 || len(u.Plans[0].Releases) == 0 {
		t.Fatal("migratetest: the first plan lists no release")
	}
	for _, r := range u.Plans[0].Releases {
		t.Run(r.Name, func(t *testing.T) {
			ctx := context.Background()
			old, ok := AtRelease(t, r.Name, u.Plans...)
			if !ok {
				t.Fatalf("a plan does not list release %s", r.Name)
			}
			db := u.Open(t)
			if err := sqlmigrate.Apply(ctx, db, u.Lock, old...); err != nil {
				t.Fatalf("the migrations of %s: %v", r.Name, err)
			}
			u.Write(t, db, r.Name)
			before, err := snapshot(ctx, db, u.Dialect)
			if err != nil {
				t.Fatal(err)
			}
			var empty []string
			for name, tb := range before {
				if len(tb.rows) == 0 {
					empty = append(empty, name)
				}
			}
			slices.Sort(empty)
			t.Logf("tables without a sample row in %s: %v", r.Name, empty)
			if err := sqlmigrate.Apply(ctx, db, u.Lock, u.Plans...); err != nil {
				t.Fatalf("migrating a database of %s: %v", r.Name, err)
			}
			after, err := snapshot(ctx, db, u.Dialect)
			if err != nil {
				t.Fatal(err)
			}
			for _, problem := range lost(before, after, u.Dropped) {
				t.Errorf("upgrading from %s: %s", r.Name, problem)
			}
			if u.Check != nil {
				u.Check(t, db, r.Name)
			}
		})
	}
}

// row is a row by column; table a table's columns and rows.
type (
	row   map[string]string
	table struct {
		cols []string
		rows []row
	}
)

// snapshot reads every row of every table but schema_migrations (and SQLite's own and virtual
// tables), by table.
// snapshots counts the snapshots taken, to tell their statements apart.
var snapshots atomic.Int64

func snapshot(ctx context.Context, db *sql.DB, d Dialect) (map[string]table, error) {
	q := `SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\_%' ESCAPE '\'
		AND name <> 'schema_migrations' AND sql NOT LIKE 'CREATE VIRTUAL TABLE%'`
	quote := quoteSQLite
	if d == PostgreSQL {
		q = `SELECT c.relname FROM pg_class c WHERE c.relnamespace = current_schema()::regnamespace
			AND c.relkind IN ('r', 'p') AND c.relname <> 'schema_migrations'`
		quote = quotePostgres
	}
	names, err := column(ctx, db, q)
	if err != nil {
		return nil, err
	}
	out := map[string]table{}
	// Each snapshot's statements are written apart (a comment numbers them): pgx keeps a
	// connection's prepared statements, and a SELECT * prepared before a migration that adds a
	// column would be refused after it ("cached plan must not change result type").
	tag := fmt.Sprintf(" /* snapshot %d */", snapshots.Add(1))
	for _, name := range names {
		rows, err := db.QueryContext(ctx, "SELECT * FROM "+quote(name)+tag)
		if err != nil {
			return nil, fmt.Errorf("rows of %s: %w", name, err)
		}
		cols, err := rows.Columns()
		if err != nil {
			rows.Close()
			return nil, err
		}
		tb := table{cols: cols}
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				rows.Close()
				return nil, err
			}
			r := row{}
			for i, c := range cols {
				r[c] = Literal(vals[i])
			}
			tb.rows = append(tb.rows, r)
		}
		if err := rows.Close(); err != nil {
			return nil, err
		}
		out[name] = tb
	}
	return out, nil
}

// column returns the first column of the rows of q.
func column(ctx context.Context, db *sql.DB, q string) ([]string, error) {
	rows, err := db.QueryContext(ctx, q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// lost lists what before holds that after does not: tables and columns gone, and rows not
// found with the same values in the columns that remain (dropped names the tables and columns
// removed on purpose).
func lost(before, after map[string]table, dropped []string) []string {
	var problems []string
	names := make([]string, 0, len(before))
	for n := range before {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, name := range names {
		was, now := before[name], after[name]
		if len(was.rows) == 0 || slices.Contains(dropped, name) {
			continue
		}
		if now.cols == nil {
			problems = append(problems, fmt.Sprintf("table %s is gone with its %d rows", name, len(was.rows)))
			continue
		}
		var cols []string
		for _, c := range was.cols {
			switch {
			case slices.Contains(dropped, name+"."+c):
			case !slices.Contains(now.cols, c):
				problems = append(problems, fmt.Sprintf("column %s.%s is gone with its values", name, c))
			default:
				cols = append(cols, c)
			}
		}
		key := func(r row) string {
			var b strings.Builder
			for _, c := range cols {
				b.WriteString(c + "=" + r[c] + "; ")
			}
			return b.String()
		}
		found := map[string]int{}
		for _, r := range now.rows {
			found[key(r)]++
		}
		for _, r := range was.rows {
			if k := key(r); found[k] > 0 {
				found[k]--
			} else {
				problems = append(problems, fmt.Sprintf("table %s: the row %s is not found (or was changed)", name, k))
			}
		}
	}
	return problems
}
