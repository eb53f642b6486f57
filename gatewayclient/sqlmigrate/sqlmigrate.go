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
// A plan starts at a baseline: the migration that makes, on an empty database, the whole schema
// of the program's first release (Plan.Releases). Later migrations are numbered after it. A
// database whose records this plan cannot continue (a development build's older chain, or a
// later release's migrations) is refused whole, before any migration runs.
//
// The SQL this package runs is the same text on both databases: parameters are written $1,
// $2, … (which the SQLite driver binds by number too). A migration file runs as one statement
// without arguments, which both drivers accept holding several statements.
package sqlmigrate

import (
	"context"
	"database/sql"
	"errors"
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
	// Releases are the program's releases that shipped the plan, oldest first. The first one's
	// Last is the plan's baseline: the migration that makes the whole schema of that release on
	// an empty database. No migration is numbered before it, and a database holding records of
	// migrations before it (made by a development build older than the first release) is
	// refused, as one holding records of migrations the plan does not have (made by a later
	// release).
	Releases []Release
}

// Release is a release of the program: its name (0.1.0) and the number of the plan's last
// migration it shipped.
type Release struct {
	Name string
	Last int
}

// ForeignError is the error of Apply on a database whose schema_migrations records migrations
// of a component that the component's plan does not have: the database was made by another
// version of the program, which this one must not half-migrate.
type ForeignError struct {
	Component string
	// Versions are the unknown migrations recorded; none when schema_migrations predates
	// components altogether.
	Versions []int
	// Baseline is the plan's first release (zero when the plan has none).
	Baseline Release
}

func (e *ForeignError) Error() string {
	if len(e.Versions) == 0 {
		return "schema_migrations has no component column: the database was made by a development build older than the first release, which cannot be upgraded"
	}
	which := fmt.Sprintf("%04d", e.Versions[0])
	if n := len(e.Versions); n > 1 {
		which = fmt.Sprintf("%04d–%04d (%d of them)", e.Versions[0], e.Versions[n-1], n)
	}
	if e.Baseline.Name != "" && e.Versions[0] < e.Baseline.Last {
		return fmt.Sprintf("the database records %s migrations %s, from before release %s (whose schema starts at migration %04d): it was made by a development build older than the first release, which cannot be upgraded",
			e.Component, which, e.Baseline.Name, e.Baseline.Last)
	}
	return fmt.Sprintf("the database records %s migrations %s that this program does not have: it was made by a later version", e.Component, which)
}

// migration is one file of a Plan.
type migration struct {
	version int
	name    string // the file name, NNNN_name.sql
	sql     string
}

// Apply applies, plan after plan, the migrations not yet recorded, in the order of their
// number. lock, when not empty, is the statement that opens every transaction (PostgresLock on
// PostgreSQL); on SQLite, db should be the database's one writer connection. A database made by
// another version of the program (see Plan.Releases) is refused with a *ForeignError before
// anything is applied.
func Apply(ctx context.Context, db *sql.DB, lock string, plans ...Plan) error {
	loaded := make([][]migration, len(plans))
	recorded := make([]map[int]bool, len(plans))
	for i, p := range plans {
		ms, err := load(p)
		if err != nil {
			return fmt.Errorf("%s migrations: %w", p.Component, err)
		}
		loaded[i] = ms
	}
	err := inTx(ctx, db, lock, func(tx *sql.Tx) error {
		if err := prepare(ctx, tx); err != nil {
			return err
		}
		for i, p := range plans {
			var err error
			if recorded[i], err = foreign(ctx, tx, p, loaded[i]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		var fe *ForeignError
		if errors.As(err, &fe) {
			return err
		}
		return fmt.Errorf("migrations: schema_migrations: %w", err)
	}
	for i, p := range plans {
		if err := apply(ctx, db, lock, p, loaded[i], recorded[i]); err != nil {
			return err
		}
	}
	return nil
}

// prepare makes schema_migrations, and refuses one made before components.
func prepare(ctx context.Context, tx *sql.Tx) error {
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (component TEXT NOT NULL,
		version INTEGER NOT NULL, name TEXT NOT NULL, applied_at BIGINT NOT NULL, PRIMARY KEY (component, version))`); err != nil {
		return err
	}
	rows, err := tx.QueryContext(ctx, `SELECT * FROM schema_migrations WHERE 1 = 0`)
	if err != nil {
		return err
	}
	cols, err := rows.Columns()
	rows.Close()
	if err == nil && !slices.Contains(cols, "component") {
		return &ForeignError{}
	}
	return err
}

// foreign returns the versions of p the database records, or a *ForeignError when it records
// migrations of p that ms does not hold.
func foreign(ctx context.Context, tx *sql.Tx, p Plan, ms []migration) (map[int]bool, error) {
	rows, err := tx.QueryContext(ctx, `SELECT version FROM schema_migrations WHERE component = $1 ORDER BY version`, p.Component)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	known := map[int]bool{}
	for _, m := range ms {
		known[m.version] = true
	}
	fe := &ForeignError{Component: p.Component}
	if len(p.Releases) > 0 {
		fe.Baseline = p.Releases[0]
	}
	recorded := map[int]bool{}
	for rows.Next() {
		var v int
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		recorded[v] = true
		if !known[v] {
			fe.Versions = append(fe.Versions, v)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(fe.Versions) > 0 {
		return nil, fe
	}
	return recorded, nil
}

// apply applies the migrations ms of p. Those recorded when Apply began are skipped without a
// transaction each (a database already up to date costs one query at start); the others are
// checked again inside their transaction, under the lock, since another instance may be
// applying them at the same time.
func apply(ctx context.Context, db *sql.DB, lock string, p Plan, ms []migration, recorded map[int]bool) error {
	for _, m := range ms {
		if recorded[m.version] {
			continue
		}
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

// load reads and sorts the migrations of p.
func load(p Plan) ([]migration, error) {
	fsys := p.FS
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
		if len(p.Releases) > 0 && v < p.Releases[0].Last {
			return nil, fmt.Errorf("%s is numbered before %04d, the baseline of release %s: number it after the last migration",
				base, p.Releases[0].Last, p.Releases[0].Name)
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
