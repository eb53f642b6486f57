package e2e

import (
	"html/template"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/playwright-community/playwright-go"
)

// hostPage is a merchant's page embedding the checkout.
var hostPage = template.Must(template.New("host").Parse(`<!DOCTYPE html>
<html lang="pt-BR"><head><meta charset="utf-8"><title>Loja parceira</title></head>
<body><h1>Loja parceira</h1>
<iframe id="checkout" title="Checkout PIX" src="{{.}}/" width="420" height="1300" style="border:1px solid #ccc"></iframe>
</body></html>`))

// The checkout inside a merchant's iframe on another site (page on 127.0.0.1, checkout on
// localhost), with third-party cookies blocked: the flow still reaches paid, and the test shows
// the block is real (a cookie the framed checkout sets never comes back to it, while the same
// cookie at the top level does).
func TestCheckoutInCrossSiteIframe(t *testing.T) {
	t.Parallel()
	var checkoutURL atomic.Pointer[string]
	host := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_ = hostPage.Execute(w, *checkoutURL.Load())
	}))
	t.Cleanup(host.Close)

	rec := &cookieRecorder{}
	// In front of the checkout: record the cookies each request brings, and have the
	// catalogue page set a cookie as permissive as a cookie can be across sites.
	front := func(next http.Handler) http.Handler {
		return rec.wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/" {
				w.Header().Add("Set-Cookie", probeCookie+"=set-by-checkout; SameSite=None; Secure; Path=/")
			}
			next.ServeHTTP(w, r)
		}))
	}
	a, s := setup(t, appOptions{host: "localhost", frameAncestors: []string{host.URL}, front: front},
		// Tall enough for the whole iframe: Chromium paints only the visible part of a frame,
		// so a full-page screenshot of a shorter viewport shows the rest blank.
		playwright.BrowserNewContextOptions{Viewport: &playwright.Size{Width: 1280, Height: 1400}})
	checkoutURL.Store(&a.url)
	if !strings.HasPrefix(host.URL, "http://127.0.0.1:") || !strings.HasPrefix(a.url, "http://localhost:") {
		t.Fatalf("host %s and checkout %s are not on different sites", host.URL, a.url)
	}

	blocked := watchBlockedCookies(t, s)
	s.open(host.URL + "/")
	h := shopInFrame(s, "iframe#checkout")
	cat := h.catalogue()
	s.shot("host-with-catalogue")

	// The cookie the checkout's response set in the frame was refused as a third-party cookie
	// (and not for some other reason, such as a missing Secure flag).
	reasons := blocked.reasons(probeCookie)
	t.Logf("the framed checkout's cookie was refused: %q", reasons)
	if !slices.ContainsFunc(reasons, thirdPartyBlock) {
		t.Errorf("the framed checkout's cookie was not refused as a third-party cookie (reasons %q)", reasons)
	}
	// A cookie the framed page sets by script is dropped too.
	frame := checkoutFrame(t, s, a.url)
	got, err := frame.Evaluate(`() => { document.cookie = "script_probe=framed; SameSite=None; Secure; Path=/"; return document.cookie; }`)
	s.check(err, "set a cookie in the frame")
	if strings.Contains(got.(string), "probe") {
		t.Errorf("the framed checkout kept a cookie (%q): third-party cookies are not blocked", got)
	}

	form := cat.add(digitalProduct).checkout()
	s.shot("host-with-form")
	form.fillCustomer(validCustomer())
	pix := form.placeOrder()
	s.check(s.expect.Locator(pix.testID("amount")).ToHaveText(regexp.MustCompile(`^R\$\s29,90$`)), "amount in the frame")
	s.shot("host-with-pix")
	s.check(pix.payButton().Click(), "sandbox-pay in the frame")
	pix.waitPaid()
	s.shot("host-with-paid")

	framed := rec.all()
	if len(framed) < 5 {
		t.Fatalf("only %d requests reached the checkout from the frame", len(framed))
	}
	for _, r := range framed {
		if r.cookie != "" {
			t.Errorf("the framed checkout sent a cookie: %s %s Cookie: %s", r.method, r.path, r.cookie)
		}
	}

	// Control: the same cookies at the top level are kept and sent back, so the silence above
	// is the third-party block, not cookies the browser would refuse anyway.
	top := s.newPage()
	s.openIn(top, a.url+"/")
	got, err = top.Evaluate(`() => { document.cookie = "script_probe=top; SameSite=None; Secure; Path=/"; return document.cookie; }`)
	s.check(err, "set a cookie at the top level")
	if !strings.Contains(got.(string), "script_probe=top") {
		t.Fatalf("the top-level checkout could not set a cookie by script: %q", got)
	}
	s.openIn(top, a.url+"/healthz")
	hz := rec.requests("/healthz")
	if len(hz) != 1 || !strings.Contains(hz[0].cookie, probeCookie+"=set-by-checkout") || !strings.Contains(hz[0].cookie, "script_probe=top") {
		t.Errorf("the top-level request did not carry both probe cookies: %+v", hz)
	}
}

// probeCookie is the name of the cookie the checkout's catalogue page sets in the iframe test.
const probeCookie = "probe"

// thirdPartyBlock tells whether a CDP cookie blocked reason is the third-party cookie block:
// the user's setting (how Chromium reports its "block third-party cookies" preference) or the
// third-party cookie phase-out.
func thirdPartyBlock(reason string) bool {
	switch reason {
	case "UserPreferences", "ThirdPartyPhaseout", "ThirdPartyBlockedInFirstPartySet":
		return true
	}
	return false
}

// blockedCookies collects, from the Chrome DevTools Protocol, the Set-Cookie lines the browser
// refused and why.
type blockedCookies struct {
	mu   sync.Mutex
	seen map[string][]string // cookie name -> blocked reasons
}

// watchBlockedCookies starts collecting the refused cookies of the session's main page (and its
// frames).
func watchBlockedCookies(t *testing.T, s *session) *blockedCookies {
	t.Helper()
	b := &blockedCookies{seen: map[string][]string{}}
	cdp, err := s.ctx.NewCDPSession(s.page)
	s.check(err, "CDP session")
	cdp.On("Network.responseReceivedExtraInfo", func(ev map[string]any) {
		list, _ := ev["blockedCookies"].([]any)
		for _, item := range list {
			c, _ := item.(map[string]any)
			line, _ := c["cookieLine"].(string)
			name, _, _ := strings.Cut(line, "=")
			rs, _ := c["blockedReasons"].([]any)
			b.mu.Lock()
			for _, r := range rs {
				if r, ok := r.(string); ok {
					b.seen[name] = append(b.seen[name], r)
				}
			}
			b.mu.Unlock()
		}
	})
	_, err = cdp.Send("Network.enable", nil)
	s.check(err, "CDP Network.enable")
	return b
}

// reasons returns why the browser refused cookies named name.
func (b *blockedCookies) reasons(name string) []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.seen[name]...)
}

// checkoutFrame returns the frame of the main page showing the checkout at url.
func checkoutFrame(t *testing.T, s *session, url string) playwright.Frame {
	t.Helper()
	for _, f := range s.page.Frames() {
		if strings.HasPrefix(f.URL(), url+"/") {
			return f
		}
	}
	t.Fatalf("no frame at %s among %d frames", url, len(s.page.Frames()))
	return nil
}
