package e2e

import (
	"context"
	"errors"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"

	"github.com/pixcheckout/pixcheckout/checkout/mail"
	"github.com/pixcheckout/pixcheckout/checkout/mail/mailtest"
	"github.com/pixcheckout/pixcheckout/checkout/team"
	"github.com/pixcheckout/pixcheckout/gatewayclient/brcode"
)

const (
	cashierEmail    = "caixa@loja.example"
	cashierPassword = "senha-do-caixa-e2e"
)

var saleURL = regexp.MustCompile(`/dashboard/pos/sales/([A-Za-z0-9_-]+)$`)

// cashierSale signs a new cashier in (they land on the point of sale), types 1 2 3 4 on the
// keyboard alone and charges with Enter: the sale's page, its id.
func cashierSale(t *testing.T, a *testApp, s *session, keys string) string {
	t.Helper()
	if _, err := a.app.Accounts().AddUser(context.Background(), cashierEmail, cashierPassword, team.RoleCashier); err != nil {
		t.Fatalf("adding the cashier: %v", err)
	}
	d := dashboardOf(s, a)
	d.login(cashierEmail, cashierPassword)
	s.check(s.expect.Page(s.page).ToHaveURL(regexp.MustCompile(`/dashboard/pos$`)), "a cashier lands on the point of sale")
	amount := d.testID("pos-amount")
	s.check(s.expect.Locator(amount).ToBeFocused(), "the amount has the focus")
	s.check(s.page.Keyboard().Type(keys), "type the amount's digits")
	return chargeTyped(t, s, d)
}

// chargeTyped charges the amount typed with Enter and returns the sale's id.
func chargeTyped(t *testing.T, s *session, d dashboard) string {
	t.Helper()
	s.check(s.page.Keyboard().Press("Enter"), "charge with Enter")
	s.check(s.expect.Page(s.page).ToHaveURL(saleURL), "the sale's page")
	m := saleURL.FindStringSubmatch(s.page.URL())
	s.check(s.expect.Locator(d.testID("pix-qr")).ToBeVisible(), "the QR code")
	return m[1]
}

// paySale has the sandbox pay the sale on the screen, which then says paid: its end-to-end id.
func paySale(s *session, d dashboard) string {
	s.t.Helper()
	s.check(d.testID("sandbox-pay").Click(), "the sandbox pays")
	s.check(s.expect.Locator(d.testID("paid")).ToBeVisible(), "paid, full-screen")
	e2e := d.testID("end-to-end")
	s.check(s.expect.Locator(e2e).ToHaveText(regexp.MustCompile(`^E\w{10,}`)), "the end-to-end id")
	id, err := e2e.TextContent()
	s.check(err, "the end-to-end id's text")
	return id
}

// feedbackScript records, in the tab's session storage, each vibration and each sound the page
// makes (the headless browser has neither), so that a test can count them across reloads.
const feedbackScript = `(() => {
  const note = (what) => { try { sessionStorage.setItem("feedback", (sessionStorage.getItem("feedback") || "") + what + ";"); } catch (e) {} };
  Object.defineProperty(Navigator.prototype, "vibrate", { configurable: true, value: function () { note("vibrate"); return true; } });
  const Real = window.AudioContext;
  if (Real) {
    window.AudioContext = function () {
      const ac = new Real();
      const make = ac.createOscillator.bind(ac);
      ac.createOscillator = () => { const o = make(); const start = o.start.bind(o); o.start = (t) => { note("sound"); start(t); }; return o; };
      return ac;
    };
  }
})();`

