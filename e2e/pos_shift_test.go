package e2e

import (
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"
)

// TestPOSKeypadDoesNotShift: the keypad keeps its layout while pos.js starts (its on-screen
// keys, shown by the script, have their room from the start): no layout shift on a phone.
func TestPOSKeypadDoesNotShift(t *testing.T) {
	t.Parallel()
	a, s := setup(t, appOptions{}, playwright.BrowserNewContextOptions{Viewport: &playwright.Size{Width: 360, Height: 740},
		IsMobile: playwright.Bool(true), HasTouch: playwright.Bool(true)})
	cashierSale(t, a, s, "1234")
	d := dashboardOf(s, a)
	// pos.js arrives late, as on a slow phone network: the page is painted before it runs.
	s.check(s.page.Route("**/pos*.js", func(r playwright.Route) {
		time.Sleep(700 * time.Millisecond)
		_ = r.Continue()
	}), "slow pos.js")
	s.open(a.url + "/dashboard/pos")
	s.check(s.expect.Locator(s.page.Locator("[data-pos-keys]")).ToBeVisible(), "the on-screen keys")
	s.check(s.expect.Locator(d.testID("pos-today-row")).ToHaveCount(1), "the sale of the day, below the keypad")
	got := s.eval(s.page, pixLayoutShift).(map[string]any)
	t.Logf("keypad layout shift: %v", got)
	if toFloat(got["total"]) > 0.01 {
		t.Errorf("the keypad shifts by %v: %v", got["total"], got["moved"])
	}
}
