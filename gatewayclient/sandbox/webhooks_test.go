package sandbox

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	gc "github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/contracttest"
	"github.com/pixcheckout/pixcheckout/gatewayclient/webhook"
)

// received is one webhook as a receiver saw it.
type received struct {
	header http.Header
	body   []byte
}

// hookReceiver serves webhooks until the test ends and returns its URL and what it receives.
// Each delivery is held to the contract's webhook of its kind (gatewayclient/openapi.json).
func hookReceiver(t *testing.T) (string, <-chan received) {
	spec, err := contracttest.Load()
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan received, 16)
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var ev struct{ Type string }
		_ = json.Unmarshal(b, &ev)
		kind, _, _ := strings.Cut(ev.Type, ".")
		if err := spec.CheckWebhook(kind, r.Header, b); err != nil {
			t.Errorf("webhook %s: %v\n%s", ev.Type, err, b)
		}
		got <- received{r.Header.Clone(), b}
	}))
	t.Cleanup(recv.Close)
	return recv.URL, got
}

// logSignal is a slog.Handler that sends on ch each time a record with message msg is logged:
// the outbox logs "webhook delivered" once it has recorded the delivery, so a test waits for
// that line instead of polling the delivery log.
type logSignal struct {
	msg string
	ch  chan struct{}
}

func (h logSignal) Enabled(context.Context, slog.Level) bool { return true }
func (h logSignal) Handle(_ context.Context, r slog.Record) error {
	if r.Message == h.msg {
		h.ch <- struct{}{} // buffered for every delivery a test makes
	}
	return nil
}
func (h logSignal) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h logSignal) WithGroup(string) slog.Handler      { return h }

