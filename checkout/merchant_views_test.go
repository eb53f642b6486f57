package checkout_test

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
)

// TestMerchantProducts: products made from the dashboard follow the gateway's item rules, get
// unique ids from their titles, and show in the shop at once; deactivated ones leave it.
func TestMerchantProducts(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, tc := range []struct {
		in          checkout.ProductInput
		field, code string
	}{
		{checkout.ProductInput{Title: "", UnitPrice: 100}, checkout.FieldTitle, "required"},
		{checkout.ProductInput{Title: " x ", UnitPrice: 100}, checkout.FieldTitle, "min_length"},
		{checkout.ProductInput{Title: strings.Repeat("a", 151), UnitPrice: 100}, checkout.FieldTitle, "max_length"},
		{checkout.ProductInput{Title: "Caneca", Description: "x", UnitPrice: 100}, checkout.FieldDescription, "min_length"},
		{checkout.ProductInput{Title: "Caneca", Description: strings.Repeat("d", 256), UnitPrice: 100}, checkout.FieldDescription, "max_length"},
		{checkout.ProductInput{Title: "Caneca", UnitPrice: 0}, checkout.FieldUnitPrice, "min"},
		{checkout.ProductInput{Title: "Caneca", UnitPrice: 10000001}, checkout.FieldUnitPrice, "max"},
	} {
		_, err := e.svc.CreateProduct(e.ctx, tc.in)
		var fe *checkout.ValidationError
		if !errors.As(err, &fe) || fe.Code(tc.field) != tc.code {
			t.Errorf("CreateProduct(%+v) = %v; want %s %s", tc.in, err, tc.field, tc.code)
		}
	}
	in := checkout.ProductInput{Title: "  Caneca de cerâmica azul ", Description: "300 ml", UnitPrice: 4590, Physical: true, Active: true}
	p, err := e.svc.CreateProduct(e.ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if p.ID != "caneca-de-ceramica-azul" || p.Slug != "caneca-de-ceramica-azul" || p.Title != "Caneca de cerâmica azul" || p.UnitPrice != 4590 {
		t.Errorf("product %+v", p)
	}
	// The same title at once, many times: every product gets its own id.
	var wg sync.WaitGroup
	ids := make(chan checkout.ProductID, 5)
	for range 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			q, err := e.svc.CreateProduct(e.ctx, in)
			if err != nil {
				t.Error(err)
				return
			}
			ids <- q.ID
		}()
	}
	wg.Wait()
	close(ids)
	seen := map[checkout.ProductID]bool{p.ID: true}
	for id := range ids {
		if seen[id] || !strings.HasPrefix(string(id), "caneca-de-ceramica-azul-") {
			t.Errorf("id %q repeated or odd", id)
		}
		seen[id] = true
	}
	// The shop sells it at once, at its price.
	c, err := e.svc.AddToCart(e.ctx, "", p.ID, 2)
	if err != nil || c.Total() != 2*4590 {
		t.Fatalf("cart with the new product: %+v, %v", c, err)
	}
	// A new price shows in the cart; deactivated, it leaves the shop.
	in.UnitPrice = 5000
	if _, err := e.svc.UpdateProduct(e.ctx, p.ID, in); err != nil {
		t.Fatal(err)
	}
	if c, _ := e.svc.Cart(e.ctx, c.ID); c.Total() != 10000 {
		t.Errorf("cart total after the price change: %d", c.Total())
	}
	if _, err := e.svc.SetProductActive(e.ctx, p.ID, false); err != nil {
		t.Fatal(err)
	}
	shop, _ := e.svc.Products(e.ctx)
	for _, sp := range shop {
		if sp.ID == p.ID {
			t.Error("a deactivated product is still in the shop")
		}
	}
	all, _ := e.svc.AllProducts(e.ctx)
	found := false
	for _, ap := range all {
		found = found || ap.ID == p.ID && !ap.Active && ap.UnitPrice == 5000
	}
	if !found {
		t.Error("the deactivated product is not listed for the merchant")
	}
	if _, err := e.svc.UpdateProduct(e.ctx, "no-such", in); !errors.Is(err, checkout.ErrNotFound) {
		t.Errorf("updating a missing product: %v", err)
	}
}

