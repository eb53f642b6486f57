// Package sqlmigrate applies numbered SQL migrations through database/sql, to SQLite and to
// PostgreSQL alike: the files migrations/NNNN_name.sql of an fs.FS, in the order of their
// number, each in a transaction of its own together with its row in schema_migrations. A
// migration that fails leaves nothing behind and is tried again at the next start.
//
// Several parts of a program may keep their tables in one database (the sandbox and its
// webhook outbox, the checkout and its outbox): each is a component, which numbers its
// migrations on its own. schema_migrations holds (component, version, name, applied_at).
//
// Processes starting together on one PostgreSQL database apply each migration once: Apply
// opens every transaction with PostgresLock, so that the others wait, then find it recorded.
// schema_migrations is created under that lock too, since two concurrent CREATE TABLE IF NOT
// EXISTS can still collide in PostgreSQL's catalogue.
//
// The SQL this package runs is the same text on both databases: parameters are written $1,
// $2, … (which the SQLite driver binds by number too). A migration file runs as one statement
// without arguments, which both drivers accept holding several statements.
package sqlmigrate

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// PostgresLock is the lock statement of PostgreSQL: a transaction-scoped advisory lock on a
// key nothing else uses (the bytes of "pixmigr1").
const PostgresLock = "SELECT pg_advisory_xact_lock(8100137816117703217)"

// Step is Go code that completes a migration inside its transaction (filling a table from
// others, for example), run after the migration's SQL.
type Step func(ctx context.Context, tx *sql.Tx) error

// Plan is what Apply does for one component.
type Plan struct {
	// Component names the part of the program the migrations belong to.
	Component string
	// FS holds migrations/NNNN_name.sql.
	FS fs.FS
	// Steps are run after the SQL of the migration with the same number.
	Steps map[int]Step
	// Baseline, when set, is called (in a transaction) when the component has no migration
	// recorded yet. It returns the number of the last migration that the database already
	// matches — 0 for a database the component has never used — so that a database made
	// before migrations were numbered is adopted rather than created again. It may change
	// the schema to reach that migration's shape.
	Baseline func(ctx context.Context, tx *sql.Tx) (int, error)
	// Unnamed: the component's migrations may be recorded in a schema_migrations made before
	// components were, of the columns (version, name, applied_at) alone. Apply converts such
	// a table first, its rows becoming this component's.
	Unnamed bool
}

// migration is one file of a Plan.
type migration struct {
	version int
	name    string // the file name, NNNN_name.sql
	sql     string
}

// Apply applies, plan after plan, the migrations not yet recorded, in the order of their
// number. lock, when not empty, is the statement that opens every transaction (PostgresLock on
// PostgreSQL); on SQLite, db should be the database's one writer connection.
func Apply(ctx context.Context, db *sql.DB, lock string, plans ...Plan) error {
	loaded := make([][]migration, len(plans))
	for i, p := range plans {
		ms, err := load(p.FS)
		if err != nil {
			return fmt.Errorf("%s migrations: %w", p.Component, err)
		}
		loaded[i] = ms
	}
	unnamed := ""
	for _, p := range plans {
		if p.Unnamed {
			unnamed = p.Component
		}
	}
	if err := inTx(ctx, db, lock, func(tx *sql.Tx) error { return prepare(ctx, tx, unnamed) }); err != nil {
		return fmt.Errorf("migrations: schema_migrations: %w", err)
	}
	for i, p := range plans {
		if err := apply(ctx, db, lock, p, loaded[i]); err != nil {
			return err
		}
	}
	return nil
}

