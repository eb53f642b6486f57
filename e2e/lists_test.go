package e2e

import (
	"context"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/playwright-community/playwright-go"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// rowsInView counts the elements of testid wholly inside the viewport (top and bottom).
func (s *session) rowsInView(testid string) int {
	s.t.Helper()
	return toInt(s.eval(s.page, `(id) => [...document.querySelectorAll('[data-testid="' + id + '"]')].filter(el => {
		const r = el.getBoundingClientRect();
		return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight && r.left >= 0 && r.right <= window.innerWidth;
	}).length`, testid))
}

// barLines counts the lines the filter bar's controls take: a control starting below every
// control of the line before starts a line.
func (s *session) barLines() int {
	s.t.Helper()
	return toInt(s.eval(s.page, `() => {
		const boxes = [...document.querySelectorAll('.bar-row > *')].filter(el => !el.matches('details[open]'))
			.map(el => el.getBoundingClientRect()).filter(r => r.height > 0).sort((a, b) => a.top - b.top);
		let lines = 0, bottom = -Infinity;
		for (const r of boxes) {
			if (r.top >= bottom - 2) { lines++; bottom = r.bottom; } else { bottom = Math.max(bottom, r.bottom); }
		}
		return lines;
	}`))
}

// TestListsAboveTheFold: with 400 deposits in the sandbox, the deposits page shows at least
// ten whole rows without scrolling at 1280×800 and three at 390×844; on the phone the filters
// fold into a disclosure whose summary counts the filters on; a row opens with Enter from the
// keyboard (its one link covers it), and a click anywhere on the row opens it too.
func TestListsAboveTheFold(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		vp    playwright.Size
		phone bool
		want  int
	}{
		{"desktop", playwright.Size{Width: 1280, Height: 800}, false, 10},
		{"phone", playwright.Size{Width: 390, Height: 844}, true, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a, s := setup(t, appOptions{}, playwright.BrowserNewContextOptions{Viewport: &tc.vp,
				IsMobile: playwright.Bool(tc.phone), HasTouch: playwright.Bool(tc.phone),
				Permissions: []string{"clipboard-read", "clipboard-write"}})
			a.addMerchant(t)
			a.seedGateway(t, 400, 0)
			d := dashboardOf(s, a)
			d.login(merchantEmail, merchantPassword)
			s.open(a.url + "/dashboard/deposits")
			s.shot("deposits-" + tc.name)
			if _, err := s.page.Screenshot(playwright.PageScreenshotOptions{Path: playwright.String(s.dir + "/fold-" + tc.name + ".png")}); err != nil {
				t.Fatal(err)
			}
			if n := s.rowsInView("deposit-row"); n < tc.want {
				t.Errorf("%d deposit rows wholly in view at %dx%d, want at least %d", n, tc.vp.Width, tc.vp.Height, tc.want)
			}
			s.noHorizontalScroll(s.page, "deposits")
			s.check(s.expect.Locator(d.testID("list-order")).ToContainText("Mais recentes primeiro"), "the gateway's order said")
			summary := d.testID("filter-summary")
			if tc.phone {
				s.check(s.expect.Locator(summary).ToBeVisible(), "the filters' disclosure on a phone")
				s.check(s.expect.Locator(d.testID("status-chip").First()).Not().ToBeVisible(), "the chips folded")
				s.open(a.url + "/dashboard/deposits?status=PAID&status=REFUNDED&minAmount=10")
				s.check(s.expect.Locator(summary).ToHaveText("Filtros (3)"), "the disclosure counts the filters on")
				s.check(summary.Click(), "open the filters")
				s.check(s.expect.Locator(d.testID("status-chip").First()).ToBeVisible(), "the chips shown")
				s.shot("deposits-filters-open-" + tc.name)
				s.open(a.url + "/dashboard/deposits")
			} else {
				s.check(s.expect.Locator(summary).Not().ToBeVisible(), "no disclosure on a wide screen")
				s.check(s.expect.Locator(d.testID("status-chip").First()).ToBeVisible(), "the chips in the bar")
				// The bar is one line on each list, filters on (its clear link then shown) or not.
				for _, p := range []string{"/dashboard/deposits", "/dashboard/deposits?status=PAID&minAmount=10&maxAmount=1.000",
					"/dashboard/withdrawals?status=FAILED&minAmount=10", "/dashboard/orders?status=paid&status=expired&minAmount=1&q=maria",
					"/dashboard/deposits?lang=en&status=PAID&minAmount=10", "/dashboard/orders?lang=en&status=paid&minAmount=1&q=maria"} {
					s.open(a.url + p)
					s.shot("bar " + p)
					if lines := s.barLines(); lines != 1 {
						t.Errorf("%s: the filter bar takes %d lines at 1280 px, want 1", p, lines)
					}
				}
				s.open(a.url + "/dashboard/deposits")
			}
			// No state overflows its row (or card), however long its words.
			if over := s.eval(s.page, `() => [...document.querySelectorAll('[data-testid="deposit-row"] .state')].filter(el =>
				el.getBoundingClientRect().right > el.closest("tr").getBoundingClientRect().right + 0.5).map(el => el.textContent)`).([]any); len(over) > 0 {
				t.Errorf("states overflowing their row: %v", over)
			}

			// The whole id is the link's (cut short on screen), and its copy button copies it.
			first := d.testID("deposit-row").First()
			id, err := first.GetAttribute("data-id")
			s.check(err, "the first row's id")
			s.check(s.expect.Locator(first.GetByTestId("row-link")).ToHaveAttribute("title", id), "the whole id on hover")
			s.check(s.expect.Locator(first.GetByTestId("row-link")).ToHaveText(id), "the whole id in the link")
			s.check(first.Locator("button.copy-id").Click(), "copy the id")
			s.check(s.expect.Locator(s.page.Locator("[data-copy-feedback]")).ToHaveText(regexp.MustCompile(`\S`)), "the copy said")
			copied, err := s.page.Evaluate(`() => navigator.clipboard.readText()`)
			s.check(err, "read the clipboard")
			if copied != id {
				t.Errorf("the clipboard holds %q, want the id %s", copied, id)
			}
			if !strings.HasSuffix(s.page.URL(), "/dashboard/deposits") {
				t.Errorf("the copy button opened %s: it must sit above the row's link", s.page.URL())
			}

			// From the page's start, Tab to the first row's link, Enter: the deposit's page.
			s.open(a.url + "/dashboard/deposits")
			s.tabTo(`el => el.dataset.testid === "row-link" && el.closest('[data-testid="deposit-row"]').dataset.id === `+jsString(id), "the first row's link")
			s.focusVisible("the row's link")
			s.press("Enter")
			s.check(s.expect.Page(s.page).ToHaveURL(regexp.MustCompile(`/dashboard/deposits/`+regexp.QuoteMeta(id)+`$`)), "Enter opened the deposit")

			// A click on the row's amount (not on the link's text) opens the record too.
			s.open(a.url + "/dashboard/deposits")
			second := d.testID("deposit-row").Nth(1)
			id2, err := second.GetAttribute("data-id")
			s.check(err, "the second row's id")
			// Force: the click lands on the row's link (its ::after), which Playwright sees as another
			// element over the cell.
			s.check(second.Locator("td.num").Click(playwright.LocatorClickOptions{Force: playwright.Bool(true)}), "click the row's amount")
			s.check(s.expect.Page(s.page).ToHaveURL(regexp.MustCompile(`/dashboard/deposits/`+regexp.QuoteMeta(id2)+`$`)), "a click on the row opened the deposit")
		})
	}
}

