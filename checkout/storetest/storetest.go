// Package storetest is the test suite every checkout.Store implementation must pass. An
// implementation's test calls Run with a function opening an empty store.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// Run runs the suite. open must return a new, empty store for each call (the suite calls it
// once per subtest) and arrange its closing with t.Cleanup.
func Run(t *testing.T, open func(t *testing.T) checkout.Store) {
	t.Run("Products", func(t *testing.T) { testProducts(t, open(t)) })
	t.Run("Carts", func(t *testing.T) { testCarts(t, open(t)) })
	t.Run("CartConcurrentUpdates", func(t *testing.T) { testCartConcurrent(t, open(t)) })
	t.Run("CreateOrder", func(t *testing.T) { testCreateOrder(t, open(t)) })
	t.Run("CreateOrderAtomic", func(t *testing.T) { testCreateOrderAtomic(t, open(t)) })
	t.Run("RequestKeyConcurrent", func(t *testing.T) { testRequestKeyConcurrent(t, open(t)) })
	t.Run("UpdateOrderCompareAndSet", func(t *testing.T) { testUpdateOrderCAS(t, open(t)) })
	t.Run("UpdateOrderConcurrent", func(t *testing.T) { testUpdateOrderConcurrent(t, open(t)) })
	t.Run("Attempts", func(t *testing.T) { testAttempts(t, open(t)) })
	t.Run("ListForReconciliation", func(t *testing.T) { testOrders(t, open(t)) })
	t.Run("WebhookDedupe", func(t *testing.T) { testWebhooks(t, open(t)) })
	t.Run("AddProduct", func(t *testing.T) { testAddProduct(t, open(t)) })
	t.Run("ProductImages", func(t *testing.T) { testImages(t, open(t)) })
	t.Run("SeedConcurrent", func(t *testing.T) { testSeedConcurrent(t, open(t)) })
	t.Run("PruneCarts", func(t *testing.T) { testPruneCarts(t, open(t)) })
	t.Run("PruneWebhooks", func(t *testing.T) { testPruneWebhooks(t, open(t)) })
	t.Run("Ping", func(t *testing.T) {
		must(t, open(t).Ping(context.Background()))
	})
}

// base is the suite's reference time, at millisecond precision as stores keep times.
var base = time.Date(2026, 3, 14, 12, 0, 0, 0, time.UTC)

func product(id string, price gatewayclient.Cents, physical bool) checkout.Product {
	return checkout.Product{ID: checkout.ProductID(id), Slug: "slug-" + id, Title: "Produto " + id,
		Description: "Descrição de " + id, UnitPrice: price, Physical: physical, Active: true,
		CreatedAt: base, UpdatedAt: base}
}

func mustUpsert(t *testing.T, s checkout.Store, ps ...checkout.Product) {
	t.Helper()
	for _, p := range ps {
		if err := s.UpsertProduct(context.Background(), p); err != nil {
			t.Fatalf("UpsertProduct(%s): %v", p.ID, err)
		}
	}
}

func testProducts(t *testing.T, s checkout.Store) {
	ctx := context.Background()
	a, b, c := product("a", 2990, false), product("b", 5900, true), product("c", 100, false)
	c.Active = false
	mustUpsert(t, s, b, c, a)

	got, err := s.Product(ctx, "b")
	must(t, err)
	if !reflect.DeepEqual(*got, b) {
		t.Errorf("Product(b) = %+v, want %+v", *got, b)
	}
	if got, err := s.ProductBySlug(ctx, "slug-a"); err != nil || got.ID != "a" {
		t.Errorf("ProductBySlug(slug-a) = %+v, %v", got, err)
	}
	sameErr(t, "Product(missing)", errOf(s.Product(ctx, "missing")), checkout.ErrNotFound)
	sameErr(t, "ProductBySlug(missing)", errOf(s.ProductBySlug(ctx, "missing")), checkout.ErrNotFound)

	active, err := s.Products(ctx, true)
	must(t, err)
	if ids := productIDs(active); !reflect.DeepEqual(ids, []string{"a", "b"}) {
		t.Errorf("active products = %v, want [a b] (by title)", ids)
	}
	all, err := s.Products(ctx, false)
	must(t, err)
	if ids := productIDs(all); !reflect.DeepEqual(ids, []string{"a", "b", "c"}) {
		t.Errorf("all products = %v, want [a b c]", ids)
	}

	// Upsert replaces.
	a.UnitPrice, a.Title, a.UpdatedAt = 3190, "Produto a (2ª edição)", base.Add(time.Hour)
	mustUpsert(t, s, a)
	if got, _ := s.Product(ctx, "a"); got == nil || got.UnitPrice != 3190 || got.Title != a.Title || !got.UpdatedAt.Equal(a.UpdatedAt) {
		t.Errorf("after upsert Product(a) = %+v", got)
	}
	// Slugs are unique.
	d := product("d", 100, false)
	d.Slug = b.Slug
	if err := s.UpsertProduct(ctx, d); err == nil {
		t.Error("UpsertProduct with a taken slug succeeded")
	}
}

func productIDs(ps []checkout.Product) []string {
	var out []string
	for _, p := range ps {
		out = append(out, string(p.ID))
	}
	return out
}

