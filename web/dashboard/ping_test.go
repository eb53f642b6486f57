package dashboard_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout/audit"
	"github.com/pixcheckout/pixcheckout/checkout/notify"
	"github.com/pixcheckout/pixcheckout/checkout/settings"
	"github.com/pixcheckout/pixcheckout/gatewayclient/webhook"
)

// testSecret signs the notifications of the tests that configure a receiver.
const testSecret = "whsec_dGVzdC1zZWNyZXQtb2YtdGhlLWRhc2hib2FyZC10ZXN0cw"

// receiver is a merchant's server for test notifications: it checks the signature and answers
// status with body; it sends the verified ping's body on got.
func receiver(t *testing.T, status int, body string, got chan<- map[string]any) *httptest.Server {
	t.Helper()
	return receiverAt(t, nil, status, body, got)
}

// receiverAt is a receiver whose clock is now (nil: the wall clock), the checkout's when the
// test stops it.
func receiverAt(t *testing.T, now func() time.Time, status int, body string, got chan<- map[string]any) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		if err := (webhook.Verifier{Secret: testSecret, Now: now}).Verify(r.Header, b); err != nil {
			t.Errorf("the ping's signature: %v", err)
		}
		var ev map[string]any
		_ = json.Unmarshal(b, &ev)
		if got != nil {
			got <- ev
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestTestNotification: the settings page sends a signed ping to the URL in force and shows
// the answer's status, time and the start of its body; a failing receiver shows as failed;
// both are in the audit log.
func TestTestNotification(t *testing.T) {
	got := make(chan map[string]any, 1)
	ok := receiver(t, http.StatusOK, "  ok-from-erp\x00 \n", got)
	e := newEnv(t, func(o *envOptions) {
		o.merchant = settings.Config{WebhookURL: ok.URL + "/hook?token=s3cr3t", WebhookSecret: testSecret}
	})
	b := e.browser()
	csrf := b.login()
	res, doc := b.post("/dashboard/settings/ping", url.Values{"csrf_token": {csrf}})
	result := doc.Find(testid("ping-result")).Text()
	if res.StatusCode != http.StatusOK || !strings.Contains(result, "HTTP 200") || doc.Find(testid("ping-excerpt")).Text() != "ok-from-erp" ||
		strings.Contains(result, "s3cr3t") {
		t.Fatalf("ping: %d %q", res.StatusCode, result)
	}
	ev := <-got
	if ev["type"] != notify.PingType || ev["data"].(map[string]any)["sentBy"] != dashEmail {
		t.Errorf("the ping's body: %v", ev)
	}
	// The delivery log shows it too: delivered, with the answer's status, time and excerpt, and
	// no pass of the outbox sends it again.
	row := doc.Find(testid("delivery"))
	if row.Length() != 1 || row.Find("code").First().Text() != notify.PingType || !strings.Contains(row.Text(), "200") ||
		!regexp.MustCompile(`\d+ ms`).MatchString(row.Text()) || row.Find(testid("delivery-detail")).Text() != "ok-from-erp" ||
		row.Find(".tone-ok").Length() != 1 {
		t.Errorf("the delivery log: %d rows, %q", row.Length(), row.Text())
	}
	if n, err := e.outbox.DeliverDue(context.Background()); err != nil || n != 0 {
		t.Errorf("the outbox sent the ping again: %d, %v", n, err)
	}
	if _, doc := b.get("/dashboard/settings"); doc.Find(testid("delivery")).Find(testid("delivery-detail")).Text() != "ok-from-erp" {
		t.Errorf("the settings page's log: %q", doc.Find(testid("deliveries")).Text())
	}
	entries, _ := e.dash.audit.Entries(context.Background(), audit.Filter{Action: audit.Ping})
	if len(entries) != 1 || !strings.Contains(entries[0].Detail, "HTTP 200") || strings.Contains(entries[0].Detail, "s3cr3t") {
		t.Errorf("audit: %+v", entries)
	}

	bad := receiver(t, http.StatusInternalServerError, "boom", nil)
	e2 := newEnv(t, func(o *envOptions) {
		o.merchant = settings.Config{WebhookURL: bad.URL, WebhookSecret: testSecret}
	})
	b2 := e2.browser()
	_, doc = b2.post("/dashboard/settings/ping", url.Values{"csrf_token": {b2.login()}})
	if result := doc.Find(testid("ping-result")).Text(); !strings.Contains(result, "HTTP 500") || doc.Find(testid("ping-excerpt")).Text() != "boom" {
		t.Errorf("a failing receiver: %q", result)
	}
	if row := doc.Find(testid("delivery")); row.Length() != 1 || !strings.Contains(row.Text(), "500") ||
		row.Find(testid("delivery-detail")).Text() != "boom" || row.Find(".tone-bad").Length() != 1 {
		t.Errorf("a failed ping in the log: %q", row.Text())
	}
	if n, err := e2.outbox.DeliverDue(context.Background()); err != nil || n != 0 {
		t.Errorf("the outbox retried the failed ping: %d, %v", n, err)
	}
	// Without a URL there is nothing to test.
	e3 := newEnv(t)
	b3 := e3.browser()
	if res, _ := b3.post("/dashboard/settings/ping", url.Values{"csrf_token": {b3.login()}}); res.StatusCode != http.StatusConflict {
		t.Errorf("a ping without a URL: %d", res.StatusCode)
	}
}
