package main

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedBuffer is a bytes.Buffer safe for the flush timer's goroutine.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
	n   int // writes
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.n++
	return l.buf.Write(p)
}

func (l *lockedBuffer) String() string { l.mu.Lock(); defer l.mu.Unlock(); return l.buf.String() }
func (l *lockedBuffer) writes() int    { l.mu.Lock(); defer l.mu.Unlock(); return l.n }

// TestBatchedLog: lines wait for the next batch (one write for many lines) and all come out,
// in order, within the flush interval; an error line goes out at once with those before it;
// Close writes what waits and later lines go straight out.
func TestBatchedLog(t *testing.T) {
	out := &lockedBuffer{}
	b := newBatchedLog(out)
	for i := range 50 {
		if _, err := b.Write([]byte(`{"level":"INFO","msg":"request","n":` + string(rune('0'+i%10)) + "}\n")); err != nil {
			t.Fatal(err)
		}
	}
	if out.writes() != 0 {
		t.Fatalf("%d writes before the batch was due", out.writes())
	}
	deadline := time.Now().Add(5 * time.Second)
	for strings.Count(out.String(), "\n") < 50 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := strings.Count(out.String(), "\n"); n != 50 || out.writes() != 1 {
		t.Fatalf("%d lines in %d writes after the interval; want 50 in 1", n, out.writes())
	}

	_, _ = b.Write([]byte(`{"level":"INFO","msg":"before"}` + "\n"))
	_, _ = b.Write([]byte(`{"level":"ERROR","msg":"failed"}` + "\n"))
	if s := out.String(); !strings.HasSuffix(s, `{"level":"INFO","msg":"before"}`+"\n"+`{"level":"ERROR","msg":"failed"}`+"\n") {
		t.Fatalf("an error line did not go out at once after the line before it: %q", s[max(0, len(s)-80):])
	}

	_, _ = b.Write([]byte("waiting\n"))
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(out.String(), "waiting\n") {
		t.Fatal("Close did not write the waiting line")
	}
	_, _ = b.Write([]byte("after\n"))
	if !strings.HasSuffix(out.String(), "after\n") {
		t.Fatal("a line after Close was not written directly")
	}
}

// TestBatchedLogSize: past logFlushSize bytes, lines go out without waiting for the timer.
func TestBatchedLogSize(t *testing.T) {
	out := &lockedBuffer{}
	b := newBatchedLog(out)
	line := []byte(strings.Repeat("x", 1023) + "\n")
	for range logFlushSize / len(line) {
		_, _ = b.Write(line)
	}
	if got := len(out.String()); got != logFlushSize {
		t.Fatalf("%d bytes out after %d bytes written; want all at once", got, logFlushSize)
	}
	_ = b.Close()
}