// placeOrderOf places an order of qty units of the e-book (a different amount for each qty).
func (a *testApp) placeOrderOf(t *testing.T, qty int) *checkout.Order {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), actionTimeout)
	defer cancel()
	svc := a.app.Service()
	c, err := svc.AddToCart(ctx, "", "ebook-receitas-do-cerrado", qty)
	if err != nil {
		t.Fatal(err)
	}
	o, err := svc.PlaceOrder(ctx, checkout.PlaceOrderInput{Source: c.ID, RequestKey: checkout.NewRequestKey(c, 0), Lang: "pt-BR",
		Customer: checkout.Customer{Name: "Maria da Silva", Document: "52998224725", Email: "maria@example.com.br", Phone: "11987654321"}})
	if err != nil {
		t.Fatal(err)
	}
	return a.withPIXCode(t, ctx, o)
}

// TestOrdersSortByAmount: the amount column's header sorts the orders by amount, largest first
// and then smallest first, the sort in the URL; the pages after the first (by cursor) keep
// the sort, and the order list reads the same after a reload.
func TestOrdersSortByAmount(t *testing.T) {
	t.Parallel()
	a, s := setup(t, appOptions{}, playwright.BrowserNewContextOptions{Viewport: &playwright.Size{Width: 1280, Height: 800}})
	a.addMerchant(t)
	for _, q := range []int{3, 1, 5, 2, 4} {
		a.placeOrderOf(t, q)
	}
	d := dashboardOf(s, a)
	d.login(merchantEmail, merchantPassword)
	amounts := func() []int {
		var out []int
		rows, err := d.testID("order-row").All()
		s.check(err, "the rows")
		for _, r := range rows {
			v, err := r.GetAttribute("data-amount")
			s.check(err, "a row's amount")
			n, err := strconv.Atoi(v)
			s.check(err, "a row's amount")
			out = append(out, n)
		}
		return out
	}
	s.open(a.url + "/dashboard/orders?perPage=2")
	s.check(d.testID("sort-amount").Click(), "sort by amount")
	s.check(s.expect.Page(s.page).ToHaveURL(regexp.MustCompile(`sort=amount_desc`)), "the sort in the URL")
	s.check(s.expect.Locator(s.page.Locator(`th[aria-sort="descending"]`)).ToContainText("Valor"), "aria-sort on the amount")
	var all []int
	for page := 0; ; page++ {
		got := amounts()
		if len(got) == 0 || page > 5 {
			t.Fatalf("page %d: %v", page, got)
		}
		all = append(all, got...)
		next := d.testID("page-next")
		if n, _ := next.Count(); n == 0 {
			break
		}
		s.check(next.Click(), "the next page")
		s.check(s.expect.Page(s.page).ToHaveURL(regexp.MustCompile(`cursor=.*sort=amount_desc|sort=amount_desc.*cursor=`)), "the next page keeps the sort")
	}
	if len(all) != 5 || !slices.IsSortedFunc(all, func(x, y int) int { return y - x }) {
		t.Errorf("by amount, largest first, across the pages: %v", all)
	}
	s.shot("orders-by-amount")

	// The header again: smallest first.
	s.open(a.url + "/dashboard/orders?perPage=100&sort=amount_desc")
	s.check(d.testID("sort-amount").Click(), "sort by amount again")
	s.check(s.expect.Page(s.page).ToHaveURL(regexp.MustCompile(`sort=amount_asc`)), "the other way in the URL")
	if got := amounts(); len(got) != 5 || !slices.IsSorted(got) {
		t.Errorf("by amount, smallest first: %v", got)
	}
	_, err := s.page.Reload()
	s.check(err, "reload")
	if got := amounts(); len(got) != 5 || !slices.IsSorted(got) {
		t.Errorf("after a reload: %v", got)
	}
	// An unknown sort: the error beside the field, named.
	if _, err := s.page.Goto(a.url + "/dashboard/orders?sort=preco"); err != nil {
		t.Fatal(err)
	}
	s.check(s.expect.Locator(s.page.Locator(`[data-testid="filter-error"][data-param="sort"]`)).ToContainText("Ordenar por"), "the sort's error beside it")

	// On a phone the rows are cards and no state is cut short or overflows its card.
	s.check(s.page.SetViewportSize(390, 844), "a phone's width")
	s.open(a.url + "/dashboard/orders")
	if bad := s.eval(s.page, `() => [...document.querySelectorAll('[data-testid="order-row"] .state')].filter(el => {
		const r = el.getBoundingClientRect(), card = el.closest("tr").getBoundingClientRect(), cell = el.closest("td").getBoundingClientRect();
		return r.right > card.right + 0.5 || r.right > cell.right + 0.5 || el.scrollWidth > el.clientWidth + 1;
	}).map(el => el.textContent)`).([]any); len(bad) > 0 {
		t.Errorf("states cut or overflowing on a phone: %v", bad)
	}
	s.shot("orders-390")
}
