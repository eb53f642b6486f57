package checkout_test

import (
	"context"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/sqlite"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
)

// productReads counts the product reads of a store.
type productReads struct {
	*sqlite.Store
	n atomic.Int64
}

func (s *productReads) Products(ctx context.Context, activeOnly bool) ([]checkout.Product, error) {
	s.n.Add(1)
	return s.Store.Products(ctx, activeOnly)
}

func (s *productReads) Product(ctx context.Context, id checkout.ProductID) (*checkout.Product, error) {
	s.n.Add(1)
	return s.Store.Product(ctx, id)
}

// TestCatalogueKeptBriefly: the shop's pages read the active products once per
// CatalogueMaxAge; a change made through the same Service shows at once; one made by another
// instance shows after the maximum age, and meanwhile an order cannot be placed with a product
// that instance deactivated (orders read their products as stored).
func TestCatalogueKeptBriefly(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	reads := &productReads{Store: e.store}
	clock := sandbox.NewManualClock(time.Now())
	opts := func(maxAge time.Duration) checkout.ServiceOptions {
		return checkout.ServiceOptions{MerchantName: "Loja Teste", Clock: clock.Now, Logger: slog.New(slog.DiscardHandler),
			QRImage: fakeQRImage, CatalogueMaxAge: maxAge}
	}
	a := checkout.NewService(reads, e.gw, opts(time.Hour))
	t.Cleanup(a.Close)
	for range 3 {
		if ps, err := a.Products(e.ctx); err != nil || len(ps) == 0 {
			t.Fatalf("Products: %v, %v", ps, err)
		}
		if p, err := a.Product(e.ctx, ebook); err != nil || p.ID != ebook {
			t.Fatalf("Product: %+v, %v", p, err)
		}
	}
	if got := reads.n.Load(); got != 1 {
		t.Errorf("%d product reads for three catalogues and three products, want 1", got)
	}

	// Another instance hides the e-book: this one still shows it for a while, but its order
	// is refused.
	if _, err := e.svc.SetProductActive(e.ctx, ebook, false); err != nil {
		t.Fatal(err)
	}
	if !listed(t, a, ebook) {
		t.Error("the e-book left the catalogue before the maximum age (no read was expected)")
	}
	c, err := a.AddToCart(e.ctx, "", ebook, 1)
	if err != nil {
		t.Fatalf("AddToCart from the catalogue held: %v", err)
	}
	if o, err := a.PlaceOrder(e.ctx, checkout.PlaceOrderInput{Source: c.ID, RequestKey: checkout.NewID(), Customer: customer(), Lang: "pt-BR"}); err == nil {
		t.Fatalf("an order was placed with a hidden product: %+v", o)
	}

	// A change made through this instance shows at once.
	if _, err := a.SetProductActive(e.ctx, caneca, false); err != nil {
		t.Fatal(err)
	}
	if listed(t, a, ebook) || listed(t, a, caneca) {
		t.Error("a change made through this Service did not show at once")
	}

	// Another instance's change shows once the maximum age has passed on the service's clock.
	const maxAge = time.Minute
	b := checkout.NewService(e.store, e.gw, opts(maxAge))
	t.Cleanup(b.Close)
	if listed(t, b, ebook) {
		t.Fatal("the hidden e-book is listed")
	}
	if _, err := e.svc.SetProductActive(e.ctx, ebook, true); err != nil {
		t.Fatal(err)
	}
	clock.Advance(maxAge - time.Millisecond)
	if listed(t, b, ebook) {
		t.Error("another instance's change showed before the maximum age (no read was expected)")
	}
	clock.Advance(time.Millisecond)
	if !listed(t, b, ebook) {
		t.Error("another instance's change did not show after the maximum age")
	}
}

// listed reports whether svc's catalogue lists id.
func listed(t *testing.T, svc *checkout.Service, id checkout.ProductID) bool {
	t.Helper()
	ps, err := svc.Products(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if p.ID == id {
			return true
		}
	}
	return false
}