// testCarts: a cart made empty, its lines carrying the catalogue's products and prices; then
// the updates refused.
func testCarts(t *testing.T, s checkout.Store) {
	ctx := context.Background()
	mustUpsert(t, s, product("a", 2990, false), product("b", 5900, true))
	sameErr(t, "Cart(missing)", errOf(s.Cart(ctx, "missing")), checkout.ErrNotFound)
	id := checkout.NewID()
	must(t, s.CreateCart(ctx, checkout.Cart{ID: id, CreatedAt: base, UpdatedAt: base}))
	c, err := s.Cart(ctx, id)
	must(t, err)
	if len(c.Lines) != 0 || !c.CreatedAt.Equal(base) {
		t.Fatalf("Cart = %+v; want empty cart created at %v", c, base)
	}
	later := base.Add(time.Minute)
	c, err = s.UpdateCart(ctx, id, later, func(c *checkout.Cart) error {
		// The price given here must be ignored: lines carry the catalogue's product.
		c.Lines = append(c.Lines, checkout.CartLine{Product: checkout.Product{ID: "b", UnitPrice: 1}, Quantity: 2},
			checkout.CartLine{Product: checkout.Product{ID: "a"}, Quantity: 1})
		return nil
	})
	must(t, err)
	if len(c.Lines) != 2 || c.Lines[0].Product.ID != "b" || c.Lines[0].Product.UnitPrice != 5900 || c.Lines[0].Quantity != 2 ||
		!c.Lines[0].Product.Physical || c.Lines[1].Product.ID != "a" {
		t.Fatalf("cart after update = %+v", c.Lines)
	}
	if c.Total() != 2*5900+2990 || !c.UpdatedAt.Equal(later) {
		t.Errorf("Total = %d, UpdatedAt = %v", c.Total(), c.UpdatedAt)
	}
	// A price change in the catalogue shows in the cart, and so does its picture.
	b := product("b", 6100, true)
	b.Image = checkout.ProductImage{Key: "k-b", Ext: "png", Width: 640, Height: 320}
	mustUpsert(t, s, b)
	c, err = s.Cart(ctx, id)
	must(t, err)
	same(t, "cart price after catalogue change", c.Lines[0].Product.UnitPrice, 6100)
	same(t, "cart line's picture", c.Lines[0].Product.Image, b.Image)
	t.Run("Refused", func(t *testing.T) { testCartRefused(t, s, id) })
}

