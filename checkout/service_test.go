package checkout_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/brcode"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
)

func TestPlaceOrderDigital(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.cart(map[checkout.ProductID]int{ebook: 2})
	o, err := e.svc.PlaceOrder(e.ctx, checkout.PlaceOrderInput{Source: c.ID, RequestKey: checkout.NewID(),
		Customer: customer(), Lang: "en", ShopperIP: "203.0.113.9"})
	if err != nil {
		t.Fatalf("PlaceOrder: %v", err)
	}
	if o.Status != checkout.StatusAwaitingPayment || o.Amount != 2*2990 || o.Physical || o.Address != nil {
		t.Fatalf("order = status %s amount %d physical %v address %v", o.Status, o.Amount, o.Physical, o.Address)
	}
	if len(o.ID) < 26 || o.ExternalCode == "" || len(o.Number) != len("PX-")+8 {
		t.Errorf("ids: id %q external %q number %q", o.ID, o.ExternalCode, o.Number)
	}
	if o.Customer.Document != "52998224725" || o.Customer.Phone != "+5511987654321" {
		t.Errorf("customer not normalised: %+v", o.Customer)
	}
	a := o.QR()
	if a == nil {
		t.Fatalf("no QR for an awaiting order; attempt %+v", o.CurrentAttempt())
	}
	p, err := brcode.Decode(a.BRCode)
	if err != nil || p.Amount != 2*2990 {
		t.Errorf("BR Code %q: amount %d, %v", a.BRCode, p.Amount, err)
	}
	// The image is the checkout's own drawing of the verified BR Code, made once, stored with
	// the attempt.
	if want, _ := fakeQRImage(a.BRCode); !bytes.Equal(a.QRCodePNG, want) {
		t.Errorf("QR image %q, want the drawing of the BR Code %q", a.QRCodePNG, want)
	}
	now := e.sb.Now()
	if d := a.ExpiresAt.Sub(now); d < 29*time.Minute || d > 30*time.Minute+time.Second {
		t.Errorf("QR expires in %v, want about 30 minutes", d)
	}
	if a.N != 1 || a.IdempotencyKey == "" || a.TransactionID == "" || a.DepositStatus != gatewayclient.DepositPixQRCodeGenerated {
		t.Errorf("attempt = %+v", a)
	}
	d, err := e.client.GetDeposit(e.ctx, a.TransactionID)
	if err != nil || d.ExternalCode != o.ExternalCode || d.Amount != o.Amount {
		t.Errorf("sandbox deposit = %+v, %v", d, err)
	}
	if len(o.History) != 2 || o.History[1].From != checkout.StatusPending || o.History[1].To != checkout.StatusAwaitingPayment {
		t.Errorf("history = %+v", o.History)
	}
}

func TestPlaceOrderPhysicalNeedsAddress(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.cart(map[checkout.ProductID]int{ebook: 1, caneca: 2})
	if !c.NeedsAddress() || c.Total() != 2990+2*5900 {
		t.Fatalf("cart needs address %v total %d", c.NeedsAddress(), c.Total())
	}
	in := checkout.PlaceOrderInput{Source: c.ID, RequestKey: checkout.NewID(), Customer: customer()}
	_, err := e.svc.PlaceOrder(e.ctx, in)
	var fe *checkout.ValidationError
	if !errors.As(err, &fe) || checkout.FormViolations(fe)[checkout.FieldAddress] == nil || !errors.Is(err, gatewayclient.ErrValidation) {
		t.Fatalf("without address: %v, want ValidationError on %q", err, checkout.FieldAddress)
	}
	in.Address = address()
	o, err := e.svc.PlaceOrder(e.ctx, in)
	if err != nil || o.Status != checkout.StatusAwaitingPayment || !o.Physical || o.Address == nil || o.Address.City != "São Paulo" {
		t.Fatalf("with address: %+v, %v", o, err)
	}
	if e.deposits() != 1 {
		t.Errorf("deposits = %d, want 1", e.deposits())
	}
}

