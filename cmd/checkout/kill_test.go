package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestAccessLineSurvivesSIGKILL runs the program with its log going to a file, answers one
// request and kills the process with SIGKILL at once: the request's access-log line is in the
// file. A log that held lines back in memory (batched, buffered) would lose it.
func TestAccessLineSurvivesSIGKILL(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	logFile, err := os.Create(filepath.Join(dir, "checkout.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer logFile.Close()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), asProgram+"=1", "CHECKOUT_ADDR=127.0.0.1:0",
		"CHECKOUT_DATA_DIR="+filepath.Join(dir, "data"))
	cmd.Stderr = logFile
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	killed := false
	defer func() {
		if !killed {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	}()

	// The banner names the shop's URL once the program serves.
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if f := strings.Fields(sc.Text()); len(f) == 2 && f[0] == "shop:" {
				found <- strings.TrimSuffix(f[1], "/")
			}
		}
	}()
	var shop string
	select {
	case shop = <-found:
	case <-time.After(60 * time.Second):
		t.Fatal("the program printed no shop URL within a minute")
	}

	client := &http.Client{Timeout: 10 * time.Second}
	res, err := client.Get(shop + "/")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	id := res.Header.Get("X-Request-Id")
	if res.StatusCode != http.StatusOK || id == "" {
		t.Fatalf("GET /: %d, request id %q", res.StatusCode, id)
	}
	// Answered: the line is acknowledged. Kill the process before it can do anything more.
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	killed = true
	_ = cmd.Wait()

	logs, err := os.ReadFile(logFile.Name())
	if err != nil {
		t.Fatal(err)
	}
	for line := range bytes.Lines(logs) {
		var rec struct {
			Msg       string `json:"msg"`
			RequestID string `json:"request_id"`
			Route     string `json:"route"`
			Status    int    `json:"status"`
		}
		if json.Unmarshal(line, &rec) != nil || rec.RequestID != id {
			continue
		}
		if rec.Msg != "request" || rec.Route != "/" || rec.Status != http.StatusOK {
			t.Errorf("the access line of the request: %s", line)
		}
		return
	}
	t.Fatalf("no access-log line of request %s in the log after SIGKILL:\n%s", id, logs)
}