// testCartConcurrent: concurrent increments of one line are never lost.
func testCartConcurrent(t *testing.T, s checkout.Store) {
	ctx := context.Background()
	mustUpsert(t, s, product("a", 100, false))
	id := checkout.NewID()
	must(t, s.CreateCart(ctx, checkout.Cart{ID: id, CreatedAt: base, UpdatedAt: base}))
	const n = 20
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for range n {
		wg.Go(func() {
			_, err := s.UpdateCart(ctx, id, base, func(c *checkout.Cart) error {
				if l := c.Line("a"); l != nil {
					l.Quantity++
					return nil
				}
				c.Lines = append(c.Lines, checkout.CartLine{Product: checkout.Product{ID: "a"}, Quantity: 1})
				return nil
			})
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("UpdateCart: %v", err)
		}
	}
	c, err := s.Cart(ctx, id)
	if err != nil || len(c.Lines) != 1 || c.Lines[0].Quantity != n {
		t.Fatalf("after %d concurrent increments: %+v, %v", n, c, err)
	}
}

// NewOrder returns a valid order with one line and one pending attempt, as the service makes
// it; tests change it as they need.
func NewOrder(requestKey string) *checkout.Order {
	id := checkout.NewID()
	o := &checkout.Order{
		ID: id, Number: "PX-" + strings.ToUpper(id[:8]), ExternalCode: id, RequestKey: requestKey,
		Status: checkout.StatusPending, Channel: checkout.ChannelShop,
		Lines: []checkout.OrderLine{
			{ProductID: "a", Title: "Produto a", UnitPrice: 2990, Quantity: 2,
				Image: checkout.ProductImage{Key: "k-a", Ext: "jpg", Width: 640, Height: 480}},
			{ProductID: "b", Title: "Produto b", UnitPrice: 5900, Quantity: 1, Physical: true},
		},
		Amount:   2*2990 + 5900 + 1200,
		Shipping: 1200, DeliveryDays: 3,
		Customer: checkout.Customer{Name: "Maria da Silva", Document: "52998224725", Email: "maria@example.com.br", Phone: "11987654321"},
		Address: &checkout.Address{ZipCode: "01310-100", Street: "Avenida Paulista", Number: "1000", Complement: "apto 12",
			Neighborhood: "Bela Vista", City: "São Paulo", State: "SP", Country: "Brasil"},
		Physical:  true,
		History:   []checkout.StatusChange{{To: checkout.StatusPending, At: base, Reason: checkout.Reason{Code: checkout.ReasonOrderPlaced}}},
		CreatedAt: base, UpdatedAt: base, Lang: "pt-BR", ShopperIP: "203.0.113.7",
	}
	o.Attempts = []checkout.Attempt{{ID: checkout.NewID(), OrderID: id, N: 1, IdempotencyKey: id + "-1",
		State: checkout.AttemptPending, CreatedAt: base, UpdatedAt: base,
		Request: []byte(`{"amount":11880,"paymentMethod":"PIX","idempotencyKey":"` + id + `-1","metadata":{"orderNumber":"PX-` + id[:8] + `"}}`)}}
	return o
}

func testCreateOrder(t *testing.T, s checkout.Store) {
	ctx := context.Background()
	o := NewOrder("key-" + checkout.NewID())
	got, created, err := s.CreateOrder(ctx, o)
	must(t, err)
	if !created {
		t.Fatal("CreateOrder created nothing")
	}
	read, err := s.Order(ctx, o.ID)
	must(t, err)
	for name, g := range map[string]*checkout.Order{"returned": got, "read": read} {
		if g.Version < 1 {
			t.Errorf("%s order version = %d, want >= 1", name, g.Version)
		}
		want := *o
		want.Version = g.Version
		same(t, name+" order", *g, want)
	}
	// Digital order: no address.
	d := NewOrder("key-" + checkout.NewID())
	d.Address, d.Physical = nil, false
	must(t, errOf2(s.CreateOrder(ctx, d)))
	same(t, "digital order's address", mustRead(t, s, d.ID).Address, nil)
	// The same request key gives the stored order and stores nothing new.
	again := NewOrder(o.RequestKey)
	got, created, err = s.CreateOrder(ctx, again)
	if err != nil || created || got.ID != o.ID {
		t.Fatalf("CreateOrder with a used request key = %v, %v, %v; want the first order", got, created, err)
	}
	sameErr(t, "the second order", errOf(s.Order(ctx, again.ID)), checkout.ErrNotFound)
	sameErr(t, "Order(missing)", errOf(s.Order(ctx, "missing")), checkout.ErrNotFound)
	g, err := s.OrderByExternalCode(ctx, o.ExternalCode)
	must(t, err)
	same(t, "OrderByExternalCode", g.ID, o.ID)
	sameErr(t, "OrderByExternalCode(missing)", errOf(s.OrderByExternalCode(ctx, "missing-code")), checkout.ErrNotFound)
	sameErr(t, `OrderByTransaction("")`, errOf(s.OrderByTransaction(ctx, "")), checkout.ErrNotFound)
	t.Run("Channels", func(t *testing.T) { testOrderChannels(t, s) })
}

// testCreateOrderAtomic: an order whose attempt cannot be stored (its idempotency key is taken)
// leaves nothing behind, and taken numbers are refused.
func testCreateOrderAtomic(t *testing.T, s checkout.Store) {
	ctx := context.Background()
	first := NewOrder("key-" + checkout.NewID())
	must(t, errOf2(s.CreateOrder(ctx, first)))
	clash := NewOrder("key-" + checkout.NewID())
	clash.Attempts[0].IdempotencyKey = first.Attempts[0].IdempotencyKey
	if _, _, err := s.CreateOrder(ctx, clash); err == nil {
		t.Fatal("CreateOrder with a taken idempotency key succeeded")
	}
	sameErr(t, "reading the order whose create failed half-way", errOf(s.Order(ctx, clash.ID)), checkout.ErrNotFound)
	// The order's request key is still free: the same order with a fresh key goes in.
	clash.Attempts[0].IdempotencyKey = clash.ID + "-1"
	if _, created, err := s.CreateOrder(ctx, clash); err != nil || !created {
		t.Errorf("CreateOrder after the failed one = %v, %v", created, err)
	}
	dup := NewOrder("key-" + checkout.NewID())
	dup.Number = first.Number
	if _, _, err := s.CreateOrder(ctx, dup); err == nil {
		t.Error("CreateOrder with a taken number succeeded")
	}
}

// testRequestKeyConcurrent: 20 goroutines placing the same request key make one order.
func testRequestKeyConcurrent(t *testing.T, s checkout.Store) {
	ctx := context.Background()
	key := "key-" + checkout.NewID()
	const n = 20
	type result struct {
		id      string
		created bool
		err     error
	}
	results := make(chan result, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			<-start
			o, created, err := s.CreateOrder(ctx, NewOrder(key))
			if err != nil {
				results <- result{err: err}
				return
			}
			results <- result{o.ID, created, nil}
		})
	}
	close(start)
	wg.Wait()
	close(results)
	ids := map[string]bool{}
	createdCount := 0
	for r := range results {
		if r.err != nil {
			t.Errorf("CreateOrder: %v", r.err)
			continue
		}
		ids[r.id] = true
		if r.created {
			createdCount++
		}
	}
	if len(ids) != 1 || createdCount != 1 {
		t.Errorf("%d goroutines made %d distinct orders, %d created; want 1 and 1", n, len(ids), createdCount)
	}
	all, err := s.Orders(ctx, checkout.OrderFilter{})
	if err != nil || len(all) != 1 {
		t.Errorf("stored orders = %d, %v; want 1", len(all), err)
	}
}

func mustCreate(t *testing.T, s checkout.Store, o *checkout.Order) *checkout.Order {
	t.Helper()
	got, created, err := s.CreateOrder(context.Background(), o)
	if err != nil || !created {
		t.Fatalf("CreateOrder = %v, %v", created, err)
	}
	return got
}

