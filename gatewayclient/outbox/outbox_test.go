package outbox

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/gatewayclient/sqlmigrate"
	"github.com/pixcheckout/pixcheckout/gatewayclient/webhook"

	_ "modernc.org/sqlite"
)

// fakeClock is a Clock the test moves by hand.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2026, 4, 1, 12, 0, 0, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Set(t time.Time) {
	c.mu.Lock()
	c.now = t
	c.mu.Unlock()
}

func (c *fakeClock) Advance(d time.Duration) { c.Set(c.Now().Add(d)) }

// dbPath returns a fresh database file in the test's temporary directory.
func dbPath(t *testing.T) string { return filepath.Join(t.TempDir(), "sandbox.db") }

// openDB opens the SQLite file at path the way the sandbox does (WAL, busy timeout), with the
// outbox's tables.
func openDB(t testing.TB, path string) *sql.DB {
	t.Helper()
	q := url.Values{}
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", "foreign_keys(1)")
	db, err := sql.Open("sqlite", "file:"+filepath.ToSlash(path)+"?"+q.Encode())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := sqlmigrate.Apply(context.Background(), db, "", Plan(SQLite)); err != nil {
		t.Fatal(err)
	}
	return db
}

// received is one request that reached a test receiver.
type received struct {
	path   string
	header http.Header
	body   []byte
}

// receiver is an httptest server answering with scripted status codes (then 200) and
// reporting every request on a channel.
type receiver struct {
	*httptest.Server
	mu     sync.Mutex
	script []int
	got    []received
	ch     chan received
}

func newReceiver(t *testing.T, script ...int) *receiver {
	t.Helper()
	r := &receiver{script: script, ch: make(chan received, 100)}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		b, _ := io.ReadAll(req.Body)
		rec := received{req.URL.Path, req.Header.Clone(), b}
		r.mu.Lock()
		r.got = append(r.got, rec)
		code := http.StatusOK
		if len(r.script) > 0 {
			code, r.script = r.script[0], r.script[1:]
		}
		r.mu.Unlock()
		r.ch <- rec
		w.WriteHeader(code)
		_, _ = io.WriteString(w, "answer "+http.StatusText(code))
	}))
	t.Cleanup(r.Close)
	return r
}

func (r *receiver) requests() []received {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]received(nil), r.got...)
}

// wait returns the next request, failing the test after a generous timeout.
func (r *receiver) wait(t *testing.T) received {
	t.Helper()
	select {
	case rec := <-r.ch:
		return rec
	case <-time.After(15 * time.Second):
		t.Fatal("no webhook arrived")
		return received{}
	}
}

const testSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

// message returns a valid message about record id.
func message(t *testing.T, recordID, targetURL string) Message {
	t.Helper()
	data, _ := json.Marshal(map[string]any{"id": recordID, "status": "PAID", "depositOrigin": "QRCODE"})
	body, err := json.Marshal(webhook.Event{Type: "deposit.paid", Timestamp: time.Date(2026, 4, 1, 12, 0, 0, 0, time.UTC), Data: data})
	if err != nil {
		t.Fatal(err)
	}
	return Message{ID: webhook.NewMessageID(), ClientID: "sandbox-client", Secret: testSecret, URL: targetURL,
		Type: "deposit.paid", RecordKind: "deposit", RecordID: recordID, Body: body}
}

// plainClient reaches loopback test receivers (the default client would refuse them).
func plainClient() *http.Client { return &http.Client{} }

