package storetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/exports"
)

// exportsCase is the state the exports' steps share: two jobs of two users, on a clock the
// steps move.
type exportsCase struct {
	s          AccountStores
	x          *exports.Manager
	now        time.Time
	job, other *exports.Job
	file       []byte
}

// testExports: a background export from its creation to its pruning, its file stored in
// pieces and read back whole, a job interrupted by a stopped server, and the states only
// moving forward.
func testExports(t *testing.T, s AccountStores) {
	c := &exportsCase{s: s, now: base}
	c.x = exports.NewManager(s, func() time.Time { return c.now })
	t.Run("Progress", c.testProgress)
	t.Run("File", c.testFile)
	t.Run("Failed", c.testFailed)
	t.Run("Interrupted", c.testInterrupted)
	t.Run("Pruned", c.testPruned)
}

// testProgress: two jobs of two users, one moving on; usage counts, across users, the jobs
// running and the bytes their files keep.
func (c *exportsCase) testProgress(t *testing.T) {
	ctx := context.Background()
	var err error
	c.job, err = c.x.Create(ctx, exports.Job{UserID: "u1", Kind: "deposits", Format: "excel", Query: "status=PAID", Total: 150000}, exports.Limits{})
	must(t, err)
	c.other, err = c.x.Create(ctx, exports.Job{UserID: "u2", Kind: "withdrawals", Format: "csv", Total: 200000}, exports.Limits{})
	must(t, err)
	_, err = c.x.Job(ctx, "nope")
	sameErr(t, "an unknown job", err, checkout.ErrNotFound)
	c.now = c.now.Add(2 * time.Second)
	must(t, c.x.Progress(ctx, c.job.ID, 500))
	got, err := c.x.Job(ctx, c.job.ID)
	if err != nil || got.State != exports.Running || got.Rows != 500 || got.Total != 150000 || got.Query != "status=PAID" ||
		got.Format != "excel" || got.Kind != "deposits" || !got.UpdatedAt.Equal(c.now) || !got.CreatedAt.Equal(base) {
		t.Fatalf("after progress: %+v, %v", got, err)
	}
	if jobs, err := c.x.Jobs(ctx, "u1"); err != nil || len(jobs) != 1 || jobs[0].ID != c.job.ID {
		t.Fatalf("u1's jobs: %+v, %v", jobs, err)
	}
	running, kept, err := c.x.Usage(ctx)
	must(t, err)
	same(t, "usage of two new jobs (running, bytes kept)", [2]int64{int64(running), kept}, [2]int64{2, 0})
}

// testFile: a file of several pieces (incompressible bytes beyond a piece's size) read back
// whole, its job finished once.
func (c *exportsCase) testFile(t *testing.T) {
	ctx := context.Background()
	var want bytes.Buffer
	seed := uint32(1)
	for want.Len() < 2_500_000 {
		seed = seed*1664525 + 1013904223
		want.WriteByte(byte(seed >> 24))
	}
	want.WriteString("\nfim;72,40\n")
	c.file = want.Bytes()
	w := c.x.Writer(ctx, c.job.ID)
	for b := c.file; len(b) > 0; b = b[min(len(b), 70000):] {
		_, err := w.Write(b[:min(len(b), 70000)])
		must(t, err)
	}
	must(t, w.Close())
	_, err := c.s.ExportChunk(ctx, c.job.ID, 2)
	must(t, err)
	must(t, c.x.Finish(ctx, c.job, 150000, w.Size(), ""))
	sameErr(t, "a finished job finished again", c.x.Finish(ctx, c.job, 1, 1, exports.ErrSource), checkout.ErrConflict)
	got, err := c.x.Job(ctx, c.job.ID)
	if err != nil || got.State != exports.Ready || got.Rows != 150000 || got.Size != int64(len(c.file)) || !got.FinishedAt.Equal(c.now) {
		t.Fatalf("ready: %+v, %v", got, err)
	}
	if running, kept, err := c.x.Usage(ctx); err != nil || running != 1 || kept < int64(len(c.file))/2 {
		t.Fatalf("usage after one finished: %d running, %d bytes kept (of a %d-byte file), %v", running, kept, len(c.file), err)
	}
	rc, err := c.x.Open(ctx, c.job.ID)
	must(t, err)
	back, err := io.ReadAll(rc)
	must(t, err)
	if !bytes.Equal(back, c.file) {
		t.Fatalf("the file read back: %d bytes, want %d", len(back), len(c.file))
	}
}

