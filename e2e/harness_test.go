package e2e

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"

	"github.com/pixcheckout/pixcheckout/checkout/charges"
	"github.com/pixcheckout/pixcheckout/checkout/mail/mailtest"
	"github.com/pixcheckout/pixcheckout/checkout/team/teamtest"
	"github.com/pixcheckout/pixcheckout/cmd/checkout/app"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// Timeouts are generous: the tests may share two cores with other work.
// Playwright's waits return as soon as their condition holds, so they cost nothing when all is
// well.
const (
	actionTimeout = 30 * time.Second // clicks, fills, navigations
	expectTimeout = 20 * time.Second // auto-waiting assertions
	startTimeout  = 60 * time.Second // an app becoming ready
	stopTimeout   = 30 * time.Second // an app shutting down
)

// artifactsDir is where screenshots, app logs and failure dumps go (git-ignored).
const artifactsDir = "artifacts"

// ms converts a duration to Playwright's float milliseconds.
func ms(d time.Duration) *float64 { return playwright.Float(float64(d.Milliseconds())) }

// testClock is the time of one app (checkout and embedded sandbox alike): the real time plus an
// offset the test moves forward, so that a QR code can expire without waiting half an hour.
type testClock struct{ offset atomic.Int64 }

// Now is the app's current time.
func (c *testClock) Now() time.Time { return time.Now().Add(time.Duration(c.offset.Load())) }

// Advance moves the app's time forward by d.
func (c *testClock) Advance(d time.Duration) { c.offset.Add(int64(d)) }

// noonTomorrow moves the app's clock to noon of the next São Paulo day, whatever the hour the
// test runs at, and returns that day: a day's reminders, QR codes and issuing never cross a
// São Paulo midnight during a test.
func (a *testApp) noonTomorrow() charges.Date {
	sp := time.FixedZone("BRT", -3*60*60)
	now := a.clock.Now().In(sp)
	a.clock.Advance(time.Date(now.Year(), now.Month(), now.Day()+1, 12, 0, 0, 0, sp).Sub(now))
	return charges.Today(a.clock.Now())
}

// advanceTo moves the app's clock forward to noon of São Paulo day d (São Paulo keeps no
// summer time: a day is 24 hours).
func (a *testApp) advanceTo(t *testing.T, d charges.Date) {
	t.Helper()
	days := charges.DaysBetween(charges.Today(a.clock.Now()), d)
	if days < 0 {
		t.Fatalf("the clock cannot go back to %s", d)
	}
	a.clock.Advance(time.Duration(days) * 24 * time.Hour)
}

// appOptions tune one test's app.
type appOptions struct {
	// host is the host name the browser uses for the checkout: "127.0.0.1" (default) or
	// "localhost" (a different site from 127.0.0.1, for the cross-site iframe: setup then opens
	// its session in the browser that blocks third-party cookies).
	host string
	// frameAncestors are the origins allowed to embed the checkout (CHECKOUT_FRAME_ANCESTORS).
	frameAncestors []string
	// reconcile is the reconciler's interval (default 1 s, so expiry shows up quickly).
	reconcile time.Duration
	// front, when set, wraps a handler served in front of the app on the browser-facing port:
	// the app itself then listens on another port and front forwards to it.
	front func(http.Handler) http.Handler
	// env adds variables to the app's environment (CHECKOUT_MERCHANT_API_KEY…).
	env map[string]string
	// notificationSchedule shortens the retries of the merchant notifications.
	notificationSchedule []time.Duration
	// probe, when set, is how often an idle gateway is probed (default 15 s).
	probe time.Duration
	// smtp, when set, is the SMTP server the app's e-mails go to (CHECKOUT_SMTP_URL), its
	// certificate trusted through the test-only option.
	smtp *mailtest.Server
}

// testApp is a whole checkout started for one test: its own data directory, its own port.
type testApp struct {
	app     *app.App
	url     string // the checkout's URL as the browser reaches it, without a trailing slash
	clock   *testClock
	dataDir string // CHECKOUT_DATA_DIR (the embedded sandbox's state is in its sandbox folder)
}

