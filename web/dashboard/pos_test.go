package dashboard_test

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/pos"
	"github.com/pixcheckout/pixcheckout/checkout/team"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
	"github.com/pixcheckout/pixcheckout/web/dashboard"
)

// cashier adds a cashier and signs it in: its browser and CSRF token.
func (e *env) cashier(email string) (*browser, string, *team.User) {
	e.t.Helper()
	u, err := e.dash.accounts.AddUser(context.Background(), email, dashPassword, team.RoleCashier)
	if err != nil {
		e.t.Fatal(err)
	}
	b := e.browser()
	res, _ := b.post("/dashboard/login", url.Values{"email": {email}, "password": {dashPassword}})
	if loc := e.location(res); loc != "/dashboard/pos" {
		e.t.Fatalf("a cashier's sign-in went to %q", loc)
	}
	return b, b.csrf(), u
}

// A keypad sale typed in reais is a sale of the cashier's terminal: 303 to its page, which shows
// the QR code; the cashier sees its own sales only, an owner any; amounts out of the keypad's
// range are refused naming the amount.
func TestPOSSale(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	b, csrf, ana := e.cashier("cashier@loja.example")
	sell := func(b *browser, csrf string, form url.Values) *http.Response {
		form.Set("csrf_token", csrf)
		if form.Get("sale_key") == "" {
			form.Set("sale_key", checkout.NewID())
		}
		res, _ := b.post("/dashboard/pos/sales", form)
		return res
	}
	res := sell(b, csrf, url.Values{"amount": {"12,34"}, "description": {"Café"}})
	loc := e.location(res)
	if res.StatusCode != http.StatusSeeOther || !strings.HasPrefix(loc, "/dashboard/pos/sales/") {
		t.Fatalf("a sale: %d %q", res.StatusCode, loc)
	}
	id := strings.TrimPrefix(loc, "/dashboard/pos/sales/")
	o, err := e.svc.Order(context.Background(), id)
	if err != nil || o.Channel != checkout.ChannelPOS || o.Amount != 1234 || o.CashierID != ana.ID || o.TerminalID != pos.FirstTerminal ||
		o.Lines[0].Title != "Café" || o.Customer != (checkout.Customer{}) {
		t.Fatalf("the sale: %+v, %v", o, err)
	}
	res, doc := b.get(loc)
	if res.StatusCode != http.StatusOK || doc.Find(`img`+testid("pix-qr")).AttrOr("src", "") != "/pay/"+id+"/qr.png" {
		t.Fatalf("the sale's page: %d %q", res.StatusCode, doc.Find("main").Text())
	}
	if _, doc := b.get("/dashboard/pos"); doc.Find(testid("pos-today-row")).Length() != 1 {
		t.Errorf("the cashier's sales of the day: %d", doc.Find(testid("pos-today-row")).Length())
	}
	for _, amount := range []string{"0,00", "100.000,01", "abc"} {
		res, doc := b.post("/dashboard/pos/sales", url.Values{"amount": {amount}, "csrf_token": {csrf}, "sale_key": {checkout.NewID()}})
		if res.StatusCode != http.StatusUnprocessableEntity || doc.Find(testid("pos-errors")+` [data-field="amount"]`).Length() != 1 {
			t.Errorf("amount %q: %d %q", amount, res.StatusCode, doc.Find(testid("pos-errors")).Text())
		}
	}
	// Another cashier sees none of it; an owner does.
	other, _, _ := e.cashier("cashier2@loja.example")
	if res, _ := other.get(loc); res.StatusCode != http.StatusNotFound {
		t.Errorf("another cashier's sale: %d", res.StatusCode)
	}
	owner := e.browser()
	owner.login()
	if res, _ := owner.get(loc); res.StatusCode != http.StatusOK {
		t.Errorf("an owner reads the sale: %d", res.StatusCode)
	}
}

// With several terminals the sale names one of the user's; a cashier narrowed to one sells there
// without naming it, and may not sell at another.
func TestPOSTerminals(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	two, err := e.pos.CreateTerminal(context.Background(), "Caixa 2")
	if err != nil {
		t.Fatal(err)
	}
	b, csrf, u := e.cashier("cashier@loja.example")
	if err := e.pos.SetCashierTerminals(context.Background(), u.ID, []string{two.ID}); err != nil {
		t.Fatal(err)
	}
	if res, _ := b.post("/dashboard/pos/sales", url.Values{"amount": {"1,00"}, "terminal": {pos.FirstTerminal}, "csrf_token": {csrf},
		"sale_key": {checkout.NewID()}}); res.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("at a terminal not the cashier's: %d", res.StatusCode)
	}
	owner := e.browser()
	ownerCSRF := owner.login()
	if res, _ := owner.post("/dashboard/pos/sales", url.Values{"amount": {"1,00"}, "csrf_token": {ownerCSRF},
		"sale_key": {checkout.NewID()}}); res.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("an owner's sale naming none of two terminals: %d", res.StatusCode)
	}
	res, _ := b.post("/dashboard/pos/sales", url.Values{"amount": {"1,00"}, "csrf_token": {csrf},
		"sale_key": {checkout.NewID()}})
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("at the cashier's terminal: %d", res.StatusCode)
	}
	o, err := e.svc.Order(context.Background(), strings.TrimPrefix(e.location(res), "/dashboard/pos/sales/"))
	if err != nil || o.TerminalID != two.ID {
		t.Fatalf("the sale's terminal: %+v, %v", o, err)
	}
}

