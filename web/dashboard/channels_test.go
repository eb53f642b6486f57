package dashboard_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/charges"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
)

// TestOverviewChannels: the overview filtered by channel keeps the money of that channel's
// orders (the shop's paid order, nothing through links), totals each channel whatever the
// filter, and shows what the charges ask before and after their due date; the order list
// filters by channel and names each order's channel; a channel that is none is refused.
func TestOverviewChannels(t *testing.T) {
	e, b := signedIn(t, at("02:30"))
	paid := e.paidOrder()
	chargeID := e.newCharge("")
	fromCharge, err := e.svc.PlaceOrder(context.Background(), checkout.PlaceOrderInput{Channel: checkout.ChannelCharge, Source: chargeID,
		RequestKey: checkout.NewID(), Lang: "pt-BR", Customer: checkout.Customer{Name: "Maria", Document: "529.982.247-25",
			Email: "maria@example.com"}})
	if err != nil {
		t.Fatal(err)
	}
	fig := func(id, path string) string {
		t.Helper()
		res, doc := b.get(path)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d", path, res.StatusCode)
		}
		return strings.TrimSpace(doc.Find(testid(id) + " " + testid("figure-value")).Text())
	}
	for path, want := range map[string]string{"/dashboard": "R$ 29,90", "/dashboard/?channel=shop": "R$ 29,90",
		"/dashboard/?channel=link": "R$ 0,00", "/dashboard/?channel=link&channel=shop": "R$ 29,90"} {
		if got := fig("paid-today", path); got != want {
			t.Errorf("%s: paid today %q, want %q", path, got, want)
		}
	}
	if got := fig("charges-open", "/dashboard/?channel=link"); got != "R$ 150,00" {
		t.Errorf("receivable %q, want the open charge's R$ 150,00", got)
	}
	_, doc := b.get("/dashboard/?channel=link")
	if rows := doc.Find(testid("channel-row")); rows.Length() != 1 || rows.AttrOr("data-channel", "") != "shop" ||
		rows.Find(`td[data-period="30d"]`).AttrOr("data-amount", "") != "2990" {
		t.Errorf("totals by channel under the link filter: %d rows %q", rows.Length(), rows.Text())
	}
	if cur := doc.Find(testid("channel-filter") + ` [aria-current]`); cur.AttrOr("data-channel", "") != "link" {
		t.Errorf("the current channel is %q", cur.AttrOr("data-channel", ""))
	}
	if res, _ := b.get("/dashboard/?channel=balcao"); res.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("an unknown channel: %d", res.StatusCode)
	}

	_, list := b.get("/dashboard/orders?channel=shop")
	if rows := list.Find(testid("order-row")); rows.Length() != 1 || rows.AttrOr("data-id", "") != paid ||
		rows.Find(testid("order-channel")).AttrOr("data-channel", "") != "shop" {
		t.Errorf("the shop's orders: %d", rows.Length())
	}
	if _, list := b.get("/dashboard/orders?channel=charge&channel=pos"); list.Find(testid("order-row")).Length() != 1 ||
		list.Find(testid("order-row")).AttrOr("data-id", "") != fromCharge.ID {
		t.Errorf("orders of charges and the point of sale: %d", list.Find(testid("order-row")).Length())
	}
	if _, page := b.get("/dashboard/orders/" + fromCharge.ID); page.Find(testid("order-charge")).AttrOr("href", "") != "/dashboard/charges/"+chargeID {
		t.Errorf("the order's link to its charge: %q", page.Find(testid("order-charge")).AttrOr("href", ""))
	}
	if res, list := b.get("/dashboard/orders?channel=balcao"); res.StatusCode != http.StatusUnprocessableEntity ||
		list.Find(testid("filter-errors")).Length() != 1 {
		t.Errorf("an unknown channel in the list: %d", res.StatusCode)
	}
}

// TestOverviewChargeFigures: the overview's charge figures move with the São Paulo day and the
// payments: "a receber" what open charges ask, "vencido" what those past their due date ask
// (marked overdue or not yet), "recebido de cobranças" what the charges' orders collected, each
// linked to its list.
func TestOverviewChargeFigures(t *testing.T) {
	clock := sandbox.NewManualClock(latestUTC("15:00")) // noon in São Paulo
	e, b := signedIn(t, withClock(clock))
	ctx := context.Background()
	paid, err := e.charges.Create(ctx, "ana@loja.example", "", e.chargeInput("Bia", "", 20000, 5))
	if err != nil {
		t.Fatal(err)
	}
	o, err := e.svc.PlaceOrder(ctx, checkout.PlaceOrderInput{Channel: checkout.ChannelCharge, Source: paid.ID,
		RequestKey: checkout.NewID(), Lang: "pt-BR", Customer: checkout.Customer{Name: "Bia", Document: "529.982.247-25",
			Email: "maria@example.com"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := (payer{e.client}).Pay(ctx, o.CurrentAttempt().TransactionID); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.RefreshFromGateway(ctx, o.ID); err != nil {
		t.Fatal(err)
	}
	e.waitStatus(o.ID, checkout.StatusPaid)
	// The charge counts its order's payment once the order's change is committed.
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if c, err := e.charges.Charge(ctx, paid.ID); err != nil || c.Status == charges.StatusPaid || time.Now().After(end) {
			break
		}
	}
	late := e.newCharge("") // R$ 150,00 due in 3 days
	// R$ 70,00 due in 10 days.
	if _, err := e.charges.Create(ctx, "ana@loja.example", "", e.chargeInput("Caio", "", 7000, 10)); err != nil {
		t.Fatal(err)
	}
	clock.Advance(4 * 24 * time.Hour) // the R$ 150,00 charge is a day late, not swept yet
	_, doc := b.get("/dashboard/")
	for id, want := range map[string]string{"charges-open": "R$ 70,00", "charges-overdue": "R$ 150,00", "charges-received": "R$ 200,00"} {
		if got := strings.TrimSpace(doc.Find(testid(id) + " " + testid("figure-value")).Text()); got != want {
			t.Errorf("%s: %q, want %q", id, got, want)
		}
	}
	if href := doc.Find(testid("charges-overdue")+" a").AttrOr("href", ""); href != "/dashboard/charges?status=overdue" {
		t.Errorf("the overdue figure links to %q", href)
	}
	if _, err := e.charges.MarkOverdue(ctx); err != nil {
		t.Fatal(err)
	}
	if _, list := b.get("/dashboard/charges?status=overdue"); !slices.Equal(chargeRows(list), []string{late}) {
		t.Errorf("the overdue list: %v", chargeRows(list))
	}
}
