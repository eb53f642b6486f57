package app_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/pixcheckout/pixcheckout/checkout/sqlite/sqlitetest"
	"github.com/pixcheckout/pixcheckout/checkout/team/teamtest"
	"github.com/pixcheckout/pixcheckout/cmd/checkout/app"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/brcode"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox/sandboxtest"
	"github.com/pixcheckout/pixcheckout/web/apitest"
)

// running is an app serving on a random loopback port.
type running struct {
	t       testing.TB
	app     *app.App
	cancel  context.CancelFunc
	served  chan error
	stopped bool
	http    *http.Client
	dataDir string
}

func start(t testing.TB, mod func(*app.Config)) *running {
	t.Helper()
	return startOn(t, "127.0.0.1:0", mod)
}

// startOn is start with the server listening on addr.
func startOn(t testing.TB, addr string, mod func(*app.Config)) *running {
	t.Helper()
	cfg, err := app.Load(func(string) string { return "" }, []string{"-data-dir", t.TempDir(), "-addr", addr})
	if err != nil {
		t.Fatal(err)
	}
	cfg.Passwords = teamtest.Hasher()
	if mod != nil {
		mod(&cfg)
	}
	if cfg.DatabaseURL != "" && cfg.SecretKey == "" {
		// Instances sharing a PostgreSQL database share its secret key (each has its own data dir).
		cfg.SecretKey = postgresSecretKey
	}
	if db := filepath.Join(cfg.DataDir, "checkout.db"); cfg.DatabaseURL == "" {
		if _, err := os.Stat(db); errors.Is(err, fs.ErrNotExist) {
			sqlitetest.Create(t, db) // a new data dir: its store migrated already
		}
	}
	if cfg.Sandbox() {
		sandboxtest.Create(t, filepath.Join(cfg.DataDir, "sandbox")) // and its sandbox's, unless it has one
	}
	ctx, cancel := context.WithCancel(context.Background())
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	a, err := app.New(ctx, cfg, ln)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	r := &running{t: t, app: a, cancel: cancel, served: make(chan error, 1), dataDir: cfg.DataDir, http: &http.Client{
		Transport:     apitest.Transport(t, nil), // every merchant API exchange is held to openapi.json
		Timeout:       30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
	go func() { r.served <- a.Serve(ctx) }()
	select {
	case <-a.Ready():
	case err := <-r.served:
		t.Fatalf("Serve ended at start: %v", err)
	}
	t.Cleanup(func() {
		r.stop()
		if err := a.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return r
}

// stop cancels the app's context and waits for Serve to return.
func (r *running) stop() {
	r.t.Helper()
	if r.stopped {
		return
	}
	r.stopped = true
	r.cancel()
	select {
	case err := <-r.served:
		if err != nil {
			r.t.Errorf("Serve: %v", err)
		}
	case <-time.After(30 * time.Second):
		r.t.Fatal("Serve did not return after its context ended")
	}
}

func (r *running) post(path string, form url.Values) *http.Response {
	r.t.Helper()
	res, err := r.http.PostForm(r.app.URL()+path, form)
	if err != nil {
		r.t.Fatal(err)
	}
	res.Body.Close()
	return res
}

func (r *running) get(path string) (*http.Response, *goquery.Document) {
	r.t.Helper()
	res, err := r.http.Get(r.app.URL() + path)
	if err != nil {
		r.t.Fatal(err)
	}
	defer res.Body.Close()
	doc, err := goquery.NewDocumentFromReader(res.Body)
	if err != nil {
		r.t.Fatal(err)
	}
	return res, doc
}

// placeOrder buys the e-book and returns the PIX page's path.
func (r *running) placeOrder() string {
	r.t.Helper()
	cart := r.post("/cart", url.Values{"product_id": {"ebook-receitas-do-cerrado"}}).Header.Get("Location")
	_, doc := r.get(cart + "/checkout")
	key, _ := doc.Find(`input[name="request_key"]`).Attr("value")
	res := r.post(cart+"/checkout", url.Values{"request_key": {key}, "name": {"João Souza"},
		"document": {"52998224725"}, "email": {"joao@example.com"}, "phone": {"11987654321"}})
	if res.StatusCode != http.StatusSeeOther {
		r.t.Fatalf("placing an order: %d", res.StatusCode)
	}
	return res.Header.Get("Location")
}

// stream opens the SSE stream of a PIX page and returns its lines.
func (r *running) stream(pay string) (<-chan string, io.Closer) {
	r.t.Helper()
	res, err := (&http.Client{}).Get(r.app.URL() + pay + "/events")
	if err != nil {
		r.t.Fatal(err)
	}
	lines := make(chan string, 64)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(res.Body)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	return lines, res.Body
}

// waitData waits for a data line containing want; false when the stream ends first.
func waitData(t *testing.T, lines <-chan string, want string) bool {
	t.Helper()
	timeout := time.After(30 * time.Second)
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				return false
			}
			if strings.HasPrefix(l, "data: ") && strings.Contains(l, want) {
				return true
			}
		case <-timeout:
			t.Fatalf("no %q on the stream", want)
		}
	}
}

func TestOneCommandFlow(t *testing.T) {
	t.Parallel()
	var banner strings.Builder
	r := start(t, func(c *app.Config) { c.Stdout = &banner })
	for _, p := range []string{"/healthz", "/readyz"} {
		res, _ := r.get(p)
		if res.StatusCode != http.StatusOK {
			t.Errorf("%s: %d", p, res.StatusCode)
		}
	}
	out := banner.String()
	if !strings.Contains(out, "/sandbox/gateway") || !strings.Contains(out, "shop:") || !strings.Contains(out, "/sandbox/gateway/sandbox/") {
		t.Errorf("banner %q lacks the URLs", out)
	}
	// How to sign in to the sandbox console: the client id, and where the secret is kept; never
	// the secret itself.
	secretFile := filepath.Join(r.dataDir, "sandbox", "client-secret")
	secret, err := os.ReadFile(secretFile)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, `client id "checkout"`) || !strings.Contains(out, secretFile) {
		t.Errorf("banner %q does not say how to sign in to the console", out)
	}
	if strings.Contains(out, strings.TrimSpace(string(secret))) {
		t.Error("the banner prints the client secret")
	}
	// The sandbox is mounted on the same server.
	if r.app.SandboxURL() != r.app.URL()+"/sandbox/gateway" {
		t.Errorf("sandbox URL %q", r.app.SandboxURL())
	}
	_, doc := r.get("/")
	if doc.Find(`[data-testid="product-card"]`).Length() < 2 {
		t.Fatal("no seeded catalogue")
	}
	pay := r.placeOrder()
	_, doc = r.get(pay)
	if doc.Find(`[data-testid="pix-code"]`).Text() == "" || doc.Find(`[data-testid="sandbox-pay"]`).Length() != 1 {
		t.Fatal("PIX page without code or sandbox-pay")
	}
	// The embedded sandbox puts the shop's name in the BR Code, as the bank app shows it.
	code, err := brcode.Decode(strings.TrimSpace(doc.Find(`[data-testid="pix-code"]`).Text()))
	if err != nil {
		t.Fatal(err)
	}
	if code.MerchantName != "Loja Demo PIX" {
		t.Errorf("BR Code merchant name %q, want the shop's", code.MerchantName)
	}
	// One QR drawing for the order: the checkout's image of the BR Code is the one the embedded
	// sandbox drew for its answer (the same bytes), not a second drawing.
	res, err := r.http.Get(r.app.URL() + pay + "/qr.png")
	if err != nil {
		t.Fatal(err)
	}
	img, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("QR image: %d %v", res.StatusCode, err)
	}
	deposits, err := r.app.Gateway().ListDeposits(context.Background(), depositFilter())
	if err != nil || len(deposits.Data) != 1 || deposits.Data[0].PixResponse == nil {
		t.Fatalf("the sandbox's deposit: %+v %v", deposits, err)
	}
	if gw, err := base64.StdEncoding.DecodeString(deposits.Data[0].PixResponse.QRCodeBase64); err != nil || !bytes.Equal(gw, img) {
		t.Errorf("the checkout's QR image differs from the sandbox's (%v)", err)
	}
	if drawn, reused := r.app.QRImages(); drawn != 1 || reused != 1 {
		t.Errorf("one order: %d QR images drawn and %d given again, want one drawn by the sandbox and given again to the checkout", drawn, reused)
	}
	lines, body := r.stream(pay)
	defer body.Close()
	if !waitData(t, lines, `"awaiting_payment"`) {
		t.Fatal("stream ended")
	}
	if res := r.post(pay+"/sandbox-pay", nil); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("sandbox-pay: %d", res.StatusCode)
	}
	if !waitData(t, lines, `"paid"`) {
		t.Fatal("stream ended before paid")
	}
	// The deposit is paid at the gateway, as the client reads it over HTTP.
	page, err := r.app.Gateway().ListDeposits(context.Background(), depositFilter())
	if err != nil {
		t.Fatal(err)
	}
	if page.Total != 1 || page.Data[0].Status != "PAID" {
		t.Errorf("deposits at the sandbox: %+v", page)
	}
}

