package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"

	"github.com/pixcheckout/pixcheckout/gatewayclient/webhook"
	"github.com/pixcheckout/pixcheckout/web/apijson"
	"github.com/pixcheckout/pixcheckout/web/apitest"
)

// The merchant's side in a real browser: a merchant's site on another site than the checkout
// (127.0.0.1 against localhost) whose server creates checkout sessions through the API and
// whose page mounts them with embed.js, as the README tells merchants to.

// testAPIKey is the app's CHECKOUT_MERCHANT_API_KEY in these tests.
const testAPIKey = "e2e-merchant-api-key-0123456789abcdef"

// testNotificationSecret signs the merchant notifications in these tests.
const testNotificationSecret = "whsec_ZTJlLW1lcmNoYW50LW5vdGlmaWNhdGlvbnMtc2VjcmV0IQ=="

// merchantSite is a merchant's site: its server talks to the checkout's API, its pages mount
// sessions with embed.js and tell the test every event (window.recordEvent, when exposed, and
// window.pixEvents).
type merchantSite struct {
	t   *testing.T
	app *testApp
	srv *httptest.Server
}

// hostTemplate is the merchant's page. Session is mounted; Extra, when set, is another
// session shown in a plain iframe that embed.js does not manage. Besides the events, the page
// records what lets a test see that something did not happen: every message the window
// received (window.messages, recorded after embed.js's own listener has seen it), every
// navigation it started (window.navigations: the Navigation API's navigate event fires as the
// navigation starts, in the task that starts it) and the mounted iframe's load events
// (window.frameLoads, also fired for a frame the browser refused to show).
var hostTemplate = template.Must(template.New("host").Parse(`<!DOCTYPE html>
<html lang="pt-BR"><head><meta charset="utf-8"><title>Loja parceira</title></head>
<body><h1>Loja parceira</h1>
<div id="pix"></div>
{{if .Extra}}<iframe id="other" title="Outra sessão" src="{{.Extra}}" width="300" height="200"></iframe>{{end}}
<script src="{{.Checkout}}/embed.js"></script>
<script>
window.pixEvents = [];
window.messages = [];
window.navigations = [];
window.frameLoads = 0;
if (window.navigation) {
  navigation.addEventListener("navigate", function (e) { window.navigations.push(e.destination.url); });
}
var handle = PixCheckout.mount("#pix", {session: {{.Session}}, onEvent: function (e) {
  var c = {};
  for (var k in e) { if (typeof e[k] !== "function") { c[k] = e[k]; } }
  window.pixEvents.push(c);
  if (window.recordEvent) { window.recordEvent(c); }
  // ?keep=1: the page handles "closed" itself, so the cancelUrl must not open.
  if (e.type === "closed" && /[?&]keep=1/.test(location.search)) { e.preventDefault(); }
}});
handle.iframe.addEventListener("load", function () { window.frameLoads++; });
window.addEventListener("message", function (e) {
  var other = document.getElementById("other");
  window.messages.push({data: e.data, fromSelf: e.source === window,
    fromMounted: e.source === handle.iframe.contentWindow, fromOther: !!other && e.source === other.contentWindow});
});
</script>
</body></html>`))

func newMerchantSite(t *testing.T, a *testApp) *merchantSite {
	t.Helper()
	m := &merchantSite{t: t, app: a}
	m.srv = httptest.NewServer(http.HandlerFunc(m.serve))
	t.Cleanup(m.srv.Close)
	return m
}

// origin is the site's origin (http://127.0.0.1:port).
func (m *merchantSite) origin() string { return m.srv.URL }