// A cashier signs in on a 360 px phone, types 1 2 3 4 5 and Backspace (R$ 12,34) on the keyboard
// alone and charges with Enter; the QR code shown is the sale's (decoded from the image the
// browser loaded); the sandbox pays and the screen says paid, with the time and the end-to-end
// id, with one vibration and one sound; Enter then starts a new sale (a numeric keypad on a desk
// has no Tab). No page scrolls sideways.
func TestPointOfSale(t *testing.T) {
	t.Parallel()
	a, s := setup(t, appOptions{}, playwright.BrowserNewContextOptions{Viewport: &playwright.Size{Width: 360, Height: 740},
		IsMobile: playwright.Bool(true), HasTouch: playwright.Bool(true)})
	s.check(s.ctx.AddInitScript(playwright.Script{Content: playwright.String(feedbackScript)}), "record vibrations and sounds")
	if _, err := a.app.Accounts().AddUser(context.Background(), "dono@loja.example", cashierPassword, team.RoleOwner); err != nil {
		t.Fatal(err)
	}
	d := dashboardOf(s, a)
	if _, err := a.app.Accounts().AddUser(context.Background(), cashierEmail, cashierPassword, team.RoleCashier); err != nil {
		t.Fatalf("adding the cashier: %v", err)
	}
	d.login(cashierEmail, cashierPassword)
	s.check(s.expect.Page(s.page).ToHaveURL(regexp.MustCompile(`/dashboard/pos$`)), "a cashier lands on the point of sale")
	s.a11y(s.page, "keypad")
	s.noHorizontalScroll(s.page, "keypad")
	amount := d.testID("pos-amount")
	s.check(s.expect.Locator(amount).ToBeFocused(), "the amount has the focus")
	for _, k := range []string{"1", "2", "3", "4", "5"} {
		s.check(s.page.Keyboard().Press(k), "press "+k)
	}
	s.check(s.expect.Locator(amount).ToHaveValue("123,45"), "1 2 3 4 5 is R$ 123,45")
	s.check(s.page.Keyboard().Press("Backspace"), "Backspace")
	s.check(s.expect.Locator(amount).ToHaveValue("12,34"), "Backspace drops the last digit: R$ 12,34")
	s.shot("keypad")
	chargeTyped(t, s, d)
	s.a11y(s.page, "qr")
	s.shot("qr")
	s.noHorizontalScroll(s.page, "QR")
	s.check(s.expect.Locator(d.testID("amount")).ToHaveText("R$ 12,34"), "the amount, huge")
	s.check(s.expect.Locator(d.testID("countdown")).ToHaveText(regexp.MustCompile(`^0[45]:[0-5]\d$`)), "the countdown of a 5-minute QR code")

	code, err := d.testID("pix-code").InputValue()
	s.check(err, "the copy-and-paste code")
	src := s.eval(s.page, `() => document.querySelector('[data-testid="pix-qr"]').currentSrc`).(string)
	resp, err := s.ctx.Request().Get(src)
	s.check(err, "fetch the QR image")
	body, err := resp.Body()
	s.check(err, "the QR image")
	served, err := decodeQR(body)
	if err != nil || served != code {
		t.Fatalf("the QR image reads %q (%v), the code is %q", served, err, code)
	}
	if p, err := brcode.Decode(code); err != nil || p.Amount != 1234 {
		t.Fatalf("the BR Code's amount: %+v, %v", p, err)
	}

	paySale(s, d)
	s.check(s.expect.Locator(d.testID("paid")).ToContainText(regexp.MustCompile(`Pago às \d\d:\d\d`)), "the time it was paid")
	s.check(s.expect.Locator(d.testID("new-sale")).ToBeFocused(), "\"Nova venda\" has the focus")
	if got := s.eval(s.page, `() => sessionStorage.getItem("feedback")`); got != "vibrate;sound;" {
		t.Errorf("paid, live: vibrations and sounds %v, want one of each", got)
	}
	s.a11y(s.page, "paid")
	s.noHorizontalScroll(s.page, "paid")
	s.shot("paid")
	_, err = s.page.Reload()
	s.check(err, "the paid page again")
	s.check(s.expect.Locator(d.testID("paid")).ToBeVisible(), "still paid")
	if got := s.eval(s.page, `() => sessionStorage.getItem("feedback")`); got != "vibrate;sound;" {
		t.Errorf("paid, reloaded: vibrations and sounds %v, want none more", got)
	}
	s.check(s.page.Keyboard().Press("Enter"), "Enter: a new sale")
	s.check(s.expect.Page(s.page).ToHaveURL(regexp.MustCompile(`/dashboard/pos$`)), "the keypad again")
	s.check(s.expect.Locator(amount).ToBeFocused(), "the amount has the focus")
	s.check(s.expect.Locator(d.testID("pos-today-row")).ToHaveCount(1), "the cashier's sale of the day")
}

