package e2e

import (
	"bytes"
	"fmt"
	"image"
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

// a11y fails the test when page p has any of the problems a11yScript looks for, or any
// violation of axe-core's WCAG A and AA rules.
func (s *session) a11y(p playwright.Page, where string) {
	s.t.Helper()
	for _, check := range []func() any{
		func() any { return s.eval(p, a11yScript) },
		func() any {
			if _, err := p.Evaluate(suite.axe); err != nil {
				s.t.Fatalf("loading axe-core in the %s page: %v", where, err)
			}
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

// noHorizontalScroll fails the test when page p is wider than its viewport.
func (s *session) noHorizontalScroll(p playwright.Page, where string) {
	s.t.Helper()
	v := s.eval(p, `() => [document.documentElement.scrollWidth, window.innerWidth]`)
	w, ok := v.([]any)
	if !ok || len(w) != 2 {
		s.t.Fatalf("%s: unexpected widths %#v", where, v)
	}
	scroll, inner := toInt(w[0]), toInt(w[1])
	if scroll > inner {
		s.t.Errorf("%s page scrolls sideways: scrollWidth %d > viewport %d", where, scroll, inner)
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
