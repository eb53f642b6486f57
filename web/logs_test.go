package web_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// TestLogsHoldNoShopperCredentials runs whole flows, the failing paths that log warnings
// included, with the domain, the reconciler and the web layer logging into one buffer, and
// checks that no cart id, order id, request key or idempotency key reaches the logs: each is
// a bearer credential or derived from one. The order number is what logs name orders by.
func TestLogsHoldNoShopperCredentials(t *testing.T) {
	e := newEnv(t, func(o *envOptions) { o.serviceLogs = true })
	ctx := context.Background()
	var secrets []string

	// A purchase from the catalogue to paid, with a signed webhook delivered twice.
	cart := e.newCart("caneca-de-ceramica", "1")
	_, doc := e.get(cart + "/checkout")
	key := requestKey(t, doc)
	res, _ := e.post(cart+"/checkout", customer(key))
	pay := e.location(res)
	paid := orderID(pay)
	e.get(pay)
	e.do(http.MethodGet, pay+"/qr.png?a=1", nil).Body.Close()
	e.status(pay)
	res, _ = e.post(pay+"/sandbox-pay", url.Values{})
	e.location(res)
	e.get(pay + "/paid")
	o := e.waitStatus(paid, checkout.StatusPaid)
	d, err := e.client.GetDeposit(ctx, o.CurrentAttempt().TransactionID)
	if err != nil {
		t.Fatal(err)
	}
	body := event(t, *d)
	for range 2 {
		e.deliver(body, signed(t, testWebhookSecret, "msg_logs_1", e.sb.Now(), body))
	}
	secrets = append(secrets, strings.TrimPrefix(cart, "/cart/"), paid, key)
	for _, a := range o.Attempts {
		secrets = append(secrets, a.IdempotencyKey)
	}
	if !strings.Contains(e.logs.String(), o.Number) {
		t.Errorf("the logs never name order %s by its number:\n%s", o.Number, e.logs.String())
	}

	// The gateway down while an order is placed and while its page is shown.
	e.gw.mu.Lock()
	e.gw.failCreate = &gatewayclient.APIError{StatusCode: 503, Method: "POST", Path: "/transaction"}
	e.gw.mu.Unlock()
	cart = e.newCart("ebook-receitas-do-cerrado", "1")
	_, doc = e.get(cart + "/checkout")
	key = requestKey(t, doc)
	res, _ = e.post(cart+"/checkout", customer(key))
	pay = e.location(res)
	e.get(pay)
	secrets = append(secrets, strings.TrimPrefix(cart, "/cart/"), orderID(pay), key)
	// The reconciler failing to complete that order: the gateway still does not answer.
	rec := checkout.NewReconciler(e.svc, e.store, checkout.ReconcilerOptions{Clock: e.sb.Now,
		Logger: slog.New(slog.NewJSONHandler(e.logs, nil))})
	if err := rec.RunOnce(ctx); err != nil {
		t.Fatal(err)
	}
	e.gw.mu.Lock()
	e.gw.failCreate = nil
	e.gw.mu.Unlock()
	e.get(pay)
	o, err = e.svc.Order(ctx, orderID(pay))
	if err != nil {
		t.Fatal(err)
	}
	secrets = append(secrets, o.CurrentAttempt().IdempotencyKey)

	// A sandbox refusing a payment.
	id, _ := e.paidInSandbox()
	secrets = append(secrets, id)
	e.post("/pay/"+id+"/sandbox-pay", url.Values{})

	// Expiry and a new QR code.
	if err := e.client.Do(ctx, http.MethodPost, "/sandbox/clock/advance", map[string]int{"seconds": 31 * 60}, nil); err != nil {
		t.Fatal(err)
	}
	e.get(pay)
	res, _ = e.post(pay+"/new-qr", url.Values{})
	e.location(res)
	o, err = e.svc.Order(ctx, orderID(pay))
	if err != nil {
		t.Fatal(err)
	}
	secrets = append(secrets, o.CurrentAttempt().IdempotencyKey)

	logs := e.logs.String()
	for _, want := range []string{"order placed", "gateway answered a server error", "reconciling order", "sandbox payment"} {
		if !strings.Contains(logs, want) {
			t.Errorf("the flows did not log %q: the test no longer covers that line", want)
		}
	}
	for _, s := range secrets {
		if s == "" {
			t.Fatal("an empty secret: the test lost track of an id")
		}
		if strings.Contains(logs, s) {
			for _, line := range strings.Split(logs, "\n") {
				if strings.Contains(line, s) {
					t.Errorf("a log line holds the credential %q: %s", s, line)
				}
			}
		}
	}
	// Nor is anything of the customer's form logged.
	for _, s := range []string{"Maria", "52998224725", "529.982.247-25", "maria@example", "98765"} {
		if bytes.Contains([]byte(logs), []byte(s)) {
			t.Errorf("the logs hold customer data %q", s)
		}
	}
}
