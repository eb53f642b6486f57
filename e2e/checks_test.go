package e2e

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"slices"
	"strings"
	"sync"

	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/qrcode"
	"github.com/playwright-community/playwright-go"
)

// a11yScript lists the accessibility problems a page must not have: a document language,
// a label for every input, alt text on every image, a name on every button and link, unique
// ids (labels and aria references point at them).
const a11yScript = `() => {
  const problems = [];
  if (!document.documentElement.lang) problems.push("html without lang");
  for (const el of document.querySelectorAll("input, select, textarea")) {
    if (el.type === "hidden") continue;
    const named = (el.labels && el.labels.length > 0) || el.getAttribute("aria-label") || el.getAttribute("aria-labelledby");
    if (!named) problems.push("no label for " + el.tagName.toLowerCase() + " " + (el.name || el.id));
  }
  for (const img of document.querySelectorAll("img")) {
    if (!img.hasAttribute("alt")) problems.push("no alt on img " + img.getAttribute("src"));
  }
  for (const el of document.querySelectorAll("button, a[href]")) {
    const text = el.textContent.trim() || el.getAttribute("aria-label") || (el.querySelector("img[alt]:not([alt=''])") ? "img" : "");
    if (!text) problems.push("no accessible name on " + el.tagName.toLowerCase() + " " + el.outerHTML.slice(0, 80));
  }
  const seen = new Set();
  for (const el of document.querySelectorAll("[id]")) {
    if (seen.has(el.id)) problems.push("duplicate id " + el.id);
    seen.add(el.id);
  }
  return problems;
}`

// autocompleteScript lists the autocomplete attributes whose autofill field name HTML does not
// allow on their control, as the W3C Nu checker reads the HTML standard: "tel-national" on a
// type=tel input, say. on and off go anywhere but on hidden inputs.
const autocompleteScript = `() => {
  const all = ("name honorific-prefix given-name additional-name family-name honorific-suffix nickname " +
    "organization-title username new-password current-password one-time-code organization street-address " +
    "address-line1 address-line2 address-line3 address-level4 address-level3 address-level2 address-level1 " +
    "country country-name postal-code cc-name cc-given-name cc-additional-name cc-family-name cc-number cc-exp " +
    "cc-exp-month cc-exp-year cc-csc cc-type transaction-currency transaction-amount language bday bday-day " +
    "bday-month bday-year sex url photo tel tel-country-code tel-national tel-area-code tel-local " +
    "tel-local-prefix tel-local-suffix tel-extension email impp").split(" ");
  const text = all.filter((n) => n !== "street-address");
  const byType = { hidden: all, text: text, search: text, password: ["new-password", "current-password", "one-time-code"],
    url: ["url", "photo", "impp"], email: ["email", "username"], tel: ["tel"],
    number: ["cc-exp-month", "cc-exp-year", "transaction-amount", "bday-day", "bday-month", "bday-year"],
    month: ["cc-exp"], date: ["bday"] };
  const problems = [];
  for (const el of document.querySelectorAll("input[autocomplete], select[autocomplete], textarea[autocomplete]")) {
    const value = el.getAttribute("autocomplete").trim().toLowerCase();
    const input = el.tagName === "INPUT";
    let ok;
    if (value === "on" || value === "off") {
      ok = !(input && el.type === "hidden");
    } else {
      const tokens = value.split(/\s+/).filter((t) => t !== "webauthn");
      ok = (input ? byType[el.type] || [] : all).includes(tokens[tokens.length - 1]);
    }
    if (!ok) problems.push("autocomplete=\"" + value + "\" on " + el.tagName.toLowerCase() +
      (input ? " type=" + el.type : "") + " " + (el.name || el.id));
  }
  return problems;
}`

// axeRun runs axe-core's WCAG 2.x A and AA rules (2.2 included) on the page, and lists each
// violation with the elements it was found on. The page's own CSP forbids inline scripts, so
// axe's source is evaluated through the driver, which CSP does not govern.
const axeRun = `async () => {
  const r = await axe.run(document, {
    runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"] },
    resultTypes: ["violations"],
  });
  return r.violations.map(v => v.id + " (" + v.impact + "): " + v.help + " — " +
    v.nodes.slice(0, 5).map(n => n.target.join(" ")).join(", "));
}`