func newOutbox(t *testing.T, opts Options) *Outbox {
	t.Helper()
	if opts.DB == nil {
		opts.DB = openDB(t, dbPath(t))
	}
	if opts.Rand == nil {
		opts.Rand = rand.New(rand.NewPCG(1, 2))
	}
	o, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func enqueue(t *testing.T, o *Outbox, db *sql.DB, m Message) {
	t.Helper()
	tx, err := db.BeginTx(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := o.Enqueue(context.Background(), tx, m); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

func deliverDue(t *testing.T, o *Outbox) int {
	t.Helper()
	n, err := o.DeliverDue(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func onlyDelivery(t *testing.T, o *Outbox, recordID string) Delivery {
	t.Helper()
	ds, err := o.Deliveries(context.Background(), Filter{RecordID: recordID})
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 1 {
		t.Fatalf("want 1 delivery for %q, got %d: %+v", recordID, len(ds), ds)
	}
	return ds[0]
}

func TestDeliveredWebhookVerifies(t *testing.T) {
	clock := newFakeClock()
	rcv := newReceiver(t)
	db := openDB(t, dbPath(t))
	var logs bytes.Buffer
	o := newOutbox(t, Options{DB: db, Clock: clock.Now, HTTPClient: plainClient(),
		Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	m := message(t, "rec-1", rcv.URL+"/hook?token=s3cr3t-query")
	enqueue(t, o, db, m)

	if n := deliverDue(t, o); n != 1 {
		t.Fatalf("DeliverDue sent %d, want 1", n)
	}
	got := rcv.wait(t)
	// Signed with real time, whatever the outbox's (simulated) clock says: a receiver checks
	// the timestamp against its own clock.
	if err := (webhook.Verifier{Secret: testSecret}).Verify(got.header, got.body); err != nil {
		t.Fatalf("delivered webhook does not verify: %v", err)
	}
	if !bytes.Equal(got.body, m.Body) {
		t.Fatalf("body %s, want %s", got.body, m.Body)
	}
	if got.header.Get(webhook.HeaderID) != m.ID || got.header.Get("Content-Type") != "application/json" ||
		got.header.Get("User-Agent") != UserAgent {
		t.Fatalf("headers %v", got.header)
	}
	if ts, _ := strconv.ParseInt(got.header.Get(webhook.HeaderTimestamp), 10, 64); ts < time.Now().Unix()-60 || ts > time.Now().Unix() {
		t.Fatalf("timestamp %d, want the real time (%d), not the outbox clock's", ts, time.Now().Unix())
	}
	hint, err := webhook.ParseHint(got.body)
	if err != nil || hint.ID != "rec-1" || hint.Kind != webhook.KindDeposit {
		t.Fatalf("hint %+v, %v", hint, err)
	}

	d := onlyDelivery(t, o, "rec-1")
	if d.Status != StatusDelivered || d.Attempts != 1 || d.LastStatusCode != 200 || d.LastError != "" ||
		d.MessageID != m.ID || d.Type != "deposit.paid" || d.RecordKind != "deposit" || d.Forward {
		t.Fatalf("delivery %+v", d)
	}
	as, err := o.Attempts(context.Background(), d.ID)
	if err != nil || len(as) != 1 || as[0].N != 1 || as[0].StatusCode != 200 || !as[0].At.Equal(clock.Now()) || as[0].Duration <= 0 {
		t.Fatalf("attempts %+v, %v", as, err)
	}
	if n := deliverDue(t, o); n != 0 {
		t.Fatalf("a delivered webhook was sent again (%d)", n)
	}
	if s := logs.String(); !strings.Contains(s, "webhook delivered") || strings.Contains(s, testSecret) ||
		strings.Contains(s, strings.TrimPrefix(testSecret, "whsec_")) || strings.Contains(s, "s3cr3t-query") {
		t.Fatalf("logs must report the delivery without secrets or query strings:\n%s", s)
	}
}

// TestRetriesOnSchedule: 500, 500, then 200. After each failure nothing is sent before the
// fake clock reaches NextAttemptAt; the delay is within the backoff's bound.
func TestRetriesOnSchedule(t *testing.T) {
	const base = 5 * time.Second
	clock := newFakeClock()
	rcv := newReceiver(t, 500, 500, 200)
	db := openDB(t, dbPath(t))
	o := newOutbox(t, Options{DB: db, Clock: clock.Now, SignClock: clock.Now, HTTPClient: plainClient(), Schedule: Exponential(base, time.Hour, DefaultMaxAttempts)})
	m := message(t, "rec-retry", rcv.URL)
	enqueue(t, o, db, m)

	var stamps []string
	for n := 1; n <= 3; n++ {
		attemptAt := clock.Now()
		if sent := deliverDue(t, o); sent != 1 {
			t.Fatalf("attempt %d: DeliverDue sent %d, want 1", n, sent)
		}
		got := rcv.wait(t)
		if got.header.Get(webhook.HeaderID) != m.ID {
			t.Fatalf("attempt %d: webhook-id %q changed (want %q)", n, got.header.Get(webhook.HeaderID), m.ID)
		}
		if err := (webhook.Verifier{Secret: testSecret, Now: clock.Now}).Verify(got.header, got.body); err != nil {
			t.Fatalf("attempt %d does not verify: %v", n, err)
		}
		stamps = append(stamps, got.header.Get(webhook.HeaderTimestamp))

		d := onlyDelivery(t, o, "rec-retry")
		if d.Attempts != n {
			t.Fatalf("attempts = %d, want %d", d.Attempts, n)
		}
		if n == 3 {
			if d.Status != StatusDelivered || d.LastStatusCode != 200 {
				t.Fatalf("after the 200: %+v", d)
			}
			break
		}
		if d.Status != StatusPending || d.LastStatusCode != 500 || !strings.Contains(d.LastError, "HTTP 500") {
			t.Fatalf("after failure %d: %+v", n, d)
		}
		delay := d.NextAttemptAt.Sub(attemptAt)
		if bound := base << (n - 1); delay <= 0 || delay > bound {
			t.Fatalf("after failure %d: delay %s outside (0, %s]", n, delay, bound)
		}
		// Not due yet: nothing is sent, even just before NextAttemptAt.
		if sent := deliverDue(t, o); sent != 0 {
			t.Fatalf("sent %d before the retry was due", sent)
		}
		clock.Set(d.NextAttemptAt.Add(-time.Millisecond))
		if sent := deliverDue(t, o); sent != 0 {
			t.Fatalf("sent %d 1 ms before the retry was due", sent)
		}
		if len(rcv.requests()) != n {
			t.Fatalf("receiver got %d requests, want %d", len(rcv.requests()), n)
		}
		clock.Set(d.NextAttemptAt)
	}
	// A fresh timestamp per attempt (the clock moved between attempts).
	if stamps[0] == stamps[1] || stamps[1] == stamps[2] {
		t.Fatalf("timestamps not refreshed per attempt: %v", stamps)
	}
	// Delivered once: nothing more, however far the clock goes.
	clock.Advance(48 * time.Hour)
	if sent := deliverDue(t, o); sent != 0 || len(rcv.requests()) != 3 {
		t.Fatalf("after success: sent %d more, receiver has %d", sent, len(rcv.requests()))
	}
	d := onlyDelivery(t, o, "rec-retry")
	as, err := o.Attempts(context.Background(), d.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(as) != 3 || as[0].StatusCode != 500 || as[1].StatusCode != 500 || as[2].StatusCode != 200 ||
		as[0].N != 1 || as[2].N != 3 || as[0].Error == "" || as[2].Error != "" || !as[1].At.After(as[0].At) {
		t.Fatalf("attempts %+v", as)
	}
}

// TestRecoveringReceiverGetsEachEventOnce: events pile up while the receiver fails; once it
// recovers, each event arrives exactly once more.
func TestRecoveringReceiverGetsEachEventOnce(t *testing.T) {
	clock := newFakeClock()
	rcv := newReceiver(t, 503, 503, 503)
	db := openDB(t, dbPath(t))
	o := newOutbox(t, Options{DB: db, Clock: clock.Now, HTTPClient: plainClient(), Schedule: Exponential(time.Second, time.Minute, DefaultMaxAttempts)})
	ids := map[string]bool{}
	for _, rec := range []string{"a", "b", "c"} {
		m := message(t, rec, rcv.URL)
		ids[m.ID] = true
		enqueue(t, o, db, m)
	}
	if sent := deliverDue(t, o); sent != 3 {
		t.Fatalf("first pass sent %d, want 3", sent)
	}
	for range 10 { // the receiver now answers 200; passes keep going until nothing is due
		clock.Advance(time.Minute)
		deliverDue(t, o)
	}
	counts := map[string]int{} // message id -> requests received
	for _, r := range rcv.requests() {
		counts[r.header.Get(webhook.HeaderID)]++
	}
	if len(rcv.requests()) != 6 || len(counts) != 3 {
		t.Fatalf("receiver got %d requests for %d messages, want 6 for 3", len(rcv.requests()), len(counts))
	}
	for id := range ids {
		if counts[id] != 2 {
			t.Fatalf("message %s arrived %d times, want 2 (one failure, one success)", id, counts[id])
		}
	}
	ds, err := o.Deliveries(context.Background(), Filter{Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range ds {
		if d.Status != StatusDelivered || d.Attempts != 2 {
			t.Fatalf("delivery %+v", d)
		}
	}
}

func TestDeadAfterMaxAttempts(t *testing.T) {
	clock := newFakeClock()
	rcv := newReceiver(t, 500, 500, 500, 500, 500)
	db := openDB(t, dbPath(t))
	o := newOutbox(t, Options{DB: db, Clock: clock.Now, HTTPClient: plainClient(), Schedule: Exponential(DefaultBaseDelay, DefaultMaxDelay, 3)})
	enqueue(t, o, db, message(t, "rec-dead", rcv.URL))
	for range 10 {
		deliverDue(t, o)
		clock.Advance(2 * time.Hour)
	}
	d := onlyDelivery(t, o, "rec-dead")
	if d.Status != StatusDead || d.Attempts != 3 || len(rcv.requests()) != 3 {
		t.Fatalf("delivery %+v after %d requests; want dead after 3", d, len(rcv.requests()))
	}
}

// TestRedirectIsFailure: a 3xx is a failed attempt and its target is never requested, with
// the default forwarding client and with a caller's client that would follow redirects.
func TestRedirectIsFailure(t *testing.T) {
	target := newReceiver(t)
	redirector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target.URL+"/landing", http.StatusFound)
	}))
	defer redirector.Close()

	for _, tc := range []struct {
		name string
		opts Options
		url  string
	}{
		{"forward client", Options{ForwardTo: redirector.URL + "/fwd"}, ""},
		{"caller's client", Options{HTTPClient: &http.Client{}}, redirector.URL + "/hook"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clock := newFakeClock()
			db := openDB(t, dbPath(t))
			tc.opts.DB, tc.opts.Clock = db, clock.Now
			o := newOutbox(t, tc.opts)
			enqueue(t, o, db, message(t, "rec-redirect", tc.url))
			if sent := deliverDue(t, o); sent != 1 {
				t.Fatalf("sent %d, want 1", sent)
			}
			d := onlyDelivery(t, o, "rec-redirect")
			if d.Status != StatusPending || d.LastStatusCode != http.StatusFound || !strings.Contains(d.LastError, "HTTP 302") {
				t.Fatalf("delivery %+v: want a failed attempt with 302", d)
			}
			if n := len(target.requests()); n != 0 {
				t.Fatalf("the redirect target was hit %d times", n)
			}
		})
	}
}

// TestGuardedDelivery: the default client refuses a webhookUrl on 127.0.0.1 and records the
// refusal as a failed attempt, while ForwardTo on 127.0.0.1 is delivered.
func TestGuardedDelivery(t *testing.T) {
	clock := newFakeClock()
	rcv := newReceiver(t)
	db := openDB(t, dbPath(t))
	o := newOutbox(t, Options{DB: db, Clock: clock.Now, ForwardTo: rcv.URL + "/forwarded"})
	enqueue(t, o, db, message(t, "rec-ssrf", rcv.URL+"/direct"))

	if sent := deliverDue(t, o); sent != 2 {
		t.Fatalf("sent %d, want 2 (one refused, one forwarded)", sent)
	}
	reqs := rcv.requests()
	if len(reqs) != 1 || reqs[0].path != "/forwarded" {
		t.Fatalf("receiver got %+v, want only the forwarded copy", reqs)
	}
	ds, err := o.Deliveries(context.Background(), Filter{RecordID: "rec-ssrf"})
	if err != nil || len(ds) != 2 {
		t.Fatalf("deliveries %+v, %v", ds, err)
	}
	for _, d := range ds {
		switch {
		case d.Forward:
			if d.Status != StatusDelivered || d.URL != rcv.URL+"/forwarded" {
				t.Fatalf("forwarded delivery %+v", d)
			}
		default:
			if d.Status != StatusPending || d.Attempts != 1 || d.LastStatusCode != 0 ||
				!strings.Contains(d.LastError, webhook.ErrBlockedAddress.Error()) || !strings.Contains(d.LastError, "loopback") {
				t.Fatalf("direct delivery %+v: want a failed attempt refused by the guard", d)
			}
			as, err := o.Attempts(context.Background(), d.ID)
			if err != nil || len(as) != 1 || !strings.Contains(as[0].Error, webhook.ErrBlockedAddress.Error()) {
				t.Fatalf("attempts %+v, %v", as, err)
			}
		}
	}
}

func TestNewChecksOptions(t *testing.T) {
	db := openDB(t, dbPath(t))
	for _, bad := range []string{"http://example.com/hook", "http://10.0.0.5/hook", "http://192.168.0.10:8080/",
		"ftp://localhost/x", "https://", "localhost:8080", "://x"} {
		if _, err := New(Options{DB: db, ForwardTo: bad}); err == nil {
			t.Errorf("ForwardTo %q accepted, want an error", bad)
		} else if !strings.Contains(err.Error(), "ForwardTo") {
			t.Errorf("ForwardTo %q: error %q does not name the option", bad, err)
		}
	}
	for _, good := range []string{"https://example.com/hook", "http://localhost:8080/webhooks/gateway",
		"http://127.0.0.1:9/x", "http://[::1]:9/x"} {
		if _, err := New(Options{DB: db, ForwardTo: good}); err != nil {
			t.Errorf("ForwardTo %q: %v", good, err)
		}
	}
	if _, err := New(Options{}); err == nil {
		t.Error("New without DB: want an error")
	}
	if _, err := New(Options{DB: db, Schedule: []time.Duration{time.Second, 0}}); err == nil {
		t.Error("a wait of 0 in Schedule: want an error")
	}
}

func TestEnqueue(t *testing.T) {
	ctx := context.Background()
	db := openDB(t, dbPath(t))
	o := newOutbox(t, Options{DB: db, Clock: newFakeClock().Now, ForwardTo: "https://dev.example.com/hook"})
	good := message(t, "rec-e", "https://merchant.example.com/hook")

	for name, m := range map[string]Message{
		"no id":        func() Message { m := good; m.ID = ""; return m }(),
		"bad secret":   func() Message { m := good; m.Secret = "whsec_***"; return m }(),
		"no secret":    func() Message { m := good; m.Secret = ""; return m }(),
		"relative URL": func() Message { m := good; m.URL = "/hook"; return m }(),
		"ftp URL":      func() Message { m := good; m.URL = "ftp://example.com/x"; return m }(),
		"body not JSON": func() Message {
			m := good
			m.Body = []byte("{")
			return m
		}(),
	} {
		if err := o.Enqueue(ctx, nil, m); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}

	// A rolled-back transaction leaves no webhook behind.
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := o.Enqueue(ctx, tx, good); err != nil {
		t.Fatal(err)
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	if ds, _ := o.Deliveries(ctx, Filter{}); len(ds) != 0 {
		t.Fatalf("rolled back, yet deliveries %+v", ds)
	}

	// One delivery per target; enqueueing the same message again adds nothing.
	for range 2 {
		if err := o.Enqueue(ctx, nil, good); err != nil {
			t.Fatal(err)
		}
	}
	ds, err := o.Deliveries(ctx, Filter{RecordID: "rec-e"})
	if err != nil || len(ds) != 2 {
		t.Fatalf("deliveries %+v, %v; want 2", ds, err)
	}
	urls := map[string]bool{}
	for _, d := range ds {
		urls[d.URL] = d.Forward
		if d.ClientID != "sandbox-client" || d.Status != StatusPending || d.Attempts != 0 {
			t.Fatalf("delivery %+v", d)
		}
	}
	if fwd, ok := urls["https://dev.example.com/hook"]; !ok || !fwd {
		t.Fatalf("forward copy missing: %v", urls)
	}
	if fwd, ok := urls["https://merchant.example.com/hook"]; !ok || fwd {
		t.Fatalf("webhookUrl copy missing: %v", urls)
	}

	// The same URL as ForwardTo is delivered once, as the forwarding copy.
	same := message(t, "rec-same", "https://dev.example.com/hook")
	if err := o.Enqueue(ctx, nil, same); err != nil {
		t.Fatal(err)
	}
	if d := onlyDelivery(t, o, "rec-same"); !d.Forward {
		t.Fatalf("delivery %+v: want the forwarding copy", d)
	}

	// Without a URL or ForwardTo there is nothing to store.
	bare := newOutbox(t, Options{DB: db})
	if err := bare.Enqueue(ctx, nil, message(t, "rec-none", "")); err != nil {
		t.Fatal(err)
	}
	if ds, _ := o.Deliveries(ctx, Filter{RecordID: "rec-none"}); len(ds) != 0 {
		t.Fatalf("deliveries %+v, want none", ds)
	}
}

// TestRestartKeepsPending: a pending delivery survives closing the database and a new Outbox
// on the same file, and is delivered afterwards; a delivered one is not sent again.
func TestRestartKeepsPending(t *testing.T) {
	path := dbPath(t)
	clock := newFakeClock()
	rcv := newReceiver(t)

	db1 := openDB(t, path)
	o1 := newOutbox(t, Options{DB: db1, Clock: clock.Now, HTTPClient: plainClient()})
	enqueue(t, o1, db1, message(t, "rec-delivered", rcv.URL))
	if sent := deliverDue(t, o1); sent != 1 {
		t.Fatalf("sent %d", sent)
	}
	enqueue(t, o1, db1, message(t, "rec-pending", rcv.URL))
	if err := db1.Close(); err != nil {
		t.Fatal(err)
	}

	db2 := openDB(t, path)
	o2 := newOutbox(t, Options{DB: db2, Clock: clock.Now, HTTPClient: plainClient()})
	if d := onlyDelivery(t, o2, "rec-pending"); d.Status != StatusPending {
		t.Fatalf("after restart: %+v", d)
	}
	if sent := deliverDue(t, o2); sent != 1 {
		t.Fatalf("after restart sent %d, want 1", sent)
	}
	reqs := rcv.requests()
	if len(reqs) != 2 {
		t.Fatalf("receiver got %d requests, want 2", len(reqs))
	}
	if h, _ := webhook.ParseHint(reqs[1].body); h.ID != "rec-pending" {
		t.Fatalf("second request was about %q", h.ID)
	}
	if d := onlyDelivery(t, o2, "rec-pending"); d.Status != StatusDelivered {
		t.Fatalf("after delivery: %+v", d)
	}
}

// TestRunDeliversPromptly: with a poll interval far longer than the test, Run still delivers
// right after Enqueue (own transaction) and after Wake (caller's transaction), and stops when
// its context ends.
func TestRunDeliversPromptly(t *testing.T) {
	rcv := newReceiver(t)
	db := openDB(t, dbPath(t))
	o := newOutbox(t, Options{DB: db, HTTPClient: plainClient(), PollInterval: time.Hour})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		o.Run(ctx)
		close(done)
	}()

	if err := o.Enqueue(context.Background(), nil, message(t, "rec-run-1", rcv.URL)); err != nil {
		t.Fatal(err)
	}
	if h, _ := webhook.ParseHint(rcv.wait(t).body); h.ID != "rec-run-1" {
		t.Fatalf("got %q", h.ID)
	}

	tx, err := db.BeginTx(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := o.Enqueue(context.Background(), tx, message(t, "rec-run-2", rcv.URL)); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	o.Wake()
	if h, _ := webhook.ParseHint(rcv.wait(t).body); h.ID != "rec-run-2" {
		t.Fatalf("got %q", h.ID)
	}

	cancel()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		t.Fatal("Run did not return after its context ended")
	}
}

// TestConcurrencyBound: no more than Concurrency deliveries are in flight at once.
func TestConcurrencyBound(t *testing.T) {
	const limit = 3
	var (
		mu            sync.Mutex
		inFlight, top int
	)
	arrived := make(chan struct{}, 100)
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		inFlight++
		top = max(top, inFlight)
		mu.Unlock()
		arrived <- struct{}{}
		<-release
		mu.Lock()
		inFlight--
		mu.Unlock()
	}))
	defer srv.Close()

	db := openDB(t, dbPath(t))
	o := newOutbox(t, Options{DB: db, Clock: newFakeClock().Now, HTTPClient: plainClient(), Concurrency: limit})
	for i := range 10 {
		enqueue(t, o, db, message(t, "rec-c"+string(rune('0'+i)), srv.URL))
	}
	result := make(chan int, 1)
	go func() {
		n, _ := o.DeliverDue(context.Background())
		result <- n
	}()
	for range limit {
		select {
		case <-arrived:
		case <-time.After(15 * time.Second):
			t.Fatal("deliveries did not start")
		}
	}
	close(release)
	select {
	case n := <-result:
		if n != 10 {
			t.Fatalf("delivered %d, want 10", n)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("DeliverDue did not finish")
	}
	mu.Lock()
	defer mu.Unlock()
	if top > limit {
		t.Fatalf("%d deliveries in flight at once, limit %d", top, limit)
	}
}

// TestDeliverDueStopsOnCancel: a pass cut short by its context records no attempt and leaves
// the delivery ready for the next pass.
func TestDeliverDueStopsOnCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	started, stop := make(chan struct{}), make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body) // lets the server notice the client going away
		close(started)
		select {
		case <-r.Context().Done():
		case <-stop:
		}
	}))
	defer srv.Close()
	defer close(stop) // runs before srv.Close, which waits for the handler
	db := openDB(t, dbPath(t))
	clock := newFakeClock()
	o := newOutbox(t, Options{DB: db, Clock: clock.Now, HTTPClient: plainClient()})
	enqueue(t, o, db, message(t, "rec-cancel", srv.URL))
	go func() {
		<-started
		cancel()
	}()
	if _, err := o.DeliverDue(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("DeliverDue: %v, want context.Canceled", err)
	}
	d := onlyDelivery(t, o, "rec-cancel")
	if d.Status != StatusPending || d.Attempts != 0 {
		t.Fatalf("delivery %+v: want pending with no attempt counted", d)
	}
	// The lease was released: a new pass sends it at once (to a receiver that now answers).
	rcvOK := newReceiver(t)
	if _, err := db.Exec(`UPDATE webhook_deliveries SET url = ?`, rcvOK.URL); err != nil {
		t.Fatal(err)
	}
	if sent := deliverDue(t, o); sent != 1 {
		t.Fatalf("sent %d after cancel, want 1", sent)
	}
}

