package checkout_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// lastTransactionFields is the last POST /transaction body the sandbox received, as JSON fields.
func (e *env) lastTransactionFields() map[string]any {
	e.t.Helper()
	all := e.received.all()
	if len(all) == 0 {
		e.t.Fatal("the gateway received no transaction")
	}
	var m map[string]any
	if err := json.Unmarshal(all[len(all)-1], &m); err != nil {
		e.t.Fatal(err)
	}
	return m
}

func saleViolations(t *testing.T, err error) map[string]bool {
	t.Helper()
	var ve *checkout.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("got %v, want a *ValidationError", err)
	}
	out := map[string]bool{}
	for _, v := range ve.Violations {
		out[v.Field] = true
	}
	return out
}

// A keypad sale is sent to the gateway (the sandbox, which validates it by the spec) as a
// service with no customer and the QR code's life of the point of sale's setting; it keeps its
// terminal and cashier; the same form posted twice is the same sale.
func TestKeypadSale(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *envOptions) {
		o.serviceOptions = func(so *checkout.ServiceOptions) {
			so.SaleQRSeconds = func(context.Context) int { return 300 }
		}
	})
	key := checkout.NewID()
	in := checkout.PlaceOrderInput{Channel: checkout.ChannelPOS, RequestKey: key, ShopperIP: "203.0.113.9",
		Sale: &checkout.Sale{Terminal: "caixa-1", Cashier: "ana", Amount: 1234, Description: " Pão  de queijo "}}
	o, err := e.svc.PlaceOrder(e.ctx, in)
	if err != nil || o.Status != checkout.StatusAwaitingPayment {
		t.Fatalf("PlaceOrder: %+v, %v", o, err)
	}
	if o.Channel != checkout.ChannelPOS || o.TerminalID != "caixa-1" || o.CashierID != "ana" || o.Amount != 1234 ||
		o.Lines[0].Title != "Pão de queijo" || o.ShopperIP != "" {
		t.Fatalf("sale: channel %q terminal %q cashier %q amount %d lines %+v ip %q", o.Channel, o.TerminalID, o.CashierID,
			o.Amount, o.Lines, o.ShopperIP)
	}
	tx := e.lastTransactionFields()
	if _, ok := tx["customer"]; ok || tx["isInfoProduct"] != true || tx["address"] != nil {
		t.Fatalf("a keypad sale was sent with customer %v, isInfoProduct %v, address %v", tx["customer"], tx["isInfoProduct"], tx["address"])
	}
	if exp := tx["pix"].(map[string]any)["expirationSeconds"]; exp != 300.0 {
		t.Fatalf("expirationSeconds %v, want the point of sale's 300", exp)
	}
	if d := o.QR().ExpiresAt.Sub(e.sb.Now()); d > 5*time.Minute+time.Second || d < 4*time.Minute {
		t.Fatalf("the QR code expires in %v", d)
	}
	again, err := e.svc.PlaceOrder(e.ctx, in)
	if err != nil || again.ID != o.ID {
		t.Fatalf("the same form again: %v, %v (first %s)", again, err, o.ID)
	}
	// Through Source, as every checkout source: the terminal and the amount typed.
	src, err := e.svc.Source(e.ctx, checkout.ChannelPOS, "caixa-1", 1)
	if err != nil || src.Total() != 1 || src.Physical() {
		t.Fatalf("Source(pos): %+v, %v", src, err)
	}
}

// The keypad takes R$ 0,01 to R$ 100.000,00; a CPF for the receipt sends a customer, who
// needs a name too (the gateway's rule).
func TestKeypadSaleLimitsAndCustomer(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	sale := func(amount gatewayclient.Cents, c checkout.Customer) (*checkout.Order, error) {
		return e.svc.PlaceOrder(e.ctx, checkout.PlaceOrderInput{Channel: checkout.ChannelPOS, RequestKey: checkout.NewID(),
			Sale: &checkout.Sale{Terminal: "caixa-1", Cashier: "ana", Amount: amount, Customer: c}})
	}
	for _, a := range []gatewayclient.Cents{0, 10000001} {
		if _, err := sale(a, checkout.Customer{}); !saleViolations(t, err)[checkout.FieldSaleAmount] {
			t.Errorf("amount %d: %v", a, err)
		}
	}
	if o, err := sale(10000000, checkout.Customer{}); err != nil || o.Amount != 10000000 {
		t.Fatalf("R$ 100.000,00: %v", err)
	}
	if _, err := sale(100, checkout.Customer{Document: "529.982.247-25"}); !saleViolations(t, err)["customer.name"] {
		t.Fatalf("a CPF without a name: %v", err)
	}
	o, err := sale(100, checkout.Customer{Name: "Maria da Silva", Document: "529.982.247-25"})
	if err != nil || o.Customer.Document != "52998224725" {
		t.Fatalf("with a CPF: %+v, %v", o, err)
	}
	c, _ := e.lastTransactionFields()["customer"].(map[string]any)
	if c["document"] != "52998224725" || c["name"] != "Maria da Silva" || c["ip"] != nil {
		t.Fatalf("customer sent: %v", c)
	}
}

// Products of the catalogue are priced from it; a physical one is handed over at the counter,
// whose address (the store's) is sent.
func TestCatalogueSale(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	counter := address()
	in := checkout.PlaceOrderInput{Channel: checkout.ChannelPOS, RequestKey: checkout.NewID(),
		Sale: &checkout.Sale{Terminal: "caixa-1", Cashier: "ana", Amount: 1,
			Items: []checkout.SaleItem{{Product: ebook, Quantity: 2}, {Product: caneca, Quantity: 1}}}}
	if _, err := e.svc.PlaceOrder(e.ctx, in); !saleViolations(t, err)["address"] {
		t.Fatalf("a physical sale without the store's address: %v", err)
	}
	in.Sale.Counter, in.RequestKey = counter, checkout.NewID()
	o, err := e.svc.PlaceOrder(e.ctx, in)
	if err != nil || o.Amount != 2*2990+5900 || !o.Physical || o.Address == nil || o.Address.Street != counter.Street || o.Shipping != 0 {
		t.Fatalf("catalogue sale: %+v, %v", o, err)
	}
	tx := e.lastTransactionFields()
	if _, ok := tx["customer"]; ok || tx["isInfoProduct"] != false || tx["address"] == nil {
		t.Fatalf("sent customer %v, isInfoProduct %v, address %v", tx["customer"], tx["isInfoProduct"], tx["address"])
	}
	in.Sale.Items, in.RequestKey = []checkout.SaleItem{{Product: "missing", Quantity: 1}, {Product: ebook, Quantity: 101}}, checkout.NewID()
	if v := saleViolations(t, func() error { _, err := e.svc.PlaceOrder(e.ctx, in); return err }()); !v["items[0]"] || !v["items[1].quantity"] {
		t.Fatalf("a missing product and too many: %v", v)
	}
}
