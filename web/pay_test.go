package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"image/png"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/makiuchi-d/gozxing"
	zxqr "github.com/makiuchi-d/gozxing/qrcode"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/web"
)

func TestPixPage(t *testing.T) {
	e := newEnv(t)
	pay := e.placeOrder()
	res, doc := e.get(pay)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("status %d", res.StatusCode)
	}
	code := strings.TrimSpace(doc.Find(testid("pix-code")).Text())
	if !strings.HasPrefix(code, "000201") {
		t.Fatalf("pix-code %q is not a BR Code", code)
	}
	img := doc.Find(testid("pix-qr"))
	src, _ := img.Attr("src")
	if alt, _ := img.Attr("alt"); !strings.Contains(alt, "R$ 29,90") {
		t.Errorf("QR alt text %q does not say the amount", alt)
	}
	// The image decodes to exactly the copy-and-paste code.
	qr := e.do(http.MethodGet, src, nil)
	defer qr.Body.Close()
	if ct := qr.Header.Get("Content-Type"); qr.StatusCode != 200 || ct != "image/png" {
		t.Fatalf("QR image: %d %s", qr.StatusCode, ct)
	}
	pic, err := png.Decode(qr.Body)
	if err != nil {
		t.Fatal(err)
	}
	bmp, err := gozxing.NewBinaryBitmapFromImage(pic)
	if err != nil {
		t.Fatal(err)
	}
	// PURE_BARCODE: the picture is the symbol itself, so the decoder reads the modules from it
	// instead of hunting for finder patterns, which fails on about 2% of these small PNGs.
	got, err := zxqr.NewQRCodeReader().Decode(bmp, map[gozxing.DecodeHintType]any{gozxing.DecodeHintType_PURE_BARCODE: true})
	if err != nil {
		t.Fatal(err)
	}
	if got.GetText() != code {
		t.Errorf("QR decodes to %q, pix-code is %q", got.GetText(), code)
	}
	// The page says until when the code is valid, in Brasília time: the QR code's expiry.
	o, err := e.svc.Order(context.Background(), orderID(pay))
	if err != nil {
		t.Fatal(err)
	}
	until := doc.Find(testid("valid-until"))
	if dt, _ := until.Attr("datetime"); dt != gatewayclient.FormatTime(o.QR().ExpiresAt) {
		t.Errorf("valid-until datetime %q, the QR code expires at %s", dt, gatewayclient.FormatTime(o.QR().ExpiresAt))
	}
	want := "Válido até " + views.FormatClock(views.PtBR, o.QR().ExpiresAt) + ", horário de Brasília"
	if got := strings.Join(strings.Fields(until.Parent().Text()), " "); got != want {
		t.Errorf("expiry text %q, want %q", got, want)
	}
	st := doc.Find(testid("order-status"))
	if live, _ := st.Attr("aria-live"); live != "polite" {
		t.Errorf("order-status aria-live %q", live)
	}
	if !strings.Contains(st.Text(), "Aguardando pagamento") {
		t.Errorf("status text %q", st.Text())
	}
	// Parsed as a scripting browser would, <noscript> holds text: look at the markup itself.
	if h := doc.Find("head noscript").Text(); !regexp.MustCompile(`<meta http-equiv="refresh" content="\d+"`).MatchString(h) {
		t.Errorf("no meta refresh for browsers without JavaScript: %q", h)
	}
	if doc.Find(testid("sandbox-pay")).Length() != 1 {
		t.Error("sandbox mode: no sandbox-pay button")
	}
	if doc.Find(testid("copy-code")).Length() != 1 {
		t.Error("no copy-code button")
	}
	if res.Header.Get("Referrer-Policy") != "no-referrer" {
		t.Errorf("Referrer-Policy %q", res.Header.Get("Referrer-Policy"))
	}
}