// testFailed: a job failed half-way keeps nothing of its file.
func (c *exportsCase) testFailed(t *testing.T) {
	ctx := context.Background()
	failed, err := c.x.Create(ctx, exports.Job{UserID: "u1", Kind: "deposits", Format: "csv", Total: 100001}, exports.Limits{})
	must(t, err)
	must(t, c.s.AppendExportChunk(ctx, failed.ID, 0, []byte("partial")))
	must(t, c.x.Finish(ctx, failed, 500, 7, exports.ErrSource))
	if got, err := c.x.Job(ctx, failed.ID); err != nil || got.State != exports.Failed || got.Error != exports.ErrSource || got.Rows != 500 {
		t.Fatalf("failed: %+v, %v", got, err)
	}
	_, err = c.s.ExportChunk(ctx, failed.ID, 0)
	sameErr(t, "a failed job's piece", err, checkout.ErrNotFound)
}

// testInterrupted: the other job's server stops: without a heartbeat it reads as interrupted,
// and the sweep stores it so; progress no longer moves it.
func (c *exportsCase) testInterrupted(t *testing.T) {
	ctx := context.Background()
	c.now = c.now.Add(exports.Stale + time.Second)
	if got, _ := c.x.Job(ctx, c.other.ID); got.State != exports.Failed || got.Error != exports.ErrInterrupted {
		t.Fatalf("a job without heartbeat: %+v", got)
	}
	n, err := c.x.Prune(ctx)
	must(t, err)
	same(t, "jobs pruned within the day", n, 0)
	if got, err := c.s.ExportJob(ctx, c.other.ID); err != nil || got.State != exports.Failed || got.Error != exports.ErrInterrupted {
		t.Fatalf("stored after the sweep: %+v, %v", got, err)
	}
	must(t, c.s.ExportProgress(ctx, c.other.ID, 9, c.now))
	if got, _ := c.s.ExportJob(ctx, c.other.ID); got.Rows != 0 || got.State != exports.Failed {
		t.Fatalf("progress moved a failed job: %+v", got)
	}
}

// testPruned: a day after they ended, the jobs are gone, with their pieces.
func (c *exportsCase) testPruned(t *testing.T) {
	ctx := context.Background()
	c.now = c.now.Add(exports.Retention + time.Second)
	n, err := c.x.Prune(ctx)
	must(t, err)
	same(t, "jobs pruned after a day", n, 3)
	_, err = c.s.ExportChunk(ctx, c.job.ID, 0)
	sameErr(t, "a piece of a pruned export", err, checkout.ErrNotFound)
	_, err = c.x.Job(ctx, c.job.ID)
	sameErr(t, "a pruned job", err, checkout.ErrNotFound)
	jobs, err := c.x.Jobs(ctx, "u1")
	must(t, err)
	same(t, "jobs after pruning", len(jobs), 0)
}

// testExportLimits: exports asked at the same instant past the limits are stored no more than
// the limits allow, the others refused: of 16 of one user with 2 a user, 2; then of 16 of 16
// users with 5 running at most (2 running already), 3. (Checked and then created in two steps,
// most of them pass on either store.)
func testExportLimits(t *testing.T, s AccountStores) {
	x := exports.NewManager(s, func() time.Time { return base })
	admitted := func(n int, user func(i int) string, lim exports.Limits, refusal error) int {
		var wg sync.WaitGroup
		start := make(chan struct{})
		errs := make(chan error, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				_, err := x.Create(context.Background(), exports.Job{UserID: user(i), Kind: "deposits", Format: "csv", Total: 1}, lim)
				errs <- err
			}()
		}
		close(start)
		wg.Wait()
		close(errs)
		ok := 0
		for err := range errs {
			switch {
			case err == nil:
				ok++
			case !errors.Is(err, refusal):
				t.Errorf("an export at once with others: %v, want nil or %v", err, refusal)
			}
		}
		return ok
	}
	same(t, "exports of one user admitted at once (limit 2 a user)",
		admitted(16, func(int) string { return "u-same" }, exports.Limits{PerUser: 2}, exports.ErrExportsOfUser), 2)
	same(t, "exports of 16 users admitted at once (limit 5 running, 2 already)",
		admitted(16, func(i int) string { return fmt.Sprintf("u-%d", i) }, exports.Limits{PerUser: 2, Running: 5}, exports.ErrExportsBusy), 3)
}