func TestBackoffBounds(t *testing.T) {
	o := newOutbox(t, Options{Schedule: Exponential(5*time.Second, time.Hour, 30)})
	for n := 1; n <= 29; n++ {
		ceiling := time.Hour
		if n <= 20 {
			ceiling = min(time.Hour, (5*time.Second)<<(n-1))
		}
		for range 50 {
			d := o.backoff(n)
			if d <= 0 || d > ceiling {
				t.Fatalf("backoff(%d) = %s, outside (0, %s]", n, d, ceiling)
			}
		}
	}
	// Full jitter: delays spread over the range rather than sitting at the ceiling.
	var small int
	for range 200 {
		if o.backoff(12) < 30*time.Minute {
			small++
		}
	}
	if small < 50 || small > 150 {
		t.Fatalf("%d of 200 delays under half the ceiling; want about half", small)
	}
	// A share of jitter: every wait within that share under the schedule's.
	tenth := newOutbox(t, Options{Schedule: []time.Duration{5 * time.Second, 5 * time.Minute}, Jitter: 0.1})
	for range 200 {
		if d := tenth.backoff(1); d <= 4500*time.Millisecond || d > 5*time.Second {
			t.Fatalf("backoff(1) = %s with a tenth of jitter, want (4.5 s, 5 s]", d)
		}
	}
}

