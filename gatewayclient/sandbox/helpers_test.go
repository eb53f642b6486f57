package sandbox

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"errors"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/makiuchi-d/gozxing"
	zxqr "github.com/makiuchi-d/gozxing/qrcode"

	gc "github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/brcode"
	"github.com/pixcheckout/pixcheckout/gatewayclient/contracttest"
)

// Test credentials.
const (
	testClientID = "test-client"
	testSecret   = "test-secret-0123456789"
)

// testStart is the base clock's start in tests.
var testStart = time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)

// env is a sandbox served over a real HTTP server, with a manual base clock.
type env struct {
	t     *testing.T
	dir   string
	clock *ManualClock
	sb    *Sandbox
	srv   *httptest.Server
	// http is the tests' HTTP client of the sandbox: every exchange with the gateway's API is
	// held to the contract (gatewayclient/openapi.json).
	http *http.Client
}

// newEnv starts a sandbox in a fresh temp dir, from a copy of the migrated database; mod may
// change the options.
func newEnv(t *testing.T, mod func(*Options)) *env {
	t.Helper()
	e := &env{t: t, dir: t.TempDir(), clock: NewManualClock(testStart)}
	b, err := migratedDB()
	if err != nil {
		t.Fatalf("migrating a template database: %v", err)
	}
	if err := os.WriteFile(filepath.Join(e.dir, dbFileName), b, 0o600); err != nil {
		t.Fatal(err)
	}
	e.start(mod)
	return e
}

// migratedDB is a database with every migration applied and nothing else, made once per test
// binary: migrating each env's own was most of what starting it cost under the race detector.
// (Package sandboxtest does the same for other packages' tests; it imports this package, so
// this package's own tests cannot use it.)
var migratedDB = sync.OnceValues(func() ([]byte, error) {
	dir, err := os.MkdirTemp("", "sandbox-test-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	w, r, err := openDB(context.Background(), dir, defaultBusyTimeout)
	if err != nil {
		return nil, err
	}
	// Closing checkpoints the write-ahead log into the file: the file alone is the database.
	if err := errors.Join(r.Close(), w.Close()); err != nil {
		return nil, err
	}
	return os.ReadFile(filepath.Join(dir, dbFileName))
})

// start opens the sandbox on e.dir (again, for restart tests).
func (e *env) start(mod func(*Options)) {
	e.t.Helper()
	opts := Options{
		DataDir: e.dir,
		Clients: []ClientConfig{{ID: testClientID, Secret: testSecret}},
		Clock:   e.clock,
	}
	if mod != nil {
		mod(&opts)
	}
	sb, err := New(context.Background(), opts)
	if err != nil {
		e.t.Fatalf("New: %v", err)
	}
	e.sb = sb
	e.srv = httptest.NewServer(sb)
	e.http = &http.Client{Transport: contracttest.Transport(e.t, nil, e.srv.URL, contracttest.Answers)}
	e.t.Cleanup(e.stop)
}

// stop closes the server and the sandbox (idempotent).
func (e *env) stop() {
	if e.srv != nil {
		e.srv.Close()
		e.srv = nil
	}
	if e.sb != nil {
		if err := e.sb.Close(); err != nil {
			e.t.Errorf("Close: %v", err)
		}
		e.sb = nil
	}
}

// client returns the real gateway client pointed at the sandbox, without retries and with
// the sandbox's clock, so token expiry is judged on simulated time.
func (e *env) client(opts ...gc.Option) *gc.Client {
	e.t.Helper()
	opts = append([]gc.Option{gc.WithRetryPolicy(gc.RetryPolicy{MaxAttempts: 1}), gc.WithHTTPClient(e.http)}, opts...)
	c, err := gc.New(e.srv.URL, testClientID, testSecret, opts...)
	if err != nil {
		e.t.Fatal(err)
	}
	return c
}

// token gets an access token with the given scopes (all when none).
func (e *env) token(scopes ...string) string {
	e.t.Helper()
	form := url.Values{"client_id": {testClientID}, "client_secret": {testSecret}, "grant_type": {"client_credentials"}}
	if len(scopes) > 0 {
		form.Set("scope", strings.Join(scopes, ","))
	}
	res, err := e.http.PostForm(e.srv.URL+"/auth/token", form)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(res.Body)
		e.t.Fatalf("token: %d %s", res.StatusCode, b)
	}
	var tok tokenResponse
	if err := json.NewDecoder(res.Body).Decode(&tok); err != nil {
		e.t.Fatal(err)
	}
	return tok.AccessToken
}

