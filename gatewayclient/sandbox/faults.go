package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// FaultKind names a fault that POST sandbox/faults can inject.
type FaultKind string

// Fault kinds. Each applies to the next Count requests whose path matches.
const (
	// FaultLatency delays the request by LatencyMs before handling it.
	FaultLatency FaultKind = "latency"
	// FaultError500AfterCommit does the work (and commits it), then answers 500, as a gateway
	// whose response was lost would.
	FaultError500AfterCommit FaultKind = "error500_after_commit"
	// FaultRateLimit answers 429 with Retry-After.
	FaultRateLimit FaultKind = "rate_limit"
	// FaultDropConnection closes the connection without any response (HTTP/1.x only: under
	// HTTP/2 a handler cannot hijack the connection, so the stream is reset instead by panicking
	// with http.ErrAbortHandler).
	FaultDropConnection FaultKind = "drop_connection"
	// FaultToken502 makes POST /auth/token answer 502.
	FaultToken502 FaultKind = "token_502"
	// FaultUnavailable answers 503 without doing anything, the token endpoint included: with a
	// large count, an outage of the whole gateway until DELETE sandbox/faults ends it.
	FaultUnavailable FaultKind = "unavailable"
)

const faultToken502 = FaultToken502

// Fault is one injected fault (the body of POST sandbox/faults).
type Fault struct {
	Kind      FaultKind `json:"kind"`
	Count     int       `json:"count"`               // how many matching requests it affects (default 1)
	Path      string    `json:"path,omitempty"`      // match only requests to this path (relative to the API root); empty: any API request
	LatencyMs int       `json:"latencyMs,omitempty"` // for latency
}

// faultSet is the sandbox's list of pending faults. Faults live in memory only: a restart
// clears them.
type faultSet struct {
	mu     sync.Mutex
	faults []Fault
}

// validate checks f and fills its defaults.
func (f *Fault) validate() error {
	switch f.Kind {
	case FaultLatency:
		if f.LatencyMs < 1 || f.LatencyMs > 60000 {
			return fmt.Errorf("latencyMs: must be between 1 and 60000")
		}
	case FaultError500AfterCommit, FaultRateLimit, FaultDropConnection, FaultToken502, FaultUnavailable:
	default:
		return fmt.Errorf("kind: must be one of latency, error500_after_commit, rate_limit, drop_connection, token_502, unavailable")
	}
	if f.Count == 0 {
		f.Count = 1
	}
	if f.Count < 0 || f.Count > 10000 {
		return fmt.Errorf("count: must be between 1 and 10000")
	}
	return nil
}

func (fs *faultSet) add(f Fault) {
	fs.mu.Lock()
	fs.faults = append(fs.faults, f)
	fs.mu.Unlock()
}

func (fs *faultSet) list() []Fault {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	out := make([]Fault, len(fs.faults))
	copy(out, fs.faults)
	return out
}

func (fs *faultSet) clear() {
	fs.mu.Lock()
	fs.faults = nil
	fs.mu.Unlock()
}

// take consumes one use of the first pending fault of kind matching path, reporting whether
// there was one. For latency it returns the fault's delay through takeLatency instead.
func (fs *faultSet) take(kind FaultKind, path string) bool {
	_, ok := fs.takeFault(kind, path)
	return ok
}

func (fs *faultSet) takeFault(kind FaultKind, path string) (Fault, bool) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	for i, f := range fs.faults {
		if f.Kind != kind || (f.Path != "" && f.Path != path) {
			continue
		}
		fs.faults[i].Count--
		if fs.faults[i].Count <= 0 {
			fs.faults = append(fs.faults[:i], fs.faults[i+1:]...)
		}
		return f, true
	}
	return Fault{}, false
}

// applyFaults runs the faults that act before a request is handled. It reports whether the
// request was answered (or dropped) already.
func (s *Sandbox) applyFaults(w http.ResponseWriter, r *http.Request) bool {
	if f, ok := s.faults.takeFault(FaultLatency, r.URL.Path); ok {
		t := time.NewTimer(time.Duration(f.LatencyMs) * time.Millisecond)
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
			return true
		}
	}
	if s.faults.take(FaultUnavailable, r.URL.Path) {
		s.respondError(w, r, newAPIError(http.StatusServiceUnavailable, "service unavailable (injected fault)"))
		return true
	}
	if s.faults.take(FaultDropConnection, r.URL.Path) {
		dropConnection(w)
		return true
	}
	if s.faults.take(FaultRateLimit, r.URL.Path) {
		w.Header().Set("Retry-After", "1")
		s.respondError(w, r, newAPIError(http.StatusTooManyRequests, "too many requests (injected fault)"))
		return true
	}
	return false
}

// dropConnection closes the client connection without writing a response.
func dropConnection(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		// HTTP/2 or a recorder: abort the handler, which resets the stream.
		panic(http.ErrAbortHandler)
	}
	conn.Close()
}

// handleFaults is POST sandbox/faults (add one) and GET/DELETE sandbox/faults (list/clear).
func (s *Sandbox) handleFaults(w http.ResponseWriter, r *http.Request, _ principal) {
	switch r.Method {
	case http.MethodGet:
		writeJSON(w, http.StatusOK, map[string]any{"faults": s.faults.list()})
	case http.MethodDelete:
		s.faults.clear()
		writeJSON(w, http.StatusOK, map[string]any{"faults": []Fault{}})
	default:
		var f Fault
		if err := decodeControlBody(r, &f); err != nil {
			s.respondError(w, r, err)
			return
		}
		if err := f.validate(); err != nil {
			s.respondError(w, r, violationFromError(err))
			return
		}
		s.faults.add(f)
		writeJSON(w, http.StatusCreated, f)
	}
}

// decodeControlBody reads an optional JSON body of a control endpoint into v.
func decodeControlBody(r *http.Request, v any) error {
	r.Body = http.MaxBytesReader(nil, r.Body, maxBodyBytes)
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		if errors.Is(err, io.EOF) {
			return nil // an empty body means "all defaults"
		}
		return violation(gatewayclient.KindInvalidData, "body", "json", "malformed JSON: "+err.Error())
	}
	return nil
}