func TestSandboxPayHiddenAnd404OutsideSandbox(t *testing.T) {
	e := newEnv(t, func(o *envOptions) { o.noSandboxPay = true })
	pay := e.placeOrder()
	_, doc := e.get(pay)
	if doc.Find(testid("sandbox-pay")).Length() != 0 {
		t.Error("sandbox-pay shown with a real gateway")
	}
	res, _ := e.post(pay+"/sandbox-pay", url.Values{})
	if res.StatusCode != http.StatusNotFound {
		t.Errorf("sandbox-pay with a real gateway: %d, want 404", res.StatusCode)
	}
}

func TestUnknownOrder404(t *testing.T) {
	e := newEnv(t)
	for _, p := range []string{"/pay/nosuchorder", "/pay/nosuchorder/status", "/pay/nosuchorder/events", "/pay/nosuchorder/paid", "/cart/nosuchcart"} {
		res := e.do(http.MethodGet, p, nil)
		res.Body.Close()
		if res.StatusCode != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", p, res.StatusCode)
		}
	}
}

// status reads the JSON status of an order.
func (e *env) status(pay string, query ...string) map[string]string {
	e.t.Helper()
	res := e.do(http.MethodGet, pay+"/status"+strings.Join(query, ""), nil)
	defer res.Body.Close()
	if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		e.t.Fatalf("status content type %q", ct)
	}
	var m map[string]string
	if err := json.NewDecoder(res.Body).Decode(&m); err != nil {
		e.t.Fatal(err)
	}
	return m
}

func TestSSEDeliversPaid(t *testing.T) {
	clock := sandbox.NewManualClock(time.Now().Truncate(time.Millisecond))
	e := newEnv(t, func(o *envOptions) { o.sandbox = func(so *sandbox.Options) { so.Clock = clock } })
	pay := e.placeOrder()
	req, _ := http.NewRequest(http.MethodGet, e.srv.URL+pay+"/events?lang=en", nil)
	res, err := e.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		t.Fatalf("content type %q", ct)
	}
	events := make(chan sseEvent, 16)
	go readEvents(res.Body, events)
	next := func() sseEvent {
		t.Helper()
		select {
		case ev, ok := <-events:
			if !ok {
				t.Fatal("stream ended")
			}
			return ev
		case <-time.After(20 * time.Second):
			t.Fatal("no event")
		}
		return sseEvent{}
	}
	first := next()
	var m map[string]string
	if err := json.Unmarshal([]byte(first.data), &m); err != nil || first.name != "status" || m["status"] != "awaiting_payment" {
		t.Fatalf("first event %+v (%v)", first, err)
	}
	if m["text"] != "Awaiting payment" {
		t.Errorf("text %q: the stream keeps the page's language", m["text"])
	}
	// The server's time and the QR code's expiry, for the page's countdown.
	if o, err := e.svc.Order(context.Background(), orderID(pay)); err != nil || m["now"] != gatewayclient.FormatTime(e.sb.Now()) ||
		m["expiresAt"] != gatewayclient.FormatTime(o.QR().ExpiresAt) {
		t.Errorf("first event: now %q, expiresAt %q (%v)", m["now"], m["expiresAt"], err)
	}
	res2, _ := e.post(pay+"/sandbox-pay", url.Values{})
	if loc := e.location(res2); loc != pay {
		t.Errorf("sandbox-pay redirects to %q", loc)
	}
	ev := next()
	if err := json.Unmarshal([]byte(ev.data), &m); err != nil || m["status"] != "paid" {
		t.Fatalf("event %+v", ev)
	}
	if m["redirect"] != pay+"/paid?lang=en" {
		t.Errorf("redirect %q", m["redirect"])
	}
	// The stream ends after the final state.
	select {
	case _, ok := <-events:
		if ok {
			t.Error("more events after paid")
		}
	case <-time.After(20 * time.Second):
		t.Error("the stream stays open after paid")
	}
	st := e.status(pay)
	if st["status"] != "paid" || st["statusText"] != "Pagamento confirmado" || st["redirect"] != pay+"/paid" {
		t.Errorf("status JSON %v", st)
	}
	// The PIX page of a paid order goes to the paid page.
	res3, _ := e.get(pay)
	if loc := e.location(res3); loc != pay+"/paid" {
		t.Errorf("PIX page of a paid order redirects to %q", loc)
	}
	_, doc := e.get(pay + "/paid")
	if doc.Find(testid("paid")).Length() != 1 {
		t.Error("no paid block on the paid page")
	}
}