func TestPrintableAndRedact(t *testing.T) {
	if got := printable([]byte("line1\nline2\x00\xff")); got != "line1 line2 \uFFFD" {
		t.Fatalf("printable = %q", got)
	}
	if got := redactURL("https://user:pw@example.com/hook?token=x#f"); got != "https://example.com/hook" {
		t.Fatalf("redactURL = %q", got)
	}
}

func TestRedeliver(t *testing.T) {
	clock := newFakeClock()
	rcv := newReceiver(t, 500, 500)
	db := openDB(t, dbPath(t))
	o := newOutbox(t, Options{DB: db, Clock: clock.Now, HTTPClient: plainClient(), Schedule: Exponential(DefaultBaseDelay, DefaultMaxDelay, 2)})
	m := message(t, "rec-again", rcv.URL)
	enqueue(t, o, db, m)
	deliverDue(t, o)
	clock.Advance(time.Hour)
	deliverDue(t, o)
	d := onlyDelivery(t, o, "rec-again")
	if d.Status != StatusDead {
		t.Fatalf("delivery %+v: want dead", d)
	}
	if err := o.Redeliver(context.Background(), d.ID); err != nil {
		t.Fatal(err)
	}
	if sent := deliverDue(t, o); sent != 1 {
		t.Fatalf("sent %d after Redeliver, want 1", sent)
	}
	if d := onlyDelivery(t, o, "rec-again"); d.Status != StatusDelivered || d.Attempts != 3 {
		t.Fatalf("delivery %+v: want delivered on the third attempt", d)
	}
	// A delivered one is sent again, with the same webhook-id.
	if err := o.Redeliver(context.Background(), d.ID); err != nil {
		t.Fatal(err)
	}
	deliverDue(t, o)
	reqs := rcv.requests()
	if len(reqs) != 4 || reqs[3].header.Get(webhook.HeaderID) != m.ID {
		t.Fatalf("receiver got %d requests; last id %q, want %q", len(reqs), reqs[len(reqs)-1].header.Get(webhook.HeaderID), m.ID)
	}
	if err := o.Redeliver(context.Background(), 999); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown delivery: %v, want ErrNotFound", err)
	}
}