func TestReconcilerSeesPaymentWithoutWebhooks(t *testing.T) {
	t.Parallel()
	r := start(t, func(c *app.Config) {
		c.WebhooksEnabled = false
		c.ReconcileInterval = 50 * time.Millisecond
	})
	pay := r.placeOrder()
	stream := r.follow(pay)
	stream.wait(t, `"awaiting_payment"`)
	// Pay at the gateway directly: no webhook, no refresh by the page.
	r.payAtGateway(pay)
	stream.wait(t, `"paid"`)
}

// followed is a PIX page's stream as the page follows it: when the server ends it with a
// redirect to the page itself (a QR code that a slow gateway gave after the stream opened, on a
// loaded machine, makes the page draw itself again), the page reloads and opens a new one.
type followed struct {
	r          *running
	pay        string
	lines      <-chan string
	redirected bool // the last data line carried a redirect
}

// follow opens pay's stream; it is closed when the test ends.
func (r *running) follow(pay string) *followed {
	f := &followed{r: r, pay: pay}
	f.reopen()
	return f
}

func (f *followed) reopen() {
	lines, body := f.r.stream(f.pay)
	f.r.t.Cleanup(func() { body.Close() })
	f.lines, f.redirected = lines, false
}

// wait waits for a data line containing want, following up to two reloads; any other end of the
// stream fails the test.
func (f *followed) wait(t *testing.T, want string) {
	t.Helper()
	timeout := time.After(30 * time.Second)
	for reloads := 0; ; {
		select {
		case l, ok := <-f.lines:
			if !ok {
				if !f.redirected || reloads == 2 {
					t.Fatalf("the stream ended before %s (after %d reloads)", want, reloads)
				}
				reloads++
				f.reopen()
				continue
			}
			if !strings.HasPrefix(l, "data: ") {
				continue
			}
			f.redirected = strings.Contains(l, `"redirect":`)
			if strings.Contains(l, want) {
				return
			}
		case <-timeout:
			t.Fatalf("no %q on the stream", want)
		}
	}
}

