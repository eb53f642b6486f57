package e2e

import (
	"strings"
	"testing"

	"github.com/playwright-community/playwright-go"

	"github.com/pixcheckout/pixcheckout/checkout/brand"
)

// TestStorePreview: on the "Loja" page a merchant types a name and a colour and asks for the
// preview: the PIX page and the paid page show them inside their phone-sized frames (the
// colour through the generated stylesheet: the pages' --primary is the readable shade of the
// colour typed), nothing is saved, and the page and both previews pass axe with nothing
// sideways at both sizes.
func TestStorePreview(t *testing.T) {
	for _, vp := range []playwright.Size{{Width: 1280, Height: 800}, {Width: 390, Height: 844}} {
		t.Run(itoa(vp.Width), func(t *testing.T) {
			t.Parallel()
			phone := vp.Width < 600
			a, s := setup(t, appOptions{}, playwright.BrowserNewContextOptions{Viewport: &vp,
				IsMobile: playwright.Bool(phone), HasTouch: playwright.Bool(phone)})
			a.addMerchant(t)
			d := dashboardOf(s, a)
			d.login(merchantEmail, merchantPassword)
			s.open(a.url + "/dashboard/store")
			s.a11y(s.page, "store")
			s.noHorizontalScroll(s.page, "store")

			form := d.testID("store-form")
			s.check(form.Locator("#st-name").Fill("Empório Prévia"), "type the name")
			s.check(d.testID("no_brand_color").SetChecked(false), "a colour of its own")
			s.check(form.Locator("#st-brand_color").Fill("#ffff00"), "choose yellow")
			s.check(d.testID("store-preview-submit").Click(), "preview")
			s.check(s.expect.Locator(d.testID("notice")).ToBeVisible(), "the preview's notice")
			s.a11y(s.page, "store, previewing")
			s.noHorizontalScroll(s.page, "store, previewing")

			want := brand.Profile{BrandColor: "#ffff00"}.Palette()[0].Primary
			for _, frame := range []string{"preview-pix", "preview-paid"} {
				s.check(d.testID(frame).ScrollIntoViewIfNeeded(), "scroll to "+frame)
				inner := s.page.FrameLocator(`[data-testid="` + frame + `"]`)
				s.check(s.expect.Locator(inner.Locator("header")).ToContainText("Empório Prévia"), frame+" shows the name typed")
				// The header can be drawn before the frame's stylesheets have loaded: the colour is
				// read once every one of them has.
				primary, err := inner.Locator("html").Evaluate(`async el => {
					await Promise.all([...el.ownerDocument.querySelectorAll('link[rel="stylesheet"]')].map(l =>
						l.sheet ? null : new Promise(done => { l.addEventListener("load", done); l.addEventListener("error", done); })));
					return getComputedStyle(el).getPropertyValue("--primary").trim();
				}`, nil)
				s.check(err, frame+"'s colour")
				if primary != want {
					t.Errorf("%s: --primary %v, want %s (the readable shade of #ffff00)", frame, primary, want)
				}
				src, err := d.testID(frame).GetAttribute("src")
				s.check(err, frame+"'s address")
				other, err := s.ctx.NewPage()
				s.check(err, "a page for "+frame)
				s.openIn(other, a.url+src)
				s.a11y(other, frame)
				s.noHorizontalScroll(other, frame)
				s.check(other.Close(), "close "+frame)
			}
			s.open(a.url + "/")
			if title, _ := s.page.Title(); strings.Contains(title, "Prévia") {
				t.Errorf("the preview saved the store: the shop's title is %q", title)
			}
		})
	}
}
