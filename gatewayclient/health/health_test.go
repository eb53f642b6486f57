package health_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/gatewayclient/health"
)

// TestEachAnswerTellsTheState: what each answer of the gateway (or its absence) says of it.
func TestEachAnswerTellsTheState(t *testing.T) {
	var mu sync.Mutex
	status := http.StatusOK
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		w.WriteHeader(status)
	}))
	defer srv.Close()
	var changes []health.State
	var calls []health.Call
	m, err := health.New(srv.URL+"/v1", health.Options{
		OnChange: func(s health.State) { changes = append(changes, s) },
		OnCall:   func(c health.Call) { calls = append(calls, c) },
	})
	if err != nil {
		t.Fatal(err)
	}
	hc := &http.Client{Transport: m.Transport(nil)}
	send := func(code int, method, path string) {
		t.Helper()
		mu.Lock()
		status = code
		mu.Unlock()
		req, _ := http.NewRequest(method, srv.URL+path, nil)
		res, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
	}
	cases := []struct {
		code         int
		method, path string
		ok           bool
		cause        health.Cause
		op           string
	}{
		{200, "GET", "/v1/deposit", true, health.CauseNone, health.OpListDeposits},
		{401, "POST", "/v1/auth/token", false, health.CauseCredentials, health.OpToken},
		// A 401 of an API call is an expired token, renewed by the client: the state stays.
		{401, "GET", "/v1/deposit", false, health.CauseCredentials, health.OpListDeposits},
		{200, "POST", "/v1/auth/token", true, health.CauseNone, health.OpToken},
		{403, "GET", "/v1/deposit", false, health.CauseForbidden, health.OpListDeposits},
		{200, "POST", "/v1/transaction", true, health.CauseNone, health.OpCreateTransaction},
		// A 404 of one deposit is an answer about that deposit.
		{404, "GET", "/v1/deposit/abc", true, health.CauseNone, health.OpGetDeposit},
		{404, "POST", "/v1/auth/token", false, health.CauseNotFound, health.OpToken},
		{429, "POST", "/v1/transaction", true, health.CauseNone, health.OpCreateTransaction},
		{503, "GET", "/v1/withdrawal", false, health.CauseServerError, health.OpListWithdrawals},
		{500, "POST", "/v1/transaction", false, health.CauseServerError, health.OpCreateTransaction},
		{422, "POST", "/v1/transaction", true, health.CauseNone, health.OpCreateTransaction},
	}
	for _, tc := range cases {
		send(tc.code, tc.method, tc.path)
		st := m.State()
		if st.OK != tc.ok || st.Cause != tc.cause {
			t.Errorf("after %d to %s %s: state %+v, want ok=%v cause=%q", tc.code, tc.method, tc.path, st, tc.ok, tc.cause)
		}
		if !st.OK && (!strings.Contains(st.Detail, "answered") || st.Since.IsZero()) {
			t.Errorf("failing state without its detail or time: %+v", st)
		}
		if c := calls[len(calls)-1]; c.Operation != tc.op || c.Status != tc.code {
			t.Errorf("call %+v, want operation %s status %d", c, tc.op, tc.code)
		}
	}
	// Every change once, in order: failing (credentials), ok, failing (forbidden), ok,
	// failing (not found), ok, failing (server error), ok.
	var got []string
	for _, c := range changes {
		got = append(got, string(c.Cause)+"|")
	}
	want := "credentials|,|,forbidden|,|,not_found|,|,server_error|,|"
	if strings.Join(got, ",") != want {
		t.Errorf("changes %v, want %s", got, want)
	}
}

// No answer: unreachable (naming the address), or a timeout; a caller giving up says nothing.
func TestNoAnswer(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	m, err := health.New("http://"+addr+"/v1", health.Options{})
	if err != nil {
		t.Fatal(err)
	}
	hc := &http.Client{Transport: m.Transport(nil)}
	if _, err := hc.Post("http://"+addr+"/v1/auth/token", "text/plain", nil); err == nil {
		t.Fatal("an answer from a closed port")
	}
	if st := m.State(); st.OK || st.Cause != health.CauseUnreachable || !strings.Contains(st.Detail, addr) {
		t.Errorf("state %+v, want unreachable naming %s", st, addr)
	}

	block := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-block }))
	defer srv.Close()
	defer close(block)
	m, _ = health.New(srv.URL, health.Options{})
	hc = &http.Client{Transport: m.Transport(nil)}
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/deposit", nil)
	go cancel()
	if _, err := hc.Do(req); err == nil {
		t.Fatal("an answer to a canceled request")
	}
	if st := m.State(); !st.OK || !st.Seen.IsZero() {
		t.Errorf("a canceled call told the state: %+v", st)
	}
	ctx, cancel2 := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel2()
	req, _ = http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/deposit", nil)
	if _, err := hc.Do(req); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err %v", err)
	}
	if st := m.State(); st.OK || st.Cause != health.CauseTimeout {
		t.Errorf("state %+v, want timeout", st)
	}
}

// Run probes only when no call told the state for the interval.
func TestRunProbesWhenIdle(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	m, _ := health.New(srv.URL, health.Options{})
	hc := &http.Client{Transport: m.Transport(nil)}
	probed := make(chan struct{}, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go m.Run(ctx, 10*time.Millisecond, time.Second, func(ctx context.Context) error {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/deposit", nil)
		res, err := hc.Do(req)
		if err == nil {
			res.Body.Close()
		}
		select {
		case probed <- struct{}{}:
		default:
		}
		return err
	})
	select {
	case <-probed:
	case <-time.After(10 * time.Second):
		t.Fatal("no probe while idle")
	}
	if st := m.State(); st.OK || st.Cause != health.CauseServerError {
		t.Errorf("state after the probe %+v", st)
	}
}

// hangThenTimeout answers every request 200, except those to /slow, which wait for release
// and then fail as a timed-out request does.
type hangThenTimeout struct{ sent, release chan struct{} }

func (h hangThenTimeout) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.URL.Path == "/v1/slow" {
		if h.sent != nil {
			close(h.sent)
		}
		<-h.release
		return nil, context.DeadlineExceeded
	}
	return &http.Response{StatusCode: http.StatusOK, Body: http.NoBody, Request: r}, nil
}

// A call left hanging by an outage that times out after the gateway was seen working again
// tells nothing new: the state stays working.
func TestStaleTimeoutDoesNotUndoRecovery(t *testing.T) {
	m, err := health.New("https://gateway.example/v1", health.Options{})
	if err != nil {
		t.Fatal(err)
	}
	next := hangThenTimeout{sent: make(chan struct{}), release: make(chan struct{})}
	client := &http.Client{Transport: m.Transport(next)}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if res, err := client.Get("https://gateway.example/v1/slow"); err == nil {
			res.Body.Close()
		}
	}()
	<-next.sent // the slow call is sent before the gateway answers the next one
	res, err := client.Get("https://gateway.example/v1/deposit?page=1&perPage=1")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	close(next.release)
	<-done
	if st := m.State(); !st.OK {
		t.Errorf("a timeout of a call sent before the gateway answered turned the state to %+v", st)
	}
	// A timeout of a call sent after that success still counts.
	next2 := hangThenTimeout{release: make(chan struct{})}
	close(next2.release)
	if res, err := (&http.Client{Transport: m.Transport(next2)}).Get("https://gateway.example/v1/slow"); err == nil {
		res.Body.Close()
	}
	if st := m.State(); st.OK || st.Cause != health.CauseTimeout {
		t.Errorf("a fresh timeout: %+v, want failing with timeout", st)
	}
}
