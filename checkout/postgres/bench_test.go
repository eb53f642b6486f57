package postgres_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/sqlite"
	"github.com/pixcheckout/pixcheckout/checkout/storetest"
)

// BenchmarkStores runs the store's hot paths on PostgreSQL and, in the same run for a ratio
// that does not drift with the machine, on SQLite: placing an order (CreateOrder, one at a time
// and from 16 goroutines), reading one
// whole (Order: the row, its lines, history and attempts), and a read-modify-write of the
// order and its attempt (Order, then UpdateOrder), as the reconciler and webhooks do.
func BenchmarkStores(b *testing.B) {
	stores := map[string]func(b *testing.B) checkout.Store{
		"postgres": func(b *testing.B) checkout.Store { return open(b, newDatabase(b)) },
		"sqlite": func(b *testing.B) checkout.Store {
			s, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "checkout.db"))
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { s.Close() })
			return s
		},
	}
	for _, name := range []string{"postgres", "sqlite"} {
		b.Run(name, func(b *testing.B) {
			s := stores[name](b)
			ctx := context.Background()
			b.Run("CreateOrder", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, created, err := s.CreateOrder(ctx, storetest.NewOrder(checkout.NewID())); err != nil || !created {
						b.Fatalf("CreateOrder: %v, %v", created, err)
					}
				}
			})
			// Many shoppers at once: PostgreSQL flushes concurrent commits together.
			b.Run("CreateOrderParallel", func(b *testing.B) {
				b.ReportAllocs()
				b.SetParallelism(8)
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						if _, created, err := s.CreateOrder(ctx, storetest.NewOrder(checkout.NewID())); err != nil || !created {
							b.Errorf("CreateOrder: %v, %v", created, err)
							return
						}
					}
				})
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "orders/s")
			})
			o := storetest.NewOrder(checkout.NewID())
			if _, _, err := s.CreateOrder(ctx, o); err != nil {
				b.Fatal(err)
			}
			b.Run("Order", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := s.Order(ctx, o.ID); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("UpdateOrder", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					cur, err := s.Order(ctx, o.ID)
					if err != nil {
						b.Fatal(err)
					}
					// No history entry: the order keeps its size, so iterations stay alike.
					cur.UpdatedAt, cur.Attempts[0].UpdatedAt = time.Now(), time.Now()
					if err := s.UpdateOrder(ctx, cur); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}