// On a 10" tablet (800×1280) in English, with the keyboard alone: 1 2 3 4 is R$12.34, Enter
// charges; the QR code expires, "Charge again" has the focus and Enter makes a new QR code for
// the same sale; "Cancel" then says a payment may still arrive, and Enter starts a new sale, of
// two products of the catalogue's grid, its total shown as typed. No page scrolls sideways, none
// has an accessibility violation.
func TestPointOfSaleTabletEnglish(t *testing.T) {
	t.Parallel()
	a, s := setup(t, appOptions{}, playwright.BrowserNewContextOptions{Viewport: &playwright.Size{Width: 800, Height: 1280},
		IsMobile: playwright.Bool(true), HasTouch: playwright.Bool(true), Locale: playwright.String("en-US")})
	if _, err := a.app.Accounts().AddUser(context.Background(), cashierEmail, cashierPassword, team.RoleCashier); err != nil {
		t.Fatalf("adding the cashier: %v", err)
	}
	d := dashboardOf(s, a)
	d.login(cashierEmail, cashierPassword)
	amount := d.testID("pos-amount")
	s.check(s.expect.Locator(amount).ToBeFocused(), "the amount has the focus")
	s.check(s.page.Keyboard().Type("1234"), "type the amount's digits")
	s.check(s.expect.Locator(amount).ToHaveValue("12.34"), "1 2 3 4 is R$12.34")
	s.noHorizontalScroll(s.page, "keypad (tablet)")
	s.a11y(s.page, "keypad (English)")
	id := chargeTyped(t, s, d)
	sale := s.page.URL()
	s.check(s.expect.Locator(d.testID("amount")).ToHaveText("R$12.34"), "the amount, in English")
	s.check(s.expect.Locator(d.testID("order-status")).ToHaveText("Waiting for payment…"), "the status, in English")
	s.noHorizontalScroll(s.page, "QR (tablet)")
	first, err := d.testID("pix-code").InputValue()
	s.check(err, "the first copy-and-paste code")

	o, err := a.app.Service().Order(context.Background(), id)
	if err != nil || o.QR() == nil {
		t.Fatalf("the sale: %+v, %v", o, err)
	}
	a.clock.Advance(o.QR().ExpiresAt.Sub(a.clock.Now()) + time.Minute)
	s.check(s.expect.Locator(d.testID("expired")).ToBeVisible(), "the QR code expired, live")
	s.check(s.expect.Locator(d.testID("new-qr")).ToBeFocused(), "\"Charge again\" has the focus")
	s.noHorizontalScroll(s.page, "expired (tablet)")
	s.a11y(s.page, "expired")
	s.check(s.page.Keyboard().Press("Enter"), "Enter: charge again")
	s.check(s.expect.Locator(d.testID("pix-qr")).ToBeVisible(), "a new QR code")
	if s.page.URL() != sale {
		t.Errorf("charged again at %s, want the same sale %s", s.page.URL(), sale)
	}
	again, err := d.testID("pix-code").InputValue()
	s.check(err, "the new copy-and-paste code")
	if again == first || again == "" {
		t.Errorf("charged again with the same code %q", again)
	}
	if o, err := a.app.Service().Order(context.Background(), id); err != nil || o.QR() == nil || o.QR().BRCode != again || len(o.Attempts) != 2 {
		t.Fatalf("the sale charged again: %+v, %v", o, err)
	}

	s.check(d.testID("pos-cancel").Click(), "cancel")
	s.check(s.expect.Locator(d.testID("canceled")).ToBeVisible(), "canceled")
	s.check(s.expect.Locator(s.page.Locator("main")).ToContainText("If a payment still arrives, the order shows it as a refund due."), "a payment may still arrive")
	s.check(s.expect.Locator(d.testID("new-sale")).ToBeFocused(), "\"New sale\" has the focus")
	s.noHorizontalScroll(s.page, "canceled (tablet)")
	s.a11y(s.page, "canceled")
	s.check(s.page.Keyboard().Press("Enter"), "Enter: a new sale")
	s.check(s.expect.Locator(amount).ToBeFocused(), "the keypad again")

	// The catalogue's grid: two e-books, the cart's total as typed, charged.
	s.check(s.page.Locator("#q-ebook-receitas-do-cerrado").Fill("2"), "two e-books")
	s.check(s.expect.Locator(s.page.Locator("[data-pos-cart-total]")).ToHaveText("R$59.80"), "the cart's total")
	s.check(d.testID("pos-charge-products").Click(), "charge the products")
	s.check(s.expect.Locator(d.testID("pix-qr")).ToBeVisible(), "the products' QR code")
	s.check(s.expect.Locator(d.testID("amount")).ToHaveText("R$59.80"), "the products' amount")
}

