package exports

import (
	"bufio"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// State is where a background export is: running, then ready or failed, never back.
type State string

// The states of a background export.
const (
	Running State = "running"
	Ready   State = "ready"
	Failed  State = "failed"
)

// Why a background export failed: codes the dashboard says in the reader's language.
const (
	ErrSource      = "source"      // the list could not be read to the end (the gateway failed)
	ErrInterrupted = "interrupted" // the server stopped while writing it
	ErrStore       = "store"       // the file could not be stored
)

// Retention is how long a finished background export (its file) is kept.
const Retention = 24 * time.Hour

// Heartbeat is how often at most a running export notes its progress, and
// Stale how long without a note makes it interrupted (its server stopped): several
// heartbeats, so that a slow page of the gateway is not taken for a stop.
const (
	Heartbeat = time.Second
	Stale     = time.Minute
)

// exportChunkSize is the size of the compressed pieces an export's file is stored in.
const exportChunkSize = 1 << 20

// Job is a background export of the dashboard: an export of more rows than one
// download streams, written by a worker of the server into the store, for the user who asked.
type Job struct {
	ID         string
	UserID     string
	Kind       string // deposits, withdrawals
	Format     string // csv, excel
	Query      string // the filter as asked
	State      State
	Total      int   // the rows the list counted when the export began
	Rows       int   // the rows written so far
	Size       int64 // the file's bytes (uncompressed), once ready
	Error      string
	CreatedAt  time.Time
	UpdatedAt  time.Time // the last heartbeat while running
	FinishedAt time.Time // zero while running
}

// Stale reports whether the job is running without a heartbeat since ExportStale before now:
// the server writing it stopped.
func (j *Job) Stale(now time.Time) bool {
	return j.State == Running && now.Sub(j.UpdatedAt) > Stale
}

// Store keeps the background exports and their files. Implementations must pass
// checkout/storetest.
type Store interface {
	// CreateExportJob stores a new job (running) unless it would pass lim
	// (Limits.Refuse's error), deciding and storing at once: of jobs asked at the same
	// instant, no more than the limits are stored.
	CreateExportJob(ctx context.Context, j Job, lim Limits) error
	// ExportJob returns a job, or checkout.ErrNotFound.
	ExportJob(ctx context.Context, id string) (*Job, error)
	// ExportJobs lists a user's jobs created since since, newest first.
	ExportJobs(ctx context.Context, userID string, since time.Time) ([]Job, error)
	// ExportUsage says, across all users and instances, how many jobs are running with a
	// heartbeat since staleBefore and how many bytes the stored pieces of all files hold.
	ExportUsage(ctx context.Context, staleBefore time.Time) (running int, kept int64, err error)
	// ExportProgress notes the rows written by a running job at at (its heartbeat).
	ExportProgress(ctx context.Context, id string, rows int, at time.Time) error
	// AppendExportChunk stores the piece seq (from 0) of a running job's file.
	AppendExportChunk(ctx context.Context, id string, seq int, data []byte) error
	// ExportChunk returns the piece seq of a job's file, or checkout.ErrNotFound past the last.
	ExportChunk(ctx context.Context, id string, seq int) ([]byte, error)
	// FinishExportJob moves a running job to ready or failed (with its error code), with its
	// rows and size, and writes the messages out (the user's alert) in the same transaction;
	// a job no longer running is left as it is, and out unwritten (checkout.ErrConflict).
	FinishExportJob(ctx context.Context, j Job, out ...checkout.OutboxMessage) error
	// FailStaleExports marks failed (ExportErrInterrupted) the running jobs without a
	// heartbeat since before, and says how many.
	FailStaleExports(ctx context.Context, before, now time.Time) (int, error)
	// PruneExports deletes the jobs (and their files) that ended before before.
	PruneExports(ctx context.Context, before time.Time) (int, error)
}

// Limits bound the background exports running at once, and the bytes the files of all
// keep, that a new one may join; a zero field sets no limit.
type Limits struct {
	PerUser int   // running jobs of the new job's user
	Running int   // running jobs of all users, on every instance
	Kept    int64 // compressed bytes the files of all jobs keep in the store
	// StaleBefore: a running job without a heartbeat since is not counted (its server
	// stopped). Exports.Create sets it.
	StaleBefore time.Time
}

// The refusals of a background export past its limits (code CodeRateLimited): the user's
// own running exports, or the exports of all users (running, or the bytes their files keep).
var (
	ErrExportsOfUser = &checkout.Error{Code: checkout.CodeRateLimited, Message: "too many of the user's exports are running"}
	ErrExportsBusy   = &checkout.Error{Code: checkout.CodeRateLimited, Message: "too many exports are running or kept"}
)

// Refuse says whether a new job may join mine running jobs of its user, all running jobs of
// all users and kept bytes of files: nil, ErrExportsOfUser or ErrExportsBusy.
func (l Limits) Refuse(mine, all int, kept int64) error {
	switch {
	case l.PerUser > 0 && mine >= l.PerUser:
		return ErrExportsOfUser
	case l.Running > 0 && all >= l.Running, l.Kept > 0 && kept >= l.Kept:
		return ErrExportsBusy
	}
	return nil
}

// Manager are the dashboard's background exports on their store.
type Manager struct {
	store Store
	now   func() time.Time
}

// NewManager returns the background exports on store; clock nil is time.Now.
func NewManager(store Store, clock func() time.Time) *Manager {
	if clock == nil {
		clock = time.Now
	}
	return &Manager{store: store, now: clock}
}

// Create stores a new running job for j's user, kind, format, query and total, unless it
// would pass lim: ErrExportsOfUser or ErrExportsBusy.
func (x *Manager) Create(ctx context.Context, j Job, lim Limits) (*Job, error) {
	now := x.now().UTC()
	j.ID, j.State, j.CreatedAt, j.UpdatedAt, j.Rows = checkout.NewID(), Running, now, now, 0
	lim.StaleBefore = now.Add(-Stale)
	if err := x.store.CreateExportJob(ctx, j, lim); err != nil {
		return nil, fmt.Errorf("exports: creating an export: %w", err)
	}
	return &j, nil
}

// Job returns a job, or checkout.ErrNotFound; a running job without a heartbeat for
// ExportStale is returned as failed (interrupted), as the next sweep will store it.
func (x *Manager) Job(ctx context.Context, id string) (*Job, error) {
	j, err := x.store.ExportJob(ctx, id)
	if err != nil {
		return nil, err
	}
	x.settle(j)
	return j, nil
}

// Jobs lists a user's jobs of the retention, newest first.
func (x *Manager) Jobs(ctx context.Context, userID string) ([]Job, error) {
	now := x.now()
	jobs, err := x.store.ExportJobs(ctx, userID, now.Add(-Retention))
	for i := range jobs {
		x.settle(&jobs[i])
	}
	return jobs, err
}

// Usage says how many jobs are running across all users and instances (a stale one is not
// counted: its server stopped) and the compressed bytes all jobs' files keep in the store.
func (x *Manager) Usage(ctx context.Context) (running int, kept int64, err error) {
	running, kept, err = x.store.ExportUsage(ctx, x.now().UTC().Add(-Stale))
	if err != nil {
		return 0, 0, fmt.Errorf("exports: reading the exports' usage: %w", err)
	}
	return running, kept, nil
}

func (x *Manager) settle(j *Job) {
	if now := x.now(); j.Stale(now) {
		j.State, j.Error, j.FinishedAt = Failed, ErrInterrupted, j.UpdatedAt
	}
}

// Progress notes the rows a running job has written (its heartbeat).
func (x *Manager) Progress(ctx context.Context, id string, rows int) error {
	return x.store.ExportProgress(ctx, id, rows, x.now().UTC())
}

// Finish ends a running job: ready with its rows and size, or failed with code. The messages
// out (the e-mail saying it is ready) are written with the change, or not at all.
func (x *Manager) Finish(ctx context.Context, j *Job, rows int, size int64, code string, out ...checkout.OutboxMessage) error {
	j.Rows, j.Size, j.FinishedAt, j.UpdatedAt = rows, size, x.now().UTC(), x.now().UTC()
	j.State, j.Error = Ready, ""
	if code != "" {
		j.State, j.Error = Failed, code
	}
	return x.store.FinishExportJob(ctx, *j, out...)
}

// Prune marks failed the jobs whose server stopped writing them and deletes the jobs (and
// files) that ended more than ExportRetention ago; it says how many it deleted.
func (x *Manager) Prune(ctx context.Context) (int, error) {
	now := x.now().UTC()
	_, err := x.store.FailStaleExports(ctx, now.Add(-Stale), now)
	n, err2 := x.store.PruneExports(ctx, now.Add(-Retention))
	return n, errors.Join(err, err2)
}

// Writer returns the writer of job id's file: what is written is compressed (gzip) and
// stored in pieces of about a megabyte; Close stores the last piece. Size is the bytes
// written so far.
func (x *Manager) Writer(ctx context.Context, id string) *Writer {
	w := &Writer{ctx: ctx, store: x.store, id: id}
	w.zw, _ = gzip.NewWriterLevel(&w.chunks, gzip.BestSpeed)
	w.buf = bufio.NewWriterSize(w.zw, 64<<10)
	return w
}

// Writer writes a background export's file into the store.
type Writer struct {
	ctx    context.Context
	store  Store
	id     string
	chunks chunkBuffer
	zw     *gzip.Writer
	buf    *bufio.Writer
	size   int64
	seq    int
	err    error
}

// chunkBuffer gathers compressed bytes until a piece is full.
type chunkBuffer struct{ b []byte }

func (c *chunkBuffer) Write(p []byte) (int, error) { c.b = append(c.b, p...); return len(p), nil }

// Write writes p to the file.
func (w *Writer) Write(p []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	n, err := w.buf.Write(p)
	w.size += int64(n)
	if err != nil {
		w.err = err
		return n, err
	}
	for len(w.chunks.b) >= exportChunkSize && w.err == nil {
		w.store1(w.chunks.b[:exportChunkSize])
		w.chunks.b = append(w.chunks.b[:0], w.chunks.b[exportChunkSize:]...)
	}
	return n, w.err
}

func (w *Writer) store1(data []byte) {
	if err := w.store.AppendExportChunk(w.ctx, w.id, w.seq, data); err != nil {
		w.err = fmt.Errorf("exports: storing a piece of an export: %w", err)
		return
	}
	w.seq++
}

// Size is the number of bytes written.
func (w *Writer) Size() int64 { return w.size }

// Close ends the compression and stores what remains.
func (w *Writer) Close() error {
	if w.err != nil {
		return w.err
	}
	if err := w.buf.Flush(); err != nil {
		return err
	}
	if err := w.zw.Close(); err != nil {
		return err
	}
	for len(w.chunks.b) > 0 && w.err == nil {
		n := min(len(w.chunks.b), exportChunkSize)
		w.store1(w.chunks.b[:n])
		w.chunks.b = w.chunks.b[n:]
	}
	return w.err
}

// Open returns the content of job id's file, read a piece at a time from the store.
func (x *Manager) Open(ctx context.Context, id string) (io.ReadCloser, error) {
	cr := &chunkReader{ctx: ctx, store: x.store, id: id}
	zr, err := gzip.NewReader(cr)
	if err != nil {
		return nil, fmt.Errorf("exports: opening an export: %w", err)
	}
	return zr, nil
}

// chunkReader reads the pieces of a file in order.
type chunkReader struct {
	ctx   context.Context
	store Store
	id    string
	seq   int
	cur   []byte
	done  bool
}

func (r *chunkReader) Read(p []byte) (int, error) {
	for len(r.cur) == 0 {
		if r.done {
			return 0, io.EOF
		}
		data, err := r.store.ExportChunk(r.ctx, r.id, r.seq)
		if errors.Is(err, checkout.ErrNotFound) {
			r.done = true
			continue
		}
		if err != nil {
			return 0, err
		}
		r.cur, r.seq = data, r.seq+1
	}
	n := copy(p, r.cur)
	r.cur = r.cur[n:]
	return n, nil
}
