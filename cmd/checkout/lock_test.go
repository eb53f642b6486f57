package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/cmd/checkout/app"
)

// startServerProcess runs a checkout server on dataDir in another process and returns it
// once it serves.
func startServerProcess(t *testing.T, dataDir string) *exec.Cmd {
	t.Helper()
	cmd, _ := startProgram(t, dataDir)
	return cmd
}

// startProgram runs a checkout server on dataDir in another process, with env added to its
// environment, and returns it and its shop's URL once it serves. The test's end kills it; a
// failed test shows its log.
func startProgram(t *testing.T, dataDir string, env ...string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(append(os.Environ(), asProgram+"=1", "CHECKOUT_ADDR=127.0.0.1:0", "CHECKOUT_DEMO_ADDR=off",
		"CHECKOUT_DATA_DIR="+dataDir), env...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	logs := &lockedBuffer{}
	cmd.Stderr = logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("the log of server process %d:\n%s", cmd.Process.Pid, logs)
		}
	})
	serving := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		found := false
		for sc.Scan() {
			if f := strings.Fields(sc.Text()); !found && len(f) == 2 && f[0] == "shop:" {
				found = true
				serving <- strings.TrimSuffix(f[1], "/")
			}
		}
		if !found {
			close(serving)
		}
	}()
	select {
	case shop, ok := <-serving:
		if !ok {
			t.Fatal("the server process ended without serving")
		}
		return cmd, shop
	case <-time.After(60 * time.Second):
		t.Fatal("the server process did not start serving")
	}
	return nil, ""
}

// serveHere runs the server in this process on dataDir until ctx ends, telling started (when
// not nil) once it serves; it returns the exit status and the standard error.
func serveHere(ctx context.Context, dataDir string, started chan<- string) (int, string) {
	stdout := &watchWriter{re: regexp.MustCompile(`shop:\s+(\S+)`), found: make(chan string, 1)}
	if started != nil {
		go func() {
			select {
			case u := <-stdout.found:
				started <- u
			case <-ctx.Done():
			}
		}()
	}
	var stderr lockedBuffer
	env := map[string]string{"CHECKOUT_ADDR": "127.0.0.1:0", "CHECKOUT_DEMO_ADDR": "off", "CHECKOUT_DATA_DIR": dataDir}
	code := serve(ctx, app.DefaultCommand, nil, func(k string) string { return env[k] }, stdout, &stderr)
	return code, stderr.String()
}

// TestDataDirLock: a second server on a data dir in use stops at start with one line naming
// the holder's PID and exit status 2; the commands work beside the running server; and a
// server killed with SIGKILL leaves no lock behind.
func TestDataDirLock(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "data")
	holder := startServerProcess(t, dir)

	// Were it to start, it is stopped at once, and exits 0.
	ctx, cancel := context.WithCancel(context.Background())
	started := make(chan string, 1)
	go func() {
		select {
		case <-started:
			cancel()
		case <-ctx.Done():
		}
	}()
	code, stderr := serveHere(ctx, dir, started)
	cancel()
	want := fmt.Sprintf("config: CHECKOUT_DATA_DIR: %s is in use by another checkout server (PID %d)", dir, holder.Process.Pid)
	if code != 2 || strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, want) {
		t.Errorf("a second server: exit %d, %q; want 2 and one line starting %q", code, stderr, want)
	}

	// The commands, beside the running server.
	env := func(k string) string {
		if k == "CHECKOUT_DATA_DIR" {
			return dir
		}
		return ""
	}
	for _, args := range [][]string{{"apikey", "create", "erp"}, {"apikey", "list"}, {"user", "add", "-role", "viewer", "bia@loja.example"}, {"user", "list"}} {
		var out, errOut strings.Builder
		if code := run(app.DefaultCommand, args, env, &out, &errOut); code != 0 {
			t.Errorf("checkout %s beside a running server: exit %d, %q", strings.Join(args, " "), code, errOut.String())
		}
	}

	// SIGKILL: the operating system releases the lock with the process.
	if err := holder.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = holder.Wait()
	ctx, cancel = context.WithCancel(context.Background())
	started = make(chan string, 1)
	done := make(chan struct{})
	var code2 int
	var stderr2 string
	go func() {
		defer close(done)
		code2, stderr2 = serveHere(ctx, dir, started)
	}()
	select {
	case <-started:
	case <-done:
		t.Fatalf("after the holder's SIGKILL the server did not start: exit %d, %q", code2, stderr2)
	case <-time.After(60 * time.Second):
		t.Fatal("after the holder's SIGKILL the server did not start")
	}
	cancel()
	<-done
	if code2 != 0 {
		t.Errorf("the server after the SIGKILL: exit %d, %q", code2, stderr2)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "checkout.lock")); err != nil || strings.TrimSpace(string(b)) != strconv.Itoa(os.Getpid()) {
		t.Errorf("the lock file holds %q, %v; want this process's PID", b, err)
	}
}

// lockedBuffer is a bytes.Buffer that the server's goroutines and the test may use at once.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *lockedBuffer) String() string { l.mu.Lock(); defer l.mu.Unlock(); return l.buf.String() }