// a11y fails the test when page p has any of the problems a11yScript and autocompleteScript
// look for, or any violation of axe-core's WCAG A and AA rules.
func (s *session) a11y(p playwright.Page, where string) {
	s.t.Helper()
	for _, check := range []func() any{
		func() any { return s.eval(p, a11yScript) },
		func() any { return s.eval(p, autocompleteScript) },
		func() any {
			s.loadAxe(p, where)
			return s.eval(p, axeRun)
		},
	} {
		v := check()
		list, ok := v.([]any)
		if !ok {
			s.t.Fatalf("a11y check on %s: unexpected result %#v", where, v)
		}
		for _, problem := range list {
			s.t.Errorf("accessibility, %s page: %v", where, problem)
		}
	}
}

// loadAxe makes axe-core available in page p. Its source is 650 kB, and a page checked twice
// (before and after opening its disclosures, say) still has it from the first check.
func (s *session) loadAxe(p playwright.Page, where string) {
	s.t.Helper()
	if s.eval(p, `() => typeof axe`) == "object" {
		return
	}
	if _, err := p.Evaluate(suite.axe); err != nil {
		s.t.Fatalf("loading axe-core in the %s page: %v", where, err)
	}
}

// imageLoaded waits until the image l points at has loaded its picture (its source may change
// after it is shown).
func (s *session) imageLoaded(l playwright.Locator, what string) {
	s.t.Helper()
	el, err := l.ElementHandle()
	s.check(err, what)
	p, err := l.Page()
	s.check(err, what)
	_, err = p.WaitForFunction(`(img) => img.complete && img.naturalWidth > 0`, el, playwright.PageWaitForFunctionOptions{Timeout: ms(expectTimeout)})
	s.check(err, what+" loaded")
}

// noHorizontalScroll fails the test when page p's document is wider than p's viewport as the
// test set it (390 for a phone). window.innerWidth cannot serve: with IsMobile, Chromium widens
// the layout viewport to the content, so a page too wide for the phone still "fits" it.
func (s *session) noHorizontalScroll(p playwright.Page, where string) {
	s.t.Helper()
	vp := p.ViewportSize()
	if vp == nil || vp.Width <= 0 {
		s.t.Fatalf("%s: the page has no fixed viewport", where)
	}
	scroll := toInt(s.eval(p, `() => document.documentElement.scrollWidth`))
	if scroll > vp.Width {
		s.t.Errorf("%s page scrolls sideways: scrollWidth %d > viewport %d", where, scroll, vp.Width)
	}
}

// toInt converts a number from Evaluate (int or float64) to int.
func toInt(v any) int {
	switch n := v.(type) {
	case int:
		return n
	case int64:
		return int(n)
	case float64:
		return int(n)
	}
	return -1
}

// navigations records the URLs page p navigates its main frame to, from now on.
type navigations struct {
	mu   sync.Mutex
	urls []string
}

func watchNavigations(p playwright.Page) *navigations {
	n := &navigations{}
	p.OnRequest(func(r playwright.Request) {
		if r.IsNavigationRequest() && r.Frame().ParentFrame() == nil {
			n.mu.Lock()
			n.urls = append(n.urls, r.Method()+" "+r.URL())
			n.mu.Unlock()
		}
	})
	return n
}

// list returns the navigations seen so far, as "METHOD URL".
func (n *navigations) list() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]string(nil), n.urls...)
}

// count returns how many recorded navigations are one of want ("GET http://…"), ignoring
// the query string.
func (n *navigations) count(want ...string) int {
	c := 0
	for _, u := range n.list() {
		u, _, _ = strings.Cut(u, "?")
		if slices.Contains(want, u) {
			c++
		}
	}
	return c
}

// decodeQR reads the text of the QR code in a PNG image.
func decodeQR(pngBytes []byte) (string, error) {
	img, err := png.Decode(bytes.NewReader(pngBytes))
	if err != nil {
		return "", fmt.Errorf("decoding the PNG: %w", err)
	}
	return decodeQRImage(img)
}

