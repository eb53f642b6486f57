package e2e

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"
)

// orderToPix goes from the catalogue to the PIX page of a digital product.
func orderToPix(s *session, url string) pixPage {
	s.t.Helper()
	s.open(url + "/")
	form := shopIn(s).catalogue().add(digitalProduct).checkout()
	form.fillCustomer(validCustomer())
	return form.placeOrder()
}

// The countdown is right when the page arrives and goes down while it is open (on the page's
// clock, which the test moves forward).
func TestCountdownGoesDown(t *testing.T) {
	t.Parallel()
	a, s := setup(t, appOptions{}, playwright.BrowserNewContextOptions{})
	clock := s.page.Clock()
	s.check(clock.Install(), "install the page's clock")
	pix := orderToPix(s, a.url)
	// The page's HTML says until when the code is valid; the script turns it into a countdown.
	s.check(s.expect.Locator(pix.countdown()).ToHaveText(regexp.MustCompile(`^\s*(?:\d+:)?\d{1,2}:\d{2}\s*$`)), "the script's countdown")
	first, err := pix.countdown().TextContent()
	s.check(err, "countdown")
	d1, err := parseCountdown(first)
	s.check(err, "countdown")
	if d1 <= 0 || d1 > 24*time.Hour {
		t.Fatalf("countdown %q out of range", first)
	}
	s.shot("countdown-first")

	// A second, twice, on the page's clock: the text changes each time.
	s.check(clock.RunFor(1000), "a second on the page's clock")
	s.check(s.expect.Locator(pix.countdown()).Not().ToHaveText(first), "countdown changes")
	second, err := pix.countdown().TextContent()
	s.check(err, "countdown")
	s.check(clock.RunFor(1000), "another second on the page's clock")
	s.check(s.expect.Locator(pix.countdown()).Not().ToHaveText(second), "countdown changes again")
	d3 := pix.remaining()
	if d3 >= d1 {
		t.Errorf("countdown went from %s (%v) to %v: not down", first, d1, d3)
	}
	if d1-d3 > time.Minute {
		t.Errorf("countdown jumped from %v to %v", d1, d3)
	}
	s.shot("countdown-later")
}

// At expiry the open page hides the QR and offers new-qr; the new QR is a different code.
func TestExpiryOffersNewQR(t *testing.T) {
	t.Parallel()
	a, s := setup(t, appOptions{reconcile: 500 * time.Millisecond}, playwright.BrowserNewContextOptions{})
	pix := orderToPix(s, a.url)
	oldCode := pix.codeText()
	s.check(s.expect.Locator(pix.newQR()).ToBeHidden(), "new-qr hidden before expiry")

	// Jump the app's clock (checkout and sandbox) past the QR code's expiry; the reconciler
	// expires the order and the open page hears of it.
	a.clock.Advance(pix.remaining() + time.Minute)
	s.check(s.expect.Locator(pix.status()).ToHaveAttribute("data-status", "expired"), "status expired")
	s.check(s.expect.Locator(pix.qr()).ToBeHidden(), "QR hidden after expiry")
	s.check(s.expect.Locator(pix.code()).ToBeHidden(), "code hidden after expiry")
	s.check(s.expect.Locator(pix.newQR()).ToBeVisible(), "new-qr visible after expiry")
	s.a11y(s.page, "expired PIX")
	s.shot("expired")

	// Opened afresh, the order shows its expired page with the same way forward.
	again := s.newPage()
	s.openIn(again, s.page.URL())
	fresh := shopInPage(s, again)
	fresh.visible(fresh.testID("expired"), "expired page")
	fresh.visible(fresh.testID("new-qr"), "new-qr on the expired page")
	s.check(s.expect.Locator(fresh.testID("pix-qr")).ToHaveCount(0), "no QR on the expired page")
	s.a11y(again, "expired")
	s.shotOf(again, "expired-page")
	s.check(again.Close(), "close the second tab")

	s.check(pix.newQR().GetByRole("button").Click(), "click new-qr")
	pix.waitActive()
	s.check(s.expect.Locator(pix.code()).Not().ToHaveValue(oldCode), "a new code")
	newCode := pix.codeText()
	if newCode == oldCode {
		t.Fatal("new-qr showed the same code")
	}
	s.check(s.expect.Locator(pix.status()).ToHaveAttribute("data-status", "awaiting_payment"), "awaiting payment again")
	if left := pix.remaining(); left <= 0 {
		t.Errorf("the new QR's countdown is %v", left)
	}
	s.shot("new-qr")

	if n := len(a.deposits(t)); n != 2 {
		t.Errorf("sandbox holds %d deposits, want 2 (the expired QR and the new one)", n)
	}
	// The new code is payable: paying it turns the order to paid.
	s.check(pix.payButton().Click(), "sandbox-pay")
	pix.waitPaid()
	s.shot("paid")
}

