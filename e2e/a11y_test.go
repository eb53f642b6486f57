package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/pos"
)

// TestAxeFindsViolations: the accessibility check is not vacuous — on a page missing a language,
// an input's label and an image's alt text, axe-core reports each.
func TestAxeFindsViolations(t *testing.T) {
	t.Parallel()
	s := newSession(t, playwright.BrowserNewContextOptions{})
	s.check(s.page.SetContent(`<!DOCTYPE html><html><head><title>x</title></head><body><main><img src="data:,"><input type="text"></main></body></html>`), "set content")
	if _, err := s.page.Evaluate(suite.axe); err != nil {
		t.Fatal(err)
	}
	v, ok := s.eval(s.page, axeRun).([]any)
	if !ok {
		t.Fatal("axe returned no list")
	}
	found := map[string]bool{}
	for _, p := range v {
		id, _, _ := strings.Cut(p.(string), " ")
		found[id] = true
	}
	for _, want := range []string{"html-has-lang", "image-alt", "label"} {
		if !found[want] {
			t.Errorf("axe did not report %s: %v", want, v)
		}
	}
}

// TestAutocompleteCheckFindsInvalidTokens: the check of autofill tokens refuses what the W3C Nu
// checker refuses (a national phone token on a telephone input, a street address in one line,
// a password token on an e-mail input, on/off on a hidden input) and takes what it takes.
func TestAutocompleteCheckFindsInvalidTokens(t *testing.T) {
	t.Parallel()
	s := newSession(t, playwright.BrowserNewContextOptions{})
	s.check(s.page.SetContent(`<!DOCTYPE html><html lang="pt-BR"><head><title>x</title></head><body><form>
<input name="bad1" type="tel" autocomplete="tel-national">
<input name="bad2" autocomplete="street-address">
<input name="bad3" type="email" autocomplete="current-password">
<input name="bad4" type="hidden" autocomplete="off">
<input name="ok1" type="tel" autocomplete="tel"><input name="ok2" type="text" autocomplete="shipping tel-national">
<input name="ok3" type="email" autocomplete="username"><input name="ok4" type="number" autocomplete="off">
<textarea name="ok5" autocomplete="street-address"></textarea><select name="ok6" autocomplete="address-level1"></select>
<input name="ok7" type="password" autocomplete="current-password webauthn">
</form></body></html>`), "set content")
	var got []string
	for _, p := range s.eval(s.page, autocompleteScript).([]any) {
		got = append(got, p.(string))
	}
	if len(got) != 4 || !strings.Contains(strings.Join(got, "|"), "bad1") || !strings.Contains(strings.Join(got, "|"), "bad4") {
		t.Errorf("the check found %q, want bad1 to bad4 alone", got)
	}
	for _, p := range got {
		if !strings.Contains(p, " bad") {
			t.Errorf("the check refused a valid token: %s", p)
		}
	}
}