func TestPlaceOrderValidation(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	digital := e.cart(map[checkout.ProductID]int{ebook: 1})
	physical := e.cart(map[checkout.ProductID]int{caneca: 1})
	badCEP := address()
	badCEP.ZipCode = "123"
	badNumber := address()
	badNumber.Number = "12A"
	for _, tc := range []struct {
		name   string
		cart   *checkout.Cart
		mutate func(in *checkout.PlaceOrderInput)
		fields []string
	}{
		{"bad CPF", digital, func(in *checkout.PlaceOrderInput) { in.Customer.Document = "529.982.247-24" }, []string{checkout.FieldDocument}},
		{"missing name", digital, func(in *checkout.PlaceOrderInput) { in.Customer.Name = " " }, []string{checkout.FieldName}},
		{"bad e-mail and phone", digital, func(in *checkout.PlaceOrderInput) {
			in.Customer.Email = "maria@"
			in.Customer.Phone = "1133334444" // a landline
		}, []string{checkout.FieldEmail, checkout.FieldPhone}},
		{"missing address", physical, func(in *checkout.PlaceOrderInput) { in.Address = nil }, []string{checkout.FieldAddress}},
		{"bad CEP", physical, func(in *checkout.PlaceOrderInput) { in.Address = badCEP }, []string{checkout.FieldZipCode}},
		{"bad number", physical, func(in *checkout.PlaceOrderInput) { in.Address = badNumber }, []string{checkout.FieldNumber}},
		{"no request key", digital, func(in *checkout.PlaceOrderInput) { in.RequestKey = "" }, []string{checkout.FieldRequestKey}},
		// A phone that is no number is an error, not dropped from an order that goes through.
		{"phone 1234", digital, func(in *checkout.PlaceOrderInput) { in.Customer.Phone = "1234" }, []string{checkout.FieldPhone}},
		{"phone (12) 34", digital, func(in *checkout.PlaceOrderInput) { in.Customer.Phone = "(12) 34" }, []string{checkout.FieldPhone}},
		{"area code 00", digital, func(in *checkout.PlaceOrderInput) { in.Customer.Phone = "(00) 91234-5678" }, []string{checkout.FieldPhone}},
		{"one-letter name", digital, func(in *checkout.PlaceOrderInput) { in.Customer.Name = "A" }, []string{checkout.FieldName}},
		{"no e-mail nor phone", digital, func(in *checkout.PlaceOrderInput) {
			in.Customer.Email, in.Customer.Phone = " ", ""
		}, []string{checkout.FieldEmail, checkout.FieldPhone}},
		{"everything at once", physical, func(in *checkout.PlaceOrderInput) {
			in.Customer.Phone = "1234"
			in.Customer.Document = "529.982.247-24"
			in.Address.ZipCode = "123"
		}, []string{checkout.FieldPhone, checkout.FieldDocument, checkout.FieldZipCode}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			in := checkout.PlaceOrderInput{Source: tc.cart.ID, RequestKey: checkout.NewID(), Customer: customer(), Address: address()}
			tc.mutate(&in)
			o, err := e.svc.PlaceOrder(e.ctx, in)
			var fe *checkout.ValidationError
			if !errors.As(err, &fe) || o != nil {
				t.Fatalf("PlaceOrder = %v, %v; want *ValidationError", o, err)
			}
			if !errors.Is(err, gatewayclient.ErrValidation) {
				t.Error("ValidationError does not match gatewayclient.ErrValidation")
			}
			byField := checkout.FormViolations(fe)
			for _, f := range tc.fields {
				if byField[f] == nil {
					t.Errorf("no error on field %q: %v", f, byField)
				}
			}
			if len(byField) != len(tc.fields) {
				t.Errorf("errors on %d fields, want %d: %v", len(byField), len(tc.fields), byField)
			}
		})
	}
	// Nothing reached the store or the gateway.
	if os, _ := e.store.Orders(e.ctx, checkout.OrderFilter{}); len(os) != 0 {
		t.Errorf("%d orders stored after invalid input", len(os))
	}
	if n := e.gw.createCount(); n != 0 {
		t.Errorf("%d gateway calls after invalid input", n)
	}
	empty, err := e.svc.NewCart(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.PlaceOrder(e.ctx, checkout.PlaceOrderInput{Source: empty.ID, RequestKey: checkout.NewID(), Customer: customer()}); !errors.Is(err, checkout.ErrEmptyCart) {
		t.Errorf("empty cart: %v, want ErrEmptyCart", err)
	}
	if _, err := e.svc.PlaceOrder(e.ctx, checkout.PlaceOrderInput{Source: "nope", RequestKey: checkout.NewID(), Customer: customer()}); !errors.Is(err, checkout.ErrNotFound) {
		t.Errorf("unknown cart: %v, want ErrNotFound", err)
	}
}