func mustRead(t *testing.T, s checkout.Store, id string) *checkout.Order {
	t.Helper()
	o, err := s.Order(context.Background(), id)
	if err != nil {
		t.Fatalf("Order(%s): %v", id, err)
	}
	return o
}

// move changes o's status with a history entry, as the service does.
func move(o *checkout.Order, to checkout.OrderStatus, at time.Time) {
	o.History = append(o.History, checkout.StatusChange{From: o.Status, To: to, At: at, Reason: checkout.Note("test")})
	o.Status = to
	o.UpdatedAt = at
}

func testUpdateOrderCAS(t *testing.T, s checkout.Store) {
	ctx := context.Background()
	o := mustCreate(t, s, NewOrder("key-"+checkout.NewID()))
	a, b := mustRead(t, s, o.ID), mustRead(t, s, o.ID)
	v := a.Version

	at := base.Add(time.Minute)
	move(a, checkout.StatusAwaitingPayment, at)
	a.Attempts[0].State = checkout.AttemptActive
	a.Attempts[0].TransactionID = "3f8e2a5c-1b2d-4c6e-9f0a-7b8c9d0e1f2a"
	must(t, s.UpdateOrder(ctx, a))
	if a.Version != v+1 {
		t.Errorf("version after update = %d, want %d", a.Version, v+1)
	}
	// b was read before a's update: stale, refused, nothing stored.
	move(b, checkout.StatusFailed, at)
	if err := s.UpdateOrder(ctx, b); !errors.Is(err, checkout.ErrConflict) {
		t.Fatalf("stale UpdateOrder error = %v, want ErrConflict", err)
	}
	got := mustRead(t, s, o.ID)
	if got.Status != checkout.StatusAwaitingPayment || got.Version != v+1 || len(got.History) != 2 ||
		got.History[1].To != checkout.StatusAwaitingPayment || !got.History[1].At.Equal(at) {
		t.Fatalf("after the stale update: status %s version %d history %+v", got.Status, got.Version, got.History)
	}
	if !got.UpdatedAt.Equal(at) {
		t.Errorf("UpdatedAt = %v, want %v", got.UpdatedAt, at)
	}
	// A transition the table forbids is refused even with the right version.
	move(got, checkout.StatusPaid, at)
	must(t, s.UpdateOrder(ctx, got))
	back := mustRead(t, s, o.ID)
	move(back, checkout.StatusAwaitingPayment, at)
	sameErr(t, "paid -> awaiting_payment", s.UpdateOrder(ctx, back), checkout.ErrInvalidTransition)
	if st := mustRead(t, s, o.ID).Status; st != checkout.StatusPaid {
		t.Errorf("status after refused transition = %s, want paid", st)
	}
	// Paid fields round-trip.
	p := mustRead(t, s, o.ID)
	p.LatePayment, p.PaidAt, p.RefundDue = true, at.Add(time.Second), 2990
	must(t, s.UpdateOrder(ctx, p))
	if g := mustRead(t, s, o.ID); !g.LatePayment || !g.PaidAt.Equal(at.Add(time.Second)) || g.RefundDue != 2990 {
		t.Errorf("LatePayment %v PaidAt %v RefundDue %d", g.LatePayment, g.PaidAt, g.RefundDue)
	}
	missing := NewOrder("x-" + checkout.NewID())
	sameErr(t, "UpdateOrder(missing)", s.UpdateOrder(ctx, missing), checkout.ErrNotFound)
}

// testUpdateOrderConcurrent: read-modify-write loops retrying on ErrConflict never lose an
// update.
func testUpdateOrderConcurrent(t *testing.T, s checkout.Store) {
	ctx := context.Background()
	o := mustCreate(t, s, NewOrder("key-"+checkout.NewID()))
	const n = 20
	var wg sync.WaitGroup
	errs := make(chan error, n)
	conflicts := make(chan int, n)
	for i := range n {
		wg.Go(func() {
			c := 0
			for {
				cur, err := s.Order(ctx, o.ID)
				if err != nil {
					errs <- err
					return
				}
				cur.History = append(cur.History, checkout.StatusChange{From: cur.Status, To: cur.Status,
					At: base, Reason: checkout.Note(fmt.Sprintf("note %d", i))})
				err = s.UpdateOrder(ctx, cur)
				if errors.Is(err, checkout.ErrConflict) {
					c++
					continue
				}
				conflicts <- c
				errs <- err
				return
			}
		})
	}
	wg.Wait()
	close(errs)
	close(conflicts)
	for err := range errs {
		if err != nil {
			t.Errorf("UpdateOrder: %v", err)
		}
	}
	got := mustRead(t, s, o.ID)
	if len(got.History) != 1+n || got.Version != o.Version+n {
		t.Errorf("after %d concurrent updates: %d history entries, version %d; want %d and %d",
			n, len(got.History), got.Version, 1+n, o.Version+n)
	}
}