// The point of sale's pages weigh less than 50 KB of JavaScript and CSS together (uncompressed),
// on a phone at the counter: the keypad, a sale's QR screen, and the customer's display (its
// pairing form and, paired, its screen).
func TestPOSPagesWeight(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	b, csrf, _ := e.cashier("cashier@loja.example")
	res, _ := sell(b, csrf, url.Values{"amount": {"12,34"}})
	display := e.browser()
	code, _, err := e.displays.NewCode(context.Background(), &team.User{ID: "owner", Role: team.RoleOwner}, pos.FirstTerminal)
	if err != nil {
		t.Fatal(err)
	}
	weigh := func(b *browser, page string) int {
		_, doc := b.get(page)
		total := 0
		doc.Find(`link[rel="stylesheet"], script[src]`).Each(func(_ int, s *goquery.Selection) {
			src := s.AttrOr("href", s.AttrOr("src", ""))
			res, err := e.srv.Client().Get(e.srv.URL + src)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			total += len(body)
		})
		if total == 0 || total >= 50*1024 {
			t.Errorf("the JavaScript and CSS of %s: %d bytes", page, total)
		}
		t.Logf("the JavaScript and CSS of %s: %d bytes", page, total)
		return total
	}
	weigh(b, "/dashboard/pos")
	weigh(b, e.location(res))
	pairing := weigh(display, "/pos/display")
	if res, _ := display.post("/pos/display", url.Values{pos.FieldCode: {code}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("pairing the display: %d", res.StatusCode)
	}
	if weigh(display, "/pos/display") == pairing {
		t.Error("the paired display's page weighs what its pairing form does: not paired?")
	}
}

// A cashier's session lasts the shift: idle for longer than the dashboard's 30 minutes it is
// still signed in, up to the owner's limit (12 h by default, here 1 h); anybody else's ends
// after 30 minutes.
func TestPOSSessionLastsTheShift(t *testing.T) {
	t.Parallel()
	clock := sandbox.NewManualClock(time.Date(2026, 3, 14, 12, 0, 0, 0, time.UTC))
	e := newEnv(t)
	dashboard.SetIdleClock(e.board, clock.Now)
	if err := e.pos.SaveSettings(context.Background(), pos.Settings{QRLifetime: 5 * time.Minute, IdleLimit: time.Hour}); err != nil {
		t.Fatal(err)
	}
	cashier, _, _ := e.cashier("cashier@loja.example")
	owner := e.browser()
	owner.login()
	clock.Advance(31 * time.Minute)
	if res, _ := cashier.get("/dashboard/pos"); res.StatusCode != http.StatusOK {
		t.Fatalf("a cashier idle 31 minutes: %d", res.StatusCode)
	}
	if res, _ := owner.get("/dashboard/orders"); res.StatusCode != http.StatusSeeOther || !strings.Contains(e.location(res), "ended=1") {
		t.Fatalf("an owner idle 31 minutes: %d %q", res.StatusCode, e.location(res))
	}
	clock.Advance(59 * time.Minute) // idle again, within the hour
	if res, _ := cashier.get("/dashboard/pos"); res.StatusCode != http.StatusOK {
		t.Fatalf("a cashier idle 59 minutes: %d", res.StatusCode)
	}
	clock.Advance(61 * time.Minute)
	if res, _ := cashier.get("/dashboard/pos"); res.StatusCode != http.StatusSeeOther || !strings.Contains(e.location(res), "ended=1") {
		t.Fatalf("a cashier idle past the owner's limit: %d %q", res.StatusCode, e.location(res))
	}
}

// The point of sale's header links keep the page's language: in English they lead to the point
// of sale's and the account's English pages, not to a path glued after the query.
func TestPOSHeaderLinksKeepTheLanguage(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	b, _, _ := e.cashier("cashier@loja.example")
	res, doc := b.get("/dashboard/pos?lang=en")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("the point of sale in English: %d", res.StatusCode)
	}
	var got []string
	doc.Find(".pos-nav a").Each(func(_ int, a *goquery.Selection) { got = append(got, a.AttrOr("href", "")) })
	for _, want := range []string{"/dashboard/pos?lang=en", "/dashboard/account?lang=en"} {
		if !strings.Contains(strings.Join(got, " "), want) {
			t.Errorf("the header's links %q lack %q", got, want)
		}
	}
}
