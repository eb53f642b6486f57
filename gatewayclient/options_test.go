package gatewayclient

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
)

// countingTransport counts the requests that go through it.
type countingTransport struct {
	n    atomic.Int64
	next http.RoundTripper
}

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return c.next.RoundTrip(r)
}

func TestWithHTTPClientIsUsed(t *testing.T) {
	g := newTestGateway(t, func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, `{}`) })
	tr := &countingTransport{next: http.DefaultTransport}
	c := g.client(WithHTTPClient(&http.Client{Transport: tr}))
	if _, err := c.GetDeposit(context.Background(), testDepositID); err != nil {
		t.Fatal(err)
	}
	if n := tr.n.Load(); n != 2 {
		t.Errorf("requests through the given client = %d, want 2 (token and call)", n)
	}
}

func TestDebugLogLines(t *testing.T) {
	a := &answers{list: []func(http.ResponseWriter){status(503), ok(`{"total":0,"totalPages":0,"data":[]}`)}}
	g := newTestGateway(t, a.handler)
	var buf bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c := g.client(WithLogger(logger))
	if _, err := c.ListWithdrawals(context.Background(), WithdrawalFilter{PixKey: "maria@example.com"}); err != nil {
		t.Fatal(err)
	}
	var lines []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("log line %q: %v", l, err)
		}
		lines = append(lines, m)
	}
	var attempts []float64
	for _, m := range lines {
		if m["msg"] != "gateway request" {
			continue
		}
		if m["level"] != "DEBUG" || m["method"] != "GET" || m["path"] != "/withdrawal" || m["duration"] == nil {
			t.Errorf("log line %v", m)
		}
		attempts = append(attempts, m["attempt"].(float64))
		if st := m["status"].(float64); st != 503 && st != 200 {
			t.Errorf("status %v", st)
		}
	}
	if len(attempts) != 2 || attempts[0] != 1 || attempts[1] != 2 {
		t.Errorf("attempts logged = %v, want [1 2]; log:\n%s", attempts, buf.String())
	}
	// The query (here a PIX key, personal data) stays out of the logs.
	if strings.Contains(buf.String(), "maria") {
		t.Errorf("the query was logged:\n%s", buf.String())
	}
}
