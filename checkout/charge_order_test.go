package checkout_test

import (
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/charges"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
)

// chargeBook binds the service to a charges manager made after the service's store is open.
type chargeBook struct{ *charges.Manager }

// A charge's order is sent to the gateway as a service whatever the shop sells: isInfoProduct
// true and no address, the charge's customer and its day's amount, and a QR code that lives no
// later than 23:59:59 São Paulo time of that day.
func TestChargeOrderIsAService(t *testing.T) {
	t.Parallel()
	book := &chargeBook{}
	// 18:00 on 5 March 2026 in São Paulo: six hours of the day left.
	clock := sandbox.NewManualClock(time.Date(2026, time.March, 5, 21, 0, 0, 0, time.UTC))
	e := newEnv(t, func(o *envOptions) {
		o.clock = clock
		o.serviceOptions = func(so *checkout.ServiceOptions) { so.Charges = book }
	})
	book.Manager = charges.NewManager(e.store, nil, e.sb.Now)
	day := func(n int) charges.Date { return charges.Date{Year: 2026, Month: time.March, Day: n} }
	c, err := book.Create(e.ctx, "ana@loja.example", "", charges.Input{
		Customer:    charges.Customer{Name: "Maria da Silva", Document: "529.982.247-25", Email: "maria@example.com"},
		Description: "Mensalidade de março",
		Terms:       charges.Terms{Amount: 12345, Due: day(10), Discount: charges.Discount{Bps: 1000, Until: day(5)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	o, err := e.svc.PlaceOrder(e.ctx, checkout.PlaceOrderInput{Channel: checkout.ChannelCharge, Source: c.ID,
		RequestKey: checkout.NewID(), Lang: "pt-BR", Customer: checkout.Customer{Name: c.Customer.Name,
			Document: c.Customer.Document, Email: c.Customer.Email}})
	if err != nil || o.Physical || o.Amount != 11110 || o.ChargeID != c.ID {
		t.Fatalf("the charge's order: %+v, %v", o, err)
	}
	tx := e.lastTransactionFields()
	customer, _ := tx["customer"].(map[string]any)
	if tx["isInfoProduct"] != true || tx["address"] != nil || tx["amount"] != 11110.0 || customer["document"] != "52998224725" {
		t.Fatalf("sent isInfoProduct %v, address %v, amount %v, customer %v", tx["isInfoProduct"], tx["address"], tx["amount"], customer)
	}
	if exp := tx["pix"].(map[string]any)["expirationSeconds"].(float64); exp > (6*time.Hour - time.Second).Seconds() {
		t.Fatalf("expirationSeconds %v outlives 23:59:59 São Paulo time", exp)
	}
}