func testAttempts(t *testing.T, s checkout.Store) {
	ctx := context.Background()
	o := mustCreate(t, s, NewOrder("key-"+checkout.NewID()))
	tx1, tx2 := "0b6f1f6e-8d0c-4f43-9a55-3d2f7c1b9e01", "0b6f1f6e-8d0c-4f43-9a55-3d2f7c1b9e02"
	exp := base.Add(30 * time.Minute)

	// The gateway answered: the attempt becomes active with everything it said.
	cur := mustRead(t, s, o.ID)
	a := &cur.Attempts[0]
	a.State, a.TransactionID, a.BRCode, a.QRCodePNG = checkout.AttemptActive, tx1, "00020101021226...6304ABCD", []byte{0x89, 'P', 'N', 'G'}
	a.ExpiresAt, a.DepositStatus, a.UpdatedAt = exp, gatewayclient.DepositPixQRCodeGenerated, base.Add(time.Second)
	move(cur, checkout.StatusAwaitingPayment, base.Add(time.Second))
	must(t, s.UpdateOrder(ctx, cur))
	got, err := s.OrderByTransaction(ctx, tx1)
	if err != nil || got.ID != o.ID {
		t.Fatalf("OrderByTransaction = %v, %v", got, err)
	}
	if !reflect.DeepEqual(got.Attempts[0], *a) {
		t.Errorf("stored attempt:\n got %+v\nwant %+v", got.Attempts[0], *a)
	}

	// A second attempt is inserted; the first one updated (the end-to-end id of a payment too).
	move(got, checkout.StatusExpired, exp)
	got.Attempts[0].State = checkout.AttemptExpired
	got.Attempts[0].EndToEnd = "E99999999202611231200abcdefghijk"
	second := checkout.Attempt{ID: checkout.NewID(), OrderID: o.ID, N: 2, IdempotencyKey: o.ID + "-2",
		State: checkout.AttemptFailed, Error: checkout.Reason{Code: checkout.ReasonGatewayRefused, Detail: "refused"}, CreatedAt: exp, UpdatedAt: exp,
		Violations: []gatewayclient.Violation{{Field: "customer.document", Code: "document", Message: "must be a valid CPF or CNPJ"}}}
	got.Attempts = append(got.Attempts, second)
	must(t, s.UpdateOrder(ctx, got))
	re := mustRead(t, s, o.ID)
	if len(re.Attempts) != 2 || re.Attempts[0].State != checkout.AttemptExpired || re.CurrentAttempt().N != 2 ||
		re.Attempts[0].EndToEnd != "E99999999202611231200abcdefghijk" || re.CurrentAttempt().EndToEnd != "" ||
		!reflect.DeepEqual(re.CurrentAttempt().Violations, second.Violations) || re.CurrentAttempt().TransactionID != "" {
		t.Errorf("attempts after update: %+v", re.Attempts)
	}
	// The request stored with an attempt comes back byte for byte after updates of the attempt;
	// an attempt stored without one (written before requests were kept) reads back without.
	if want := o.Attempts[0].Request; string(re.Attempts[0].Request) != string(want) {
		t.Errorf("stored request of attempt 1 = %s, want %s", re.Attempts[0].Request, want)
	}
	if r := re.CurrentAttempt().Request; r != nil {
		t.Errorf("attempt 2 stored without a request reads back %q, want nil", r)
	}

	t.Run("Unique", func(t *testing.T) { testAttemptsUnique(t, s, o.ID, tx1, tx2) })
}

// testAttemptsUnique: transaction ids are unique across orders, idempotency keys across
// attempts; the order id holds two attempts, the first with transaction tx1.
func testAttemptsUnique(t *testing.T, s checkout.Store, id, tx1, tx2 string) {
	ctx := context.Background()
	exp := base.Add(30 * time.Minute)
	other := mustCreate(t, s, NewOrder("key-"+checkout.NewID()))
	oc := mustRead(t, s, other.ID)
	oc.Attempts[0].TransactionID = tx1
	if err := s.UpdateOrder(ctx, oc); err == nil {
		t.Error("a second attempt with the same transaction id was stored")
	}
	oc = mustRead(t, s, other.ID)
	oc.Attempts[0].TransactionID = tx2
	must(t, s.UpdateOrder(ctx, oc))
	g, err := s.OrderByTransaction(ctx, tx2)
	must(t, err)
	same(t, "OrderByTransaction(tx2)", g.ID, other.ID)
	// Idempotency keys are unique across attempts.
	re := mustRead(t, s, id)
	re.Attempts = append(re.Attempts, checkout.Attempt{ID: checkout.NewID(), OrderID: id, N: 3,
		IdempotencyKey: other.Attempts[0].IdempotencyKey, State: checkout.AttemptPending, CreatedAt: exp, UpdatedAt: exp})
	if err := s.UpdateOrder(ctx, re); err == nil {
		t.Error("an attempt with a taken idempotency key was stored")
	}
	same(t, "attempts after the refused insert", len(mustRead(t, s, id).Attempts), 2)
}

