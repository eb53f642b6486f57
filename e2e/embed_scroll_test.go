package e2e

import (
	"html/template"
	"net/http"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"
)

// tallHostTemplate is a merchant's page as phones show it: a long introduction above the
// checkout and more content below, so that the frame's top is far above the screen once the
// shopper has scrolled down to the form's button. Mode "option" mounts with
// {scrollIntoView: false}, "attribute" opts out with the data attribute of an auto-mounted
// element, anything else mounts with the defaults. Every event goes to window.pixEvents and
// "paid" is prevented, so that the page stays to be looked at. Scroll anchoring is off: it
// moves the scroll when the frame's height changes, which would hide what embed.js did or did
// not do.
var tallHostTemplate = template.Must(template.New("tall").Parse(`<!DOCTYPE html>
<html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Loja parceira</title><style>body { overflow-anchor: none; } .filler { height: 900px; }</style></head>
<body><h1>Loja parceira</h1>
<p class="filler">Nossa história, fotos do produto, avaliações…</p>
{{if eq .Mode "attribute"}}<div id="pix" data-pix-checkout="{{.Session}}" data-pix-scroll-into-view="false"></div>
{{else}}<div id="pix"></div>{{end}}
<p class="filler">Perguntas frequentes, rodapé…</p>
<script>
window.pixEvents = [];
function record(e) {
  var c = {};
  for (var k in e) { if (typeof e[k] !== "function") { c[k] = e[k]; } }
  c.scrollY = window.scrollY;
  window.pixEvents.push(c);
  if (e.type === "paid") { e.preventDefault(); }
}
</script>
<script src="{{.Checkout}}/embed.js"></script>
<script>
{{if eq .Mode "attribute"}}
["ready", "resize", "status", "paid", "expired", "closed"].forEach(function (t) {
  document.getElementById("pix").addEventListener("pixcheckout:" + t, function (e) { record(e.detail); });
});
{{else}}
PixCheckout.mount("#pix", {session: {{.Session}}, scrollIntoView: {{if eq .Mode "option"}}false{{else}}undefined{{end}}, onEvent: record});
{{end}}
</script>
</body></html>`))

// serveTall answers /tall?mode=…: a new session mounted in tallHostTemplate.
func (m *merchantSite) serveTall(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_ = tallHostTemplate.Execute(w, map[string]string{"Checkout": m.app.url,
		"Session": m.createSession(m.origin()).URL, "Mode": r.URL.Query().Get("mode")})
}

// frameTop is the top of the mounted iframe in the page's viewport, in CSS pixels.
const frameTop = `() => document.querySelector("#pix iframe").getBoundingClientRect().top`

// frameTopInView holds once the iframe's top is on the screen (to the CSS pixel: a scroll on a
// 2× screen stops on half pixels).
const frameTopInView = `() => { const t = document.querySelector("#pix iframe").getBoundingClientRect().top; return t > -1 && t < window.innerHeight; }`

