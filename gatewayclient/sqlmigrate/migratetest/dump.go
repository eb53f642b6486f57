// Package migratetest tests the migrations of a sqlmigrate.Plan: Dump writes a database's
// schema and rows as normalised text, so that the schema a release's baseline makes can be
// compared with a fixture (CheckFixture), and Upgrade checks that a database of each release,
// holding sample rows, keeps them through every migration numbered after that release.
//
// It is test support: only tests import it.
package migratetest

import (
	"context"
	"database/sql"
	"encoding/hex"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Dialect is the database a Dump reads.
type Dialect int

// The databases.
const (
	SQLite Dialect = iota
	PostgreSQL
)

// Dump returns the schema of db and the rows of its tables (but schema_migrations, whose
// times differ), as text that is the same for two databases of the same schema and rows
// whatever the order and spacing in which they were made: on SQLite the statements of
// sqlite_schema, normalised (tables, the shadow tables of virtual ones, indexes, views,
// triggers, by name); on PostgreSQL a description of the current schema (current_schema())
// from the catalogue — columns in order with their types, defaults, identity and
// nullability, constraints, indexes, triggers, functions, sequences — as PostgreSQL prints
// each definition back. Rows are INSERT statements, sorted.
func Dump(ctx context.Context, db *sql.DB, d Dialect) (string, error) {
	if d == PostgreSQL {
		return dumpPostgres(ctx, db)
	}
	return dumpSQLite(ctx, db)
}

// CheckFixture compares got with the file path (a dump, say). A missing file is written, and
// the test fails asking for it to be committed: a release's fixture is made once, from the
// schema that release ships, and never rewritten.
func CheckFixture(t testing.TB, path, got string) {
	t.Helper()
	want, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Fatalf("%s did not exist: written now; check it and commit it", path)
	}
	if err != nil {
		t.Fatal(err)
	}
	if string(want) != got {
		t.Errorf("the dump differs from %s:\n%s", path, Diff(string(want), got))
	}
}

// Diff lists the lines of a missing from b (-) and of b missing from a (+).
func Diff(a, b string) string {
	as, bs := strings.Split(a, "\n"), strings.Split(b, "\n")
	count := map[string]int{}
	for _, l := range bs {
		count[l]++
	}
	var out []string
	for _, l := range as {
		if count[l] > 0 {
			count[l]--
			continue
		}
		out = append(out, "- "+l)
	}
	count = map[string]int{}
	for _, l := range as {
		count[l]++
	}
	for _, l := range bs {
		if count[l] > 0 {
			count[l]--
			continue
		}
		out = append(out, "+ "+l)
	}
	return strings.Join(out, "\n")
}

// dumpSQLite dumps an SQLite database.
func dumpSQLite(ctx context.Context, db *sql.DB) (string, error) {
	type object struct{ typ, name, sql string }
	var objs []object
	rows, err := db.QueryContext(ctx, `SELECT type, name, sql FROM sqlite_schema
		WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\_%' ESCAPE '\' AND name <> 'schema_migrations'`)
	if err != nil {
		return "", err
	}
	for rows.Next() {
		var o object
		if err := rows.Scan(&o.typ, &o.name, &o.sql); err != nil {
			rows.Close()
			return "", err
		}
		objs = append(objs, o)
	}
	if err := rows.Close(); err != nil {
		return "", err
	}
	order := map[string]int{"table": 0, "index": 1, "view": 2, "trigger": 3}
	slices.SortFunc(objs, func(a, b object) int {
		if c := order[a.typ] - order[b.typ]; c != 0 {
			return c
		}
		return strings.Compare(a.name, b.name)
	})
	var b strings.Builder
	var tables []string
	for _, o := range objs {
		s := NormaliseSQL(o.sql)
		if o.typ == "table" && !strings.HasPrefix(s, "CREATE VIRTUAL TABLE") {
			tables = append(tables, o.name)
		}
		b.WriteString(s + ";\n")
	}
	for _, t := range tables {
		ins, err := tableRows(ctx, db, t, quoteSQLite)
		if err != nil {
			return "", fmt.Errorf("rows of %s: %w", t, err)
		}
		b.WriteString(ins)
	}
	return b.String(), nil
}

func quoteSQLite(name string) string { return `"` + strings.ReplaceAll(name, `"`, `""`) + `"` }

// tableRows returns the rows of table as sorted INSERT statements.
func tableRows(ctx context.Context, db *sql.DB, table string, quote func(string) string) (string, error) {
	rows, err := db.QueryContext(ctx, "SELECT * FROM "+quote(table))
	if err != nil {
		return "", err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return "", err
	}
	var lines []string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return "", err
		}
		lits := make([]string, len(vals))
		for i, v := range vals {
			lits[i] = Literal(v)
		}
		lines = append(lines, "INSERT INTO "+table+" ("+strings.Join(cols, ", ")+") VALUES ("+strings.Join(lits, ", ")+");\n")
	}
	if err := rows.Err(); err != nil {
		return "", err
	}
	slices.Sort(lines)
	return strings.Join(lines, ""), nil
}