// The network drops in the middle of a sale, on a 10" tablet: the screen says so, and does not
// say paid while the payment is made and the browser is offline; once back, the server's paid
// shows.
func TestPointOfSaleOffline(t *testing.T) {
	t.Parallel()
	a, s := setup(t, appOptions{}, playwright.BrowserNewContextOptions{Viewport: &playwright.Size{Width: 1280, Height: 800}})
	d := dashboardOf(s, a)
	id := cashierSale(t, a, s, "500")
	s.check(s.expect.Locator(d.testID("amount")).ToHaveText("R$ 5,00"), "the amount typed")

	s.check(s.ctx.SetOffline(true), "the network drops")
	s.check(s.expect.Locator(d.testID("pos-offline")).ToBeVisible(), "the offline state, plainly")
	s.shot("offline")
	// The payment arrives at the server meanwhile.
	req, err := http.NewRequest(http.MethodPost, a.url+"/pay/"+id+"/sandbox-pay", strings.NewReader(""))
	s.check(err, "the payment's request")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	res, err := http.DefaultClient.Do(req)
	s.check(err, "the sandbox pays")
	res.Body.Close()
	if res.StatusCode/100 != 2 {
		t.Fatalf("sandbox-pay: %d", res.StatusCode)
	}
	if n, _ := d.testID("paid").Count(); n != 0 {
		t.Fatal("the screen says paid while offline")
	}
	s.check(s.expect.Locator(d.testID("order-status")).ToHaveText(regexp.MustCompile(`Aguardando`)), "still waiting, as far as the screen knows")

	s.check(s.ctx.SetOffline(false), "the network is back")
	s.check(s.expect.Locator(d.testID("paid")).ToBeVisible(), "paid, from the server")
}

// mediaBox reads the width and height, in points, of each page of a PDF that Chromium printed
// (its /MediaBox entries, written uncompressed).
var mediaBox = regexp.MustCompile(`/MediaBox\s*\[\s*[\d.]+\s+[\d.]+\s+([\d.]+)\s+([\d.]+)`)

// printedPages prints the page to PDF at the size its stylesheet asks (@page), as the print
// dialog does, and returns each page's width and height in millimetres.
func printedPages(s *session) [][2]float64 {
	s.t.Helper()
	pdf, err := s.page.PDF(playwright.PagePdfOptions{PreferCSSPageSize: playwright.Bool(true)})
	s.check(err, "print to PDF")
	var out [][2]float64
	for _, m := range mediaBox.FindAllSubmatch(pdf, -1) {
		w, errW := strconv.ParseFloat(string(m[1]), 64)
		h, errH := strconv.ParseFloat(string(m[2]), 64)
		s.check(errors.Join(errW, errH), "the PDF's page size")
		out = append(out, [2]float64{w * 25.4 / 72, h * 25.4 / 72})
	}
	return out
}

