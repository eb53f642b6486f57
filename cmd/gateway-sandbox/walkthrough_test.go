package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/makiuchi-d/gozxing"
	zxqr "github.com/makiuchi-d/gozxing/qrcode"

	"github.com/pixcheckout/pixcheckout/gatewayclient/brcode"
	"github.com/pixcheckout/pixcheckout/gatewayclient/webhook"
)

// hook is one webhook as the receiver saw it.
type hook struct {
	header http.Header
	body   []byte
}

// TestNewUserWalkthrough is the README's walkthrough, over real HTTP against the program
// itself: start it with a webhook forwarding URL, read what it prints, get a token as curl
// would (form-encoded), create a transaction, check its BR Code and QR image, pay it through
// the control endpoint, and watch the signed webhook arrive and verify with the printed
// secret. It ends with SIGTERM, as Ctrl-C would.
func TestNewUserWalkthrough(t *testing.T) {
	hooks := make(chan hook, 16)
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		hooks <- hook{r.Header.Clone(), b}
		w.WriteHeader(http.StatusNoContent)
	}))
	defer recv.Close()

	env := map[string]string{
		"SANDBOX_ADDR":               "127.0.0.1:0",
		"SANDBOX_DATA_DIR":           t.TempDir(),
		"SANDBOX_WEBHOOK_FORWARD_TO": recv.URL + "/pix-hooks",
	}
	var out, errOut syncBuffer
	addrc := make(chan string, 1)
	exit := make(chan int, 1)
	go func() {
		exit <- mainExit(nil, func(k string) string { return env[k] }, &out, &errOut, func(a string) { addrc <- a })
	}()
	var base string
	select {
	case a := <-addrc:
		base = "http://" + a
	case code := <-exit:
		t.Fatalf("exited early with %d: %s", code, errOut.String())
	case <-time.After(30 * time.Second):
		t.Fatal("the sandbox did not start")
	}

	// What it printed: the base URL, the default client and its webhook secret.
	printed := out.String()
	m := regexp.MustCompile(`webhook secret: (whsec_\S+)`).FindStringSubmatch(printed)
	if !strings.Contains(printed, "listening on "+base) || !strings.Contains(printed, "client id:      sandbox-client") ||
		!strings.Contains(printed, "client secret:  sandbox-secret") || m == nil {
		t.Fatalf("start-up output:\n%s", printed)
	}
	secret := m[1]

	// 1. A token, as curl -d would send it.
	res, err := http.PostForm(base+"/auth/token", url.Values{"client_id": {"sandbox-client"}, "client_secret": {"sandbox-secret"},
		"grant_type": {"client_credentials"}})
	if err != nil {
		t.Fatal(err)
	}
	var tok struct {
		AccessToken string `json:"access_token"`
		TokenType   string `json:"token_type"`
	}
	decodeBody(t, res, http.StatusOK, &tok)
	if tok.AccessToken == "" || tok.TokenType != "Bearer" {
		t.Fatalf("token %+v", tok)
	}
	call := func(method, path, body string, want int, v any) {
		t.Helper()
		req, err := http.NewRequest(method, base+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		decodeBody(t, res, want, v)
	}

	// 2. A transaction of R$ 19,90.
	var tx struct {
		ID          string `json:"id"`
		Status      string `json:"status"`
		PixResponse struct {
			URI          string `json:"uri"`
			QRCodeBase64 string `json:"qrCodeBase64"`
		} `json:"pixResponse"`
	}
	call("POST", "/transaction", `{"amount":1990,"paymentMethod":"PIX","idempotencyKey":"order-0001","externalCode":"order-0001","pix":{"expirationSeconds":900}}`,
		http.StatusCreated, &tx)
	if tx.Status != "PIX_QRCODE_GENERATED" {
		t.Fatalf("transaction %+v", tx)
	}
	// A phone app reading the QR code gets a well-formed PIX payload for that amount.
	p, err := brcode.Decode(tx.PixResponse.URI)
	if err != nil || p.Amount != 1990 {
		t.Fatalf("BR Code %q: %+v %v", tx.PixResponse.URI, p, err)
	}
	if got := decodeQR(t, tx.PixResponse.QRCodeBase64); got != tx.PixResponse.URI {
		t.Fatalf("the QR image holds %q, want the BR Code %q", got, tx.PixResponse.URI)
	}

	// 3. Pay it through the control endpoint.
	var paid struct {
		Status   string `json:"status"`
		EndToEnd string `json:"endToEnd"`
	}
	call("POST", "/sandbox/deposits/"+tx.ID+"/pay", "", http.StatusOK, &paid)
	if paid.Status != "PAID" || len(paid.EndToEnd) != 32 {
		t.Fatalf("after pay: %+v", paid)
	}

	// 4. The signed webhooks arrive: creation, then payment.
	v := webhook.Verifier{Secret: secret}
	var types []string
	for !slices.Contains(types, "deposit.paid") {
		var h hook
		select {
		case h = <-hooks:
		case <-time.After(30 * time.Second):
			t.Fatalf("webhooks received %v, still waiting for deposit.paid", types)
		}
		if err := v.Verify(h.header, h.body); err != nil {
			t.Fatalf("webhook signature with the printed secret: %v", err)
		}
		var ev struct {
			Type string `json:"type"`
			Data struct {
				ID     string `json:"id"`
				Status string `json:"status"`
			} `json:"data"`
		}
		if err := json.Unmarshal(h.body, &ev); err != nil || ev.Data.ID != tx.ID {
			t.Fatalf("webhook body %s: %v", h.body, err)
		}
		if ev.Type == "deposit.paid" && ev.Data.Status != "PAID" {
			t.Fatalf("deposit.paid with data status %s", ev.Data.Status)
		}
		types = append(types, ev.Type)
	}
	if types[0] != "deposit.pix_qrcode_generated" {
		t.Fatalf("webhooks in order %v", types)
	}

	// 5. Read it back.
	var d struct{ Status string }
	call("GET", "/deposit/"+tx.ID, "", http.StatusOK, &d)
	if d.Status != "PAID" {
		t.Fatalf("GET /deposit/{id}: %+v", d)
	}

	// Ctrl-C (here SIGTERM): a graceful stop with status 0.
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case code := <-exit:
		if code != 0 || !strings.Contains(out.String(), "stopped") {
			t.Fatalf("exit %d after SIGTERM: %s %s", code, out.String(), errOut.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no stop after SIGTERM")
	}
}

// TestMainExitOnSignalsAndBadConfig checks the exit statuses: 2 with one line for bad
// configuration, 0 after SIGINT.
func TestMainExitOnSignalsAndBadConfig(t *testing.T) {
	var errOut syncBuffer
	if code := mainExit([]string{"-addr", "nope"}, func(string) string { return "" }, io.Discard, &errOut, nil); code != 2 ||
		strings.Count(errOut.String(), "\n") != 1 || !strings.Contains(errOut.String(), "-addr: ") {
		t.Fatalf("bad config: exit %d, %q", code, errOut.String())
	}
	env := map[string]string{"SANDBOX_ADDR": "127.0.0.1:0", "SANDBOX_DATA_DIR": t.TempDir()}
	addrc := make(chan string, 1)
	exit := make(chan int, 1)
	var out syncBuffer
	go func() {
		exit <- mainExit(nil, func(k string) string { return env[k] }, &out, io.Discard, func(a string) { addrc <- a })
	}()
	select {
	case <-addrc:
	case code := <-exit:
		t.Fatalf("exited early with %d", code)
	case <-time.After(30 * time.Second):
		t.Fatal("the sandbox did not start")
	}
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case code := <-exit:
		if code != 0 || !strings.Contains(out.String(), "stopped") {
			t.Fatalf("exit %d after SIGINT: %s", code, out.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no stop after SIGINT")
	}
}

// decodeBody checks the status of res and decodes its JSON body into v.
func decodeBody(t *testing.T, res *http.Response, want int, v any) {
	t.Helper()
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != want {
		t.Fatalf("%s %s: %d %s, want %d", res.Request.Method, res.Request.URL.Path, res.StatusCode, b, want)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
}

// decodeQR reads a base64 PNG QR code back to its text.
func decodeQR(t *testing.T, b64 string) string {
	t.Helper()
	raw, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		t.Fatalf("qrCodeBase64: %v", err)
	}
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("qrCodeBase64 is not a PNG: %v", err)
	}
	bmp, err := gozxing.NewBinaryBitmapFromImage(img)
	if err != nil {
		t.Fatal(err)
	}
	res, err := zxqr.NewQRCodeReader().Decode(bmp, map[gozxing.DecodeHintType]any{gozxing.DecodeHintType_PURE_BARCODE: true})
	if err != nil {
		t.Fatalf("the QR image does not decode: %v", err)
	}
	return res.GetText()
}