func TestCartQuantitiesAndCataloguePrices(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c, err := e.svc.NewCart(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []int{0, -1, 101} {
		_, err := e.svc.AddToCart(e.ctx, c.ID, ebook, q)
		var fe *checkout.ValidationError
		if !errors.As(err, &fe) || !fe.Has(checkout.FieldQuantity) {
			t.Errorf("AddToCart qty %d: %v, want ValidationError on quantity", q, err)
		}
	}
	if c, err = e.svc.AddToCart(e.ctx, c.ID, ebook, 60); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.AddToCart(e.ctx, c.ID, ebook, 41); err == nil {
		t.Error("adding 41 to 60 succeeded (max 100)")
	}
	if c, err = e.svc.AddToCart(e.ctx, c.ID, ebook, 40); err != nil || c.Lines[0].Quantity != 100 {
		t.Fatalf("60+40: %+v, %v", c, err)
	}
	if _, err := e.svc.SetQuantity(e.ctx, c.ID, ebook, 101); err == nil {
		t.Error("SetQuantity 101 succeeded")
	}
	if _, err := e.svc.SetQuantity(e.ctx, c.ID, caneca, 1); !errors.Is(err, checkout.ErrNotFound) {
		t.Errorf("SetQuantity of a product not in the cart: %v, want ErrNotFound", err)
	}
	if c, err = e.svc.SetQuantity(e.ctx, c.ID, ebook, 3); err != nil || c.Total() != 3*2990 {
		t.Fatalf("SetQuantity 3: total %d, %v", c.Total(), err)
	}
	if _, err := e.svc.AddToCart(e.ctx, c.ID, "nope", 1); !errors.Is(err, checkout.ErrNotFound) {
		t.Errorf("unknown product: %v, want ErrNotFound", err)
	}
	// A new cart (no id) is made with its first line, as stored.
	fresh, err := e.svc.AddToCart(e.ctx, "", caneca, 2)
	if err != nil {
		t.Fatal(err)
	}
	stored, err := e.svc.Cart(e.ctx, fresh.ID)
	if err != nil || len(stored.Lines) != 1 || stored.Lines[0].Product.ID != caneca || stored.Lines[0].Quantity != 2 ||
		stored.Total() != fresh.Total() || fresh.Total() == 0 {
		t.Fatalf("new cart: returned %+v, stored %+v (%v)", fresh, stored, err)
	}
	if _, err := e.svc.AddToCart(e.ctx, "", caneca, 0); err == nil {
		t.Error("a new cart was made with a quantity of 0")
	}
	// The catalogue price is the one that counts, also when it changes after adding.
	p, _ := e.store.Product(e.ctx, ebook)
	p.UnitPrice = 3490
	if err := e.store.UpsertProduct(e.ctx, *p); err != nil {
		t.Fatal(err)
	}
	if c, _ = e.svc.Cart(e.ctx, c.ID); c.Total() != 3*3490 {
		t.Errorf("cart total after a price change = %d, want %d", c.Total(), 3*3490)
	}
	o, err := e.svc.PlaceOrder(e.ctx, checkout.PlaceOrderInput{Source: c.ID, RequestKey: checkout.NewID(), Customer: customer()})
	if err != nil || o.Amount != 3*3490 || o.Lines[0].UnitPrice != 3490 {
		t.Fatalf("order amount %d, %v; want %d", o.Amount, err, 3*3490)
	}
	// A product taken off the catalogue cannot be ordered.
	p.Active = false
	if err := e.store.UpsertProduct(e.ctx, *p); err != nil {
		t.Fatal(err)
	}
	_, err = e.svc.PlaceOrder(e.ctx, checkout.PlaceOrderInput{Source: c.ID, RequestKey: checkout.NewID(), Customer: customer()})
	var fe *checkout.ValidationError
	if !errors.As(err, &fe) || checkout.FormViolations(fe)[checkout.FieldCart] == nil {
		t.Errorf("ordering an inactive product: %v, want ValidationError on cart", err)
	}
	if c, err = e.svc.RemoveFromCart(e.ctx, c.ID, ebook); err != nil || len(c.Lines) != 0 {
		t.Errorf("RemoveFromCart: %+v, %v", c, err)
	}
}

// TestPlaceOrderConcurrentSameKey: 50 identical submissions make one order, one attempt and
// one transaction in the gateway. A submission that finds the order's lock held past
// ShopperGatewayWait (by the one completing it) is answered with the order as it is, possibly
// still pending: its page turns into the QR code by itself.
func TestPlaceOrderConcurrentSameKey(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.cart(map[checkout.ProductID]int{ebook: 1})
	in := checkout.PlaceOrderInput{Source: c.ID, RequestKey: checkout.NewID(), Customer: customer()}
	const n = 50
	ids := make(chan string, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			<-start
			o, err := e.svc.PlaceOrder(e.ctx, in)
			if err != nil {
				t.Errorf("PlaceOrder: %v", err)
				return
			}
			if o.Status != checkout.StatusAwaitingPayment && o.Status != checkout.StatusPending {
				t.Errorf("status %s, want awaiting_payment or pending", o.Status)
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
		t.Fatalf("%d submissions made %d orders", n, len(distinct))
	}
	for id := range distinct {
		if o := e.order(id); len(o.Attempts) != 1 || o.Status != checkout.StatusAwaitingPayment {
			t.Errorf("order %s with %d attempts, want awaiting_payment with 1", o.Status, len(o.Attempts))
		}
	}
	if got := e.deposits(); got != 1 {
		t.Errorf("sandbox holds %d transactions, want 1", got)
	}
}

// TestCrashBetweenAnswerAndWrite: the gateway made the transaction but its answer was never
// stored; EnsurePayment replays the same key and stores the same transaction.
func TestCrashBetweenAnswerAndWrite(t *testing.T) {
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
	if err != nil {
		t.Fatalf("PlaceOrder: %v (the order is stored: no error expected)", err)
	}
	if o.Status != checkout.StatusPending || o.CurrentAttempt().State != checkout.AttemptPending || o.QR() != nil {
		t.Fatalf("after the crash: status %s attempt %+v", o.Status, o.CurrentAttempt())
	}
	if made == nil || e.deposits() != 1 {
		t.Fatalf("the gateway should hold the transaction: %v, %d", made, e.deposits())
	}
	// Still failing: EnsurePayment reports it and the attempt stays pending.
	if o, err = e.svc.EnsurePayment(e.ctx, o.ID); !errors.Is(err, errCrash) || o == nil || o.Status != checkout.StatusPending {
		t.Fatalf("EnsurePayment while failing: %v, %v", o, err)
	}
	e.gw.set(func(w *wrapGateway) { w.afterCreate = nil })
	o, err = e.svc.EnsurePayment(e.ctx, o.ID)
	if err != nil || o.Status != checkout.StatusAwaitingPayment {
		t.Fatalf("EnsurePayment: %v, %v", o, err)
	}
	if a := o.CurrentAttempt(); a.TransactionID != made.ID || a.BRCode != made.PixResponse.URI || len(o.Attempts) != 1 {
		t.Errorf("stored transaction %s, want the replayed %s", a.TransactionID, made.ID)
	}
	if got := e.deposits(); got != 1 {
		t.Errorf("sandbox holds %d transactions, want 1", got)
	}
	// Nothing more to do: no further gateway call.
	before := e.gw.createCount()
	if _, err := e.svc.EnsurePayment(e.ctx, o.ID); err != nil || e.gw.createCount() != before {
		t.Errorf("EnsurePayment on an active attempt called the gateway (%v)", err)
	}
}

// TestConcurrentEnsurePayment: callers of one pending order share one gateway call.
func TestConcurrentEnsurePayment(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.gw.set(func(w *wrapGateway) {
		w.afterCreate = func(*gatewayclient.Transaction, error) (*gatewayclient.Transaction, error) { return nil, errCrash }
	})
	c := e.cart(map[checkout.ProductID]int{ebook: 1})
	o, err := e.svc.PlaceOrder(e.ctx, checkout.PlaceOrderInput{Source: c.ID, RequestKey: checkout.NewID(), Customer: customer()})
	if err != nil || o.Status != checkout.StatusPending {
		t.Fatalf("PlaceOrder: %v, %v", o, err)
	}
	e.gw.set(func(w *wrapGateway) { w.afterCreate = nil; w.creates = 0 })
	var wg sync.WaitGroup
	for range 10 {
		wg.Go(func() {
			if o, err := e.svc.EnsurePayment(e.ctx, o.ID); err != nil || o.Status != checkout.StatusAwaitingPayment {
				t.Errorf("EnsurePayment: %v, %v", o, err)
			}
		})
	}
	wg.Wait()
	if n := e.gw.createCount(); n != 1 {
		t.Errorf("%d gateway calls for one pending attempt, want 1", n)
	}
}

func TestRegenerateAfterExpiry(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	o := e.place()
	if _, err := e.svc.RegenerateQR(e.ctx, o.ID); !errors.Is(err, checkout.ErrNotRenewable) {
		t.Errorf("RegenerateQR while awaiting: %v, want ErrNotRenewable", err)
	}
	e.advance(31 * time.Minute)
	n, err := e.svc.ExpireDue(e.ctx)
	if err != nil || n != 1 {
		t.Fatalf("ExpireDue = %d, %v; want 1", n, err)
	}
	o = e.order(o.ID)
	if o.Status != checkout.StatusExpired || o.QR() != nil || o.CurrentAttempt().State != checkout.AttemptExpired {
		t.Fatalf("after expiry: %s, attempt %s", o.Status, o.CurrentAttempt().State)
	}
	first := o.CurrentAttempt()
	r, err := e.svc.RegenerateQR(e.ctx, o.ID)
	if err != nil {
		t.Fatalf("RegenerateQR: %v", err)
	}
	a := r.CurrentAttempt()
	if r.Status != checkout.StatusAwaitingPayment || len(r.Attempts) != 2 || a.N != 2 || r.QR() == nil {
		t.Fatalf("after regenerate: %s, %d attempts", r.Status, len(r.Attempts))
	}
	if a.IdempotencyKey == first.IdempotencyKey || a.TransactionID == first.TransactionID {
		t.Errorf("regenerated attempt reuses key %s or transaction %s", a.IdempotencyKey, a.TransactionID)
	}
	if r.Attempts[0].State != checkout.AttemptExpired {
		t.Errorf("first attempt = %s, want expired", r.Attempts[0].State)
	}
	if got := e.deposits(); got != 2 {
		t.Errorf("sandbox holds %d transactions, want 2", got)
	}
	last := r.History[len(r.History)-1]
	if last.From != checkout.StatusExpired || last.To != checkout.StatusAwaitingPayment {
		t.Errorf("last history entry = %+v", last)
	}
	if n, _ := e.svc.ExpireDue(e.ctx); n != 0 {
		t.Errorf("ExpireDue expired %d fresh orders", n)
	}
}

// TestBRCodeAmountMismatch: a BR Code for another amount fails the attempt; its QR is never
// exposed; a new QR code may be asked for.
func TestBRCodeAmountMismatch(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.gw.set(func(w *wrapGateway) {
		w.afterCreate = func(tx *gatewayclient.Transaction, err error) (*gatewayclient.Transaction, error) {
			if err != nil {
				return tx, err
			}
			p, derr := brcode.Decode(tx.PixResponse.URI)
			if derr != nil {
				return nil, derr
			}
			p.Amount = 1 // one cent
			forged := *tx
			pix := *tx.PixResponse
			if pix.URI, derr = p.Encode(); derr != nil {
				return nil, derr
			}
			forged.PixResponse = &pix
			return &forged, nil
		}
	})
	c := e.cart(map[checkout.ProductID]int{ebook: 1})
	o, err := e.svc.PlaceOrder(e.ctx, checkout.PlaceOrderInput{Source: c.ID, RequestKey: checkout.NewID(), Customer: customer()})
	if err != nil {
		t.Fatalf("PlaceOrder: %v", err)
	}
	a := o.CurrentAttempt()
	if o.Status != checkout.StatusFailed || a.State != checkout.AttemptFailed || o.QR() != nil {
		t.Fatalf("status %s attempt %s", o.Status, a.State)
	}
	if a.BRCode != "" || a.QRCodePNG != nil || a.Error.IsZero() {
		t.Errorf("failed attempt keeps code %q, image %d bytes, error %q", a.BRCode, len(a.QRCodePNG), a.Error)
	}
	// The other checks of an answer.
	e.gw.set(func(w *wrapGateway) {
		w.afterCreate = func(tx *gatewayclient.Transaction, err error) (*gatewayclient.Transaction, error) {
			bad := *tx
			pix := *tx.PixResponse
			pix.URI = "not a BR Code"
			bad.PixResponse = &pix
			return &bad, err
		}
	})
	r, err := e.svc.RegenerateQR(e.ctx, o.ID)
	if err != nil || r.CurrentAttempt().State != checkout.AttemptFailed || r.QR() != nil {
		t.Fatalf("undecodable code: %v, attempt %+v", err, r.CurrentAttempt())
	}
	e.gw.set(func(w *wrapGateway) { w.afterCreate = nil })
	r, err = e.svc.RegenerateQR(e.ctx, o.ID)
	if err != nil || r.Status != checkout.StatusAwaitingPayment || r.QR() == nil || len(r.Attempts) != 3 {
		t.Fatalf("RegenerateQR after a mismatch: %v, %+v", err, r)
	}
}

// TestGatewayRefusal: a 422 from the gateway fails the order and comes back as field errors,
// also on a replay of the same submission.
func TestGatewayRefusal(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.gw.set(func(w *wrapGateway) {
		w.afterCreate = func(*gatewayclient.Transaction, error) (*gatewayclient.Transaction, error) {
			return nil, &gatewayclient.APIError{StatusCode: 422, Kind: gatewayclient.KindValidation, Method: "POST", Path: "/transaction",
				Messages: []string{"customer.document: must be a valid CPF or CNPJ", "address.zipCode: must be a valid CEP"}}
		}
	})
	c := e.cart(map[checkout.ProductID]int{ebook: 1})
	in := checkout.PlaceOrderInput{Source: c.ID, RequestKey: checkout.NewID(), Customer: customer()}
	for i := range 2 {
		o, err := e.svc.PlaceOrder(e.ctx, in)
		var fe *checkout.ValidationError
		if !errors.As(err, &fe) || checkout.FormViolations(fe)[checkout.FieldDocument] == nil || checkout.FormViolations(fe)[checkout.FieldZipCode] == nil {
			t.Fatalf("submission %d: %v, want ValidationError on document and zipCode", i+1, err)
		}
		if o == nil || o.Status != checkout.StatusFailed || o.CurrentAttempt().State != checkout.AttemptFailed {
			t.Fatalf("submission %d: order %+v", i+1, o)
		}
	}
	if n := e.gw.createCount(); n != 1 {
		t.Errorf("%d gateway calls, want 1 (the replay must not call again)", n)
	}
}

// TestWebhookURLSentOnlyWhenValid checks the transaction requests the sandbox receives over
// HTTP: webhookUrl is there only when the public URL satisfies the spec (https, a host with a
// TLD).
func TestWebhookURLSentOnlyWhenValid(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ publicURL, want string }{
		{"https://loja.example.com.br/", "https://loja.example.com.br/webhooks/gateway"},
		{"https://pagar.example.com/checkout", "https://pagar.example.com/checkout/webhooks/gateway"},
		{"http://localhost:8080", ""},
		{"http://loja.example.com.br", ""}, // not https
		{"https://localhost:8443", ""},     // no TLD
		{"https://10.0.0.7", ""},           // an address, not a host with a TLD
		{"", ""},
	} {
		t.Run(tc.publicURL, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, func(o *envOptions) {
				o.serviceOptions = func(so *checkout.ServiceOptions) { so.PublicURL = tc.publicURL }
			})
			e.place()
			got := e.received.all()
			if len(got) != 1 {
				t.Fatalf("the sandbox received %d transaction requests, want 1", len(got))
			}
			var body map[string]any
			if err := json.Unmarshal(got[0], &body); err != nil {
				t.Fatal(err)
			}
			url, present := body["webhookUrl"]
			switch {
			case tc.want == "" && present:
				t.Errorf("webhookUrl %v sent for public URL %q", url, tc.publicURL)
			case tc.want != "" && url != tc.want:
				t.Errorf("webhookUrl = %v, want %q", url, tc.want)
			}
		})
	}
}