// A paid sale's receipt prints on a 58 mm roll: the paid screen's button opens it and the print
// dialog at once; it names the store's CNPJ, the amount and the end-to-end id and says it is
// not a tax document; axe finds nothing; printed to PDF at the size its stylesheet asks, its one
// page is 58 mm wide (the PDF call names no width) and as long as the receipt, not a sheet.
// The same at 80 mm. Sent by e-mail with a double click, the order's receipt goes once, over
// SMTP, to the address typed.
func TestPointOfSaleReceipt(t *testing.T) {
	t.Parallel()
	smtp := mailtest.Start(t)
	a, s := setup(t, appOptions{env: map[string]string{"CHECKOUT_MERCHANT_DOCUMENT": "11222333000181"}, smtp: smtp},
		playwright.BrowserNewContextOptions{Viewport: &playwright.Size{Width: 360, Height: 740}})
	d := dashboardOf(s, a)
	id := cashierSale(t, a, s, "1234")
	e2e := paySale(s, d)
	s.check(s.page.AddInitScript(playwright.Script{Content: playwright.String(
		`window.print = function () { window.printed = (window.printed || 0) + 1; };`)}), "count the print dialogs")
	for _, width := range []int{58, 80} {
		w := strconv.Itoa(width)
		if width == 58 {
			s.check(d.testID("receipt-print-58").Click(), "print the receipt")
		} else {
			s.check(d.testID("receipt-width-80").Click(), "the 80 mm receipt")
		}
		s.check(s.expect.Page(s.page).ToHaveURL(regexp.MustCompile(`/receipt\?width=`+w)), "the "+w+" mm receipt")
		s.check(s.expect.Locator(d.testID("receipt-e2e")).ToHaveText(e2e), "the end-to-end id")
		s.check(s.expect.Locator(d.testID("receipt-document")).ToHaveText("CNPJ 11.222.333/0001-81"), "the store's CNPJ")
		s.check(s.expect.Locator(d.testID("receipt-amount")).ToHaveText("R$ 12,34"), "the amount")
		s.check(s.expect.Locator(d.testID("receipt-not-fiscal")).ToHaveText("Não é documento fiscal"), "not a tax document")
		if width == 58 {
			if got := s.eval(s.page, `() => window.printed`); got != 1 && got != 1.0 {
				t.Errorf("the print dialog opened %v times, want once", got)
			}
		}
		s.a11y(s.page, "receipt-"+w)
		s.noHorizontalScroll(s.page, "receipt-"+w)
		s.shot("receipt-" + w)
		pages := printedPages(s)
		if len(pages) != 1 || pages[0][0] < float64(width)-1 || pages[0][0] > float64(width)+1 || pages[0][1] < 50 || pages[0][1] > 200 {
			t.Errorf("the %d mm receipt printed on pages of %v mm, want one %d mm wide and as long as the receipt", width, pages, width)
		}
		if len(pages) > 0 {
			t.Logf("the %d mm receipt: a page of %.1f × %.1f mm", width, pages[0][0], pages[0][1])
		}
	}

	// Enviar comprovante by e-mail, clicked twice: one message, the order's receipt, over SMTP.
	s.open(a.url + "/dashboard/pos/sales/" + id)
	s.check(s.page.Locator("#receipt-email").Fill("cliente@example.net"), "the customer's e-mail")
	s.check(d.testID("receipt-mail-send").Dblclick(), "send, clicked twice")
	s.check(s.expect.Locator(d.testID("receipt-mail-sent")).ToContainText("cliente@example.net"), "sent, says the screen")
	got := smtp.Next(t, actionTimeout)
	if len(got.To) != 1 || got.To[0] != "cliente@example.net" || !strings.Contains(got.Text, e2e) || !strings.Contains(got.Text, a.url+"/pay/"+id) {
		t.Errorf("the receipt e-mail: to %v\n%s", got.To, got.Text)
	}
	if es, err := a.app.MailLog().List(context.Background(), mail.Filter{To: "cliente@example.net"}); err != nil || len(es) != 1 {
		t.Errorf("the receipt e-mails to the address typed: %d (%v), want 1", len(es), err)
	}
}
