package checkout_test

import (
	"bytes"
	"log/slog"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// TestRetryAfterSettingsChangeReplaysStoredRequest: the gateway made the transaction but the
// answer was lost; the process restarts with another public URL and QR lifetime. The retry
// sends the stored request, not one rebuilt from the new settings, so the gateway replays its
// transaction instead of refusing the key as used with another body.
func TestRetryAfterSettingsChangeReplaysStoredRequest(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	var made *gatewayclient.Transaction
	e.gw.set(func(w *wrapGateway) {
		w.afterCreate = func(tx *gatewayclient.Transaction, err error) (*gatewayclient.Transaction, error) {
			if err != nil {
				return tx, err
			}
			made = tx
			return nil, errCrash
		}
	})
	c := e.cart(map[checkout.ProductID]int{ebook: 1})
	o, err := e.svc.PlaceOrder(e.ctx, checkout.PlaceOrderInput{CartID: c.ID, RequestKey: checkout.NewID(), Customer: customer()})
	if err != nil || o.Status != checkout.StatusPending || made == nil {
		t.Fatalf("PlaceOrder: %v, %v (transaction %v)", o, err, made)
	}
	if len(o.CurrentAttempt().Request) == 0 {
		t.Fatal("the attempt was stored without its request")
	}
	restarted := checkout.NewService(e.store, e.client, checkout.ServiceOptions{
		PublicURL:         "https://loja.example.com.br",
		ExpirationSeconds: 900,
		Seller:            &gatewayclient.Seller{Name: "Loja Nova", Document: validCPF},
		Clock:             e.sb.Now,
		Logger:            slog.New(slog.DiscardHandler),
	})
	got, err := restarted.EnsurePayment(e.ctx, o.ID)
	if err != nil {
		t.Fatalf("EnsurePayment after the restart: %v", err)
	}
	a := got.CurrentAttempt()
	if got.Status != checkout.StatusAwaitingPayment || a.State != checkout.AttemptActive || a.TransactionID != made.ID {
		t.Fatalf("after the restart: status %s, attempt %s, transaction %q (error %q); want awaiting_payment on %s",
			got.Status, a.State, a.TransactionID, a.Error, made.ID)
	}
	if n := e.deposits(); n != 1 {
		t.Errorf("the sandbox holds %d deposits, want 1", n)
	}
	sent := e.received.all()
	if len(sent) != 2 || !bytes.Equal(sent[0], sent[1]) {
		t.Errorf("the retry sent another body:\n first %s\n retry %s", sent[0], sent[len(sent)-1])
	}
}