func TestSSEHeartbeatAndShutdown(t *testing.T) {
	e := newEnv(t, func(o *envOptions) { o.heartbeat = 20 * time.Millisecond })
	pay := e.placeOrder()
	res := e.do(http.MethodGet, pay+"/events", nil)
	defer res.Body.Close()
	if cc := res.Header.Get("Cache-Control"); cc != "no-store" {
		t.Errorf("Cache-Control %q", cc)
	}
	events := make(chan sseEvent, 16)
	go readEvents(res.Body, events)
	if ev := <-events; ev.name != "status" {
		t.Fatalf("first event %+v", ev)
	}
	select {
	case ev := <-events:
		if ev.name != "comment" {
			t.Fatalf("want a heartbeat comment, got %+v", ev)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no heartbeat")
	}
	if err := e.web.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	select {
	case _, ok := <-events:
		if ok {
			t.Error("unexpected event on shutdown")
		}
	case <-time.After(20 * time.Second):
		t.Fatal("shutdown did not end the stream")
	}
}

func TestStatusJSONAwaiting(t *testing.T) {
	clock := sandbox.NewManualClock(time.Now().Truncate(time.Millisecond))
	e := newEnv(t, func(o *envOptions) { o.sandbox = func(so *sandbox.Options) { so.Clock = clock } })
	pay := e.placeOrder()
	o, err := e.svc.Order(context.Background(), orderID(pay))
	if err != nil {
		t.Fatal(err)
	}
	// Each language its own answer, the same one again.
	for _, c := range []struct{ query, text string }{
		{"?lang=en", "Awaiting payment"}, {"", "Aguardando pagamento"}, {"?lang=en", "Awaiting payment"}, {"", "Aguardando pagamento"},
	} {
		st := e.status(pay, c.query)
		if st["status"] != "awaiting_payment" || st["statusText"] != c.text || st["text"] != c.text || st["redirect"] != "" {
			t.Errorf("status%s: %v", c.query, st)
		}
		// The server's time and the QR code's expiry, for the page's countdown.
		if st["now"] != gatewayclient.FormatTime(e.sb.Now()) || st["expiresAt"] != gatewayclient.FormatTime(o.QR().ExpiresAt) {
			t.Errorf("status%s: now %q and expiresAt %q, want %s and %s", c.query, st["now"], st["expiresAt"],
				gatewayclient.FormatTime(e.sb.Now()), gatewayclient.FormatTime(o.QR().ExpiresAt))
		}
	}
	res := e.do(http.MethodGet, pay+"/status", nil, "Accept-Encoding", "identity")
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	h := res.Header
	if h.Get("Cache-Control") != "no-store" {
		t.Errorf("status Cache-Control %q", h.Get("Cache-Control"))
	}
	if cl := h.Get("Content-Length"); (cl != "" && cl != strconv.Itoa(len(body))) || !bytes.HasSuffix(body, []byte("}\n")) {
		t.Errorf("status body %q, Content-Length %s", body, h.Get("Content-Length"))
	}
}

// TestPixPageIsTheSameAtEveryMoment: the PIX page depends on the order's state, not on the
// moment it is drawn (its countdown is the script's): the same bytes in the first minutes and in
// the last ones, while the status JSON tells the script the server's time of each moment.
func TestPixPageIsTheSameAtEveryMoment(t *testing.T) {
	clock := sandbox.NewManualClock(time.Now().Truncate(time.Millisecond))
	e := newEnv(t, func(o *envOptions) { o.sandbox = func(so *sandbox.Options) { so.Clock = clock } })
	pay := e.placeOrder()
	body := func(path string) []byte {
		t.Helper()
		res := e.do(http.MethodGet, path, nil)
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		if err != nil || res.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d %v", path, res.StatusCode, err)
		}
		return b
	}
	first := body(pay)
	for _, d := range []time.Duration{7*time.Second + 300*time.Millisecond, 26 * time.Minute} {
		clock.Advance(d)
		if later := body(pay); !bytes.Equal(first, later) {
			t.Fatalf("the page %v later differs:\n%s\n---\n%s", d, first, later)
		}
		if st := e.status(pay); st["now"] != gatewayclient.FormatTime(clock.Now()) {
			t.Errorf("status JSON now %q, the server's clock says %s", st["now"], gatewayclient.FormatTime(clock.Now()))
		}
	}
	// Another language is another page.
	if en := body(pay + "?lang=en"); bytes.Equal(en, first) || !bytes.Contains(en, []byte(`lang="en"`)) {
		t.Error("the English page is not in English")
	}
	// Past the expiry, the next load shows the expired page.
	clock.Advance(5 * time.Minute)
	_, doc := e.get(pay)
	if doc.Find(testid("expired")).Length() != 1 {
		t.Error("past its expiry, the order's page is not the expired page")
	}
}