// TestEveryShopperPageIsAccessible: every page a shopper can meet — catalogue, cart, the form
// clean and with errors, the PIX page, the expired page, the receipt, the not-found pages —
// passes axe-core's WCAG A and AA rules, in Portuguese and in English, at phone and desktop
// widths; a screenshot of each goes to e2e/artifacts/ for review.
func TestEveryShopperPageIsAccessible(t *testing.T) {
	t.Parallel()
	for _, lang := range []string{"pt-BR", "en"} {
		for _, vp := range []playwright.Size{{Width: 390, Height: 844}, {Width: 1280, Height: 800}} {
			t.Run(lang+"-"+itoa(vp.Width), func(t *testing.T) {
				t.Parallel()
				a, s := setup(t, appOptions{}, playwright.BrowserNewContextOptions{Locale: playwright.String(lang), Viewport: &vp})
				s.open(a.url + "/")
				cat := shopIn(s).catalogue()
				s.checkPage("catalogue")
				cart := cat.add(physicalProduct)
				s.checkPage("cart")
				form := cart.checkout()
				s.checkPage("customer form")
				form.submit()
				s.check(s.expect.Locator(form.errorSummary()).ToBeVisible(), "error summary")
				s.checkPage("customer form with errors")
				form.fillCustomer(validCustomer())
				form.fillAddress(validAddress())
				pix := form.placeOrder()
				s.checkPage("PIX page")
				payURL := s.page.URL()

				a.clock.Advance(pix.remaining() + time.Minute)
				s.open(payURL)
				s.check(s.expect.Locator(s.page.GetByTestId("expired")).ToBeVisible(), "expired page")
				s.checkPage("expired page")

				// A new QR code, paid: the receipt.
				s.check(s.page.GetByTestId("expired").Locator("button[type=submit]").Click(), "new QR")
				pix.waitActive()
				s.check(pix.payButton().Click(), "sandbox-pay")
				pix.waitPaid()
				s.checkPage("receipt")

				for path, where := range map[string]string{"/pay/no-such-order": "not found",
					"/cart/no-such-cart/checkout": "not found (cart)"} {
					res, err := s.page.Goto(a.url + path)
					s.check(err, "goto "+path)
					if res.Status() != 404 {
						t.Errorf("%s: %d, want 404", path, res.Status())
					}
					s.checkPage(where)
				}
			})
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// checkPage runs the accessibility checks on the page and saves its screenshot.
func (s *session) checkPage(where string) {
	s.t.Helper()
	s.a11y(s.page, where)
	s.shot(where)
}

// TestSandboxConsoleIsAccessible: the sandbox console (in Portuguese, its default) passes
// axe-core's WCAG A and AA rules signed out and signed in with a deposit to act on, on a phone
// and on a wide screen.
func TestSandboxConsoleIsAccessible(t *testing.T) {
	t.Parallel()
	for _, vp := range []playwright.Size{{Width: 390, Height: 844}, {Width: 1280, Height: 800}} {
		t.Run(itoa(vp.Width), func(t *testing.T) {
			t.Parallel()
			a, s := setup(t, appOptions{}, playwright.BrowserNewContextOptions{Viewport: &vp})
			// A deposit for the console to list, with its action buttons.
			s.open(a.url + "/")
			form := shopIn(s).catalogue().add(digitalProduct).checkout()
			form.fillCustomer(validCustomer())
			form.placeOrder()

			s.open(a.app.SandboxURL() + "/sandbox/")
			s.checkPage("sandbox console sign-in")
			secret, err := os.ReadFile(filepath.Join(a.dataDir, "sandbox", "client-secret"))
			if err != nil {
				t.Fatal(err)
			}
			login := s.page.GetByTestId("console-login")
			s.check(login.Locator(`input[name="client_id"]`).Fill("checkout"), "client id")
			s.check(login.Locator(`input[name="client_secret"]`).Fill(strings.TrimSpace(string(secret))), "client secret")
			s.check(login.Locator(`button[type="submit"], input[type="submit"]`).First().Click(), "sign in")
			s.check(s.expect.Locator(s.page.Locator(`form[action="logout"]`)).ToHaveCount(1), "signed in")
			s.noHorizontalScroll(s.page, "sandbox console")
			s.checkPage("sandbox console")
		})
	}
}

// TestPersonalDataPageIsAccessible: the owners' page of data subjects' requests — the form, a
// person's records with an order refused for anonymisation, the printable export — passes
// axe-core's WCAG A and AA rules in Portuguese and in English, on a phone and a wide screen.
func TestPersonalDataPageIsAccessible(t *testing.T) {
	t.Parallel()
	for _, lang := range []string{"pt-BR", "en"} {
		for _, vp := range []playwright.Size{{Width: 390, Height: 844}, {Width: 1280, Height: 800}} {
			t.Run(lang+"-"+itoa(vp.Width), func(t *testing.T) {
				t.Parallel()
				a, s := setup(t, appOptions{}, playwright.BrowserNewContextOptions{Locale: playwright.String(lang), Viewport: &vp})
				a.addMerchant(t)
				a.placeOrder(t, true)
				a.placeOrder(t, false)
				d := dashboardOf(s, a)
				d.login(merchantEmail, merchantPassword)
				s.open(a.url + "/dashboard/personal-data")
				s.checkPage("personal data " + lang)
				s.check(d.testID("subjects-form").Locator(`[name="subject"]`).Fill("529.982.247-25"), "type the CPF")
				_, err := s.page.ExpectNavigation(func() error { return d.testID("subjects-search").Click() })
				s.check(err, "search")
				s.check(s.expect.Locator(d.testID("subjects-refused")).ToHaveCount(1), "the order refused")
				s.noHorizontalScroll(s.page, "personal data")
				s.checkPage("personal data found " + lang)
				_, err = s.page.ExpectNavigation(func() error { return d.testID("subjects-export-html").Click() })
				s.check(err, "the printable page")
				s.checkPage("personal data printable " + lang)
			})
		}
	}
}

// TestOrderActionPagesAreAccessible: the order page with its action forms (clean and with an
// error beside a field), the refunds-due page and the overview's figures that need attention
// pass axe-core at phone and desktop widths.
func TestOrderActionPagesAreAccessible(t *testing.T) {
	t.Parallel()
	for _, vp := range []playwright.Size{{Width: 390, Height: 844}, {Width: 1280, Height: 800}} {
		t.Run(itoa(vp.Width), func(t *testing.T) {
			t.Parallel()
			a, s := setup(t, appOptions{}, playwright.BrowserNewContextOptions{Viewport: &vp})
			a.addMerchant(t)
			mug := a.placePhysical(t, true)
			late := a.placeOrder(t, false)
			if _, _, err := a.app.Service().CancelOrder(context.Background(), late.ID); err != nil {
				t.Fatal(err)
			}
			a.payAtSandbox(t, late)
			d := dashboardOf(s, a)
			d.login(merchantEmail, merchantPassword)
			s.open(a.url + "/dashboard/orders/" + mug.ID)
			s.checkPage("order with its actions")
			s.check(d.testID("ship").Click(), "ship without a carrier")
			s.check(s.expect.Locator(d.testID("ship-form").Locator(`[data-field="carrier"]`)).ToBeVisible(), "the error beside the carrier")
			s.checkPage("order with a refused action")
			s.open(a.url + "/dashboard/orders/" + late.ID)
			s.checkPage("canceled order with a refund due")
			s.open(a.url + "/dashboard/refunds")
			s.checkPage("refunds due")
			s.noHorizontalScroll(s.page, "refunds due")
			s.open(a.url + "/dashboard")
			s.checkPage("overview with the figures that need attention")
		})
	}
}

// TestEveryDashboardPageIsAccessible: every page of the dashboard — sign-in, overview, the
// lists (plain, filtered with their disclosures open, invalid, sorted), each record, products,
// a product's form, payment links and one link, settings, users (and an invitation made),
// audit log, own account (and a two-factor enrolment), an invitation's page, the not-found
// page — passes axe-core's WCAG A and AA rules at 1280×800 and at 390×844, with
// the phone's menu and filters open as well as closed. A page added to the dashboard belongs
// in pages below. (The second sign-in step is checked by TestTeamInvitationAndTwoFactor.)
func TestEveryDashboardPageIsAccessible(t *testing.T) {
	t.Parallel()
	for _, vp := range []playwright.Size{{Width: 1280, Height: 800}, {Width: 390, Height: 844}} {
		t.Run(itoa(vp.Width), func(t *testing.T) {
			t.Parallel()
			phone := vp.Width < 600
			a, s := setup(t, appOptions{}, playwright.BrowserNewContextOptions{Viewport: &vp,
				IsMobile: playwright.Bool(phone), HasTouch: playwright.Bool(phone)})
			a.addMerchant(t)
			a.seedGateway(t, 30, 10)
			order := a.placeOrder(t, true)
			ctx := context.Background()
			link, _, err := a.app.Service().CreateLink(ctx, checkout.LinkInput{Title: "Doação", Amount: 1500})
			if err != nil {
				t.Fatal(err)
			}
			d := dashboardOf(s, a)
			s.open(a.url + "/dashboard/login")
			s.checkPage("dashboard sign-in")
			d.login(merchantEmail, merchantPassword)
			hrefOf := func(list, testid string) string {
				s.open(a.url + list)
				href, err := d.testID(testid).First().Locator(`a[href]`).First().GetAttribute("href")
				s.check(err, "a record's link on "+list)
				return href
			}
			deposit := hrefOf("/dashboard/deposits", "deposit-row")
			withdrawal := hrefOf("/dashboard/withdrawals", "withdrawal-row")
			s.open(a.url + "/dashboard/products")
			product, err := s.page.Locator(`a[href*="/dashboard/products/"]`).First().GetAttribute("href")
			s.check(err, "a product's link")
			pages := []string{
				"/dashboard", "/dashboard/orders", "/dashboard/orders?status=paid&status=expired&minAmount=1&from=2026-01-01",
				"/dashboard/orders?sort=amount_asc", "/dashboard/orders?minAmount=dez&sort=preco",
				"/dashboard/orders/" + order.ID,
				"/dashboard/deposits", "/dashboard/deposits?status=PAID&status=BLOCKED&depositOrigin=QRCODE&startDate=2026-01-01",
				"/dashboard/deposits?minAmount=x", deposit,
				"/dashboard/withdrawals", "/dashboard/withdrawals?pixKey=loja@pix.example&status=FAILED", withdrawal,
				"/dashboard/products", product, "/dashboard/links", "/dashboard/links/" + link.ID,
				"/dashboard/orders?fulfilment=awaiting_shipment", "/dashboard/refunds", "/dashboard/personal-data",
				"/dashboard/settings", "/dashboard/users", "/dashboard/audit", "/dashboard/account",
				"/dashboard/exports", // a background export's own page: TestDashboardBackgroundExport
				"/dashboard/charges", "/dashboard/charges?preset=overdue", "/dashboard/charges/import",
				"/dashboard/subscriptions", "/dashboard/pos/terminals", "/dashboard/pos/displays",
				"/dashboard/pos", "/dashboard/pos/sales/" + placeSale(t, a, pos.FirstTerminal, "", 1234).ID,
				"/dashboard/pos/closing", "/dashboard/pos/closing?paper=80mm&terminal=nenhum",
				"/dashboard/deposits/00000000-0000-4000-8000-000000000000",
			}
			check := func(where string) {
				t.Helper()
				s.noHorizontalScroll(s.page, where)
				s.a11y(s.page, where)
				s.shot(where)
				// Every disclosure open (the phone's menu and filters, "Mais filtros"): what
				// they hold is checked too.
				s.eval(s.page, `() => document.querySelectorAll("details").forEach(d => d.open = true)`)
				s.a11y(s.page, where+" (disclosures open)")
				s.noHorizontalScroll(s.page, where+" (disclosures open)")
			}
			for _, p := range pages {
				if !strings.HasPrefix(p, "http") {
					p = a.url + p
				}
				if _, err := s.page.Goto(p); err != nil {
					t.Fatalf("goto %s: %v", p, err)
				}
				check(strings.TrimPrefix(p, a.url))
			}
			// The pages a form leads to: an invitation made (its link shown once), the
			// invitation's own page, and the two-factor enrolment.
			s.open(a.url + "/dashboard/users")
			form := d.testID("invite-form")
			s.check(form.Locator(`input[name="email"]`).Fill("dev@loja.example"), "the invitation's e-mail")
			s.check(d.testID("invite-submit").Click(), "invite")
			s.check(s.expect.Locator(d.testID("invite-link")).ToBeVisible(), "the invitation's link")
			check("users, an invitation made")
			invite, err := d.testID("invite-link").InputValue()
			s.check(err, "the invitation's link")
			s.open(a.url + "/dashboard/account")
			s.check(d.testID("totp-start").Click(), "start the enrolment")
			s.check(s.expect.Locator(d.testID("totp-qr")).ToBeVisible(), "the enrolment's QR code")
			check("account, enrolling")
			other := newSession(t, playwright.BrowserNewContextOptions{Viewport: &vp, IsMobile: playwright.Bool(phone), HasTouch: playwright.Bool(phone)})
			other.open(invite)
			other.noHorizontalScroll(other.page, "invitation")
			other.a11y(other.page, "invitation")
		})
	}
}