func BenchmarkEnqueue(b *testing.B) {
	q := url.Values{}
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", "synchronous(NORMAL)")
	db, err := sql.Open("sqlite", "file:"+filepath.ToSlash(filepath.Join(b.TempDir(), "b.db"))+"?"+q.Encode())
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	if err := sqlmigrate.Apply(context.Background(), db, "", Plan(SQLite)); err != nil {
		b.Fatal(err)
	}
	o, err := New(Options{DB: db, ForwardTo: "http://127.0.0.1:9/hook"})
	if err != nil {
		b.Fatal(err)
	}
	body := []byte(`{"type":"deposit.paid","timestamp":"2026-04-01T12:00:00.000Z","data":{"id":"x","status":"PAID"}}`)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		m := Message{ID: webhook.NewMessageID(), Secret: testSecret, URL: "https://merchant.example.com/hook",
			Type: "deposit.paid", RecordKind: "deposit", RecordID: "x", Body: body}
		if err := o.Enqueue(ctx, nil, m); err != nil {
			b.Fatal(err)
		}
	}
}

// TestConcurrentPassesSendOnce: two passes over the same due deliveries (Run and a manual
// DeliverDue, or two processes) never send one delivery twice.
func TestConcurrentPassesSendOnce(t *testing.T) {
	rcv := newReceiver(t)
	db := openDB(t, dbPath(t))
	clock := newFakeClock()
	o1 := newOutbox(t, Options{DB: db, Clock: clock.Now, HTTPClient: plainClient()})
	o2 := newOutbox(t, Options{DB: db, Clock: clock.Now, HTTPClient: plainClient()})
	for i := range 20 {
		enqueue(t, o1, db, message(t, "rec-p"+strconv.Itoa(i), rcv.URL))
	}
	var wg sync.WaitGroup
	sent := make([]int, 4)
	for i := range sent {
		o := o1
		if i%2 == 1 {
			o = o2
		}
		wg.Go(func() {
			n, err := o.DeliverDue(context.Background())
			if err != nil {
				t.Error(err)
			}
			sent[i] = n
		})
	}
	wg.Wait()
	total := 0
	for _, n := range sent {
		total += n
	}
	counts := map[string]int{}
	for _, r := range rcv.requests() {
		counts[r.header.Get(webhook.HeaderID)]++
	}
	if total != 20 || len(rcv.requests()) != 20 || len(counts) != 20 {
		t.Fatalf("passes sent %v (total %d); receiver got %d requests for %d messages; want 20 each",
			sent, total, len(rcv.requests()), len(counts))
	}
}

