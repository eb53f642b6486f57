package postgres_test

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
)

// TestLinkCapAcrossInstances: a payment link of 3 payments and 50 shoppers at the same moment,
// spread over two checkout instances on one database: exactly 3 PIX codes are made, every
// other shopper is told that the link has no payment left, and the 3 pay.
func TestLinkCapAcrossInstances(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	sb, client := startSandbox(t)
	dbURL := newDatabase(t)
	var svcs [2]*checkout.Service
	for i := range svcs {
		svcs[i] = checkout.NewService(open(t, dbURL), client, checkout.ServiceOptions{
			MerchantName: "Loja Teste", Clock: sb.Now, Logger: slog.New(slog.DiscardHandler)})
	}
	l, _, err := svcs[0].CreateLink(ctx, checkout.LinkInput{Title: "Aula", Amount: 5000, Description: "Uma aula", MaxPayments: 3})
	if err != nil {
		t.Fatal(err)
	}
	const shoppers = 50
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		placed  []*checkout.Order
		refused int
	)
	start := make(chan struct{})
	for i := range shoppers {
		wg.Go(func() {
			<-start
			o, err := svcs[i%2].PlaceOrder(ctx, checkout.PlaceOrderInput{Channel: checkout.ChannelLink, Source: l.Slug, RequestKey: checkout.NewID(),
				Lang: "pt-BR", Customer: checkout.Customer{Name: "Maria da Silva", Document: "529.982.247-25",
					Email: "maria@example.com.br", Phone: "(11) 98765-4321"}})
			mu.Lock()
			defer mu.Unlock()
			switch {
			case errors.Is(err, checkout.ErrLinkFull):
				refused++
			case err != nil:
				t.Errorf("PlaceOrder: %v", err)
			default:
				placed = append(placed, o)
			}
		})
	}
	close(start)
	wg.Wait()
	if len(placed) != 3 || refused != shoppers-3 {
		t.Fatalf("placed %d, refused %d; want 3 and %d", len(placed), refused, shoppers-3)
	}
	page, err := client.ListDeposits(ctx, gatewayclient.DepositFilter{})
	if err != nil || page.Total != 3 {
		t.Errorf("gateway deposits = %v, %v; want 3", page, err)
	}
	for _, o := range placed {
		if _, err := sb.ControlDeposit(ctx, sandboxClient, o.CurrentAttempt().TransactionID, sandbox.ActionPay, sandbox.DepositControl{}); err != nil {
			t.Fatal(err)
		}
		if got, err := svcs[1].RefreshFromGateway(ctx, o.ID); err != nil || got.Status != checkout.StatusPaid || got.LinkID != l.ID {
			t.Fatalf("paying %s: %+v, %v", o.Number, got, err)
		}
	}
	st, err := svcs[0].LinkStats(ctx, l.ID)
	if err != nil || st[l.ID].Payments != 3 || st[l.ID].Received != 15000 {
		t.Errorf("LinkStats = %+v, %v", st, err)
	}
}
