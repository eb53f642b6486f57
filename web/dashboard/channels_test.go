package dashboard_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout"
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
