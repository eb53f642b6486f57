package e2e

import (
	"regexp"
	"testing"
	"unicode/utf16"

	"github.com/playwright-community/playwright-go"
)

// copy-code puts the code on the clipboard; where the clipboard API is refused it selects the
// code for the shopper to copy by hand, and says so.
func TestCopyCode(t *testing.T) {
	a, s := setup(t, appOptions{}, playwright.BrowserNewContextOptions{
		Permissions: []string{"clipboard-read", "clipboard-write"},
	})
	pix := orderToPix(s, a.url)
	code := pix.codeText()
	feedback := pix.root.Locator("[data-copy-feedback]")

	s.check(pix.testID("copy-code").Click(), "click copy-code")
	s.check(s.expect.Locator(feedback).ToHaveText(regexp.MustCompile(`\S`)), "copied feedback")
	copied, err := s.page.Evaluate(`() => navigator.clipboard.readText()`)
	s.check(err, "read the clipboard")
	if copied != code {
		t.Errorf("clipboard holds %q, want the pix-code %q", copied, code)
	}
	okText, err := feedback.TextContent()
	s.check(err, "feedback text")
	s.shot("copied")

	// The same page where the clipboard refuses to write.
	refused := s.newPage()
	s.check(refused.AddInitScript(playwright.Script{Content: playwright.String(`
		Object.defineProperty(navigator, "clipboard", {configurable: true, value: {
			writeText: () => Promise.reject(new DOMException("refused", "NotAllowedError")),
		}});`)}), "refuse the clipboard")
	s.openIn(refused, s.page.URL())
	other := pixPage{shopInPage(s, refused)}
	other.waitActive()
	s.check(other.testID("copy-code").Click(), "click copy-code where the clipboard is refused")
	otherFeedback := other.root.Locator("[data-copy-feedback]")
	s.check(s.expect.Locator(otherFeedback).ToHaveText(regexp.MustCompile(`\S`)), "manual-copy feedback")
	s.check(s.expect.Locator(otherFeedback).Not().ToHaveText(okText), "feedback differs from the copied one")
	s.check(s.expect.Locator(other.code()).ToBeFocused(), "code focused")
	sel := s.eval(refused, `() => { const el = document.querySelector('[data-testid="pix-code"]'); return [el.selectionStart, el.selectionEnd, el.value.length]; }`)
	r, ok := sel.([]any)
	units := len(utf16.Encode([]rune(code))) // JavaScript counts UTF-16 code units
	if !ok || len(r) != 3 || toInt(r[0]) != 0 || toInt(r[1]) != toInt(r[2]) || toInt(r[2]) != units {
		t.Errorf("selection [start end length] = %v, want the whole code of %d characters", sel, units)
	}
	s.shotOf(refused, "copy-refused")
}
