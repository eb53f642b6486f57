package storetest

import (
	"bytes"
	"context"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/merchant"
)

// testExports: a background export from its creation to its pruning, its file stored in
// pieces and read back whole, a job interrupted by a stopped server, and the states only
// moving forward.
func testExports(t *testing.T, s AccountStores) {
	ctx := context.Background()
	now := base
	clock := func() time.Time { return now }
	x := merchant.NewExports(s, clock)
	job, err := x.Create(ctx, merchant.ExportJob{UserID: "u1", Kind: "deposits", Format: "excel", Query: "status=PAID", Total: 150000})
	if err != nil {
		t.Fatal(err)
	}
	other, err := x.Create(ctx, merchant.ExportJob{UserID: "u2", Kind: "withdrawals", Format: "csv", Total: 200000})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := x.Job(ctx, "nope"); !errors.Is(err, checkout.ErrNotFound) {
		t.Fatalf("an unknown job: %v", err)
	}
	now = now.Add(2 * time.Second)
	if err := x.Progress(ctx, job.ID, 500); err != nil {
		t.Fatal(err)
	}
	got, err := x.Job(ctx, job.ID)
	if err != nil || got.State != merchant.ExportRunning || got.Rows != 500 || got.Total != 150000 || got.Query != "status=PAID" ||
		got.Format != "excel" || got.Kind != "deposits" || !got.UpdatedAt.Equal(now) || !got.CreatedAt.Equal(base) {
		t.Fatalf("after progress: %+v, %v", got, err)
	}
	if jobs, err := x.Jobs(ctx, "u1"); err != nil || len(jobs) != 1 || jobs[0].ID != job.ID {
		t.Fatalf("u1's jobs: %+v, %v", jobs, err)
	}
	// Usage counts, across users, the jobs running and the bytes their files keep.
	if running, kept, err := x.Usage(ctx); err != nil || running != 2 || kept != 0 {
		t.Fatalf("usage of two new jobs: %d running, %d bytes kept, %v", running, kept, err)
	}

	// A file of several pieces (incompressible bytes beyond a piece's size) read back whole.
	var want bytes.Buffer
	seed := uint32(1)
	for want.Len() < 2_500_000 {
		seed = seed*1664525 + 1013904223
		want.WriteByte(byte(seed >> 24))
	}
	want.WriteString("\nfim;72,40\n")
	w := x.Writer(ctx, job.ID)
	for b := want.Bytes(); len(b) > 0; {
		n := min(len(b), 70000)
		if _, err := w.Write(b[:n]); err != nil {
			t.Fatal(err)
		}
		b = b[n:]
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ExportChunk(ctx, job.ID, 2); err != nil {
		t.Fatalf("the file is not in pieces: %v", err)
	}
	if err := x.Finish(ctx, job, 150000, w.Size(), ""); err != nil {
		t.Fatal(err)
	}
	if err := x.Finish(ctx, job, 1, 1, merchant.ExportErrSource); !errors.Is(err, checkout.ErrConflict) {
		t.Fatalf("a finished job finished again: %v", err)
	}
	got, err = x.Job(ctx, job.ID)
	if err != nil || got.State != merchant.ExportReady || got.Rows != 150000 || got.Size != int64(want.Len()) || !got.FinishedAt.Equal(now) {
		t.Fatalf("ready: %+v, %v", got, err)
	}
	if running, kept, err := x.Usage(ctx); err != nil || running != 1 || kept < int64(want.Len())/2 {
		t.Fatalf("usage after one finished: %d running, %d bytes kept (of a %d-byte file), %v", running, kept, want.Len(), err)
	}
	rc, err := x.Open(ctx, job.ID)
	if err != nil {
		t.Fatal(err)
	}
	back, err := io.ReadAll(rc)
	if err != nil || !bytes.Equal(back, want.Bytes()) {
		t.Fatalf("the file read back: %d bytes (want %d), %v", len(back), want.Len(), err)
	}

	// A job failed half-way keeps nothing of its file.
	failed, err := x.Create(ctx, merchant.ExportJob{UserID: "u1", Kind: "deposits", Format: "csv", Total: 100001})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.AppendExportChunk(ctx, failed.ID, 0, []byte("partial")); err != nil {
		t.Fatal(err)
	}
	if err := x.Finish(ctx, failed, 500, 7, merchant.ExportErrSource); err != nil {
		t.Fatal(err)
	}
	if got, err := x.Job(ctx, failed.ID); err != nil || got.State != merchant.ExportFailed || got.Error != merchant.ExportErrSource || got.Rows != 500 {
		t.Fatalf("failed: %+v, %v", got, err)
	}
	if _, err := s.ExportChunk(ctx, failed.ID, 0); !errors.Is(err, checkout.ErrNotFound) {
		t.Fatalf("a failed job's piece: %v", err)
	}

	// The other job's server stops: without a heartbeat it reads as interrupted, and the
	// sweep stores it so.
	now = now.Add(merchant.ExportStale + time.Second)
	if got, _ := x.Job(ctx, other.ID); got.State != merchant.ExportFailed || got.Error != merchant.ExportErrInterrupted {
		t.Fatalf("a job without heartbeat: %+v", got)
	}
	if n, err := x.Prune(ctx); err != nil || n != 0 {
		t.Fatalf("Prune within the day: %d, %v", n, err)
	}
	if got, err := s.ExportJob(ctx, other.ID); err != nil || got.State != merchant.ExportFailed || got.Error != merchant.ExportErrInterrupted {
		t.Fatalf("stored after the sweep: %+v, %v", got, err)
	}
	if err := s.ExportProgress(ctx, other.ID, 9, now); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.ExportJob(ctx, other.ID); got.Rows != 0 || got.State != merchant.ExportFailed {
		t.Fatalf("progress moved a failed job: %+v", got)
	}

	// A day after they ended, both are gone, with their pieces.
	now = now.Add(merchant.ExportRetention + time.Second)
	if n, err := x.Prune(ctx); err != nil || n != 3 {
		t.Fatalf("Prune after a day: %d, %v", n, err)
	}
	if _, err := s.ExportChunk(ctx, job.ID, 0); !errors.Is(err, checkout.ErrNotFound) {
		t.Fatalf("a piece of a pruned export: %v", err)
	}
	if _, err := x.Job(ctx, job.ID); !errors.Is(err, checkout.ErrNotFound) {
		t.Fatalf("a pruned job: %v", err)
	}
	if jobs, err := x.Jobs(ctx, "u1"); err != nil || len(jobs) != 0 {
		t.Fatalf("jobs after pruning: %+v, %v", jobs, err)
	}
}
