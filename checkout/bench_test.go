package checkout_test

import (
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// BenchmarkPlaceOrder places orders end to end: a cart with one product, then PlaceOrder,
// which writes the order and its attempt to SQLite, calls the in-process sandbox over HTTP
// (the sandbox makes the BR Code and its QR image), checks the BR Code and stores the answer.
func BenchmarkPlaceOrder(b *testing.B) {
	e := newEnv(b)
	cust := customer()
	b.ReportAllocs()
	for b.Loop() {
		c, err := e.svc.NewCart(e.ctx)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := e.svc.AddToCart(e.ctx, c.ID, ebook, 1); err != nil {
			b.Fatal(err)
		}
		o, err := e.svc.PlaceOrder(e.ctx, checkout.PlaceOrderInput{Source: c.ID, RequestKey: checkout.NewID(), Customer: cust})
		if err != nil {
			b.Fatal(err)
		}
		if o.Status != checkout.StatusAwaitingPayment {
			b.Fatalf("status %s", o.Status)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "orders/s")
}

// BenchmarkPlaceOrderParallel is BenchmarkPlaceOrder with several shoppers at once (GOMAXPROCS
// times 4 goroutines), closer to a checkout under load: SQLite writes serialise, gateway calls
// and QR making overlap.
func BenchmarkPlaceOrderParallel(b *testing.B) {
	e := newEnv(b)
	cust := customer()
	b.ReportAllocs()
	b.SetParallelism(4)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			c, err := e.svc.NewCart(e.ctx)
			if err != nil {
				b.Error(err)
				return
			}
			if _, err := e.svc.AddToCart(e.ctx, c.ID, ebook, 1); err != nil {
				b.Error(err)
				return
			}
			o, err := e.svc.PlaceOrder(e.ctx, checkout.PlaceOrderInput{Source: c.ID, RequestKey: checkout.NewID(), Customer: cust})
			if err != nil || o.Status != checkout.StatusAwaitingPayment {
				b.Errorf("PlaceOrder: %v, %v", o, err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "orders/s")
}
