package dashboard_test

import (
	"context"
	"encoding/csv"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/pos"
	"github.com/pixcheckout/pixcheckout/checkout/storetest"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
)

// storeSale writes a sale straight into the env's SQLite store: at terminal by cashier, placed
// at at, of amount, in status (paid a minute later when paid).
func (e *env) storeSale(terminal, cashier string, at time.Time, amount checkout.Cents, status checkout.OrderStatus) string {
	e.t.Helper()
	s, ok := e.mailStore.(checkout.Store)
	if !ok {
		e.t.Fatal("the env's store is no checkout.Store")
	}
	o := storetest.NewOrder("pos:" + terminal + "/" + checkout.NewID())
	o.Channel, o.TerminalID, o.CashierID, o.Address, o.Physical, o.Shipping = checkout.ChannelPOS, terminal, cashier, nil, false, 0
	o.Customer = checkout.Customer{}
	o.Lines, o.Amount = []checkout.OrderLine{{Title: checkout.SaleTitle, UnitPrice: amount, Quantity: 1}}, amount
	o.CreatedAt, o.UpdatedAt, o.Status = at, at, status
	o.History[0].At, o.Attempts[0].CreatedAt, o.Attempts[0].UpdatedAt = at, at, at
	if status == checkout.StatusPaid {
		o.PaidAt = at.Add(time.Minute)
	}
	if _, _, err := s.CreateOrder(context.Background(), o); err != nil {
		e.t.Fatal(err)
	}
	return o.ID
}

// The day's closing: the day is São Paulo's by the injected clock (at 01:30 UTC it is still
// the day before there), its totals are the store's, a terminal and a cashier narrow it, a
// cashier sees only its own sales whatever it asks, the page prints at 80 mm or A4, and the
// export holds its sales.
func TestPOSClosing(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 14, 1, 30, 0, 0, time.UTC) // 22:30 of the 13th in São Paulo
	e := newEnv(t, withClock(sandbox.NewManualClock(now)))
	ana, _, anaUser := e.cashier("op.ana@loja.example")
	_, _, bia := e.cashier("op.bia@loja.example")
	two, err := e.pos.CreateTerminal(context.Background(), "Caixa 2")
	if err != nil {
		t.Fatal(err)
	}
	sp := time.FixedZone("-03", -3*3600)
	day := time.Date(2026, 3, 13, 0, 0, 0, 0, sp)
	e.storeSale(pos.FirstTerminal, anaUser.ID, day.Add(8*time.Hour), 1234, checkout.StatusPaid)
	e.storeSale(pos.FirstTerminal, anaUser.ID, day.Add(9*time.Hour), 500, checkout.StatusCanceled)
	e.storeSale(pos.FirstTerminal, bia.ID, day.Add(10*time.Hour), 250, checkout.StatusExpired)
	e.storeSale(two.ID, bia.ID, day.Add(23*time.Hour+59*time.Minute), 9999, checkout.StatusPaid)
	e.storeSale(two.ID, bia.ID, day.Add(24*time.Hour), 7777, checkout.StatusPaid) // 00:00 of the 14th

	owner := e.browser()
	owner.login()
	res, doc := owner.get("/dashboard/pos/closing")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("the closing: %d", res.StatusCode)
	}
	if v := doc.Find(`input[name="day"]`).AttrOr("value", ""); v != "2026-03-13" {
		t.Errorf("today at 01:30 UTC: %q", v)
	}
	checkTotals(t, "the day", doc.Find(testid("closing-total")+" "+testid("closing-figures")), "4 2 11233 1 1")
	if n := doc.Find(testid("closing-group")).Length(); n != 3 {
		t.Errorf("groups: %d", n)
	}
	if n := doc.Find(testid("closing-sale")).Length(); n != 4 {
		t.Errorf("sales listed: %d", n)
	}
	_, doc = owner.get("/dashboard/pos/closing?day=2026-03-13&terminal=" + two.ID)
	checkTotals(t, "Caixa 2", doc.Find(testid("closing-total")+" "+testid("closing-figures")), "1 1 9999 0 0")
	_, doc = owner.get("/dashboard/pos/closing?day=2026-03-13&cashier=" + bia.ID + "&paper=80mm")
	checkTotals(t, "bia", doc.Find(testid("closing-total")+" "+testid("closing-figures")), "2 1 9999 0 1")
	if p := doc.Find(testid("closing-page")).AttrOr("data-paper", ""); p != "80mm" {
		t.Errorf("printed at %q", p)
	}
	_, doc = owner.get("/dashboard/pos/closing?day=2026-03-14")
	checkTotals(t, "the next day", doc.Find(testid("closing-total")+" "+testid("closing-figures")), "1 1 7777 0 0")
	for _, q := range []string{"day=13/03/2026", "terminal=nope", "paper=a3"} {
		if res, _ := owner.get("/dashboard/pos/closing?" + q); res.StatusCode != http.StatusUnprocessableEntity {
			t.Errorf("%s: %d", q, res.StatusCode)
		}
	}

	// A cashier: its own sales only, whatever cashier it names; no export.
	res, doc = ana.get("/dashboard/pos/closing?day=2026-03-13&cashier=" + bia.ID)
	if res.StatusCode != http.StatusOK || doc.Find(testid("closing-own")).Length() != 1 || doc.Find(`select[name="cashier"]`).Length() != 0 {
		t.Fatalf("a cashier's closing: %d", res.StatusCode)
	}
	checkTotals(t, "ana's", doc.Find(testid("closing-total")+" "+testid("closing-figures")), "2 1 1234 1 0")
	if res, _ := ana.get("/dashboard/pos/closing.csv?day=2026-03-13"); res.StatusCode != http.StatusForbidden {
		t.Errorf("a cashier's export: %d", res.StatusCode)
	}

	// The point of sale and the terminals' page link to it.
	if _, doc := ana.get("/dashboard/pos"); doc.Find(testid("closing-link")).AttrOr("href", "") != "/dashboard/pos/closing" {
		t.Errorf("the point of sale's link to the closing: %q", doc.Find(testid("closing-link")).AttrOr("href", ""))
	}
	if _, doc := owner.get("/dashboard/pos/terminals"); doc.Find(testid("terminal-closing")).Length() != 2 {
		t.Errorf("the terminals' links to their closing: %d", doc.Find(testid("terminal-closing")).Length())
	}

	// The export: a row per sale, with its terminal and cashier.
	res = owner.do(http.MethodGet, "/dashboard/pos/closing.csv?day=2026-03-13", nil)
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	rows, err := csv.NewReader(strings.NewReader(string(body))).ReadAll()
	if err != nil || res.StatusCode != http.StatusOK || len(rows) != 5 || rows[0][0] != "terminal" {
		t.Fatalf("the export: %d %v %q", res.StatusCode, err, body)
	}
	if rows[4][0] != "Caixa 2" || rows[4][1] != "op.bia@loja.example" || rows[4][7] != "9999" {
		t.Errorf("the export's last row: %q", rows[4])
	}
}

// checkTotals compares a closing's figures (count, paid, amount, canceled, expired) with want.
func checkTotals(t *testing.T, what string, s *goquery.Selection, want string) {
	t.Helper()
	got := strings.Join([]string{s.AttrOr("data-count", ""), s.AttrOr("data-paid", ""), s.AttrOr("data-amount", ""),
		s.AttrOr("data-canceled", ""), s.AttrOr("data-expired", "")}, " ")
	if got != want {
		t.Errorf("%s's figures: %s, want %s", what, got, want)
	}
}