// TestPruneFinishedDeliveries: delivered and dead deliveries older than the retention go, with
// their attempts; younger ones and pending ones (however old) stay.
func TestPruneFinishedDeliveries(t *testing.T) {
	clock := newFakeClock()
	ok := newReceiver(t)
	failing := newReceiver(t, 500, 500, 500, 500)
	db := openDB(t, dbPath(t))
	o := newOutbox(t, Options{DB: db, Clock: clock.Now, HTTPClient: plainClient(), Schedule: Exponential(DefaultBaseDelay, DefaultMaxDelay, 1), Retention: 24 * time.Hour})
	enqueue(t, o, db, message(t, "old-delivered", ok.URL))
	enqueue(t, o, db, message(t, "old-dead", failing.URL))
	deliverDue(t, o)
	ok.wait(t)
	failing.wait(t)
	// A pending delivery, as old as the others: it is never pruned.
	enqueue(t, o, db, message(t, "old-pending", failing.URL))
	if _, err := db.Exec(`UPDATE webhook_deliveries SET next_attempt_at = ? WHERE record_id = 'old-pending'`,
		clock.Now().Add(1000*time.Hour).UnixMilli()); err != nil {
		t.Fatal(err)
	}
	clock.Advance(25 * time.Hour)
	enqueue(t, o, db, message(t, "young-delivered", ok.URL))
	deliverDue(t, o)
	ok.wait(t)

	n, err := o.Prune(context.Background())
	if err != nil || n != 2 {
		t.Fatalf("Prune = %d, %v; want the 2 old finished deliveries", n, err)
	}
	for rec, want := range map[string]int{"old-delivered": 0, "old-dead": 0, "old-pending": 1, "young-delivered": 1} {
		ds, err := o.Deliveries(context.Background(), Filter{RecordID: rec})
		if err != nil || len(ds) != want {
			t.Errorf("%s: %d deliveries (%v), want %d", rec, len(ds), err, want)
		}
	}
	var attempts int
	if err := db.QueryRow(`SELECT COUNT(*) FROM webhook_attempts WHERE delivery_id NOT IN (SELECT id FROM webhook_deliveries)`).Scan(&attempts); err != nil || attempts != 0 {
		t.Errorf("%d attempts of deleted deliveries are left (%v)", attempts, err)
	}
}

// TestExpandGivesTheBodySent: Expand sees the stored body with the record's kind and id, and
// what it returns is what is signed and sent; an error fails the attempt, which is retried
// like any failure, and the stored body is left as it was.
func TestExpandGivesTheBodySent(t *testing.T) {
	clock := newFakeClock()
	rcv := newReceiver(t)
	db := openDB(t, dbPath(t))
	var fail atomic.Bool
	fail.Store(true)
	var seen []string
	o := newOutbox(t, Options{DB: db, Clock: clock.Now, HTTPClient: plainClient(), Schedule: Exponential(time.Second, time.Second, DefaultMaxAttempts),
		Expand: func(_ context.Context, kind, id string, body []byte) ([]byte, error) {
			seen = append(seen, kind+"/"+id)
			if fail.Load() {
				return nil, errors.New("record unreadable")
			}
			return bytes.Replace(body, []byte(`"status":"PAID"`), []byte(`"status":"PAID","big":"part"`), 1), nil
		}})
	m := message(t, "rec-x", rcv.URL+"/hook")
	enqueue(t, o, db, m)

	if n := deliverDue(t, o); n != 1 {
		t.Fatalf("DeliverDue made %d attempts, want 1", n)
	}
	d := onlyDelivery(t, o, "rec-x")
	if d.Status != StatusPending || d.Attempts != 1 || !strings.Contains(d.LastError, "record unreadable") || len(rcv.requests()) != 0 {
		t.Fatalf("after a failed expansion: %+v, %d requests sent", d, len(rcv.requests()))
	}
	fail.Store(false)
	clock.Set(d.NextAttemptAt)
	if n := deliverDue(t, o); n != 1 {
		t.Fatalf("retry: %d attempts", n)
	}
	got := rcv.wait(t)
	want := bytes.Replace(m.Body, []byte(`"status":"PAID"`), []byte(`"status":"PAID","big":"part"`), 1)
	if !bytes.Equal(got.body, want) || bytes.Equal(want, m.Body) {
		t.Fatalf("body sent %s, want %s", got.body, want)
	}
	if err := (webhook.Verifier{Secret: testSecret}).Verify(got.header, got.body); err != nil {
		t.Fatalf("the expanded body is not what was signed: %v", err)
	}
	if len(seen) != 2 || seen[0] != "deposit/rec-x" || seen[1] != "deposit/rec-x" {
		t.Fatalf("Expand saw %q", seen)
	}
	var stored []byte
	if err := db.QueryRow(`SELECT body FROM webhook_deliveries WHERE record_id = 'rec-x'`).Scan(&stored); err != nil || !bytes.Equal(stored, m.Body) {
		t.Fatalf("stored body %s (%v), want it unchanged: %s", stored, err, m.Body)
	}
}