func TestWebhooksArriveSignedAtForwardURL(t *testing.T) {
	t.Parallel()
	recvURL, got := hookReceiver(t)
	delivered := logSignal{msg: "webhook delivered", ch: make(chan struct{}, 16)}
	e := newEnv(t, func(o *Options) {
		o.WebhookForwardTo = recvURL + "/hooks"
		o.Logger = slog.New(delivered)
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { e.sb.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()

	secret := e.sb.clients[testClientID].WebhookSecret
	if c, ok := e.sb.Client(testClientID); !ok || c.WebhookSecret != secret || len(secret) < 10 {
		t.Fatalf("Client(): %+v", c)
	}
	tok := e.token()
	tx := e.createTx(tok, "hook-0001", 1990)
	e.doJSON("POST", "/sandbox/deposits/"+tx.ID+"/pay", tok, nil, 200, nil)

	v := webhook.Verifier{Secret: secret} // real time: webhooks are signed with it
	seen := map[string]bool{}
	for range 2 {
		var r received
		select {
		case r = <-got:
		case <-time.After(30 * time.Second):
			t.Fatalf("webhooks seen %v, want 2", seen)
		}
		if err := v.Verify(r.header, r.body); err != nil {
			t.Fatalf("signature: %v", err)
		}
		var ev struct {
			Type      string     `json:"type"`
			Timestamp string     `json:"timestamp"`
			Data      gc.Deposit `json:"data"`
		}
		if err := json.Unmarshal(r.body, &ev); err != nil {
			t.Fatal(err)
		}
		seen[ev.Type] = true
		if ev.Data.ID != tx.ID || ev.Timestamp == "" || string(ev.Data.Status) != strings.ToUpper(strings.TrimPrefix(ev.Type, "deposit.")) {
			t.Fatalf("event %+v for %s", ev, tx.ID)
		}
		if ev.Type == "deposit.paid" && (ev.Data.Payer == nil || !strings.Contains(ev.Data.Payer.Document, "***")) {
			t.Fatalf("paid event data %+v", ev.Data)
		}
		// A wrong secret does not verify.
		if err := (webhook.Verifier{Secret: "whsec_" + "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}).Verify(r.header, r.body); err == nil {
			t.Fatal("verified with the wrong secret")
		}
	}
	if !seen["deposit.pix_qrcode_generated"] || !seen["deposit.paid"] {
		t.Fatalf("webhooks seen %v", seen)
	}
	// The deliveries are visible through the control API, once the outbox has recorded them.
	for range 2 {
		select {
		case <-delivered.ch:
		case <-time.After(30 * time.Second):
			t.Fatal("the outbox did not record both deliveries")
		}
	}
	var out struct {
		Deliveries []struct {
			Status     string
			Attempts   int
			AttemptLog []json.RawMessage `json:"attemptLog"`
		} `json:"deliveries"`
	}
	e.doJSON("GET", "/sandbox/deposits/"+tx.ID+"/deliveries", tok, nil, 200, &out)
	if len(out.Deliveries) != 2 || out.Deliveries[0].Status != "delivered" || out.Deliveries[1].Status != "delivered" ||
		len(out.Deliveries[0].AttemptLog) != 1 {
		t.Fatalf("deliveries %+v", out.Deliveries)
	}
}

func TestWebhookEnqueuedForRecordURL(t *testing.T) {
	t.Parallel()
	// Without Run nothing is sent: the change alone must leave a pending delivery to the
	// record's webhookUrl, written in the same transaction.
	e := newEnv(t, nil)
	tok := e.token()
	req := txRequest("hook-0002", 500)
	req.WebhookURL = "https://hooks.example.com/pix"
	var tx gc.Transaction
	e.doJSON("POST", "/transaction", tok, req, 201, &tx)
	ds, err := e.sb.Deliveries(context.Background(), tx.ID, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 1 || ds[0].URL != req.WebhookURL || ds[0].Type != "deposit.pix_qrcode_generated" || ds[0].Status != "pending" {
		t.Fatalf("deliveries %+v", ds)
	}
}

// TestWebhooksSignedWithRealTimeAfterClockAdvance advances the sandbox clock by two hours and
// restarts it (the offset is kept): webhooks still verify against a receiver's real clock,
// because webhook-timestamp is when the attempt was sent, while the body's timestamp stays
// the simulated time of the change, like the record's own dates.
func TestWebhooksSignedWithRealTimeAfterClockAdvance(t *testing.T) {
	t.Parallel()
	recvURL, got := hookReceiver(t)
	// The base clock is the real one, as when the sandbox runs for real.
	e := &env{t: t, dir: t.TempDir()}
	useReal := func(o *Options) { o.Clock = systemClock{}; o.WebhookForwardTo = recvURL }
	e.start(useReal)
	if err := e.sb.AdvanceClock(context.Background(), 2*time.Hour); err != nil {
		t.Fatal(err)
	}
	e.stop()
	e.start(useReal)
	if skew := time.Until(e.sb.Now()); skew < 2*time.Hour-time.Minute {
		t.Fatalf("the sandbox clock is %v ahead after a restart, want 2 h", skew)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { e.sb.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	tok := e.token()
	tx := e.createTx(tok, "hook-real-1", 1990)
	var r received
	select {
	case r = <-got:
	case <-time.After(30 * time.Second):
		t.Fatal("no webhook")
	}
	secret := e.sb.clients[testClientID].WebhookSecret
	if err := (webhook.Verifier{Secret: secret}).Verify(r.header, r.body); err != nil {
		t.Fatalf("a receiver on real time refuses the webhook: %v", err)
	}
	var ev struct {
		Timestamp time.Time `json:"timestamp"`
		Data      struct {
			ID        string    `json:"id"`
			CreatedAt time.Time `json:"createdAt"`
		} `json:"data"`
	}
	if err := json.Unmarshal(r.body, &ev); err != nil {
		t.Fatal(err)
	}
	if ev.Data.ID != tx.ID || !ev.Timestamp.Equal(ev.Data.CreatedAt) || time.Until(ev.Timestamp) < time.Hour {
		t.Fatalf("body timestamp %v, record created %v: want the sandbox's time, two hours ahead", ev.Timestamp, ev.Data.CreatedAt)
	}
}

// TestDeliveriesJSONIsCamelCaseWithMilliseconds checks the keys of GET
// sandbox/deposits/{id}/deliveries one by one (camelCase like the API's, no Go field names),
// its times (the API's format) and its durations (milliseconds, not nanoseconds).
func TestDeliveriesJSONIsCamelCaseWithMilliseconds(t *testing.T) {
	t.Parallel()
	refusing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer refusing.Close()
	e := newEnv(t, func(o *Options) { o.WebhookForwardTo = refusing.URL })
	tok := e.token()
	tx := e.createTx(tok, "deliveries-json-1", 700)
	ctx := context.Background()
	start := time.Now()
	if _, err := e.sb.hooks.ob.DeliverDue(ctx); err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	// The attempt's duration is the round trip, measured: more than nothing, less than the
	// whole delivery pass. It is then set to a known value, so the JSON's unit shows exactly.
	var measured time.Duration
	if err := e.sb.w.QueryRowContext(ctx, `SELECT duration_ns FROM webhook_attempts`).Scan(&measured); err != nil {
		t.Fatal(err)
	}
	if measured <= 0 || measured > took {
		t.Fatalf("attempt took %v by the outbox, the pass %v", measured, took)
	}
	const known = 1234*time.Millisecond + 567890*time.Nanosecond
	if _, err := e.sb.w.ExecContext(ctx, `UPDATE webhook_attempts SET duration_ns = ?`, int64(known)); err != nil {
		t.Fatal(err)
	}
	var out struct {
		Deliveries []map[string]json.RawMessage `json:"deliveries"`
	}
	e.doJSON("GET", "/sandbox/deposits/"+tx.ID+"/deliveries", tok, nil, 200, &out)
	if len(out.Deliveries) != 1 {
		t.Fatalf("deliveries %v", out.Deliveries)
	}
	d := out.Deliveries[0]
	keys := func(m map[string]json.RawMessage) []string {
		var ks []string
		for k := range m {
			ks = append(ks, k)
		}
		slices.Sort(ks)
		return ks
	}
	want := []string{"attemptLog", "attempts", "createdAt", "forward", "id", "lastError", "lastStatusCode", "messageId",
		"nextAttemptAt", "recordId", "recordKind", "status", "type", "updatedAt", "url"}
	if got := keys(d); !slices.Equal(got, want) {
		t.Fatalf("delivery keys %v, want %v", got, want)
	}
	var created string
	if err := json.Unmarshal(d["createdAt"], &created); err != nil || !strings.HasSuffix(created, "Z") || len(created) != len("2006-01-02T15:04:05.000Z") {
		t.Fatalf("createdAt %s (%v), want the API's time format", d["createdAt"], err)
	}
	var attempts []map[string]json.RawMessage
	if err := json.Unmarshal(d["attemptLog"], &attempts); err != nil || len(attempts) != 1 {
		t.Fatalf("attemptLog %s (%v)", d["attemptLog"], err)
	}
	if got := keys(attempts[0]); !slices.Equal(got, []string{"at", "durationInMilliseconds", "error", "n", "statusCode"}) {
		t.Fatalf("attempt keys %v", got)
	}
	var ms int64
	if err := json.Unmarshal(attempts[0]["durationInMilliseconds"], &ms); err != nil || ms != known.Milliseconds() {
		t.Fatalf("durationInMilliseconds %s (%v): want %d for an attempt of %v", attempts[0]["durationInMilliseconds"], err, known.Milliseconds(), known)
	}
}
