package main

import (
	"bytes"
	"io"
	"sync"
	"time"
)

// How the log is written in batches: a line waits at most logFlushInterval, and no more than
// logFlushSize bytes wait.
const (
	logFlushInterval = 100 * time.Millisecond
	logFlushSize     = 32 << 10
)

// batchedLog writes the process's log lines in batches. Every request writes an access-log
// line; one write to stderr each cost about as much as the whole middleware chain of a small
// answer (a system call per line). Lines are collected and written at most every
// logFlushInterval, or once logFlushSize bytes wait; an error line is written at once with
// whatever waits before it, so that the lines leading to a failure are out when it is. What
// can be lost is at most the last 100 ms of non-error lines if the process is killed; Close
// writes everything and makes later writes direct.
type batchedLog struct {
	mu      sync.Mutex
	out     io.Writer
	buf     []byte
	pending bool // a flush is scheduled
	closed  bool
}

func newBatchedLog(out io.Writer) *batchedLog { return &batchedLog{out: out} }

// errorLevel is how slog's JSON handler marks an error line.
var errorLevel = []byte(`"level":"ERROR"`)

// Write keeps p (one log line, as slog writes them) for the next batch.
func (b *batchedLog) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return b.out.Write(p)
	}
	b.buf = append(b.buf, p...)
	switch {
	case len(b.buf) >= logFlushSize || bytes.Contains(p, errorLevel):
		b.flushLocked()
	case !b.pending:
		b.pending = true
		time.AfterFunc(logFlushInterval, b.flush)
	}
	return len(p), nil
}

func (b *batchedLog) flush() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.pending = false
	b.flushLocked()
}

// flushLocked writes what waits; a failed write is dropped (a log has nowhere to report it).
func (b *batchedLog) flushLocked() {
	if len(b.buf) == 0 {
		return
	}
	_, _ = b.out.Write(b.buf)
	b.buf = b.buf[:0]
	if cap(b.buf) > 4*logFlushSize {
		b.buf = nil // a burst's buffer is not kept
	}
}

// Close writes what waits; later lines are written directly.
func (b *batchedLog) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed = true
	b.flushLocked()
	return nil
}