// do sends a request with a bearer token (none when token is "") and returns status, headers
// and body.
func (e *env) do(method, path, token string, body any) (int, http.Header, []byte) {
	e.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		j, err := json.Marshal(b)
		if err != nil {
			e.t.Fatal(err)
		}
		rd = bytes.NewReader(j)
	}
	req, err := http.NewRequest(method, e.srv.URL+path, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := e.http.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	return res.StatusCode, res.Header, b
}

// doJSON is do that expects status want and decodes the body into out (when not nil).
func (e *env) doJSON(method, path, token string, body any, want int, out any) {
	e.t.Helper()
	st, _, b := e.do(method, path, token, body)
	if st != want {
		e.t.Fatalf("%s %s: status %d, want %d; body %s", method, path, st, want, b)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			e.t.Fatalf("%s %s: decode %s: %v", method, path, b, err)
		}
	}
}

// txRequest is a valid transaction request.
func txRequest(key string, amount gc.Cents) gc.CreateTransactionRequest {
	return gc.CreateTransactionRequest{
		Amount:         amount,
		PaymentMethod:  gc.PaymentMethodPIX,
		IdempotencyKey: key,
		ExternalCode:   "order-" + key,
		Pix:            &gc.PixRequest{},
	}
}

// createTx creates a transaction through the raw API and returns it.
func (e *env) createTx(token, key string, amount gc.Cents) gc.Transaction {
	e.t.Helper()
	var tx gc.Transaction
	e.doJSON(http.MethodPost, "/transaction", token, txRequest(key, amount), http.StatusCreated, &tx)
	return tx
}

// errBody is the error body as the tests read it.
type errBody struct {
	StatusCode int             `json:"statusCode"`
	Error      string          `json:"error"`
	Message    json.RawMessage `json:"message"`
}

// decodeErr decodes an error body, failing the test if it lacks the NestJS shape.
func decodeErr(t *testing.T, b []byte) errBody {
	t.Helper()
	var eb errBody
	if err := json.Unmarshal(b, &eb); err != nil || eb.StatusCode == 0 || eb.Error == "" || len(eb.Message) == 0 {
		t.Fatalf("error body %s lacks statusCode/error/message (%v)", b, err)
	}
	return eb
}

// messages returns the message list of a 422 body.
func (eb errBody) messages(t *testing.T) []string {
	t.Helper()
	var ms []string
	if err := json.Unmarshal(eb.Message, &ms); err != nil {
		t.Fatalf("message %s is not a list: %v", eb.Message, err)
	}
	return ms
}

// checkPix checks that a pixResponse carries a valid BR Code for amount and a PNG of exactly
// that text.
func checkPix(t *testing.T, pix *gc.PixResponse, amount gc.Cents) {
	t.Helper()
	if pix == nil {
		t.Fatal("pixResponse missing")
	}
	p, err := brcode.Decode(pix.URI)
	if err != nil {
		t.Fatalf("BR Code %q does not decode: %v", pix.URI, err)
	}
	if p.Amount != int64(amount) {
		t.Fatalf("BR Code amount %d, want %d", p.Amount, amount)
	}
	if got := decodeQR(t, pix.QRCodeBase64); got != pix.URI {
		t.Fatalf("QR image holds %q, want %q", got, pix.URI)
	}
}

// decodeQR decodes a base64 PNG QR code with gozxing.
func decodeQR(t *testing.T, b64 string) string {
	t.Helper()
	raw, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		t.Fatalf("qrCodeBase64 is not base64: %v", err)
	}
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("qrCodeBase64 is not a PNG: %v", err)
	}
	bmp, err := gozxing.NewBinaryBitmapFromImage(img)
	if err != nil {
		t.Fatal(err)
	}
	// PURE_BARCODE: the image is the bare symbol with its quiet zone, so the decoder reads the
	// grid directly; its finder-pattern search misjudges the size of about 1 symbol in 100.
	res, err := zxqr.NewQRCodeReader().Decode(bmp, map[gozxing.DecodeHintType]any{gozxing.DecodeHintType_PURE_BARCODE: true})
	if err != nil {
		t.Fatalf("QR PNG does not decode: %v", err)
	}
	return res.GetText()
}

// clientClock lets the gateway client judge token expiry on the sandbox's simulated time.
type clientClock struct{ sb *Sandbox }

func (c clientClock) Now() time.Time { return c.sb.Now() }

func (c clientClock) Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// queryStrings returns the one text column of every row q selects from db.
func queryStrings(t *testing.T, db *sql.DB, q string) []string {
	t.Helper()
	rows, err := db.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// centsOf converts an int64 literal to cents.
func centsOf(v int64) gc.Cents { return gc.Cents(v) }