// testOrders: the list's filters (state, due, expired recently, pending attempt, pages) over
// one set of orders in every state, newest first. It is long because the set and each
// filter's expected list read best as one table.
func testOrders(t *testing.T, s checkout.Store) {
	ctx := context.Background()
	mk := func(created time.Time, status checkout.OrderStatus, state checkout.AttemptState, expires time.Time) *checkout.Order {
		o := NewOrder("key-" + checkout.NewID())
		o.CreatedAt, o.UpdatedAt = created, created
		o.Status = status
		o.History[0].To = status
		o.Attempts[0].State, o.Attempts[0].ExpiresAt = state, expires
		if state != checkout.AttemptPending {
			o.Attempts[0].TransactionID = checkout.NewID()
		}
		return mustCreate(t, s, o)
	}
	t0 := base
	pending := mk(t0, checkout.StatusPending, checkout.AttemptPending, time.Time{})
	due := mk(t0.Add(1*time.Minute), checkout.StatusAwaitingPayment, checkout.AttemptActive, t0.Add(10*time.Minute))
	notDue := mk(t0.Add(2*time.Minute), checkout.StatusAwaitingPayment, checkout.AttemptActive, t0.Add(40*time.Minute))
	oldExpired := mustRead(t, s, mk(t0.Add(3*time.Minute), checkout.StatusExpired, checkout.AttemptExpired, t0).ID)
	oldExpired.UpdatedAt = t0.Add(-48 * time.Hour)
	must(t, s.UpdateOrder(ctx, oldExpired))
	recentExpired := mk(t0.Add(4*time.Minute), checkout.StatusExpired, checkout.AttemptExpired, t0)
	paid := mk(t0.Add(5*time.Minute), checkout.StatusPaid, checkout.AttemptPaid, t0.Add(30*time.Minute))
	// An expired order renewing: its current (second) attempt is pending.
	renewing := mustRead(t, s, mk(t0.Add(6*time.Minute), checkout.StatusExpired, checkout.AttemptExpired, t0).ID)
	renewing.Attempts = append(renewing.Attempts, checkout.Attempt{ID: checkout.NewID(), OrderID: renewing.ID, N: 2,
		IdempotencyKey: renewing.ID + "-2", State: checkout.AttemptPending, CreatedAt: t0, UpdatedAt: t0})
	renewing.UpdatedAt = t0.Add(6 * time.Minute)
	must(t, s.UpdateOrder(ctx, renewing))

	list := func(f checkout.OrderFilter) []string {
		t.Helper()
		os, err := s.Orders(ctx, f)
		if err != nil {
			t.Fatalf("Orders(%+v): %v", f, err)
		}
		var ids []string
		for _, o := range os {
			if len(o.Lines) == 0 || len(o.Attempts) == 0 {
				t.Errorf("listed order %s without lines or attempts", o.ID)
			}
			ids = append(ids, o.ID)
		}
		return ids
	}
	eq := func(name string, got []string, want ...*checkout.Order) {
		t.Helper()
		var w []string
		for _, o := range want {
			w = append(w, o.ID)
		}
		if !reflect.DeepEqual(got, w) {
			t.Errorf("%s = %v, want %v", name, got, w)
		}
	}
	eq("all, newest first", list(checkout.OrderFilter{}), renewing, paid, recentExpired, oldExpired, notDue, due, pending)
	eq("open", list(checkout.OrderFilter{Statuses: []checkout.OrderStatus{checkout.StatusPending, checkout.StatusAwaitingPayment}}),
		notDue, due, pending)
	eq("due at t0+10m", list(checkout.OrderFilter{Statuses: []checkout.OrderStatus{checkout.StatusAwaitingPayment},
		ExpiresBefore: t0.Add(10 * time.Minute)}), due)
	eq("due at t0+9m", list(checkout.OrderFilter{ExpiresBefore: t0.Add(9 * time.Minute)}))
	eq("expired recently", list(checkout.OrderFilter{Statuses: []checkout.OrderStatus{checkout.StatusExpired},
		UpdatedSince: t0.Add(-24 * time.Hour)}), renewing, recentExpired)
	eq("pending attempt", list(checkout.OrderFilter{PendingAttempt: true}), renewing, pending)
	eq("expired with pending attempt", list(checkout.OrderFilter{Statuses: []checkout.OrderStatus{checkout.StatusExpired},
		PendingAttempt: true}), renewing)
	eq("page 2", list(checkout.OrderFilter{Limit: 2, Offset: 2}), recentExpired, oldExpired)
	eq("offset only", list(checkout.OrderFilter{Offset: 5}), due, pending)
}

// testWebhooks: concurrent deliveries of one webhook id are seen as first exactly once.
func testWebhooks(t *testing.T, s checkout.Store) {
	ctx := context.Background()
	const n = 20
	id := "msg_" + checkout.NewID()
	count := together(n, func() bool {
		first, err := s.MarkWebhook(ctx, id, base)
		if err != nil {
			t.Errorf("MarkWebhook: %v", err)
		}
		return first
	})
	if count != 1 {
		t.Errorf("%d concurrent deliveries: %d seen as first, want 1", n, count)
	}
	if first, err := s.MarkWebhook(ctx, "msg_other", base); err != nil || !first {
		t.Errorf("another id: first = %v, %v", first, err)
	}
	must(t, s.ForgetWebhook(ctx, id))
	if first, err := s.MarkWebhook(ctx, id, base); err != nil || !first {
		t.Errorf("after ForgetWebhook: first = %v, %v; want true", first, err)
	}
}

