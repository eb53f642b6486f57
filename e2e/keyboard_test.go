package e2e

import (
	"encoding/json"
	"testing"

	"github.com/playwright-community/playwright-go"
)

// The whole purchase with the keyboard alone, the focus always visible.
func TestKeyboardOnly(t *testing.T) {
	t.Parallel()
	a, s := setup(t, appOptions{}, playwright.BrowserNewContextOptions{})
	s.open(a.url + "/")
	shopIn(s).catalogue()

	// The first Tab reaches the skip link, which shows itself.
	s.press("Tab")
	if cls := s.eval(s.page, `() => document.activeElement.className`); cls != "skip-link" {
		t.Errorf("the first Tab focused %v, want the skip link", cls)
	}
	s.check(s.expect.Locator(s.page.Locator(".skip-link")).ToBeInViewport(), "skip link shown when focused")
	s.focusVisible("skip link")
	s.shot("skip-link")

	s.tabTo(`el => el.dataset.testid === "add-to-cart" && el.closest('[data-testid="product-card"]').textContent.includes(`+jsString(digitalProduct)+`)`, "add-to-cart of the digital product")
	s.focusVisible("add-to-cart")
	s.shot("add-to-cart-focused")
	s.press("Enter")
	cart := cartPage{shopIn(s)}
	s.check(s.expect.Locator(cart.lines()).ToHaveCount(1), "cart-line")

	s.tabTo(`el => el.dataset.testid === "go-to-checkout"`, "go-to-checkout")
	s.focusVisible("go-to-checkout")
	s.press("Enter")
	form := customerForm{cart.shop}
	form.visible(form.form(), "checkout-form")

	s.tabTo(`el => el.name === "name"`, "the name input")
	c := validCustomer()
	for i, f := range []struct{ name, value string }{{"name", c.Name}, {"document", c.Document}, {"email", c.Email}, {"phone", c.Phone}} {
		if i > 0 {
			s.press("Tab")
		}
		if got := s.eval(s.page, `() => document.activeElement.name`); got != f.name {
			t.Fatalf("Tab order: focus on %v, want %s", got, f.name)
		}
		s.focusVisible(f.name)
		s.check(s.page.Keyboard().Type(f.value), "type "+f.name)
	}
	s.shot("form-by-keyboard")
	s.press("Enter") // submits the form from its last input
	pixPage{form.shop}.waitActive()
	s.shot("pix")
}

// press presses key on the main page.
func (s *session) press(key string) {
	s.t.Helper()
	s.check(s.page.Keyboard().Press(key), "press "+key)
}

// tabTo presses Tab until the focused element satisfies the JavaScript predicate pred.
func (s *session) tabTo(pred, what string) {
	s.t.Helper()
	for range 60 {
		s.press("Tab")
		if ok, _ := s.eval(s.page, "() => ("+pred+")(document.activeElement)").(bool); ok {
			return
		}
	}
	s.t.Fatalf("Tab never reached %s", what)
}

// focusVisible fails the test when the focused element shows no focus indicator (an outline or
// a box shadow).
func (s *session) focusVisible(what string) {
	s.t.Helper()
	v := s.eval(s.page, `() => {
		const st = getComputedStyle(document.activeElement);
		const outline = st.outlineStyle !== "none" && parseFloat(st.outlineWidth) > 0;
		return outline || st.boxShadow !== "none";
	}`)
	if v != true {
		s.t.Errorf("no visible focus on %s", what)
	}
}

// jsString quotes s as a JavaScript string literal (a JSON string is one).
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
