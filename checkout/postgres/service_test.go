package postgres_test

import (
	"context"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/storetest"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox/sandboxtest"
)

// sandboxClient is the sandbox's client the tests' services sign in as.
const sandboxClient = "checkout-test"

// startSandbox starts a sandbox gateway for a test, and a client of it.
func startSandbox(t *testing.T) (*sandbox.Sandbox, *gatewayclient.Client) {
	t.Helper()
	const secret = "checkout-test-secret"
	dir := filepath.Join(t.TempDir(), "sandbox")
	sandboxtest.Create(t, dir)
	sb, err := sandbox.New(context.Background(), sandbox.Options{
		DataDir:   dir,
		Clients:   []sandbox.ClientConfig{{ID: sandboxClient, Secret: secret}},
		RateLimit: sandbox.RateLimit{Requests: 100000, Burst: 100000},
	})
	if err != nil {
		t.Fatalf("sandbox.New: %v", err)
	}
	t.Cleanup(func() { sb.Close() })
	srv := httptest.NewServer(sb)
	t.Cleanup(srv.Close)
	client, err := gatewayclient.New(srv.URL, sandboxClient, secret)
	if err != nil {
		t.Fatal(err)
	}
	return sb, client
}

// sandboxGateway is the storetest's gateway on a sandbox of its own.
func sandboxGateway(t *testing.T) storetest.Gateway {
	sb, client := startSandbox(t)
	control := func(a sandbox.DepositAction) func(context.Context, string) error {
		return func(ctx context.Context, tx string) error {
			_, err := sb.ControlDeposit(ctx, sandboxClient, tx, a, sandbox.DepositControl{})
			return err
		}
	}
	return storetest.Gateway{Client: client, Now: sb.Now, Pay: control(sandbox.ActionPay), Review: control(sandbox.ActionCompliance)}
}

// TestTwoCheckoutInstances: two checkout services, each with its own store on one database, as
// two instances behind a load balancer, in front of one sandbox gateway. A form submitted many
// times at once, the submissions spread over both instances, makes one order and one gateway
// transaction; a webhook delivered to both at once pays the order once, seen by both.
func TestTwoCheckoutInstances(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	sb, client := startSandbox(t)

	dbURL := newDatabase(t)
	var svcs [2]*checkout.Service
	for i := range svcs {
		svcs[i] = checkout.NewService(open(t, dbURL), client, checkout.ServiceOptions{
			MerchantName: "Loja Teste", Clock: sb.Now, Logger: slog.New(slog.DiscardHandler)})
	}
	if err := checkout.SeedDemoCatalogue(ctx, open(t, dbURL)); err != nil {
		t.Fatal(err)
	}
	ps, err := svcs[1].Products(ctx)
	if err != nil || len(ps) == 0 {
		t.Fatalf("Products: %v, %v", ps, err)
	}
	var digital checkout.ProductID
	for _, p := range ps {
		if !p.Physical {
			digital = p.ID
		}
	}
	c, err := svcs[0].NewCart(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svcs[1].AddToCart(ctx, c.ID, digital, 2); err != nil {
		t.Fatal(err)
	}

	in := checkout.PlaceOrderInput{Source: c.ID, RequestKey: checkout.NewID(), Lang: "pt-BR",
		Customer: checkout.Customer{Name: "Maria da Silva", Document: "529.982.247-25", Email: "maria@example.com.br",
			Phone: "(11) 98765-4321"}}
	const n = 20
	ids := make(chan string, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			<-start
			o, err := svcs[i%2].PlaceOrder(ctx, in)
			if err != nil {
				t.Errorf("PlaceOrder: %v", err)
				return
			}
			ids <- o.ID
		})
	}
	close(start)
	wg.Wait()
	close(ids)
	distinct := map[string]bool{}
	for id := range ids {
		distinct[id] = true
	}
	if len(distinct) != 1 {
		t.Fatalf("%d submissions over two instances made %d orders", n, len(distinct))
	}
	var orderID string
	for id := range distinct {
		orderID = id
	}
	o, err := svcs[0].Order(ctx, orderID)
	if err != nil {
		t.Fatal(err)
	}
	if o.Status != checkout.StatusAwaitingPayment || len(o.Attempts) != 1 {
		t.Fatalf("order: status %s, %d attempts; want awaiting_payment and 1", o.Status, len(o.Attempts))
	}
	page, err := client.ListDeposits(ctx, gatewayclient.DepositFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if page.Total != 1 {
		t.Fatalf("the gateway holds %d transactions, want 1", page.Total)
	}

	txID := o.CurrentAttempt().TransactionID
	if _, err := sb.ControlDeposit(ctx, sandboxClient, txID, sandbox.ActionPay, sandbox.DepositControl{}); err != nil {
		t.Fatalf("paying in the sandbox: %v", err)
	}
	for _, s := range svcs {
		wg.Go(func() {
			if err := s.HandleWebhook(ctx, "msg_paid_1", "deposit.updated", txID); err != nil {
				t.Errorf("HandleWebhook: %v", err)
			}
		})
	}
	wg.Wait()
	for i, s := range svcs {
		got, err := s.Order(ctx, orderID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Status != checkout.StatusPaid {
			t.Errorf("instance %d sees the order %s, want paid", i, got.Status)
		}
		paid := 0
		for _, h := range got.History {
			if h.To == checkout.StatusPaid {
				paid++
			}
		}
		if paid != 1 {
			t.Errorf("instance %d: %d history entries to paid, want 1: %+v", i, paid, got.History)
		}
	}
}