func decodeQRImage(img image.Image) (string, error) {
	bmp, err := gozxing.NewBinaryBitmapFromImage(img)
	if err != nil {
		return "", fmt.Errorf("binarising the image: %w", err)
	}
	// The served PNG is the bare symbol: PURE_BARCODE reads its modules directly (the general
	// detector misreads about 2% of such small images). A screenshot holds more than the
	// symbol, so it falls back to the general detector.
	res, err := qrcode.NewQRCodeReader().Decode(bmp, map[gozxing.DecodeHintType]any{gozxing.DecodeHintType_PURE_BARCODE: true})
	if err != nil {
		res, err = qrcode.NewQRCodeReader().Decode(bmp, map[gozxing.DecodeHintType]any{gozxing.DecodeHintType_TRY_HARDER: true})
	}
	if err != nil {
		return "", fmt.Errorf("reading the QR code: %w", err)
	}
	return res.GetText(), nil
}

// shownQR is where the bitmap of a QR img element lies in a screenshot of that element, in
// screenshot pixels (the content box: inside its border and padding), as qrLayoutScript
// measures it.
type shownQR struct {
	Left, Top, Width, Height float64
}

// qrLayoutScript measures a QR img element for shownQR.
const qrLayoutScript = `(el) => {
  const cs = getComputedStyle(el), r = el.getBoundingClientRect(), px = (v) => parseFloat(v) || 0;
  const dpr = window.devicePixelRatio;
  const left = px(cs.borderLeftWidth) + px(cs.paddingLeft), top = px(cs.borderTopWidth) + px(cs.paddingTop);
  return {
    Left: left * dpr, Top: top * dpr,
    Width: (r.width - left - px(cs.paddingRight) - px(cs.borderRightWidth)) * dpr,
    Height: (r.height - top - px(cs.paddingBottom) - px(cs.borderBottomWidth)) * dpr,
  };
}`

// decodeShownQR reads the QR code of shot, a screenshot of an img element showing served (the
// PNG the server sent) laid out as at. The general detector misreads about 1 % of such
// screenshots (a symbol scaled by a fraction has modules of uneven widths), so the screenshot is
// first read back module by module: the served bitmap has a quiet zone of four modules, which
// gives the module's size, and the colour at the centre of each module as shown (at least four
// screen pixels wide at the test's viewport) rebuilds the symbol as the shopper sees it, which
// PURE_BARCODE reads exactly. A wrong scale, crop, rotation or colour still fails that read; the
// general detector is the fallback, and the error names both.
func decodeShownQR(shot, served []byte, at shownQR) (string, error) {
	src, err := png.Decode(bytes.NewReader(served))
	if err != nil {
		return "", fmt.Errorf("decoding the served PNG: %w", err)
	}
	screen, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		return "", fmt.Errorf("decoding the screenshot: %w", err)
	}
	natural := src.Bounds().Dx()
	module := firstDarkX(src) / 4
	if module <= 0 || natural%module != 0 {
		return "", fmt.Errorf("served PNG: no quiet zone of four modules (first dark pixel at x=%d, width %d)", firstDarkX(src), natural)
	}
	n := natural / module
	const out = 4 // pixels per module of the rebuilt symbol
	rebuilt := image.NewGray(image.Rect(0, 0, n*out, n*out))
	sx, sy := at.Width/float64(n), at.Height/float64(n)
	b := screen.Bounds()
	for j := 0; j < n; j++ {
		for i := 0; i < n; i++ {
			x := b.Min.X + int(at.Left+(float64(i)+0.5)*sx)
			y := b.Min.Y + int(at.Top+(float64(j)+0.5)*sy)
			c := color.GrayModel.Convert(screen.At(x, y)).(color.Gray)
			for dy := 0; dy < out; dy++ {
				for dx := 0; dx < out; dx++ {
					rebuilt.SetGray(i*out+dx, j*out+dy, c)
				}
			}
		}
	}
	text, errModules := decodeQRImage(rebuilt)
	if errModules == nil {
		return text, nil
	}
	text, errGeneral := decodeQRImage(screen)
	if errGeneral == nil {
		return text, nil
	}
	return "", fmt.Errorf("module by module: %w; general detector: %w", errModules, errGeneral)
}

// firstDarkX returns the x of the leftmost dark pixel of img (-1 if none).
func firstDarkX(img image.Image) int {
	b := img.Bounds()
	for x := b.Min.X; x < b.Max.X; x++ {
		for y := b.Min.Y; y < b.Max.Y; y++ {
			if color.GrayModel.Convert(img.At(x, y)).(color.Gray).Y < 128 {
				return x - b.Min.X
			}
		}
	}
	return -1
}