// TestFirstAttemptsPassHangingRetries: with every worker of the retries held by a receiver
// that hangs on them, the first attempt of a new message still goes at once: first attempts
// have workers of their own.
func TestFirstAttemptsPassHangingRetries(t *testing.T) {
	const limit = 2
	var (
		mu   sync.Mutex
		seen = map[string]int{}
	)
	hanging := make(chan string, 100)
	delivered := make(chan string, 100)
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get(webhook.HeaderID)
		h, _ := webhook.ParseHint(mustRead(r))
		mu.Lock()
		seen[id]++
		n := seen[id]
		mu.Unlock()
		switch {
		case h.ID == "new-order":
			w.WriteHeader(http.StatusNoContent)
			delivered <- id
		case n == 1:
			http.Error(w, "busy", http.StatusServiceUnavailable)
		default: // a retry: hang until the test ends
			hanging <- id
			select {
			case <-release:
			case <-r.Context().Done():
			}
		}
	}))
	defer srv.Close()
	defer close(release) // before srv.Close, which waits for the handlers

	clock := newFakeClock()
	db := openDB(t, dbPath(t))
	o := newOutbox(t, Options{DB: db, Clock: clock.Now, HTTPClient: plainClient(), Concurrency: limit, InOrder: true,
		PollInterval: time.Hour})
	for i := range 3 * limit {
		enqueue(t, o, db, message(t, "old-order-"+strconv.Itoa(i), srv.URL))
	}
	if n := deliverDue(t, o); n != 3*limit {
		t.Fatalf("first pass made %d attempts, want %d", n, 3*limit)
	}
	clock.Advance(2 * time.Hour) // every retry is due

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		o.Run(ctx)
		close(done)
	}()
	defer func() { cancel(); <-done }()
	for range limit {
		select {
		case <-hanging:
		case <-time.After(15 * time.Second):
			t.Fatal("the retries did not start")
		}
	}
	m := message(t, "new-order", srv.URL)
	if err := o.Enqueue(context.Background(), nil, m); err != nil {
		t.Fatal(err)
	}
	// The receiver's timeout is DefaultTimeout (10 s): behind the hanging retries the new
	// message would wait at least that long.
	select {
	case id := <-delivered:
		if id != m.ID {
			t.Fatalf("delivered %s, want %s", id, m.ID)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the new message's first attempt waited behind the hanging retries")
	}
}

func mustRead(r *http.Request) []byte {
	b, _ := io.ReadAll(r.Body)
	return b
}

// TestClaimUsesTheLanesIndex: each lane's claim reads its partial index of due deliveries, in
// the index's order, with or without InOrder: never a scan of every delivery, nor a sort.
func TestClaimUsesTheLanesIndex(t *testing.T) {
	db := openDB(t, dbPath(t))
	for _, inOrder := range []bool{false, true} {
		o := newOutbox(t, Options{DB: db, InOrder: inOrder})
		for retries, index := range map[bool]string{false: "webhook_deliveries_first", true: "webhook_deliveries_retry"} {
			rows, err := db.Query(`EXPLAIN QUERY PLAN `+o.claimSQL(retries), 1, 2, 3, 4)
			if err != nil {
				t.Fatal(err)
			}
			var plan []string
			for rows.Next() {
				var id, parent, unused int
				var detail string
				if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
					t.Fatal(err)
				}
				plan = append(plan, detail)
			}
			rows.Close()
			all := strings.Join(plan, "\n")
			if !strings.Contains(all, "USING INDEX "+index) || strings.Contains(all, "SCAN d\n") || strings.HasSuffix(all, "SCAN d") ||
				strings.Contains(all, "TEMP B-TREE") {
				t.Errorf("claim (retries %v, in order %v):\n%s", retries, inOrder, all)
			}
		}
	}
}

// TestLeaseKeepsOthersOffUntilItLapses: a delivery leased by another worker (a process that
// died mid-send leaves its lease) is not sent until the lease lapses, then it is.
func TestLeaseKeepsOthersOffUntilItLapses(t *testing.T) {
	rcv := newReceiver(t)
	db := openDB(t, dbPath(t))
	o := newOutbox(t, Options{DB: db, Clock: newFakeClock().Now, HTTPClient: plainClient()})
	enqueue(t, o, db, message(t, "rec-leased", rcv.URL))
	if _, err := db.Exec(`UPDATE webhook_deliveries SET lease_until = $1`, time.Now().Add(time.Hour).UnixMilli()); err != nil {
		t.Fatal(err)
	}
	if n := deliverDue(t, o); n != 0 || len(rcv.requests()) != 0 {
		t.Fatalf("a leased delivery was sent (%d attempts)", n)
	}
	if _, err := db.Exec(`UPDATE webhook_deliveries SET lease_until = $1`, time.Now().Add(-time.Second).UnixMilli()); err != nil {
		t.Fatal(err)
	}
	if n := deliverDue(t, o); n != 1 || len(rcv.requests()) != 1 {
		t.Fatalf("after its lease lapsed: %d attempts, %d requests; want 1", n, len(rcv.requests()))
	}
}

