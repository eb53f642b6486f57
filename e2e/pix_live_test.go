package e2e

import (
	"regexp"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"
)

// The countdown runs on the server's clock, learnt from the live status, not on the shopper's:
// with the app's clock 26 minutes ahead of the browser's, the page (the same HTML at every
// moment) shows the QR code's last minutes, in their urgent look. The waiting status is visibly
// live (its dot pulses), and stands still for a shopper who asked for reduced motion.
func TestCountdownOnTheServersClock(t *testing.T) {
	// Mostly waiting (for a tick): run beside the other waiting tests.
	t.Parallel()
	a, s := setup(t, appOptions{}, playwright.BrowserNewContextOptions{})
	pix := orderToPix(s, a.url)
	deadline := s.page.Locator("[data-deadline]")
	s.check(s.expect.Locator(deadline).Not().ToHaveClass(regexp.MustCompile(`\burgent\b`)), "not urgent with 30 minutes left")
	pulse := `() => getComputedStyle(document.querySelector('[data-testid="order-status"]'), '::before').animationName`
	if got := s.eval(s.page, pulse); got != "live" {
		t.Errorf("the waiting status's dot has animation %v, want live", got)
	}

	a.clock.Advance(26 * time.Minute)
	_, err := s.page.Reload()
	s.check(err, "reload")
	s.check(s.expect.Locator(pix.countdown()).ToHaveText(regexp.MustCompile(`^0[0-4]:[0-5]\d$`)), "countdown on the server's clock: under 5 minutes left")
	s.check(s.expect.Locator(deadline).ToHaveClass(regexp.MustCompile(`\burgent\b`)), "urgent in the last minutes")
	s.shot("last-minutes")

	s.check(s.page.EmulateMedia(playwright.PageEmulateMediaOptions{ReducedMotion: playwright.ReducedMotionReduce}), "reduced motion")
	if got := s.eval(s.page, pulse); got != "none" {
		t.Errorf("with reduced motion the status's dot has animation %v, want none", got)
	}
	s.check(s.expect.Locator(pix.status()).ToHaveAttribute("aria-live", "polite"), "the status is still a live region")
}