// serve answers the site's pages: / makes a session for this origin and mounts it;
// /?session=URL mounts that session instead; &extra=URL adds another session's plain iframe;
// /tall?mode=… is a long page (serveTall); /thanks is the successUrl.
func (m *merchantSite) serve(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/":
		sessURL := r.URL.Query().Get("session")
		if sessURL == "" {
			sessURL = m.createSession(m.origin()).URL
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_ = hostTemplate.Execute(w, map[string]string{"Checkout": m.app.url, "Session": sessURL, "Extra": r.URL.Query().Get("extra")})
	case "/tall":
		m.serveTall(w, r)
	case "/cart":
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!DOCTYPE html><html lang="pt-BR"><head><meta charset="utf-8"><title>Carrinho</title></head><body><h1>Seu carrinho</h1></body></html>`)
	case "/thanks":
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!DOCTYPE html><html lang="pt-BR"><head><meta charset="utf-8"><title>Obrigado</title></head><body><h1>Obrigado!</h1></body></html>`)
	default:
		http.NotFound(w, r)
	}
}

// api calls the checkout's merchant API as the merchant's server does.
func (m *merchantSite) api(method, path string, body, out any) int {
	m.t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	ctx, cancel := context.WithTimeout(context.Background(), actionTimeout)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, method, m.app.app.URL()+"/api/v1"+path, rd)
	req.Header.Set("Authorization", "Bearer "+testAPIKey)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	// Every exchange is held to the API's description (openapi.json).
	res, err := (&http.Client{Transport: apitest.Transport(m.t, nil)}).Do(req)
	if err != nil {
		m.t.Errorf("%s %s: %v", method, path, err)
		return 0
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if out != nil && json.Unmarshal(b, out) != nil {
		m.t.Errorf("%s %s: %d %s", method, path, res.StatusCode, b)
	}
	return res.StatusCode
}

// createSession makes a session framed by embedOrigin: an e-book of the catalogue and an
// ad-hoc item, the customer's name and e-mail prefilled, the successUrl on this site.
func (m *merchantSite) createSession(embedOrigin string) apijson.CheckoutSession {
	m.t.Helper()
	var s apijson.CheckoutSession
	st := m.api("POST", "/checkout-sessions", map[string]any{
		"items": []any{map[string]any{"productId": "ebook-receitas-do-cerrado", "quantity": 1},
			map[string]any{"title": "Embalagem para presente", "unitPrice": 500, "type": "DIGITAL"}},
		"externalCode": "pedido-e2e", "embedOrigin": embedOrigin,
		"successUrl": m.origin() + "/thanks?s={CHECKOUT_SESSION_ID}", "cancelUrl": m.origin() + "/cart",
		"customer": map[string]any{"name": "Maria da Silva", "email": "maria@example.com.br"},
	}, &s)
	if st != http.StatusCreated {
		m.t.Fatalf("creating a session: HTTP %d %+v", st, s)
	}
	return s
}

// events records what the host page's onEvent received (through window.recordEvent).
type events struct {
	mu   sync.Mutex
	list []map[string]any
}

// record exposes window.recordEvent to every page of s's main tab, across navigations.
func recordEvents(s *session) *events {
	s.t.Helper()
	ev := &events{}
	s.check(s.page.ExposeFunction("recordEvent", func(args ...any) any {
		if len(args) == 1 {
			if m, ok := args[0].(map[string]any); ok {
				ev.mu.Lock()
				ev.list = append(ev.list, m)
				ev.mu.Unlock()
			}
		}
		return nil
	}), "expose recordEvent")
	return ev
}

func (ev *events) all() []map[string]any {
	ev.mu.Lock()
	defer ev.mu.Unlock()
	return append([]map[string]any(nil), ev.list...)
}