// TestGatewayNeverSeesTheOrderID: the order id is the shopper's credential (the PIX page's
// URL); the gateway gets the order number as externalCode and random idempotency keys.
func TestGatewayNeverSeesTheOrderID(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	o := e.place()
	e.control(o.QR().TransactionID, sandbox.ActionExpire)
	if _, err := e.svc.RefreshFromGateway(e.ctx, o.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.RegenerateQR(e.ctx, o.ID); err != nil {
		t.Fatal(err)
	}
	o = e.order(o.ID)
	if o.ExternalCode != o.Number {
		t.Errorf("externalCode %q, want the order number %q", o.ExternalCode, o.Number)
	}
	sent := e.received.all()
	if len(sent) != 2 {
		t.Fatalf("%d transaction requests, want 2 (one per attempt)", len(sent))
	}
	for i, b := range sent {
		if bytes.Contains(b, []byte(o.ID)) {
			t.Errorf("request %d holds the order id: %s", i+1, b)
		}
		var body struct {
			ExternalCode   string `json:"externalCode"`
			IdempotencyKey string `json:"idempotencyKey"`
		}
		if err := json.Unmarshal(b, &body); err != nil {
			t.Fatal(err)
		}
		if body.ExternalCode != o.Number || body.IdempotencyKey != o.Attempts[i].IdempotencyKey {
			t.Errorf("request %d: externalCode %q key %q; want %q and the attempt's key %q", i+1,
				body.ExternalCode, body.IdempotencyKey, o.Number, o.Attempts[i].IdempotencyKey)
		}
	}
	if o.Attempts[0].IdempotencyKey == o.Attempts[1].IdempotencyKey {
		t.Error("the new attempt reuses the first one's key")
	}
}

// TestOrderStoredBeforeGatewayCall: when the gateway is called, the order and its pending
// attempt with the very idempotency key of the request are already in the store, so that a
// crash at any later point can only be resumed with that key.
func TestOrderStoredBeforeGatewayCall(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	calls := 0
	e.gw.set(func(w *wrapGateway) {
		w.beforeCreate = func(req gatewayclient.CreateTransactionRequest) {
			calls++
			o, err := e.store.OrderByExternalCode(e.ctx, req.ExternalCode)
			if err != nil {
				t.Errorf("the gateway is called before the order is stored: %v", err)
				return
			}
			a := o.CurrentAttempt()
			if o.Status != checkout.StatusPending || a == nil || a.State != checkout.AttemptPending || a.IdempotencyKey != req.IdempotencyKey {
				t.Errorf("stored before the call: status %s, attempt %+v; request key %q", o.Status, a, req.IdempotencyKey)
			}
		}
	})
	e.place()
	if calls != 1 {
		t.Fatalf("%d gateway calls, want 1", calls)
	}
}

// TestRestartResumesPendingAttempt: the process died after the gateway made the transaction
// and before its answer was stored. Another service on the same database (the restarted
// process) completes the order through the reconciler with the stored key: one transaction.
func TestRestartResumesPendingAttempt(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.gw.set(func(w *wrapGateway) {
		w.afterCreate = func(*gatewayclient.Transaction, error) (*gatewayclient.Transaction, error) { return nil, errCrash }
	})
	c := e.cart(map[checkout.ProductID]int{ebook: 1})
	o, err := e.svc.PlaceOrder(e.ctx, checkout.PlaceOrderInput{Source: c.ID, RequestKey: checkout.NewID(), Customer: customer()})
	if err != nil || o.Status != checkout.StatusPending {
		t.Fatalf("PlaceOrder: %v, %v", o, err)
	}
	restarted := checkout.NewService(e.store, e.client, checkout.ServiceOptions{Clock: e.sb.Now, Logger: slog.New(slog.DiscardHandler)})
	r := checkout.NewReconciler(restarted, e.store, checkout.ReconcilerOptions{Clock: e.sb.Now, Logger: slog.New(slog.DiscardHandler)})
	if err := r.RunOnce(e.ctx); err != nil {
		t.Fatal(err)
	}
	got := e.order(o.ID)
	if got.Status != checkout.StatusAwaitingPayment || got.QR() == nil || len(got.Attempts) != 1 {
		t.Fatalf("after the restart: status %s, %d attempts", got.Status, len(got.Attempts))
	}
	if n := e.deposits(); n != 1 {
		t.Errorf("the sandbox holds %d transactions, want 1", n)
	}
}

// TestRequestKeyTiedToCart: a form rendered for one cart cannot place an order for other lines
// or prices: the key is refused, nothing is stored or sent, and a key made for the cart as it
// is now places the order at the current total.
func TestRequestKeyTiedToCart(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.cart(map[checkout.ProductID]int{ebook: 1})
	shown := checkout.NewRequestKey(c, 0) // the form shows R$ 29,90
	// Another tab adds a second e-book before the form is submitted.
	if _, err := e.svc.AddToCart(e.ctx, c.ID, ebook, 1); err != nil {
		t.Fatal(err)
	}
	_, err := e.svc.PlaceOrder(e.ctx, checkout.PlaceOrderInput{Source: c.ID, RequestKey: shown, Customer: customer()})
	var fe *checkout.ValidationError
	if !errors.As(err, &fe) || !fe.Has(checkout.FieldRequestKey) {
		t.Fatalf("PlaceOrder with the key of the old cart: %v, want a request key error", err)
	}
	if n := e.deposits(); n != 0 {
		t.Fatalf("the refused submission made %d deposits", n)
	}
	// A catalogue price change is a change of the cart too.
	c = e.cartNow(c.ID)
	shown = checkout.NewRequestKey(c, 0)
	p, err := e.store.Product(e.ctx, ebook)
	if err != nil {
		t.Fatal(err)
	}
	p.UnitPrice += 100
	if err := e.store.UpsertProduct(e.ctx, *p); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.PlaceOrder(e.ctx, checkout.PlaceOrderInput{Source: c.ID, RequestKey: shown, Customer: customer()}); !errors.As(err, &fe) || !fe.Has(checkout.FieldRequestKey) {
		t.Fatalf("PlaceOrder after a price change: %v, want a request key error", err)
	}
	c = e.cartNow(c.ID)
	key := checkout.NewRequestKey(c, 0)
	o, err := e.svc.PlaceOrder(e.ctx, checkout.PlaceOrderInput{Source: c.ID, RequestKey: key, Customer: customer()})
	if err != nil {
		t.Fatal(err)
	}
	if o.Amount != 2*(2990+100) || o.Status != checkout.StatusAwaitingPayment {
		t.Fatalf("order amount %d status %s, want %d awaiting_payment", o.Amount, o.Status, 2*(2990+100))
	}
	// The same submission again is the same order.
	again, err := e.svc.PlaceOrder(e.ctx, checkout.PlaceOrderInput{Source: c.ID, RequestKey: key, Customer: customer()})
	if err != nil || again.ID != o.ID {
		t.Fatalf("replay: %v, %v; want order %s", again, err, o.ID)
	}
}

// cartNow reads a cart as the form would show it now.
func (e *env) cartNow(id string) *checkout.Cart {
	e.t.Helper()
	c, err := e.svc.Cart(e.ctx, id)
	if err != nil {
		e.t.Fatalf("Cart: %v", err)
	}
	return c
}

// TestCurrentOrderExpiresThatOrderOnly: reading an order for its page expires it when its QR
// code's time is over, without touching the other overdue orders (the reconciler's job), and
// leaves an order with time left as it is.
func TestCurrentOrderExpiresThatOrderOnly(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a, b := e.place(), e.place()
	e.advance(31 * time.Minute) // past both QR codes' 30 minutes
	got, err := e.svc.CurrentOrder(e.ctx, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != checkout.StatusExpired || e.order(a.ID).Status != checkout.StatusExpired {
		t.Errorf("read after its expiry: %s (stored %s), want expired", got.Status, e.order(a.ID).Status)
	}
	if st := e.order(b.ID).Status; st != checkout.StatusAwaitingPayment {
		t.Errorf("another overdue order became %s: only the order read may change", st)
	}
	c := e.place()
	if got, err := e.svc.CurrentOrder(e.ctx, c.ID); err != nil || got.Status != checkout.StatusAwaitingPayment {
		t.Errorf("an order with time left: %v, %v", got.Status, err)
	}
	if _, err := e.svc.CurrentOrder(e.ctx, "no-such-order"); checkout.ErrorCode(err) != checkout.CodeNotFound {
		t.Errorf("unknown order: %v (code %q), want not_found", err, checkout.ErrorCode(err))
	}
}

// TestRegenerateQRExpiresFirst: asking for a new QR code when the current one's time is over
// works even before anything marked the order expired.
func TestRegenerateQRExpiresFirst(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	o := e.place()
	e.advance(31 * time.Minute)
	got, err := e.svc.RegenerateQR(e.ctx, o.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != checkout.StatusAwaitingPayment || len(got.Attempts) != 2 || got.Attempts[0].State != checkout.AttemptExpired {
		t.Errorf("after RegenerateQR: %s, %d attempts, first %s; want awaiting_payment, 2, expired",
			got.Status, len(got.Attempts), got.Attempts[0].State)
	}
	if _, err := e.svc.RegenerateQR(e.ctx, o.ID); !errors.Is(err, checkout.ErrNotRenewable) || checkout.ErrorCode(err) != checkout.CodeConflict {
		t.Errorf("RegenerateQR of an order awaiting payment: %v, want ErrNotRenewable (conflict)", err)
	}
}

// TestRequestKeyIsTheCartsOnly: a request key leads only to the order of the cart it was posted
// with; posted with another cart, it never returns the first cart's order (a plain key and a
// key made by NewRequestKey alike).
func TestRequestKeyIsTheCartsOnly(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cartA := e.cart(map[checkout.ProductID]int{ebook: 1})
	cartB := e.cart(map[checkout.ProductID]int{ebook: 1})
	for _, key := range []string{checkout.NewID(), checkout.NewRequestKey(cartA, 0)} {
		a, err := e.svc.PlaceOrder(e.ctx, checkout.PlaceOrderInput{Source: cartA.ID, RequestKey: key, Customer: customer()})
		if err != nil {
			t.Fatal(err)
		}
		again, err := e.svc.PlaceOrder(e.ctx, checkout.PlaceOrderInput{Source: cartA.ID, RequestKey: key, Customer: customer()})
		if err != nil || again.ID != a.ID {
			t.Fatalf("the same key on the same cart: %v, %v; want order %s again", again, err, a.Number)
		}
		b, err := e.svc.PlaceOrder(e.ctx, checkout.PlaceOrderInput{Source: cartB.ID, RequestKey: key, Customer: customer()})
		if err == nil && b.ID == a.ID {
			t.Fatalf("cart B posted with cart A's key %q got A's order %s", key, a.Number)
		}
	}
}