// TestOverviewAndOrderList: the overview counts what was paid today and what awaits payment;
// the order list finds an order by its customer's document as typed.
//
// It runs at 02:30Z, 23:30 of the day before in São Paulo, where the overview's days are.
func TestOverviewAndOrderList(t *testing.T) {
	t.Parallel()
	now := time.Now().UTC()
	evening := time.Date(now.Year(), now.Month(), now.Day(), 2, 30, 0, 0, time.UTC)
	if evening.After(now) {
		evening = evening.AddDate(0, 0, -1)
	}
	e := newEnv(t, func(o *envOptions) { o.clock = sandbox.NewManualClock(evening) })
	paid := e.place()
	e.control(paid.CurrentAttempt().TransactionID, sandbox.ActionPay)
	if _, err := e.svc.RefreshFromGateway(e.ctx, paid.ID); err != nil {
		t.Fatal(err)
	}
	e.place() // awaiting payment
	loc, _ := time.LoadLocation("America/Sao_Paulo")
	o, err := e.svc.Overview(e.ctx, loc, checkout.OverviewFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if o.Today.Received.Orders != 1 || o.Today.Received.Amount != paid.Amount || o.Week != o.Today || o.Month != o.Today || o.Awaiting != 1 ||
		o.Placed != 2 || o.PlacedPaid != 1 || o.ConversionPermille() != 500 {
		t.Errorf("overview %+v", o)
	}
	if len(o.Days) != checkout.OverviewDays || o.Days[len(o.Days)-1].Received.Orders != 1 || o.Days[0].Received.Orders != 0 {
		t.Errorf("days %+v", o.Days)
	}
	if last := o.Days[len(o.Days)-1].Day; last.Hour() != 0 || last.Location() != loc ||
		last.Format(time.DateOnly) != evening.In(loc).Format(time.DateOnly) {
		t.Errorf("the last day starts at %v", last)
	}
	// The comparison: the 30 days just before, day by day, nothing paid in them; the top
	// products are the paid order's.
	if len(o.Previous) != checkout.OverviewDays || !o.Previous[len(o.Previous)-1].Day.Equal(o.Days[0].Day.AddDate(0, 0, -1)) ||
		!o.Previous[0].Day.Equal(o.Days[0].Day.AddDate(0, 0, -checkout.OverviewDays)) {
		t.Errorf("previous days %v … %v", o.Previous[0].Day, o.Previous[len(o.Previous)-1].Day)
	}
	for _, d := range o.Previous {
		if d.Received != (checkout.PaidTotal{}) {
			t.Errorf("paid in the previous period: %+v", d)
		}
	}
	var units int
	var revenue checkout.Cents
	for _, l := range paid.Lines {
		units, revenue = units+l.Quantity, revenue+l.UnitPrice*checkout.Cents(l.Quantity)
	}
	var topUnits int
	var topRevenue checkout.Cents
	for _, p := range o.Top {
		topUnits, topRevenue = topUnits+p.Units, topRevenue+p.Revenue
	}
	if len(o.Top) == 0 || topUnits != units || topRevenue != revenue || o.Top[0].Title != paid.Lines[0].Title && len(paid.Lines) == 1 {
		t.Errorf("top products %+v of lines %+v", o.Top, paid.Lines)
	}
	page, err := e.svc.MerchantOrders(e.ctx, checkout.OrderFilter{Search: validCPF, Limit: 10})
	if err != nil || page.Total != 2 || len(page.Orders) != 2 {
		t.Errorf("orders by CPF: %+v, %v", page, err)
	}
	page, _ = e.svc.MerchantOrders(e.ctx, checkout.OrderFilter{Statuses: []checkout.OrderStatus{checkout.StatusPaid}})
	if page.Total != 1 || page.Orders[0].ID != paid.ID || page.Orders[0].PaidAt.IsZero() {
		t.Errorf("paid orders: %+v", page)
	}
}

// TestOverviewMoney: an order paid, then refunded on the gateway, then another paid give the
// overview's received (both, gross), refunded (the first), fees (the gateway's feeAmount of
// both deposits) and net exactly.
func TestOverviewMoney(t *testing.T) {
	t.Parallel()
	now := time.Now().UTC()
	noon := time.Date(now.Year(), now.Month(), now.Day(), 15, 0, 0, 0, time.UTC) // 12:00 in São Paulo
	e := newEnv(t, func(o *envOptions) { o.clock = sandbox.NewManualClock(noon) })
	pay := func(o *checkout.Order, actions ...sandbox.DepositAction) *checkout.Order {
		t.Helper()
		for _, a := range actions {
			e.control(o.CurrentAttempt().TransactionID, a)
		}
		got, err := e.svc.RefreshFromGateway(e.ctx, o.ID)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	first := pay(e.place(), sandbox.ActionPay)
	first = pay(first, sandbox.ActionRefund, sandbox.ActionRefund)
	second := pay(e.place(), sandbox.ActionPay)
	if first.Status != checkout.StatusRefunded || second.Status != checkout.StatusPaid || first.Fee == nil || second.Fee == nil {
		t.Fatalf("orders %s (fee %v), %s (fee %v)", first.Status, first.Fee, second.Status, second.Fee)
	}
	loc, _ := time.LoadLocation("America/Sao_Paulo")
	o, err := e.svc.Overview(e.ctx, loc, checkout.OverviewFilter{})
	if err != nil {
		t.Fatal(err)
	}
	fees := *first.Fee + *second.Fee
	want := checkout.MoneyTotals{
		Received: checkout.PaidTotal{Orders: 2, Amount: first.Amount + second.Amount},
		Refunded: checkout.PaidTotal{Orders: 1, Amount: first.Amount},
		Fees:     checkout.PaidTotal{Orders: 2, Amount: fees},
	}
	if o.Today != want || o.Month != want || o.Today.Net() != second.Amount-fees || fees == 0 {
		t.Errorf("today %+v, month %+v; want %+v, net %d", o.Today, o.Month, want, second.Amount-fees)
	}
	if d := o.Days[len(o.Days)-1]; d.MoneyTotals != want {
		t.Errorf("today's bar %+v", d)
	}
}
