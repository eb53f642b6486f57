package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	gc "github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/webhook"
)

// TestQRImageKeptOnce: a deposit's QR image is stored in its record only, yet the replayed
// answer of its idempotency key is byte for byte the first one, and its webhook carries the
// image, signed.
func TestQRImageKeptOnce(t *testing.T) {
	t.Parallel()
	recvURL, got := hookReceiver(t)
	e := newEnv(t, func(o *Options) { o.WebhookForwardTo = recvURL })
	tok := e.token()
	req := txRequest("kept-once-1", 1234)
	st, _, first := e.do("POST", "/transaction", tok, req)
	if st != http.StatusCreated {
		t.Fatalf("POST /transaction: %d %s", st, first)
	}
	var tx gc.Transaction
	if err := json.Unmarshal(first, &tx); err != nil || tx.PixResponse == nil || tx.PixResponse.QRCodeBase64 == "" {
		t.Fatalf("answer %s: %v", first, err)
	}
	if code := decodeQR(t, tx.PixResponse.QRCodeBase64); code != tx.PixResponse.URI {
		t.Fatalf("QR image says %q, uri is %q", code, tx.PixResponse.URI)
	}
	st, _, again := e.do("POST", "/transaction", tok, req)
	if st != http.StatusCreated || !bytes.Equal(again, first) {
		t.Fatalf("replay: %d\n%s\nwant the first answer\n%s", st, again, first)
	}

	// Stored once: in the record, not in the idempotency answer nor the webhook's body.
	ctx := context.Background()
	var stored, body []byte
	if err := e.sb.r.QueryRowContext(ctx, `SELECT response FROM idempotency WHERE key = ?`, req.IdempotencyKey).Scan(&stored); err != nil {
		t.Fatal(err)
	}
	if err := e.sb.r.QueryRowContext(ctx, `SELECT body FROM webhook_deliveries WHERE record_id = ?`, tx.ID).Scan(&body); err != nil {
		t.Fatal(err)
	}
	img := []byte(tx.PixResponse.QRCodeBase64)
	if bytes.Contains(stored, img) || !bytes.Contains(stored, emptyQR) || bytes.Contains(body, img) || !bytes.Contains(body, emptyQR) {
		t.Fatalf("the image is stored beside the record:\nidempotency %s\nwebhook %s", stored, body)
	}
	d, err := loadDeposit(ctx, e.sb.r, testClientID, tx.ID)
	if err != nil || d.PixResponse == nil || d.PixResponse.QRCodeBase64 != tx.PixResponse.QRCodeBase64 {
		t.Fatalf("the record does not keep the image: %+v, %v", d, err)
	}

	// The webhook carries it.
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { e.sb.Run(runCtx); close(done) }()
	defer func() { cancel(); <-done }()
	var r received
	select {
	case r = <-got:
	case <-time.After(30 * time.Second):
		t.Fatal("no webhook")
	}
	if err := (webhook.Verifier{Secret: e.sb.clients[testClientID].WebhookSecret}).Verify(r.header, r.body); err != nil {
		t.Fatalf("webhook signature: %v", err)
	}
	var ev struct {
		Data gc.Deposit `json:"data"`
	}
	if err := json.Unmarshal(r.body, &ev); err != nil || ev.Data.PixResponse == nil || ev.Data.PixResponse.QRCodeBase64 != tx.PixResponse.QRCodeBase64 {
		t.Fatalf("webhook %s: %v; want the deposit's QR image", r.body, err)
	}
}
