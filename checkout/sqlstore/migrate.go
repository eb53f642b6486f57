package sqlstore

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"
)

// migration is one file migrations/NNNN_name.sql.
type migration struct {
	version int
	file    string
}

// migrations lists the migrations/*.sql files of fsys in the order of their number.
func migrations(fsys fs.FS) ([]migration, error) {
	names, err := fs.Glob(fsys, "migrations/*.sql")
	if err != nil {
		return nil, fmt.Errorf("listing migrations: %w", err)
	}
	var ms []migration
	seen := map[int]string{}
	for _, n := range names {
		base := path.Base(n)
		num, _, ok := strings.Cut(base, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v <= 0 {
			return nil, fmt.Errorf("migration %s is not named NNNN_name.sql", base)
		}
		if other, dup := seen[v]; dup {
			return nil, fmt.Errorf("migrations %s and %s have the same number", other, base)
		}
		seen[v] = base
		ms = append(ms, migration{v, n})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].version < ms[j].version })
	return ms, nil
}

// Migrate applies, in the order of their number, the migrations/NNNN_name.sql files of fsys not
// yet recorded in the table schema_migrations, each in a transaction of its own together with
// its record: a migration that fails leaves nothing behind and is tried again at the next start.
//
// Each transaction first runs d.MigrationLock, if any, so that processes starting together
// apply each migration once: the others wait, then find it recorded. schema_migrations is
// created under that lock too, since two concurrent CREATE TABLE IF NOT EXISTS can still
// collide in PostgreSQL's catalogue.
//
// A file runs as one statement without arguments, so that the drivers accept several SQL
// statements in it.
func Migrate(ctx context.Context, d Dialect, db DB, fsys fs.FS) error {
	list, err := migrations(fsys)
	if err != nil {
		return fmt.Errorf("%s: %w", d.Name, err)
	}
	for _, m := range list {
		body, err := fs.ReadFile(fsys, m.file)
		if err != nil {
			return fmt.Errorf("%s: reading %s: %w", d.Name, m.file, err)
		}
		err = db.WriteTx(ctx, func(tx Runner) error {
			if d.MigrationLock != "" {
				if err := tx.Run(ctx, Stmt{SQL: d.MigrationLock}); err != nil {
					return fmt.Errorf("taking the migration lock: %w", err)
				}
			}
			if err := tx.Run(ctx, Stmt{SQL: `CREATE TABLE IF NOT EXISTS schema_migrations (
				version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)`}); err != nil {
				return fmt.Errorf("creating schema_migrations: %w", err)
			}
			done := false
			err := tx.Run(ctx, Stmt{SQL: "SELECT 1 FROM schema_migrations WHERE version = $1", Args: []any{m.version},
				Rows: func(r Rows) error { done = r.Next(); return nil }})
			if err != nil || done {
				return err
			}
			if err := tx.Run(ctx, Stmt{SQL: string(body)}); err != nil {
				return err
			}
			return tx.Run(ctx, Stmt{SQL: "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
				Args: []any{m.version, path.Base(m.file), time.Now().UnixMilli()}})
		})
		if err != nil {
			return fmt.Errorf("%s: applying migration %s: %w", d.Name, path.Base(m.file), err)
		}
	}
	return nil
}
