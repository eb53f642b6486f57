package checkout_test

import (
	"bytes"
	"context"
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
	o, err := e.svc.PlaceOrder(e.ctx, checkout.PlaceOrderInput{Source: c.ID, RequestKey: checkout.NewID(), Customer: customer()})
	if err != nil || o.Status != checkout.StatusPending || made == nil {
		t.Fatalf("PlaceOrder: %v, %v (transaction %v)", o, err, made)
	}
	if len(o.CurrentAttempt().Request) == 0 {
		t.Fatal("the attempt was stored without its request")
	}
	restarted := checkout.NewService(e.store, e.client, checkout.ServiceOptions{
		PublicURL:         "https://loja.example.com.br",
		ExpirationSeconds: 900,
		Seller: func(context.Context) *gatewayclient.Seller {
			return &gatewayclient.Seller{Name: "Loja Nova", Document: validCPF}
		},
		Clock:  e.sb.Now,
		Logger: slog.New(slog.DiscardHandler),
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

// unreadableRequests is a store whose CreateOrder answers the order with its attempt's stored
// request unreadable, as a later read of a damaged row would.
type unreadableRequests struct{ checkout.Store }

func (s unreadableRequests) CreateOrder(ctx context.Context, o *checkout.Order) (*checkout.Order, bool, error) {
	stored, created, err := s.Store.CreateOrder(ctx, o)
	if err == nil {
		damaged := *stored
		damaged.Attempts = append([]checkout.Attempt(nil), stored.Attempts...)
		damaged.Attempts[len(damaged.Attempts)-1].Request = []byte("{not json")
		stored = &damaged
	}
	return stored, created, err
}

// TestPlacingSendsTheBuiltRequest: the order being placed sends the request it built, not a
// decoding of the bytes it stored a moment ago (a retry sends the stored bytes: see
// TestRetryAfterSettingsChangeReplaysStoredRequest).
func TestPlacingSendsTheBuiltRequest(t *testing.T) {
	e := newEnv(t)
	svc := checkout.NewService(unreadableRequests{e.store}, e.gw, checkout.ServiceOptions{
		MerchantName: "Loja Teste", Clock: e.sb.Now, Logger: slog.New(slog.DiscardHandler)})
	t.Cleanup(svc.Close)
	c := e.cart(map[checkout.ProductID]int{ebook: 1})
	o, err := svc.PlaceOrder(e.ctx, checkout.PlaceOrderInput{Source: c.ID, RequestKey: checkout.NewID(), Customer: customer()})
	if err != nil || o.Status != checkout.StatusAwaitingPayment {
		t.Fatalf("PlaceOrder: %+v, %v", o, err)
	}
	stored, err := e.store.Order(e.ctx, o.ID)
	if err != nil {
		t.Fatal(err)
	}
	if sent := e.received.all(); len(sent) != 1 || !bytes.Equal(sent[0], stored.CurrentAttempt().Request) {
		t.Errorf("sent %q, want the stored request %s", sent, stored.CurrentAttempt().Request)
	}
}