// startApp starts a checkout with the embedded sandbox and stops it when the test ends.
func startApp(t *testing.T, o appOptions) *testApp {
	t.Helper()
	if o.host == "" {
		o.host = "127.0.0.1"
	}
	if o.reconcile == 0 {
		o.reconcile = time.Second
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("listening: %v", err)
	}
	public := ln
	if o.front != nil {
		// The browser reaches the front's port; the app serves on ln behind it.
		if public, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
			ln.Close()
			t.Fatalf("listening: %v", err)
		}
	}
	publicURL := fmt.Sprintf("http://%s:%d", o.host, public.Addr().(*net.TCPAddr).Port)
	dataDir := filepath.Join(t.TempDir(), "data")
	if err := os.CopyFS(dataDir, os.DirFS(suite.dataDir)); err != nil {
		ln.Close()
		public.Close()
		t.Fatalf("copying the data directory: %v", err)
	}
	// os.CopyFS writes 0644; the checkout refuses a secret key file others may read.
	if err := os.Chmod(filepath.Join(dataDir, "secret.key"), 0o600); err != nil && !errors.Is(err, fs.ErrNotExist) {
		ln.Close()
		public.Close()
		t.Fatalf("the data directory's key file: %v", err)
	}

	env := map[string]string{
		"CHECKOUT_ADDR":               "127.0.0.1:0",
		"CHECKOUT_PUBLIC_URL":         publicURL,
		"CHECKOUT_DATA_DIR":           dataDir,
		"CHECKOUT_FRAME_ANCESTORS":    strings.Join(o.frameAncestors, " "),
		"CHECKOUT_RECONCILE_INTERVAL": o.reconcile.String(),
	}
	if o.smtp != nil {
		env["CHECKOUT_SMTP_URL"], env["CHECKOUT_MAIL_FROM"] = o.smtp.URL, "Loja Demo <loja@example.com.br>"
	}
	for k, v := range o.env {
		env[k] = v
	}
	cfg, err := app.Load(func(k string) string { return env[k] }, nil)
	if err != nil {
		ln.Close()
		public.Close()
		t.Fatalf("app.Load: %v", err)
	}
	clock := &testClock{}
	cfg.Clock = clock.Now
	cfg.Passwords = teamtest.Hasher()
	cfg.NotificationSchedule = o.notificationSchedule
	cfg.GatewayProbeInterval = o.probe
	if o.smtp != nil {
		cfg.MailRootCAs = o.smtp.RootCAs
	}
	logFile, err := os.Create(filepath.Join(artifactPath(t), "app.log"))
	if err != nil {
		ln.Close()
		public.Close()
		t.Fatalf("creating the app log: %v", err)
	}
	cfg.LogOutput = &lockedWriter{w: logFile}

	ctx, cancel := context.WithCancel(context.Background())
	a, err := app.New(ctx, cfg, ln)
	if err != nil {
		cancel()
		ln.Close()
		public.Close()
		logFile.Close()
		t.Fatalf("app.New: %v", err)
	}
	served := make(chan error, 1)
	go func() { served <- a.Serve(ctx) }()
	var frontSrv *http.Server
	t.Cleanup(func() {
		// The app first: its shutdown ends the event streams the front may be relaying.
		cancel()
		select {
		case err := <-served:
			if err != nil {
				t.Errorf("app.Serve: %v", err)
			}
		case <-time.After(stopTimeout):
			t.Errorf("the app did not stop within %v", stopTimeout)
		}
		switch {
		case frontSrv != nil:
			sctx, scancel := context.WithTimeout(context.Background(), stopTimeout)
			_ = frontSrv.Shutdown(sctx)
			scancel()
		case o.front != nil:
			public.Close() // the front never started
		}
		if err := a.Close(); err != nil {
			t.Errorf("app.Close: %v", err)
		}
		_ = logFile.Close()
	})
	select {
	case <-a.Ready():
	case err := <-served:
		t.Fatalf("app.Serve ended at start: %v", err)
	case <-time.After(startTimeout):
		t.Fatalf("the app was not ready within %v", startTimeout)
	}
	if o.front != nil {
		backend, err := url.Parse(a.URL())
		if err != nil {
			t.Fatalf("app URL: %v", err)
		}
		proxy := &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
			r.SetURL(backend)
			r.Out.Host = r.In.Host // the app sees the host the browser used, as behind a real proxy
		}, ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			// A browser leaving an event stream cancels its request: not worth a log line.
			if !errors.Is(err, context.Canceled) {
				// Not t.Logf: the proxy may still be answering after the test ended.
				fmt.Fprintf(os.Stderr, "e2e front proxy: %s %s: %v\n", r.Method, r.URL.Path, err)
				w.WriteHeader(http.StatusBadGateway)
			}
		}}
		frontSrv = &http.Server{Handler: o.front(proxy), ReadHeaderTimeout: 10 * time.Second}
		go func() { _ = frontSrv.Serve(public) }()
	}
	return &testApp{app: a, url: publicURL, clock: clock, dataDir: dataDir}
}

