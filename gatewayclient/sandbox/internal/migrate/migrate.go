// Package migrate applies numbered SQL migrations to a SQLite database: the files
// migrations/NNNN_name.sql of an fs.FS, in order of their number, each in its own
// transaction together with its row in schema_migrations. A migration that fails leaves
// nothing behind and is tried again at the next start.
//
// Several parts of a program may keep their tables in one database (the sandbox and its
// webhook outbox do): each names itself (component) and numbers its migrations on its own.
package migrate

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"
)

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
}

// migration is one file of a Plan.
type migration struct {
	version int
	name    string // the file name, NNNN_name.sql
	sql     string
}

// Apply applies the migrations of p not yet recorded, in order of their number. db should
// be the database's one writer connection.
func Apply(ctx context.Context, db *sql.DB, p Plan) error {
	ms, err := load(p.FS)
	if err != nil {
		return fmt.Errorf("%s migrations: %w", p.Component, err)
	}
	if _, err := db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		component  TEXT    NOT NULL,
		version    INTEGER NOT NULL,
		name       TEXT    NOT NULL,
		applied_at INTEGER NOT NULL,
		PRIMARY KEY (component, version)
	) WITHOUT ROWID`); err != nil {
		return fmt.Errorf("%s migrations: creating schema_migrations: %w", p.Component, err)
	}
	if p.Baseline != nil {
		if err := baseline(ctx, db, p, ms); err != nil {
			return err
		}
	}
	for _, m := range ms {
		err := inTx(ctx, db, func(tx *sql.Tx) error {
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
func baseline(ctx context.Context, db *sql.DB, p Plan, ms []migration) error {
	err := inTx(ctx, db, func(tx *sql.Tx) error {
		var adopted bool
		if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM schema_migrations WHERE component = ?)`,
			p.Component).Scan(&adopted); err != nil {
			return err
		}
		if adopted {
			return nil
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
	})
	if err != nil {
		return fmt.Errorf("%s migrations: adopting an existing database: %w", p.Component, err)
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
	err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM schema_migrations WHERE component = ? AND version = ?)`,
		component, version).Scan(&done)
	return done, err
}

// record writes the row of an applied migration.
func record(ctx context.Context, tx *sql.Tx, component string, m migration) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (component, version, name, applied_at) VALUES (?, ?, ?, ?)`,
		component, m.version, m.name, time.Now().UnixMilli())
	return err
}

// inTx runs fn in a transaction, committed when fn returns nil.
func inTx(ctx context.Context, db *sql.DB, fn func(tx *sql.Tx) error) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}