// Every JSON answer, of the shop, the PIX page and the merchant API, errors included, carries
// the security headers that apply to it: it loads nothing and is framed nowhere; the headers
// of pages (referrer, permissions, opener) are not sent.
func TestJSONAnswersCarryTheirSecurityHeaders(t *testing.T) {
	e := newEnv(t)
	pay := e.placeOrder()
	for _, path := range []string{pay + "/status", "/pay/nosuchorder/status", "/cep/01310-100", "/cep/123",
		"/api/v1/openapi.json", "/api/v1/sessions"} {
		res := e.do(http.MethodGet, path, nil)
		res.Body.Close()
		h := res.Header
		if ct := h.Get("Content-Type"); ct != "application/json; charset=utf-8" {
			t.Errorf("%s: %d, Content-Type %q", path, res.StatusCode, ct)
		}
		if csp := h.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") || !strings.Contains(csp, "frame-ancestors 'none'") {
			t.Errorf("%s: CSP %q", path, csp)
		}
		if h.Get("X-Content-Type-Options") != "nosniff" || h.Get("X-Frame-Options") != "DENY" || h.Get("X-Request-Id") == "" {
			t.Errorf("%s: headers %v", path, h)
		}
		for _, k := range []string{"Referrer-Policy", "Permissions-Policy", "Cross-Origin-Opener-Policy"} {
			if v := h.Get(k); v != "" {
				t.Errorf("%s: the page header %s: %q", path, k, v)
			}
		}
	}
}

func TestNewQRAfterExpiry(t *testing.T) {
	e := newEnv(t)
	pay := e.placeOrder()
	_, doc := e.get(pay)
	oldCode := strings.TrimSpace(doc.Find(testid("pix-code")).Text())
	// A new QR code is refused while the current one is valid.
	res, _ := e.post(pay+"/new-qr", url.Values{})
	e.location(res)
	_, doc = e.get(pay)
	if c := strings.TrimSpace(doc.Find(testid("pix-code")).Text()); c != oldCode {
		t.Fatal("new-qr replaced a valid QR code")
	}
	// Move the sandbox's clock past the expiry through its control endpoint.
	if err := e.client.Do(context.Background(), http.MethodPost, "/sandbox/clock/advance", map[string]int{"seconds": 31 * 60}, nil); err != nil {
		t.Fatal(err)
	}
	_, doc = e.get(pay)
	if doc.Find(testid("expired")).Length() != 1 {
		t.Fatalf("no expired view after the expiry")
	}
	if doc.Find(testid("pix-qr")).Length() != 0 {
		t.Error("the expired view shows the QR code")
	}
	action := formAction(doc, testid("new-qr"))
	if action != pay+"/new-qr" {
		t.Fatalf("new-qr form posts to %q", action)
	}
	res, _ = e.post(action, url.Values{})
	if loc := e.location(res); loc != pay {
		t.Errorf("new-qr redirects to %q", loc)
	}
	_, doc = e.get(pay)
	newCode := strings.TrimSpace(doc.Find(testid("pix-code")).Text())
	if newCode == "" || newCode == oldCode {
		t.Fatalf("new code %q (old %q)", newCode, oldCode)
	}
	o, err := e.svc.Order(context.Background(), orderID(pay))
	if err != nil {
		t.Fatal(err)
	}
	if o.Status != checkout.StatusAwaitingPayment || len(o.Attempts) != 2 {
		t.Errorf("order %s with %d attempts", o.Status, len(o.Attempts))
	}
	if e.gw.creates.Load() != 2 {
		t.Errorf("%d transactions created, want 2", e.gw.creates.Load())
	}
}