// gateway is the app's own gateway client (the embedded sandbox, over HTTP).
func (a *testApp) gateway(t *testing.T) *gatewayclient.Client {
	t.Helper()
	c := a.app.Gateway()
	if c == nil {
		t.Fatal("the app has no gateway client")
	}
	return c
}

// deposits lists every deposit the sandbox holds.
func (a *testApp) deposits(t *testing.T) []gatewayclient.Deposit {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), actionTimeout)
	defer cancel()
	var all []gatewayclient.Deposit
	for d, err := range a.gateway(t).AllDeposits(ctx, gatewayclient.DepositFilter{}) {
		if err != nil {
			t.Fatalf("listing deposits: %v", err)
		}
		all = append(all, d)
	}
	return all
}

// lockedWriter serialises writes to the app log (slog handlers write from many goroutines).
type lockedWriter struct {
	mu sync.Mutex
	w  *os.File
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// setup starts a test: its artifacts folder emptied, its own app, a fresh browser context.
// A checkout on another site than the pages framing it (host "localhost") is tested where
// third-party cookies are blocked, as it has to work without them.
func setup(t *testing.T, ao appOptions, co playwright.BrowserNewContextOptions) (*testApp, *session) {
	t.Helper()
	if suite.skip != "" {
		t.Skipf("BROWSER TESTS SKIPPED: %s (run e2e/setup.sh)", suite.skip)
	}
	cleanArtifacts(t)
	a := startApp(t, ao)
	b := suite.browser
	if ao.host == "localhost" {
		b = suite.crossSite
	}
	return a, newSessionIn(t, b, co)
}

// session is one test's browser context and page, with its artifacts folder.
type session struct {
	t      *testing.T
	ctx    playwright.BrowserContext
	page   playwright.Page
	expect playwright.PlaywrightAssertions
	dir    string
	steps  atomic.Int32
}

// newSession opens a fresh browser context (no cookies or storage from other tests) with one
// page, in the headless shell. opts may set the viewport, JavaScript, mobile emulation; the
// locale defaults to pt-BR.
func newSession(t *testing.T, opts playwright.BrowserNewContextOptions) *session {
	t.Helper()
	return newSessionIn(t, suite.browser, opts)
}

// newSessionIn is newSession in browser b.
func newSessionIn(t *testing.T, b playwright.Browser, opts playwright.BrowserNewContextOptions) *session {
	t.Helper()
	if suite.skip != "" {
		t.Skipf("BROWSER TESTS SKIPPED: %s (run e2e/setup.sh)", suite.skip)
	}
	if opts.Locale == nil {
		opts.Locale = playwright.String("pt-BR")
	}
	if opts.TimezoneId == nil {
		opts.TimezoneId = playwright.String("America/Sao_Paulo")
	}
	bctx, err := b.NewContext(opts)
	if err != nil {
		t.Fatalf("new browser context: %v", err)
	}
	bctx.SetDefaultTimeout(float64(actionTimeout.Milliseconds()))
	bctx.SetDefaultNavigationTimeout(float64(actionTimeout.Milliseconds()))
	page, err := bctx.NewPage()
	if err != nil {
		t.Fatalf("new page: %v", err)
	}
	s := &session{
		t:      t,
		ctx:    bctx,
		page:   page,
		expect: playwright.NewPlaywrightAssertions(float64(expectTimeout.Milliseconds())),
		dir:    artifactPath(t),
	}
	t.Cleanup(func() {
		if t.Failed() {
			s.dumpFailure()
		}
		if err := bctx.Close(); err != nil {
			t.Logf("closing the browser context: %v", err)
		}
	})
	return s
}

// newPage opens another tab in the same context (same cookies), e.g. a second device-less view
// of the same order.
func (s *session) newPage() playwright.Page {
	s.t.Helper()
	p, err := s.ctx.NewPage()
	if err != nil {
		s.t.Fatalf("new page: %v", err)
	}
	return p
}

// open navigates the main page to url and fails the test on an HTTP error.
func (s *session) open(url string) {
	s.t.Helper()
	s.openIn(s.page, url)
}

// openIn navigates page p to url and fails the test on an HTTP error.
func (s *session) openIn(p playwright.Page, url string) {
	s.t.Helper()
	resp, err := p.Goto(url, playwright.PageGotoOptions{WaitUntil: playwright.WaitUntilStateLoad})
	if err != nil {
		s.t.Fatalf("goto %s: %v", url, err)
	}
	if resp != nil && resp.Status() >= 400 {
		s.t.Fatalf("goto %s: HTTP %d", url, resp.Status())
	}
}

// shot saves a full-page screenshot of the main page as artifacts/<test>/<NN>-<step>.png.
func (s *session) shot(step string) {
	s.t.Helper()
	s.shotOf(s.page, step)
}

// shotOf saves a screenshot of page p, one pixel per CSS pixel: on a phone's 2× screen that
// is a third of the cost of a device-pixel one, and as good for reviewing a layout.
func (s *session) shotOf(p playwright.Page, step string) {
	s.t.Helper()
	n := s.steps.Add(1)
	path := filepath.Join(s.dir, fmt.Sprintf("%02d-%s.png", n, safeName(step)))
	if _, err := p.Screenshot(playwright.PageScreenshotOptions{Path: playwright.String(path), FullPage: playwright.Bool(true),
		Scale: playwright.ScreenshotScaleCss}); err != nil {
		s.t.Errorf("screenshot %s: %v", step, err)
	}
}

// dumpFailure saves a screenshot and the HTML of every open page of a failed test.
func (s *session) dumpFailure() {
	for i, p := range s.ctx.Pages() {
		base := filepath.Join(s.dir, fmt.Sprintf("failure-%d", i))
		_, _ = p.Screenshot(playwright.PageScreenshotOptions{Path: playwright.String(base + ".png"), FullPage: playwright.Bool(true)})
		if html, err := p.Content(); err == nil {
			_ = os.WriteFile(base+".html", []byte(html), 0o644)
		}
		s.t.Logf("failure artifacts: %s.{png,html} (page at %s)", base, p.URL())
	}
}

// eval evaluates a JavaScript expression in page p and returns its result.
func (s *session) eval(p playwright.Page, expr string, arg ...any) any {
	s.t.Helper()
	v, err := p.Evaluate(expr, arg...)
	if err != nil {
		s.t.Fatalf("evaluate %q: %v", expr, err)
	}
	return v
}

// check fails the test now when err is not nil (an action or an assertion of Playwright).
func (s *session) check(err error, what string) {
	s.t.Helper()
	if err != nil {
		s.t.Fatalf("%s: %v", what, err)
	}
}

// artifactPath returns (and creates, emptied) the artifacts folder of test t.
func artifactPath(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(artifactsDir, safeName(t.Name()))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatalf("artifacts: %v", err)
	}
	return dir
}

