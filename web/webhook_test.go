package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
	"github.com/pixcheckout/pixcheckout/gatewayclient/webhook"
)

// paidInSandbox places an order and pays it in the sandbox directly (no webhook is sent):
// it returns the order id and the paid deposit.
func (e *env) paidInSandbox() (string, gatewayclient.Deposit) {
	e.t.Helper()
	id := orderID(e.placeOrder())
	o, err := e.svc.Order(context.Background(), id)
	if err != nil {
		e.t.Fatal(err)
	}
	d, err := e.sb.ControlDeposit(context.Background(), "checkout", o.CurrentAttempt().TransactionID, sandbox.ActionPay, sandbox.DepositControl{})
	if err != nil {
		e.t.Fatal(err)
	}
	return id, d
}

// event is the webhook body of a deposit.
func event(t *testing.T, d gatewayclient.Deposit) []byte {
	t.Helper()
	data, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(webhook.Event{Type: webhook.EventType("deposit", string(d.Status)), Timestamp: time.Now(), Data: data})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// deliver posts a webhook body with headers; it returns the status.
func (e *env) deliver(body []byte, h http.Header) int {
	e.t.Helper()
	req, err := http.NewRequest(http.MethodPost, e.srv.URL+"/webhooks/gateway", bytes.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range h {
		req.Header[k] = v
	}
	res, err := e.http.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

// signed signs body as msgID at ts with secret.
func signed(t *testing.T, secret, msgID string, ts time.Time, body []byte) http.Header {
	t.Helper()
	h, err := webhook.Headers(secret, msgID, ts, body)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestWebhookValidSignatureApplied(t *testing.T) {
	e := newEnv(t)
	id, d := e.paidInSandbox()
	body := event(t, d)
	// Cross-site headers do not matter here: the receiver is server to server.
	h := signed(t, testWebhookSecret, webhook.NewMessageID(), e.sb.Now(), body)
	h.Set("Sec-Fetch-Site", "cross-site")
	h.Set("Origin", "https://gateway.example.com")
	if code := e.deliver(body, h); code != http.StatusAccepted {
		t.Fatalf("status %d, want 202", code)
	}
	o := e.waitStatus(id, checkout.StatusPaid)
	if o.PaidAt.IsZero() {
		t.Error("paid order without a payment time")
	}
}

func TestWebhookRefusedChangesNothing(t *testing.T) {
	e := newEnv(t)
	id, d := e.paidInSandbox()
	body := event(t, d)
	cases := map[string]http.Header{
		"forged signature": signed(t, "whsec_Zm9yZ2VkLXNlY3JldC1mb3ItdGVzdHMtb25seS4uLg==", "msg_1", e.sb.Now(), body),
		"old timestamp":    signed(t, testWebhookSecret, "msg_2", e.sb.Now().Add(-10*time.Minute), body),
		"future timestamp": signed(t, testWebhookSecret, "msg_3", e.sb.Now().Add(10*time.Minute), body),
		"unsigned":         {"Webhook-Id": {"msg_4"}},
	}
	tampered := signed(t, testWebhookSecret, "msg_5", e.sb.Now(), body)
	for name, h := range cases {
		if code := e.deliver(body, h); code != http.StatusUnauthorized {
			t.Errorf("%s: status %d, want 401", name, code)
		}
	}
	if code := e.deliver(bytes.Replace(body, []byte(`"PAID"`), []byte(`"PAID" `), 1), tampered); code != http.StatusUnauthorized {
		t.Errorf("tampered body: status %d, want 401", code)
	}
	o, err := e.svc.Order(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if o.Status != checkout.StatusAwaitingPayment || e.gw.gets.Load() != 0 {
		t.Errorf("a refused webhook changed the order (%s) or read the deposit (%d)", o.Status, e.gw.gets.Load())
	}
	// The genuine one is still processed afterwards: refusals did not mark its id as seen.
	if code := e.deliver(body, signed(t, testWebhookSecret, "msg_1", e.sb.Now(), body)); code != http.StatusAccepted {
		t.Errorf("genuine webhook after refusals: %d", code)
	}
	e.waitStatus(id, checkout.StatusPaid)
}

func TestWebhookUnknownDepositChangesNothing(t *testing.T) {
	e := newEnv(t)
	id := orderID(e.placeOrder())
	body := []byte(`{"type":"deposit.paid","timestamp":"2026-01-01T00:00:00.000Z","data":{"id":"0b7c3c52-1f5e-4c57-9d3a-2a4f4a6f9e11","status":"PAID","amount":2990}}`)
	if code := e.deliver(body, signed(t, testWebhookSecret, "msg_unknown", e.sb.Now(), body)); code != http.StatusAccepted {
		t.Fatalf("status %d", code)
	}
	// Drain the webhook queue: the unknown deposit has been handled after this.
	if err := e.web.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	o, err := e.svc.Order(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if o.Status != checkout.StatusAwaitingPayment {
		t.Errorf("an unknown deposit changed an order: %s", o.Status)
	}
	if e.gw.gets.Load() != 0 {
		t.Errorf("an unknown deposit was fetched %d times", e.gw.gets.Load())
	}
}

func TestWebhookDuplicateProcessedOnce(t *testing.T) {
	e := newEnv(t)
	id, d := e.paidInSandbox()
	body := event(t, d)
	h := signed(t, testWebhookSecret, "msg_dup", e.sb.Now(), body)
	if code := e.deliver(body, h); code != http.StatusAccepted {
		t.Fatalf("first delivery: %d", code)
	}
	if code := e.deliver(body, h); code != http.StatusOK {
		t.Errorf("second delivery: %d, want 200", code)
	}
	e.waitStatus(id, checkout.StatusPaid)
	// Drain the queue, then count.
	if err := e.web.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := e.gw.gets.Load(); n != 1 {
		t.Errorf("GetDeposit called %d times for one webhook delivered twice", n)
	}
}

func TestWebhookUnsignedOnlyWithoutSecret(t *testing.T) {
	e := newEnv(t, func(o *envOptions) { o.webhookSecret = "" })
	id, d := e.paidInSandbox()
	body := event(t, d)
	if code := e.deliver(body, http.Header{"Webhook-Id": {"msg_plain"}}); code != http.StatusAccepted {
		t.Fatalf("unsigned webhook without a secret: %d, want 202", code)
	}
	e.waitStatus(id, checkout.StatusPaid)
}

func TestWebhookBadBodies(t *testing.T) {
	e := newEnv(t)
	big := []byte(`{"id":"` + strings.Repeat("a", 1<<20) + `"}`)
	if code := e.deliver(big, signed(t, testWebhookSecret, "msg_big", e.sb.Now(), big)); code != http.StatusRequestEntityTooLarge {
		t.Errorf("1 MiB body: %d, want 413", code)
	}
	notJSON := []byte("hello")
	if code := e.deliver(notJSON, signed(t, testWebhookSecret, "msg_text", e.sb.Now(), notJSON)); code != http.StatusBadRequest {
		t.Errorf("non-JSON body: %d, want 400", code)
	}
	noID := []byte(`{"type":"ping"}`)
	if code := e.deliver(noID, signed(t, testWebhookSecret, "msg_ping", e.sb.Now(), noID)); code != http.StatusOK {
		t.Errorf("payload without a record: %d, want 200", code)
	}
}

func TestWebhookQueueFullProcessesInline(t *testing.T) {
	e := newEnv(t, func(o *envOptions) { o.workers, o.queue = 1, 1 })
	var ids []string
	var bodies [][]byte
	for range 3 {
		id, d := e.paidInSandbox()
		ids = append(ids, id)
		bodies = append(bodies, event(t, d))
	}
	entered, release := make(chan struct{}), make(chan struct{})
	e.gw.mu.Lock()
	e.gw.entered, e.gw.release = entered, release
	e.gw.mu.Unlock()
	send := func(i int) int {
		return e.deliver(bodies[i], signed(t, testWebhookSecret, "msg_q"+string(rune('a'+i)), e.sb.Now(), bodies[i]))
	}
	if code := send(0); code != http.StatusAccepted {
		t.Fatalf("first: %d", code)
	}
	<-entered // the only worker is busy with the first
	if code := send(1); code != http.StatusAccepted {
		t.Fatalf("second: %d", code)
	}
	// The queue is full: the third is processed by its own request, which waits for it.
	third := make(chan int, 1)
	go func() { third <- send(2) }()
	<-entered
	select {
	case code := <-third:
		t.Fatalf("the third delivery answered %d before its processing finished", code)
	default:
	}
	close(release)
	if code := <-third; code != http.StatusAccepted {
		t.Errorf("third: %d", code)
	}
	go func() { // the second one, from the queue, enters too
		for range entered {
		}
	}()
	for _, id := range ids {
		e.waitStatus(id, checkout.StatusPaid)
	}
	e.gw.mu.Lock()
	e.gw.entered = nil
	e.gw.mu.Unlock()
	close(entered) // ends the draining goroutine
}

// TestWebhookPlausibleShapes: payloads of other shapes than the sandbox's are hints all the
// same: each one makes the checkout read the deposit again and apply it.
func TestWebhookPlausibleShapes(t *testing.T) {
	for name, shape := range map[string]string{
		"bare record":         `{"id":%q,"status":"PAID","depositOrigin":"PIX"}`,
		"event and payload":   `{"event":"deposit.paid","payload":{"id":%q}}`,
		"data object":         `{"type":"charge.updated","data":{"object":{"id":%q,"paymentMethod":"PIX"}}}`,
		"transaction id only": `{"transactionId":%q}`,
	} {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t)
			id, d := e.paidInSandbox()
			body := []byte(fmt.Sprintf(shape, d.ID))
			if code := e.deliver(body, signed(t, testWebhookSecret, "msg_"+strings.ReplaceAll(name, " ", "_"), e.sb.Now(), body)); code/100 != 2 {
				t.Fatalf("answered %d", code)
			}
			e.waitStatus(id, checkout.StatusPaid)
		})
	}
}

// With the queue full the webhook is processed by its own request: a failure then answers
// 503, so that the gateway redelivers, and the redelivery (same id) is processed, not taken
// for a duplicate.
func TestWebhookInlineFailureAsksForRedelivery(t *testing.T) {
	e := newEnv(t, func(o *envOptions) { o.workers, o.queue = 1, 1 })
	var ids []string
	var bodies [][]byte
	for range 3 {
		id, d := e.paidInSandbox()
		ids = append(ids, id)
		bodies = append(bodies, event(t, d))
	}
	entered, release := make(chan struct{}), make(chan struct{})
	e.gw.mu.Lock()
	e.gw.entered, e.gw.release = entered, release
	e.gw.mu.Unlock()
	send := func(i int) int {
		return e.deliver(bodies[i], signed(t, testWebhookSecret, "msg_r"+string(rune('a'+i)), e.sb.Now(), bodies[i]))
	}
	if code := send(0); code != http.StatusAccepted {
		t.Fatalf("first: %d", code)
	}
	<-entered // the only worker is busy with the first
	if code := send(1); code != http.StatusAccepted {
		t.Fatalf("second: %d", code)
	}
	// The queue is full and the gateway now fails: the third is processed inline and fails.
	e.gw.mu.Lock()
	e.gw.failGet = fmt.Errorf("gateway down: %w", gatewayclient.ErrGatewayUnavailable)
	e.gw.mu.Unlock()
	if code := send(2); code != http.StatusServiceUnavailable {
		t.Errorf("inline failure answered %d, want 503", code)
	}
	// The gateway recovers; release the worker and redeliver the third.
	e.gw.mu.Lock()
	e.gw.failGet, e.gw.entered, e.gw.release = nil, nil, nil
	e.gw.mu.Unlock()
	close(release)
	if code := send(2); code != http.StatusAccepted {
		t.Errorf("redelivery answered %d, want 202", code)
	}
	for _, id := range ids {
		e.waitStatus(id, checkout.StatusPaid)
	}
}

// TestWebhookRefusalNamesTheCause: the 401 says which check failed — a clock far off is told
// as such (with how far), not as a bad signature.
func TestWebhookRefusalNamesTheCause(t *testing.T) {
	e := newEnv(t)
	_, d := e.paidInSandbox()
	body := event(t, d)
	for name, tc := range map[string]struct {
		h    http.Header
		want string
	}{
		"clock an hour ahead": {signed(t, testWebhookSecret, "msg_a", e.sb.Now().Add(time.Hour), body), "3600 s away from this server's clock"},
		"forged signature":    {signed(t, "whsec_Zm9yZ2VkLXNlY3JldC1mb3ItdGVzdHMtb25seS4uLg==", "msg_b", e.sb.Now(), body), "invalid signature"},
		"no headers":          {http.Header{}, "missing or malformed"},
	} {
		req, err := http.NewRequest(http.MethodPost, e.srv.URL+"/webhooks/gateway", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range tc.h {
			req.Header[k] = v
		}
		res, err := e.http.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusUnauthorized || !strings.Contains(string(b), tc.want) {
			t.Errorf("%s: %d %s; want 401 saying %q", name, res.StatusCode, b, tc.want)
		}
	}
}

// TestWebhookSecretRotation: with the receiver's secret set to the gateway's new and old
// secrets (CHECKOUT_GATEWAY_WEBHOOK_SECRET="whsec_new whsec_old"), a webhook signed by either
// alone is applied, and one by a third secret refused: a gateway's rotation drops none.
func TestWebhookSecretRotation(t *testing.T) {
	newSecret, _ := webhook.NewSecret()
	e := newEnv(t, func(o *envOptions) { o.webhookSecret = newSecret + " " + testWebhookSecret })
	other, _ := webhook.NewSecret()
	for i, secret := range []string{testWebhookSecret, newSecret} {
		id, d := e.paidInSandbox()
		body := event(t, d)
		if code := e.deliver(body, signed(t, other, webhook.NewMessageID(), e.sb.Now(), body)); code != http.StatusUnauthorized {
			t.Errorf("a third secret: status %d, want 401", code)
		}
		if code := e.deliver(body, signed(t, secret, webhook.NewMessageID(), e.sb.Now(), body)); code != http.StatusAccepted {
			t.Fatalf("secret %d of the rotation: status %d, want 202", i, code)
		}
		e.waitStatus(id, checkout.StatusPaid)
	}
}
