package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
)

// control applies a sandbox simulation to the deposit of an order's current attempt.
func (e *env) control(id string, action sandbox.DepositAction) {
	e.t.Helper()
	o, err := e.svc.Order(context.Background(), id)
	if err != nil {
		e.t.Fatal(err)
	}
	if _, err := e.sb.ControlDeposit(context.Background(), "checkout", o.CurrentAttempt().TransactionID, action, sandbox.DepositControl{}); err != nil {
		e.t.Fatal(err)
	}
}

// TestFailedPageOffersARetry: a failed deposit shows the failed page in the shopper's language,
// whose retry button makes a new QR code.
func TestFailedPageOffersARetry(t *testing.T) {
	e := newEnv(t)
	pay := e.placeOrder()
	id := orderID(pay)
	e.control(id, sandbox.ActionFail)
	if _, err := e.svc.RefreshFromGateway(context.Background(), id); err != nil {
		t.Fatal(err)
	}
	res, doc := e.get(pay + "?lang=en")
	if res.StatusCode != http.StatusOK || doc.Find(testid("failed")).Length() != 1 {
		t.Fatalf("failed order: status %d, no failed section", res.StatusCode)
	}
	if doc.Find(testid("pix-qr")).Length()+doc.Find(testid("pix-code")).Length() != 0 {
		t.Error("the failed page shows a code that must not be paid")
	}
	if h := doc.Find("h1").Text(); h != "The payment could not be completed" {
		t.Errorf("heading %q", h)
	}
	retry := formAction(doc, testid("retry"))
	if retry != pay+"/new-qr?lang=en" {
		t.Fatalf("retry posts to %q", retry)
	}
	res, _ = e.post(retry, url.Values{})
	if loc := e.location(res); loc != pay+"?lang=en" {
		t.Errorf("retry went to %q", loc)
	}
	_, doc = e.get(pay)
	if strings.TrimSpace(doc.Find(testid("pix-code")).Text()) == "" || doc.Find(testid("pix-qr")).Length() != 1 {
		t.Fatal("no new QR code after the retry")
	}
	o := e.waitStatus(id, checkout.StatusAwaitingPayment)
	if len(o.Attempts) != 2 || o.Attempts[0].IdempotencyKey == o.Attempts[1].IdempotencyKey {
		t.Errorf("the retry is not a new attempt with a new key: %d attempts", len(o.Attempts))
	}
}

// TestLatePaymentShownOnPaidPage: a QR code paid after it expired still makes the order paid,
// and the paid page says the payment came late.
func TestLatePaymentShownOnPaidPage(t *testing.T) {
	e := newEnv(t)
	pay := e.placeOrder()
	id := orderID(pay)
	if err := e.client.Do(context.Background(), http.MethodPost, "/sandbox/clock/advance", map[string]int{"seconds": 31 * 60}, nil); err != nil {
		t.Fatal(err)
	}
	_, doc := e.get(pay)
	if doc.Find(testid("expired")).Length() != 1 {
		t.Fatal("no expired page after the expiry")
	}
	// The shopper's bank pays the old code anyway; the gateway's webhook brings it in.
	e.control(id, sandbox.ActionPay)
	o, err := e.svc.Order(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	d, err := e.client.GetDeposit(context.Background(), o.CurrentAttempt().TransactionID)
	if err != nil {
		t.Fatal(err)
	}
	body := event(t, *d)
	if code := e.deliver(body, signed(t, testWebhookSecret, "msg_late", e.sb.Now(), body)); code/100 != 2 {
		t.Fatalf("webhook answered %d", code)
	}
	e.waitStatus(id, checkout.StatusPaid)
	res, _ := e.get(pay)
	paid := e.location(res)
	if paid != pay+"/paid" {
		t.Fatalf("the PIX page of a paid order went to %q", paid)
	}
	for _, tc := range []struct{ query, want string }{
		{"", "chegou depois do prazo"},
		{"?lang=en", "arrived after the QR code's deadline"},
	} {
		_, doc = e.get(paid + tc.query)
		if doc.Find(testid("paid")).Length() != 1 {
			t.Fatal("no paid page")
		}
		if note := doc.Find(testid("late-payment")).Text(); !strings.Contains(note, tc.want) {
			t.Errorf("late-payment note %q, want %q", note, tc.want)
		}
	}
}
