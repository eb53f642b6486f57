package e2e

import (
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/playwright-community/playwright-go"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/pos"
	"github.com/pixcheckout/pixcheckout/checkout/team"
)

// placeSale charges amount at a terminal as the cashier does (the order of channel pos) and
// returns it with its QR code made.
func placeSale(t *testing.T, a *testApp, terminal, cashier string, amount checkout.Cents) *checkout.Order {
	t.Helper()
	o, err := a.app.Service().PlaceOrder(context.Background(), checkout.PlaceOrderInput{Channel: checkout.ChannelPOS,
		RequestKey: checkout.NewID(), Sale: &checkout.Sale{Terminal: terminal, Cashier: cashier, Amount: amount}})
	if err != nil || o.QR() == nil {
		t.Fatalf("charging %d at %s: %+v, %v", amount, terminal, o, err)
	}
	return o
}

// TestPOSDisplay: a display paired by the code an owner shows at "Caixa 1" shows the store
// idle, then the amount and the very QR code of that terminal's sale the moment it is charged
// (decoded from what the screen shows), then "paid" once the sandbox pays, with no reload; a
// sale at another terminal never reaches it, nor its status; a used code pairs nothing; once
// revoked, the open display turns to the pairing form by itself, and its cookie shows it again.
func TestPOSDisplay(t *testing.T) {
	t.Parallel()
	a, s := setup(t, appOptions{}, playwright.BrowserNewContextOptions{})
	if _, err := a.app.Accounts().AddUser(context.Background(), merchantEmail, merchantPassword, team.RoleOwner); err != nil {
		t.Fatal(err)
	}
	cashier, err := a.app.Accounts().AddUser(context.Background(), cashierEmail, cashierPassword, team.RoleCashier)
	if err != nil {
		t.Fatal(err)
	}
	d := dashboardOf(s, a)
	d.login(cashierEmail, cashierPassword)
	s.check(s.expect.Page(s.page).ToHaveURL(regexp.MustCompile(`/dashboard/pos$`)), "the cashier's screen")
	s.check(d.testID("pos-display-pair").Locator("button").Click(), "ask for a pairing code at the terminal")
	codeText, err := d.testID("display-pairing-code").TextContent()
	s.check(err, "the pairing code")
	code := strings.TrimSpace(codeText)
	if !regexp.MustCompile(`^\d{6}$`).MatchString(code) {
		t.Fatalf("pairing code %q", code)
	}
	s.a11y(s.page, "pairing code")

	// The display: another device, its own browser context.
	ds := newSession(t, playwright.BrowserNewContextOptions{})
	ds.open(a.url + "/pos/display")
	wrong := "000000"
	if code == wrong {
		wrong = "000001"
	}
	ds.check(ds.page.GetByTestId("display-code").Fill(wrong), "a wrong code")
	ds.check(ds.page.GetByTestId("display-pair").Click(), "pair with a wrong code")
	ds.check(ds.expect.Locator(ds.page.GetByTestId("display-pair-error")).ToBeVisible(), "a wrong code is refused")
	ds.a11y(ds.page, "pairing form")
	ds.check(ds.page.GetByTestId("display-code").Fill(code), "type the code")
	ds.check(ds.page.GetByTestId("display-pair").Click(), "pair")
	screen := ds.page.GetByTestId("display")
	ds.check(ds.expect.Locator(screen).ToHaveAttribute("data-state", pos.ShowIdle), "idle once paired")
	ds.a11y(ds.page, "idle display")
	cookies, err := ds.ctx.Cookies(a.url + "/pos/display")
	ds.check(err, "cookies")
	if len(cookies) != 1 || cookies[0].Name != "pos_display" || cookies[0].Path != "/pos" || !cookies[0].HttpOnly ||
		cookies[0].SameSite == nil || *cookies[0].SameSite != *playwright.SameSiteAttributeStrict {
		t.Fatalf("the display's cookie: %+v", cookies)
	}

	// A sale at another terminal: this display shows nothing of it, nor does its status.
	other := placeSale(t, a, "caixa-2", cashier.ID, 999)
	status := displayStatus(t, ds, a)
	if status["state"] != pos.ShowIdle || strings.Contains(status["orderId"], other.ID) {
		t.Fatalf("the display of Caixa 1 while Caixa 2 charges: %v", status)
	}

	// The cashier charges at Caixa 1 (types 1 2 3 4): the amount and the same QR code, at once.
	s.open(a.url + "/dashboard/pos")
	s.check(d.testID("pos-amount").Focus(), "the amount")
	s.check(s.page.Keyboard().Type("1234"), "type the amount's digits")
	saleID := chargeTyped(t, s, d)
	sale, err := a.app.Service().Order(context.Background(), saleID)
	if err != nil || sale.QR() == nil {
		t.Fatalf("the sale: %+v, %v", sale, err)
	}
	ds.check(ds.expect.Locator(screen).ToHaveAttribute("data-state", pos.ShowCharging), "charging")
	ds.check(ds.expect.Locator(ds.page.GetByTestId("display-amount")).ToHaveText("R$ 12,34"), "the amount")
	qr := ds.page.GetByTestId("display-qr")
	ds.check(ds.expect.Locator(qr).ToBeVisible(), "the QR code")
	ds.check(ds.expect.Locator(ds.page.GetByTestId("display-status")).ToContainText("R$ 12,34"), "the status read out")
	// The image is shown (its size is in its attributes) before its new picture has loaded:
	// on a busy machine a screenshot then caught it blank.
	ds.imageLoaded(qr, "the display's QR code")
	shot, err := qr.Screenshot()
	ds.check(err, "the display's QR code")
	got, err := decodeQR(shot)
	s.imageLoaded(d.testID("pix-qr"), "the terminal's QR code")
	termShot, err2 := d.testID("pix-qr").Screenshot()
	s.check(err2, "the terminal's QR code")
	term, err2 := decodeQR(termShot)
	if err != nil || err2 != nil || got != term || got != sale.QR().BRCode {
		t.Fatalf("the display's QR code reads %q (%v), the terminal's %q (%v), the sale's is %q", got, err, term, err2, sale.QR().BRCode)
	}
	ds.a11y(ds.page, "charging display")
	ds.shot("charging")
	if st := displayStatus(t, ds, a); st["orderId"] != sale.ID {
		t.Fatalf("the status while charging: %v", st)
	}

	// The customer pays (the sandbox): the display says so, with no reload.
	pay := s.newPage()
	s.openIn(pay, a.url+"/pay/"+sale.ID)
	s.check(pay.GetByTestId("sandbox-pay").Click(), "sandbox-pay")
	ds.check(ds.expect.Locator(screen).ToHaveAttribute("data-state", pos.ShowPaid), "paid")
	ds.check(ds.expect.Locator(ds.page.GetByTestId("display-status")).ToHaveText("Pagamento recebido. Obrigado!"), "paid, read out")
	ds.a11y(ds.page, "paid display")
	ds.shot("paid")

	// A used code pairs nothing.
	used := newSession(t, playwright.BrowserNewContextOptions{})
	used.open(a.url + "/pos/display")
	used.check(used.page.GetByTestId("display-code").Fill(code), "the used code")
	used.check(used.page.GetByTestId("display-pair").Click(), "pair again")
	used.check(used.expect.Locator(used.page.GetByTestId("display-pair-error")).ToBeVisible(), "a used code is refused")

	// The owner revokes it: the display, left open, turns to the pairing form by itself (its
	// stream ends saying so).
	s = newSession(t, playwright.BrowserNewContextOptions{})
	d = dashboardOf(s, a)
	d.login(merchantEmail, merchantPassword)
	s.open(a.url + "/dashboard/pos/displays")
	s.check(d.testID("display-revoke").Click(), "revoke")
	s.check(s.expect.Locator(d.testID("displays-done")).ToBeVisible(), "revoked")
	ds.check(ds.expect.Locator(ds.page.GetByTestId("display-pair-form")).ToBeVisible(), "the open display's pairing form after revocation")
	ds.open(a.url + "/pos/display")
	ds.check(ds.expect.Locator(ds.page.GetByTestId("display-pair-form")).ToBeVisible(), "the pairing form on the next load")
	if resp, err := ds.page.Request().Get(a.url + "/pos/display/status"); err != nil || resp.Status() != http.StatusNotFound {
		t.Fatalf("a revoked display's status: %v", err)
	}
}

// displayStatus reads the display's status JSON with its own cookie.
func displayStatus(t *testing.T, s *session, a *testApp) map[string]string {
	t.Helper()
	resp, err := s.page.Request().Get(a.url + "/pos/display/status")
	s.check(err, "the display's status")
	body, err := resp.Body()
	s.check(err, "the display's status body")
	var out map[string]string
	if err := json.Unmarshal(body, &out); err != nil || resp.Status() != http.StatusOK {
		t.Fatalf("the display's status: %d %s", resp.Status(), body)
	}
	return out
}
