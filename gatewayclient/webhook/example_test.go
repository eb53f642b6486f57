package webhook_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/pixcheckout/pixcheckout/gatewayclient/webhook"
)

// A sender signs an event; a receiver verifies it and learns which record to re-fetch.
func Example() {
	secret := "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	sentAt := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)

	// Sender side.
	event := webhook.Event{
		ID:        webhook.NewMessageID(),
		Type:      webhook.EventType(webhook.KindDeposit, "PAID"),
		Timestamp: sentAt,
		Data:      json.RawMessage(`{"id":"5b0c9a2e-8f1d-4c3b-a6e7-1d2c3b4a5f60","status":"PAID"}`),
	}
	body, _ := json.Marshal(event)
	headers, _ := webhook.Headers(secret, event.ID, sentAt, body)

	// Receiver side.
	v := webhook.Verifier{Secret: secret, Now: func() time.Time { return sentAt.Add(3 * time.Second) }}
	receiver := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
		if err != nil {
			http.Error(w, "body too large", http.StatusRequestEntityTooLarge)
			return
		}
		if err := v.Verify(r.Header, b); err != nil {
			http.Error(w, "bad signature", http.StatusUnauthorized)
			return
		}
		hint, err := webhook.ParseHint(b)
		if err != nil {
			http.Error(w, "unusable payload", http.StatusBadRequest)
			return
		}
		fmt.Printf("re-fetch %s %s (event %s)\n", hint.Kind, hint.ID, hint.Type)
		w.WriteHeader(http.StatusNoContent)
	})

	req := httptest.NewRequest(http.MethodPost, "/webhooks/gateway", strings.NewReader(string(body)))
	for k, vs := range headers {
		req.Header[k] = vs
	}
	rec := httptest.NewRecorder()
	receiver.ServeHTTP(rec, req)
	fmt.Println(rec.Code)

	// A tampered body is refused.
	req = httptest.NewRequest(http.MethodPost, "/webhooks/gateway", strings.NewReader(strings.Replace(string(body), "PAID", "REFUNDED", 1)))
	for k, vs := range headers {
		req.Header[k] = vs
	}
	rec = httptest.NewRecorder()
	receiver.ServeHTTP(rec, req)
	fmt.Println(rec.Code)

	// Output:
	// re-fetch deposit 5b0c9a2e-8f1d-4c3b-a6e7-1d2c3b4a5f60 (event deposit.paid)
	// 204
	// 401
}