// wait waits for an event matching fn and returns it.
func (ev *events) wait(t *testing.T, what string, fn func(map[string]any) bool) map[string]any {
	t.Helper()
	deadline := time.Now().Add(expectTimeout)
	for time.Now().Before(deadline) {
		for _, e := range ev.all() {
			if fn(e) {
				return e
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("no %s event; got %v", what, ev.all())
	return nil
}

func ofType(typ string) func(map[string]any) bool {
	return func(e map[string]any) bool { return e["type"] == typ }
}

// notificationReceiver is the merchant's notification endpoint: it answers 503 to its first
// `failures` requests and 204 afterwards, and verifies each signature with the secret.
type notificationReceiver struct {
	mu       sync.Mutex
	failures int
	got      []gotNotification
	srv      *httptest.Server
}

type gotNotification struct {
	id, typ, orderID string
	status           int
	verify           error
}

func newNotificationReceiver(t *testing.T, failures int) *notificationReceiver {
	rc := &notificationReceiver{failures: failures}
	rc.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var ev struct {
			Type string `json:"type"`
			Data struct {
				ID string `json:"id"`
			} `json:"data"`
		}
		_ = json.Unmarshal(body, &ev)
		rc.mu.Lock()
		status := http.StatusNoContent
		if len(rc.got) < rc.failures {
			status = http.StatusServiceUnavailable
		}
		rc.got = append(rc.got, gotNotification{id: r.Header.Get("webhook-id"), typ: ev.Type, orderID: ev.Data.ID, status: status,
			verify: (&webhook.Verifier{Secret: testNotificationSecret}).Verify(r.Header, body)})
		rc.mu.Unlock()
		w.WriteHeader(status)
	}))
	t.Cleanup(rc.srv.Close)
	return rc
}