// Literal writes v, a value scanned from a row, as an SQL literal.
func Literal(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case int64:
		return strconv.FormatInt(x, 10)
	case int32:
		return strconv.FormatInt(int64(x), 10)
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1e15 {
			return strconv.FormatFloat(x, 'f', 1, 64)
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	case bool:
		if x {
			return "TRUE"
		}
		return "FALSE"
	case []byte:
		return "X'" + hex.EncodeToString(x) + "'"
	case string:
		return "'" + strings.ReplaceAll(x, "'", "''") + "'"
	case time.Time:
		return "'" + x.UTC().Format(time.RFC3339Nano) + "'"
	default:
		return fmt.Sprintf("'%v'", x)
	}
}

// NormaliseSQL returns the statement s with its comments removed and its spacing made
// canonical (one space between tokens, none around parentheses nor before a comma), so that
// two statements that differ only there compare equal.
func NormaliseSQL(s string) string {
	var b strings.Builder
	space := false
	for i := 0; i < len(s); {
		tok, next, blank := sqlToken(s, i)
		i = next
		if blank {
			space = true
			continue
		}
		if space && b.Len() > 0 {
			if last := b.String()[b.Len()-1]; last != '(' && tok != "(" && tok != ")" && tok != "," {
				b.WriteByte(' ')
			}
		}
		space = tok == "," || tok == ";"
		b.WriteString(tok)
	}
	return strings.TrimSuffix(strings.TrimSpace(b.String()), ";")
}

// sqlToken reads the token of s at i: a quoted or dollar-quoted string, a punctuation mark, a
// word, or a comment or spacing (blank); next is where the one after it starts.
func sqlToken(s string, i int) (tok string, next int, blank bool) {
	if end, ok := blankEnd(s, i); ok {
		return "", end, true
	}
	c := s[i]
	switch {
	case strings.IndexByte("'\"`[", c) >= 0:
		j := quotedEnd(s, i)
		return s[i:min(j+1, len(s))], j + 1, false
	case c == '$' && i+1 < len(s) && (s[i+1] == '$' || isIdent(s[i+1])):
		return dollarQuoted(s, i)
	case strings.IndexByte("(),;", c) >= 0:
		return string(c), i + 1, false
	}
	j := wordEnd(s, i)
	return s[i:j], j, false
}

// blankEnd is the end of the comment or the spacing character at i, if one is there.
func blankEnd(s string, i int) (int, bool) {
	switch {
	case strings.HasPrefix(s[i:], "--"):
		if j := strings.IndexByte(s[i:], '\n'); j >= 0 {
			return i + j + 1, true
		}
		return len(s), true
	case strings.HasPrefix(s[i:], "/*"):
		if j := strings.Index(s[i+2:], "*/"); j >= 0 {
			return i + j + 4, true
		}
		return len(s), true
	case strings.IndexByte(" \t\n\r", s[i]) >= 0:
		return i + 1, true
	}
	return i, false
}

// quotedEnd is the index of the quote closing the string or identifier quoted at i (a doubled
// quote inside is no end), or len(s).
func quotedEnd(s string, i int) int {
	end := s[i]
	if end == '[' {
		end = ']'
	}
	j := i + 1
	for ; j < len(s); j++ {
		if s[j] != end {
			continue
		}
		if end == ']' || j+1 >= len(s) || s[j+1] != end {
			break
		}
		j++ // a doubled quote
	}
	return j
}

// dollarQuoted reads a PostgreSQL dollar-quoted body at i, $$…$$ or $tag$…$tag$, kept as it is.
func dollarQuoted(s string, i int) (tok string, next int, blank bool) {
	k := strings.IndexByte(s[i+1:], '$')
	if k < 0 {
		return "$", i + 1, false
	}
	tag := s[i : i+k+2]
	end := strings.Index(s[i+len(tag):], tag)
	if end < 0 {
		return s[i:], len(s), false
	}
	n := i + 2*len(tag) + end
	return s[i:n], n, false
}

// wordEnd is the end of the word at i: up to spacing, punctuation, a quote or a comment.
func wordEnd(s string, i int) int {
	j := i
	for j < len(s) && !strings.ContainsRune(" \t\n\r(),;'\"`[", rune(s[j])) && !strings.HasPrefix(s[j:], "--") {
		j++
	}
	return max(j, i+1)
}

func isIdent(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