// testAddProduct: a product is added only when neither its id nor its slug is taken; a stored
// product is never changed; concurrent adds of one product add it once and none fails.
func testAddProduct(t *testing.T, s checkout.Store) {
	ctx := context.Background()
	a := product("a", 2990, false)
	if added, err := s.AddProduct(ctx, a); err != nil || !added {
		t.Fatalf("AddProduct(a) = %v, %v; want added", added, err)
	}
	if got, err := s.Product(ctx, "a"); err != nil || !reflect.DeepEqual(*got, a) {
		t.Fatalf("Product(a) = %+v, %v; want %+v", got, err, a)
	}
	edited := a
	edited.Title, edited.UnitPrice = "Outro título", 100
	if added, err := s.AddProduct(ctx, edited); err != nil || added {
		t.Errorf("AddProduct with a taken id = %v, %v; want not added, no error", added, err)
	}
	sameSlug := product("other", 5900, true)
	sameSlug.Slug = a.Slug
	if added, err := s.AddProduct(ctx, sameSlug); err != nil || added {
		t.Errorf("AddProduct with a taken slug = %v, %v; want not added, no error", added, err)
	}
	if got, _ := s.Product(ctx, "a"); got == nil || !reflect.DeepEqual(*got, a) {
		t.Errorf("the stored product changed: %+v", got)
	}
	sameErr(t, "the product with a taken slug was stored", errOf(s.Product(ctx, "other")), checkout.ErrNotFound)
	if _, err := s.AddProduct(ctx, product("", 100, false)); err == nil {
		t.Error("AddProduct without an id succeeded")
	}

	const n = 20
	b := product("b", 5900, true)
	count := together(n, func() bool {
		added, err := s.AddProduct(ctx, b)
		if err != nil {
			t.Errorf("concurrent AddProduct: %v", err)
		}
		return added
	})
	if count != 1 {
		t.Errorf("%d concurrent AddProduct of one product added it %d times, want 1", n, count)
	}
}

// testSeedConcurrent: seeding the demo catalogue from many goroutines at once fails none of
// them and stores each product once; seeding again changes nothing, even a merchant's edit.
func testSeedConcurrent(t *testing.T, s checkout.Store) {
	ctx := context.Background()
	const n = 8
	var wg sync.WaitGroup
	start := make(chan struct{})
	for range n {
		wg.Go(func() {
			<-start
			if err := checkout.SeedDemoCatalogue(ctx, s); err != nil {
				t.Errorf("concurrent SeedDemoCatalogue: %v", err)
			}
		})
	}
	close(start)
	wg.Wait()
	ps, err := s.Products(ctx, false)
	if err != nil || len(ps) == 0 {
		t.Fatalf("products after seeding: %v, %v", ps, err)
	}
	edited := ps[0]
	edited.Title, edited.UpdatedAt = "Editado pelo lojista", base
	mustUpsert(t, s, edited)
	must(t, checkout.SeedDemoCatalogue(ctx, s))
	again, err := s.Products(ctx, false)
	if err != nil || len(again) != len(ps) {
		t.Fatalf("products after seeding again: %d, %v; want %d", len(again), err, len(ps))
	}
	if got, _ := s.Product(ctx, edited.ID); got == nil || got.Title != edited.Title {
		t.Errorf("seeding again changed an edited product: %+v", got)
	}
}

func testPruneCarts(t *testing.T, s checkout.Store) {
	ctx := context.Background()
	mustUpsert(t, s, product("a", 2990, false))
	mk := func(updated time.Time) string {
		t.Helper()
		id := checkout.NewID()
		c := checkout.Cart{ID: id, CreatedAt: updated.Add(-time.Hour), UpdatedAt: updated,
			Lines: []checkout.CartLine{{Product: checkout.Product{ID: "a"}, Quantity: 2}}}
		must(t, s.CreateCart(ctx, c))
		return id
	}
	cut := base
	oldest, older, old := mk(cut.Add(-72*time.Hour)), mk(cut.Add(-48*time.Hour)), mk(cut.Add(-time.Millisecond))
	atCut, fresh := mk(cut), mk(cut.Add(time.Hour))
	// A cart created long ago but changed since is in use.
	used := mk(cut.Add(-96 * time.Hour))
	must(t, errOf(s.UpdateCart(ctx, used, cut.Add(time.Minute), func(c *checkout.Cart) error {
		c.Lines[0].Quantity = 3
		return nil
	})))
	if _, err := s.PruneCarts(ctx, cut, 0); err == nil {
		t.Error("PruneCarts with limit 0 succeeded")
	}
	// lines is the number of lines of each cart, -1 for a cart not found.
	lines := func(ids ...string) []int {
		t.Helper()
		var n []int
		for _, id := range ids {
			c, err := s.Cart(ctx, id)
			if errors.Is(err, checkout.ErrNotFound) {
				n = append(n, -1)
				continue
			}
			must(t, err)
			n = append(n, len(c.Lines))
		}
		return n
	}
	if !same(t, "PruneCarts(limit 2)", res(s.PruneCarts(ctx, cut, 2)), res(2, nil)) {
		t.FailNow()
	}
	same(t, "lines of the oldest, older and old carts after the first batch", lines(oldest, older, old), []int{-1, -1, 1})
	same(t, "second PruneCarts", res(s.PruneCarts(ctx, cut, 2)), res(1, nil))
	same(t, "third PruneCarts", res(s.PruneCarts(ctx, cut, 2)), res(0, nil))
	same(t, "lines of the carts changed at the cut-off, fresh and in use after pruning", lines(atCut, fresh, used), []int{1, 1, 1})
	// The pruned carts' lines went with them: a new cart with a pruned cart's id starts empty.
	must(t, s.CreateCart(ctx, checkout.Cart{ID: oldest, CreatedAt: cut, UpdatedAt: cut}))
	same(t, "lines of a new cart with a pruned cart's id", lines(oldest), []int{0})
}

