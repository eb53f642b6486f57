package e2e

import (
	"testing"

	"github.com/playwright-community/playwright-go"
)

// TestDashboardNavOneRow: at 1280 px (and 1366) an owner's navigation, every section in it,
// is one row: its sections are grouped, each group's dropping down on hover and reached by
// the keyboard.
func TestDashboardNavOneRow(t *testing.T) {
	t.Parallel()
	a, s := setup(t, appOptions{}, playwright.BrowserNewContextOptions{Viewport: &playwright.Size{Width: 1280, Height: 800}})
	a.addMerchant(t)
	d := dashboardOf(s, a)
	d.login(merchantEmail, merchantPassword)
	for _, width := range []int{1280, 1366} {
		s.check(s.page.SetViewportSize(width, 800), "the window's width")
		s.open(a.url + "/dashboard/orders")
		rows := s.eval(s.page, `() => new Set([...document.querySelectorAll(".dash-nav > ul > li")].map(li => Math.round(li.getBoundingClientRect().top))).size`)
		if toInt(rows) != 1 {
			t.Errorf("at %d px the navigation takes %v rows, want 1", width, rows)
		}
		h := s.eval(s.page, `() => Math.round(document.querySelector(".dash-header").getBoundingClientRect().height)`)
		t.Logf("at %d px the header is %v px tall", width, h)
		s.shot("nav-" + string(rune('0'+width/1000)))
	}
	// Every section is in the navigation, a group's shown on hover.
	for _, key := range []string{"orders", "refunds", "products", "links", "deposits", "withdrawals", "users", "audit", "personal-data"} {
		if n, _ := s.page.Locator(`.dash-nav a[href$="/dashboard/` + key + `"]`).Count(); n != 1 {
			t.Errorf("the navigation has %d links to %s", n, key)
		}
	}
	gateway := s.page.Locator(`[data-testid=nav-group][data-group=gateway]`)
	s.check(gateway.Locator(".nav-group-label").Hover(), "hover the gateway's group")
	s.check(gateway.GetByRole("link", playwright.LocatorGetByRoleOptions{Name: "Saques"}).Click(), "the withdrawals")
	s.check(s.expect.Page(s.page).ToHaveURL(a.url+"/dashboard/withdrawals"), "the withdrawals' page")
	s.check(s.expect.Locator(gateway).ToHaveClass("nav-group current"), "the group of the current section marked")
	s.a11y(s.page, "withdrawals")
}

// TestWithdrawalsFitALaptop: at 1366 px the withdrawals' table has no horizontal scroll, its
// last columns (end-to-end id, id) in view.
func TestWithdrawalsFitALaptop(t *testing.T) {
	t.Parallel()
	a, s := setup(t, appOptions{}, playwright.BrowserNewContextOptions{Viewport: &playwright.Size{Width: 1366, Height: 768}})
	a.addMerchant(t)
	a.seedGateway(t, 0, 30)
	d := dashboardOf(s, a)
	d.login(merchantEmail, merchantPassword)
	s.open(a.url + "/dashboard/withdrawals")
	s.check(s.expect.Locator(d.testID("withdrawal-row").First()).ToBeVisible(), "the withdrawals")
	got := s.eval(s.page, `() => {
		const w = document.querySelector(".table-wrap"), t = w.querySelector("table");
		const last = [...t.querySelectorAll("thead th")].pop().getBoundingClientRect();
		return {scroll: w.scrollWidth, client: w.clientWidth, table: Math.round(t.getBoundingClientRect().width), lastRight: Math.round(last.right), page: document.documentElement.scrollWidth};
	}`).(map[string]any)
	t.Logf("withdrawals at 1366 px: %v", got)
	if toInt(got["scroll"]) > toInt(got["client"]) || toInt(got["lastRight"]) > 1366 || toInt(got["page"]) > 1366 {
		t.Errorf("the withdrawals' table scrolls sideways at 1366 px: %v", got)
	}
	s.shot("withdrawals-1366")
	s.a11y(s.page, "withdrawals at 1366 px")
}