func TestGatewayDownThenBack(t *testing.T) {
	e := newEnv(t)
	e.gw.mu.Lock()
	e.gw.failCreate = &gatewayclient.APIError{StatusCode: 503, Method: "POST", Path: "/transaction"}
	e.gw.mu.Unlock()
	cart := e.newCart("ebook-receitas-do-cerrado", "1")
	_, doc := e.get(cart + "/checkout")
	res, _ := e.post(cart+"/checkout", customer(requestKey(t, doc)))
	pay := e.location(res) // the order is stored even though the gateway did not answer
	res, doc = e.get(pay)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("PIX page while the gateway is down: %d", res.StatusCode)
	}
	if st := doc.Find(testid("order-status")).Text(); !strings.Contains(st, "Gerando o QR Code") {
		t.Errorf("status %q, want the pending text", st)
	}
	if strings.TrimSpace(doc.Find(testid("pix-code")).Text()) != "" {
		t.Error("a code is shown while there is none")
	}
	// A stream opened now learns when the QR code appears, and is told to reload.
	stream := e.do(http.MethodGet, pay+"/events", nil)
	defer stream.Body.Close()
	events := make(chan sseEvent, 16)
	go readEvents(stream.Body, events)
	if ev := <-events; !strings.Contains(ev.data, `"pending"`) {
		t.Fatalf("first event %+v", ev)
	}
	e.gw.mu.Lock()
	e.gw.failCreate = nil
	e.gw.mu.Unlock()
	_, doc = e.get(pay) // the page retries with the same key
	if strings.TrimSpace(doc.Find(testid("pix-code")).Text()) == "" {
		t.Fatal("no code once the gateway is back")
	}
	got := false
	for ev := range events {
		if ev.name != "status" {
			continue
		}
		got = true
		var m map[string]string
		if err := json.Unmarshal([]byte(ev.data), &m); err != nil {
			t.Fatal(err)
		}
		if m["status"] != "awaiting_payment" || m["redirect"] != pay {
			t.Errorf("event %v: want awaiting_payment with a reload", m)
		}
		break
	}
	if !got {
		t.Error("the stream ended without telling that the QR code appeared")
	}
	page, err := e.client.ListDeposits(context.Background(), gatewayclient.DepositFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if page.Total != 1 {
		t.Errorf("%d transactions, want 1", page.Total)
	}
}