// wait waits until n notifications arrived.
func (rc *notificationReceiver) wait(t *testing.T, n int) []gotNotification {
	t.Helper()
	deadline := time.Now().Add(expectTimeout)
	for {
		rc.mu.Lock()
		got := append([]gotNotification(nil), rc.got...)
		rc.mu.Unlock()
		if len(got) >= n {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d notifications arrived, want %d: %+v", len(got), n, got)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// checkFrameFits waits until the mounted iframe is as tall as its content, without an inner
// scroll bar, and returns that height.
func checkFrameFits(s *session, where string) int {
	s.t.Helper()
	var last string
	deadline := time.Now().Add(expectTimeout)
	for time.Now().Before(deadline) {
		outer := s.eval(s.page, `() => document.querySelector("#pix iframe").getBoundingClientRect().height`)
		inner, err := s.page.FrameLocator("#pix iframe").Locator("html").Evaluate(
			`(html) => [Math.ceil(html.getBoundingClientRect().height), html.scrollHeight, window.innerHeight]`, nil)
		if err == nil {
			v, _ := inner.([]any)
			if len(v) == 3 {
				content, scroll, viewport := toInt(v[0]), toInt(v[1]), toInt(v[2])
				frame := int(math.Round(toFloat(outer)))
				last = fmt.Sprintf("iframe %dpx, content %dpx, scrollHeight %d, viewport %d", frame, content, scroll, viewport)
				if content > 0 && abs(frame-content) <= 1 && scroll <= viewport+1 {
					s.t.Logf("%s: %s", where, last)
					return frame
				}
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	s.t.Fatalf("%s: the iframe does not fit its content: %s", where, last)
	return 0
}

func toFloat(v any) float64 {
	switch n := v.(type) {
	case float64:
		return n
	case int:
		return float64(n)
	}
	return 0
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// TestEmbeddedSessionPaidOnAMerchantSite: the merchant's server creates a session through the
// API; its page (another site, third-party cookies blocked) mounts it with embed.js; the
// iframe keeps the height of its content; the shopper pays inside it; the page hears paid with
// the order id, and the successUrl opens in the top window. Meanwhile the merchant's URL gets
// the signed notifications, the first only on its third attempt (it fails twice).
func TestEmbeddedSessionPaidOnAMerchantSite(t *testing.T) {
	t.Parallel()
	rc := newNotificationReceiver(t, 2)
	a, s := setup(t, appOptions{host: "localhost", env: map[string]string{
		"CHECKOUT_MERCHANT_API_KEY":        testAPIKey,
		"CHECKOUT_MERCHANT_WEBHOOK_URL":    rc.srv.URL + "/pix",
		"CHECKOUT_MERCHANT_WEBHOOK_SECRET": testNotificationSecret,
	}, notificationSchedule: []time.Duration{300 * time.Millisecond, 300 * time.Millisecond, time.Hour}},
		playwright.BrowserNewContextOptions{Viewport: &playwright.Size{Width: 1280, Height: 900}})
	site := newMerchantSite(t, a)
	if !strings.HasPrefix(site.origin(), "http://127.0.0.1:") || !strings.HasPrefix(a.url, "http://localhost:") {
		t.Fatalf("the merchant %s and the checkout %s are not on different sites", site.origin(), a.url)
	}
	ev := recordEvents(s)
	s.open(site.origin() + "/")

	ready := ev.wait(t, "ready", ofType("ready"))
	sessionID, _ := ready["sessionId"].(string)
	if sessionID == "" || ready["view"] != "form" || ready["status"] != "open" {
		t.Fatalf("ready event %v", ready)
	}
	frame := shopInFrame(s, "#pix iframe")
	form := customerForm{frame}
	frame.visible(form.form(), "the session's form in the frame")
	if v, _ := form.field("name").InputValue(); v != "Maria da Silva" {
		t.Errorf("the prefilled name is %q", v)
	}
	title, _ := s.page.Locator("#pix iframe").GetAttribute("title")
	allow, _ := s.page.Locator("#pix iframe").GetAttribute("allow")
	if title == "" || !strings.Contains(allow, "clipboard-write") {
		t.Errorf("iframe title %q, allow %q", title, allow)
	}
	// Third-party cookies are blocked in this frame.
	got, err := checkoutFrame(t, s, a.url).Evaluate(`() => { document.cookie = "probe=framed; SameSite=None; Secure; Path=/"; return document.cookie; }`)
	s.check(err, "set a cookie in the frame")
	if strings.Contains(got.(string), "probe") {
		t.Errorf("the framed checkout kept a cookie (%q): third-party cookies are not blocked", got)
	}
	formHeight := checkFrameFits(s, "form")
	s.shot("merchant-site-form")

	form.fillCustomer(validCustomer())
	pix := form.placeOrder()
	pixHeight := checkFrameFits(s, "PIX page")
	if formHeight == pixHeight {
		t.Logf("the form and the PIX page have the same height (%dpx)", formHeight)
	}
	s.shot("merchant-site-pix")
	var sess apijson.CheckoutSession
	site.api("GET", "/checkout-sessions/"+sessionID, nil, &sess)
	if sess.Status != "awaiting_payment" || sess.OrderID == "" {
		t.Fatalf("the session as the API shows it: %+v", sess)
	}

	s.check(pix.payButton().Click(), "sandbox-pay in the frame")
	paid := ev.wait(t, "paid", ofType("paid"))
	if paid["orderId"] != sess.OrderID || paid["sessionId"] != sessionID || paid["status"] != "paid" {
		t.Errorf("paid event %v; want order %s of session %s", paid, sess.OrderID, sessionID)
	}
	// embed.js opens the successUrl in the top window (the frame never navigates it).
	s.check(s.expect.Page(s.page).ToHaveURL(regexp.MustCompile(regexp.QuoteMeta(site.origin()+"/thanks?s="+sessionID)+"$")), "successUrl in the top window")
	s.shot("merchant-site-thanks")

	var types []string
	for _, e := range ev.all() {
		if e["type"] != "resize" && (len(types) == 0 || types[len(types)-1] != e["type"]) {
			types = append(types, e["type"].(string))
		}
		if e["type"] == "resize" && toFloat(e["height"]) <= 0 {
			t.Errorf("resize without a height: %v", e)
		}
	}
	t.Logf("events: %v", types)
	if n := strings.Count(strings.Join(types, ","), "paid"); n != 1 {
		t.Errorf("paid heard %d times: %v", n, types)
	}

	// The merchant's server was told: signed, in order, the first notification on its third
	// attempt.
	ns := rc.wait(t, 4)
	var seen []string
	for _, n := range ns {
		if n.verify != nil {
			t.Errorf("notification %s does not verify with the secret: %v", n.id, n.verify)
		}
		seen = append(seen, n.typ)
	}
	if strings.Join(seen[:4], ",") != "order.awaiting_payment,order.awaiting_payment,order.awaiting_payment,order.paid" ||
		ns[0].id != ns[2].id || ns[2].status != http.StatusNoContent || ns[3].orderID != sess.OrderID {
		t.Errorf("notifications: %+v", ns)
	}
}

// TestEmbedCancelOpensCancelURL: the shopper's "back to the shop" link in the frame tells the
// merchant's page "closed" with the cancelUrl, which embed.js opens in the top window; a page
// that prevents the event's default keeps the shopper where they are.
func TestEmbedCancelOpensCancelURL(t *testing.T) {
	t.Parallel()
	a, s := setup(t, appOptions{host: "localhost", env: map[string]string{"CHECKOUT_MERCHANT_API_KEY": testAPIKey}},
		playwright.BrowserNewContextOptions{Viewport: &playwright.Size{Width: 1280, Height: 900}})
	site := newMerchantSite(t, a)
	ev := recordEvents(s)

	// The page handles "closed" itself: the frame's link does not take the shopper away.
	s.open(site.origin() + "/?keep=1")
	ready := ev.wait(t, "ready", ofType("ready"))
	frame := shopInFrame(s, "#pix iframe")
	cancel := frame.testID("session-cancel")
	frame.visible(cancel, "the session's cancel link")
	s.check(cancel.Click(), "click the cancel link (kept)")
	closed := ev.wait(t, "closed", ofType("closed"))
	if closed["cancelUrl"] != site.origin()+"/cart" || closed["sessionId"] != ready["sessionId"] {
		t.Errorf("closed event %v; want the cancelUrl %s/cart of session %v", closed, site.origin(), ready["sessionId"])
	}
	// embed.js opens the cancelUrl in the task that handed "closed" to onEvent, and the page
	// records a navigation as it starts: read after that task, an empty list is the answer.
	st := s.eval(s.page, `() => !window.pixEvents ? {gone: location.href} :
		{api: !!window.navigation, closed: window.pixEvents.some(e => e.type === "closed"), navigations: window.navigations}`).(map[string]any)
	if st["gone"] != nil {
		t.Fatalf("the page went to %s although its onEvent prevented the default", st["gone"])
	}
	if st["api"] != true || st["closed"] != true {
		t.Fatalf("the page cannot tell whether it navigated: %v", st)
	}
	if navs, _ := st["navigations"].([]any); len(navs) != 0 {
		t.Errorf("the page started navigating to %v although its onEvent prevented the default", navs)
	}
	if u := s.page.URL(); u != site.origin()+"/?keep=1" {
		t.Errorf("the page went to %s although its onEvent prevented the default", u)
	}

	// By default the cancelUrl opens in the top window.
	s.open(site.origin() + "/")
	frame = shopInFrame(s, "#pix iframe")
	cancel = frame.testID("session-cancel")
	frame.visible(cancel, "the session's cancel link")
	s.check(cancel.Click(), "click the cancel link")
	s.check(s.expect.Page(s.page).ToHaveURL(site.origin()+"/cart"), "cancelUrl in the top window")
	s.shot("merchant-site-cancelled")
}

// TestEmbedRefusedToAnotherOrigin: a session framed by a page of another origin than its
// embedOrigin shows nothing there and tells that page nothing; the page of its own origin
// shows it.
func TestEmbedRefusedToAnotherOrigin(t *testing.T) {
	t.Parallel()
	a, s := setup(t, appOptions{host: "localhost", env: map[string]string{"CHECKOUT_MERCHANT_API_KEY": testAPIKey}},
		playwright.BrowserNewContextOptions{})
	allowed := newMerchantSite(t, a)
	other := newMerchantSite(t, a)
	sess := allowed.createSession(allowed.origin())

	// The browser's answer to the framed document is the signal: it refuses it (the session's
	// frame-ancestors), and the iframe then fires its load event, empty.
	framed := make(chan string, 1) // "" when the document loaded, else why it failed
	tell := func(r playwright.Request, why string) {
		// embed.js adds its parameters (?embed=1) to the session's URL.
		if r.IsNavigationRequest() && strings.HasPrefix(r.URL(), sess.URL+"?") {
			select {
			case framed <- why: // the first answer; the control below loads it again
			default:
			}
		}
	}
	s.page.OnRequestFinished(func(r playwright.Request) { tell(r, "") })
	s.page.OnRequestFailed(func(r playwright.Request) { tell(r, fmt.Sprint(r.Failure())) })
	s.open(other.origin() + "/?session=" + sess.URL)
	select {
	case why := <-framed:
		if !strings.Contains(why, "ERR_BLOCKED_BY_RESPONSE") {
			t.Errorf("the session's page was not refused in a frame of another origin (%q)", why)
		}
	case <-time.After(actionTimeout):
		t.Fatal("the framed session's document neither loaded nor failed")
	}
	_, err := s.page.WaitForFunction(`() => window.frameLoads > 0`, nil)
	s.check(err, "the iframe's load event")
	if n, err := shopInFrame(s, "#pix iframe").testID("checkout-form").Count(); err != nil || n != 0 {
		t.Errorf("the checkout form is in a frame of another origin (%d, %v)", n, err)
	}
	if got := s.eval(s.page, `() => [window.pixEvents, window.messages]`).([]any); len(got[0].([]any)) != 0 || len(got[1].([]any)) != 0 {
		t.Errorf("the page of another origin heard events %v, messages %v", got[0], got[1])
	}
	for _, f := range s.page.Frames() {
		t.Logf("frame at %q", f.URL())
	}
	s.shot("another-origin")

	// Control: the session's own origin sees it.
	s.open(allowed.origin() + "/?session=" + sess.URL)
	frame := shopInFrame(s, "#pix iframe")
	frame.visible(customerForm{frame}.form(), "the form on the session's own origin")
	_, err = s.page.WaitForFunction(`() => window.pixEvents.some(e => e.type === "ready")`, nil)
	s.check(err, "ready on the session's own origin")
}

// TestEmbedIgnoresOtherWindows: embed.js listens to its own iframe only: messages posted by the
// host page itself and by another checkout frame on the page (same origin as the checkout,
// another window) are ignored, forged "paid" included.
func TestEmbedIgnoresOtherWindows(t *testing.T) {
	t.Parallel()
	a, s := setup(t, appOptions{host: "localhost", env: map[string]string{"CHECKOUT_MERCHANT_API_KEY": testAPIKey}},
		playwright.BrowserNewContextOptions{})
	site := newMerchantSite(t, a)
	mounted := site.createSession(site.origin())
	another := site.createSession(site.origin())
	ev := recordEvents(s)
	s.open(site.origin() + "/?session=" + mounted.URL + "&extra=" + another.URL)
	ev.wait(t, "ready", ofType("ready"))
	// The other frame is a live checkout that posts its own ready to this origin too.
	var otherFrame playwright.Frame
	deadline := time.Now().Add(expectTimeout)
	for otherFrame == nil && time.Now().Before(deadline) {
		for _, f := range s.page.Frames() {
			if f.URL() == a.url+"/s/"+another.ID {
				otherFrame = f
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	if otherFrame == nil {
		t.Fatal("the other session's frame did not load")
	}
	s.check(otherFrame.Locator(`[data-testid="checkout-form"]`).WaitFor(), "the other frame's form")
	forged := `{source: "pix-checkout", version: 1, type: "paid", sessionId: "` + mounted.ID + `", orderId: "forged", status: "paid", height: 5}`
	s.eval(s.page, `() => window.postMessage(`+forged+`, "*")`)
	_, err := otherFrame.Evaluate(`() => window.parent.postMessage(` + forged + `, "*")`)
	s.check(err, "post from the other frame")
	// Once the page's own listener has received both forged messages, embed.js's listener has
	// had them too (the same dispatch, and onEvent records synchronously).
	_, err = s.page.WaitForFunction(`() => window.messages.some(m => m.fromSelf && m.data.orderId === "forged") &&
		window.messages.some(m => m.fromOther && m.data.orderId === "forged")`, nil)
	s.check(err, "both forged messages received by the page")
	heard := func() {
		t.Helper()
		for _, e := range s.eval(s.page, `() => window.pixEvents`).([]any) {
			e, _ := e.(map[string]any)
			if e["type"] == "paid" || e["orderId"] == "forged" || e["sessionId"] == another.ID || e["height"] == float64(5) {
				t.Errorf("embed.js passed on a message of another window: %v", e)
			}
		}
		if st := s.eval(s.page, `() => document.querySelector("#pix iframe").style.height`); st == "5px" {
			t.Error("a forged resize changed the iframe's height")
		}
	}
	heard()
	// Control: a real message of the mounted frame after the forged ones is passed on (its
	// content grows), so embed.js was listening all along.
	before := len(ev.all())
	_, err = checkoutFrameOf(t, s, a, mounted.ID).Evaluate(`() => { document.body.style.paddingBottom = "120px"; }`)
	s.check(err, "grow the mounted frame")
	ev.wait(t, "resize after the forged messages", func(e map[string]any) bool { return e["type"] == "resize" && len(ev.all()) > before })
	heard()
	for _, e := range ev.all() {
		if e["type"] == "paid" || e["orderId"] == "forged" || e["sessionId"] == another.ID || e["height"] == float64(5) {
			t.Errorf("embed.js passed on a message of another window (heard by the test): %v", e)
		}
	}
}

// checkoutFrameOf returns the frame showing the form of session id of the checkout at a.
func checkoutFrameOf(t *testing.T, s *session, a *testApp, id string) playwright.Frame {
	t.Helper()
	for _, f := range s.page.Frames() {
		if u := f.URL(); u == a.url+"/s/"+id || strings.HasPrefix(u, a.url+"/s/"+id+"?") {
			return f
		}
	}
	t.Fatalf("no frame of session %s", id)
	return nil
}

// TestDemoMerchantPageInABrowser: the sandbox's demo merchant page, on its own port, mounts a
// session it made through the API, lists the events as they arrive, and its server reads the
// payment from the API.
func TestDemoMerchantPageInABrowser(t *testing.T) {
	t.Parallel()
	a, s := setup(t, appOptions{host: "localhost"}, playwright.BrowserNewContextOptions{Viewport: &playwright.Size{Width: 1280, Height: 900}})
	demo := a.app.DemoURL()
	if !strings.HasPrefix(demo, "http://127.0.0.1:") {
		t.Fatalf("demo URL %q is not on the other site", demo)
	}
	s.open(demo)
	events := s.page.GetByTestId("demo-events")
	s.check(s.expect.Locator(events).ToContainText("ready"), "ready in the event list")
	frame := shopInFrame(s, `[data-testid="demo-mount"] iframe`)
	form := customerForm{frame}
	frame.visible(form.form(), "the session's form in the demo page")
	s.a11y(s.page, "demo merchant")
	s.shot("demo-form")
	form.fillCustomer(validCustomer())
	pix := form.placeOrder()
	s.check(pix.payButton().Click(), "sandbox-pay")
	s.check(s.expect.Locator(events).ToContainText("paid"), "paid in the event list")
	s.check(s.expect.Locator(s.page.Locator("#next")).ToBeVisible(), "the link to the successUrl")
	s.check(s.page.Locator("#check").Click(), "ask the API")
	s.check(s.expect.Locator(s.page.GetByTestId("demo-server")).ToContainText(`"status": "paid"`), "the server sees paid")
	s.shot("demo-paid")
}