// A double click on place-order, and the same form posted again afterwards (a retry), make one
// transaction at the gateway.
func TestDoubleClickMakesOneTransaction(t *testing.T) {
	t.Parallel()
	a, s := setup(t, appOptions{}, playwright.BrowserNewContextOptions{})
	s.open(a.url + "/")
	form := shopIn(s).catalogue().add(digitalProduct).checkout()
	form.fillCustomer(validCustomer())

	var (
		mu    sync.Mutex
		posts []playwright.Request
	)
	s.page.OnRequest(func(r playwright.Request) {
		if r.Method() == "POST" && strings.HasSuffix(r.URL(), "/checkout") {
			mu.Lock()
			posts = append(posts, r)
			mu.Unlock()
		}
	})
	s.check(form.testID("place-order").Dblclick(), "double click place-order")
	pix := pixPage{form.shop}
	pix.waitActive()
	s.shot("pix")
	pixURL := s.page.URL()

	mu.Lock()
	n := len(posts)
	var first playwright.Request
	if n > 0 {
		first = posts[0]
	}
	mu.Unlock()
	t.Logf("the double click sent %d form posts", n)
	if n == 0 {
		t.Fatal("no form post seen")
	}
	if deps := a.deposits(t); len(deps) != 1 {
		t.Fatalf("after a double click the sandbox holds %d deposits, want 1", len(deps))
	}

	// The same form again, as a browser retry or a second tab would send it: it lands on the
	// same order, and still no second transaction.
	body, err := first.PostData()
	s.check(err, "form body")
	resp, err := s.ctx.Request().Post(first.URL(), playwright.APIRequestContextPostOptions{
		Headers: map[string]string{"Content-Type": "application/x-www-form-urlencoded"},
		Data:    body,
	})
	s.check(err, "post the form again")
	if resp.Status() >= 400 {
		t.Fatalf("posting the form again: HTTP %d", resp.Status())
	}
	if !regexp.MustCompile(`^` + regexp.QuoteMeta(pixURL)).MatchString(resp.URL()) {
		t.Errorf("posting the form again ended at %s, want the same order's page %s", resp.URL(), pixURL)
	}
	if deps := a.deposits(t); len(deps) != 1 {
		t.Errorf("after posting the form again the sandbox holds %d deposits, want 1", len(deps))
	}
}

// Two clicks on place-order, the second while the first is still on its way: the server gets
// both submissions of the same form at the same time (the first one finishing even though
// the browser gave up on it) and still makes one transaction.
func TestSecondClickWhileFirstInFlightMakesOneTransaction(t *testing.T) {
	t.Parallel()
	gate := &submitGate{first: make(chan struct{}), second: make(chan struct{})}
	a, s := setup(t, appOptions{front: gate.wrap}, playwright.BrowserNewContextOptions{})
	s.open(a.url + "/")
	form := shopIn(s).catalogue().add(digitalProduct).checkout()
	form.fillCustomer(validCustomer())

	// The first click, and a second one from the page itself (Playwright's own actions would
	// wait for the pending navigation) as soon as the gate tells that the first is held.
	s.eval(s.page, `() => {
		const b = document.querySelector('[data-testid="place-order"]');
		b.click();
		fetch("`+gatePath+`", {cache: "no-store"}).then(() => b.click());
	}`)
	select {
	case <-gate.first:
	case <-time.After(actionTimeout):
		t.Fatal("the first submission never reached the server")
	}
	select {
	case <-gate.second:
	case <-time.After(actionTimeout):
		t.Fatal("the second submission never reached the server")
	}
	pix := pixPage{form.shop}
	pix.waitActive()
	s.shot("pix")

	bodies := gate.bodies()
	if len(bodies) != 2 || bodies[0] != bodies[1] {
		t.Fatalf("the server got %d submissions (%q), want the same form twice", len(bodies), bodies)
	}
	gate.wait() // both answered by the app
	if deps := a.deposits(t); len(deps) != 1 {
		t.Fatalf("two submissions of one form made %d deposits, want 1", len(deps))
	}
}