func TestSSESeesChangesMadeByAnotherInstance(t *testing.T) {
	e := newEnv(t, func(o *envOptions) { o.recheck = 20 * time.Millisecond })
	pay := e.placeOrder()
	res := e.do(http.MethodGet, pay+"/events", nil)
	defer res.Body.Close()
	events := make(chan sseEvent, 16)
	go readEvents(res.Body, events)
	if ev := <-events; !strings.Contains(ev.data, `"awaiting_payment"`) {
		t.Fatalf("first event %+v", ev)
	}
	// Another instance on the same database applies the payment: this process's event broker
	// never hears of it.
	other := checkout.NewService(e.store, e.gw, checkout.ServiceOptions{Clock: e.sb.Now})
	o, err := e.svc.Order(context.Background(), orderID(pay))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.sb.ControlDeposit(context.Background(), "checkout", o.CurrentAttempt().TransactionID, sandbox.ActionPay, sandbox.DepositControl{}); err != nil {
		t.Fatal(err)
	}
	if _, err := other.RefreshFromGateway(context.Background(), o.ID); err != nil {
		t.Fatal(err)
	}
	timeout := time.After(20 * time.Second)
	for {
		select {
		case ev, ok := <-events:
			if !ok {
				t.Fatal("stream ended without paid")
			}
			if strings.Contains(ev.data, `"paid"`) {
				return
			}
		case <-timeout:
			t.Fatal("the stream never saw the payment made by another instance")
		}
	}
}

// A QR code that cannot be made within web.PendingWait is not "being generated" forever: the page
// says the PIX code could not be made now, offers to try again, and the order stays pending.
// Before the bound, the pending page tells pix.js when to draw it again.
func TestPendingPastTheBoundIsHonest(t *testing.T) {
	e := newEnv(t)
	e.gw.mu.Lock()
	e.gw.failCreate = &gatewayclient.APIError{StatusCode: 503, Method: "POST", Path: "/transaction"}
	e.gw.mu.Unlock()
	cart := e.newCart("ebook-receitas-do-cerrado", "1")
	_, doc := e.get(cart + "/checkout")
	res, _ := e.post(cart+"/checkout", customer(requestKey(t, doc)))
	pay := e.location(res)
	_, doc = e.get(pay)
	if doc.Find(testid("qr-pending")).Length() != 1 || doc.Find(testid("qr-unavailable")).Length() != 0 {
		t.Fatal("a fresh pending order is not shown as being generated")
	}
	in, err := strconv.Atoi(doc.Find("[data-pix]").AttrOr("data-reload-in", ""))
	if err != nil || in < 1 || in > int(web.PendingWait/time.Second) {
		t.Errorf("data-reload-in %q, want 1..%d seconds", doc.Find("[data-pix]").AttrOr("data-reload-in", ""), int(web.PendingWait/time.Second))
	}
	if err := e.client.Do(context.Background(), http.MethodPost, "/sandbox/clock/advance", map[string]int{"seconds": int(web.PendingWait/time.Second) + 1}, nil); err != nil {
		t.Fatal(err)
	}
	_, doc = e.get(pay)
	if doc.Find(testid("qr-unavailable")).Length() != 1 || doc.Find(testid("qr-pending")).Length() != 0 {
		t.Fatalf("past the bound the page still says it is being generated: %q", doc.Find(testid("order-status")).Text())
	}
	if !strings.Contains(doc.Text(), "Não foi possível gerar o Pix agora") || doc.Find(testid("retry-pix")).AttrOr("href", "") != pay {
		t.Error("the honest page lacks its message or its retry link")
	}
	if st := doc.Find(testid("order-status")).AttrOr("data-status", ""); st != "pending" {
		t.Errorf("status %q, want pending: the page still turns into the QR page by itself", st)
	}
	// The live status says the same, so that the page's script does not say "being generated".
	res = e.do(http.MethodGet, pay+"/status", nil)
	var m map[string]string
	if err := json.NewDecoder(res.Body).Decode(&m); err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if m["status"] != "pending" || m["text"] != "Aguardando o sistema de pagamento" {
		t.Errorf("status JSON %v, want pending waiting for the payment system", m)
	}
	// The gateway comes back: the retry link (the page itself) gets the QR code.
	e.gw.mu.Lock()
	e.gw.failCreate = nil
	e.gw.mu.Unlock()
	_, doc = e.get(pay)
	if strings.TrimSpace(doc.Find(testid("pix-code")).Text()) == "" {
		t.Fatal("no code once the gateway is back")
	}
}