// testPruneWebhooks: ids recorded before the cut-off go, oldest first, in batches; a pruned id
// is new again, a kept one still a duplicate.
func testPruneWebhooks(t *testing.T, s checkout.Store) {
	ctx := context.Background()
	cut := base
	ids := map[string]time.Time{
		"msg_old_1": cut.Add(-72 * time.Hour), "msg_old_2": cut.Add(-48 * time.Hour), "msg_old_3": cut.Add(-time.Second),
		"msg_at_cut": cut, "msg_new": cut.Add(time.Minute),
	}
	for id, at := range ids {
		if first, err := s.MarkWebhook(ctx, id, at); err != nil || !first {
			t.Fatalf("MarkWebhook(%s) = %v, %v", id, first, err)
		}
	}
	if _, err := s.PruneWebhooks(ctx, cut, -1); err == nil {
		t.Error("PruneWebhooks with limit -1 succeeded")
	}
	n, err := s.PruneWebhooks(ctx, cut, 2)
	if err != nil || n != 2 {
		t.Fatalf("PruneWebhooks(limit 2) = %d, %v; want 2", n, err)
	}
	// msg_old_3, the newest of the old ones, is left for the next batch.
	if first, err := s.MarkWebhook(ctx, "msg_old_3", ids["msg_old_3"]); err != nil || first {
		t.Errorf("the first batch took msg_old_3 before older ids: first = %v, %v", first, err)
	}
	if n, err := s.PruneWebhooks(ctx, cut, 10); err != nil || n != 1 {
		t.Errorf("second PruneWebhooks = %d, %v; want 1", n, err)
	}
	for id, at := range ids {
		first, err := s.MarkWebhook(ctx, id, at)
		must(t, err)
		if want := at.Before(cut); first != want {
			t.Errorf("MarkWebhook(%s) after pruning: first = %v, want %v", id, first, want)
		}
	}
}

// together runs fn in n goroutines released at once and returns how many calls returned true.
func together(n int, fn func() bool) int {
	var wg sync.WaitGroup
	results := make(chan bool, n)
	start := make(chan struct{})
	for range n {
		wg.Go(func() {
			<-start
			results <- fn()
		})
	}
	close(start)
	wg.Wait()
	close(results)
	count := 0
	for r := range results {
		if r {
			count++
		}
	}
	return count
}

// testCartRefused, on testCarts' cart of two lines: an error from fn stores nothing;
// out-of-range quantities and unknown products are refused; a line is removed; a missing cart
// is not found.
func testCartRefused(t *testing.T, s checkout.Store, id string) {
	ctx := context.Background()
	later := base.Add(time.Minute)
	lines := func() int {
		c, err := s.Cart(ctx, id)
		must(t, err)
		return len(c.Lines)
	}
	boom := errors.New("boom")
	sameErr(t, "UpdateCart with fn failing", errOf(s.UpdateCart(ctx, id, later, func(c *checkout.Cart) error {
		c.Lines = nil
		return boom
	})), boom)
	same(t, "lines of the cart after an aborted update", lines(), 2)
	for name, line := range map[string]checkout.CartLine{
		"quantity 0":      {Product: checkout.Product{ID: "a"}, Quantity: 0},
		"quantity 101":    {Product: checkout.Product{ID: "a"}, Quantity: 101},
		"unknown product": {Product: checkout.Product{ID: "zzz"}, Quantity: 1},
	} {
		_, err := s.UpdateCart(ctx, id, later, func(c *checkout.Cart) error {
			c.Lines = []checkout.CartLine{line}
			return nil
		})
		if err == nil {
			t.Errorf("UpdateCart with %s succeeded", name)
		}
	}
	same(t, "lines of the cart after refused updates", lines(), 2)
	c, err := s.UpdateCart(ctx, id, later, func(c *checkout.Cart) error {
		c.Lines = c.Lines[1:]
		return nil
	})
	must(t, err)
	if len(c.Lines) != 1 || c.Lines[0].Product.ID != "a" {
		t.Errorf("after removal: %+v", c)
	}
	sameErr(t, "UpdateCart(missing)", errOf(s.UpdateCart(ctx, "missing", later, func(*checkout.Cart) error { return nil })), checkout.ErrNotFound)
}

// testOrderChannels: every channel of the one list is stored and read back; a channel outside
// it is refused.
func testOrderChannels(t *testing.T, s checkout.Store) {
	for _, ch := range checkout.Channels() {
		c := NewOrder("key-" + checkout.NewID())
		c.Channel = ch
		must(t, errOf2(s.CreateOrder(context.Background(), c)))
		same(t, "channel read back", mustRead(t, s, c.ID).Channel, ch)
	}
	bad := NewOrder("key-" + checkout.NewID())
	bad.Channel = "phone"
	if _, _, err := s.CreateOrder(context.Background(), bad); err == nil {
		t.Error("an order of channel \"phone\" was stored")
	}
}