// TestEmbeddedFrameComesIntoViewOnAPhone: on a 390×844 phone, a shopper who scrolled down the
// merchant's page to the form's button and placed the order sees the frame's top, with the
// amount and the copy button, without scrolling back up; the same after paying. A page that
// opts out (the mount option, or the data attribute) keeps its scroll exactly.
func TestEmbeddedFrameComesIntoViewOnAPhone(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"default", "option", "attribute"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			opts := phone()
			if mode != "default" {
				// A scroll that must not happen would be instant: when the page has heard
				// the new view, the scroll is decided.
				opts.ReducedMotion = playwright.ReducedMotionReduce
			}
			a, s := setup(t, appOptions{host: "localhost", env: map[string]string{"CHECKOUT_MERCHANT_API_KEY": testAPIKey}}, opts)
			site := newMerchantSite(t, a)
			// shown checks the page after the frame's view changed (the page heard it as
			// heard): the frame's top is on the screen, or, opted out, the scroll is before.
			shown := func(before int, heard map[string]any, after string) {
				t.Helper()
				if mode == "default" {
					s.waitFrameTopInView(after)
				} else {
					s.sameScroll(before, heard, after)
				}
			}
			s.open(site.origin() + "/tall?mode=" + mode)
			s.waitEvent(`e.type === "ready" && e.view === "form"`, 1, "ready on the form")

			frame := shopInFrame(s, "#pix iframe")
			form := customerForm{frame}
			frame.visible(form.form(), "the form in the frame")
			form.fillCustomer(validCustomer())
			place := form.testID("place-order")
			s.check(place.ScrollIntoViewIfNeeded(), "scroll down to the form's button")
			before := s.scrolledAway("before placing the order")
			s.check(place.Click(), "place the order")
			pix := pixPage{frame}
			pix.waitActive()
			heard := s.waitEvent(`e.type === "ready" && e.view === "pix"`, 1, "ready on the PIX page")
			shown(before, heard, "the PIX page")
			if mode == "default" {
				for _, id := range []string{"amount", "copy-code"} {
					box, err := pix.testID(id).BoundingBox()
					s.check(err, id+" box")
					if box == nil || box.Y < 0 || box.Y+box.Height > 844 {
						t.Errorf("the frame's %s is off the 844 px screen: %+v", id, box)
					}
				}
			}
			s.shot("pix")

			// The QR code expires while the shopper is further down: the expired message
			// comes into view; so does the new QR code asked for from there.
			s.scrollPastFrameTop()
			s.scrolledAway("before the expiry")
			a.clock.Advance(pix.remaining() + time.Minute)
			s.waitEvent(`e.type === "expired"`, 1, "expired")
			frame.visible(pix.newQR(), "new-qr")
			// Opted out or not, the page scrolls here: the expired message takes the focus, and
			// the browser brings a focused element into view.
			if mode == "default" {
				s.waitFrameTopInView("the expiry")
			}
			s.shot("expired")
			s.scrollPastFrameTop()
			before = s.scrolledAway("before asking for a new QR code")
			s.clickFromScript(pix.newQR().GetByRole("button"), "new-qr")
			pix.waitActive()
			heard = s.waitEvent(`e.type === "ready" && e.view === "pix"`, 2, "ready on the new PIX page")
			shown(before, heard, "the new QR code")

			// Paying from further down: the receipt's top comes into view too.
			s.scrollPastFrameTop()
			before = s.scrolledAway("before paying")
			s.clickFromScript(pix.payButton(), "sandbox-pay")
			pix.waitPaid()
			heard = s.waitEvent(`e.type === "ready" && e.view === "paid"`, 1, "ready on the receipt")
			shown(before, heard, "the receipt")
			s.shot("paid")
		})
	}
}

// scrollPastFrameTop scrolls the page until the frame's top is 400 px above the screen.
func (s *session) scrollPastFrameTop() {
	s.t.Helper()
	s.eval(s.page, `() => window.scrollBy(0, document.querySelector("#pix iframe").getBoundingClientRect().top + 400)`)
}

// clickFromScript clicks l from script, where the page is: Playwright's own click would first
// scroll l into view.
func (s *session) clickFromScript(l playwright.Locator, what string) {
	s.t.Helper()
	_, err := l.Evaluate(`(el) => el.click()`, nil)
	s.check(err, "click "+what)
}

// waitEvent waits until the host page recorded the nth event e (from 1) for which cond
// (JavaScript) holds, and returns it.
func (s *session) waitEvent(cond string, nth int, what string) map[string]any {
	s.t.Helper()
	h, err := s.page.WaitForFunction(`(n) => window.pixEvents && window.pixEvents.filter((e) => `+cond+`)[n - 1]`, nth)
	s.check(err, what)
	v, err := h.JSONValue()
	s.check(err, what)
	e, _ := v.(map[string]any)
	return e
}

// scrolledAway checks that the frame's top is above the screen, and returns the page's scroll.
func (s *session) scrolledAway(when string) int {
	s.t.Helper()
	if top := toFloat(s.eval(s.page, frameTop)); top > -1 {
		s.t.Fatalf("%s the frame's top is on the screen (y=%.0f): the test shows nothing", when, top)
	}
	return toInt(s.eval(s.page, `() => window.scrollY`))
}

// waitFrameTopInView waits until the frame's top is on the screen (a smooth scroll takes a
// moment).
func (s *session) waitFrameTopInView(after string) {
	s.t.Helper()
	if _, err := s.page.WaitForFunction(frameTopInView, nil); err != nil {
		s.t.Fatalf("after %s the frame's top stays off the screen (y=%v): %v", after, s.eval(s.page, frameTop), err)
	}
}

// sameScroll fails the test when the page's scroll moved from before, as the page saw it when
// it heard the new view (heard) and now.
func (s *session) sameScroll(before int, heard map[string]any, after string) {
	s.t.Helper()
	now := toInt(s.eval(s.page, `() => window.scrollY`))
	if at := toInt(heard["scrollY"]); at != before || now != before {
		s.t.Errorf("the page opted out, yet after %s its scroll moved from %d to %d (then %d)", after, before, at, now)
	}
}