// TestOnAttemptAndBacklog: every attempt is told with the delivery's new status, and the
// backlog counts the deliveries waiting for one, first attempts and retries alike.
func TestOnAttemptAndBacklog(t *testing.T) {
	clock := newFakeClock()
	rcv := newReceiver(t, 500, 500, 500)
	db := openDB(t, dbPath(t))
	var statuses []string
	failures := 0
	o := newOutbox(t, Options{DB: db, Clock: clock.Now, HTTPClient: plainClient(), Schedule: Exponential(DefaultBaseDelay, DefaultMaxDelay, 3),
		OnAttempt: func(a Attempt, status string) {
			statuses = append(statuses, status)
			if a.Error != "" {
				failures++
			}
		}})
	backlog := func() int {
		t.Helper()
		n, err := o.Backlog(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := backlog(); n != 0 {
		t.Fatalf("backlog %d of an empty outbox", n)
	}
	enqueue(t, o, db, message(t, "rec-a", rcv.URL))
	if n := backlog(); n != 1 {
		t.Errorf("backlog %d with one waiting, want 1", n)
	}
	deliverDue(t, o)
	if n := backlog(); n != 1 {
		t.Errorf("backlog %d with one waiting for its retry, want 1", n)
	}
	for range 5 {
		clock.Advance(2 * time.Hour)
		deliverDue(t, o)
	}
	enqueue(t, o, db, message(t, "rec-b", rcv.URL)) // the receiver answers 200 from now on
	deliverDue(t, o)
	if n := backlog(); n != 0 {
		t.Errorf("backlog %d after every delivery ended, want 0", n)
	}
	want := strings.Join([]string{StatusPending, StatusPending, StatusDead, StatusDelivered}, ",")
	if got := strings.Join(statuses, ","); got != want || failures != 3 {
		t.Errorf("attempts %s with %d failures; want %s and 3 failures", got, failures, want)
	}
}

// TestRecordSentAndExcerpts: a message its caller sent itself is in the log, delivered or dead
// with its one attempt and the answer's excerpt, never sent again by a pass; a delivery the
// outbox sends keeps its answer's excerpt too; RecordKind filters the list.
func TestRecordSentAndExcerpts(t *testing.T) {
	ctx := context.Background()
	clock := newFakeClock()
	rcv := newReceiver(t)
	db := openDB(t, dbPath(t))
	o := newOutbox(t, Options{DB: db, Clock: clock.Now, HTTPClient: plainClient()})

	at := clock.Now().Add(-time.Minute)
	ok := message(t, "", "")
	ok.RecordKind, ok.Secret, ok.Type = "ping", "", "ping"
	if err := o.RecordSent(ctx, ok, Attempt{At: at, URL: "https://erp.example/hook?token=s3cr3t", StatusCode: 200,
		Duration: 42 * time.Millisecond, Excerpt: "pong"}); err != nil {
		t.Fatal(err)
	}
	if err := o.RecordSent(ctx, ok, Attempt{At: at, StatusCode: 500, Error: "HTTP 500"}); err != nil {
		t.Fatalf("recording again: %v", err)
	}
	bad := ok
	bad.ID = webhook.NewMessageID()
	if err := o.RecordSent(ctx, bad, Attempt{At: at, StatusCode: 503, Error: "HTTP 503: down", Excerpt: "down"}); err != nil {
		t.Fatal(err)
	}
	if n := deliverDue(t, o); n != 0 {
		t.Fatalf("a pass sent %d recorded messages", n)
	}
	ds, err := o.Deliveries(ctx, Filter{RecordKind: "ping"})
	if err != nil || len(ds) != 2 {
		t.Fatalf("pings: %+v, %v", ds, err)
	}
	d, dead := ds[1], ds[0]
	if d.MessageID != ok.ID || d.Status != StatusDelivered || d.Attempts != 1 || d.LastStatusCode != 200 ||
		d.LastDuration != 42*time.Millisecond || d.LastExcerpt != "pong" || !d.CreatedAt.Equal(at.Truncate(time.Millisecond)) {
		t.Errorf("the delivered ping: %+v", d)
	}
	if dead.Status != StatusDead || dead.LastError != "HTTP 503: down" || dead.LastExcerpt != "down" {
		t.Errorf("the failed ping: %+v", dead)
	}
	as, err := o.Attempts(ctx, d.ID)
	if err != nil || len(as) != 1 || as[0].N != 1 || as[0].URL != "https://erp.example/hook" || as[0].Excerpt != "pong" ||
		as[0].StatusCode != 200 {
		t.Errorf("the ping's attempt: %+v, %v", as, err)
	}

	// A delivery the outbox sends keeps the answer's excerpt; the kind filter leaves it out of
	// the pings and the pings out of its kind.
	enqueue(t, o, db, message(t, "rec-excerpt", rcv.URL))
	if n := deliverDue(t, o); n != 1 {
		t.Fatalf("delivered %d", n)
	}
	sent := onlyDelivery(t, o, "rec-excerpt")
	if sent.LastExcerpt != "answer OK" || sent.LastDuration <= 0 {
		t.Errorf("a sent delivery: %+v", sent)
	}
	if ds, _ := o.Deliveries(ctx, Filter{RecordKind: "deposit"}); len(ds) != 1 || ds[0].ID != sent.ID {
		t.Errorf("deposits: %+v", ds)
	}
	if err := o.RecordSent(ctx, Message{ID: "msg_x", Body: []byte("{")}, Attempt{At: at}); err == nil {
		t.Error("a body that is not JSON was recorded")
	}
}

// TestNothingDueTakesNoWriterTurn: on SQLite a pass that finds nothing due (the last claim of
// every pass, the retries' lane woken with the first attempts) reads through the readers and
// does not wait for the one writer, which orders being placed and paid keep busy; once
// something is due, the pass claims it through the writer as before.
func TestNothingDueTakesNoWriterTurn(t *testing.T) {
	rcv := newReceiver(t)
	path := dbPath(t)
	w, r := openDB(t, path), openDB(t, path)
	w.SetMaxOpenConns(1) // the store's one writer
	o := newOutbox(t, Options{DB: w, ReadDB: r, HTTPClient: plainClient()})
	busy, err := w.BeginTx(context.Background(), nil) // the writer, taken by another change
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if n, err := o.DeliverDue(ctx); n != 0 || err != nil {
		t.Fatalf("a pass with nothing due while the writer is busy: %d attempts, %v", n, err)
	}
	if err := o.Enqueue(context.Background(), busy, message(t, "rec-due", rcv.URL)); err != nil {
		t.Fatal(err)
	}
	if err := busy.Commit(); err != nil {
		t.Fatal(err)
	}
	if n := deliverDue(t, o); n != 1 || len(rcv.requests()) != 1 {
		t.Fatalf("once due: %d attempts, %d requests; want 1", n, len(rcv.requests()))
	}
}