// submitGate sits in front of the app and holds the first form post to .../checkout until a
// second one arrives, then lets both through together; gatePath tells the page when the first
// is held. The first is finished even when the
// browser drops it, as a server would finish a request that had already reached it.
type submitGate struct {
	mu            sync.Mutex
	posts         []string
	first, second chan struct{}
	inflight      sync.WaitGroup
}

// gatePath answers once the gate holds the first form post.
const gatePath = "/__gate/first-held"

func (g *submitGate) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == gatePath {
			select {
			case <-g.first:
				w.WriteHeader(http.StatusNoContent)
			case <-r.Context().Done():
			}
			return
		}
		if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/checkout") {
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		if err != nil {
			http.Error(w, "reading the form", http.StatusBadRequest)
			return
		}
		g.inflight.Add(1)
		defer g.inflight.Done()
		g.mu.Lock()
		g.posts = append(g.posts, string(body))
		n := len(g.posts)
		g.mu.Unlock()
		switch n {
		case 1:
			close(g.first)
			select {
			case <-g.second:
			case <-time.After(actionTimeout):
			}
		case 2:
			close(g.second)
		}
		r = r.Clone(context.WithoutCancel(r.Context()))
		r.Body = io.NopCloser(bytes.NewReader(body))
		next.ServeHTTP(w, r)
	})
}

// bodies returns the form posts seen.
func (g *submitGate) bodies() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]string(nil), g.posts...)
}

// wait waits for the held posts to be answered.
func (g *submitGate) wait() { g.inflight.Wait() }

// Where EventSource is missing, the page follows the order through the JSON status endpoint
// and still turns to paid by itself.
func TestPaidByPollingWithoutEventSource(t *testing.T) {
	t.Parallel()
	a, s := setup(t, appOptions{}, playwright.BrowserNewContextOptions{})
	s.check(s.page.AddInitScript(playwright.Script{Content: playwright.String(`delete window.EventSource;`)}), "remove EventSource")
	clock := s.page.Clock()
	s.check(clock.Install(), "install the page's clock")
	var (
		mu     sync.Mutex
		events int
		polls  int
	)
	s.page.OnRequest(func(r playwright.Request) {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case strings.HasSuffix(r.URL(), "/events"):
			events++
		case strings.HasSuffix(r.URL(), "/status"):
			polls++
		}
	})
	pix := orderToPix(s, a.url)
	deps := a.deposits(t)
	if len(deps) != 1 {
		t.Fatalf("sandbox holds %d deposits, want 1", len(deps))
	}
	ctx, cancel := context.WithTimeout(context.Background(), actionTimeout)
	defer cancel()
	if err := a.gateway(t).Do(ctx, http.MethodPost, "/sandbox/deposits/"+deps[0].ID+"/pay", nil, nil); err != nil {
		t.Fatalf("paying through the sandbox control: %v", err)
	}
	// The next poll is due at once on the page's clock, not three seconds from now (should a
	// poll be on its way, the next one comes in its time).
	s.check(clock.FastForward(3000), "a polling interval on the page's clock")
	pix.waitPaid()
	s.shot("paid")
	mu.Lock()
	defer mu.Unlock()
	if events != 0 || polls == 0 {
		t.Errorf("%d event-stream and %d status requests: want only status polling", events, polls)
	}
}
