package checkout_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// withShipping gives the Service the shipping settings sh.
func withShipping(sh checkout.Shipping) func(*envOptions) {
	return func(eo *envOptions) {
		eo.serviceOptions = func(so *checkout.ServiceOptions) {
			so.Shipping = func(context.Context) (checkout.Shipping, error) { return sh, nil }
		}
	}
}

// lastTransaction decodes the last POST /transaction body the gateway received.
func (e *env) lastTransaction() gatewayclient.CreateTransactionRequest {
	e.t.Helper()
	all := e.received.all()
	if len(all) == 0 {
		e.t.Fatal("the gateway received no transaction")
	}
	var req gatewayclient.CreateTransactionRequest
	if err := json.Unmarshal(all[len(all)-1], &req); err != nil {
		e.t.Fatal(err)
	}
	return req
}

// A physical order pays the flat rate, sent to the gateway as one more item ("Frete") with the
// transaction's amount the sum of items and shipping; above the free-shipping amount, and for a
// digital order, shipping is free and no such item goes. The order keeps both, as stored.
func TestShippingOfAnOrder(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withShipping(checkout.Shipping{FlatRate: 1500, FreeAbove: 20000, DeliveryDays: 5}))
	for _, c := range []struct {
		name     string
		items    map[checkout.ProductID]int
		shipping gatewayclient.Cents
		days     int
	}{
		{"physical", map[checkout.ProductID]int{caneca: 1, ebook: 1}, 1500, 5},
		{"physical, free above", map[checkout.ProductID]int{caneca: 4}, 0, 5},
		{"digital", map[checkout.ProductID]int{ebook: 2}, 0, 0},
	} {
		cart := e.cart(c.items)
		o, err := e.svc.PlaceOrder(e.ctx, checkout.PlaceOrderInput{Source: cart.ID, RequestKey: checkout.NewID(),
			Customer: customer(), Address: address()})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		items := cart.Total()
		if o.Shipping != c.shipping || o.Amount != items+c.shipping || o.ItemsTotal() != items || o.DeliveryDays != c.days {
			t.Errorf("%s: shipping %d, amount %d, items %d, days %d; want %d, %d, %d, %d", c.name, o.Shipping, o.Amount,
				o.ItemsTotal(), o.DeliveryDays, c.shipping, items+c.shipping, items, c.days)
		}
		req := e.lastTransaction()
		var sum gatewayclient.Cents
		frete := 0
		for _, it := range req.Items {
			q := 1
			if it.Quantity != nil {
				q = *it.Quantity
			}
			sum += it.UnitPrice * gatewayclient.Cents(q)
			if it.Title == checkout.ShippingItemTitle {
				frete++
				if it.UnitPrice != c.shipping || q != 1 {
					t.Errorf("%s: the shipping item %+v", c.name, it)
				}
			}
		}
		if req.Amount != items+c.shipping || sum != req.Amount || (frete == 1) != (c.shipping > 0) || frete > 1 {
			t.Errorf("%s: the gateway got amount %d, items summing to %d, %d shipping items", c.name, req.Amount, sum, frete)
		}
		stored, err := e.store.Order(e.ctx, o.ID)
		if err != nil || stored.Shipping != o.Shipping || stored.DeliveryDays != o.DeliveryDays || stored.Amount != o.Amount {
			t.Errorf("%s: stored %+v, %v", c.name, stored, err)
		}
	}
}

// Items and shipping over the gateway's cap of one transaction: the order is refused, on the
// cart, with the amount's own violation (the form says so clearly), and nothing is sent.
func TestShippingOverTheCap(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withShipping(checkout.Shipping{FlatRate: gatewayclient.MaxAmount}))
	cart := e.cart(map[checkout.ProductID]int{caneca: 1})
	_, err := e.svc.PlaceOrder(e.ctx, checkout.PlaceOrderInput{Source: cart.ID, RequestKey: checkout.NewID(),
		Customer: customer(), Address: address()})
	var fe *checkout.ValidationError
	if !errors.As(err, &fe) || len(checkout.FormViolations(fe)[checkout.FieldCart]) == 0 {
		t.Fatalf("over the cap: %v", err)
	}
	if v := checkout.FormViolations(fe)[checkout.FieldCart][0]; v.Field != "amount" || v.Code != checkout.CodeMax {
		t.Errorf("the violation: %+v", v)
	}
	if len(e.received.all()) != 0 {
		t.Error("an order over the cap reached the gateway")
	}
}

func TestShippingSettingsCheck(t *testing.T) {
	for _, c := range []struct {
		sh    checkout.Shipping
		field string
	}{
		{checkout.Shipping{FlatRate: 1500, FreeAbove: 20000, DeliveryDays: 5}, ""},
		{checkout.Shipping{}, ""},
		{checkout.Shipping{FlatRate: -1}, "flat_rate"},
		{checkout.Shipping{FreeAbove: gatewayclient.MaxAmount + 1}, "free_above"},
		{checkout.Shipping{DeliveryDays: checkout.MaxDeliveryDays + 1}, "delivery_days"},
	} {
		fe := c.sh.Check()
		if c.field == "" && fe != nil || c.field != "" && (fe == nil || !fe.Has(c.field)) {
			t.Errorf("%+v: %v, want a problem on %q", c.sh, fe, c.field)
		}
	}
}

// The customer form's request key carries the shipping it showed: new shipping settings
// between the form and its submission show the form again, instead of charging what the
// shopper was not shown.
func TestRequestKeyTiedToShipping(t *testing.T) {
	t.Parallel()
	sh := checkout.Shipping{FlatRate: 1500}
	e := newEnv(t, func(eo *envOptions) {
		eo.serviceOptions = func(so *checkout.ServiceOptions) {
			so.Shipping = func(context.Context) (checkout.Shipping, error) { return sh, nil }
		}
	})
	cart := e.cart(map[checkout.ProductID]int{caneca: 1})
	shown := checkout.NewRequestKey(cart, 1500)
	sh.FlatRate = 2500 // the merchant changes shipping while the form is open
	_, err := e.svc.PlaceOrder(e.ctx, checkout.PlaceOrderInput{Source: cart.ID, RequestKey: shown, Customer: customer(), Address: address()})
	var fe *checkout.ValidationError
	if !errors.As(err, &fe) || fe.Code(checkout.FieldRequestKey) != "cart_changed" {
		t.Fatalf("new shipping since the form: %v", err)
	}
	o, err := e.svc.PlaceOrder(e.ctx, checkout.PlaceOrderInput{Source: cart.ID, RequestKey: checkout.NewRequestKey(cart, 2500),
		Customer: customer(), Address: address()})
	if err != nil || o.Shipping != 2500 {
		t.Fatalf("with the form showing the new shipping: %+v, %v", o, err)
	}
}
