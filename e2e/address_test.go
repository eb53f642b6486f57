package e2e

import (
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"
)

// TestAddressWithoutNumber: the number keeps its numeric keyboard and says that letters go in
// Complemento; "sem número" sends 0, which the shopper's receipt and the merchant's order page
// show as "S/N".
func TestAddressWithoutNumber(t *testing.T) {
	t.Parallel()
	a, s := setup(t, appOptions{}, playwright.BrowserNewContextOptions{})
	a.addMerchant(t)
	s.open(a.url + "/")
	form := shopIn(s).catalogue().add(physicalProduct).checkout()
	s.check(s.expect.Locator(form.field("number")).ToHaveAttribute("inputmode", "numeric"), "the numeric keyboard")
	s.check(s.expect.Locator(form.root.Locator("#f-number-hint")).ToContainText("Complemento"), "letters go in Complemento")
	form.fillCustomer(validCustomer())
	addr := validAddress()
	addr.Number = ""
	form.fillAddress(addr)
	s.check(form.testID("no-number").Check(), "sem número")
	s.a11y(s.page, "address without a number")
	pix := form.placeOrder()
	s.check(pix.payButton().Click(), "sandbox-pay")
	pix.waitPaid()
	s.check(s.expect.Locator(pix.testID("next-steps")).ToContainText("Avenida Paulista, S/N, Sala 4"), "S/N on the receipt")
	id := s.eval(s.page, `() => location.pathname.split("/")[2]`).(string)

	d := dashboardOf(s, a)
	d.login(merchantEmail, merchantPassword)
	s.open(a.url + "/dashboard/orders/" + id)
	s.check(s.expect.Locator(d.testID("customer")).ToContainText("Avenida Paulista, S/N"), "S/N for the merchant")
}

// pixLayoutShift is the PIX page's cumulative layout shift so far, and what moved.
const pixLayoutShift = `() => new Promise(resolve => {
	let total = 0; const moved = [];
	new PerformanceObserver(list => {
		for (const e of list.getEntries()) {
			if (e.hadRecentInput) continue;
			total += e.value;
			for (const s of e.sources || []) moved.push(((s.node && s.node.className) || (s.node && s.node.nodeName) || "?") + " " + Math.round(s.previousRect.y) + "→" + Math.round(s.currentRect.y) + " h" + Math.round(s.previousRect.height) + "→" + Math.round(s.currentRect.height));
		}
	}).observe({type: "layout-shift", buffered: true});
	setTimeout(() => resolve({total, moved}), 300);
})`

// TestPixPageDoesNotShift: the PIX page keeps its layout while its script starts (the QR
// block, the copy button and the countdown have their room from the start): no layout shift
// on a phone.
func TestPixPageDoesNotShift(t *testing.T) {
	t.Parallel()
	phone := playwright.BrowserNewContextOptions{Viewport: &playwright.Size{Width: 390, Height: 844}, IsMobile: playwright.Bool(true),
		HasTouch: playwright.Bool(true), DeviceScaleFactor: playwright.Float(3)}
	a, s := setup(t, appOptions{}, phone)
	pix := orderToPix(s, a.url)
	url := s.page.URL()
	// pix.js arrives late, as on a slow phone network: the page is painted before it runs.
	s.check(s.page.Route("**/pix*.js", func(r playwright.Route) {
		time.Sleep(700 * time.Millisecond)
		_ = r.Continue()
	}), "slow pix.js")
	for range 2 { // the page as placed, then loaded again
		s.open(url)
		pix.waitActive()
		got := s.eval(s.page, pixLayoutShift).(map[string]any)
		t.Logf("PIX page layout shift: %v", got)
		if toFloat(got["total"]) > 0.01 {
			t.Errorf("the PIX page shifts by %v: %v", got["total"], got["moved"])
		}
	}
}
