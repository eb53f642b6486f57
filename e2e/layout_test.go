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

// moneyWraps lists the amounts ("R$ 1.234,56") of the page's visible text that run over two
// lines.
const moneyWraps = `() => {
	const bad = [], re = /R\$\s?[\d.,]+/g;
	const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
	for (let n; (n = walker.nextNode()); ) {
		for (let m; (m = re.exec(n.data)); ) {
			const r = document.createRange();
			r.setStart(n, m.index);
			r.setEnd(n, m.index + m[0].length);
			const tops = new Set([...r.getClientRects()].filter(x => x.width > 0).map(x => Math.round(x.top)));
			if (tops.size > 1) bad.push(m[0] + " in <" + n.parentElement.tagName.toLowerCase() + " class=" + n.parentElement.className + ">");
		}
	}
	return bad;
}`

// TestMoneyNeverWrapsOnAPhone: at 390 px no amount breaks between "R$" and its digits, on the
// shopper's pages and the dashboard's.
func TestMoneyNeverWrapsOnAPhone(t *testing.T) {
	t.Parallel()
	phone := playwright.BrowserNewContextOptions{Viewport: &playwright.Size{Width: 390, Height: 844}, IsMobile: playwright.Bool(true),
		HasTouch: playwright.Bool(true), DeviceScaleFactor: playwright.Float(3)}
	a, s := setup(t, appOptions{}, phone)
	a.addMerchant(t)
	check := func(where string) {
		t.Helper()
		for _, b := range s.eval(s.page, moneyWraps).([]any) {
			t.Errorf("%s at 390 px: %v wraps", where, b)
		}
	}
	s.open(a.url + "/")
	check("catalogue")
	form := shopIn(s).catalogue().add(digitalProduct).checkout()
	check("customer form")
	form.fillCustomer(validCustomer())
	pix := form.placeOrder()
	check("PIX page")
	s.check(pix.payButton().Click(), "sandbox-pay")
	pix.waitPaid()
	check("paid page")
	mug := a.placePhysical(t, true)

	d := dashboardOf(s, a)
	d.login(merchantEmail, merchantPassword)
	for _, p := range []string{"/dashboard", "/dashboard/orders", "/dashboard/orders/" + mug.ID, "/dashboard/refunds", "/dashboard/deposits",
		"/dashboard/withdrawals", "/dashboard/products", "/dashboard/links"} {
		s.open(a.url + p)
		check(p)
	}
}

// TestDashboardDetailsOnAPhone: at 390 px the orders list shows each order's time whole; the
// "two-step verification for everyone" checkbox sits on its label's line; and the settings
// page lists the latest notifications only, the others folded.
func TestDashboardDetailsOnAPhone(t *testing.T) {
	t.Parallel()
	phone := playwright.BrowserNewContextOptions{Viewport: &playwright.Size{Width: 390, Height: 844}, IsMobile: playwright.Bool(true),
		HasTouch: playwright.Bool(true), DeviceScaleFactor: playwright.Float(3)}
	a, s := setup(t, appOptions{}, phone)
	a.addMerchant(t)
	for range 7 {
		a.placeOrder(t, false)
	}
	d := dashboardOf(s, a)
	d.login(merchantEmail, merchantPassword)

	s.open(a.url + "/dashboard/orders")
	cut := s.eval(s.page, `() => [...document.querySelectorAll("[data-testid=order-row] time")].map(e => e.closest("td"))
		.filter(td => td.scrollWidth > td.clientWidth + 1).map(td => td.textContent)`).([]any)
	if len(cut) > 0 {
		t.Errorf("the orders list cuts the time of %v at 390 px", cut)
	}
	s.shot("orders-390")

	s.open(a.url + "/dashboard/users")
	label := d.testID("require-totp-label")
	box := s.eval(s.page, `() => {
		const l = document.querySelector("[data-testid=require-totp-label]"), i = l.querySelector("input");
		const r = document.createRange(); r.selectNodeContents(l);
		const ib = i.getBoundingClientRect();
		const lines = [...r.getClientRects()].filter(x => x.width > 0 && x.left > ib.right - 1);
		return {inputMid: ib.top + ib.height / 2, textTop: Math.min(...lines.map(x => x.top)),
			textBottom: Math.max(...lines.map(x => x.bottom)), gap: Math.min(...lines.map(x => x.left)) - ib.right};
	}`).(map[string]any)
	if mid := toFloat(box["inputMid"]); mid < toFloat(box["textTop"]) || mid > toFloat(box["textBottom"]) || toFloat(box["gap"]) > 24 {
		t.Errorf("the checkbox stands apart from its label: %v", box)
	}
	s.check(s.expect.Locator(label).ToBeVisible(), "the label")
	s.a11y(s.page, "users at 390 px")

	s.open(a.url + "/dashboard/settings")
	s.check(s.expect.Locator(d.testID("delivery").Locator("visible=true")).ToHaveCount(5), "five notifications listed")
	s.check(s.expect.Locator(d.testID("more-deliveries")).ToBeVisible(), "the others folded")
	s.a11y(s.page, "settings at 390 px")
	s.shot("settings-390")
}