// prepare makes schema_migrations, or converts one without components, giving its rows to the
// component unnamed.
func prepare(ctx context.Context, tx *sql.Tx, unnamed string) error {
	const columns = `(component TEXT NOT NULL, version INTEGER NOT NULL, name TEXT NOT NULL,
		applied_at BIGINT NOT NULL, PRIMARY KEY (component, version))`
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations `+columns); err != nil {
		return err
	}
	rows, err := tx.QueryContext(ctx, `SELECT * FROM schema_migrations WHERE 1 = 0`)
	if err != nil {
		return err
	}
	cols, err := rows.Columns()
	rows.Close()
	if err != nil || slices.Contains(cols, "component") {
		return err
	}
	if unnamed == "" {
		return fmt.Errorf("the table has no component column (columns %v) and no plan owns its rows", cols)
	}
	for _, q := range []string{
		`CREATE TABLE schema_migrations_components ` + columns,
		`INSERT INTO schema_migrations_components (component, version, name, applied_at)
			SELECT $1, version, name, applied_at FROM schema_migrations`,
		`DROP TABLE schema_migrations`,
		`ALTER TABLE schema_migrations_components RENAME TO schema_migrations`,
	} {
		var args []any
		if strings.Contains(q, "$1") {
			args = []any{unnamed}
		}
		if _, err := tx.ExecContext(ctx, q, args...); err != nil {
			return err
		}
	}
	return nil
}

// apply applies the migrations ms of p.
func apply(ctx context.Context, db *sql.DB, lock string, p Plan, ms []migration) error {
	if p.Baseline != nil {
		if err := inTx(ctx, db, lock, func(tx *sql.Tx) error { return baseline(ctx, tx, p, ms) }); err != nil {
			return fmt.Errorf("%s migrations: adopting an existing database: %w", p.Component, err)
		}
	}
	for _, m := range ms {
		err := inTx(ctx, db, lock, func(tx *sql.Tx) error {
			done, err := applied(ctx, tx, p.Component, m.version)
			if err != nil || done {
				return err
			}
			if _, err := tx.ExecContext(ctx, m.sql); err != nil {
				return err
			}
			if step := p.Steps[m.version]; step != nil {
				if err := step(ctx, tx); err != nil {
					return err
				}
			}
			return record(ctx, tx, p.Component, m)
		})
		if err != nil {
			return fmt.Errorf("%s migration %s: %w", p.Component, m.name, err)
		}
	}
	return nil
}

// baseline records, for a component without any migration recorded, the migrations that
// p.Baseline says the database already matches.
func baseline(ctx context.Context, tx *sql.Tx, p Plan, ms []migration) error {
	var adopted bool
	if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM schema_migrations WHERE component = $1)`,
		p.Component).Scan(&adopted); err != nil || adopted {
		return err
	}
	upTo, err := p.Baseline(ctx, tx)
	if err != nil {
		return err
	}
	for _, m := range ms {
		if m.version > upTo {
			break
		}
		if err := record(ctx, tx, p.Component, m); err != nil {
			return err
		}
	}
	return nil
}

// load reads and sorts the migrations of fsys.
func load(fsys fs.FS) ([]migration, error) {
	names, err := fs.Glob(fsys, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	var ms []migration
	seen := map[int]string{}
	for _, n := range names {
		base := path.Base(n)
		num, _, ok := strings.Cut(base, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v < 1 || len(num) != 4 {
			return nil, fmt.Errorf("%s is not named NNNN_name.sql", base)
		}
		if prev, dup := seen[v]; dup {
			return nil, fmt.Errorf("%s and %s have the same number", prev, base)
		}
		seen[v] = base
		b, err := fs.ReadFile(fsys, n)
		if err != nil {
			return nil, err
		}
		ms = append(ms, migration{version: v, name: base, sql: string(b)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].version < ms[j].version })
	return ms, nil
}

// applied reports whether migration version of component is recorded.
func applied(ctx context.Context, tx *sql.Tx, component string, version int) (bool, error) {
	var done bool
	err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM schema_migrations WHERE component = $1 AND version = $2)`,
		component, version).Scan(&done)
	return done, err
}

// record writes the row of an applied migration.
func record(ctx context.Context, tx *sql.Tx, component string, m migration) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (component, version, name, applied_at) VALUES ($1, $2, $3, $4)`,
		component, m.version, m.name, time.Now().UnixMilli())
	return err
}

// inTx runs fn in a transaction opened by lock (when set), committed when fn returns nil.
func inTx(ctx context.Context, db *sql.DB, lock string, fn func(tx *sql.Tx) error) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if lock != "" {
		if _, err := tx.ExecContext(ctx, lock); err != nil {
			_ = tx.Rollback()
			return fmt.Errorf("taking the migration lock: %w", err)
		}
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}