func TestShutdownClosesStreams(t *testing.T) {
	t.Parallel()
	r := start(t, nil)
	pay := r.placeOrder()
	lines, body := r.stream(pay)
	defer body.Close()
	if !waitData(t, lines, `"awaiting_payment"`) {
		t.Fatal("stream ended")
	}
	r.stop() // fails the test if Serve does not return
	timeout := time.After(30 * time.Second)
	for {
		select {
		case _, ok := <-lines:
			if !ok {
				return // the stream was closed by the server
			}
		case <-timeout:
			t.Fatal("the SSE stream stayed open after shutdown")
		}
	}
}

func TestRealGatewayMode(t *testing.T) {
	t.Parallel()
	// A standalone sandbox stands in for the real gateway.
	sb, err := sandbox.New(context.Background(), sandbox.Options{DataDir: t.TempDir(),
		Clients: []sandbox.ClientConfig{{ID: "merchant", Secret: "merchant-secret"}}})
	if err != nil {
		t.Fatal(err)
	}
	gw := httptest.NewServer(sb)
	t.Cleanup(func() { gw.Close(); sb.Close() })
	r := start(t, func(c *app.Config) {
		c.GatewayURL = gw.URL
		c.GatewayClientID = "merchant"
		c.GatewayClientSecret = "merchant-secret"
	})
	if r.app.SandboxURL() != "" {
		t.Errorf("sandbox URL %q with a real gateway", r.app.SandboxURL())
	}
	res, _ := r.get("/sandbox/gateway/deposit")
	if res.StatusCode != http.StatusNotFound {
		t.Errorf("sandbox mounted with a real gateway: %d", res.StatusCode)
	}
	pay := r.placeOrder()
	_, doc := r.get(pay)
	if doc.Find(`[data-testid="pix-code"]`).Text() == "" {
		t.Fatal("no PIX code from the configured gateway")
	}
	if doc.Find(`[data-testid="sandbox-pay"]`).Length() != 0 {
		t.Error("sandbox-pay shown with a real gateway")
	}
	if res := r.post(pay+"/sandbox-pay", nil); res.StatusCode != http.StatusNotFound {
		t.Errorf("sandbox-pay with a real gateway: %d", res.StatusCode)
	}
}

func depositFilter() gatewayclient.DepositFilter { return gatewayclient.DepositFilter{} }
