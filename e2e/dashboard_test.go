package e2e

import (
	"context"
	"encoding/csv"
	"net/http"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/playwright-community/playwright-go"

	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// TestDashboardDepositsAndWithdrawals walks the merchant's dashboard against the sandbox seeded
// with deposits and withdrawals: sign in; filter deposits by two statuses and an amount range
// and see exactly the rows the gateway itself returns for that query; page through; open a
// deposit and see its timeline; filter withdrawals by pixKey and by externalCode; an invalid
// filter shows its error and keeps the other values; the CSV holds every matching row; sign
// out and find the dashboard closed.
func TestDashboardDepositsAndWithdrawals(t *testing.T) {
	t.Parallel()
	a, s := setup(t, appOptions{}, playwright.BrowserNewContextOptions{AcceptDownloads: playwright.Bool(true)})
	a.addMerchant(t)
	a.seedGateway(t, 400, 80)
	ctx := context.Background()
	gw := a.gateway(t)
	var made struct {
		ID string `json:"id"`
	}
	if err := gw.Do(ctx, http.MethodPost, "/sandbox/withdrawals", map[string]any{"amount": 4321,
		"pixKey": "loja@pix.example", "externalCode": "SAQUE-E2E-0001"}, &made); err != nil {
		t.Fatal(err)
	}

	d := dashboardOf(s, a)
	// The dashboard is closed before signing in.
	s.open(a.url + "/dashboard/deposits")
	s.check(s.expect.Page(s.page).ToHaveURL(regexp.MustCompile(`/dashboard/login\?next=`)), "sent to the sign-in")
	s.a11y(s.page, "sign-in")
	s.shot("login")
	d.submitLogin(merchantEmail, merchantPassword)
	s.check(s.expect.Page(s.page).ToHaveURL(regexp.MustCompile(`/dashboard/deposits$`)), "back to the page asked for")

	// Two statuses and an amount range typed in reais.
	d.tick("status", "PAID")
	d.tick("status", "REFUNDED")
	d.fill("minAmount", "10")
	d.fill("maxAmount", "1.000,00")
	d.submitFilter()
	f := gatewayclient.DepositFilter{Status: []gatewayclient.DepositStatus{"PAID", "REFUNDED"}, MinAmount: 1000, MaxAmount: 100000, PerPage: 25}
	want, err := gw.ListDeposits(ctx, f)
	if err != nil {
		t.Fatal(err)
	}
	if want.TotalPages < 2 {
		t.Fatalf("the seed gave %d pages: nothing to page through", want.TotalPages)
	}
	if got := d.rowIDs("deposit-row"); !slices.Equal(got, depositIDs(want.Data)) {
		t.Fatalf("rows %v\nwant the gateway's %v", got, depositIDs(want.Data))
	}
	s.check(s.expect.Locator(s.page.Locator("#results")).ToBeFocused(), "focus on the results heading after filtering")
	s.check(s.expect.Locator(d.testID("pagination")).ToContainText(FormatCountPt(want.Total)), "the gateway's total")
	s.a11y(s.page, "deposits")
	s.shot("deposits-filtered")

	// Page through.
	s.check(d.testID("page-next").Click(), "next page")
	f.Page = 2
	want2, err := gw.ListDeposits(ctx, f)
	if err != nil {
		t.Fatal(err)
	}
	s.check(s.expect.Page(s.page).ToHaveURL(regexp.MustCompile(`page=2`)), "page 2")
	if got := d.rowIDs("deposit-row"); !slices.Equal(got, depositIDs(want2.Data)) {
		t.Fatalf("page 2 rows %v\nwant %v", got, depositIDs(want2.Data))
	}
	if v, _ := d.filterForm().Locator(`[name="maxAmount"]`).InputValue(); v != "1.000,00" {
		t.Errorf("the filter lost maxAmount on page 2: %q", v)
	}

	// One deposit and its timeline.
	first := want2.Data[0]
	dep, err := gw.GetDeposit(ctx, first.ID)
	if err != nil {
		t.Fatal(err)
	}
	s.check(s.page.Locator(`[data-testid="deposit-row"][data-id="`+first.ID+`"] a`).Click(), "open a deposit")
	s.check(s.expect.Locator(d.testID("timeline-entry")).ToHaveCount(len(dep.StatusHistory)), "one timeline entry per state")
	s.check(s.expect.Locator(d.testID("record")).ToContainText(first.ID), "the deposit's id")
	s.a11y(s.page, "deposit")
	s.shot("deposit")

	// CSV of the current filter: every matching row, not only the page shown.
	s.open(a.url + "/dashboard/deposits?status=PAID&status=REFUNDED&minAmount=10&maxAmount=1.000,00&page=2")
	s.check(d.testID("export-toggle").Click(), "open the exports")
	dl, err := s.page.ExpectDownload(func() error { return d.testID("export-csv").Click() })
	s.check(err, "download the CSV")
	path, err := dl.Path()
	s.check(err, "the CSV's path")
	file, err := os.Open(path)
	s.check(err, "open the CSV")
	rows, err := csv.NewReader(file).ReadAll()
	file.Close()
	s.check(err, "read the CSV")
	if len(rows)-1 != want.Total || rows[0][0] != "id" {
		t.Errorf("the CSV has %d rows and header %v; want %d", len(rows)-1, rows[0][:3], want.Total)
	}

	// An invalid filter: its message beside it, the other values kept.
	s.open(a.url + "/dashboard/deposits")
	d.tick("status", "FAILED")
	d.fill("minAmount", "dez reais")
	d.fill("maxAmount", "50")
	d.submitFilter()
	msg := s.page.Locator(`[data-testid="filter-error"][data-param="minAmount"]`)
	s.check(s.expect.Locator(msg).ToHaveText("Informe um valor em reais, como 10,50 ou 1.234,56."), "the error beside minAmount")
	s.check(s.expect.Locator(d.filterForm().Locator(`[name="minAmount"]`)).ToHaveAttribute("aria-invalid", "true"), "aria-invalid")
	s.check(s.expect.Locator(d.filterForm().Locator(`input[name="status"][value="FAILED"]`)).ToBeChecked(), "status kept")
	s.check(s.expect.Locator(d.filterForm().Locator(`[name="maxAmount"]`)).ToHaveValue("50"), "maxAmount kept")
	s.a11y(s.page, "deposits with an error")
	s.shot("deposits-error")

	// Withdrawals by pixKey, then by externalCode.
	s.open(a.url + "/dashboard/withdrawals")
	d.fill("pixKey", "loja@pix.example")
	d.submitFilter()
	if got := d.rowIDs("withdrawal-row"); !slices.Equal(got, []string{made.ID}) {
		t.Errorf("by pixKey: %v, want [%s]", got, made.ID)
	}
	s.a11y(s.page, "withdrawals")
	s.shot("withdrawals-pixkey")
	s.open(a.url + "/dashboard/withdrawals")
	d.fill("externalCode", "SAQUE-E2E-0001")
	d.submitFilter()
	if got := d.rowIDs("withdrawal-row"); !slices.Equal(got, []string{made.ID}) {
		t.Errorf("by externalCode: %v, want [%s]", got, made.ID)
	}
	s.check(s.page.Locator(`[data-testid="withdrawal-row"] a`).First().Click(), "open the withdrawal")
	s.check(s.expect.Locator(d.testID("record")).ToContainText("R$ 43,21"), "the withdrawal's amount")
	s.a11y(s.page, "withdrawal")

	// Sign out: the dashboard is closed again, even through Back.
	s.check(d.testID("logout").Click(), "sign out")
	s.check(s.expect.Locator(d.testID("login-notice")).ToBeVisible(), "signed-out notice")
	s.open(a.url + "/dashboard/withdrawals")
	s.check(s.expect.Page(s.page).ToHaveURL(regexp.MustCompile(`/dashboard/login`)), "closed after signing out")
}

// TestDashboardThrottling: after ten wrong passwords, even the right one must wait, and the page
// says how long.
func TestDashboardThrottling(t *testing.T) {
	t.Parallel()
	a, s := setup(t, appOptions{}, playwright.BrowserNewContextOptions{})
	a.addMerchant(t)
	d := dashboardOf(s, a)
	s.open(a.url + "/dashboard/login")
	for range 10 {
		d.submitLogin(merchantEmail, "senha-errada")
		s.check(s.expect.Locator(d.testID("login-error")).ToHaveText("E-mail ou senha incorretos."), "wrong password")
	}
	d.submitLogin(merchantEmail, merchantPassword)
	// One minute from the tenth failure, less the moments the test took since.
	s.check(s.expect.Locator(d.testID("login-error")).ToHaveText(regexp.MustCompile(`^Muitas tentativas sem sucesso\. Tente novamente em (1 min|[1-5]?[0-9] s)\.$`)), "throttled")
	s.a11y(s.page, "throttled sign-in")
	s.shot("throttled")
	s.open(a.url + "/dashboard/deposits")
	s.check(s.expect.Page(s.page).ToHaveURL(regexp.MustCompile(`/dashboard/login`)), "still closed")
}

// TestDashboardPhoneAndKeyboard: at 390 px nothing scrolls sideways and rows read as cards; the
// filters work with the keyboard alone and the results take the focus.
func TestDashboardPhoneAndKeyboard(t *testing.T) {
	t.Parallel()
	a, s := setup(t, appOptions{}, playwright.BrowserNewContextOptions{
		Viewport:          &playwright.Size{Width: 390, Height: 844},
		DeviceScaleFactor: playwright.Float(2),
		IsMobile:          playwright.Bool(true),
		HasTouch:          playwright.Bool(true),
	})
	a.addMerchant(t)
	a.seedGateway(t, 60, 20)
	d := dashboardOf(s, a)
	d.login(merchantEmail, merchantPassword)
	for _, p := range []string{"/dashboard/deposits", "/dashboard/withdrawals", "/dashboard/deposits?minAmount=x"} {
		_, err := s.page.Goto(a.url + p)
		s.check(err, "open "+p)
		s.noHorizontalScroll(s.page, p)
		s.a11y(s.page, p+" at 390 px")
	}
	s.open(a.url + "/dashboard/deposits")
	s.shot("deposits-390")
	// On a phone the filters are folded under "Filtros": open it from the keyboard.
	s.tabTo(`el => el.dataset.testid === "filter-summary"`, "the filters' disclosure")
	s.focusVisible("the filters' disclosure")
	s.press("Enter")
	s.tappable(d.testID("filter-submit"), "filter-submit")
	// The sections and the sign-out are behind the menu.
	s.check(s.expect.Locator(d.testID("logout")).Not().ToBeVisible(), "the menu folded")
	s.check(d.testID("dash-menu-toggle").Click(), "open the menu")
	s.tappable(d.testID("logout"), "logout")

	// Keyboard alone: tick PAID, submit, land on the results.
	s.open(a.url + "/dashboard/deposits")
	s.tabTo(`el => el.dataset.testid === "filter-summary"`, "the filters' disclosure")
	s.press("Enter")
	s.tabTo(`el => el.name === "status" && el.value === "PAID"`, "the PAID checkbox")
	s.focusVisible("the PAID checkbox")
	s.press("Space")
	s.tabTo(`el => el.dataset.testid === "filter-submit"`, "the filter button")
	s.focusVisible("the filter button")
	s.press("Enter")
	s.check(s.expect.Page(s.page).ToHaveURL(regexp.MustCompile(`status=PAID`)), "filtered by keyboard")
	s.check(s.expect.Locator(s.page.Locator("#results")).ToBeFocused(), "focus on the results heading after filtering")
	rows := d.rowIDs("deposit-row")
	if len(rows) == 0 {
		t.Fatal("no PAID deposit in the seed")
	}
	s.shot("deposits-paid-390")
	if !strings.Contains(s.page.URL(), "perPage=25") {
		t.Errorf("URL %s: the page size travels with the filters", s.page.URL())
	}
}

// FormatCountPt formats n with pt-BR thousands separators, as the pages do.
func FormatCountPt(n int) string {
	s := itoa(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte('.')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// TestDashboardKeyboard: every dashboard page with the keyboard alone, the focus always
// visible: sign in, the skip link, the sections' links, each list's filter landing on its
// results (or, when invalid, on the summary of its errors), a deposit's page, a product made,
// an API key made and shown, sign out.
func TestDashboardKeyboard(t *testing.T) {
	t.Parallel()
	a, s := setup(t, appOptions{}, playwright.BrowserNewContextOptions{})
	a.addMerchant(t)
	a.seedGateway(t, 40, 10)
	paid := a.placeOrder(t, true)
	var made struct {
		ID string `json:"id"`
	}
	if err := a.gateway(t).Do(context.Background(), http.MethodPost, "/sandbox/withdrawals",
		map[string]any{"amount": 2500, "pixKey": "teclado@pix.example"}, &made); err != nil {
		t.Fatal(err)
	}
	d := dashboardOf(s, a)
	focused := func(attr string) any {
		return s.eval(s.page, `(a) => document.activeElement.getAttribute(a)`, attr)
	}
	// A page's autofocus applies at a rendering step after it is parsed: wait for it.
	focusOn := func(sel, what string) {
		t.Helper()
		s.check(s.expect.Locator(s.page.Locator(sel)).ToBeFocused(), what)
	}
	url := func(re, what string) {
		t.Helper()
		s.check(s.expect.Page(s.page).ToHaveURL(regexp.MustCompile(re)), what)
	}
	results := func(what string) {
		t.Helper()
		focusOn("#results", what+": focus on the results heading")
	}

	// Sign in: the e-mail input has the focus, Tab to the password, Enter.
	s.open(a.url + "/dashboard/login")
	focusOn(`input[name="email"]`, "the sign-in page focuses the e-mail input")
	s.check(s.page.Keyboard().Type(merchantEmail), "type the e-mail")
	s.press("Tab")
	s.focusVisible("the password input")
	s.check(s.page.Keyboard().Type(merchantPassword), "type the password")
	s.press("Enter")
	url(`/dashboard$`, "the overview after signing in")

	// The first Tab reaches the skip link, which moves the focus to the content.
	s.press("Tab")
	if cls := focused("class"); cls != "skip-link" {
		t.Errorf("the first Tab focused %v, want the skip link", cls)
	}
	s.focusVisible("the skip link")
	s.press("Enter")
	if id := focused("id"); id != "main" {
		t.Errorf("the skip link moved the focus to %v, want main", id)
	}

	// The sections' links, then the withdrawals by pixKey.
	s.open(a.url + "/dashboard")
	s.tabTo(`el => !!el.closest(".dash-nav") && el.getAttribute("href").endsWith("/dashboard/withdrawals")`, "the withdrawals link")
	s.focusVisible("the withdrawals link")
	s.press("Enter")
	url(`/dashboard/withdrawals$`, "the withdrawals")
	// The identifiers are under "Mais filtros": open it from the keyboard.
	s.tabTo(`el => el.tagName === "SUMMARY" && !!el.closest('[data-testid="more-filters"]')`, "the more filters' disclosure")
	s.focusVisible("the more filters' disclosure")
	s.press("Enter")
	s.tabTo(`el => el.name === "pixKey"`, "the pixKey input")
	s.focusVisible("the pixKey input")
	s.check(s.page.Keyboard().Type("teclado@pix.example"), "type the key")
	s.press("Enter")
	url(`pixKey=`, "filtered by pixKey")
	results("withdrawals by pixKey")
	if got := d.rowIDs("withdrawal-row"); !slices.Equal(got, []string{made.ID}) {
		t.Errorf("by pixKey: %v, want [%s]", got, made.ID)
	}

	// Deposits: a status ticked with Space, the filter, then a deposit's page.
	s.open(a.url + "/dashboard/deposits")
	s.tabTo(`el => el.name === "status" && el.value === "PAID"`, "the PAID checkbox")
	s.press("Space")
	s.tabTo(`el => el.dataset.testid === "filter-submit"`, "the filter button")
	s.focusVisible("the filter button")
	s.press("Enter")
	url(`status=PAID`, "deposits filtered")
	results("deposits by status")
	s.tabTo(`el => !!el.closest('[data-testid="deposit-row"]') && el.tagName === "A"`, "a deposit's link")
	s.focusVisible("a deposit's link")
	s.press("Enter")
	s.check(s.expect.Locator(d.testID("timeline-entry").First()).ToBeVisible(), "the deposit's timeline")

	// Orders: the search box, Enter; then an invalid amount lands on the errors.
	s.open(a.url + "/dashboard/orders")
	s.tabTo(`el => el.name === "q"`, "the search box")
	s.focusVisible("the search box")
	s.check(s.page.Keyboard().Type("529.982.247-25"), "type a CPF")
	s.press("Enter")
	url(`q=`, "orders searched")
	results("orders searched")
	if got := d.rowIDs("order-row"); !slices.Contains(got, paid.ID) {
		t.Errorf("orders %v, want %s among them", got, paid.ID)
	}
	s.tabTo(`el => el.name === "minAmount"`, "the minimum amount")
	s.check(s.page.Keyboard().Type("dez"), "type an invalid amount")
	s.press("Enter")
	url(`minAmount=dez`, "invalid filter")
	focusOn(`[data-testid="filter-errors"]`, "an invalid filter focuses the summary of its errors")

	// Products: a product made from its form.
	s.open(a.url + "/dashboard/products")
	s.tabTo(`el => el.name === "title"`, "the product's title")
	s.focusVisible("the product's title")
	s.check(s.page.Keyboard().Type("Marcador de páginas"), "type the title")
	s.tabTo(`el => el.name === "unit_price"`, "the product's price")
	s.check(s.page.Keyboard().Type("7,5"), "type the price")
	s.press("Enter")
	s.check(s.expect.Locator(s.page.Locator(`[data-testid="product-row"]`).Filter(playwright.LocatorFilterOptions{HasText: "Marcador de páginas"})).ToContainText("R$ 7,50"), "the new product")

	// Settings: an API key made, its heading taking the focus.
	s.open(a.url + "/dashboard/settings")
	s.tabTo(`el => el.name === "name" && !!el.closest('[data-testid="new-key-form"]')`, "the key's name")
	s.check(s.page.Keyboard().Type("teclado"), "type the key's name")
	s.press("Enter")
	s.check(s.expect.Locator(d.testID("new-key-value")).ToHaveValue(regexp.MustCompile(`^pxk_`)), "the new key")
	focusOn("#new-key-h", "a new key focuses its heading")

	// Sign out.
	s.tabTo(`el => el.dataset.testid === "logout"`, "the sign-out button")
	s.focusVisible("the sign-out button")
	s.press("Enter")
	s.check(s.expect.Locator(d.testID("login-notice")).ToBeVisible(), "signed out")
}
