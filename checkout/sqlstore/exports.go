package sqlstore

import (
	"context"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/exports"
)

var _ exports.Store = (*Store)(nil)

const exportJobColumns = `id, user_id, kind, format, query, state, total, rows_written, size, error, created_at, updated_at, finished_at`

// CreateExportJob stores a new background export unless it would pass lim: the counts and the
// insert are one write transaction, which on SQLite holds the database and on PostgreSQL
// first locks export_jobs against other creations (and against heartbeats, for as long), so
// two exports asked at once cannot both pass.
func (s *Store) CreateExportJob(ctx context.Context, j exports.Job, lim exports.Limits) error {
	var all, mine int
	var kept int64
	var stmts []Stmt
	if s.d.RowLocks {
		stmts = append(stmts, Stmt{SQL: `LOCK TABLE export_jobs IN SHARE ROW EXCLUSIVE MODE`})
	}
	stmts = append(stmts, Stmt{SQL: `SELECT COUNT(*), COUNT(CASE WHEN user_id = $1 THEN 1 END) FROM export_jobs
			WHERE state = 'running' AND updated_at >= $2`,
		Args: []any{j.UserID, ms(lim.StaleBefore)}, Rows: each(func(r Rows) error { return r.Scan(&all, &mine) })},
		Stmt{SQL: `SELECT COALESCE(SUM(LENGTH(data)), 0) FROM export_chunks`, Rows: each(func(r Rows) error { return r.Scan(&kept) })})
	err := s.db.WriteTx(ctx, func(tx Runner) error {
		if err := tx.Run(ctx, stmts...); err != nil {
			return err
		}
		if err := lim.Refuse(mine, all, kept); err != nil {
			return err
		}
		return tx.Run(ctx, Stmt{SQL: `INSERT INTO export_jobs (` + exportJobColumns + `)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
			Args: []any{j.ID, j.UserID, j.Kind, j.Format, j.Query, string(j.State), j.Total, j.Rows, j.Size, j.Error,
				ms(j.CreatedAt), ms(j.UpdatedAt), ms(j.FinishedAt)}})
	})
	if err != nil {
		return s.errorf("storing an export: %w", err)
	}
	return nil
}

// readExportJobs reads jobs into out.
func readExportJobs(where string, args []any, out *[]exports.Job) Stmt {
	return Stmt{SQL: `SELECT ` + exportJobColumns + ` FROM export_jobs ` + where, Args: args,
		Rows: each(func(r Rows) error {
			var j exports.Job
			var state string
			var created, updated, finished int64
			if err := r.Scan(&j.ID, &j.UserID, &j.Kind, &j.Format, &j.Query, &state, &j.Total, &j.Rows, &j.Size, &j.Error,
				&created, &updated, &finished); err != nil {
				return err
			}
			j.State = exports.State(state)
			j.CreatedAt, j.UpdatedAt, j.FinishedAt = fromMS(created), fromMS(updated), fromMS(finished)
			*out = append(*out, j)
			return nil
		})}
}

// ExportJob returns a job, or checkout.ErrNotFound.
func (s *Store) ExportJob(ctx context.Context, id string) (*exports.Job, error) {
	if !s.storable(id) {
		return nil, checkout.ErrNotFound
	}
	var out []exports.Job
	if err := s.db.Read(ctx, readExportJobs(`WHERE id = $1`, []any{id}, &out)); err != nil {
		return nil, s.errorf("reading an export: %w", err)
	}
	if len(out) == 0 {
		return nil, checkout.ErrNotFound
	}
	return &out[0], nil
}

// ExportJobs lists a user's jobs created since since, newest first.
func (s *Store) ExportJobs(ctx context.Context, userID string, since time.Time) ([]exports.Job, error) {
	if !s.storable(userID) {
		return nil, nil
	}
	var out []exports.Job
	err := s.db.Read(ctx, readExportJobs(`WHERE user_id = $1 AND created_at >= $2 ORDER BY created_at DESC, id DESC`,
		[]any{userID, ms(since)}, &out))
	if err != nil {
		return nil, s.errorf("listing exports: %w", err)
	}
	return out, nil
}

// ExportUsage counts the running jobs with a heartbeat since staleBefore and sums the bytes
// of all stored pieces (length of a blob/bytea is its bytes in both dialects).
func (s *Store) ExportUsage(ctx context.Context, staleBefore time.Time) (int, int64, error) {
	var running int
	var kept int64
	err := s.db.Read(ctx, Stmt{SQL: `SELECT COUNT(*) FROM export_jobs WHERE state = 'running' AND updated_at >= $1`,
		Args: []any{ms(staleBefore)}, Rows: each(func(r Rows) error { return r.Scan(&running) })})
	if err == nil {
		err = s.db.Read(ctx, Stmt{SQL: `SELECT COALESCE(SUM(LENGTH(data)), 0) FROM export_chunks`,
			Rows: each(func(r Rows) error { return r.Scan(&kept) })})
	}
	if err != nil {
		return 0, 0, s.errorf("reading the exports' usage: %w", err)
	}
	return running, kept, nil
}

// ExportProgress notes a running job's rows and heartbeat.
func (s *Store) ExportProgress(ctx context.Context, id string, rows int, at time.Time) error {
	err := s.db.Write(ctx, Stmt{SQL: `UPDATE export_jobs SET rows_written = $1, updated_at = $2 WHERE id = $3 AND state = 'running'`,
		Args: []any{rows, ms(at), id}})
	if err != nil {
		return s.errorf("noting an export's progress: %w", err)
	}
	return nil
}

// AppendExportChunk stores a piece of a running job's file.
func (s *Store) AppendExportChunk(ctx context.Context, id string, seq int, data []byte) error {
	err := s.db.Write(ctx, Stmt{SQL: `INSERT INTO export_chunks (job_id, seq, data) VALUES ($1, $2, $3)`,
		Args: []any{id, seq, data}})
	if err != nil {
		return s.errorf("storing a piece of an export: %w", err)
	}
	return nil
}

// ExportChunk returns a piece of a job's file, or checkout.ErrNotFound past the last.
func (s *Store) ExportChunk(ctx context.Context, id string, seq int) ([]byte, error) {
	var data []byte
	found := false
	err := s.db.Read(ctx, Stmt{SQL: `SELECT data FROM export_chunks WHERE job_id = $1 AND seq = $2`, Args: []any{id, seq},
		Rows: each(func(r Rows) error { found = true; return r.Scan(&data) })})
	if err != nil {
		return nil, s.errorf("reading a piece of an export: %w", err)
	}
	if !found {
		return nil, checkout.ErrNotFound
	}
	return data, nil
}

// FinishExportJob moves a running job to its end state; one no longer running is left alone
// (checkout.ErrConflict). A failed job's pieces are deleted with it: nobody can download them.
// The messages out are written in the same transaction.
func (s *Store) FinishExportJob(ctx context.Context, j exports.Job, out ...checkout.OutboxMessage) error {
	msgs, err := OutboxStatements(out...)
	if err != nil {
		return s.errorf("finishing an export: %w", err)
	}
	stmts := []Stmt{{SQL: `UPDATE export_jobs SET state = $1, error = $2, rows_written = $3, size = $4,
		updated_at = $5, finished_at = $6 WHERE id = $7 AND state = 'running'`,
		Args: []any{string(j.State), j.Error, j.Rows, j.Size, ms(j.UpdatedAt), ms(j.FinishedAt), j.ID},
		Affected: func(n int64) error {
			if n != 1 {
				return checkout.ErrConflict
			}
			return nil
		}}}
	if j.State == exports.Failed {
		stmts = append(stmts, Stmt{SQL: `DELETE FROM export_chunks WHERE job_id = $1`, Args: []any{j.ID}})
	}
	stmts = append(stmts, msgs...)
	err = s.db.WriteTx(ctx, func(tx Runner) error { return tx.Run(ctx, stmts...) })
	if err != nil {
		return s.errorf("finishing an export: %w", err)
	}
	return nil
}

// FailStaleExports marks failed the running jobs without a heartbeat since before, and
// deletes what they had stored of their files.
func (s *Store) FailStaleExports(ctx context.Context, before, now time.Time) (int, error) {
	var n int64
	err := s.db.WriteTx(ctx, func(tx Runner) error {
		return tx.Run(ctx,
			Stmt{SQL: `DELETE FROM export_chunks WHERE job_id IN (SELECT id FROM export_jobs WHERE state = 'running' AND updated_at < $1)`,
				Args: []any{ms(before)}},
			Stmt{SQL: `UPDATE export_jobs SET state = 'failed', error = $1, finished_at = $2 WHERE state = 'running' AND updated_at < $3`,
				Args: []any{exports.ErrInterrupted, ms(now), ms(before)}, Affected: func(v int64) error { n = v; return nil }})
	})
	if err != nil {
		return 0, s.errorf("failing interrupted exports: %w", err)
	}
	return int(n), nil
}

// PruneExports deletes the jobs that ended before before, with their files.
func (s *Store) PruneExports(ctx context.Context, before time.Time) (int, error) {
	var n int64
	err := s.db.WriteTx(ctx, func(tx Runner) error {
		return tx.Run(ctx,
			Stmt{SQL: `DELETE FROM export_chunks WHERE job_id IN (SELECT id FROM export_jobs WHERE state <> 'running' AND finished_at < $1)`,
				Args: []any{ms(before)}},
			Stmt{SQL: `DELETE FROM export_jobs WHERE state <> 'running' AND finished_at < $1`,
				Args: []any{ms(before)}, Affected: func(v int64) error { n = v; return nil }})
	})
	if err != nil {
		return 0, s.errorf("pruning exports: %w", err)
	}
	return int(n), nil
}
