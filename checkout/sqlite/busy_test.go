package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/storetest"
)

// TestNoBusyWaits: with no busy timeout at all, so that any wait for a lock fails at once with
// SQLITE_BUSY, the store serves writers and readers running together, while the writer's
// automatic checkpoints copy the WAL into the database file, without an error.
func TestNoBusyWaits(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "checkout.db")
	// Checkpoints every 64 pages instead of 1,000: as many of them with fewer writes.
	s, err := open(ctx, path, options{busyTimeout: 0, checkpointPages: 64})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for name, db := range map[string]*sql.DB{"writer": s.w.DB, "reader": s.r.DB} {
		var v int
		if err := db.QueryRowContext(ctx, "PRAGMA busy_timeout").Scan(&v); err != nil || v != 0 {
			t.Fatalf("%s: busy_timeout %d, %v; want 0", name, v, err)
		}
	}
	now := time.Now().UTC().Truncate(time.Millisecond)
	for _, id := range []checkout.ProductID{"a", "b"} {
		if err := s.UpsertProduct(ctx, checkout.Product{ID: id, Slug: string(id), Title: string(id), UnitPrice: 2990,
			Active: true, CreatedAt: now, UpdatedAt: now}); err != nil {
			t.Fatal(err)
		}
	}

	// Writes go to the WAL; only checkpoints make the database file grow.
	fileSize := func() int64 {
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return st.Size()
	}
	sizeBefore := fileSize()

	// QR-sized images make each order a few pages: the writes below fill the WAL past the
	// automatic checkpoint many times.
	png := bytes.Repeat([]byte{0x89, 'P', 'N', 'G'}, 1<<10)
	const writers, readers, perWriter = 3, 2, 20
	var orderIDs sync.Map
	var wg sync.WaitGroup
	done := make(chan struct{})
	fail := func(what string, err error) {
		if err != nil {
			t.Errorf("%s: %v", what, err)
		}
	}
	for w := range writers {
		wg.Go(func() {
			for i := range perWriter {
				cartID := checkout.NewID()
				fail("CreateCart", s.CreateCart(ctx, checkout.Cart{ID: cartID, CreatedAt: now, UpdatedAt: now}))
				_, err := s.UpdateCart(ctx, cartID, now, func(c *checkout.Cart) error {
					c.Lines = append(c.Lines, checkout.CartLine{Product: checkout.Product{ID: "a"}, Quantity: 1 + i%5})
					return nil
				})
				fail("UpdateCart", err)
				o := storetest.NewOrder(checkout.NewID())
				o.Attempts[0].QRCodePNG = png
				stored, _, err := s.CreateOrder(ctx, o)
				if err != nil {
					fail("CreateOrder", err)
					continue
				}
				orderIDs.Store(w*perWriter+i, stored.ID)
				stored.Status = checkout.StatusAwaitingPayment
				stored.History = append(stored.History, checkout.StatusChange{From: checkout.StatusPending,
					To: checkout.StatusAwaitingPayment, At: now})
				stored.Attempts[0].State, stored.Attempts[0].TransactionID = checkout.AttemptActive, checkout.NewID()
				stored.Attempts[0].QRCodePNG = png
				fail("UpdateOrder", s.UpdateOrder(ctx, stored))
				_, err = s.MarkWebhook(ctx, checkout.NewID(), now)
				fail("MarkWebhook", err)
				if i%10 == 0 {
					_, err = s.PruneCarts(ctx, now.Add(-time.Hour), 5)
					fail("PruneCarts", err)
				}
			}
		})
	}
	var readersWG sync.WaitGroup
	reads := make([]int, readers)
	for r := range readers {
		readersWG.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-done:
					return
				default:
				}
				_, err := s.Orders(ctx, checkout.OrderFilter{Statuses: []checkout.OrderStatus{checkout.StatusAwaitingPayment}, Limit: 5})
				fail("Orders", err)
				if id, ok := orderIDs.Load(i % (writers * perWriter)); ok {
					_, err := s.Order(ctx, id.(string))
					fail("Order", err)
				}
				_, err = s.Products(ctx, true)
				fail("Products", err)
				reads[r]++
			}
		})
	}
	wg.Wait()
	close(done)
	readersWG.Wait()
	if t.Failed() {
		return
	}
	sizeAfter := fileSize()
	if sizeAfter <= sizeBefore {
		t.Errorf("the database file stayed at %d bytes: no checkpoint ran while readers read", sizeBefore)
	}
	var log, checkpointed int
	var busy bool
	if err := s.w.QueryRowContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)").Scan(&busy, &log, &checkpointed); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, n := range reads {
		total += n
	}
	t.Logf("%d orders with %d-byte QR images written, %d read rounds; database file %d -> %d KB by checkpoints; WAL now %d frames, %d KB",
		writers*perWriter, len(png), total, sizeBefore>>10, sizeAfter>>10, log, st.Size()>>10)
}
