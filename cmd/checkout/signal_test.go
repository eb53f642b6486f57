package main

import (
	"bytes"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/cmd/checkout/app"
)

// watchWriter is an io.Writer for the program's output that tells when a line matching re
// has been written.
type watchWriter struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	re    *regexp.Regexp
	found chan string
	once  sync.Once
}

func (w *watchWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n, err := w.buf.Write(p)
	if m := w.re.FindStringSubmatch(w.buf.String()); m != nil {
		w.once.Do(func() { w.found <- m[1] })
	}
	return n, err
}

func (w *watchWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// TestRunWithoutConfigurationThenSIGINT runs the program as `go run ./cmd/checkout` does, with
// no configuration but a free port (the default :8080 may be taken on a shared machine): it
// makes ./data, prints the URLs, serves the shop and the sandbox, and exits 0 on SIGINT.
//
// Not parallel: it changes the working directory and signals the whole process; the other tests,
// parallel, start after it.
func TestRunWithoutConfigurationThenSIGINT(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	out := &watchWriter{re: regexp.MustCompile(`shop:\s+(http://\S+?)/?\n`), found: make(chan string, 1)}
	env := map[string]string{"CHECKOUT_ADDR": "127.0.0.1:0"}
	done := make(chan int, 1)
	go func() { done <- run(app.DefaultCommand, nil, func(k string) string { return env[k] }, out, io.Discard) }()
	var shop string
	select {
	case shop = <-out.found:
	case code := <-done:
		t.Fatalf("exited %d before printing the URLs: %q", code, out.String())
	case <-time.After(60 * time.Second):
		t.Fatalf("no URLs printed: %q", out.String())
	}
	if !strings.Contains(out.String(), "/sandbox/gateway") {
		t.Errorf("the banner lacks the sandbox URL: %q", out.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "data")); err != nil {
		t.Errorf("no ./data folder: %v", err)
	}
	client := &http.Client{Timeout: 10 * time.Second}
	for _, path := range []string{"/", "/healthz", "/readyz"} {
		res, err := client.Get(shop + path)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Errorf("GET %s: %d", path, res.StatusCode)
		}
	}
	// The program has registered its handler of SIGINT (the banner comes after), so the
	// signal stops it instead of this test process.
	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit %d after SIGINT, want 0", code)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("still running 30 s after SIGINT")
	}
	if _, err := client.Get(shop + "/healthz"); err == nil {
		t.Error("still serving after the shutdown")
	}
}