var unsafeChars = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// safeName turns a test or step name into a file name.
func safeName(s string) string { return strings.Trim(unsafeChars.ReplaceAllString(s, "_"), "_") }

// cleanArtifacts empties a test's artifacts folder once, at the start of the test, so that
// files of an earlier run do not mix with this one's.
func cleanArtifacts(t *testing.T) {
	t.Helper()
	dir := filepath.Join(artifactsDir, safeName(t.Name()))
	if err := os.RemoveAll(dir); err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("artifacts: %v", err)
	}
}

// cookieRecorder remembers the Cookie header of every request that reaches the app, by path.
type cookieRecorder struct {
	mu   sync.Mutex
	seen []recordedRequest
}

type recordedRequest struct {
	method, path, cookie, secFetchSite string
}

func (c *cookieRecorder) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c.mu.Lock()
		c.seen = append(c.seen, recordedRequest{r.Method, r.URL.Path, r.Header.Get("Cookie"), r.Header.Get("Sec-Fetch-Site")})
		c.mu.Unlock()
		next.ServeHTTP(w, r)
	})
}

// all returns every request recorded so far.
func (c *cookieRecorder) all() []recordedRequest {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]recordedRequest(nil), c.seen...)
}

// requests returns the requests recorded for path.
func (c *cookieRecorder) requests(path string) []recordedRequest {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []recordedRequest
	for _, r := range c.seen {
		if r.path == path {
			out = append(out, r)
		}
	}
	return out
}
